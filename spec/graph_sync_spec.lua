-- Incremental updates: after grid edits, graph:sync(grid) re-covers only
-- the sectors the edits touched, and the graph then answers as a graph
-- built from scratch does: the same passable navcells covered once, portals
-- on shared edges, the same reachability as the grid, lengths within the
-- documented bound (the proven one, computed by support.graph_brute, for
-- the synced graph and for a graph rebuilt from scratch alike); links in
-- re-covered sectors follow them or are dropped.
local wayfinder = require("wayfinder")
local graph = wayfinder.graph
local brute = require("support.graph_brute")
local prng = require("support.prng")

local function random_grid(gen, w, h, p)
  local rows = {}
  for y = 1, h do
    local r = {}
    for x = 1, w do r[x] = gen.float() < p and "@" or "." end
    rows[y] = table.concat(r)
  end
  return wayfinder.grid.from_ascii(table.concat(rows, "\n"))
end

-- the query answered by the graph as the grid answers it, within the
-- proven bound (floats and the 1/65536 rounding of legs aside)
local function check_query(grid, g, bounds, sx, sy, gx, gy)
  local p = grid:find_path(sx + .5, sy + .5, gx + .5, gy + .5,
    { rewrite_goal = false, escape = false })
  local r = g:find_path(sx + .5, sy + .5, gx + .5, gy + .5)
  assert.are.equal(p == nil, r == nil)
  if r and bounds then
    local bound = assert(bounds(sx, sy, gx, gy))
    assert.is_true(r.length <= bound + 1e-3,
      ("%d,%d -> %d,%d: length %.4f above the bound %.4f"):format(sx, sy, gx, gy, r.length, bound))
  end
  return r
end

local function check_graph(grid, g, gen)
  local w, h = grid:width(), grid:height()
  local cells = 0
  for i = 1, g:sector_count() do
    local s = g:sector(i)
    cells = cells + (s.x1 - s.x0) * (s.y1 - s.y0)
  end
  local passable = 0
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if grid:is_passable(x, y) then
        passable = passable + 1
        assert.is_number(g:sector_at(x + 0.5, y + 0.5))
      else
        assert.is_nil(g:sector_at(x + 0.5, y + 0.5))
      end
    end
  end
  assert.are.equal(passable, cells)
  assert.are.equal(passable, g:stats().navcells)
  local seen = {}
  for _, id in ipairs(g:portals()) do
    local p = g:portal(id)
    if p.span then
      local a, b = g:sector(p.a), g:sector(p.b)
      for _, s in ipairs({ a, b }) do
        assert.is_true(p.span[1] >= s.x0 and p.span[3] <= s.x1 and p.span[2] >= s.y0
          and p.span[4] <= s.y1)
      end
      local key = table.concat(p.span, ",")
      assert.is_nil(seen[key], "two portals on the span " .. key)
      seen[key] = true
    end
  end
  local fresh = graph.from_grid(grid)
  local bounds, fresh_bounds = brute.grid_bounds(grid, g), brute.grid_bounds(grid, fresh)
  for k = 1, 40 do
    local sx, sy, gx, gy
    repeat sx, sy = gen.int(0, w - 1), gen.int(0, h - 1) until grid:is_passable(sx, sy)
    repeat gx, gy = gen.int(0, w - 1), gen.int(0, h - 1) until grid:is_passable(gx, gy)
    -- the brute-force bound is slow: every third query
    local every = k % 3 == 0
    check_query(grid, g, every and bounds, sx, sy, gx, gy)
    check_query(grid, fresh, every and fresh_bounds, sx, sy, gx, gy)
  end
end

