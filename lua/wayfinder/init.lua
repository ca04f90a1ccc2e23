--- wayfinder: movement for game characters, with a C core.
-- `local wayfinder = require("wayfinder")` gives the public modules:
--   wayfinder.grid      navcell grids, obstructions and path search
--   wayfinder.movingai  Moving AI benchmark scenario files
--   wayfinder.queue     time-sliced path requests for many agents
--   wayfinder.rectplan     the rectangle-cover planner inside a room
--   wayfinder.world     house worlds: rooms, doors, people, the tick
--   wayfinder.bt        behavior tree nodes and movement primitives
--   wayfinder.gridplan  a within-room planner over a navcell grid
--   wayfinder.sweep     the swept collision test; wayfinder.units units
--   wayfinder.pathtable next-hop tables and compressed grid first-move tables
--   wayfinder.explore   agents that learn a level by sight (growing route tables)
--   wayfinder.steer     steering behaviours for groups of agents
--   wayfinder.formation formations that follow a path as one body
local core = require("wayfinder.core")

local M = {}

M.version = core.version
M.grid = require("wayfinder.grid")
M.movingai = require("wayfinder.movingai")
M.rectplan = require("wayfinder.rectplan")
M.queue = require("wayfinder.queue")
M.world = require("wayfinder.world")
M.bt = require("wayfinder.bt")
M.gridplan = require("wayfinder.gridplan")
M.sweep = require("wayfinder.sweep")
M.units = require("wayfinder.units")
M.graph = require("wayfinder.graph")
M.pathtable = require("wayfinder.pathtable")
M.explore = require("wayfinder.explore")
M.steer = require("wayfinder.steer")
M.formation = require("wayfinder.formation")

return M
