--- wayfinder.doors: room-to-room routing by door scores, on a door graph.
-- The graph (doors.new_graph) holds the doors in object-list order, the
-- doors of each part of a room, the route ids and who holds them; the world
-- keeps it up to date and nothing here sees the world. Every door keeps a
-- score table indexed by route id. A person routing to another room takes
-- the lowest free route id, the doors are scored for the goal, and the best
-- door of the person's part of a room is the one whose portal tree is
-- pushed. Scores are whole numbers: a door next to the goal
-- scores MAXSCORE - floor(distance), each further room passed costs
-- floor(distance between the two doors) + 1, and the doors of the start
-- part lose floor(distance from the start). See docs/world.md.
--
-- Two propagations give the same scores:
--   "best_first" (default): a priority queue visits each door once, from
--     the per-part door lists; ties do not propagate; locked doors are left
--     out and per-door penalties are subtracted.
--   "recursive": the original depth-first recursion, finding doors by
--     scanning the whole object list (the graph is given it for this
--     alone), propagating on ties, with no locks or penalties.
local idiv = require("wayfinder.compat").idiv
local fixed = require("wayfinder.fixed")

local M = {}

local floor_distance = fixed.floor_distance

local Graph = {}
Graph.__index = Graph
Graph.__name = "wayfinder.DoorGraph"

