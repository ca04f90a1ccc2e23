-- The swept collision test (wayfinder.sweep) against exact references
-- (spec/support/sweep_brute.lua) on random cases, and its edge cases.
local wayfinder = require("wayfinder")
local brute = require("support.sweep_brute")
local prng = require("support.prng")

local sweep = wayfinder.sweep

-- a random coordinate on a 1/8 lattice (so corners and edges are hit often)
local function coord(rng, lo, hi)
  return rng(lo * 8, hi * 8) / 8
end

describe("sweep.box", function()
  it("agrees with the exact reference on random moves and boxes", function()
    local rng = prng.new(1307)
    local hits, misses = 0, 0
    for _ = 1, 20000 do
      local ax, ay = coord(rng.int, -6, 6), coord(rng.int, -6, 6)
      local bx, by = coord(rng.int, -6, 6), coord(rng.int, -6, 6)
      local x0, y0 = coord(rng.int, -3, 3), coord(rng.int, -3, 3)
      local x1, y1 = x0 + rng.int(0, 24) / 8, y0 + rng.int(0, 24) / 8
      local f = brute.fix
      local want
      if f(x0) <= f(ax) and f(ax) <= f(x1) and f(y0) <= f(ay) and f(ay) <= f(y1) then
        want = false
      elseif f(x0) <= f(bx) and f(bx) <= f(x1) and f(y0) <= f(by) and f(by) <= f(y1) then
        want = true
      else
        want = brute.meets(f(ax), f(ay), f(bx), f(by), f(x0), f(y0), f(x1), f(y1))
      end
      local got = sweep.box(ax, ay, bx, by, x0, y0, x1, y1)
      if got ~= want then
        error(("box(%g,%g -> %g,%g; %g,%g,%g,%g): got %s, want %s"):format(
          ax, ay, bx, by, x0, y0, x1, y1, tostring(got), tostring(want)))
      end
      if got then hits = hits + 1 else misses = misses + 1 end
    end
    assert.is_true(hits > 1000 and misses > 1000)
  end)

  it("rejects bad input naming the argument", function()
    assert.has_error(function() sweep.box(0, 0, 1, 1, "a", 0, 1, 1) end,
      "wayfinder.sweep.box: x0 must be a number in [-16384, 16384], got 'a'")
    assert.has_error(function() sweep.box(0, 0, 1, 1, 0, 0, 1, 0 / 0) end,
      "wayfinder.sweep.box: y1 must be a number in [-16384, 16384], got nan")
    assert.has_error(function() sweep.box(0, 0, 1, 1, 2, 0, 1, 1) end,
      "wayfinder.sweep.box: the box must have x0 <= x1 and y0 <= y1")
    assert.has_error(function() sweep.box(0, 0, 300, 1, 0, 0, 1, 1) end,
      "wayfinder.sweep.box: the move from (ax, ay) to (bx, by) must be at most 256 along each axis")
    assert.has_error(function() sweep.box(-16000, 0, -16000, 1, 16000, 0, 16001, 1) end,
      "wayfinder.sweep.box: the box must lie within 16384 of (ax, ay)")
  end)
end)

describe("sweep.square", function()
  it("agrees with exact rational clipping on random moves", function()
    local rng = prng.new(1301)
    local hits, misses = 0, 0
    for _ = 1, 20000 do
      local ax, ay = coord(rng.int, -6, 6), coord(rng.int, -6, 6)
      local bx, by = coord(rng.int, -6, 6), coord(rng.int, -6, 6)
      local cx, cy = coord(rng.int, -3, 3), coord(rng.int, -3, 3)
      local h = rng.int(0, 24) / 8
      local want = brute.square(brute.fix(ax), brute.fix(ay), brute.fix(bx), brute.fix(by),
        brute.fix(cx), brute.fix(cy), brute.fix(h))
      local got = sweep.square(ax, ay, bx, by, cx, cy, h)
      if got ~= want then
        error(("square(%g,%g -> %g,%g; %g,%g h %g): got %s, want %s"):format(
          ax, ay, bx, by, cx, cy, h, tostring(got), tostring(want)))
      end
      if got then hits = hits + 1 else misses = misses + 1 end
    end
    -- both outcomes occur often enough for the comparison to mean something
    assert.is_true(hits > 1000 and misses > 1000)
  end)

  it("never collides when the move starts inside or on the square", function()
    assert.is_false(sweep.square(1, 0, 5, 0, 0, 0, 1))     -- on the edge
    assert.is_false(sweep.square(0.5, 0.5, 3, 3, 0, 0, 1)) -- inside
    assert.is_false(sweep.square(1, 1, -3, -3, 0, 0, 1))   -- on a corner, through
  end)

  it("collides when the move ends inside or on the square", function()
    assert.is_true(sweep.square(3, 0, 1, 0, 0, 0, 1))
    assert.is_true(sweep.square(3, 3, 1, 1, 0, 0, 1))
  end)

  it("tests the segment exactly otherwise", function()
    assert.is_true(sweep.square(-3, 1, 3, 1, 0, 0, 1))    -- grazes the top edge
    assert.is_false(sweep.square(-3, 1 + 1 / 65536, 3, 1 + 1 / 65536, 0, 0, 1))
    assert.is_true(sweep.square(-1, 3, 3, -1, 0, 0, 1))   -- touches corner (1, 1)
    assert.is_false(sweep.square(-1, 3 + 1 / 65536, 3, -1 + 1 / 65536, 0, 0, 1))
  end)

  it("rejects bad input naming the argument", function()
    assert.has_error(function() sweep.square("a", 0, 1, 1, 0, 0, 1) end,
      "wayfinder.sweep.square: ax must be a number in [-16384, 16384], got 'a'")
    assert.has_error(function() sweep.square(0, 0 / 0, 1, 1, 0, 0, 1) end,
      "wayfinder.sweep.square: ay must be a number in [-16384, 16384], got nan")
    assert.has_error(function() sweep.square(0, 0, 1, 1, 0, 0, -1) end,
      "wayfinder.sweep.square: half must be a number in [0, 256], got -1")
    assert.has_error(function() sweep.square(0, 0, 1, 1, 0, math.huge, 1) end,
      "wayfinder.sweep.square: cy must be a number in [-16384, 16384], got inf")
    assert.has_error(function() sweep.square(0, 0, 300, 1, 0, 0, 1) end,
      "wayfinder.sweep.square: the move from (ax, ay) to (bx, by) must be at most "
      .. "256 along each axis")
  end)
end)

