--- wayfinder.units: RTS units over a navcell grid, moved tick by tick.
-- The simulation is the "wayfinder.Units" userdata of the C core: units
-- with a position, class, radius and speed, ordered to goals, planned
-- through a request queue under a per-tick budget, and moved with the
-- swept collision rule of wayfinder.sweep; see docs/units.md.
local core = require("wayfinder.core")

local M = {}

--- Creates a simulation over a grid: wayfinder.units.new(grid [, options]).
M.new = core.units_new

--- Makes a simulation again from units:save(): wayfinder.units.load(grid, saved).
M.load = core.units_load

--- The reference's range against a structure: range + clearance + 1/8.
M.max_range_structure = core.units_max_range_structure

--- The reference's range against a unit: range + r1 + r2 + 1/8.
M.max_range_unit = core.units_max_range_unit

return M
