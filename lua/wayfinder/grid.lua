--- wayfinder.grid: constructors for navcell grids.
-- The grid object itself (methods such as find_path) lives in the C core as
-- the "wayfinder.Grid" userdata; see docs/grid.md.
local core = require("wayfinder.core")

local M = {}

--- Creates a width x height grid, every navcell passable.
M.new = core.grid_new

--- Builds a grid from ASCII rows: '.' passable, '@' or '#' blocked.
M.from_ascii = core.grid_from_ascii

--- Loads a Moving AI .map file; nil, message when it cannot be read.
M.load_movingai = core.grid_load_movingai

--- The largest side and cell count a grid may have.
M.MAX_SIDE = core.MAX_SIDE
M.MAX_CELLS = core.MAX_CELLS

return M
