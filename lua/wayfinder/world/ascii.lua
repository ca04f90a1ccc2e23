--- wayfinder.world.ascii: house worlds as ASCII layouts and drawings.
-- from_ascii reads a layout drawn at double resolution (tiles at odd
-- columns and rows, walls and doors on the edges between them); draw
-- renders a world, its people and their routes in the same format. Both
-- work through the world's public methods; scripts reach them as
-- wayfinder.world.from_ascii and world:draw. See docs/world.md.
local idiv = require("wayfinder.compat").idiv
local shr = require("wayfinder.compat").shr
local fixed = require("wayfinder.fixed")

local M = {}

local describe = require("wayfinder.util").describe

local WALL_CHARS = { ["|"] = true, ["-"] = true, ["="] = true, ["#"] = true, ["+"] = true }
local EMPTY_CHARS = { [" "] = true, ["."] = true }

local FROM_KEYS = { legend = true, world = true, order = true }

-- A message from a call inside from_ascii without its position and the
-- inner function's name: what was wrong stays.
local function inner_message(msg)
  msg = tostring(msg):gsub("^[^:\n]+:%d+: ", "")
  return (msg:gsub("^[%w_.:]+: ", ""))
end

-- Adds the object a legend character stands for; a refusal names the
-- character and where it stands.
local function add(w, spec, ch, e)
  local ok, o = pcall(w.add_object, w, spec)
  if not ok then
    error(("wayfinder.world.from_ascii: '%s' at line %d, column %d: %s"):format(ch, e.r + 1,
      e.c + 1, inner_message(o)), 0)
  end
  return o
end

