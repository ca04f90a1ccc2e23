-- Refining a grid-built graph's route with the grid's own search: each
-- walked leg between the route's points becomes a grid path, links stay.
-- Brute force: every refined segment is a straight 8-connected line over
-- passable navcells (checked navcell by navcell), the refined cost is never
-- below the grid's optimum and within the documented bound: each walked
-- leg costs at most the distance between its ends along the axes plus 2.
-- No constant ratio to the optimum holds (a 4-navcell example below); on
-- the maps of spec/data/maps the measured ratio stays within 1.3.
local wayfinder = require("wayfinder")
local graph = wayfinder.graph
local prng = require("support.prng")

local MEASURED = 1.3   -- docs/graph.md, "Refining with the grid", on Moving AI maps

-- whether the segment between two navcell centres is a straight, diagonal
-- or axis line whose every navcell is passable
local function line_passable(grid, a, b)
  local ax, ay = math.floor(a[1]), math.floor(a[2])
  local bx, by = math.floor(b[1]), math.floor(b[2])
  local dx, dy = bx - ax, by - ay
  if dx ~= 0 and dy ~= 0 and math.abs(dx) ~= math.abs(dy) then return false end
  local n = math.max(math.abs(dx), math.abs(dy))
  local sx, sy = n > 0 and dx / n or 0, n > 0 and dy / n or 0
  for k = 0, n do
    if not grid:is_passable(ax + sx * k, ay + sy * k) then return false end
  end
  return true
end

local function random_grid(seed, w, h)
  local gen = prng.new(seed)
  local rows = {}
  for y = 1, h do
    local r = {}
    for x = 1, w do r[x] = gen.float() < 0.3 and "@" or "." end
    rows[y] = table.concat(r)
  end
  return wayfinder.grid.from_ascii(table.concat(rows, "\n"))
end

-- the documented bound: each walked leg of the route (between consecutive
-- points not joined by a link) costs at most |dx| + |dy| + 2
local function leg_bound(r)
  local b = 0
  for i = 2, #r.points do
    if not r.via[i] then
      local p, q = r.points[i - 1], r.points[i]
      b = b + math.abs(q[1] - p[1]) + math.abs(q[2] - p[2]) + 2
    end
  end
  return b
end

