--- wayfinder.world.topology: walls, rooms and parts of a house world, and
-- the door graph's part lists. Walls lie on tile edges; rooms are the flood
-- fill of tiles not separated by walls, parts the flood fill of a room's
-- tiles not covered by furniture. Rooms and parts are rebuilt lazily, when
-- asked for after a change. Positions here are Q16.16 fixed point.
local idiv = require("wayfinder.compat").idiv
local shr = require("wayfinder.compat").shr
local fixed = require("wayfinder.fixed")
local check = require("wayfinder.world.check")
local classes = require("wayfinder.world.classes")

local M = {}
local World = classes.World

local ONE = fixed.ONE
local from_number = fixed.from_number

local function vkey(w, x, y) return y * (w.width + 1) + x + 1 end
local function hkey(w, x, y) return y * w.width + x + 1 end

--- The index of tile (tx, ty) in the per-tile arrays (rooms, parts, blocked).
function M.tile_index(w, tx, ty) return ty * w.width + tx + 1 end
local tile_index = M.tile_index

--- Sets or clears the wall on one edge, in the world and in its walker.
function M.set_edge(w, vertical, x, y, on)
  if vertical then
    w.vwall[vkey(w, x, y)] = on or nil
  else
    w.hwall[hkey(w, x, y)] = on or nil
  end
  w.walker:set_wall(vertical, x, y, on)
end

--- Notes a change of walls or objects: routes and room descriptions
-- made before it are stale.
function M.changed(w)
  w.topology_version = w.topology_version + 1
  w.static_version = w.static_version + 1
end

