--- wayfinder.world.person: the methods of objects and people. Every object
-- has a position, facing and room; people also have a stack of frames
-- (push, route_to, halt), a walk (route, walking, place, set_speed) and
-- their routing state (state, last_failure, set_failed_portal).
local idiv = require("wayfinder.compat").idiv
local fixed = require("wayfinder.fixed")
local util = require("wayfinder.util")
local check = require("wayfinder.world.check")
local classes = require("wayfinder.world.classes")
local topology = require("wayfinder.world.topology")
local objects = require("wayfinder.world.objects")
local runtime = require("wayfinder.world.runtime")

local Object = classes.Object

local from_number, to_number = fixed.from_number, fixed.to_number
local FACINGS = fixed.FACINGS
local describe = check.describe
local plain_copy = util.plain_copy

local function person_only(o, fname)
  if not o.person then
    error(("%s: object %d is a '%s', not a person"):format(fname, o.id, o.type), 3)
  end
  if o.removed then error(("%s: person %d was removed"):format(fname, o.id), 3) end
end

--- Position (x, y) in world units: the centre.
function Object:position()
  if self.person and not self.removed then
    local x, y = self.world.walker:person(self.id)
    return to_number(x), to_number(y)
  end
  if self.person then return nil end
  return to_number(self.cx), to_number(self.cy)
end

--- Facing as a direction name.
function Object:facing_name()
  if self.person and not self.removed then
    local _, _, f = self.world.walker:person(self.id)
    return FACINGS[f]
  end
  return FACINGS[self.facing]
end

--- Room id of the object (of its first tile; of its centre for people).
function Object:room()
  local w = self.world
  if self.removed then return nil end
  if self.person then return w:room_at(self:position()) end
  topology.refresh(w)
  return w.rooms[topology.tile_index(w, self.tiles[1], self.tiles[2])]
end

local PUSH_KEYS = { interrupt = true }

--- Pushes the registered tree `name` on this person's stack with stack
-- object `object` (an id or nil). With interrupt (the default) the current
-- frame pauses until the new one pops; with interrupt = false the frame is
-- queued below the whole stack.
function Object:push(name, object, options)
  local fname = "person:push"
  person_only(self, fname)
  local w = self.world
  if type(name) ~= "string" or not w.trees[name] then
    error(("%s: unknown tree name %s"):format(fname, describe(name)), 2)
  end
  if object ~= nil then objects.by_id(w, fname, object) end
  local interrupt = true
  if options ~= nil then
    if type(options) ~= "table" then error(fname .. ": options must be a table", 2) end
    check.keys(fname, "options", options, PUSH_KEYS)
    if options.interrupt ~= nil then
      interrupt = check.bool(fname, "options.interrupt", options.interrupt)
    end
  end
  runtime.push_frame(w, self, runtime.new_frame(name, object), interrupt)
end

local ROUTE_KEYS = { max_tries = true }

--- Moves this person to (x, y) without a tree of the script's own: pushes
-- the built-in route tree (Goto Relative to a point) with interrupt.
function Object:route_to(x, y, options)
  local fname = "person:route_to"
  person_only(self, fname)
  local w = self.world
  check.num(fname, "x", x, 0, w.width)
  check.num(fname, "y", y, 0, w.height)
  local fx, fy = from_number(x), from_number(y)
  if not topology.inside(w, fx, fy) then
    error(("%s: (%s, %s) lies outside the world"):format(fname, describe(x), describe(y)), 2)
  end
  local args = nil
  if options ~= nil then
    if type(options) ~= "table" then error(fname .. ": options must be a table", 2) end
    check.keys(fname, "options", options, ROUTE_KEYS)
    if options.max_tries ~= nil then
      args = { max_tries = check.int(fname, "options.max_tries", options.max_tries, 1, 1000) }
    end
  end
  runtime.push_frame(w, self, runtime.new_frame(classes.ROUTE_TREE, nil, nil, { fx, fy }, args),
    true)
end

