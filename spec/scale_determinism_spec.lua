-- The scale layer gives bit-identical results from every build: the same
-- script runs against the gcc -O2, clang -O2 and gcc -O0 libraries (made
-- by `make test`; a missing one fails the spec) and must print the same
-- text.
local SCRIPT = [=[
local cpath = ...
package.cpath = cpath   -- this build only: no fallback to another one
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua;" .. package.path
local wayfinder = require("wayfinder")
local H = require("scale_helpers")
local put, flush = require("support.determinism").recorder()
local r = H.rng(4242)
local w, h = 48, 40
local g = wayfinder.grid.from_ascii(H.random_ascii(r, w, h, 30),
  { classes = { { name = "a" }, { name = "b", clearance = 1 } } })
g:set_chunk_size(7)
g:add_obstruction({ x = 20.3, y = 11.7, half_width = 3.2, half_height = 1.1, angle = 0.7 })
for y = 0, h - 1 do
  for x = 0, w - 1 do put(g:component(x, y, "a") or 0, g:component(x, y, "b") or 0) end
end
for _ = 1, 60 do
  local sx, sy = r.int(0, w - 1), r.int(0, h - 1)
  local gx, gy = r.int(0, w * 4) / 4, r.int(0, h * 4) / 4
  put(g:nearest_passable(sx, sy, "b"))
  put(g:nearest_reachable(sx + 0.5, sy + 0.5, gx, gy,
    { goal = { shape = "circle", radius = 1.25 } }))
  local p, len, info = g:find_path(sx + 0.5, sy + 0.5, gx, gy, { smooth = r.int(0, 1) == 1 })
  put(p or len, p and len or "", info.expanded, info.goal_rewritten, info.escaped)
  p, len, info = g:find_path(sx + 0.5, sy + 0.5, gx, gy,
    { algorithm = "astar", max_expansions = 15, partial = true, rewrite_goal = false })
  put(p or len, p and len or "", info.expanded, info.partial)
end
local q = wayfinder.queue.new(g)
local hs = {}
for i = 1, 40 do
  hs[i] = q:submit({ sx = r.int(0, w - 1) + 0.5, sy = r.int(0, h - 1) + 0.5,
                     gx = (i % 3) * 10 + 5.5, gy = 20.5, shared = i % 2 == 0 })
end
while q:pending() > 0 do put(q:run(37)) end
for _, hd in ipairs(hs) do
  local p, len, info = hd:result()
  put(p or len, p and len or "", info.expanded, info.shared)
end
flush()
]=]

local determinism = require("support.determinism")

describe("scale determinism", function()
  it("prints the same results from every build", function()
    -- raises, naming `make clang-check`, when a build is missing
    determinism.compare(SCRIPT)
  end)
end)
