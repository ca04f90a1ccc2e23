--- wayfinder.steer: steering behaviours for a group of agents (seek,
-- flee, arrive, pursue, evade, wander, separation, alignment, cohesion)
-- combined with integer weights, in the core's fixed point. A group keeps
-- its agents; group:step moves them all by one tick, checked by the one
-- swept rule against each other and, when given, against a grid. See
-- docs/steering.md.
local core = require("wayfinder.core")

local M = {}

--- A new steering group; options as docs/steering.md lists them.
M.group = core.steer_group

--- The behaviour names group:behave and group:force accept, in the order
-- their forces are added.
M.BEHAVIOURS = { "seek", "flee", "arrive", "pursue", "evade", "wander",
  "separation", "alignment", "cohesion" }

return M