-- The edits on which the old spec (its maps drawn by Lua 5.2's
-- math.random) saw a synced path above the 1.25 it then held paths to:
-- 7.389 against the grid's 5.414 from 4,25 to 0,27. A graph rebuilt from
-- scratch gives the same 7.389: not a fault of sync but of the bound,
-- which was measured, not proven (docs/graph.md gives the proven one).
local REGRESSION = {
  "@.........@.....@.@.............@.@.....", ".....@..........@.......................",
  ".............@........@.....@....@@@...@", "............@.@@@...@.........@.........",
  "....@....@.............@.@.....@@@......", "........@@..........@....@..@...........",
  "..@.@...@@...@.......@.@.....@.........@", "...@...@...@..@......@............@.....",
  "..................@....@...@@..@.....@..", ".....@....@.....@....@................@.",
  ".@.@.........@.@@.@.@...@@..........@..@", "............@..@@......@...@.@@...@.@...",
  ".......@.............................@..", ".@.....@...............@..............@.",
  "...@........@...........................", "......@.........@@@...@.................",
  ".@.@......@..@.....@@..@.....@.@@@......", "..@..........................@......@...",
  "@..........@.............@........@....@", ".......@....@.@.....................@.@.",
  "......@............................@@...", "....@.@.@.......................@....@..",
  ".....@....@...@......@..@..........@....", ".......@...@.........@..@..@@@....@@..@.",
  "....@.............@....@..@@@@..........", ".....@...........@..@@@.@............@..",
  "..@..@..@.............@.........@@..@...", ".@...@.@............@@.@@.........@@..@.",
  "..@....@........@.@.....................", "........@...@.........@.....@....@...@@.",
}