--- A door graph with route ids 1..route_ids, scores capped at max_score and
-- `propagation` ("best_first" or "recursive") as its default. `objects` is
-- the list the reference recursion scans for doors, as the original did
-- (the world's object list; only its doors are read).
function M.new_graph(route_ids, max_score, propagation, objects)
  return setmetatable({ route_ids = route_ids, max_score = max_score,
    propagation = propagation, list = {}, by_id = {}, part_doors = {}, owners = {},
    distances = {}, objects = objects }, Graph)
end

function Graph:__tostring()
  return ("wayfinder.DoorGraph (%d doors)"):format(#self.list)
end

-- ----------------------------------------------------------------- doors --

--- Adds door d (after every door added before: the list stays in
-- object-list order). Its score tables start empty.
function Graph:add(d)
  d.scores, d.dir = d.scores or {}, d.dir or {}
  self.list[#self.list + 1] = d
  self.by_id[d.id] = d
  self.distances = {}
end

--- Removes door d.
function Graph:remove(d)
  for k, x in ipairs(self.list) do
    if x == d then table.remove(self.list, k); break end
  end
  self.by_id[d.id] = nil
  self.distances = {}
end

--- The doors in object-list order (the graph's own list: do not change it).
function Graph:doors() return self.list end

--- Number of doors.
function Graph:count() return #self.list end

--- The door with that id, or nil.
function Graph:door(id) return self.by_id[id] end

--- Sets the doors of each part ({[part] = {door, ...}}, active doors only,
-- each list in object-list order); the world calls it when parts change.
function Graph:set_parts(part_doors)
  self.part_doors = part_doors
end

--- The active doors of part `part` (door list order); empty when none.
function Graph:part_doors_of(part)
  return self.part_doors and self.part_doors[part] or {}
end

-- ------------------------------------------------------------- route ids --

--- The lowest route id no person holds, now held by person (its route_id
-- is set); nil when all are taken.
function Graph:acquire(person)
  local owners = self.owners
  for rid = 1, self.route_ids do
    if not owners[rid] then
      owners[rid] = person.id
      person.route_id = rid
      return rid
    end
  end
  return nil
end

--- Gives route id rid back (only when person holds it).
function Graph:release(rid, person)
  if rid and self.owners[rid] == person.id then
    self.owners[rid] = nil
  end
  if person.route_id == rid then person.route_id = nil end
end

--- Gives back every route id held by the person with id `id`.
function Graph:release_all(id)
  for rid = 1, self.route_ids do
    if self.owners[rid] == id then self.owners[rid] = nil end
  end
end

--- The id of the person holding route id rid, or nil.
function Graph:owner(rid) return self.owners[rid] end

--- Hands route id rid to the person with id `id` (loading a save).
function Graph:set_owner(rid, id) self.owners[rid] = id end

--- Door id's score for route id rid (0 when it has none).
function Graph:score(id, rid)
  local d = self.by_id[id]
  return d and d.scores[rid] or 0
end

-- --------------------------------------------------------------- scoring --

local function other(d, part)
  if d.part_a == part then return d.part_b end
  return d.part_a
end

-- floor(distance) between two door centres, cached per graph until the
-- doors change.
local function door_distance(graph, a, b)
  local cache = graph.distances
  local key = a.id * 4294967296 + b.id   -- exact while ids stay below 2^21
  local v = cache[key]
  if not v then
    v = floor_distance(a.cx, a.cy, b.cx, b.cy)
    cache[key] = v
  end
  return v
end

local function goal_side(d, goal_parts)
  if goal_parts[d.part_a] then return d.part_a end
  if goal_parts[d.part_b] then return d.part_b end
  return nil
end

-- A binary max-heap of {score, seq, door, from}; ties pop in push order.
local function heap_less(a, b)
  if a[1] ~= b[1] then return a[1] > b[1] end
  return a[2] < b[2]
end

local function heap_push(h, item)
  local n = #h + 1
  h[n] = item
  while n > 1 do
    local p = idiv(n, 2)
    if heap_less(h[n], h[p]) then
      h[n], h[p] = h[p], h[n]
      n = p
    else
      break
    end
  end
end

local function heap_pop(h)
  local top = h[1]
  local n = #h
  h[1] = h[n]
  h[n] = nil
  n = n - 1
  local i = 1
  while true do
    local l, r = 2 * i, 2 * i + 1
    local m = i
    if l <= n and heap_less(h[l], h[m]) then m = l end
    if r <= n and heap_less(h[r], h[m]) then m = r end
    if m == i then break end
    h[i], h[m] = h[m], h[i]
    i = m
  end
  return top
end

local function best_first(graph, rid, gx, gy, goal_parts, excluded)
  local MAX = graph.max_score
  local heap, best, settled = {}, {}, {}
  excluded = excluded or {}
  local seq, visits = 0, 0
  local part_doors = graph.part_doors
  local function offer(d, from, s)
    if s <= 0 or d.locked or settled[d] or excluded[d.id] then return end
    if s <= (best[d] or 0) then return end
    best[d] = s
    seq = seq + 1
    heap_push(heap, { s, seq, d, from })
  end
  for _, d in ipairs(graph.list) do
    if d.active then
      local from = goal_side(d, goal_parts)
      if from then offer(d, from, MAX - floor_distance(d.cx, d.cy, gx, gy) - d.penalty) end
    end
  end
  while heap[1] do
    local item = heap_pop(heap)
    local d = item[3]
    if not settled[d] then
      settled[d] = true
      visits = visits + 1
      local s, from = item[1], item[4]
      d.scores[rid] = s
      d.dir[rid] = from
      local e = other(d, from)
      for _, di in ipairs(part_doors[e] or {}) do
        if not settled[di] then
          offer(di, e, s - door_distance(graph, d, di) - 1 - di.penalty)
        end
      end
    end
  end
  return visits
end

local function recursive(graph, rid, gx, gy, goal_parts)
  local MAX = graph.max_score
  local objects = graph.objects
  local visits = 0
  local function propagate(d, from, s)
    visits = visits + 1
    local old = d.scores[rid]
    if s < old then return end
    -- the direction is the first arrival at the door's best score
    if s > old then d.dir[rid] = from end
    d.scores[rid] = s
    local e = other(d, from)
    for _, o in ipairs(objects) do
      if o.door and o.active and (o.part_a == e or o.part_b == e) then
        propagate(o, e, s - door_distance(graph, d, o) - 1)
      end
    end
  end
  for _, o in ipairs(objects) do
    if o.door and o.active then
      local from = goal_side(o, goal_parts)
      if from then propagate(o, from, MAX - floor_distance(o.cx, o.cy, gx, gy)) end
    end
  end
  return visits
end

--- Scores every door for route id rid and the goal (gx, gy fixed point)
-- whose parts are the set goal_parts ({[part] = true}). `failed` lists the
-- ids of doors whose portal trees failed on this route: the best-first
-- propagation leaves them out, as if locked, so the other scores route
-- round them; the recursion scores as the reference and then sets them to
-- 0. Returns the number of door visits the propagation made.
function Graph:compute(rid, gx, gy, goal_parts, propagation, failed)
  for _, d in ipairs(self.list) do
    d.scores[rid] = 0
    d.dir[rid] = 0
  end
  local visits
  if (propagation or self.propagation) == "recursive" then
    visits = recursive(self, rid, gx, gy, goal_parts)
    for _, id in ipairs(failed or {}) do self:zero(rid, id) end
  else
    local excluded = {}
    for _, id in ipairs(failed or {}) do excluded[id] = true end
    visits = best_first(self, rid, gx, gy, goal_parts, excluded)
  end
  return visits
end

--- The best door for a person standing at (x, y) (fixed) in part `part`:
-- the highest score minus floor(distance from the start) among the doors
-- of that part whose score is positive and was not reached from that very
-- part (such a door would lead away from the goal). Ties go to the door
-- first in the object list. Returns the door and its value, or nil.
function Graph:best(rid, part, x, y, propagation)
  local best, bestv
  local faithful = (propagation or self.propagation) == "recursive"
  local list
  if faithful then
    list = self.objects
  else
    list = self.part_doors[part] or {}
  end
  for _, d in ipairs(list) do
    if d.door and d.active and (d.part_a == part or d.part_b == part)
        and (faithful or not d.locked) then
      local s = d.scores[rid] or 0
      if s > 0 and d.dir[rid] ~= part then
        local v = s - floor_distance(x, y, d.cx, d.cy)
        if not best or v > bestv then best, bestv = d, v end
      end
    end
  end
  return best, bestv
end

--- Sets door id's score for route id rid to 0 (the failure protocol).
function Graph:zero(rid, id)
  local d = self.by_id[id]
  if d and rid then d.scores[rid] = 0 end
end

return M
