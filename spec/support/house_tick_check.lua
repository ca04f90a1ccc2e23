--- The invariants of a house world's people at one tick, for the crowd
-- specs (spec/world_crowd_spec.lua, spec/world_door_flow_spec.lua,
-- spec/world_door_ways_spec.lua, spec/world_wall_stops_spec.lua):
-- everybody inside the world, off the given walls and furniture, and no
-- two people's squares overlapping; a run of a door scene until everybody
-- has a result; and a trace of a run as one hash.
local prng = require("support.prng")

local M = {}

local ONE = 65536

-- The invariants of one tick: nil, or a message saying what broke. walls:
-- list of {vertical, x, y} unit wall edges that stop people; boxes
-- (optional): furniture, {x0, y0, x1, y1} in tiles.
function M.broken(w, walls, boxes)
  local t = {}
  local n = w.walker:positions(t)
  local pos = {}
  for k = 0, n - 1 do
    local id, x, y = t[4 * k + 1], t[4 * k + 2], t[4 * k + 3]
    local h = w:object(id).half
    pos[#pos + 1] = { id = id, x = x, y = y, h = h }
    if x - h < 0 or y - h < 0 or x + h > w.width * ONE or y + h > w.height * ONE then
      return ("tick %d: person %d leaves the world"):format(w:now(), id)
    end
    for _, e in ipairs(walls) do
      local hits
      if e[1] then
        hits = x - h < e[2] * ONE and e[2] * ONE < x + h
          and y - h < (e[3] + 1) * ONE and e[3] * ONE < y + h
      else
        hits = y - h < e[3] * ONE and e[3] * ONE < y + h
          and x - h < (e[2] + 1) * ONE and e[2] * ONE < x + h
      end
      if hits then return ("tick %d: person %d overlaps a wall"):format(w:now(), id) end
    end
    for _, b in ipairs(boxes or {}) do
      if x + h > b[1] * ONE and x - h < b[3] * ONE and y + h > b[2] * ONE
          and y - h < b[4] * ONE then
        return ("tick %d: person %d overlaps furniture"):format(w:now(), id)
      end
    end
  end
  for i = 1, #pos do
    for j = i + 1, #pos do
      local a, b = pos[i], pos[j]
      if math.abs(a.x - b.x) < a.h + b.h and math.abs(a.y - b.y) < a.h + b.h then
        return ("tick %d: people %d and %d overlap"):format(w:now(), a.id, b.id)
      end
    end
  end
  return nil
end

-- Runs the scene c = { w =, people =, goals = {[id] = {x, y}}, walls =,
-- boxes = (optional), doors = {door, ...} } until every person has a
-- result (or `limit` ticks), checking the invariants every tick.
-- on_door(d, x, y) tells whether (x, y) lies on a tile of door d. Returns
-- the ticks used, how many arrived (route succeeded, standing within a
-- tile of the goal; 0 when the limit ran out), and the longest time
-- (ticks) anybody stood still on a door's tile without holding that door.
function M.run_doors(c, limit, on_door)
  local w = c.w
  local stand, worst = {}, 0
  for t = 1, limit do
    w:tick()
    local msg = M.broken(w, c.walls, c.boxes)
    assert(msg == nil, msg)
    local all = true
    for _, p in ipairs(c.people) do
      local x, y = p:position()
      local on = false
      for _, d in ipairs(c.doors) do
        local res = w:reservation(d.id)
        local held = false
        for _, id in ipairs(res and res.holders or {}) do
          if id == p.id then held = true end
        end
        if not held and on_door(d, x, y) then on = true end
      end
      if on and not p:walking() then
        stand[p.id] = (stand[p.id] or 0) + 1
        if stand[p.id] > worst then worst = stand[p.id] end
      else
        stand[p.id] = 0
      end
      if p:state().last_result == nil or p:walking() then all = false end
    end
    if all then
      local arrived = 0
      for _, p in ipairs(c.people) do
        local px, py = p:position()
        local g = c.goals[p.id]
        if p:state().last_result == "success" and math.abs(px - g[1]) <= 1
            and math.abs(py - g[2]) <= 1 then
          arrived = arrived + 1
        end
      end
      return t, arrived, worst
    end
  end
  return limit, 0, worst
end

-- Ticks world w until done(t) is true (at most `limit` ticks), checking
-- the invariants every tick (M.broken); returns the tick it was done on,
-- or nil when the limit ran out.
function M.run_until(w, walls, limit, done)
  for t = 1, limit do
    w:tick()
    local msg = M.broken(w, walls)
    assert(msg == nil, msg)
    if done(t) then return t end
  end
  return nil
end

-- Ticks w `ticks` times; returns a hash of every person's id, position
-- and facing after every tick (in id order), for comparing runs.
function M.trace(w, ticks)
  local h = prng.FNV_OFFSET
  local t = {}
  for _ = 1, ticks do
    w:tick()
    local n = w.walker:positions(t)
    for k = 1, 4 * n do h = prng.fnv32(h, tostring(t[k])) end
  end
  return h
end

return M
