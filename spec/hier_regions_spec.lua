-- Hierarchical regions: reachability, components, nearest passable and
-- nearest reachable navcells, checked against brute force on random maps
-- (fixed seeds), and incremental relabelling checked against full ones.
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")
local H = require("scale_helpers")

local CLASSES = {
  { name = "small", clearance = 0 },
  { name = "mid", clearance = 1 },
  { name = "big", clearance = 2 },
}

-- The component ids of every navcell of every class, in one table.
local function ids_of(grid)
  local out = {}
  for _, c in ipairs(grid:classes()) do
    for y = 0, grid:height() - 1 do
      for x = 0, grid:width() - 1 do
        out[#out + 1] = grid:component(x, y, c.name) or 0
      end
    end
  end
  return out
end

-- Asserts that grid:component partitions the navcells exactly like a
-- breadth-first search does, for every class.
local function assert_partition(grid)
  for _, c in ipairs(grid:classes()) do
    local brute = H.components(grid, c.name)
    local w = grid:width()
    local to_id, from_id = {}, {}
    for i, b in ipairs(brute) do
      local x, y = (i - 1) % w, compat.idiv(i - 1, w)
      local id, why = grid:component(x, y, c.name)
      if not b then
        assert.is_nil(id)
        assert.are.equal("not_passable", why)
      else
        assert.is_number(id)
        if to_id[b] == nil then to_id[b] = id end
        if from_id[id] == nil then from_id[id] = b end
        assert.are.equal(to_id[b], id)
        assert.are.equal(from_id[id], b)
      end
    end
  end
end

describe("grid:is_reachable", function()
  it("answers for a walled-in room and its outside", function()
    local g = wayfinder.grid.from_ascii(table.concat({
      "..........",
      "..@@@@@...",
      "..@...@...",
      "..@...@...",
      "..@@@@@...",
      "..........",
    }, "\n"))
    assert.is_true(g:is_reachable(0, 0, 9, 5))
    assert.is_true(g:is_reachable(3, 2, 5, 3))
    assert.is_false(g:is_reachable(0, 0, 4, 2))
    assert.is_false(g:is_reachable(2, 1, 2, 1))   -- blocked navcell
    assert.is_false(g:is_reachable(0, 0, 2, 1))
    assert.are.equal(2, g:regions().components)
  end)

  it("treats diagonal-only contact as disconnected (no corner cutting)", function()
    local g = wayfinder.grid.from_ascii(".@\n@.")
    assert.is_false(g:is_reachable(0, 0, 1, 1))
    assert.is_nil((g:find_path(0.5, 0.5, 1.5, 1.5, { rewrite_goal = false })))
  end)

  for _, seed in ipairs({ 11, 23, 37 }) do
    for _, chunk in ipairs({ 4, 5, 7, 32 }) do
      it(("matches breadth-first search, seed %d, chunk %d"):format(seed, chunk), function()
        local r = H.rng(seed)
        local w, h = r.int(9, 41), r.int(9, 41)
        local g = wayfinder.grid.from_ascii(H.random_ascii(r, w, h, 30),
          { classes = CLASSES })
        g:set_chunk_size(chunk)
        assert_partition(g)
        local brute = H.components(g, "small")
        for _ = 1, 300 do
          local ax, ay, bx, by = r.int(0, w - 1), r.int(0, h - 1), r.int(0, w - 1), r.int(0, h - 1)
          local ca, cb = brute[ay * w + ax + 1], brute[by * w + bx + 1]
          assert.are.equal(ca and ca == cb or false, g:is_reachable(ax, ay, bx, by, "small"))
        end
      end)
    end
  end

  it("rejects bad arguments", function()
    local g = wayfinder.grid.new(8, 6)
    assert.has_error(function() g:is_reachable(8, 0, 0, 0) end,
      "grid:is_reachable: ax must be an integer in [0, 7], got 8")
    assert.has_error(function() g:is_reachable(0, -1, 0, 0) end,
      "grid:is_reachable: ay must be an integer in [0, 5], got -1")
    assert.has_error(function() g:is_reachable(0, 0, 0 / 0, 0) end,
      "grid:is_reachable: bx must be an integer in [0, 7], got nan")
    assert.has_error(function() g:is_reachable(0, 0, 1, 1.5) end,
      "grid:is_reachable: by must be an integer in [0, 5], got 1.5")
    assert.has_error(function() g:is_reachable(0, 0, 1, "1") end,
      "grid:is_reachable: by must be an integer in [0, 5], got '1'")
    assert.has_error(function() g:is_reachable(0, 0, 1, 1, "boat") end,
      "grid:is_reachable: class must name a class of this grid, got 'boat'")
    assert.has_error(function() g:is_reachable(0, 0, 1, 1, 3) end,
      "grid:is_reachable: class must be a string, got 3")
    assert.has_error(function() g.is_reachable(42, 0, 0, 1, 1) end,
      "grid:is_reachable: self must be a wayfinder.Grid, got 42 (call it as grid:method(...))")
    g:close()
    assert.has_error(function() g:is_reachable(0, 0, 1, 1) end,
      "grid:is_reachable: the grid is closed")
  end)
end)

describe("grid:component", function()
  it("gives canonical ids: the same after edits as after a full relabel", function()
    local r = H.rng(5)
    local g = wayfinder.grid.from_ascii(H.random_ascii(r, 30, 22, 25), { classes = CLASSES })
    g:set_chunk_size(6)
    g:set_passable(3, 3, false)
    g:add_obstruction({ x = 12, y = 9, half_width = 2, half_height = 1, angle = 0.5 })
    local incremental = ids_of(g)
    g:set_chunk_size(6)
    assert.are.same(incremental, ids_of(g))
  end)

  it("rejects bad arguments", function()
    local g = wayfinder.grid.new(4, 4)
    assert.has_error(function() g:component(4, 0) end,
      "grid:component: x must be an integer in [0, 3], got 4")
    assert.has_error(function() g:component(0, 1 / 0) end,
      "grid:component: y must be an integer in [0, 3], got inf")
    assert.has_error(function() g:component(0, 0, "nope") end,
      "grid:component: class must name a class of this grid, got 'nope'")
  end)
end)

describe("incremental relabelling", function()
  local function random_edit(r, g, ids)
    local w, h = g:width(), g:height()
    local kind = r.int(1, 5)
    if kind == 1 then
      local cls = r.chance(50) and CLASSES[r.int(1, 3)].name or nil
      g:set_passable(r.int(0, w - 1), r.int(0, h - 1), r.chance(50), cls)
    elseif kind == 2 or (kind == 3 and #ids == 0) then
      ids[#ids + 1] = g:add_obstruction({
        x = r.int(0, w * 4) / 4, y = r.int(0, h * 4) / 4,
        half_width = r.int(1, 12) / 4, half_height = r.int(1, 12) / 4,
        angle = r.int(0, 628) / 100,
      })
    elseif kind == 3 then
      g:remove_obstruction(table.remove(ids, r.int(1, #ids)))
    elseif kind == 4 then
      g:batch(function(gg)
        for _ = 1, r.int(1, 6) do
          gg:set_passable(r.int(0, w - 1), r.int(0, h - 1), r.chance(40))
        end
      end)
    else
      g:set_cost(r.int(0, w - 1), r.int(0, h - 1), r.int(1, 3))
    end
  end

  for _, seed in ipairs({ 3, 17, 29, 41 }) do
    it(("equals a full relabel on random edit sequences, seed %d"):format(seed), function()
      local r = H.rng(seed)
      local w, h = r.int(12, 36), r.int(12, 36)
      local chunk = ({ 4, 5, 8, 13 })[seed % 4 + 1]
      local g = wayfinder.grid.from_ascii(H.random_ascii(r, w, h, 20),
        { classes = CLASSES, border = seed % 2 })
      g:set_chunk_size(chunk)
      local ids = {}
      for round = 1, 12 do
        -- a few edits, sometimes more than the grid's change log holds
        for _ = 1, (round % 4 == 0) and 20 or r.int(1, 4) do
          random_edit(r, g, ids)
        end
        local incremental = ids_of(g)
        assert_partition(g)
        g:set_chunk_size(chunk)           -- a full relabel from scratch
        assert.are.same(incremental, ids_of(g))
      end
    end)
  end

  it("relinks when only the links across a chunk border change", function()
    -- chunks 4 wide: walling column 4 (the first of the middle chunk) keeps
    -- one region in every chunk but cuts the link between the first two
    local g = wayfinder.grid.new(12, 6)
    g:set_chunk_size(4)
    assert.are.same({ 6, 1 }, { g:regions().regions, g:regions().components })
    g:batch(function(gg)
      for y = 0, 5 do gg:set_passable(4, y, false) end
    end)
    assert.are.equal(6, g:regions().regions)
    assert.are.equal(2, g:regions().components)
    assert.is_false(g:is_reachable(0, 0, 11, 5))
    g:set_passable(4, 2, true)
    assert.are.equal(1, g:regions().components)
    assert.is_true(g:is_reachable(0, 0, 11, 5))
  end)

  it("follows obstructions added and removed", function()
    local g = wayfinder.grid.new(20, 9)
    g:set_chunk_size(4)
    assert.is_true(g:is_reachable(0, 4, 19, 4))
    local id = g:add_obstruction({ x = 10, y = 4.5, half_width = 1, half_height = 6 })
    assert.is_false(g:is_reachable(0, 4, 19, 4))
    assert.are.equal(2, g:regions().components)
    g:remove_obstruction(id)
    assert.is_true(g:is_reachable(0, 4, 19, 4))
    assert.are.equal(1, g:regions().components)
  end)
end)

describe("grid:nearest_passable", function()
  it("returns the navcell itself when passable and ties go to the lower row", function()
    local g = wayfinder.grid.from_ascii(table.concat({
      ".....",
      ".@@@.",
      ".@@@.",
      ".@@@.",
      ".....",
    }, "\n"))
    assert.are.same({ 0, 0 }, { g:nearest_passable(0, 0) })
    -- (2, 1): (2, 0) and ... at distance 1: only (2, 0)
    assert.are.same({ 2, 0 }, { g:nearest_passable(2, 1) })
    -- centre (2, 2): (2, 0), (0, 2), (4, 2), (2, 4) all at distance 2
    assert.are.same({ 2, 0 }, { g:nearest_passable(2, 2) })
    -- (1, 2): (0, 2) at distance 1
    assert.are.same({ 0, 2 }, { g:nearest_passable(1, 2) })
  end)

  it("says no_passable on a grid with no passable navcell", function()
    local g = wayfinder.grid.from_ascii("@@@\n@@@")
    assert.are.same({ nil, "no_passable" }, { g:nearest_passable(1, 1) })
  end)

  for _, seed in ipairs({ 2, 8, 19 }) do
    it(("matches brute force on random maps, seed %d"):format(seed), function()
      local r = H.rng(seed)
      local w, h = r.int(10, 50), r.int(10, 50)
      local g = wayfinder.grid.from_ascii(H.random_ascii(r, w, h, 70 + seed),
        { classes = CLASSES })
      g:set_chunk_size(({ 4, 6, 9 })[seed % 3 + 1])
      for _, c in ipairs(CLASSES) do
        for _ = 1, 60 do
          local x, y = r.int(0, w - 1), r.int(0, h - 1)
          local ex, ey = H.nearest(w, h, x + 0.5, y + 0.5,
            function(i, j) return g:is_passable(i, j, c.name) end)
          if ex then
            assert.are.same({ ex, ey }, { g:nearest_passable(x, y, c.name) })
          else
            assert.are.same({ nil, "no_passable" }, { g:nearest_passable(x, y, c.name) })
          end
        end
      end
    end)
  end

  it("rejects bad arguments", function()
    local g = wayfinder.grid.new(5, 5)
    assert.has_error(function() g:nearest_passable(-1, 0) end,
      "grid:nearest_passable: x must be an integer in [0, 4], got -1")
    assert.has_error(function() g:nearest_passable(0, nil) end,
      "grid:nearest_passable: y must be an integer in [0, 4], got nil")
    assert.has_error(function() g:nearest_passable(0, 0, {}) end,
      "grid:nearest_passable: class must be a string, got a table")
  end)
end)

describe("grid:nearest_reachable", function()
  local ROOM = table.concat({
    "..........",
    "..@@@@@...",
    "..@...@...",
    "..@...@...",
    "..@@@@@...",
    "..........",
  }, "\n")

  it("returns a reachable goal navcell as inside", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    assert.are.same({ 9, 5, true }, { g:nearest_reachable(0.5, 0.5, 9.5, 5.5) })
  end)

  it("falls back to the reachable navcell nearest the goal centre", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    -- centre (4.5, 2.5): (4, 0) at distance 2 beats (1, 2), (7, 2), (4, 5) at 3
    assert.are.same({ 4, 0, false }, { g:nearest_reachable(0.5, 0.5, 4.5, 2.5) })
    -- from inside the room towards the outside
    assert.are.same({ 3, 2, false }, { g:nearest_reachable(4.5, 2.5, 0.5, 0.5) })
    -- a goal centre off the grid
    assert.are.same({ 0, 0, false }, { g:nearest_reachable(9.5, 5.5, -20.25, -3) })
  end)

  it("picks the goal navcell nearest the start for a shape goal", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    -- a circle covering the room and the column x = 7: only outside cells
    -- are reachable from (9, 2); the nearest to it is (7, 2)
    assert.are.same({ 7, 2, true },
      { g:nearest_reachable(9.5, 2.5, 4.5, 2.5, { goal = { shape = "circle", radius = 2.5 } }) })
    -- a start inside the goal is its own answer
    assert.are.same({ 5, 3, true },
      { g:nearest_reachable(5.5, 3.5, 4.5, 2.5,
        { goal = { shape = "square", half_width = 3, half_height = 2 } }) })
  end)

  it("reports start problems as reasons", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    assert.are.same({ nil, "start_blocked" }, { g:nearest_reachable(2.5, 1.5, 0.5, 0.5) })
    assert.are.same({ nil, "start_outside" }, { g:nearest_reachable(-1, 0, 0.5, 0.5) })
    assert.are.same({ nil, "start_outside" }, { g:nearest_reachable(10, 0, 0.5, 0.5) })
  end)

  local SHAPES = {
    function() return nil end,
    function(r) return { shape = "circle", radius = r.int(0, 12) / 4 } end,
    function(r)
      return { shape = "square", half_width = r.int(0, 12) / 4, half_height = r.int(0, 12) / 4 }
    end,
  }

  for _, seed in ipairs({ 4, 9, 31, 77 }) do
    it(("matches brute force on random maps, seed %d"):format(seed), function()
      local r = H.rng(seed)
      local w, h = r.int(10, 40), r.int(10, 40)
      local g = wayfinder.grid.from_ascii(H.random_ascii(r, w, h, 38),
        { classes = CLASSES })
      g:set_chunk_size(({ 4, 5, 8, 16 })[seed % 4 + 1])
      for _, c in ipairs(CLASSES) do
        local comp = H.components(g, c.name)
        for _ = 1, 40 do
          local sx, sy = r.int(0, w - 1), r.int(0, h - 1)
          local gx, gy = r.int(-8, (w + 2) * 4) / 4, r.int(-8, (h + 2) * 4) / 4
          local goal = SHAPES[r.int(1, 3)](r)
          local opts = { class = c.name, goal = goal }
          local sc = comp[sy * w + sx + 1]
          if not sc then
            assert.are.same({ nil, "start_blocked" },
              { g:nearest_reachable(sx + 0.5, sy + 0.5, gx, gy, opts) })
          else
            local function mine(i, j) return comp[j * w + i + 1] == sc end
            local ex, ey = H.nearest(w, h, sx + 0.5, sy + 0.5, function(i, j)
              return mine(i, j) and H.in_goal(goal, gx, gy, i, j)
            end)
            local inside = ex ~= nil
            if not inside then
              ex, ey = H.nearest(w, h, gx, gy, mine)
            end
            assert.are.same({ ex, ey, inside },
              { g:nearest_reachable(sx + 0.5, sy + 0.5, gx, gy, opts) })
          end
        end
      end
    end)
  end

  it("rejects bad arguments", function()
    local g = wayfinder.grid.new(5, 5)
    assert.has_error(function() g:nearest_reachable(0 / 0, 0, 1, 1) end,
      "grid:nearest_reachable: sx must be a number in [-32767, 32767], got nan")
    assert.has_error(function() g:nearest_reachable(0, 0, 1, 1e9) end,
      "grid:nearest_reachable: gy must be a number in [-32767, 32767], got 1000000000")
    assert.has_error(function() g:nearest_reachable(0, 0, 1, 1, 5) end,
      "grid:nearest_reachable: options must be a table, got 5")
    assert.has_error(function() g:nearest_reachable(0, 0, 1, 1, { clas = "x" }) end,
      "grid:nearest_reachable: unknown options key 'clas'")
    assert.has_error(function() g:nearest_reachable(0, 0, 1, 1, { class = "x" }) end,
      "grid:nearest_reachable: options.class must name a class of this grid, got 'x'")
    assert.has_error(function()
      g:nearest_reachable(0, 0, 1, 1, { goal = { shape = "circle" } })
    end, "grid:nearest_reachable: options.goal.radius must be a number in [0, 16384], got nil")
    assert.has_error(function()
      g:nearest_reachable(0, 0, 1, 1, { goal = { shape = "blob" } })
    end, "grid:nearest_reachable: options.goal.shape must be 'point', 'circle' or 'square', "
      .. "got 'blob'")
  end)
end)

describe("grid:regions and grid:set_chunk_size", function()
  it("reports chunks, regions, components and memory", function()
    local g = wayfinder.grid.from_ascii(table.concat({
      "..@.....",
      "..@.....",
      "@@@.....",
      "........",
    }, "\n"))
    g:set_chunk_size(4)
    local info = g:regions()
    assert.are.equal(4, info.chunk_size)
    assert.are.equal(2, info.chunks)
    -- chunk 0: the 2x2 corner room and the L around it; chunk 1: one region
    assert.are.equal(3, info.regions)
    assert.are.equal(2, info.components)
    assert.is_true(info.memory > 0)
    local _, _, regions = g:memory()
    assert.are.equal(info.memory, regions)
  end)

  it("reports zero region memory before the first query", function()
    local g = wayfinder.grid.new(4, 4)
    local _, _, regions = g:memory()
    assert.are.equal(0, regions)
  end)

  it("rejects bad arguments", function()
    local g = wayfinder.grid.new(4, 4)
    assert.has_error(function() g:set_chunk_size(3) end,
      "grid:set_chunk_size: size must be an integer in [4, 256], got 3")
    assert.has_error(function() g:set_chunk_size(257) end,
      "grid:set_chunk_size: size must be an integer in [4, 256], got 257")
    assert.has_error(function() g:set_chunk_size(8.5) end,
      "grid:set_chunk_size: size must be an integer in [4, 256], got 8.5")
    assert.has_error(function() g:regions("nope") end,
      "grid:regions: class must name a class of this grid, got 'nope'")
    assert.are.equal(32, g:regions().chunk_size)   -- unchanged by the errors
  end)
end)
