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
-- wait_seen = last tick someone of that side asked}
local idiv = require("wayfinder.compat").idiv
local fixed = require("wayfinder.fixed")
local topology = require("wayfinder.world.topology")

local M = {}

local ONE = fixed.ONE

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
  local now = w.tick_count
  local free = not busy or #busy.ids == 0
  local same = busy and busy.part == mine and #busy.ids > 0
  if same then
    -- follow only once every holder stands on the door's tile or is through
    local t = door.tiles
    local sx, sy = t[1], t[2]
    if topology.tile_part(w, sx, sy) ~= mine then sx, sy = t[3], t[4] end
    local cx, cy = sx * ONE + idiv(ONE, 2), sy * ONE + idiv(ONE, 2)
    for _, id in ipairs(busy.ids) do
      local hx, hy = w.walker:person(id)
      if topology.part_at(w, hx, hy) == mine
          and (math.abs(hx - cx) > idiv(ONE, 2) or math.abs(hy - cy) > idiv(ONE, 2)) then
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
      local keep = busy and busy.wait_part ~= mine and now - busy.wait_seen <= 1
        and busy.wait_part or nil
      busy = { part = mine, ids = {}, wait_part = keep,
        wait_since = keep and busy.wait_since or nil, wait_seen = keep and busy.wait_seen or nil }
      door.busy = busy
    end
    if busy.wait_part == mine then
      busy.wait_part, busy.wait_since, busy.wait_seen = nil, nil, nil
    end
    busy.ids[#busy.ids + 1] = p.id
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
  local mine = side_of(w, p)
  -- this side no longer waits (another waiter of it will say so again at
  -- its next try)
  if busy.wait_part == mine then
    busy.wait_part, busy.wait_since, busy.wait_seen = nil, nil, nil
  end
  if #busy.ids == 0 then door.busy = nil end
  return busy.ids[1]
end

--- Gives up person p's reservation of door d, if any.
function M.release(w, d, p)
  local busy = d.busy
  if not busy then return end
  local ids = busy.ids
  for k = #ids, 1, -1 do
    if ids[k] == p.id then table.remove(ids, k) end
  end
  if #ids == 0 and not busy.wait_part then d.busy = nil end
  if #ids == 0 and busy.wait_part and busy.wait_seen < w.tick_count - 1 then
    d.busy = nil
  end
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
