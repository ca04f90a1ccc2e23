--- wayfinder.world.planning: planning inside rooms and scoring doors. The
-- world hands its planner (options.planner, by default the rectangle
-- planner) a room description it keeps up to date and a query per call;
-- door scoring runs on the world's door graph (wayfinder.doors).
local shr = require("wayfinder.compat").shr
local fixed = require("wayfinder.fixed")
local rectplan = require("wayfinder.rectplan")
local check = require("wayfinder.world.check")
local classes = require("wayfinder.world.classes")
local topology = require("wayfinder.world.topology")

local M = {}
local World = classes.World

local ONE = fixed.ONE
local from_number, to_number = fixed.from_number, fixed.to_number
local describe = check.describe
local fail = check.fail
local tile_index = topology.tile_index

M.PROPAGATIONS = { best_first = true, recursive = true }

--- The planner contract's room description (see docs/world.md). The table
-- is shared and rebuilt when walls or objects change; do not modify it.
function World:room_description()
  topology.refresh(self)
  local d = self.desc
  if not d or d.version ~= self.static_version then
    local W, H = self.width, self.height
    local rooms = {}
    for i = 1, W * H do rooms[i] = self.rooms[i] end
    local door_tiles = {}
    for _, o in ipairs(self.graph:doors()) do
      local t = o.tiles
      door_tiles[tile_index(self, t[1], t[2])] = true
      door_tiles[tile_index(self, t[3], t[4])] = true
    end
    local objects, people = {}, {}
    for _, o in ipairs(self.object_list) do
      local e
      if o.person then
        e = { id = o.id, x0 = 0, y0 = 0, x1 = 0, y1 = 0, room = 0, contained = false,
          walk_over = false, person = true }
        people[o.id] = e
      else
        local t = o.tiles
        e = { id = o.id, x0 = t[1], y0 = t[2], x1 = t[1] + o.w, y1 = t[2] + o.h,
          room = self.rooms[tile_index(self, t[1], t[2])], contained = o.contained,
          walk_over = o.walk_over, person = false }
      end
      objects[#objects + 1] = e
    end
    d = {
      version = self.static_version, moves = -1, people = people,
      room = { width = W, height = H, rooms = rooms, doors = door_tiles, walls = self:walls(),
        objects = objects },
    }
    -- only the people's entries change from now on: the rectangle planner
    -- reads the rest once
    rectplan.prepare(d.room)
    self.desc = d
  end
  -- the tick and the moves since, compared apart: folded into one number
  -- they stopped being exact past 2^53 (a loaded tick count of 2^40 on
  -- 5.1 and LuaJIT), and a move in the same tick went unseen
  if d.moves_tick ~= self.tick_count or d.moves ~= self.moves_version then
    local buf = self.desc_buf or {}
    self.desc_buf = buf
    local n = self.walker:positions(buf)
    for k = 0, n - 1 do
      local id, x, y = buf[4 * k + 1], buf[4 * k + 2], buf[4 * k + 3]
      local e, p = d.people[id], self.by_id[id]
      local h = p.half
      e.x0, e.y0, e.x1, e.y1 = to_number(x - h), to_number(y - h), to_number(x + h),
        to_number(y + h)
      e.room = self.rooms[tile_index(self, shr(x, 16), shr(y, 16))]
    end
    d.moves_tick, d.moves = self.tick_count, self.moves_version
  end
  return d.room
end

-- The query for person p's walk to dest; `ignore` is the distance within
-- which people near the goal are left out (fixed point) or nil. For the
-- rectangle planner without route files the query is in Q16.16 integers
-- (query.fixed) and so is the path it returns: positions go from the walker
-- to the planner and back without a float between them. Other planners get
-- the planner contract's world units.
local function query_for(w, p, dest, ignore)
  local x, y = w.walker:person(p.id)
  if w.planner == rectplan.plan and not w.route_files then
    return {
      fixed = true,
      start = { x, y },
      goal = { dest.x, dest.y },
      start_object = p.id,
      dest_object = dest.object,
      mode = dest.mode,
      near = dest.near,
      width = p.width,
      ignore_people_within = ignore,
      tuning = w.tuning,
    }
  end
  return {
    start = { to_number(x), to_number(y) },
    goal = { to_number(dest.x), to_number(dest.y) },
    start_object = p.id,
    dest_object = dest.object,
    mode = dest.mode,
    near = dest.near and to_number(dest.near) or nil,
    width = to_number(p.width),
    ignore_people_within = ignore and to_number(ignore),
    tuning = w.tuning,
  }
end

-- Calls the world's planner. With options.route_files and the rectangle
-- planner (wayfinder.rectplan.plan), the call also writes its route file,
-- route-NNNNNN.json numbered in call order, into that directory (the
-- planner object gives the same result as wayfinder.rectplan.plan).
local function call_planner(w, room, q)
  if not w.route_files or w.planner ~= rectplan.plan then
    return w.planner(room, q)
  end
  local planner = rectplan.planner(room, q)
  -- the planner is closed on every way out, an error included
  local ok, points, info = pcall(function()
    local points, info = planner:run()
    w.route_file_count = w.route_file_count + 1
    local path = ("%s/route-%06d.json"):format(w.route_files, w.route_file_count)
    local saved, err = planner:save_route(path)
    if not saved then error("cannot write route file: " .. tostring(err), 0) end
    return points, info
  end)
  planner:close()
  if not ok then error(points, 0) end
  return points, info
end

--- Plans person p's walk to `dest` ({x, y, mode, near, object}, fixed
-- point); with `ignore`, people within the world's ignore_radius of the
-- goal are left out. Returns the route as a flat fixed point list whose
-- first point is the exact start, or nil, "no_path" (nothing to find even
-- without people) or nil, "crowded".
function M.route(w, p, dest, ignore)
  local room = w:room_description()
  local q = query_for(w, p, dest, ignore and w.ignore_radius or nil)
  local points = call_planner(w, room, q)
  if not points then
    -- the same plan with every person ignored: a distance across the world
    q = query_for(w, p, dest, 2 * math.max(w.width, w.height) * ONE)
    if not call_planner(w, room, q) then return nil, "no_path" end
    return nil, "crowded"   -- only people are in the way
  end
  if type(points) ~= "table" or #points < 1 then
    error(("planner returned %s instead of a sequence of points"):format(describe(points)), 0)
  end
  local in_fixed = q.fixed
  local x, y = w.walker:person(p.id)
  local flat = { x, y }
  for k = 2, #points do
    local pt = points[k]
    if type(pt) ~= "table" or type(pt[1]) ~= "number" or type(pt[2]) ~= "number"
        or pt[1] ~= pt[1] or pt[2] ~= pt[2] then
      error(("planner returned a bad point %d: %s"):format(k, describe(pt)), 0)
    end
    local fx, fy = pt[1], pt[2]
    if not in_fixed then fx, fy = from_number(fx), from_number(fy) end
    if not topology.inside(w, fx, fy) then
      error(("planner returned point %d (%g, %g) outside the world"):format(k, to_number(fx),
        to_number(fy)), 0)
    end
    if fx ~= flat[#flat - 1] or fy ~= flat[#flat] then
      flat[#flat + 1] = fx
      flat[#flat + 1] = fy
    end
  end
  return flat
end

local PLAN_KEYS = { width = true, mode = true, near = true, ignore_people_within = true }

--- Plans within a room from (sx, sy) to (gx, gy) with the world's planner;
-- returns points {{x, y}, ...} or nil, reason.
function World:plan(sx, sy, gx, gy, options)
  local fname = "world:plan"
  local W, H = self.width, self.height
  check.num(fname, "sx", sx, 0, W)
  check.num(fname, "sy", sy, 0, H)
  check.num(fname, "gx", gx, 0, W)
  check.num(fname, "gy", gy, 0, H)
  options = options or {}
  if type(options) ~= "table" then fail(fname, "options must be a table") end
  check.keys(fname, "options", options, PLAN_KEYS)
  local width = options.width == nil and 0.5 or check.num(fname, "options.width",
    options.width, 0, 1, 2, true)
  local mode = options.mode or "point"
  if mode ~= "point" and mode ~= "near" then
    fail(fname, "options.mode must be 'point' or 'near', got " .. describe(mode))
  end
  local near = nil
  if mode == "near" then
    near = check.num(fname, "options.near", options.near, 0, 1024)
  end
  local ignore = nil
  if options.ignore_people_within ~= nil then
    ignore = check.num(fname, "options.ignore_people_within", options.ignore_people_within, 0,
      math.huge)
    -- beyond the world's span every person is ignored anyway
    ignore = math.min(ignore, 2 * math.max(W, H))
  end
  return call_planner(self, self:room_description(), {
    start = { sx, sy }, goal = { gx, gy }, mode = mode, near = near, width = width,
    ignore_people_within = ignore, tuning = self.tuning,
  })
end

-- -------------------------------------------------------- door scoring --

local SCORE_KEYS = { propagation = true }

--- Scores every door for a goal at (gx, gy): returns {[door id] = score}
-- (0 when not connected) and the number of door visits.
function World:door_scores(gx, gy, options)
  local fname = "world:door_scores"
  check.num(fname, "gx", gx, 0, self.width)
  check.num(fname, "gy", gy, 0, self.height)
  options = options or {}
  if type(options) ~= "table" then fail(fname, "options must be a table") end
  check.keys(fname, "options", options, SCORE_KEYS)
  local prop = options.propagation or self.propagation
  if not M.PROPAGATIONS[prop] then
    fail(fname, "options.propagation must be 'best_first' or 'recursive', got "
      .. describe(prop))
  end
  local fx, fy = from_number(gx), from_number(gy)
  local part = topology.part_at(self, fx, fy)
  if not part then fail(fname, "the goal lies in no part of a room") end
  local visits = self.graph:compute(0, fx, fy, { [part] = true }, prop)
  local out = {}
  for _, d in ipairs(self.graph:doors()) do out[d.id] = d.scores[0] end
  return out, visits
end

--- The door a person at (sx, sy) would take toward (gx, gy): its id and
-- start-adjusted score, or nil, "same_part" / "no_door".
function World:best_door(sx, sy, gx, gy, options)
  local fname = "world:best_door"
  check.num(fname, "sx", sx, 0, self.width)
  check.num(fname, "sy", sy, 0, self.height)
  local scores = self:door_scores(gx, gy, options)
  local prop = (options and options.propagation) or self.propagation
  local x, y = from_number(sx), from_number(sy)
  local part = topology.part_at(self, x, y)
  if not part then fail(fname, "the start lies in no part of a room") end
  local gpart = topology.part_at(self, from_number(gx), from_number(gy))
  if gpart == part then return nil, "same_part", scores end
  local d, v = self.graph:best(0, part, x, y, prop)
  if not d then return nil, "no_door", scores end
  return d.id, v, scores
end

return M
