-- tools/failalloc/scenario.lua: a fixed run over the C core's allocating
-- calls, for tools/failalloc/run.sh, which runs it once per allocation of
-- the core with that allocation failing (tools/failalloc/shim.c). Every
-- step runs in pcall: it must succeed, return nil and a reason, or raise
-- an error that says memory ran out; anything else is printed as "BAD"
-- and the script exits 1. A crash is found by run.sh from the exit status.
--   lua5.4 tools/failalloc/scenario.lua
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = (os.getenv("WAYFINDER_CPATH") or "build/?.so") .. ";" .. package.cpath

local wayfinder = require("wayfinder")
local core = require("wayfinder.core")
local bad = 0

local function step(name, f)
  local ok, err = pcall(f)
  if not ok and not tostring(err):find("memory", 1, true) then
    bad = bad + 1
    io.stderr:write("BAD ", name, ": ", tostring(err), "\n")
  end
end

local CLASSES = { { name = "small" }, { name = "big", clearance = 1 } }
local g, q, u, walker, graph
local function make_grid()
  g = wayfinder.grid.new(40, 32, { classes = CLASSES, border = 1 })
  g:batch(function()
    for x = 5, 30 do g:set_passable(x, 10, false) end
    for y = 12, 28 do g:set_passable(20, y, false) end
  end)
  g:set_cost(3, 3, 4)
  g:set_cost(3, 3, 1)
  local id = g:add_obstruction { x = 12, y = 20, half_width = 3, half_height = 1, angle = 0.4 }
  g:add_obstruction { x = 30, y = 24, half_width = 1, half_height = 2 }
  g:remove_obstruction(id)
