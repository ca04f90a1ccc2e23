--- demo.lua: the example `make demo` runs from the repository root.
--
--   lua5.4 examples/demo.lua [map]
--
-- It runs grid_paths.lua: paths on a Moving AI map with each algorithm,
-- drawn in ASCII. The optional map argument is passed on (for example
-- ../shared/maps/den011d.map when the benchmark maps are at hand).
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
dofile(here .. "grid_paths.lua")
