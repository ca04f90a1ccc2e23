--- demo.lua: the example `make demo` runs from the repository root.
--
--   lua5.4 examples/demo.lua
--
-- It runs house.lua: a small house of rooms and doors where a few people
-- run errands to objects in other rooms, one locked door forces another
-- route and one door's portal tree fails and is handled by the failure
-- protocol; the house is drawn every few ticks, then a summary per person.
-- For paths on a benchmark map with each algorithm, run grid_paths.lua.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
dofile(here .. "house.lua")
