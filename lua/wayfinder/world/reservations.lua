--- wayfinder.world.reservations: one direction at a time through a door.
-- A door's reservation (door.busy) lists the people crossing it and the
-- part of a room they cross from; people on that side may follow once
-- every holder stands on the door's tile or is through, people on the
-- other side wait. A side that has waited `portal_turn` ticks (a world
-- option) stops new admissions from the other side, so a steady stream one
-- way cannot starve the other. The reservation ends when the holder's
-- portal frame pops or the holder is removed.
--
-- door.busy = {part = side the holders cross from, ids = {person ids},
-- wait_part = side someone waits on, wait_since = tick that began,
-- wait_seen = last tick someone of that side asked, leaving = {[id] =
-- tick}}
--
-- With the world option door_flow = "queue" (docs/world.md, "Door queues"):
-- a holder whose portal frame pops while it still stands in the doorway
-- (on either door tile) keeps the other side out until it has stepped off
-- (at most LEAVE_TICKS ticks), so nobody is admitted head-on into a
-- person coming through; a side follows its holders once they are within
-- a tile and a half of the door; door.admitted counts admissions, so a
-- waiter can tell a moving queue from a stuck door; and people told to
-- wait step out of the doorway and its lane to a spot beside it, and off
-- the tile of any other door of their room and the tile in front of it
-- (M.queue_spots); a door lets nobody into a full part whose people are
-- leaving (M.TILES_PER_PERSON).
local idiv = require("wayfinder.compat").idiv
local fixed = require("wayfinder.fixed")
local topology = require("wayfinder.world.topology")

local M = {}

local ONE = fixed.ONE
local HALF = idiv(ONE, 2)

--- Ticks a person coming through keeps a door's other side out, at most.
M.LEAVE_TICKS = 16

local function queued(w)
  return w.options.door_flow == "queue"
end

-- True when person id's centre is within 3/4 tile of a tile centre of the
-- door (on one of its two tiles, give or take a body).
local function in_doorway(w, door, id)
  local x, y = w.walker:person(id)
  if not x then return false end
  local t = door.tiles
  local r = ONE - idiv(ONE, 4)
  for k = 1, 3, 2 do
    local cx, cy = t[k] * ONE + HALF, t[k + 1] * ONE + HALF
    if math.abs(x - cx) < r and math.abs(y - cy) < r then return true end
  end
  return false
end

