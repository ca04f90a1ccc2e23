-- Smoothing (options.smooth): the fewest navcells of the grid path joined by
-- segments with line of sight, the shortest such chain, ties to the
-- earliest waypoints. Every result is compared with a brute-force minimum
-- over all pairs of the path's navcells, written in spec/support/brute.lua
-- from the rule in docs/grid.md.
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")
local brute = require("support.brute")

local grid = wayfinder.grid

-- The search itself: no goal rewriting, no escape from blocked starts.
local S = require("support.search")
local path_between, xy = S.path_between, S.xy

local function passable_of(g, class)
  return function(x, y) return g:is_passable(x, y, class) end
end

-- What smoothing did before (brute.greedy_smooth), the baseline the
-- hand-made cases improve on.
local function old_greedy(passable, cells)
  return brute.greedy_smooth(cells, function(a, c)
    return brute.sees(passable, a[1], a[2], c[1], c[2])
  end)
end

-- Checks one smoothed path against the brute force and the documented
-- guarantees; returns the brute-force waypoints.
local function check(g, class, unsmoothed, path, len)
  local passable = passable_of(g, class)
  local cells = assert(brute.expand(unsmoothed))
  local want, units = brute.fewest_waypoints(passable, cells)
  assert.are.same(want, xy(path))
  assert.are.equal(units / 65536, len)
  -- the ends are kept, every segment has line of sight by the rule and by
  -- grid:line_of_sight, and the waypoints are the path's navcells in order
  assert.are.same(cells[1], xy(path)[1])
  assert.are.same(cells[#cells], xy(path)[#path])
  local at = 1
  for k = 2, #path do
    local a, b = path[k - 1], path[k]
    assert.is_true(brute.sees(passable, a[1], a[2], b[1], b[2]))
    assert.is_true(g:line_of_sight(a[1], a[2], b[1], b[2], class))
    local found
    for i = at + 1, #cells do
      if cells[i][1] == b[1] and cells[i][2] == b[2] then found = i; break end
    end
    assert.is_truthy(found, "waypoint is not a later navcell of the grid path")
    at = found
  end
  return want
end

describe("smoothing", function()
  describe("finds fewer waypoints than the old greedy pass", function()
    it("when the goal is in sight past a navcell that is not", function()
      -- from (0,2) the greedy pass stops at (0,1): (1,1) is hidden (the
      -- corner between them has a blocked side), yet the goal (1,0) is in
      -- sight, and no corner is crossed on the way
      local g = grid.from_ascii("@...\n....\n.@@@\n")
      for _, algo in ipairs({ "astar", "jps" }) do
        local unsmoothed = path_between(g, 0, 2, 1, 0, { algorithm = algo })
        assert.are.same({ { 0, 2 }, { 0, 1 }, { 1, 1 }, { 1, 0 } }, xy(unsmoothed))
        local cells = brute.expand(unsmoothed)
        local greedy = old_greedy(passable_of(g), cells)
        assert.are.same({ { 0, 2 }, { 0, 1 }, { 1, 1 }, { 1, 0 } }, greedy)
        local path, len = path_between(g, 0, 2, 1, 0, { smooth = true, algorithm = algo })
        assert.are.same({ { 0, 2 }, { 1, 0 } }, xy(path))
        assert.is_true(math.abs(len - math.sqrt(5)) < 1e-4)
        check(g, nil, unsmoothed, path, len)
      end
    end)

    it("when turning earlier than the farthest visible navcell sees the goal", function()
      local g = grid.from_ascii(table.concat({
        "......",
        ".@..@.",
        ".@....",
        ".@..@.",
      }, "\n") .. "\n")
      for _, algo in ipairs({ "astar", "jps" }) do
        local unsmoothed = path_between(g, 5, 3, 1, 0, { algorithm = algo })
        local cells = brute.expand(unsmoothed)
        assert.are.same({ { 5, 3 }, { 5, 2 }, { 4, 2 }, { 3, 2 }, { 2, 1 }, { 2, 0 }, { 1, 0 } },
          cells)
        -- greedy: from (5,2) the farthest navcell in sight is (3,2), which
        -- does not see the goal
        assert.are.same({ { 5, 3 }, { 5, 2 }, { 3, 2 }, { 2, 0 }, { 1, 0 } },
          old_greedy(passable_of(g), cells))
        local path, len = path_between(g, 5, 3, 1, 0, { smooth = true, algorithm = algo })
        assert.are.same({ { 5, 3 }, { 5, 2 }, { 4, 2 }, { 1, 0 } }, xy(path))
        assert.is_true(math.abs(len - (1 + 1 + math.sqrt(13))) < 1e-4)
        check(g, nil, unsmoothed, path, len)
      end
    end)
  end)

  describe("chooses among the chains with the fewest waypoints", function()
    it("the shortest", function()
      -- (3,0) (2,2) (0,2) and (3,0) (3,1) (0,2) both have three waypoints;
      -- the second is shorter (1 + sqrt(10) < sqrt(5) + 2)
      local g = grid.from_ascii("..@.\n....\n....\n")
      local unsmoothed = path_between(g, 3, 0, 0, 2, { algorithm = "astar" })
      assert.are.same({ { 3, 0 }, { 3, 1 }, { 2, 2 }, { 1, 2 }, { 0, 2 } },
        brute.expand(unsmoothed))
      assert.are.same({ { 3, 0 }, { 2, 2 }, { 0, 2 } },
        old_greedy(passable_of(g), brute.expand(unsmoothed)))
      local path, len = path_between(g, 3, 0, 0, 2, { smooth = true, algorithm = "astar" })
      assert.are.same({ { 3, 0 }, { 3, 1 }, { 0, 2 } }, xy(path))
      assert.is_true(math.abs(len - (1 + math.sqrt(10))) < 1e-4)
      check(g, nil, unsmoothed, path, len)
    end)

    it("of equal length, the one whose waypoints come first along the path", function()
      -- (1,2) (2,2) (3,0) and (1,2) (3,1) (3,0) are both 1 + sqrt(5) long;
      -- (2,2) comes first. (1,2) does not see (3,0): the segment crosses
      -- the corner of the blocked (1,1).
      local g = grid.from_ascii("....\n.@..\n....\n")
      for _, algo in ipairs({ "astar", "jps" }) do
        local unsmoothed = path_between(g, 1, 2, 3, 0, { algorithm = algo })
        assert.are.same({ { 1, 2 }, { 2, 2 }, { 3, 1 }, { 3, 0 } }, brute.expand(unsmoothed))
        assert.is_true(g:line_of_sight(1, 2, 3, 1) and g:line_of_sight(2, 2, 3, 0))
        assert.is_false(g:line_of_sight(1, 2, 3, 0))
        local path, len = path_between(g, 1, 2, 3, 0, { smooth = true, algorithm = algo })
        assert.are.same({ { 1, 2 }, { 2, 2 }, { 3, 0 } }, xy(path))
        check(g, nil, unsmoothed, path, len)
      end
    end)
  end)

  it("keeps a start already in the goal as one waypoint", function()
    local g = grid.from_ascii("...\n.@.\n...\n")
    local path, len = path_between(g, 2, 0, 2, 0, { smooth = true })
    assert.are.same({ { 2, 0 } }, xy(path))
    assert.are.equal(0, len)
  end)

  it("matches the brute-force minimum on random grids, A* and JPS", function()
    math.randomseed(2718)
    local paths, fewer = 0, 0
    for _ = 1, 200 do
      local w, h = math.random(3, 30), math.random(3, 30)
      local g = grid.from_ascii(brute.random_ascii(w, h, ({ 0.1, 0.2, 0.3, 0.4 })[math.random(4)]))
      for _ = 1, 6 do
        local sx, sy = math.random(0, w - 1), math.random(0, h - 1)
        local gx, gy = math.random(0, w - 1), math.random(0, h - 1)
        local algo = ({ "astar", "jps" })[math.random(2)]
        local unsmoothed = path_between(g, sx, sy, gx, gy, { algorithm = algo })
        if unsmoothed then
          paths = paths + 1
          local path, len = path_between(g, sx, sy, gx, gy, { smooth = true, algorithm = algo })
          check(g, nil, unsmoothed, path, len)
          if #path < #old_greedy(passable_of(g), brute.expand(unsmoothed)) then
            fewer = fewer + 1
          end
        end
      end
    end
    assert.is_true(paths > 500)
    -- the random grids include cases the old greedy pass got wrong
    assert.is_true(fewer > 50, "only " .. fewer .. " paths improve on the old greedy pass")
  end)

  it("matches the brute-force minimum with costs, clearance classes and goal shapes", function()
    math.randomseed(31415)
    local paths = 0
    for _ = 1, 120 do
      local w, h = math.random(4, 24), math.random(4, 24)
      local g = grid.from_ascii(brute.random_ascii(w, h, ({ 0.05, 0.15, 0.25 })[math.random(3)]),
        { classes = { { name = "small" }, { name = "large", clearance = 1 } } })
      if math.random(2) == 1 then
        for _ = 1, compat.idiv(w * h, 3) do
          g:set_cost(math.random(0, w - 1), math.random(0, h - 1), math.random(1, 9))
        end
      end
      for _ = 1, 4 do
        local class = ({ "small", "large" })[math.random(2)]
        local sx, sy = math.random(0, w - 1), math.random(0, h - 1)
        local gx, gy = math.random(0, w - 1), math.random(0, h - 1)
        local opts = { class = class }
        if math.random(3) == 1 then opts.goal = { shape = "circle", radius = math.random(0, 3) } end
        local unsmoothed = path_between(g, sx, sy, gx, gy, opts)
        if unsmoothed then
          paths = paths + 1
          opts.smooth = true
          local path, len = path_between(g, sx, sy, gx, gy, opts)
          check(g, class, unsmoothed, path, len)
        end
      end
    end
    assert.is_true(paths > 150)
  end)

  it("is the same through the queue, for shared goals too", function()
    math.randomseed(1414)
    local checked = 0
    for _ = 1, 12 do
      local w, h = math.random(8, 20), math.random(8, 20)
      local g = grid.from_ascii(brute.random_ascii(w, h, 0.2))
      local q = wayfinder.queue.new(g)
      local gx, gy = math.random(0, w - 1) + 0.5, math.random(0, h - 1) + 0.5
      local pairs_ = {}
      for k = 1, 6 do
        local sx, sy = math.random(0, w - 1) + 0.5, math.random(0, h - 1) + 0.5
        local base = { sx = sx, sy = sy, gx = gx, gy = gy, shared = k % 2 == 0,
                       rewrite_goal = false, escape = false }
        local plain, smooth = {}, { smooth = true }
        for key, v in pairs(base) do plain[key], smooth[key] = v, v end
        pairs_[k] = { q:submit(plain), q:submit(smooth) }
      end
      q:run()
      for _, hp in ipairs(pairs_) do
        local unsmoothed = hp[1]:result()
        local path, len = hp[2]:result()
        if unsmoothed then
          check(g, nil, unsmoothed, path, len)
          checked = checked + 1
        end
      end
      q:close()
    end
    assert.is_true(checked > 30)
  end)

  it("uses grid:line_of_sight's rule: random pairs agree with the brute force", function()
    math.randomseed(577)
    local seen = 0
    for _ = 1, 30 do
      local w, h = math.random(1, 40), math.random(1, 40)
      local g = grid.from_ascii(brute.random_ascii(w, h, math.random() * 0.4))
      local passable = passable_of(g)
      for _ = 1, 60 do
        local ax, ay = math.random(0, w - 1), math.random(0, h - 1)
        local bx, by = math.random(0, w - 1), math.random(0, h - 1)
        local want = passable(ax, ay) and brute.sees(passable, ax, ay, bx, by)
        assert.are.equal(want, g:line_of_sight(ax, ay, bx, by),
          ("%d,%d -> %d,%d"):format(ax, ay, bx, by))
        assert.are.equal(want, g:line_of_sight(bx, by, ax, ay))
        if want then seen = seen + 1 end
      end
    end
    assert.is_true(seen > 100)
  end)
end)
