--- wayfinder.world.ctx: the frame context, the one door from behaviors to
-- the world. Actions, conditions and primitives get `ctx`, set up for the
-- person and frame running now; its methods are the world's services in
-- the core's units (positions and lengths Q16.16 fixed point, facings
-- 0..7). The movement primitives use nothing else, and scripts' own nodes
-- may use the same methods. See docs/behaviors.md, "The context".
local compat = require("wayfinder.compat")
local check = require("wayfinder.world.check")
local classes = require("wayfinder.world.classes")
local topology = require("wayfinder.world.topology")
local objects = require("wayfinder.world.objects")
local planning = require("wayfinder.world.planning")
local reservations = require("wayfinder.world.reservations")

local M = {}
local Ctx = classes.Ctx

local describe = check.describe

-- ------------------------------------------------------------- frames --

--- Asks for tree `name` to be pushed with interrupt above this frame once
-- the node returns "running".
function Ctx:push(name, object, portal)
  local w = self.world
  if type(name) ~= "string" or not w.trees[name] then
    error(("ctx:push: unknown tree name %s"):format(describe(name)), 0)
  end
  if object ~= nil and (compat.type(object) ~= "integer" or not w.by_id[object]) then
    error(("ctx:push: object %s names no object"):format(describe(object)), 0)
  end
  self.person.pending = { tree = name, object = object, portal = portal, pos = self.pos }
end

--- The result of the frame this node pushed, once it popped; nil before.
function Ctx:take_child()
  local f = self.frame
  if f.waiting == self.pos and f.child then
    local c = f.child
    f.child, f.waiting = nil, nil
    return c
  end
  return nil
end

--- Sets the person's failure reason and blocker.
function Ctx:fail(reason, blocker)
  self.person.fail_reason = reason
  self.person.fail_blocker = blocker
end

--- The frame's stack object, or nil.
function Ctx:stack_object()
  local id = self.frame.object
  return id and self.world.by_id[id] or nil
end

-- ---------------------------------------------------------- the world --

--- The object with that id, or nil (ctx.object is the stack object's id).
function Ctx:lookup(id)
  return self.world.by_id[id]
end

--- Ticks run so far.
function Ctx:now()
  return self.world.tick_count
end

--- The value of world option `name` (see wayfinder.world.new).
function Ctx:option(name)
  local v = self.world.options[name]
  if v == nil then error(("ctx:option: unknown option %s"):format(describe(name)), 2) end
  return v
end

--- A number that changes whenever walls, objects, locks or penalties do.
function Ctx:topology_version()
  return self.world.topology_version
end

--- True when the fixed point (x, y) lies inside the world.
function Ctx:inside(x, y)
  return topology.inside(self.world, x, y)
end

--- The part at the fixed point (x, y) (a covered tile's open neighbour's),
-- or nil.
function Ctx:part_at(x, y)
  return topology.part_at(self.world, x, y)
end

--- The part of tile (tx, ty), nil under furniture.
function Ctx:tile_part(tx, ty)
  return topology.tile_part(self.world, tx, ty)
end

--- The set {[part] = true} of parts within `near` of (cx, cy) in obj's rooms.
function Ctx:parts_near(obj, cx, cy, near)
  return topology.parts_near(self.world, obj, cx, cy, near)
end

--- Centre of object obj (fixed point).
function Ctx:center(obj)
  return objects.center(self.world, obj)
end

--- Half width and half height of object obj (fixed point).
function Ctx.extents(_, obj)
  return objects.extents(obj)
end

--- The door graph (wayfinder.doors): route ids, door scores, best doors.
function Ctx:doors()
  return self.world.graph
end

-- --------------------------------------------------------- the person --

--- The person's position and facing: x, y (fixed point), facing 0..7.
function Ctx:position()
  local x, y, f = self.world.walker:person(self.person.id)
  return x, y, f
end

--- Plans the person's walk to dest {x, y, mode, near, object} (fixed
-- point); see docs/behaviors.md. Returns a flat list {x1, y1, x2, y2, ...}
-- starting at the person, or nil, "no_path" / "crowded".
function Ctx:plan(dest, ignore)
  return planning.route(self.world, self.person, dest, ignore)
end

--- Starts walking the flat fixed point route `points` (as ctx:plan gives);
-- with `awake` the frame keeps running every tick while the walk goes on.
function Ctx:walk(points, awake)
  local p = self.person
  self.world.walker:set_route(p.id, points, 1)
  p.waiting_move = not awake
  p.ev_kind, p.ev_blocker = nil, nil
end

--- Ends the person's walk where it stands.
function Ctx:stop()
  local p = self.person
  self.world.walker:stop(p.id)
  p.waiting_move = false
  p.ev_kind, p.ev_blocker = nil, nil
end

--- Turns the person to facing f (0..7).
function Ctx:turn(f)
  local w = self.world
  local id = self.person.id
  local x, y = w.walker:person(id)
  w.walker:place(id, x, y, f)
  w.moves_version = w.moves_version + 1
end

--- What the walk reported this tick, once: kind (1 arrived, 2 blocked) and
-- the blocker's id (0 for walls); nil when there is no news.
function Ctx:walk_event()
  local p = self.person
  local kind, blocker = p.ev_kind, p.ev_blocker
  if not kind then return nil end
  p.ev_kind, p.ev_blocker = nil, nil
  return kind, blocker
end

--- Asks to cross door `door`: true when the person holds its reservation,
-- false while it waits (see reserve_portal).
function Ctx:reserve_portal(door)
  return reservations.reserve(self.world, door, self.person)
end

--- Stops waiting for door `door` after reserve_portal said to wait;
-- returns the id of the person holding it.
function Ctx:give_up_portal(door)
  return reservations.give_up(self.world, door, self.person)
end

--- The world's door flow: "queue" or "none" (world option door_flow).
function Ctx:door_flow()
  return self.world.options.door_flow or "none"
end

--- Door `door`'s admission count: it grows while its queue moves.
function Ctx.portal_admitted(_, door)
  return reservations.admitted(door)
end

--- Where the person, told to wait for door `door`, should wait: nil when
-- it stands out of the doorway already, else candidate spots {{x, y},
-- ...} (fixed point) beside the door, best first (world option door_flow).
function Ctx:queue_spots(door)
  return reservations.queue_spots(self.world, door, self.person)
end

return M