describe("sweep.grid", function()
  local function random_grid(seed, w, h, density)
    local rng = prng.new(seed)
    local g = wayfinder.grid.new(w, h)
    for y = 0, h - 1 do
      for x = 0, w - 1 do
        if rng.float() < density then g:set_passable(x, y, false) end
      end
    end
    return g
  end

  it("finds the same first blocked navcell as the exact reference", function()
    local g = random_grid(1302, 24, 24, 0.2)
    local rng = prng.new(1303)
    local function passable(i, j)
      return i >= 0 and j >= 0 and i < 24 and j < 24 and g:is_passable(i, j)
    end
    local hits, clear = 0, 0
    for _ = 1, 6000 do
      local ax, ay = coord(rng.int, -1, 25), coord(rng.int, -1, 25)
      local bx, by = ax + coord(rng.int, -5, 5), ay + coord(rng.int, -5, 5)
      local wi, wj = brute.grid(passable, brute.fix(ax), brute.fix(ay), brute.fix(bx),
        brute.fix(by))
      local hit, i, j = sweep.grid(g, ax, ay, bx, by)
      assert.are.equal(wi ~= nil, hit)
      assert.are.equal(wi, i)
      assert.are.equal(wj, j)
      if hit then hits = hits + 1 else clear = clear + 1 end
    end
    assert.is_true(hits > 500 and clear > 500)
  end)

  it("agrees with grid:line_of_sight between navcell centres", function()
    local g = random_grid(1303, 16, 16, 0.25)
    local checked = 0
    for ax = 0, 15, 3 do
      for ay = 0, 15, 2 do
        for bx = 0, 15, 5 do
          for by = 0, 15, 3 do
            if g:is_passable(ax, ay) and g:is_passable(bx, by) then
              local hit = sweep.grid(g, ax + 0.5, ay + 0.5, bx + 0.5, by + 0.5)
              assert.are.equal(g:line_of_sight(ax, ay, bx, by), not hit)
              checked = checked + 1
            end
          end
        end
      end
    end
    assert.is_true(checked > 50)
  end)

  it("cuts no corner: a diagonal needs both orthogonal neighbours", function()
    local g = wayfinder.grid.from_ascii("..\n#.\n")
    -- rows are y; '#' is navcell (0, 1)
    assert.is_true((sweep.grid(g, 0.5, 0.5, 1.5, 1.5)))
    assert.is_false((sweep.grid(g, 1.5, 0.5, 1.5, 1.5)))
    -- sliding along the blocked navcell's edge touches it
    assert.is_true((sweep.grid(g, 1, 0.5, 1, 1.5)))
  end)

  it("treats navcells off the grid as blocked and knows classes", function()
    local g = wayfinder.grid.new(4, 4, { classes = { { name = "small" },
      { name = "big", clearance = 1 } } })
    local hit, i, j = sweep.grid(g, 0.5, 0.5, -0.5, 0.5)
    assert.is_true(hit)
    assert.are.same({ -1, 0 }, { i, j })
    assert.is_false((sweep.grid(g, 0.5, 1.5, 1.5, 1.5, "small")))
    assert.is_true((sweep.grid(g, 0.5, 1.5, 1.5, 1.5, "big")))   -- navcell 0 is too near
    assert.is_false((sweep.grid(g, 1.5, 1.5, 2.5, 2.5, "big")))
  end)

  it("rejects bad input naming the argument", function()
    local g = wayfinder.grid.new(4, 4)
    assert.has_error(function() sweep.grid({}, 0, 0, 1, 1) end,
      "wayfinder.sweep.grid: grid must be a wayfinder.Grid, got a table")
    assert.has_error(function() sweep.grid(g, 0, 0, 1, 0 / 0) end,
      "wayfinder.sweep.grid: by must be a number in [-16384, 16384], got nan")
    assert.has_error(function() sweep.grid(g, 0, 0, 1, 1, "nope") end,
      "wayfinder.sweep.grid: class must name a class of the grid, got 'nope'")
    assert.has_error(function() sweep.grid(g, 0, 0, 1, 1, 3) end,
      "wayfinder.sweep.grid: class must be a string, got 3")
    g:close()
    assert.has_error(function() sweep.grid(g, 0, 0, 1, 1) end,
      "wayfinder.sweep.grid: grid is a closed grid")
  end)
end)