end
step("grid", make_grid)
-- the one failing allocation is spent: the grid the other steps use is
-- made again when making it failed
if not g or g:is_closed() then make_grid() end
step("find_path", function()
  for _, alg in ipairs({ "astar", "jps", "auto" }) do
    g:find_path(1.5, 1.5, 35.5, 28.5, { algorithm = alg, smooth = alg == "auto" })
  end
  g:find_path(1.5, 1.5, 35.5, 28.5, { class = "big", goal = { shape = "circle", radius = 2 } })
  g:find_path(1.5, 1.5, 20.5, 20.5)                       -- a blocked goal, rewritten
  g:find_path(1.5, 1.5, 35.5, 28.5, { max_expansions = 30, partial = true })
end)
step("queries", function()
  g:line_of_sight(1, 1, 30, 20)
  g:to_ascii("big")
  g:memory()
end)
step("queue", function()
  q = wayfinder.queue.new(g, { max_fields = 2 })
  local hs = {}
  for k = 1, 6 do
    hs[k] = q:submit { sx = 1.5 + k, sy = 1.5, gx = 35.5, gy = 28.5, shared = k % 2 == 0 }
  end
  q:run(50)
  g:set_passable(2, 2, false)
  q:run()
  for _, h in ipairs(hs) do h:result() end
  q:memory()
end)
step("units", function()
  u = wayfinder.units.new(g, { capacity = 64, budget = 400, max_wait = 4 })
  for k = 1, 12 do u:add { x = 1.5 + k * 2, y = 4.5 + k % 3, radius = 0.3, speed = 0.5 } end
  for k = 1, 12 do u:move(k, 30.5 - k, 26.5 - (k % 4)) end
  u:move(1, 20.5, 5.5, { goal = { shape = "circle", radius = 3 }, inverted = true })
  u:tick(20)
  u:short_path(2, 8.5, 8.5)
  u:spawn_points({ x = 10, y = 6, half_width = 2, half_height = 1 }, "small", 0.3, 4)
  u:disperse({ x = 6, y = 5, half_width = 2, half_height = 2 })
  local saved = u:save()
  local copy = wayfinder.units.load(g, saved)
  copy:tick(5)
  copy:close()
  u:memory()
end)
step("units orca", function()
  -- the ORCA mode's door map: made with the units, remade on a grid change
  local o = wayfinder.units.new(g, { capacity = 16, avoidance = "orca", max_wait = 4 })
  for k = 1, 6 do o:add { x = 1.5 + k * 2, y = 4.5, radius = 0.3, speed = 0.5 } end
  for k = 1, 6 do o:move(k, 20.5 - k, 10.5) end
  o:tick(3)
  g:set_passable(25, 20, false)
  o:tick(3)
  g:set_passable(25, 20, true)
  local copy = wayfinder.units.load(g, o:save())
  copy:tick(3)
  copy:close()
  o:memory()
  o:close()
end)
step("sweep", function()
  wayfinder.sweep.grid(g, 1.5, 1.5, 10.5, 12.5)
end)
step("walker", function()
  walker = core.walker_new(12, 10)
  walker:set_wall(true, 5, 2, true)
  walker:set_box(1, 3 * 65536, 6 * 65536, 4 * 65536, 7 * 65536)
  for id = 1, 4 do
    walker:add_person(id, id * 65536 + 32768, 32768 + 65536, 16384, 8192, 0)
    walker:set_route(id, { id * 65536 + 32768, 98304, 10 * 65536, 8 * 65536 }, 1)
  end
  for _ = 1, 10 do walker:step() end
  walker:square_free(5 * 65536, 5 * 65536, 16384, 0)
  walker:positions({})
end)
step("graph", function()
  graph = wayfinder.graph.from_grid(g)
  graph:find_path(1.5, 1.5, 35.5, 28.5)
  local s = graph:begin_path(1.5, 1.5, 30.5, 5.5)
  s:step(10)
  s:finish()
  wayfinder.graph.from_grid(g, { decomposition = "quadtree" })
end)
step("pathtable", function()
  local small = wayfinder.grid.from_ascii("....@...\n..@@....\n........\n.@......\n")
  local t = wayfinder.pathtable.build_grid(small)
  t:find_path(0, 0, 7, 3)
end)
step("rectplan", function()
  local rooms = {}
  for i = 1, 64 do rooms[i] = 1 end
  wayfinder.rectplan.plan({ width = 8, height = 8, rooms = rooms },
    { start = { 0.5, 0.5 }, goal = { 7.5, 7.5 } })
end)
step("steer", function()
  local group = wayfinder.steer.group({ capacity = 8, radius = 0.25 })
  local a = group:add(6.5, 4.5)
  group:add(8.5, 4.5)
  group:target(a, 12.5, 6.5)
  group:behave(a, { seek = 1, separation = 1 })
  group:step(g)
  group:close()
end)
step("formation", function()
  local F = wayfinder.formation
  F.offsets("wedge", 5)
  F.assign({ { x = 0, y = 0 }, { x = 3, y = 0 } }, { { x = 3, y = 1 }, { x = 0, y = 1 } })
  local f = F.new({ { x = 7.5, y = 3.5 }, { x = 7.5, y = 8.5 } },
    { { x = 6.5, y = 3.5 }, { x = 8.5, y = 3.5 }, { x = 7.5, y = 2.5 } })
  for _ = 1, 4 do f:step(g) end
  f:close()
end)
step("formation squeeze", function()
  -- a line three wide meets the gap west of the wall along y = 10: its
  -- members are assigned again as it squeezes and re-forms, and a step
  -- that runs out of memory there must leave the formation as it was
  local f = wayfinder.formation.new({ { x = 3.5, y = 6.5 }, { x = 3.5, y = 14.5 } },
    { { x = 1.5, y = 6.5 }, { x = 3.5, y = 6.5 }, { x = 5.5, y = 6.5 } },
    { shape = "line", spacing = 2 })
  for _ = 1, 60 do
    local before = { f:ticks(), f:squeezed(), f:anchor() }
    local ok, err = pcall(f.step, f, g)
    if not ok then
      local after = { f:ticks(), f:squeezed(), f:anchor() }
      for k = 1, #before do
        if before[k] ~= after[k] then
          error("formation:step changed the formation and then failed", 0)
        end
      end
      error(err, 0)
    end
  end
  f:close()
end)
step("world", function()
  local w = wayfinder.world.new { width = 6, height = 4 }
  w:add_object { type = "shelf", x = 2, y = 0, w = 1, h = 3 }
  local p = w:add_person { x = 0.5, y = 0.5 }
  p:route_to(3.5, 1.5)
  w:tick(20)
end)
step("close", function()
  if u then u:close() end
  if q then q:close() end
  if walker then walker:close() end
  if g then g:close() end
end)
collectgarbage()
-- os.exit tells the shim the scenario is over (see shim.c)
os.exit(bad > 0 and 1 or 0)
