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

local compat = require("wayfinder.compat")

local M = {}

-- The module's functions as the caller sees them: an error raised anywhere
-- inside (they check their arguments at different depths) is raised again
-- at the caller's line, without a position inside the library, and named
-- for the function the caller called (an error of a call it makes, such as
-- "grid:classes: the grid is closed", gets that name in front).
local function public(name, f)
  local fname = "wayfinder.graph." .. name
  return function(...)
    local r = compat.pack(pcall(f, ...))
    if r[1] then return compat.unpack(r, 2, r.n) end
    local msg = tostring(r[2]):gsub("^[^:\n]+:%d+: ", "")
    if msg:sub(1, #fname + 2) ~= fname .. ": " then msg = fname .. ": " .. msg end
    error(msg, 2)
  end
end

M.new = public("new", model.new)
M.from_grid = public("from_grid", build.from_grid)
M.load = public("load", save.load)
M.from_world = public("from_world", doors.from_world)
M.doors_of = public("doors_of", doors.doors_of)

--- graph.new_queue() -> a queue of graph path requests (graph_queue.lua)
function M.new_queue()
  return graph_queue.new()
end

-- every graph method (defined across wayfinder/graph/*.lua, all loaded
-- above): errors at the caller's line, named for the method called
require("wayfinder.util").public_methods(model.Graph, "graph", "a wayfinder.Graph")

M.LIMIT = C.LIMIT
M.KINDS = C.KINDS

return M