local function check_route(grid, g, sx, sy, gx, gy, seed)
  local p, best = grid:find_path(sx + .5, sy + .5, gx + .5, gy + .5,
    { rewrite_goal = false, escape = false })
  local r = g:find_path(sx + .5, sy + .5, gx + .5, gy + .5, { refine = true })
  assert.are.equal(p == nil, r == nil)
  if r then
    local f = assert(r.refined, r.refine_reason)
    assert.are.same({ sx + .5, sy + .5 }, f.points[1])
    assert.are.same({ gx + .5, gy + .5 }, f.points[#f.points])
    for i = 2, #f.points do
      assert.is_true(line_passable(grid, f.points[i - 1], f.points[i]),
        ("seed %d: leg %d"):format(seed, i))
    end
    assert.is_true(f.grid_cost >= best - 1e-9)
    assert.is_true(f.grid_cost <= leg_bound(r) + 1e-9,
      ("seed %d: %d,%d -> %d,%d costs %.4f, above the bound %.4f"):format(seed, sx, sy, gx, gy,
        f.grid_cost, leg_bound(r)))
  end
  return r, best
end

local function check(grid, g, n, seed)
  local gen = prng.new(seed)
  local w, h = grid:width(), grid:height()
  local worst, found = 0, 0
  for _ = 1, n do
    local sx, sy, gx, gy
    repeat sx, sy = gen.int(0, w - 1), gen.int(0, h - 1) until grid:is_passable(sx, sy)
    repeat gx, gy = gen.int(0, w - 1), gen.int(0, h - 1) until grid:is_passable(gx, gy)
    local r, best = check_route(grid, g, sx, sy, gx, gy, seed)
    if r then
      local f = r.refined
      if best > 0 then
        found = found + 1
        worst = math.max(worst, f.grid_cost / best)
      end
    end
  end
  assert.is_true(found > 0)
  return worst
end

describe("graph routes refined on the grid", function()
  it("walks the grid around a wall on a worked example", function()
    local grid = wayfinder.grid.from_ascii(table.concat({
      "........",
      "..@@@@..",
      "..@.....",
      "..@.....",
    }, "\n"))
    local g = graph.from_grid(grid)
    local r = assert(g:find_path(0.5, 3.5, 4.5, 3.5, { refine = true }))
    local f = r.refined
    -- the optimum goes up the left column, over the wall and down: the
    -- grid's own cost, and no refined point on the wall
    local _, best = grid:find_path(0.5, 3.5, 4.5, 3.5)
    assert.are.equal(best, f.grid_cost)
    for _, p in ipairs(f.points) do
      assert.is_true(grid:is_passable(math.floor(p[1]), math.floor(p[2])))
    end
    assert.is_true(f.legs >= 1 and f.expanded > 0)
    -- without the option there is no refined path
    assert.is_nil(assert(g:find_path(0.5, 3.5, 4.5, 3.5)).refined)
    -- the sliced solver refines too
    local solver = assert(g:begin_path(0.5, 3.5, 4.5, 3.5, { refine = true }))
    repeat until solver:step(1)
    assert.are.same(f.points, solver:finish().refined.points)
  end)

  it("keeps links as they are", function()
    local grid = wayfinder.grid.from_ascii(table.concat({
      ".....@.....",
      ".....@.....",
      ".....@.....",
    }, "\n"))
    local g = graph.from_grid(grid)
    local jump = g:add_link { from = { 3.5, 1.5 }, to = { 7.5, 1.5 }, kind = "jump", cost = 1 }
    local r = assert(g:find_path(0.5, 1.5, 10.5, 1.5, { refine = true }))
    local f = r.refined
    local at
    for i, v in ipairs(f.via) do if v then at = i end end
    assert.are.equal(jump, f.via[at])
    assert.are.same({ 7.5, 1.5 }, f.points[at])
    assert.are.same({ 3.5, 1.5 }, f.points[at - 1])
  end)

  it("stays within the bound on the short route where the measured ratio fails", function()
    -- drawn by the old spec with Lua 5.1's math.random: the route leaves
    -- the start's column and turns at two corners; the grid walks it in
    -- 5.414 where its optimum is 4 (ratio 1.354, above the measured 1.3)
    local rows = {
      ".....@..@.........@.@@@.@.", "@@.@...@....@.....@...@..@", "@...@@.@@...@......@....@.",
      "...@....@..............@..", "@....@...@@@..@.@@........", "@@.@@.@.@.@.@.@@......@@.@",
      "@@....@@.@.@.@.@@..@@.....", "...@........@...........@.", ".@.@.@...@@.@...@..@......",
      ".@...@.....@.@.....@.....@", "...@.@@..@@....@.@.@.@..@.", "....@......@..@.....@@....",
      ".@@..@....@@.@@...........", ".@@@@..@.@...@...@...@....", "@......@.@..@@..@...@..@@.",
      "...@@@....@........@....@.", "@@.@.@.@.....@@....@@.@...", "@...@..@.@....@........@..",
      "........@@@.@...@@.@..@...", "...@@....@......@.........", "..........@..@.........@.@",
      "....@..@....@.@.@.......@@", "..@@............@.....@...", ".@.......@....@..@.@....@.",
      ".@@.@.....@.....@@.....@.@", "....@@@@.@@@.@@@...@.@...@",
    }
    local grid = wayfinder.grid.from_ascii(table.concat(rows, "\n"))
    local r, best = check_route(grid, graph.from_grid(grid), 21, 24, 22, 21, 0)
    assert.are.equal(4, best)
    assert.is_true(r.refined.grid_cost >= best)
  end)

  it("stays within the bound of the grid's optimum on random maps", function()
    for seed = 1, 5 do
      local grid = random_grid(seed, 26, 26)
      for _, d in ipairs({ "boxes", "quadtree" }) do
        check(grid, graph.from_grid(grid, { decomposition = d }), 40, seed)
      end
    end
  end)

  it("stays within the measured ratio on the maps in spec/data/maps", function()
    for _, name in ipairs({ "arena", "den011d" }) do
      local grid = assert(wayfinder.grid.load_movingai("spec/data/maps/" .. name .. ".map"))
      local worst = check(grid, graph.from_grid(grid), 40, 3)
      assert.is_true(worst <= MEASURED, ("%s: ratio %.4f"):format(name, worst))
    end
  end)

  it("follows the grid given to sync", function()
    local grid = random_grid(9, 20, 20)
    local g = graph.from_grid(grid)
    grid:add_obstruction({ x = 10, y = 10, half_width = 2, half_height = 2 })
    g:sync(grid)
    check(grid, g, 30, 9)
  end)

  it("rejects graphs that were not built from a grid and bad arguments", function()
    local g = graph.new()
    g:add_sector { x0 = 0, y0 = 0, x1 = 4, y1 = 4 }
    assert.has_error(function() g:find_path(1, 1, 2, 2, { refine = true }) end,
      "graph:find_path: options.refine needs a graph built from a grid by this process")
    local r = assert(g:find_path(1, 1, 2, 2))
    assert.has_error(function() g:refine(r) end,
      "graph:refine: the graph was not built from a grid by this process")
    local grid = random_grid(2, 8, 8)
    local gg = graph.from_grid(grid)
    assert.has_error(function() gg:refine(42) end,
      "graph:refine: result must be a table, got 42")
    assert.has_error(function() gg:find_path(1, 1, 2, 2, { refine = 1 }) end,
      "graph:find_path: options.refine must be a boolean, got 1")
    local other = random_grid(2, 9, 8)
    assert.has_error(function() gg:refine(r, other) end,
      "graph:refine: grid is 9x8, the graph was built from a 8x8 grid")
  end)
end)
