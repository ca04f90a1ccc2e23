--- wayfinder.queue: time-sliced path requests for many agents.
-- A queue serves path requests on one grid in submission order, spending at
-- most a given number of node expansions per queue:run call; see
-- docs/scale.md. The queue and its request handles are the
-- "wayfinder.Queue" and "wayfinder.Request" userdata of the C core.
local core = require("wayfinder.core")

local M = {}

--- Creates a queue for a grid: wayfinder.queue.new(grid [, options]).
M.new = core.queue_new

return M