--- Abandons every frame (top first); running primitives clean up.
function Object:halt()
  person_only(self, "person:halt")
  runtime.halt(self.world, self)
end

--- Sets the failed-portal protocol by hand: trap count = -id and
-- failed_portal = id (id must name a door).
function Object:set_failed_portal(id)
  local fname = "person:set_failed_portal"
  person_only(self, fname)
  local d = objects.door(self.world, fname, id)
  self.trap_count = -d.id
  self.failed_portal = d.id
end

--- The reason and blocker id of the last failure.
function Object:last_failure()
  return self.fail_reason, self.fail_blocker
end

--- The points still ahead on the current walk, {{x, y}, ...}.
function Object:route()
  person_only(self, "person:route")
  local walker = self.world.walker
  local _, _, _, walking, index = walker:person(self.id)
  local out = {}
  if walking then
    local flat = walker:route(self.id)
    for k = index, idiv(#flat, 2) - 1 do
      out[#out + 1] = { to_number(flat[2 * k + 1]), to_number(flat[2 * k + 2]) }
    end
  end
  return out
end

--- True while the person walks a route.
function Object:walking()
  person_only(self, "person:walking")
  local _, _, _, walking = self.world.walker:person(self.id)
  return walking
end

--- A summary of the person's routing state.
function Object:state()
  person_only(self, "person:state")
  local names = {}
  for k, f in ipairs(self.frames) do names[k] = f.tree end
  return {
    route_id = self.route_id,
    route_counter = self.route_counter,
    trap_count = self.trap_count,
    failed_portal = self.failed_portal,
    reason = self.fail_reason,
    blocker = self.fail_blocker,
    walking = self:walking(),
    frames = names,
    last_result = self.last_result,
    last_error = self.last_error,
    stats = plain_copy(self.stats, "stats", "person:state"),
  }
end

--- The person's frames, bottom first: {{tree = name, object = id or nil,
-- portal = door id or nil}, ...} (copies).
function Object:frame_stack()
  person_only(self, "person:frame_stack")
  local out = {}
  for k, f in ipairs(self.frames) do
    out[k] = { tree = f.tree, object = f.object, portal = f.portal }
  end
  return out
end

--- Moves a person without walking (drops any walk, which then replans).
function Object:place(x, y, facing)
  local fname = "person:place"
  person_only(self, fname)
  local w = self.world
  check.num(fname, "x", x, 0, w.width)
  check.num(fname, "y", y, 0, w.height)
  local fx, fy = from_number(x), from_number(y)
  if not topology.inside(w, fx, fy) then
    error(("%s: (%s, %s) lies outside the world"):format(fname, describe(x), describe(y)), 2)
  end
  local _, _, f, walking = w.walker:person(self.id)
  if facing ~= nil then f = check.facing(fname, "facing", facing) end
  w.walker:place(self.id, fx, fy, f)
  w.moves_version = w.moves_version + 1
  if walking then
    -- tell the walking primitive its walk ended here: it replans
    self.waiting_move = false
    self.ev_kind, self.ev_blocker = 2, 0
    self.wake = true
  end
end

--- The person's motion options and state: {accel, turn_rate,
-- arrive_radius, corner_radius (numbers, 0 when off), lookahead (boolean),
-- current_speed (this tick's step length), hx, hy (the heading)}.
function Object:motion()
  person_only(self, "person:motion")
  local a, t, r, l, c, cur, hx, hy = self.world.walker:motion(self.id)
  return {
    accel = to_number(a), turn_rate = t / 2 ^ 40, arrive_radius = to_number(r),
    lookahead = l, corner_radius = to_number(c), current_speed = to_number(cur),
    hx = to_number(hx), hy = to_number(hy),
  }
end

--- Sets the person's speed in tiles per tick, (0, 1].
function Object:set_speed(speed)
  local fname = "person:set_speed"
  person_only(self, fname)
  local s = check.num(fname, "speed", speed, 0, 1, 2, true)
  self.speed = math.max(1, from_number(s))
  self.world.walker:set_speed(self.id, self.speed)
end

return {}