describe("graph:sync", function()
  it("answers within the proven bound after the edits that once broke the measured one", function()
    local grid = wayfinder.grid.from_ascii(table.concat(REGRESSION, "\n"))
    local g = graph.from_grid(grid)
    grid:add_obstruction({ x = 17.3, y = 20.6, half_width = 2, half_height = 1,
      angle = 0.073283865616323357 })
    grid:set_passable(14, 29, false)
    g:sync(grid)
    grid:remove_obstruction(grid:obstructions()[1])
    grid:set_passable(6, 5, true)
    g:sync(grid)
    grid:add_obstruction({ x = 14.3, y = 16.6, half_width = 4, half_height = 1,
      angle = 0.74971919495133643 })
    grid:set_passable(1, 28, false)
    g:sync(grid)
    local fresh = graph.from_grid(grid)
    local a = check_query(grid, g, brute.grid_bounds(grid, g), 4, 25, 0, 27)
    local b = check_query(grid, fresh, brute.grid_bounds(grid, fresh), 4, 25, 0, 27)
    assert.are.same(b.points, a.points)
    check_graph(grid, g, prng.new(4))
  end)

  it("follows obstructions, removals and terrain edits like a full rebuild", function()
    for seed = 1, 6 do
      local gen = prng.new(seed)
      local grid = random_grid(gen, 40, 30, 0.15)
      local g = graph.from_grid(grid)
      check_graph(grid, g, gen)
      for step = 1, 4 do
        if step % 2 == 1 then
          grid:add_obstruction({ x = gen.int(2, 38) + 0.3,
            y = gen.int(2, 28) + 0.6, half_width = gen.int(1, 4), half_height = 1,
            angle = gen.float() })
          grid:set_passable(gen.int(0, 39), gen.int(0, 29), false)
        else
          local obstructions = grid:obstructions()
          if obstructions[1] then grid:remove_obstruction(obstructions[1]) end
          grid:set_passable(gen.int(0, 39), gen.int(0, 29), true)
        end
        local before = g:sector_count()
        local info = g:sync(grid)
        assert.is_true(info.removed < before, "sync rebuilt every sector")
        check_graph(grid, g, gen)
      end
      assert.are.same({ removed = 0, added = 0, dropped = {} }, g:sync(grid))
    end
  end)

  it("updates a quadtree graph to the very graph a rebuild makes", function()
    -- the sectors and walk portals of a graph, as sorted lists of boxes
    local function shape(g)
      local sectors, portals = {}, {}
      local function box(id)
        local s = g:sector(id)
        return ("%d,%d,%d,%d,%s"):format(s.x0, s.y0, s.x1, s.y1, s.surface)
      end
      for i = 1, g:sector_count() do sectors[i] = box(i) end
      for _, id in ipairs(g:portals()) do
        local p = g:portal(id)
        local a, b = box(p.a), box(p.b)
        if b < a then a, b = b, a end
        portals[#portals + 1] = ("%s|%s|%s"):format(a, b, table.concat(p.span, ","))
      end
      table.sort(sectors)
      table.sort(portals)
      return { sectors = sectors, portals = portals }
    end
    local edits = 0
    for seed = 1, 8 do
      local gen = prng.new(100 + seed)
      local w, h = gen.int(5, 37), gen.int(5, 29)
      local grid = random_grid(gen, w, h, 0.1 * gen.int(0, 3))
      local options = { decomposition = "quadtree", max_span = gen.int(1, 5),
        max_box = gen.int(1, 16) }
      local g = graph.from_grid(grid, options)
      for _ = 1, 8 do
        local kind = gen.int(1, 3)
        if kind == 1 then
          grid:add_obstruction({ x = gen.int(0, w - 1) + gen.float(), y = gen.int(0, h - 1)
            + gen.float(), half_width = gen.int(1, 3), half_height = gen.int(1, 2),
            angle = gen.float() })
        elseif kind == 2 then
          local obstructions = grid:obstructions()
          if obstructions[1] then grid:remove_obstruction(obstructions[gen.int(#obstructions)]) end
        else
          for _ = 1, gen.int(1, 5) do
            grid:set_passable(gen.int(0, w - 1), gen.int(0, h - 1), gen.int(2) == 1)
          end
        end
        local info = g:sync(grid)
        edits = edits + info.removed + info.added
        assert.are.same(shape(graph.from_grid(grid, options)), shape(g))
      end
      assert.are.equal("quadtree", g:stats().decomposition)
      check_graph(grid, g, gen)
    end
    assert.is_true(edits > 0, "no edit changed a leaf")
  end)

  it("patches the compiled graph into the one a full compile makes", function()
    for seed = 1, 6 do
      local gen = prng.new(200 + seed)
      local w, h = gen.int(6, 30), gen.int(6, 24)
      local grid = random_grid(gen, w, h, 0.2)
      local g = graph.from_grid(grid, { decomposition = seed % 2 == 0 and "quadtree" or "boxes",
        abilities = { "jump" } })
      local function point()
        local x, y
        repeat x, y = gen.int(0, w - 1), gen.int(0, h - 1) until grid:is_passable(x, y)
        return { x + 0.5, y + 0.5 }
      end
      g:add_link { kind = "jump", from = point(), to = point(), cost = 1 }
      for _ = 1, 5 do
        g:find_path(0.5, 0.5, w - 0.5, h - 0.5)   -- compiled before the edit
        for _ = 1, gen.int(1, 4) do
          grid:set_passable(gen.int(0, w - 1), gen.int(0, h - 1), gen.int(2) == 1)
        end
        if gen.int(2) == 1 then
          grid:add_obstruction({ x = gen.int(0, w - 1) + 0.5, y = gen.int(0, h - 1) + 0.5,
            half_width = 1.5, half_height = 1 })
        end
        g:sync(grid)
        -- white box: the sync left a patched core graph, not none
        assert.is_table(g.compiled)
        local whole = graph.load(g:save())   -- compiled whole on its first query
        assert.are.equal(whole:memory(), g:memory())
        for _ = 1, 25 do
          local a, b = point(), point()
          local r1, why1 = g:find_path(a[1], a[2], b[1], b[2])
          local r2, why2 = whole:find_path(a[1], a[2], b[1], b[2])
          assert.are.equal(why2, why1)
          if r1 then
            assert.are.same(r2.points, r1.points)
            assert.are.same(r2.corridor, r1.corridor)
            assert.are.equal(r2.cost_units, r1.cost_units)
            assert.are.equal(r2.expanded, r1.expanded)
          end
        end
      end
    end
  end)

  it("moves links into the new sectors and drops those left on blocked ground", function()
    local grid = wayfinder.grid.new(20, 10)
    local g = graph.from_grid(grid, { abilities = { "jump" } })
    local keep = g:add_link { kind = "jump", from = { 2.5, 2.5 }, to = { 17.5, 7.5 } }
    local lost = g:add_link { kind = "jump", from = { 10.5, 5.5 }, to = { 17.5, 2.5 } }
    grid:set_passable(10, 5, false)
    grid:set_passable(2, 3, false)
    local info = g:sync(grid)
    assert.are.same({ lost }, info.dropped)
    local p = g:portal(keep)
    assert.are.equal(g:sector_at(2.5, 2.5), p.a)
    assert.are.equal(g:sector_at(17.5, 7.5), p.b)
    assert.has_error(function() g:portal(lost) end)
    check_graph(grid, g, prng.new(1))
  end)

  it("refuses what it cannot update", function()
    local grid = wayfinder.grid.new(8, 8)
    assert.has_error(function() graph.new():sync(grid) end,
      "graph:sync: the graph was not built from a grid by this process")
    local g = graph.from_grid(grid)
    assert.has_error(function() g:sync(wayfinder.grid.new(9, 8)) end,
      "graph:sync: grid is 9x8, the graph was built from a 8x8 grid")
  end)
end)
