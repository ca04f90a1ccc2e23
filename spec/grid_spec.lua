-- The navcell grid object: construction, classes, border, terrain, costs,
-- batches, version, memory, ASCII output and its lifecycle.
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")
local brute = require("support.brute")

local grid = wayfinder.grid

local function all_classes_ascii(g)
  local out = {}
  for _, c in ipairs(g:classes()) do out[#out + 1] = c.name .. "\n" .. g:to_ascii(c.name) end
  return table.concat(out)
end

local function costs(g)
  local out = {}
  for y = 0, g:height() - 1 do
    for x = 0, g:width() - 1 do out[#out + 1] = g:cost(x, y) end
  end
  return table.concat(out, ",")
end

describe("wayfinder.grid.new", function()
  it("makes a width x height grid, every navcell passable, one class 'default'", function()
    local g = grid.new(10, 5)
    assert.are.equal(10, g:width())
    assert.are.equal(5, g:height())
    assert.are.same({ { name = "default", clearance = 0 } }, g:classes())
    assert.are.equal(("..........\n"):rep(5), g:to_ascii())
    local b, shape = g:border()
    assert.are.equal(0, b)
    assert.are.equal("square", shape)
    assert.is_true(g:uniform_cost())
    assert.are.same({}, g:obstructions())
  end)

  it("accepts 1 x 1 and the documented limits", function()
    assert.are.equal(16384, grid.MAX_SIDE)
    assert.are.equal(67108864, grid.MAX_CELLS)
    local g = grid.new(1, 1)
    assert.are.equal(".\n", g:to_ascii())
    g:close()
    g = grid.new(4096, 4096)
    assert.are.equal(4096, g:width())
    assert.is_true(g:is_passable(4095, 4095))
    g:close()
    -- the largest side and the largest cell count together
    g = grid.new(grid.MAX_SIDE, compat.idiv(grid.MAX_CELLS, grid.MAX_SIDE))
    assert.are.equal(16384, g:width())
    assert.are.equal(4096, g:height())
    g:close()
  end)

  it("accepts whole numbers given as floats", function()
    local g = grid.new(3.0, 2.0, { border = 0.0 })
    assert.are.equal(3, g:width())
    assert.is_true(compat.type(g:width()) == "integer")
  end)

  it("keeps the classes' names, clearances and order", function()
    local g = grid.new(8, 8, { classes = {
      { name = "infantry", clearance = 0 },
      { name = "cavalry", clearance = 1 },
      { name = "siege" }, -- clearance defaults to 0
      { name = "ship", clearance = 3 },
    } })
    assert.are.same({
      { name = "infantry", clearance = 0 },
      { name = "cavalry", clearance = 1 },
      { name = "siege", clearance = 0 },
      { name = "ship", clearance = 3 },
    }, g:classes())
    assert.are.equal("wayfinder.Grid (8x8, 4 classes)", tostring(g))
  end)

  it("accepts class names of 1 to 31 bytes", function()
    local long = ("n"):rep(31)
    local g = grid.new(3, 3, { classes = { { name = "x" }, { name = long, clearance = 1 } } })
    assert.are.equal(long, g:classes()[2].name)
    assert.are.equal("@@@\n@.@\n@@@\n", g:to_ascii(long))
  end)

  it("accepts 16 classes", function()
    local cl = {}
    for k = 1, 16 do cl[k] = { name = "c" .. k, clearance = k - 1 } end
    local g = grid.new(40, 40, { classes = cl })
    assert.are.equal(16, #g:classes())
    assert.are.same({ name = "c16", clearance = 15 }, g:classes()[16])
    -- clearance 15 leaves the 10 x 10 centre of a 40 x 40 grid
    local open = 0
    for y = 0, 39 do
      for x = 0, 39 do if g:is_passable(x, y, "c16") then open = open + 1 end end
    end
    assert.are.equal(100, open)
  end)

  it("class clearance counts the grid edge as blocked", function()
    local g = grid.new(5, 5, { classes = { { name = "small" }, { name = "big", clearance = 1 } } })
    assert.are.equal((".....\n"):rep(5), g:to_ascii("small"))
    assert.are.equal("@@@@@\n@...@\n@...@\n@...@\n@@@@@\n", g:to_ascii("big"))
    assert.are.equal(g:to_ascii("small"), g:to_ascii()) -- first class by default
  end)

  describe("border", function()
    it("square: a ring of N navcells", function()
      local g = grid.new(6, 5, { border = 2 })
      assert.are.equal("@@@@@@\n@@@@@@\n@@..@@\n@@@@@@\n@@@@@@\n", g:to_ascii())
      local n, shape = g:border()
      assert.are.equal(2, n)
      assert.are.equal("square", shape)
      g = grid.new(4, 3, { border = 1, border_shape = "square" })
      assert.are.equal("@@@@\n@..@\n@@@@\n", g:to_ascii())
    end)

    it("square border wider than the map blocks everything", function()
      local g = grid.new(4, 4, { border = 2 })
      assert.are.equal(("@@@@\n"):rep(4), g:to_ascii())
      g = grid.new(4, 4, { border = 100 })
      assert.are.equal(("@@@@\n"):rep(4), g:to_ascii())
    end)

    it("circle: navcell centres strictly inside the map's circle shrunk by N", function()
      -- 7 x 7, N = 1: radius 2.5 around (3.5, 3.5)
      local g = grid.new(7, 7, { border = 1, border_shape = "circle" })
      assert.are.equal(table.concat({
        "@@@@@@@",
        "@@...@@",
        "@.....@",
        "@.....@",
        "@.....@",
        "@@...@@",
        "@@@@@@@",
      }, "\n") .. "\n", g:to_ascii())
      local n, shape = g:border()
      assert.are.equal(1, n)
      assert.are.equal("circle", shape)
      -- 6 x 6, N = 0: radius 3, only the four corner navcells fall outside
      g = grid.new(6, 6, { border_shape = "circle" })
      assert.are.equal("@....@\n......\n......\n......\n......\n@....@\n", g:to_ascii())
      -- 9 x 5, N = 1: the circle follows the short side, radius 1.5
      g = grid.new(9, 5, { border = 1, border_shape = "circle" })
      assert.are.equal(table.concat({
        "@@@@@@@@@",
        "@@@...@@@",
        "@@@...@@@",
        "@@@...@@@",
        "@@@@@@@@@",
      }, "\n") .. "\n", g:to_ascii())
    end)

    it("circle: matches the brute-force definition on many sizes", function()
      for w = 1, 14 do
        for h = 1, 14, 3 do
          for b = 0, 3 do
            local g = grid.new(w, h, { border = b, border_shape = "circle" })
            local want = brute.picture(w, h, brute.border_blocked(w, h, b, "circle"))
            assert.are.equal(want, g:to_ascii(), ("%dx%d border %d"):format(w, h, b))
          end
        end
      end
    end)

    it("counts as terrain-blocked for clearance but not in terrain_passable", function()
      local g = grid.new(7, 7, { border = 1,
        classes = { { name = "a" }, { name = "b", clearance = 1 } } })
      assert.are.equal(table.concat({
        "@@@@@@@",
        "@@@@@@@",
        "@@...@@",
        "@@...@@",
        "@@...@@",
        "@@@@@@@",
        "@@@@@@@",
      }, "\n") .. "\n", g:to_ascii("b"))
      assert.is_false(g:is_passable(0, 0, "a"))
      assert.is_true(g:terrain_passable(0, 0, "a"))
      assert.is_true(g:terrain_passable(0, 0, "b"))
    end)
  end)
end)

describe("grid:set_passable, grid:is_passable, grid:terrain_passable", function()
  local function two_classes()
    return grid.new(9, 9, { classes = { { name = "a" }, { name = "b", clearance = 1 } } })
  end

  it("without a class blocks the navcell for every class", function()
    local g = two_classes()
    g:set_passable(4, 4, false)
    assert.is_false(g:is_passable(4, 4))
    assert.is_false(g:is_passable(4, 4, "a"))
    assert.is_false(g:terrain_passable(4, 4, "a"))
    assert.is_false(g:terrain_passable(4, 4, "b"))
    assert.are.equal(table.concat({
      ".........",
      ".........",
      ".........",
      ".........",
      "....@....",
      ".........",
      ".........",
      ".........",
      ".........",
    }, "\n") .. "\n", g:to_ascii("a"))
    assert.are.equal(table.concat({
      "@@@@@@@@@",
      "@.......@",
      "@.......@",
      "@..@@@..@",
      "@..@@@..@",
      "@..@@@..@",
      "@.......@",
      "@.......@",
      "@@@@@@@@@",
    }, "\n") .. "\n", g:to_ascii("b"))
    g:set_passable(4, 4, true)
    assert.are.equal((".........\n"):rep(9), g:to_ascii("a"))
    assert.is_true(g:is_passable(4, 4, "b"))
    assert.is_true(g:terrain_passable(4, 4, "b"))
  end)

  it("with a class changes that class only", function()
    local g = two_classes()
    g:set_passable(2, 6, false, "b")
    assert.is_true(g:is_passable(2, 6, "a"))
    assert.is_true(g:terrain_passable(2, 6, "a"))
    assert.is_false(g:terrain_passable(2, 6, "b"))
    assert.is_false(g:is_passable(2, 6, "b"))
    assert.is_false(g:is_passable(3, 7, "b")) -- within clearance 1
    assert.is_true(g:is_passable(4, 6, "b"))
    g:set_passable(2, 6, false, "a")
    assert.is_false(g:is_passable(2, 6, "a"))
    g:set_passable(2, 6, true, "b")
    assert.is_false(g:is_passable(2, 6, "a"))
    assert.is_true(g:terrain_passable(2, 6, "b"))
    assert.is_true(g:is_passable(2, 6, "b"))
  end)

  it("terrain_passable ignores clearance, is_passable applies it", function()
    local g = two_classes()
    assert.is_true(g:terrain_passable(0, 0, "b"))
    assert.is_false(g:is_passable(0, 0, "b"))
    assert.is_true(g:is_passable(1, 1, "b"))
  end)
end)

describe("grid:set_cost, grid:cost, grid:uniform_cost", function()
  it("every navcell starts at cost 1", function()
    local g = grid.new(4, 3)
    assert.are.equal("1,1,1,1,1,1,1,1,1,1,1,1", costs(g))
    assert.is_true(g:uniform_cost())
  end)

  it("sets one navcell's cost, shared by all classes, 1 to 255", function()
    local g = grid.new(4, 3, { classes = { { name = "a" }, { name = "b" } } })
    g:set_cost(1, 2, 7)
    g:set_cost(3, 0, 255)
    assert.are.equal(7, g:cost(1, 2))
    assert.are.equal("1,1,1,255,1,1,1,1,1,7,1,1", costs(g))
    assert.is_false(g:uniform_cost())
    -- cost is terrain movement cost, not passability
    assert.are.equal(("....\n"):rep(3), g:to_ascii("b"))
  end)

  it("is uniform again once every cost is back to 1", function()
    local g = grid.new(4, 3)
    g:set_cost(1, 1, 2)
    g:set_cost(2, 1, 3)
    assert.is_false(g:uniform_cost())
    g:set_cost(1, 1, 1)
    assert.is_false(g:uniform_cost())
    g:set_cost(2, 1, 1)
    assert.is_true(g:uniform_cost())
    assert.are.equal("1,1,1,1,1,1,1,1,1,1,1,1", costs(g))
  end)
end)

describe("grid:batch", function()
  local function edits(g, id_box)
    g:set_passable(3, 3, false)
    g:set_passable(10, 4, false, "wide")
    g:set_passable(11, 4, false)
    g:set_cost(5, 5, 9)
    id_box[1] = g:add_obstruction({ x = 8, y = 9, half_width = 2, half_height = 0.5, angle = 0.3 })
    g:set_passable(3, 3, true)
    g:set_passable(0, 11, false, "narrow")
    local id = g:add_obstruction({ x = 14, y = 2, half_width = 1, half_height = 1 })
    g:remove_obstruction(id)
  end
  local opts = { classes = { { name = "narrow" }, { name = "wide", clearance = 2 } } }

  it("gives the same grid as doing the edits one by one", function()
    local a, b = grid.new(16, 12, opts), grid.new(16, 12, opts)
    local ia, ib = {}, {}
    edits(a, ia)
    b:batch(function(gb) edits(gb, ib) end)
    assert.are.equal(all_classes_ascii(a), all_classes_ascii(b))
    assert.are.equal(costs(a), costs(b))
    assert.are.same(a:obstructions(), b:obstructions())
    assert.are.same(a:obstruction(ia[1]), b:obstruction(ib[1]))
    -- and the result is what a full rebuild gives
    local before = all_classes_ascii(b)
    b:rebuild()
    assert.are.equal(before, all_classes_ascii(b))
  end)

  it("passes the grid to the function and defers recomputation to its end", function()
    local g = grid.new(5, 5)
    local seen
    g:batch(function(arg)
      seen = arg
      arg:set_passable(2, 2, false)
      -- documented: passability is stale until the batch ends
      assert.is_true(arg:is_passable(2, 2))
      assert.is_false(arg:terrain_passable(2, 2))
    end)
    assert.are.equal(g, seen)
    assert.is_false(g:is_passable(2, 2))
  end)

  it("nests: only the outermost end recomputes", function()
    local g = grid.new(5, 5)
    g:batch(function()
      g:batch(function() g:set_passable(1, 1, false) end)
      assert.is_true(g:is_passable(1, 1))
      g:set_passable(3, 3, false)
    end)
    assert.is_false(g:is_passable(1, 1))
    assert.is_false(g:is_passable(3, 3))
  end)

  it("an error inside still ends the batch and is raised again unchanged", function()
    local g = grid.new(5, 5)
    local boom = { reason = "boom" }
    local ok, err = pcall(g.batch, g, function(arg)
      arg:set_passable(1, 1, false)
      error(boom)
    end)
    assert.is_false(ok)
    assert.are.equal(boom, err)
    assert.is_false(g:is_passable(1, 1)) -- the pending edit was applied
    g:set_passable(2, 2, false)          -- no batch is left open
    assert.is_false(g:is_passable(2, 2))
    assert.is_truthy(g:find_path(0, 0, 4, 4))
    -- a string error keeps its text
    assert.has_error(function()
      g:batch(function() error("inside the batch", 0) end)
    end, "inside the batch")
    g:set_passable(3, 3, false)
    assert.is_false(g:is_passable(3, 3))
  end)

  it("refuses find_path inside a batch and still ends the batch", function()
    local g = grid.new(5, 5)
    local ok, err = pcall(g.batch, g, function(arg)
      arg:set_passable(1, 1, false)
      return arg:find_path(0, 0, 4, 4)
    end)
    assert.is_false(ok)
    assert.is_truthy(err:find("grid:find_path: cannot search inside grid:batch", 1, true))
    assert.is_false(g:is_passable(1, 1))
    assert.is_truthy(g:find_path(0, 0, 4, 4))
  end)

  it("lets the function close the grid", function()
    local g = grid.new(5, 5)
    g:batch(function(arg) arg:set_passable(1, 1, false); arg:close() end)
    assert.is_true(g:is_closed())
  end)
end)

describe("grid:rebuild", function()
  it("keeps the passability the incremental edits produced", function()
    local g = grid.new(12, 10, { border = 1,
      classes = { { name = "a" }, { name = "b", clearance = 2 } } })
    g:set_passable(4, 4, false)
    g:set_passable(7, 2, false, "b")
    g:add_obstruction({ x = 6, y = 6, half_width = 1.5, half_height = 0.5, angle = 0.7 })
    local before = all_classes_ascii(g)
    g:rebuild()
    assert.are.equal(before, all_classes_ascii(g))
  end)
end)

describe("grid:version", function()
  it("is bumped by every change and by nothing else", function()
    local g = grid.new(6, 6)
    local v = g:version()
    assert.are.equal("integer", compat.type(v))
    local function same() assert.are.equal(v, g:version()); end
    local function bumped()
      local nv = g:version()
      assert.is_true(nv > v, "version did not grow")
      v = nv
    end
    g:is_passable(1, 1); g:to_ascii(); g:cost(1, 1); g:find_path(0, 0, 5, 5)
    g:memory(); g:classes(); g:obstructions(); g:line_of_sight(0, 0, 5, 5)
    same()
    g:set_passable(1, 1, true) -- already passable: no change
    same()
    g:set_passable(1, 1, false)
    bumped()
    g:set_passable(1, 1, false)
    same()
    g:set_cost(2, 2, 1)
    same()
    g:set_cost(2, 2, 4)
    bumped()
    g:set_cost(2, 2, 4)
    same()
    local id = g:add_obstruction({ x = 3, y = 3, half_width = 1, half_height = 1 })
    bumped()
    g:obstruction(id)
    same()
    g:remove_obstruction(id)
    bumped()
    g:batch(function() g:set_passable(4, 4, false); g:set_passable(4, 5, false) end)
    bumped()
    g:rebuild()
    bumped()
  end)
end)

describe("grid:memory", function()
  -- documented: 3 bits per navcell per class (terrain, passability and a
  -- transposed copy of it), padded to 64-bit words
  it("grows by about 3 bits per navcell for each class", function()
    local prev
    for k = 1, 16 do
      local cl = {}
      for i = 1, k do cl[i] = { name = "c" .. i } end
      local g = grid.new(512, 512, { classes = cl })
      local bytes, search = g:memory()
      assert.are.equal(0, search) -- no search scratch before the first search
      if prev then
        local per_cell = (bytes - prev) / (512 * 512)
        assert.is_true(per_cell >= 3 / 8 and per_cell <= 0.5,
          ("class %d adds %.3f bytes per navcell"):format(k, per_cell))
      end
      assert.is_true(bytes <= 512 * 512 * (0.5 * k + 0.05),
        ("%d classes: %d bytes"):format(k, bytes))
      prev = bytes
      g:close()
    end
  end)

  it("adds one byte per navcell once a cost other than 1 is set", function()
    local g = grid.new(100, 50)
    local m0 = g:memory()
    g:set_cost(0, 0, 1)
    assert.are.equal(m0, g:memory())
    g:set_cost(0, 0, 2)
    assert.are.equal(m0 + 100 * 50, g:memory())
  end)

  it("reports search scratch after the first search, and obstruction storage", function()
    local g = grid.new(100, 50)
    local m0 = g:memory()
    g:find_path(0, 0, 99, 49)
    local m1, search = g:memory()
    assert.are.equal(m0, m1)
    assert.is_true(search >= 24 * 100 * 50)
    g:add_obstruction({ x = 5, y = 5, half_width = 1, half_height = 1 })
    assert.is_true(g:memory() > m1)
  end)
end)

describe("grid:to_ascii and tostring", function()
  it("draws '.' passable and '@' blocked, one line per row", function()
    local g = grid.from_ascii("..@\n#..\n")
    assert.are.equal("..@\n@..\n", g:to_ascii())
    assert.are.equal("wayfinder.Grid (3x2, 1 class)", tostring(g))
  end)
end)

describe("grid lifecycle", function()
  it("close is idempotent and every method then errors", function()
    local g = grid.new(4, 4)
    assert.is_false(g:is_closed())
    g:close()
    assert.is_true(g:is_closed())
    g:close()
    assert.is_true(g:is_closed())
    assert.are.equal("wayfinder.Grid (closed)", tostring(g))
    local calls = {
      width = {}, height = {}, classes = {}, border = {},
      set_passable = { 0, 0, false }, is_passable = { 0, 0 }, terrain_passable = { 0, 0 },
      set_cost = { 0, 0, 2 }, cost = { 0, 0 }, uniform_cost = {},
      add_obstruction = { { x = 1, y = 1, half_width = 1, half_height = 1 } },
      remove_obstruction = { 1 }, obstruction = { 1 }, obstructions = {},
      batch = { function() end }, rebuild = {}, memory = {}, version = {},
      to_ascii = {}, line_of_sight = { 0, 0, 1, 1 }, find_path = { 0, 0, 1, 1 },
    }
    for name, args in pairs(calls) do
      local ok, err = pcall(g[name], g, compat.unpack(args))
      assert.is_false(ok, name)
      assert.are.equal("grid:" .. name .. ": the grid is closed", err)
    end
  end)

  it("a <close> variable closes the grid at the end of its scope", function()
    local kept = require("support.closing")(function() return grid.new(3, 3) end,
      function(g) assert.is_false(g:is_closed()) end)
    if not kept then return end   -- no <close> before Lua 5.4
    assert.is_true(kept:is_closed())
    kept:close()
  end)

  it("__gc and __close are the same idempotent close", function()
    local mt = getmetatable(grid.new(1, 1))
    assert.are.equal("wayfinder.Grid", mt.__name)
    assert.are.equal(mt.__gc, mt.__close)
    local g = grid.new(3, 3)
    g:find_path(0, 0, 2, 2)
    mt.__gc(g)
    assert.is_true(g:is_closed())
    mt.__gc(g)
    mt.__close(g)
    g:close()
    assert.is_true(g:is_closed())
  end)

  it("garbage collection of open and closed grids is safe", function()
    for k = 1, 50 do
      local g = grid.new(20 + k, 10,
        { classes = { { name = "a" }, { name = "b", clearance = 1 } } })
      g:add_obstruction({ x = 5, y = 5, half_width = 1, half_height = 2 })
      g:set_cost(1, 1, 3)
      g:find_path(0, 0, 19, 9)
      if k % 2 == 0 then g:close() end
    end
    collectgarbage("collect")
    collectgarbage("collect")
    assert.are.equal("wayfinder.Grid (2x2, 1 class)", tostring(grid.new(2, 2)))
  end)
end)