--- The edge keys of the walls, sorted: vertical and horizontal (the save
-- format's vwalls and hwalls).
function M.wall_keys(w)
  local vw, hw = {}, {}
  for k in pairs(w.vwall) do vw[#vw + 1] = k end
  for k in pairs(w.hwall) do hw[#hw + 1] = k end
  table.sort(vw)
  table.sort(hw)
  return vw, hw
end

local function set_walls(w, fname, x0, y0, x1, y1, on)
  local W, H = w.width, w.height
  x0 = check.int(fname, "x0", x0, 0, W, 3)
  y0 = check.int(fname, "y0", y0, 0, H, 3)
  x1 = check.int(fname, "x1", x1, 0, W, 3)
  y1 = check.int(fname, "y1", y1, 0, H, 3)
  if x0 == x1 and y0 ~= y1 then
    if y0 > y1 then y0, y1 = y1, y0 end
    for y = y0, y1 - 1 do M.set_edge(w, true, x0, y, on) end
  elseif y0 == y1 and x0 ~= x1 then
    if x0 > x1 then x0, x1 = x1, x0 end
    for x = x0, x1 - 1 do M.set_edge(w, false, x, y0, on) end
  else
    check.fail(fname, ("a wall runs along one tile edge line: x0 == x1 or y0 == y1, and "
      .. "has length >= 1; got (%d, %d)-(%d, %d)"):format(x0, y0, x1, y1), 3)
  end
  w.rooms_dirty = true
  M.changed(w)
end

--- Adds a straight wall on tile edges from (x0, y0) to (x1, y1).
function World:add_wall(x0, y0, x1, y1)
  set_walls(self, "world:add_wall", x0, y0, x1, y1, true)
end

--- Removes the walls on the tile edges from (x0, y0) to (x1, y1).
function World:remove_wall(x0, y0, x1, y1)
  set_walls(self, "world:remove_wall", x0, y0, x1, y1, false)
end

--- True when the edge has a wall; vertical edge (x, y) runs from (x, y) to
-- (x, y + 1), horizontal edge (x, y) from (x, y) to (x + 1, y).
function World:wall(vertical, x, y)
  local fname = "world:wall"
  check.bool(fname, "vertical", vertical)
  if vertical then
    x = check.int(fname, "x", x, 0, self.width)
    y = check.int(fname, "y", y, 0, self.height - 1)
    return self.vwall[vkey(self, x, y)] == true
  end
  x = check.int(fname, "x", x, 0, self.width - 1)
  y = check.int(fname, "y", y, 0, self.height)
  return self.hwall[hkey(self, x, y)] == true
end

--- True when the edge has a wall (unchecked, for the world's own use).
function M.has_wall(w, vertical, x, y)
  if vertical then return w.vwall[vkey(w, x, y)] == true end
  return w.hwall[hkey(w, x, y)] == true
end

--- The walls as maximal straight runs {x0, y0, x1, y1}: horizontal runs
-- row by row, then vertical runs column by column.
function World:walls()
  local W, H = self.width, self.height
  local out = {}
  for y = 0, H do
    local x = 0
    while x < W do
      if self.hwall[hkey(self, x, y)] then
        local x0 = x
        while x < W and self.hwall[hkey(self, x, y)] do x = x + 1 end
        out[#out + 1] = { x0, y, x, y }
      else
        x = x + 1
      end
    end
  end
  for x = 0, W do
    local y = 0
    while y < H do
      if self.vwall[vkey(self, x, y)] then
        local y0 = y
        while y < H and self.vwall[vkey(self, x, y)] do y = y + 1 end
        out[#out + 1] = { x, y0, x, y }
      else
        y = y + 1
      end
    end
  end
  return out
end

-- ------------------------------------------------------- rooms and parts --

-- Flood fill of tiles 4-connected without a wall between them; with
-- `blocked`, tiles counted there are left out (label 0). Labels follow the
-- row-major order of each region's first tile.
local function label(w, blocked)
  local W, H = w.width, w.height
  local vwall, hwall = w.vwall, w.hwall
  local lab, n = {}, 0
  local stack = {}
  for start = 1, W * H do
    if not lab[start] then
      if blocked and (blocked[start] or 0) > 0 then
        lab[start] = 0
      else
        n = n + 1
        lab[start] = n
        local top = 1
        stack[1] = start
        while top > 0 do
          local idx = stack[top]
          top = top - 1
          local i = idx - 1
          local x, y = i % W, idiv(i, W)
          -- east, south, west, north
          if x + 1 < W and not vwall[y * (W + 1) + x + 2] then
            local j = idx + 1
            if not lab[j] and not (blocked and (blocked[j] or 0) > 0) then
              lab[j] = n; top = top + 1; stack[top] = j
            end
          end
          if y + 1 < H and not hwall[(y + 1) * W + x + 1] then
            local j = idx + W
            if not lab[j] and not (blocked and (blocked[j] or 0) > 0) then
              lab[j] = n; top = top + 1; stack[top] = j
            end
          end
          if x > 0 and not vwall[y * (W + 1) + x + 1] then
            local j = idx - 1
            if not lab[j] and not (blocked and (blocked[j] or 0) > 0) then
              lab[j] = n; top = top + 1; stack[top] = j
            end
          end
          if y > 0 and not hwall[y * W + x + 1] then
            local j = idx - W
            if not lab[j] and not (blocked and (blocked[j] or 0) > 0) then
              lab[j] = n; top = top + 1; stack[top] = j
            end
          end
        end
      end
    end
  end
  return lab, n
end

--- Brings the rooms up to date with the walls.
function M.refresh_rooms(w)
  if w.rooms_dirty then
    w.rooms, w.nrooms = label(w, nil)
    w.rooms_dirty = false
    w.parts_dirty = true
  end
end

--- Brings rooms, parts, the doors' sides and the door graph's part lists
-- up to date.
function M.refresh(w)
  M.refresh_rooms(w)
  if not w.parts_dirty then return end
  w.parts, w.nparts = label(w, w.blocked)
  local W = w.width
  local part_room = {}
  for idx = 1, #w.parts do
    local p = w.parts[idx]
    if p > 0 and not part_room[p] then part_room[p] = w.rooms[idx] end
  end
  w.part_room = part_room
  local part_doors = {}
  for _, d in ipairs(w.graph:doors()) do
    local t = d.tiles
    local ia, ib = t[2] * W + t[1] + 1, t[4] * W + t[3] + 1
    local pa, pb = w.parts[ia], w.parts[ib]
    d.part_a = pa ~= 0 and pa or nil
    d.part_b = pb ~= 0 and pb or nil
    d.room = w.rooms[ia]
    d.active = d.part_a ~= nil and d.part_b ~= nil and w.rooms[ia] ~= w.rooms[ib]
    if d.active then
      for _, p in ipairs({ d.part_a, d.part_b }) do
        local list = part_doors[p]
        if not list then list = {}; part_doors[p] = list end
        list[#list + 1] = d
      end
    end
  end
  w.graph:set_parts(part_doors)
  for _, o in ipairs(w.object_list) do
    if not o.person then o.room = w.rooms[o.tiles[2] * W + o.tiles[1] + 1] end
  end
  w.parts_dirty = false
end

--- Counts furniture footprint o on the tiles (delta 1) or takes it off (-1).
function M.cover(w, o, delta)
  local W = w.width
  local tx, ty = o.tiles[1], o.tiles[2]
  for y = ty, ty + o.h - 1 do
    for x = tx, tx + o.w - 1 do
      local idx = y * W + x + 1
      local n = (w.blocked[idx] or 0) + delta
      w.blocked[idx] = n ~= 0 and n or nil
    end
  end
  w.parts_dirty = true
end

--- True when the fixed point (x, y) lies inside the world.
function M.inside(w, x, y)
  return x >= 0 and y >= 0 and x < w.width * ONE and y < w.height * ONE
end
local inside = M.inside

--- Room of the fixed point (x, y) inside the world.
function M.room_of(w, x, y)
  M.refresh(w)
  return w.rooms[tile_index(w, shr(x, 16), shr(y, 16))]
end

--- Part of tile (tx, ty), nil for a tile under furniture.
function M.tile_part(w, tx, ty)
  M.refresh(w)
  local p = w.parts[tile_index(w, tx, ty)]
  if p == 0 then return nil end
  return p
end

--- Part at a fixed point position: its tile's part or, for a tile under
-- furniture, the part of the first neighbour (east, south, west, north)
-- reachable without crossing a wall; nil outside the world.
function M.part_at(w, x, y)
  if not inside(w, x, y) then return nil end
  M.refresh(w)
  local tx, ty = shr(x, 16), shr(y, 16)
  local W, H = w.width, w.height
  local p = w.parts[tile_index(w, tx, ty)]
  if p ~= 0 then return p end
  local function try(nx, ny, open)
    if open and nx >= 0 and ny >= 0 and nx < W and ny < H then
      local q = w.parts[tile_index(w, nx, ny)]
      if q ~= 0 then return q end
    end
    return nil
  end
  return try(tx + 1, ty, not w.vwall[vkey(w, tx + 1, ty)])
    or try(tx, ty + 1, not w.hwall[hkey(w, tx, ty + 1)])
    or try(tx - 1, ty, not w.vwall[vkey(w, tx, ty)])
    or try(tx, ty - 1, not w.hwall[hkey(w, tx, ty)])
end

--- Parts of the tiles that meet the square of half size `near` around
-- (cx, cy) and lie in a room of obj's footprint (of its centre for people).
function M.parts_near(w, obj, cx, cy, near)
  M.refresh(w)
  local rooms_of = {}
  if obj.person then
    local x, y = w.walker:person(obj.id)
    rooms_of[w.rooms[tile_index(w, shr(x, 16), shr(y, 16))]] = true
  else
    local t = obj.tiles
    rooms_of[w.rooms[tile_index(w, t[1], t[2])]] = true
    if t[3] then rooms_of[w.rooms[tile_index(w, t[3], t[4])]] = true end
  end
  local W, H = w.width, w.height
  local x0 = math.max(0, idiv(cx - near, ONE))
  local y0 = math.max(0, idiv(cy - near, ONE))
  local x1 = math.min(W - 1, idiv(cx + near - 1, ONE))
  local y1 = math.min(H - 1, idiv(cy + near - 1, ONE))
  local parts = {}
  for ty = y0, y1 do
    for tx = x0, x1 do
      local idx = tile_index(w, tx, ty)
      local p = w.parts[idx]
      if p ~= 0 and rooms_of[w.rooms[idx]] then parts[p] = true end
    end
  end
  return parts
end

--- Room id of the tile holding the point (x, y), or nil outside the world.
function World:room_at(x, y)
  local fname = "world:room_at"
  check.num(fname, "x", x, -1e9, 1e9)
  check.num(fname, "y", y, -1e9, 1e9)
  local fx, fy = from_number(x), from_number(y)
  if not inside(self, fx, fy) then return nil end
  return M.room_of(self, fx, fy)
end

--- Part id at the point (x, y) (see M.part_at), or nil.
function World:part_at(x, y)
  local fname = "world:part_at"
  check.num(fname, "x", x, -1e9, 1e9)
  check.num(fname, "y", y, -1e9, 1e9)
  return M.part_at(self, from_number(x), from_number(y))
end

--- Number of rooms and number of parts.
function World:room_count()
  M.refresh(self)
  return self.nrooms, self.nparts
end

return M
