-- Graphs give bit-identical results from every build: the same script
-- builds graphs from random grids (boxes and quadtree) and the town, asks
-- for paths (plain, weighted, sliced) and curves, and prints every cost,
-- point and corridor; this process's build (on its own Lua) and the gcc
-- -O2, clang -O2 and gcc -O0 libraries (made by `make test`; a missing one
-- fails the spec) must print the same text (support.determinism).
local SCRIPT = [=[
local cpath = ...
package.cpath = cpath   -- this build only: no fallback to another one
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua;" .. package.path
local wayfinder = require("wayfinder")
local put, flush = require("support.determinism").recorder()
local function put_result(r, why)
  if not r then put(why); return end
  put(r.cost_units, r.expanded)
  for _, p in ipairs(r.points) do put(p[1], p[2]) end
  for _, c in ipairs(r.corridor) do put(c.portal) end
end
local gen = require("support.prng").new(12345)
local function rand(n) return gen.int(0, n - 1) end
for round = 1, 3 do
  local rows = {}
  for y = 1, 30 do
    local row = {}
    for x = 1, 30 do row[x] = rand(100) < 28 and "@" or "." end
    rows[y] = table.concat(row)
  end
  local grid = wayfinder.grid.from_ascii(table.concat(rows, "\n"))
  for _, d in ipairs({ "boxes", "quadtree" }) do
    local g = wayfinder.graph.from_grid(grid, { decomposition = d, max_span = 2 + round })
    put(g:sector_count()); put(g:portal_count())
    for _ = 1, 40 do
      local sx, sy = rand(120) / 4, rand(120) / 4
      local gx, gy = rand(120) / 4, rand(120) / 4
      put_result(g:find_path(sx, sy, gx, gy))
      put_result(g:find_path(sx, sy, gx, gy, { weight = 1.75 }))
      local r = g:find_path(sx, sy, gx, gy)
      if r then
        local c = g:curve(r, { samples = 5 })
        for _, p in ipairs(c) do put(p[1]); put(p[2]) end
      end
    end
  end
end
local town = assert(loadfile("examples/town.lua"))("module")
local g = town.build()
g:add_temporary_link { kind = "jump", from = { 51, 9 }, to = { 36, 11 } }
for _ = 1, 60 do
  local sx, sy = rand(240) / 4, rand(120) / 4
  local gx, gy = rand(240) / 4, rand(120) / 4
  for _, class in ipairs({ "person", "car" }) do
    local solver, why = g:begin_path(sx, sy, gx, gy, { class = class, abilities = { "jump" } })
    if solver then
      repeat until solver:step(2)
      put_result(solver:finish())
    else
      put(why)
    end
  end
end
flush()
]=]

local determinism = require("support.determinism")

describe("graph determinism", function()
  it("prints the same results from every build", function()
    -- raises, naming `make clang-check`, when a build is missing
    determinism.compare(SCRIPT)
  end)
end)
