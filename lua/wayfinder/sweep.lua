--- wayfinder.sweep: the swept collision test every mover shares.
-- A move is the closed segment from (ax, ay) to (bx, by). Against a unit's
-- square (grown by the mover's radius) a move that starts inside or on it
-- never collides, one that ends inside or on it does, and otherwise it
-- collides when the segment meets it. Against the grid a move collides
-- when it meets any navcell not passable for the class. Exact, in the
-- core's fixed point; see docs/units.md.
local core = require("wayfinder.core")

local M = {}

--- Whether the move collides with the square of half size `half` at (cx, cy).
M.square = core.sweep_square

--- Whether the move collides with the closed box [x0, x1] x [y0, y1] by the
-- same rule (a wall or a piece of furniture grown by the mover's half size).
M.box = core.sweep_box

--- Whether the move meets a navcell not passable for the class: false, or
-- true, i, j with the first such navcell from the move's start.
M.grid = core.sweep_grid

--- The longest move along each axis, in world units.
M.MAX_STEP = core.SWEEP_MAX_STEP

return M