local function build(new, text, options)
  local fname = "wayfinder.world.from_ascii"
  if type(text) ~= "string" then
    error(fname .. ": text must be a string, got " .. describe(text), 2)
  end
  options = options or {}
  if type(options) ~= "table" then
    error(fname .. ": options must be a table, got " .. describe(options), 2)
  end
  for k in pairs(options) do
    if not FROM_KEYS[k] then
      error(("%s: unknown options key %s"):format(fname, describe(k)), 2)
    end
  end
  local legend = options.legend or {}
  if type(legend) ~= "table" then
    error(fname .. ": options.legend must be a table, got " .. describe(legend), 2)
  end
  for ch, spec in pairs(legend) do
    if type(ch) ~= "string" or #ch ~= 1 or WALL_CHARS[ch] or EMPTY_CHARS[ch] then
      error(("%s: options.legend keys must be single characters other than walls "
        .. "(| - = # +) and floor (space, .), got %s"):format(fname, describe(ch)), 2)
    end
    if type(spec) ~= "table" then
      error(("%s: options.legend['%s'] must be an object spec table, got %s"):format(
        fname, ch, describe(spec)), 2)
    end
  end
  local lines = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    lines[#lines + 1] = (line:gsub("\r$", ""))
  end
  while #lines > 0 and lines[#lines]:match("^%s*$") do lines[#lines] = nil end
  while #lines > 0 and lines[1]:match("^%s*$") do table.remove(lines, 1) end
  local cols = 0
  for _, l in ipairs(lines) do cols = math.max(cols, #l) end
  local W, H = idiv(cols - 1, 2), idiv(#lines - 1, 2)
  if W < 1 or H < 1 then
    error(fname .. ": the layout needs at least 3 lines of at least 3 characters", 2)
  end
  local function at(r, c)
    local l = lines[r + 1]
    if not l then return " " end
    local ch = l:sub(c + 1, c + 1)
    return ch == "" and " " or ch
  end
  local wopts = {}
  if options.world ~= nil and type(options.world) ~= "table" then
    error(fname .. ": options.world must be a table, got " .. describe(options.world), 2)
  end
  for k, v in pairs(options.world or {}) do wopts[k] = v end
  wopts.width, wopts.height = W, H
  local okw, w = pcall(new, wopts)
  if not okw then error(fname .. ": options.world: " .. inner_message(w), 0) end
  -- walls first, collecting doors and objects by character
  local found = {}
  local function note(ch, entry)
    if not legend[ch] then
      error(("%s: character '%s' at line %d, column %d is not in the legend"):format(
        fname, ch, entry.r + 1, entry.c + 1), 3)
    end
    local list = found[ch]
    if not list then list = {}; found[ch] = list end
    list[#list + 1] = entry
  end
  for r = 0, 2 * H do
    for c = 0, 2 * W do
      local ch = at(r, c)
      local oddr, oddc = r % 2 == 1, c % 2 == 1
      if oddr ~= oddc then
        -- an edge: vertical between tiles in odd rows, horizontal in odd columns
        local vertical = oddr
        local x, y = idiv(c, 2), idiv(r, 2)
        if WALL_CHARS[ch] or (not EMPTY_CHARS[ch]) then
          if vertical then w:add_wall(x, y, x, y + 1) else w:add_wall(x, y, x + 1, y) end
        end
        if not WALL_CHARS[ch] and not EMPTY_CHARS[ch] then
          note(ch, { r = r, c = c, edge = true, vertical = vertical, x = x, y = y })
        end
      elseif oddr and oddc and not EMPTY_CHARS[ch] then
        if WALL_CHARS[ch] then
          error(("%s: a wall character '%s' stands on tile (%d, %d) (line %d)"):format(
            fname, ch, idiv(c, 2), idiv(r, 2), r + 1), 2)
        end
        note(ch, { r = r, c = c, edge = false, x = idiv(c, 2), y = idiv(r, 2) })
      end
    end
  end
  local chars = {}
  if options.order ~= nil then
    if type(options.order) ~= "string" then
      error(fname .. ": options.order must be a string of legend characters, got "
        .. describe(options.order), 2)
    end
    for ch in options.order:gmatch(".") do chars[#chars + 1] = ch end
  end
  local listed = {}
  for _, ch in ipairs(chars) do listed[ch] = true end
  local rest = {}
  for ch in pairs(found) do if not listed[ch] then rest[#rest + 1] = ch end end
  table.sort(rest)
  for _, ch in ipairs(rest) do chars[#chars + 1] = ch end
  local made = {}
  for _, ch in ipairs(chars) do
    local entries = found[ch] or {}
    local list = {}
    made[ch] = list
    local covered = {}
    for _, e in ipairs(entries) do
      local spec = {}
      for k, v in pairs(legend[ch]) do spec[k] = v end
      if e.edge then
        spec.door = true
        if spec.type == nil then spec.type = "door" end
        if e.vertical then
          spec.x, spec.y, spec.w, spec.h = e.x - 1, e.y, 2, 1
        else
          spec.x, spec.y, spec.w, spec.h = e.x, e.y - 1, 1, 2
        end
        if spec.label == nil then spec.label = ch end
        list[#list + 1] = add(w, spec, ch, e)
      elseif not covered[e.y * W + e.x] then
        local person = spec.person == true or (spec.person == nil and spec.type == "person")
        if person then
          spec.x, spec.y = e.x + 0.5, e.y + 0.5
        else
          spec.x, spec.y = e.x, e.y
          for yy = e.y, e.y + (spec.h or 1) - 1 do
            for xx = e.x, e.x + (spec.w or 1) - 1 do covered[yy * W + xx] = true end
          end
        end
        if spec.label == nil then spec.label = ch end
        list[#list + 1] = add(w, spec, ch, e)
      end
    end
  end
  return w, made
end

--- Builds a world from a layout with `new` (wayfinder.world.new). Returns
-- the world and a table mapping each legend character to the objects made
-- for it, in creation order. Every error names wayfinder.world.from_ascii
-- and points at the caller's line (level counts from this function).
function M.from_ascii(new, text, options, level)
  local ok, w, made = pcall(build, new, text, options)
  if not ok then
    local msg = tostring(w):gsub("^[^:\n]+:%d+: ", "")
    error(msg, (level or 1) + 1)
  end
  return w, made
end

-- ------------------------------------------------------------- drawing --

local DRAW_KEYS = { routes = true }

--- Draws the world: walls, doors (their label; '/' open, '#' locked when
-- unlabelled), objects (label or first letter of the type), people (label
-- or '@') and, with routes (default true), '*' on tiles the remaining
-- routes cross.
function M.draw(w, options)
  options = options or {}
  if type(options) ~= "table" then
    error("world:draw: options must be a table, got " .. describe(options), 3)
  end
  for k in pairs(options) do
    if not DRAW_KEYS[k] then
      error(("world:draw: unknown options key %s"):format(describe(k)), 3)
    end
  end
  local routes = options.routes ~= false
  local W, H = w.width, w.height
  local canvas = {}
  for r = 0, 2 * H do
    local row = {}
    for c = 0, 2 * W do row[c + 1] = " " end
    canvas[r + 1] = row
  end
  local function put(r, c, ch) canvas[r + 1][c + 1] = ch end
  -- the world's border is drawn as a wall: nobody crosses it
  local function vwall(x, y) return x == 0 or x == W or w:wall(true, x, y) end
  local function hwall(x, y) return y == 0 or y == H or w:wall(false, x, y) end
  for y = 0, H - 1 do
    for x = 0, W do
      if vwall(x, y) then put(2 * y + 1, 2 * x, "|") end
    end
  end
  for y = 0, H do
    for x = 0, W - 1 do
      if hwall(x, y) then put(2 * y, 2 * x + 1, "-") end
    end
  end
  for y = 0, H do
    for x = 0, W do
      local any = (y > 0 and vwall(x, y - 1)) or (y < H and vwall(x, y))
        or (x > 0 and hwall(x - 1, y)) or (x < W and hwall(x, y))
      if any then put(2 * y, 2 * x, "+") end
    end
  end
  local tiles = {}
  local function mark(tx, ty, ch, force)
    if tx < 0 or ty < 0 or tx >= W or ty >= H then return end
    local k = ty * W + tx
    if force or not tiles[k] then tiles[k] = ch end
  end
  for _, o in ipairs(w:objects()) do
    if o.door then
      local e = o.edge
      local ch = o.label or (o.locked and "#" or "/")
      if e[1] then put(2 * e[3] + 1, 2 * e[2], ch) else put(2 * e[3], 2 * e[2] + 1, ch) end
    elseif not o.person then
      local ch = o.label or o.type:sub(1, 1):lower()
      for ty = o.tiles[2], o.tiles[2] + o.h - 1 do
        for tx = o.tiles[1], o.tiles[1] + o.w - 1 do mark(tx, ty, ch, true) end
      end
    end
  end
  local walker = w.walker
  for _, p in ipairs(w:people()) do
    local x, y = walker:person(p.id)
    mark(shr(x, 16), shr(y, 16), p.label or "@", true)
  end
  if routes then
    for _, p in ipairs(w:people()) do
      local x, y, _, walking, index = walker:person(p.id)
      if walking then
        local flat = walker:route(p.id)
        local ax, ay = x, y
        for k = index, idiv(#flat, 2) - 1 do
          local bx, by = flat[2 * k + 1], flat[2 * k + 2]
          local len = fixed.distance(ax, ay, bx, by)
          local steps = math.max(1, idiv(len, idiv(fixed.ONE, 4)))
          for s = 0, steps do
            local px = ax + idiv((bx - ax) * s, steps)
            local py = ay + idiv((by - ay) * s, steps)
            mark(shr(px, 16), shr(py, 16), "*", false)
          end
          ax, ay = bx, by
        end
      end
    end
  end
  for k, ch in pairs(tiles) do
    put(2 * idiv(k, W) + 1, 2 * (k % W) + 1, ch)
  end
  local out = {}
  for r = 1, #canvas do out[r] = (table.concat(canvas[r]):gsub("%s+$", "")) end
  return table.concat(out, "\n") .. "\n"
end

return M
