-- Incremental updates: after grid edits, graph:sync(grid) re-covers only
-- the sectors the edits touched, and the graph then answers as a graph
-- built from scratch does: the same passable navcells covered once, portals
-- on shared edges, the same reachability as the grid, lengths within the
-- documented bound; links in re-covered sectors follow them or are dropped.
local wayfinder = require("wayfinder")
local graph = wayfinder.graph

local function random_grid(w, h, p)
  local rows = {}
  for y = 1, h do
    local r = {}
    for x = 1, w do r[x] = math.random() < p and "@" or "." end
    rows[y] = table.concat(r)
  end
  return wayfinder.grid.from_ascii(table.concat(rows, "\n"))
end

local function check_graph(grid, g)
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
  for _ = 1, 40 do
    local sx, sy, gx, gy
    repeat sx, sy = math.random(0, w - 1), math.random(0, h - 1) until grid:is_passable(sx, sy)
    repeat gx, gy = math.random(0, w - 1), math.random(0, h - 1) until grid:is_passable(gx, gy)
    local p, len = grid:find_path(sx + .5, sy + .5, gx + .5, gy + .5,
      { rewrite_goal = false, escape = false })
    local r = g:find_path(sx + .5, sy + .5, gx + .5, gy + .5)
    assert.are.equal(p == nil, r == nil)
    if p and len > 0 then assert.is_true(r.length <= 1.25 * len) end
  end
end

describe("graph:sync", function()
  it("follows obstructions, removals and terrain edits like a full rebuild", function()
    for seed = 1, 6 do
      math.randomseed(seed)
      local grid = random_grid(40, 30, 0.15)
      local g = graph.from_grid(grid)
      check_graph(grid, g)
      for step = 1, 4 do
        if step % 2 == 1 then
          grid:add_obstruction({ x = math.random(2, 38) + 0.3,
            y = math.random(2, 28) + 0.6, half_width = math.random(1, 4), half_height = 1,
            angle = math.random() })
          grid:set_passable(math.random(0, 39), math.random(0, 29), false)
        else
          local obstructions = grid:obstructions()
          if obstructions[1] then grid:remove_obstruction(obstructions[1]) end
          grid:set_passable(math.random(0, 39), math.random(0, 29), true)
        end
        local before = g:sector_count()
        local info = g:sync(grid)
        assert.is_true(info.removed < before, "sync rebuilt every sector")
        check_graph(grid, g)
      end
      assert.are.same({ removed = 0, added = 0, dropped = {} }, g:sync(grid))
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
    check_graph(grid, g)
  end)

  it("refuses what it cannot update", function()
    local grid = wayfinder.grid.new(8, 8)
    local q = graph.from_grid(grid, { decomposition = "quadtree" })
    assert.has_error(function() q:sync(grid) end,
      "graph:sync: only graphs of boxes can be updated; rebuild a quadtree")
    assert.has_error(function() graph.new():sync(grid) end,
      "graph:sync: the graph was not built from a grid by this process")
    local g = graph.from_grid(grid)
    assert.has_error(function() g:sync(wayfinder.grid.new(9, 8)) end,
      "graph:sync: grid is 9x8, the graph was built from a 8x8 grid")
  end)
end)
