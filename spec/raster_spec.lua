-- Static obstructions: rotated rectangles rasterized per class. A navcell
-- is blocked iff each of its four corners is inside the rectangle or within
-- max(c, (3 - min(w, h)) / 2) of it; incremental updates equal a rebuild.
local prng = require("support.prng")
local rand = prng.new(1)  -- each run below reseeds it
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")

-- These specs test the search itself, so goal rewriting and the escape from
-- blocked starts (docs/scale.md) are turned off in every query.
local raw = require("support.search").raw
local brute = require("support.brute")

local grid = wayfinder.grid

local function lines(t) return table.concat(t, "\n") .. "\n" end

local THREE = {
  { name = "c0", clearance = 0 },
  { name = "c1", clearance = 1 },
  { name = "c2", clearance = 2 },
}

local function all_classes_ascii(g)
  local out = {}
  for _, c in ipairs(g:classes()) do out[#out + 1] = c.name .. "\n" .. g:to_ascii(c.name) end
  return table.concat(out)
end

describe("obstruction rasterization", function()
  it("axis-aligned rectangle, clearance 0 and 1", function()
    -- x in [3.5, 7.5], y in [3.5, 6.5]: min(w, h) = 3, so no narrow widening
    local g = grid.new(12, 10, { classes = THREE })
    g:add_obstruction({ x = 5.5, y = 5, half_width = 2, half_height = 1.5 })
    assert.are.equal(lines({
      "............",
      "............",
      "............",
      "............",
      "....@@@.....",
      "....@@@.....",
      "............",
      "............",
      "............",
      "............",
    }), g:to_ascii("c0"))
    -- corners at distance <= 1: x in 3..8, y in 3..7 (the (0.5, 0.5)
    -- diagonal offsets are at 0.707)
    assert.are.equal(lines({
      "@@@@@@@@@@@@",
      "@..........@",
      "@..........@",
      "@..@@@@@...@",
      "@..@@@@@...@",
      "@..@@@@@...@",
      "@..@@@@@...@",
      "@..........@",
      "@..........@",
      "@@@@@@@@@@@@",
    }), g:to_ascii("c1"))
  end)

  it("a rectangle on whole coordinates blocks exactly the navcells it covers", function()
    local g = grid.new(8, 6)
    g:add_obstruction({ x = 4, y = 3, half_width = 2, half_height = 1.5 })
    -- x in [2, 6], y in [1.5, 4.5]: navcells 2..5 x 2..3 have every corner inside
    assert.are.equal(lines({
      "........",
      "........",
      "..@@@@..",
      "..@@@@..",
      "........",
      "........",
    }), g:to_ascii())
  end)

  it("narrow obstructions use clearance max(c, (3 - min(w, h)) / 2)", function()
    -- 0.5 wide, 6 long, centred on (5, 5): effective clearance 1.25 for
    -- classes 0 and 1; corner (4, 1) is at exactly 1.25 and counts
    local g = grid.new(12, 12, { classes = THREE })
    g:add_obstruction({ x = 5, y = 5, half_width = 0.25, half_height = 3 })
    local narrow = {}
    for y = 0, 11 do
      narrow[#narrow + 1] = (y >= 1 and y <= 8) and "....@@......" or "............"
    end
    assert.are.equal(lines(narrow), g:to_ascii("c0"))
    assert.are.equal(lines({
      "@@@@@@@@@@@@",
      "@...@@.....@",
      "@...@@.....@",
      "@...@@.....@",
      "@...@@.....@",
      "@...@@.....@",
      "@...@@.....@",
      "@...@@.....@",
      "@...@@.....@",
      "@..........@",
      "@..........@",
      "@@@@@@@@@@@@",
    }), g:to_ascii("c1"))
    -- clearance 2 is larger than 1.25 and wins
    assert.are.equal(lines({
      "@@@@@@@@@@@@",
      "@@@@@@@@@@@@",
      "@@.@@@@...@@",
      "@@.@@@@...@@",
      "@@.@@@@...@@",
      "@@.@@@@...@@",
      "@@.@@@@...@@",
      "@@.@@@@...@@",
      "@@..@@....@@",
      "@@........@@",
      "@@@@@@@@@@@@",
      "@@@@@@@@@@@@",
    }), g:to_ascii("c2"))
  end)

  it("a point obstruction (zero size) still blocks: effective clearance 1.5", function()
    local g = grid.new(7, 7)
    -- at a navcell centre only that navcell's four corners are within 1.5
    -- (the next corners out are sqrt(2.5) = 1.58 away)
    local id = g:add_obstruction({ x = 3.5, y = 3.5, half_width = 0, half_height = 0 })
    assert.are.equal(lines({
      ".......",
      ".......",
      ".......",
      "...@...",
      ".......",
      ".......",
      ".......",
    }), g:to_ascii())
    g:remove_obstruction(id)
    -- at a lattice point the corners of the 3 x 3 lattice around it are
    -- within sqrt(2) <= 1.5: the four navcells around the point
    g:add_obstruction({ x = 3, y = 3, half_width = 0, half_height = 0 })
    assert.are.equal(lines({
      ".......",
      ".......",
      "..@@...",
      "..@@...",
      ".......",
      ".......",
      ".......",
    }), g:to_ascii())
  end)

  it("without the narrow rule a thin 45 degree wall would block nothing", function()
    -- the brute-force corner rule with plain clearance 0 finds no navcell
    local shape = { x = 10, y = 10, half_width = 0.3, half_height = 20,
      u = { brute.axis(math.pi / 4) } }
    for y = 0, 19 do
      for x = 0, 19 do
        local all = true
        for _, p in ipairs({ { x, y }, { x + 1, y }, { x, y + 1 }, { x + 1, y + 1 } }) do
          if brute.corner_margin(shape, 0, p[1], p[2]) < 0 then all = false end
        end
        assert.is_false(all)
      end
    end
  end)

  describe("narrow obstructions cannot be walked through", function()
    -- The reference's worst case: a wall rotated 45 degrees, about 2.12
    -- (3 / sqrt 2) wide, and thinner ones; also the sqrt 5 case at 63.43
    -- degrees. A long wall across the grid must split it in two.
    local cases = {
      { width = 2.12, angle = math.pi / 4 },
      { width = 3 / math.sqrt(2), angle = math.pi / 4 },
      { width = 0.6, angle = math.pi / 4 },
      { width = 0.1, angle = math.pi / 4 },
      { width = 0, angle = math.pi / 4 },
      { width = math.sqrt(5), angle = compat.atan2(2, 1) },
      { width = 1, angle = compat.atan2(2, 1) },
      { width = 0.2, angle = math.pi / 6 },
      { width = 1.5, angle = math.pi / 3 },
      { width = 0.05, angle = 0.1 },
    }
    for _, case in ipairs(cases) do
      it(("width %.3f at %.2f degrees"):format(case.width, math.deg(case.angle)), function()
        rand = prng.new(4500 + math.floor(case.width * 1000))
        for _ = 1, 12 do
          local g = grid.new(30, 30)
          local cx, cy = 15 + rand.float() - 0.5, 15 + rand.float() - 0.5
          -- half_height along v = u turned a quarter: the wall's length
          local id = g:add_obstruction({ x = cx, y = cy, half_width = case.width / 2,
            half_height = 40, angle = case.angle })
          -- the two sides of the wall, far from it along u
          local ux, uy = math.cos(case.angle), math.sin(case.angle)
          local ax, ay = cx - 6 * ux, cy - 6 * uy
          local bx, by = cx + 6 * ux, cy + 6 * uy
          assert.is_true(g:is_passable(math.floor(ax), math.floor(ay)))
          assert.is_true(g:is_passable(math.floor(bx), math.floor(by)))
          for _, algo in ipairs({ "astar", "jps" }) do
            local path, reason = g:find_path(ax, ay, bx, by, raw({ algorithm = algo }))
            assert.is_nil(path)
            assert.are.equal("unreachable", reason)
          end
          g:remove_obstruction(id)
          assert.is_truthy(g:find_path(ax, ay, bx, by, raw()))
        end
      end)
    end

    it("the reference's short 45 degree obstruction blocks a connected run of navcells", function()
      -- 2.12 x 4 rotated 45 degrees: the blocked navcells must form one
      -- 8-connected group reaching both ends (no corner cutting makes a
      -- diagonal chain a wall)
      local g = grid.new(12, 12)
      g:add_obstruction({ x = 6, y = 6, half_width = 1.06, half_height = 2, angle = math.pi / 4 })
      local blocked, first = {}, nil
      for y = 0, 11 do
        for x = 0, 11 do
          if not g:is_passable(x, y) then
            blocked[y * 12 + x] = true
            first = first or { x, y }
          end
        end
      end
      assert.is_truthy(first)
      local seen, stack, count = { [first[2] * 12 + first[1]] = true }, { first }, 1
      while #stack > 0 do
        local c = table.remove(stack)
        for dy = -1, 1 do
          for dx = -1, 1 do
            local k = (c[2] + dy) * 12 + c[1] + dx
            if blocked[k] and not seen[k] then
              seen[k] = true
              count = count + 1
              stack[#stack + 1] = { c[1] + dx, c[2] + dy }
            end
          end
        end
      end
      local total = 0
      for _ in pairs(blocked) do total = total + 1 end
      assert.are.equal(total, count)
      -- its long axis runs along x + y = 12 from (4.59, 7.41) to (7.41, 4.59).
      -- Continue it with terrain beyond both ends (navcells on i + j = 11 up
      -- to and including the ones holding the end points): a path from one
      -- side to the other would have to cross the obstruction itself.
      for i = 0, 11 do
        if i <= 4 or i >= 7 then g:set_passable(i, 11 - i, false) end
      end
      for _, algo in ipairs({ "astar", "jps" }) do
        local path, reason = g:find_path(2.5, 2.5, 9.5, 9.5, raw({ algorithm = algo }))
        assert.is_nil(path)
        assert.are.equal("unreachable", reason)
      end
      g:remove_obstruction(g:obstructions()[1])
      local path = g:find_path(2.5, 2.5, 9.5, 9.5, raw())
      assert.is_truthy(path)
    end)
  end)

  describe("matches the brute-force corner rule", function()
    local function compare(g, w, h, classes, eps)
      local shapes = {}
      for _, id in ipairs(g:obstructions()) do shapes[#shapes + 1] = g:obstruction(id) end
      local checked, unsure = 0, 0
      for _, c in ipairs(classes) do
        local edge = brute.clearance(w, h, c.clearance, function() return false end)
        for y = 0, h - 1 do
          for x = 0, w - 1 do
            if not edge(x, y) then
              local want = false
              for _, s in ipairs(shapes) do
                local b = brute.cell_blocked(s, c.clearance, x, y, eps)
                if b == nil and want == false then want = nil end
                if b == true then want = true end
              end
              if want == nil then
                unsure = unsure + 1
              else
                checked = checked + 1
                assert.are.equal(not want, g:is_passable(x, y, c.name),
                  ("class %s navcell %d,%d"):format(c.name, x, y))
              end
            end
          end
        end
      end
      return checked, unsure
    end

    it("exactly, for axis-aligned shapes on binary fractions", function()
      rand = prng.new(9001)
      local classes = { { name = "c0", clearance = 0 }, { name = "c1", clearance = 1 },
        { name = "c3", clearance = 3 } }
      local axes = { { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } }
      for _ = 1, 40 do
        local w, h = rand.int(8, 30), rand.int(8, 30)
        local g = grid.new(w, h, { classes = classes })
        for _ = 1, rand.int(1, 4) do
          local a = axes[rand.int(4)]
          g:add_obstruction({
            x = rand.int(-32, w * 8 + 32) / 8, y = rand.int(-32, h * 8 + 32) / 8,
            half_width = rand.int(0, 40) / 8, half_height = rand.int(0, 40) / 8,
            u = a,
          })
        end
        local checked, unsure = compare(g, w, h, classes, 0)
        assert.are.equal(0, unsure)
        assert.is_true(checked > 0)
        g:close()
      end
    end)

    it("for rotated shapes at random angles and placements", function()
      rand = prng.new(31337)
      local classes = { { name = "c0", clearance = 0 }, { name = "c1", clearance = 1 },
        { name = "c2", clearance = 2 } }
      local total_checked, total_unsure = 0, 0
      for _ = 1, 60 do
        local w, h = rand.int(10, 30), rand.int(10, 30)
        local g = grid.new(w, h, { classes = classes })
        for _ = 1, rand.int(1, 3) do
          local angle = ({ math.pi / 4, math.pi / 6, compat.atan2(2, 1),
            rand.float() * 2 * math.pi })[rand.int(4)]
          g:add_obstruction({
            x = rand.int(0, w * 256) / 256, y = rand.int(0, h * 256) / 256,
            half_width = rand.int(0, 1024) / 256, half_height = rand.int(0, 1024) / 256,
            angle = angle,
          })
        end
        local checked, unsure = compare(g, w, h, classes, 1e-4)
        total_checked = total_checked + checked
        total_unsure = total_unsure + unsure
        g:close()
      end
      -- rounding may only matter for a handful of navcells
      assert.is_true(total_checked > 20000)
      assert.is_true(total_unsure <= total_checked / 1000,
        ("%d unsure of %d"):format(total_unsure, total_checked))
    end)
  end)
end)

describe("grid:add_obstruction, grid:remove_obstruction, grid:obstruction(s)", function()
  it("hands out increasing ids, never reused, listed in id order", function()
    local g = grid.new(10, 10)
    local a = g:add_obstruction({ x = 2, y = 2, half_width = 1, half_height = 1 })
    local b = g:add_obstruction({ x = 7, y = 7, half_width = 1, half_height = 1 })
    assert.are.equal("integer", compat.type(a))
    assert.is_true(a >= 1)
    assert.is_true(b > a)
    assert.are.same({ a, b }, g:obstructions())
    g:remove_obstruction(a)
    assert.are.same({ b }, g:obstructions())
    local c = g:add_obstruction({ x = 2, y = 2, half_width = 1, half_height = 1 })
    assert.is_true(c > b)
    assert.are.same({ b, c }, g:obstructions())
    g:remove_obstruction(c)
    g:remove_obstruction(b)
    assert.are.same({}, g:obstructions())
    assert.has_error(function() g:remove_obstruction(b) end,
      ("grid:remove_obstruction: id %d names no obstruction of this grid"):format(b))
  end)

  it("ids belong to one grid", function()
    local g1, g2 = grid.new(10, 10), grid.new(10, 10)
    local id = g1:add_obstruction({ x = 2, y = 2, half_width = 1, half_height = 1 })
    assert.has_error(function() g2:obstruction(id) end,
      ("grid:obstruction: id %d names no obstruction of this grid"):format(id))
    assert.is_truthy(g1:obstruction(id))
  end)

  it("obstruction(id) returns the stored shape, kept to 1/65536", function()
    local g = grid.new(10, 10)
    local id = g:add_obstruction({ x = 3.25, y = 4.5, half_width = 1, half_height = 0.5 })
    assert.are.same({ x = 3.25, y = 4.5, half_width = 1.0, half_height = 0.5, u = { 1.0, 0.0 },
      angle = 0.0 },
      g:obstruction(id))
    id = g:add_obstruction({ x = 1 / 3, y = 5, half_width = 2, half_height = 1,
      angle = math.pi / 2 })
    local o = g:obstruction(id)
    assert.are.equal(21845 / 65536, o.x)
    assert.are.same({ 0.0, 1.0 }, o.u)
    assert.are.equal(math.pi / 2, o.angle)
    id = g:add_obstruction({ x = 5, y = 5, half_width = 2, half_height = 1, u = { 0.6, 0.8 } })
    o = g:obstruction(id)
    assert.are.same({ 39322 / 65536, 52429 / 65536 }, o.u)
    assert.are.equal(compat.atan2(52429, 39322), o.angle)
    -- the angle form and the u form of the same direction agree
    local id2 = g:add_obstruction({ x = 5, y = 5, half_width = 2, half_height = 1,
      angle = compat.atan2(0.8, 0.6) })
    assert.are.same(o.u, g:obstruction(id2).u)
  end)

  it("removing restores exactly the passability from before", function()
    rand = prng.new(555)
    for _ = 1, 30 do
      local g = grid.new(24, 20, { classes = THREE, border = rand.int(0, 1) })
      for _ = 1, 40 do g:set_passable(rand.int(0, 23), rand.int(0, 19), false) end
      local keep = g:add_obstruction({ x = rand.float() * 24, y = rand.float() * 20,
        half_width = rand.float() * 3, half_height = rand.float() * 3,
          angle = rand.float() * 6 })
      local before = all_classes_ascii(g)
      local id = g:add_obstruction({ x = rand.float() * 24, y = rand.float() * 20,
        half_width = rand.float() * 4, half_height = rand.float() * 4,
          angle = rand.float() * 6 })
      g:remove_obstruction(id)
      assert.are.equal(before, all_classes_ascii(g))
      g:remove_obstruction(keep)
      g:remove_obstruction(g:add_obstruction({ x = 3, y = 3, half_width = 1, half_height = 1 }))
      assert.are.same({}, g:obstructions())
    end
  end)

  it("obstructions off the grid and partly off the grid are fine", function()
    local g = grid.new(10, 10)
    local id = g:add_obstruction({ x = -100, y = -100, half_width = 3, half_height = 3 })
    assert.are.equal(("..........\n"):rep(10), g:to_ascii())
    g:add_obstruction({ x = 0, y = 0, half_width = 2, half_height = 2 })
    assert.are.equal(lines({
      "@@........",
      "@@........",
      "..........",
      "..........",
      "..........",
      "..........",
      "..........",
      "..........",
      "..........",
      "..........",
    }), g:to_ascii())
    g:remove_obstruction(id)
    g:add_obstruction({ x = 5, y = 5, half_width = 30, half_height = 30, angle = 0.5 })
    assert.are.equal(("@@@@@@@@@@\n"):rep(10), g:to_ascii())
  end)
end)

describe("incremental updates equal a full rebuild", function()
  local function random_shape(w, h)
    local s = {
      x = rand.int(-8, w * 16 + 8) / 16, y = rand.int(-8, h * 16 + 8) / 16,
      half_width = rand.int(0, 80) / 16, half_height = rand.int(0, 80) / 16,
    }
    local r = rand.int(3)
    if r == 1 then s.angle = rand.float() * 2 * math.pi
    elseif r == 2 then
      s.u = ({ { 1, 0 }, { 0, 1 }, { 0.6, 0.8 }, { -0.8, 0.6 } })[rand.int(4)]
    end
    return s
  end

  -- a fresh grid built from the same terrain and obstructions, then rebuilt
  local function fresh(opts, w, h, model)
    local g = grid.new(w, h, opts)
    g:batch(function()
      for key, blocked in pairs(model.terrain) do
        local k, x, y = key:match("^(%w+):(%d+):(%d+)$")
        if blocked then g:set_passable(tonumber(x), tonumber(y), false, k) end
      end
      for _, id in ipairs(model.order) do g:add_obstruction(model.shapes[id]) end
    end)
    g:rebuild()
    return g
  end

  local function run(seed, w, h, opts, steps)
    rand = prng.new(seed)
    local classes = opts.classes or { { name = "default", clearance = 0 } }
    local g = grid.new(w, h, opts)
    local model = { terrain = {}, shapes = {}, order = {} }
    local function set(x, y, passable, class)
      for _, c in ipairs(classes) do
        if not class or class == c.name then
          model.terrain[c.name .. ":" .. x .. ":" .. y] = not passable
        end
      end
    end
    local function step(target)
      local r = rand.float()
      if r < 0.45 then
        local x, y, p = rand.int(0, w - 1), rand.int(0, h - 1), rand.float() < 0.4
        local class = rand.float() < 0.5 and classes[rand.int(#classes)].name or nil
        target:set_passable(x, y, p, class)
        set(x, y, p, class)
      elseif r < 0.75 or #model.order == 0 then
        local s = random_shape(w, h)
        local id = target:add_obstruction(s)
        model.shapes[id] = s
        model.order[#model.order + 1] = id
      elseif r < 0.95 then
        local k = rand.int(#model.order)
        target:remove_obstruction(table.remove(model.order, k))
      else
        target:set_cost(rand.int(0, w - 1), rand.int(0, h - 1), rand.int(1, 9))
      end
    end
    for n = 1, steps do
      if n % 10 == 0 then
        g:batch(function(b) for _ = 1, 5 do step(b) end end)
      else
        step(g)
      end
      local ref = fresh(opts, w, h, model)
      for _, c in ipairs(classes) do
        local got, want = g:to_ascii(c.name), ref:to_ascii(c.name)
        if got ~= want then
          local diff = brute.diff(brute.snapshot(g, c.name), brute.snapshot(ref, c.name), w)
          error(("step %d, class %s: navcells differ: %s")
            :format(n, c.name, table.concat(diff, " ")))
        end
      end
      ref:close()
    end
    -- and rebuilding the grid itself changes nothing
    local before = all_classes_ascii(g)
    g:rebuild()
    assert.are.equal(before, all_classes_ascii(g))
  end

  it("three classes, no border", function()
    run(1001, 32, 24, { classes = { { name = "c0" }, { name = "c1", clearance = 1 },
      { name = "c3", clearance = 3 } } }, 150)
  end)

  it("four classes, square border", function()
    run(1002, 27, 31, { border = 2, classes = { { name = "a", clearance = 2 }, { name = "b" },
      { name = "c", clearance = 1 }, { name = "d", clearance = 4 } } }, 150)
  end)

  it("two classes, circular border", function()
    run(1003, 30, 30, { border = 1, border_shape = "circle",
      classes = { { name = "x", clearance = 1 }, { name = "y", clearance = 2 } } }, 150)
  end)

  it("one class on a long thin grid", function()
    run(1004, 70, 6, {}, 120)
  end)
end)
