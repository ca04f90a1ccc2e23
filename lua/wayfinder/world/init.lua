--- wayfinder.world: house worlds of rooms, doors, objects and people.
-- A world is a grid of tiles (1 tile = 1 world unit) with thin walls on tile
-- edges. Rooms are the flood fill of tiles not separated by walls; parts are
-- the flood fill of a room's tiles not covered by furniture, and door
-- scoring works on parts. Objects (furniture, doors, people) have stable
-- increasing ids; the object list in id order breaks every tie. People run
-- behavior trees in frames; world:tick() moves all walking people in one
-- call into the C core, then resumes behaviors in object-list order.
-- Positions are Q16.16 fixed point inside; floats only at this API.
-- See docs/world.md and docs/behaviors.md.
--
-- This file is the world's public face: creating, loading and drawing
-- worlds and registering trees. The rest lives beside it, one concern a
-- file: check (argument checks), classes (the World, Object and Ctx types),
-- topology (walls, rooms, parts), objects (adding, removing, doors),
-- person (object and person methods), reservations (one direction through
-- a door), planning (room planner and door scoring), ctx (the behaviors'
-- services), runtime (frames and the tick), save (save/load) and ascii
-- (layouts and drawings).
local core = require("wayfinder.core")
local bt = require("wayfinder.bt")
local btrun = require("wayfinder.btrun")
local doors = require("wayfinder.doors")
local rectplan = require("wayfinder.rectplan")
local fixed = require("wayfinder.fixed")
local util = require("wayfinder.util")
local check = require("wayfinder.world.check")
local classes = require("wayfinder.world.classes")
local objects = require("wayfinder.world.objects")
local planning = require("wayfinder.world.planning")
local save = require("wayfinder.world.save")
local ascii = require("wayfinder.world.ascii")
require("wayfinder.world.topology")
require("wayfinder.world.runtime")
require("wayfinder.world.person")

local M = {}
local World = classes.World

local describe = check.describe
local fail = check.fail

M.DOOR_TREE = classes.DOOR_TREE
M.ROUTE_TREE = classes.ROUTE_TREE
M.MAX_SIDE = 4096
M.MAX_TILES = 4194304
M.MAX_ROUTE_IDS = 4096
M.DEFAULT_ROUTE_IDS = 8
M.DEFAULT_MAX_SCORE = 1000000000
M.MAX_OBJECT_SIDE = objects.MAX_OBJECT_SIDE
M.MAX_PENALTY = objects.MAX_PENALTY
M.SAVE_FORMAT = save.FORMAT
M.SAVE_VERSION = save.VERSION
--- The per-world timing options of the movement primitives: their
-- defaults and the largest value allowed (smallest: 0).
M.TIMING = {
  goto_stall = 2,    -- ticks a Goto Relative stalls after bumping into a person
  crowd_stall = 4,   -- ticks it waits after a plan failed because of people only
  delta_stall = 8,   -- ticks a Delta Move waits, in all, for people in its way
  portal_turn = 12,  -- ticks a side waits at a door before the other side must stop
}
M.MAX_TIMING = 100000

-- --------------------------------------------------------- construction --

local WORLD_KEYS = { width = true, height = true, route_ids = true, max_score = true,
  propagation = true, planner = true, tuning = true, trees = true, max_steps = true,
  on_error = true, ignore_radius = true, route_files = true, goto_stall = true,
  crowd_stall = true, delta_stall = true, portal_turn = true, avoidance = true,
  door_flow = true }
--- The crowd modes of options.avoidance (docs/world.md, "Crowds").
M.AVOIDANCE = { none = true, sidestep = true }
--- The door modes of options.door_flow (docs/world.md, "Crowds").
M.DOOR_FLOW = { none = true, queue = true }
local TIMING_NAMES = { "goto_stall", "crowd_stall", "delta_stall", "portal_turn" }

