--- wayfinder.formation: formations (line, column, box, wedge or a list of
-- slots) that follow one path as a body, matched to their slowest member,
-- squeezing into a column where the shape does not fit and re-forming
-- after; and the minimum-travel assignment of members to slots (the
-- Hungarian method). In the core's fixed point; see docs/steering.md.
local core = require("wayfinder.core")

local M = {}

--- A formation over a path: formation.new(path, members [, options]).
M.new = core.formation_new

--- The slot offsets of a shape: a list of {x =, y =} (x forward, y left).
M.offsets = core.formation_offsets

--- Members to slots with the least total travel: a list of slot numbers
-- and the total distance.
M.assign = core.formation_assign

--- The shape names.
M.SHAPES = { "line", "column", "box", "wedge" }

return M