-- Drops the leaving people who are gone, off the door or out of time;
-- returns how many are left.
local function live_leaving(w, door, busy)
  local leaving = busy.leaving
  if not leaving then return 0 end
  local n = 0
  local ids = {}
  for id in pairs(leaving) do ids[#ids + 1] = id end
  table.sort(ids)
  for _, id in ipairs(ids) do
    if not w.by_id[id] or w.tick_count - leaving[id] > M.LEAVE_TICKS
        or not in_doorway(w, door, id) then
      leaving[id] = nil
    else
      n = n + 1
    end
  end
  if n == 0 then busy.leaving = nil end
  return n
end

-- Tiles of each part (cached while the parts stay the same).
local function part_tiles(w)
  topology.refresh(w)
  local cache = w.part_tiles
  if cache and cache.parts == w.parts then return cache.count end
  local count = {}
  for _, p in ipairs(w.parts) do
    if p > 0 then count[p] = (count[p] or 0) + 1 end
  end
  w.part_tiles = { parts = w.parts, count = count }
  return count
end

-- People standing in each part this tick (counted once a tick).
local function part_people(w)
  local cache = w.part_people
  if cache and cache.tick == w.tick_count then return cache.count end
  local count = {}
  for _, o in ipairs(w.object_list) do
    if o.person then
      local x, y = w.walker:person(o.id)
      local part = x and topology.part_at(w, x, y)
      if part then count[part] = (count[part] or 0) + 1 end
    end
  end
  w.part_people = { tick = w.tick_count, count = count }
  return count
end

--- Tiles of a part per person in it at which the door flow lets no more
-- people in from a part holding fewer (docs/world.md, "Door queues").
M.TILES_PER_PERSON = 8

-- True when someone in part `part` holds or waits for one of its doors
-- (its people are trying to leave).
local function leaving_part(w, part)
  local now = w.tick_count
  for _, d in ipairs(w.graph:part_doors_of(part)) do
    local busy = d.busy
    if busy and ((busy.part == part and #busy.ids > 0)
        or (busy.wait_part == part and now - busy.wait_seen <= 1)) then
      return true
    end
  end
  return false
end

-- True when door `door` leads from part `mine` into a full part: one with
-- a person for every TILES_PER_PERSON of its tiles or more, more people
-- than `mine` (so two full rooms still trade people), and someone in it
-- trying to leave (a room where a crowd gathers still fills).
local function full_beyond(w, door, mine)
  local t = door.tiles
  local other = topology.tile_part(w, t[1], t[2])
  if other == mine then other = topology.tile_part(w, t[3], t[4]) end
  if not other or other == mine then return false end
  local load = part_people(w)
  local n = load[other] or 0
  return n * M.TILES_PER_PERSON >= (part_tiles(w)[other] or 0) and (load[mine] or 0) < n
    and leaving_part(w, other)
end

local function side_of(w, p)
  local x, y = w.walker:person(p.id)
  return topology.part_at(w, x, y) or 0
end

--- Person p asks to cross door `door`: true when p holds (or now takes) the
-- reservation, false while p waits.
function M.reserve(w, door, p)
  local mine = side_of(w, p)
  local busy = door.busy
  if busy then
    -- forget holders that are gone
    local ids = busy.ids
    for k = #ids, 1, -1 do
      if not w.by_id[ids[k]] then table.remove(ids, k) end
    end
    for _, id in ipairs(ids) do
      if id == p.id then return true end
    end
  end
  -- a full room lets nobody in (the door flow): the person waits without
  -- asking for the door's turn, so those leaving that room go on
  if queued(w) and full_beyond(w, door, mine) then return false end
  local now = w.tick_count
  local leaving = busy and queued(w) and live_leaving(w, door, busy) or 0
  local free = not busy or (#busy.ids == 0 and leaving == 0)
  local same = busy and busy.part == mine and (#busy.ids > 0 or leaving > 0)
  if same then
    -- follow only once every holder stands on the door's tile or is through
    -- (in a door queue: within a tile and a half of it, so a queue walks
    -- on behind its head)
    local t = door.tiles
    local sx, sy = t[1], t[2]
    if topology.tile_part(w, sx, sy) ~= mine then sx, sy = t[3], t[4] end
    local cx, cy = sx * ONE + idiv(ONE, 2), sy * ONE + idiv(ONE, 2)
    local r = queued(w) and ONE + HALF or HALF
    for _, id in ipairs(busy.ids) do
      local hx, hy = w.walker:person(id)
      if topology.part_at(w, hx, hy) == mine
          and (math.abs(hx - cx) > r or math.abs(hy - cy) > r) then
        same = false
        break
      end
    end
  end
  -- the other side's turn: it has waited long, and someone still waits
  local turn = busy and busy.wait_part and busy.wait_part ~= mine
    and now - busy.wait_since >= w.options.portal_turn and now - busy.wait_seen <= 1
  if free or (same and not turn) then
    if free then
      local keep = busy and busy.wait_part and busy.wait_part ~= mine and now - busy.wait_seen <= 1
        and busy.wait_part or nil
      busy = { part = mine, ids = {}, wait_part = keep,
        wait_since = keep and busy.wait_since or nil, wait_seen = keep and busy.wait_seen or nil }
      door.busy = busy
    end
    if busy.wait_part == mine then
      busy.wait_part, busy.wait_since, busy.wait_seen = nil, nil, nil
    end
    busy.ids[#busy.ids + 1] = p.id
    if queued(w) then door.admitted = (door.admitted or 0) + 1 end
    return true
  end
  if not busy.wait_part or now - busy.wait_seen > 1 then
    busy.wait_part, busy.wait_since = mine, now
  end
  if busy.wait_part == mine then busy.wait_seen = now end
  return false
end

--- Person p stops waiting for door `door` (it asked with reserve this very
-- tick and was told to wait); returns the id of the first holder.
function M.give_up(w, door, p)
  local busy = door.busy
  if not busy then return nil end
  local mine = side_of(w, p)
  -- this side no longer waits (another waiter of it will say so again at
  -- its next try)
  if busy.wait_part == mine then
    busy.wait_part, busy.wait_since, busy.wait_seen = nil, nil, nil
  end
  if #busy.ids == 0 and not busy.leaving then door.busy = nil end
  return busy.ids[1]
end

--- Gives up person p's reservation of door d, if any.
function M.release(w, d, p)
  local busy = d.busy
  if not busy then return end
  local ids = busy.ids
  for k = #ids, 1, -1 do
    if ids[k] == p.id then
      table.remove(ids, k)
      if queued(w) and in_doorway(w, d, p.id) then
        busy.leaving = busy.leaving or {}
        busy.leaving[p.id] = w.tick_count
      end
    end
  end
  if busy.leaving then return end
  if #ids == 0 and not busy.wait_part then d.busy = nil end
  if #ids == 0 and busy.wait_part and busy.wait_seen < w.tick_count - 1 then
    d.busy = nil
  end
end

-- Waiting spots beside a door, as (along the wall, into the room) tile
-- offsets from the door's tile on the waiter's side, best first: none next
-- to the door's tile or in the lane straight out of it, so a person coming
-- through always finds the door tile's three neighbours free of waiters.
local SPOTS = { { 2, 0 }, { -2, 0 }, { 2, 1 }, { -2, 1 }, { 3, 0 }, { -3, 0 }, { 3, 1 },
  { -3, 1 }, { 2, 2 }, { -2, 2 }, { 2, 3 }, { -2, 3 }, { 3, 2 }, { -3, 2 } }

-- Door d's tile in part `part` and the unit vectors into the room (n)
-- and along the wall (t), in tiles; nil when d has no tile in that part.
local function frame_of(w, d, part)
  local t = d.tiles
  local hx, hy, ox, oy = t[1], t[2], t[3], t[4]
  if topology.tile_part(w, hx, hy) ~= part then
    hx, hy, ox, oy = ox, oy, hx, hy
    if topology.tile_part(w, hx, hy) ~= part then return nil end
  end
  local nx, ny = hx - ox, hy - oy
  return hx, hy, nx, ny, -ny, nx
end

-- True when the point (x, y) (fixed) stands in door d's way on the side
-- of part `part`: on its tile, beside it or in the lane straight out of it
-- (3 tiles); with `narrow`, only on its tile or the one straight in front
-- of it.
local function in_way(w, d, part, x, y, narrow)
  local hx, hy, nx, ny, tx, ty = frame_of(w, d, part)
  if not hx then return false end
  local rx, ry = x - (hx * ONE + HALF), y - (hy * ONE + HALF)
  local along, into = math.abs(rx * tx + ry * ty), rx * nx + ry * ny
  if into < -HALF then return false end
  if narrow then return along < ONE - idiv(ONE, 4) and into < ONE + 3 * idiv(ONE, 4) end
  local near = ONE + 3 * idiv(ONE, 4)
  return (along < ONE - idiv(ONE, 4) and into <= 3 * ONE) or (along < near and into < near)
end

-- The active doors of part `part`, the door `door` first (door list order
-- after it).
local function part_doors(w, door, part)
  local out = { door }
  for _, d in ipairs(w.graph:part_doors_of(part)) do
    if d ~= door and d.active then out[#out + 1] = d end
  end
  return out
end

--- Where person p, told to wait for door `door`, should wait. Returns nil
-- when p already stands out of the way of every door of its part (off
-- each door tile's neighbours and lane), else a list of candidate spots
-- {x, y} (fixed point, tile centres of p's part that no one stands on and
-- that are in no door's way), best first.
function M.queue_spots(w, door, p)
  local x, y = w.walker:person(p.id)
  local mine = topology.part_at(w, x, y)
  local hx, hy, nx, ny, tx, ty = frame_of(w, door, mine)
  if not hx then return nil end
  local doors = part_doors(w, door, mine)
  local blocking = false
  for k, d in ipairs(doors) do
    if in_way(w, d, mine, x, y, k > 1) then
      blocking = true
      break
    end
  end
  if not blocking then return nil end
  local out = {}
  for _, s in ipairs(SPOTS) do
    local sx, sy = hx + s[1] * tx + s[2] * nx, hy + s[1] * ty + s[2] * ny
    if sx >= 0 and sy >= 0 and sx < w.width and sy < w.height
        and topology.tile_part(w, sx, sy) == mine then
      local cx, cy = sx * ONE + HALF, sy * ONE + HALF
      local clear = true
      for k = 2, #doors do
        if in_way(w, doors[k], mine, cx, cy, true) then
          clear = false
          break
        end
      end
      if clear and w.walker:square_free(cx, cy, idiv(ONE, 4), p.id) then
        out[#out + 1] = { cx, cy }
      end
    end
  end
  return out
end

--- Door d's admission count (it grows while its queue moves).
function M.admitted(d)
  return d.admitted or 0
end

--- A copy of door d's reservation: {holders = {ids}, side = part,
-- waiting = part or nil}, or nil when there is none.
function M.view(d)
  local busy = d.busy
  if not busy then return nil end
  local holders = {}
  for k, id in ipairs(busy.ids) do holders[k] = id end
  return { holders = holders, side = busy.part, waiting = busy.wait_part }
end

return M