local function add_tree(w, fname, name, root, level)
  check.name(fname, "name", name, level + 1)
  if w.trees[name] then
    fail(fname, ("a tree named '%s' is already registered"):format(name), level + 1)
  end
  if not bt.is_node(root) then
    fail(fname, ("tree '%s' must be a node from wayfinder.bt, got %s"):format(name,
      describe(root)), level + 1)
  end
  w.trees[name] = btrun.compile(root, name)
end

-- Checks the options (none of them is read twice) and builds the world.
local function new_world(fname, options, level)
  level = level + 1
  if type(options) ~= "table" then
    fail(fname, "options must be a table {width =, height =, ...}, got "
      .. describe(options), level)
  end
  check.keys(fname, "options", options, WORLD_KEYS, level)
  local W = check.int(fname, "options.width", options.width, 1, M.MAX_SIDE, level)
  local H = check.int(fname, "options.height", options.height, 1, M.MAX_SIDE, level)
  if W * H > M.MAX_TILES then
    fail(fname, ("width*height must be at most %d tiles, got %d"):format(M.MAX_TILES, W * H),
      level)
  end
  local route_ids = M.DEFAULT_ROUTE_IDS
  if options.route_ids ~= nil then
    route_ids = check.int(fname, "options.route_ids", options.route_ids, 1, M.MAX_ROUTE_IDS,
      level)
  end
  local max_score = M.DEFAULT_MAX_SCORE
  if options.max_score ~= nil then
    max_score = check.int(fname, "options.max_score", options.max_score, 1, 1125899906842624, level)
  end
  local propagation = options.propagation or "best_first"
  if not planning.PROPAGATIONS[propagation] then
    fail(fname, "options.propagation must be 'best_first' or 'recursive', got "
      .. describe(propagation), level)
  end
  local planner = options.planner or rectplan.plan
  if type(planner) ~= "function" then
    fail(fname, "options.planner must be a function(room, query), got " .. describe(planner),
      level)
  end
  local tuning = options.tuning or {}
  if type(tuning) ~= "table" then
    fail(fname, "options.tuning must be a table, got " .. describe(tuning), level)
  end
  local max_steps = 16
  if options.max_steps ~= nil then
    max_steps = check.int(fname, "options.max_steps", options.max_steps, 1, 1000, level)
  end
  local on_error = options.on_error
  if on_error ~= nil and type(on_error) ~= "function" then
    fail(fname, "options.on_error must be a function(person, message), got "
      .. describe(on_error), level)
  end
  local ignore_radius = 1.5
  if options.ignore_radius ~= nil then
    ignore_radius = check.num(fname, "options.ignore_radius", options.ignore_radius, 0, 1024,
      level)
  end
  if options.trees ~= nil and type(options.trees) ~= "table" then
    fail(fname, "options.trees must be a table {name = tree}, got "
      .. describe(options.trees), level)
  end
  local route_files = options.route_files
  if route_files ~= nil and (type(route_files) ~= "string" or route_files == "") then
    fail(fname, "options.route_files must be a directory name, got "
      .. describe(route_files), level)
  end
  local avoidance = options.avoidance
  if avoidance ~= nil and not M.AVOIDANCE[avoidance] then
    fail(fname, "options.avoidance must be 'none' or 'sidestep', got " .. describe(avoidance),
      level)
  end
  local door_flow = options.door_flow
  if door_flow ~= nil and not M.DOOR_FLOW[door_flow] then
    fail(fname, "options.door_flow must be 'none' or 'queue', got " .. describe(door_flow),
      level)
  end
  tuning = util.plain_copy(tuning, "options.tuning", fname)
  local opts = { width = W, height = H, route_ids = route_ids, max_score = max_score,
    propagation = propagation, max_steps = max_steps, ignore_radius = ignore_radius,
    tuning = tuning }
  -- "none" stays out of the options so saves of such worlds keep their shape
  if avoidance ~= nil and avoidance ~= "none" then opts.avoidance = avoidance end
  if door_flow ~= nil and door_flow ~= "none" then opts.door_flow = door_flow end
  for _, name in ipairs(TIMING_NAMES) do
    local v = options[name]
    opts[name] = v == nil and M.TIMING[name]
      or check.int(fname, "options." .. name, v, 0, M.MAX_TIMING, level)
  end
  local object_list = {}
  local w = setmetatable({
    options = opts,
    route_files = route_files, route_file_count = 0,
    width = W, height = H,
    route_ids = route_ids, max_score = max_score, propagation = propagation,
    planner = planner, tuning = tuning,
    max_steps = max_steps, on_error = on_error,
    ignore_radius = fixed.from_number(ignore_radius),
    walker = core.walker_new(W, H),
    graph = doors.new_graph(route_ids, max_score, propagation, object_list),
    vwall = {}, hwall = {},
    rooms = {}, nrooms = 0, parts = {}, nparts = 0, part_room = {},
    blocked = {},
    object_list = object_list, by_id = {}, next_id = 1,
    person_list = {},
    trees = {},
    tick_count = 0,
    topology_version = 0, static_version = 0, moves_version = 0,
    rooms_dirty = true, parts_dirty = true,
  }, classes.world_mt)
  w.ctx = setmetatable({ world = w }, classes.ctx_mt)
  if opts.avoidance then w.walker:set_avoidance(opts.avoidance) end
  w.trees[M.DOOR_TREE] = btrun.compile(M.standard_door_tree(opts.door_flow), M.DOOR_TREE)
  w.trees[M.ROUTE_TREE] = btrun.compile(bt.goto_relative { side = "near" }, M.ROUTE_TREE)
  if options.trees then
    for _, name in ipairs(check.sorted_keys(options.trees)) do
      if type(name) ~= "string" then
        fail(fname, "options.trees keys must be tree names, got " .. describe(name), level)
      end
      add_tree(w, fname, name, options.trees[name], level)
    end
  end
  return w
