-- Curved paths: the Bezier curve through a graph path starts and ends where
-- the path does, keeps its links, and every stretch of it stays inside the
-- corridor's sectors (so on passable ground for a grid-built graph).
local wayfinder = require("wayfinder")
local graph = wayfinder.graph
local brute = require("support.graph_brute")
local prng = require("support.prng")

local function check_curve(g, r, curve)
  assert.are.same(r.points[1], curve[1])
  assert.are.same(r.points[#r.points], curve[#curve])
  local boxes = {}
  for _, s in ipairs(r.sectors) do boxes[#boxes + 1] = g:sector(s) end
  -- link exits appear in the curve; the jump itself is not checked
  local exits = {}
  for i, v in ipairs(r.via) do
    if v then exits[("%.6f,%.6f"):format(r.points[i][1], r.points[i][2])] = true end
  end
  for i = 2, #curve do
    local a, b = curve[i - 1], curve[i]
    if not exits[("%.6f,%.6f"):format(b[1], b[2])] then
      assert.is_true(brute.segment_inside(boxes, a[1], a[2], b[1], b[2]),
        ("curve segment %d (%.3f,%.3f)-(%.3f,%.3f) leaves the corridor"):format(i, a[1], a[2],
          b[1], b[2]))
    end
  end
end

-- Maps on which the curve once cut the corner of a blocked navcell between
-- two of the points where its containment was sampled (found by the old
-- specs' math.random maps on Lua 5.1, 5.2 and LuaJIT); the query and the
-- segment of the curve that left the corridor.
local REGRESSIONS = {
  { query = { 1, 5, 2, 18 }, rows = {
    "@@.@@@@...@@.@.@.@.@...@", "@.......@..@.@.@......@@", "@...@..@...@..........@.",
    "..@.@.@@.....@@@..@@.@..", "...@....@...@..@..@..@..", "...@.@.....@............",
    "..@......@.@....@.@@.@.@", ".@.@@....@....@@.......@", "..@..@.@.@....@...@@....",
    "..@.....@@.......@.@....", "..@@@......@@..@...@..@.", ".....@.@....@.......@.@@",
    ".@........@.@.@.@.....@@", "@@@..@..@......@..@.....", "..@....@.......@..@@....",
    "..@@....@.@@..@....@.@.@", "@.@...@@@@@....@..@@.@..", "..@.@..@@....@.......@.@",
    "@.......@..@@@.@@.....@.", "..@...@........@@..@..@.", "@.@..@.@..@..@....@.....",
    "@@.....@.....@....@.....", "@.@...@.@..@..@....@.@.@", ".....@...@@.@@.@@.@...@@" } },
  { query = { 6, 20, 4, 2 }, rows = {
    "@@@@...@..@...@.@.@@@...", ".@.@..@.@.@....@@....@..", "......@.@....@......@...",
    "..@.......@..........@@@", "......@@....@....@@@...@", ".@..........@.@@@..@@...",
    "....@@@@........@...@..@", "@@.......@....@@.@.....@", "@@.@......@...@.@@......",
    "..@.@..@.@..@.@.........", ".@@.@...@@.@.@..@..@.@@@", "....@@@...@..@.@@..@...@",
    "...@..@.@....@@.........", "..@....@.........@@.....", "..@....@...@@..@...@@@.@",
    ".@...@....@.@...@..@.@..", "......@@......@..@.@....", ".@...@.@@@@.@@@.@@......",
    ".@.@@..@@....@......@..@", "@......@.@@@@@@...@.@.@.", ".......@.........@..@...",
    "@...@.......@@...@.@.@.@", "....@@.........@.@...@@@", "......@@...@@...@...@..." } },
  { query = { 11, 11, 22, 14 }, rows = {
    ".@.@@@@.........@.....@.", "@..@@....@@@..@..@@.....", "......@@.....@.@....@...",
    ".....@...@.@.@.....@@.@.", "....@..@@@@..@.....@.@..", "..@@.@..@@@..@@@..@...@@",
    "....@.@@@@@@.....@@@@@..", "@..@..@......@...@......", "@..@@@..@..@..@....@....",
    "@..@@.@.......@@....@..@", "@.....@.@..@@..@...@....", "....@@...@.....@.@.@..@@",
    ".@@..@.@....@..@.@@.....", "@.......@...@@.@.....@..", "..@....@...@..@.....@...",
    "...@...@@@....@..@....@.", "...@.@.@@.@.@.@@....@@.@", "..@.....@@.@...@.@@....@",
    "......@@..........@.@..@", ".@......@.@.@.@..@@@...@", "....@....@.@.@@@...@.@@.",
    ".@.@.@@@..@@...@@.@..@..", ".@....@@@........@@...@.", ".@.@.......@....@.@....." } },
}

local function random_rows(gen, w, h, p)
  local rows = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do row[x] = gen.float() < p and "@" or "." end
    rows[y] = table.concat(row)
  end
  return rows
end

describe("graph curves", function()
  it("stay inside the corridor on the maps where they once left it", function()
    for _, case in ipairs(REGRESSIONS) do
      local grid = wayfinder.grid.from_ascii(table.concat(case.rows, "\n"))
      local g = graph.from_grid(grid)
      local q = case.query
      local r = assert(g:find_path(q[1] + .5, q[2] + .5, q[3] + .5, q[4] + .5))
      for _, samples in ipairs({ 6, 8, 64 }) do
        local curve, info = g:curve(r, { samples = samples })
        check_curve(g, r, curve)
        assert.is_true(info.curved + info.straight == #r.points - 1)
      end
    end
  end)

  it("stay inside the corridor on random grid maps", function()
    local curved = 0
    for seed = 1, 8 do
      local gen = prng.new(seed)
      local grid = wayfinder.grid.from_ascii(table.concat(random_rows(gen, 24, 24, 0.3), "\n"))
      local g = graph.from_grid(grid)
      for _ = 1, 20 do
        local sx, sy, gx, gy
        repeat sx, sy = gen.int(0, 23), gen.int(0, 23) until grid:is_passable(sx, sy)
        repeat gx, gy = gen.int(0, 23), gen.int(0, 23) until grid:is_passable(gx, gy)
        local r = g:find_path(sx + .5, sy + .5, gx + .5, gy + .5)
        if r then
          local curve, info = g:curve(r, { samples = 6 })
          check_curve(g, r, curve)
          curved = curved + info.curved
        end
      end
    end
    assert.is_true(curved > 0, "no segment was curved at all")
  end)

  it("keeps links straight and curves the walks around them in the town", function()
    local town = assert(loadfile("examples/town.lua"))("module")
    local g = town.build()
    local r = assert(g:find_path(5, 5, 55, 5, { class = "person" }))
    local curve, info = g:curve(r)
    check_curve(g, r, curve)
    assert.is_true(info.curved > 0)
    -- the elevator's two ends follow each other in the curve
    local at
    for i, p in ipairs(curve) do
      if p[1] == 28 and p[2] == 2 then at = i end
    end
    assert.is_number(at)
    assert.are.same({ 52, 2 }, curve[at + 1])
  end)

  it("is the same on every run (integer arithmetic only)", function()
    local grid = assert(wayfinder.grid.load_movingai("spec/data/maps/arena.map"))
    local g = graph.from_grid(grid)
    local r = assert(g:find_path(3.5, 3.5, 40.5, 40.5))
    local a = g:curve(r)
    local b = graph.from_grid(grid):curve(r)
    assert.are.same(a, b)
  end)

  it("refuses bad arguments", function()
    local g = graph.new()
    g:add_sector { x0 = 0, y0 = 0, x1 = 4, y1 = 4 }
    local r = assert(g:find_path(1, 1, 3, 3))
    assert.has_error(function() g:curve(r, { samples = 0 }) end,
      "graph:curve: options.samples must be an integer in [1, 64], got 0")
    assert.has_error(function() g:curve({ points = {} }) end,
      "graph:curve: result must be a table returned by graph:find_path")
  end)
end)
