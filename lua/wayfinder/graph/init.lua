--- wayfinder.graph: navigation graphs of sectors (boxes) and portals, built
-- from a grid or by hand, with portal mechanisms (walk, teleport, elevator,
-- ladder, jump, drop or a named kind, elevator schedules), actions,
-- classes and abilities, graphs of house worlds (doors as links),
-- surfaces and danger, innate waypaths, temporary jump links, and a
-- time-sliced solver, routes refined on the grid. The graph's description
-- lives in Lua as plain data; the C core (core.graph_*) gets a compiled
-- copy on the first query after a change. See docs/graph.md. The files
-- under wayfinder/graph/ each hold one concern; this one puts them
-- together as the public face.
local C = require("wayfinder.graph.check")
local model = require("wayfinder.graph.model")
require("wayfinder.graph.links")
require("wayfinder.graph.solve")
require("wayfinder.graph.refine")
local build = require("wayfinder.graph.build")
local save = require("wayfinder.graph.save")
local doors = require("wayfinder.graph.doors")
local graph_queue = require("wayfinder.graph_queue")

local M = {}

M.new = model.new
M.from_grid = build.from_grid
M.load = save.load
M.from_world = doors.from_world
M.doors_of = doors.doors_of

--- graph.new_queue() -> a queue of graph path requests (graph_queue.lua)
function M.new_queue()
  return graph_queue.new()
end

M.LIMIT = C.LIMIT
M.KINDS = C.KINDS

return M