end

--- Creates an empty world (see docs/world.md for the options).
-- (Not a tail call: Lua 5.1 counts a tail call as a level of its own, so
-- the error level would point at it there; hence level 2.)
function M.new(options)
  local w = new_world("wayfinder.world.new", options, 2)
  return w
end

--- Rebuilds a saved world. trees maps every tree name the saved frames and
-- doors use (other than the built-in ones) to its root node.
function M.load(saved, trees, options)
  local w = save.load(new_world, saved, trees, options)   -- errors blame our caller
  return w
end

--- Builds a world from an ASCII layout (see docs/world.md).
function M.from_ascii(text, options)
  local w, made = ascii.from_ascii(M.new, text, options, 2)   -- errors blame our caller
  return w, made
end

-- -------------------------------------------------------------- trees --

--- Registers tree `root` under `name` for frames and portals.
function World:add_tree(name, root)
  add_tree(self, "world:add_tree", name, root, 2)
end

--- True when a tree of that name is registered.
function World:has_tree(name)
  return self.trees[name] ~= nil
end

local function door_unlocked(ctx)
  local d = ctx:stack_object()
  return d ~= nil and not d.locked
end

--- The standard door portal tree: walk to within 1.5 tiles of the door's
-- tile in the person's room, reserve the door (one person crosses a door at
-- a time, so two never meet head-on in it), step onto the door's tile,
-- check the lock, step one tile through; on any failure, set the
-- failed-portal protocol and fail. The reservation ends when the frame
-- pops. With door_flow "queue" (docs/world.md, "Crowds") the approach
-- ends within 3 tiles, where the door's queue waits, and both walks get
-- twice the tries: a queue at the door is no reason to give up on it.
function M.standard_door_tree(door_flow)
  local queue = door_flow == "queue"
  local tries = queue and 16 or 8
  return bt.selector {
    bt.sequence {
      bt.goto_relative { side = "portal", distance = queue and 3 or 1.5, max_tries = tries },
      bt.reserve_portal { ticks = 60 },
      bt.goto_relative { side = "portal", max_tries = tries },
      bt.condition(door_unlocked, "locked"),
      bt.delta_move { distance = 1 },
    },
    bt.fail_portal(),
  }
end

--- An ASCII picture of the world (see docs/world.md).
function World:draw(options)
  return ascii.draw(self, options)
end

return M
