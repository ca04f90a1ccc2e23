-- Optimal search on the navcell grid: A* and JPS, waypoints, lengths,
-- reasons, terrain costs, goal shapes and smoothing.
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")

-- These specs test the search itself, so goal rewriting and the escape from
-- blocked starts (docs/scale.md) are turned off in every query.
local S = require("support.search")
local raw, path_between, xy = S.raw, S.path_between, S.xy
local brute = require("support.brute")

local grid = wayfinder.grid
local SQRT2 = math.sqrt(2)
local ALGOS = { "astar", "jps" }

local function ascii(rows) return table.concat(rows, "\n") .. "\n" end


describe("grid:find_path", function()
  describe("on hand-made maps", function()
    it("follows the only corridor, waypoints where the direction changes", function()
      local g = grid.from_ascii(ascii({
        "..........",
        "@@@@@@@@.@",
        "..........",
        ".@@@@@@@@@",
        "..........",
      }))
      for _, algo in ipairs(ALGOS) do
        local path, len, info = path_between(g, 0, 0, 0, 4, { algorithm = algo })
        assert.are.same({ { 0, 0 }, { 8, 0 }, { 8, 2 }, { 0, 2 }, { 0, 4 } }, xy(path))
        assert.are.equal(20, len)
        assert.are.equal(20 * brute.UNIT, info.cost_units)
        assert.are.equal(algo, info.algorithm)
        assert.is_true(info.expanded > 0)
      end
    end)

    it("waypoints are {x, y} sequences with .x and .y as well", function()
      local g = grid.new(5, 5)
      local path = path_between(g, 0, 0, 4, 4)
      assert.are.equal(2, #path)
      assert.are.equal(0, path[1][1]); assert.are.equal(0, path[1].x)
      assert.are.equal(0, path[1][2]); assert.are.equal(0, path[1].y)
      assert.are.equal(4, path[2][1]); assert.are.equal(4, path[2].x)
      assert.are.equal(4, path[2][2]); assert.are.equal(4, path[2].y)
      assert.are.equal("integer", compat.type(path[2].x))
    end)

    it("steps diagonally for sqrt 2 where both side navcells are free", function()
      local g = grid.from_ascii(ascii({
        "....",
        "@...",
        "@@..",
        "@@@.",
      }))
      for _, algo in ipairs(ALGOS) do
        local path, len, info = path_between(g, 0, 0, 3, 3, { algorithm = algo })
        -- (0,0) -> (1,1) would cut the corner of (0,1)
        assert.are.same({ { 0, 0 }, { 1, 0 }, { 3, 2 }, { 3, 3 } }, xy(path))
        assert.are.equal(2 * brute.UNIT + 2 * 2 * brute.DIAG, info.cost_units)
        assert.are.equal(info.cost_units / brute.UNIT, len)
        assert.is_true(math.abs(len - (2 + 2 * SQRT2)) < 1e-6)
      end
      local path, len = path_between(grid.new(5, 5), 0, 0, 4, 4)
      assert.are.same({ { 0, 0 }, { 4, 4 } }, xy(path))
      assert.is_true(math.abs(len - 4 * SQRT2) < 1e-6)
    end)

    it("never cuts a corner and never squeezes between two diagonal blocks", function()
      local g = grid.from_ascii(".@\n..\n")
      for _, algo in ipairs(ALGOS) do
        local path, len = path_between(g, 0, 0, 1, 1, { algorithm = algo })
        assert.are.same({ { 0, 0 }, { 0, 1 }, { 1, 1 } }, xy(path))
        assert.are.equal(2, len)
      end
      g = grid.from_ascii(".@\n@.\n")
      for _, algo in ipairs(ALGOS) do
        local path, reason, info = path_between(g, 0, 0, 1, 1, { algorithm = algo })
        assert.is_nil(path)
        assert.are.equal("unreachable", reason)
        assert.are.equal(algo, info.algorithm)
        assert.is_true(info.expanded >= 1)
      end
      -- a diagonal wall of single navcells is a wall
      g = grid.from_ascii(ascii({
        "....@",
        "...@.",
        "..@..",
        ".@...",
        "@....",
      }))
      for _, algo in ipairs(ALGOS) do
        assert.are.equal("unreachable", select(2, path_between(g, 0, 0, 4, 4,
          { algorithm = algo })))
      end
    end)

    it("gives the octile length on an open map", function()
      local g = grid.new(10, 5)
      for _, algo in ipairs(ALGOS) do
        local path, len, info = path_between(g, 0, 0, 9, 3, { algorithm = algo })
        assert.are.equal(6 * brute.UNIT + 3 * 2 * brute.DIAG, info.cost_units)
        assert.is_true(math.abs(len - (6 + 3 * SQRT2)) < 1e-6)
        assert.is_truthy(brute.check_path(g, nil, path))
      end
    end)

    it("start and goal in one navcell: one waypoint, length 0", function()
      local g = grid.new(4, 4)
      for _, algo in ipairs(ALGOS) do
        local path, len, info = g:find_path(2.1, 1.9, 2.8, 1.2, raw({ algorithm = algo }))
        assert.are.same({ { 2, 1 } }, xy(path))
        assert.are.equal(0, len)
        assert.are.equal(0, info.cost_units)
        assert.are.equal(1, info.expanded)
      end
    end)

    it("takes world coordinates and starts from the navcell holding them", function()
      local g = grid.new(10, 10)
      local path = g:find_path(3.999, 0.0, 9.999, 0.25, raw())
      assert.are.same({ { 3, 0 }, { 9, 0 } }, xy(path))
    end)
  end)

  describe("reasons", function()
    local g = grid.from_ascii(ascii({
      ".....",
      ".@@@.",
      ".@.@.",
      ".@@@.",
      ".....",
    }))

    it("unreachable", function()
      for _, algo in ipairs(ALGOS) do
        local path, reason, info = path_between(g, 0, 0, 2, 2, { algorithm = algo })
        assert.is_nil(path)
        assert.are.equal("unreachable", reason)
        assert.is_true(info.expanded > 0)
      end
    end)

    it("start_outside", function()
      for _, s in ipairs({ { -0.5, 0 }, { 5, 0 }, { 0, 5 }, { 0, -0.001 }, { 100, 100 } }) do
        local path, reason, info = g:find_path(s[1], s[2], 4, 4, raw())
        assert.is_nil(path)
        assert.are.equal("start_outside", reason)
        assert.are.equal(0, info.expanded)
      end
    end)

    it("start_blocked", function()
      local path, reason = path_between(g, 1, 1, 4, 4)
      assert.is_nil(path)
      assert.are.equal("start_blocked", reason)
    end)

    it("goal_outside, for points and for shapes with no navcell on the grid", function()
      for _, q in ipairs({
        { 0, 0, -1, 2 }, { 0, 0, 5.5, 2 }, { 0, 0, 2, 5 },
      }) do
        assert.are.equal("goal_outside", select(2, g:find_path(q[1], q[2], q[3], q[4], raw())))
      end
      assert.are.equal("goal_outside", select(2, g:find_path(0, 0, -1, 2,
        raw({ goal = { shape = "circle", radius = 0.5 } }))))
      assert.are.equal("goal_outside", select(2, g:find_path(0, 0, 9, 9,
        raw({ goal = { shape = "square", half_width = 2, half_height = 2 } }))))
      -- a circle whose bounding box meets the grid but no navcell of it
      assert.are.equal("goal_outside", select(2, g:find_path(2.5, 2.5, -0.5, -0.5,
        raw({ goal = { shape = "circle", radius = 0.6 } }))))
      -- a circle reaching onto the grid is not outside: it touches (0, 2) only
      local path = g:find_path(4.5, 4.5, -1, 2.5, raw({ goal = { shape = "circle", radius = 1 } }))
      assert.are.same({ 0, 2 }, xy(path)[#path])
    end)

    it("goal_blocked for a point goal on a blocked navcell", function()
      local path, reason = path_between(g, 0, 0, 2, 1)
      assert.is_nil(path)
      assert.are.equal("goal_blocked", reason)
    end)

    it("a shape goal whose navcells are all blocked is unreachable", function()
      local path, reason = g:find_path(0.5, 0.5, 2.5, 2.5, raw({ goal = { shape = "circle",
        radius = 0.4 } }))
      assert.is_nil(path)
      assert.are.equal("unreachable", reason)
    end)

    it("are the same for every class and algorithm", function()
      local h = grid.from_ascii(".@...\n.....\n", { classes = { { name = "a" }, { name = "b" } } })
      h:set_passable(4, 0, false, "b")
      assert.are.equal("goal_blocked", select(2, path_between(h, 0, 0, 4, 0, { class = "b",
        algorithm = "jps" })))
      assert.is_truthy(path_between(h, 0, 0, 4, 0, { class = "a", algorithm = "jps" }))
      assert.are.equal("start_blocked", select(2, path_between(h, 1, 0, 4, 0,
        { algorithm = "astar" })))
    end)
  end)

  describe("terrain costs", function()
    local corridor = ascii({
      "#######",
      "#.....#",
      "#.###.#",
      "#.....#",
      "#######",
    })

    it("scale each step by the mean cost of its two navcells", function()
      local g = grid.new(5, 1)
      g:set_cost(2, 0, 3)
      local path, len, info = path_between(g, 0, 0, 4, 0)
      -- 1 + (1 + 3) / 2 + (3 + 1) / 2 + 1
      assert.are.equal(6, len)
      assert.are.equal(6 * brute.UNIT, info.cost_units)
      assert.are.same({ { 0, 0 }, { 4, 0 } }, xy(path))
      assert.are.equal("astar", info.algorithm)
    end)

    it("a cheap enough costly navcell is crossed, a dearer one is avoided", function()
      local g = grid.from_ascii(corridor)
      g:set_cost(3, 3, 4) -- straight: 1 + 2.5 + 2.5 + 1 = 7 < detour 8
      local path, len = path_between(g, 1, 3, 5, 3)
      assert.are.same({ { 1, 3 }, { 5, 3 } }, xy(path))
      assert.are.equal(7, len)
      g:set_cost(3, 3, 6) -- straight: 1 + 3.5 + 3.5 + 1 = 9 > detour 8
      path, len = path_between(g, 1, 3, 5, 3)
      assert.are.same({ { 1, 3 }, { 1, 1 }, { 5, 1 }, { 5, 3 } }, xy(path))
      assert.are.equal(8, len)
      g:set_cost(1, 3, 3) -- the start's cost weighs on the first step: 2 + 7
      path, len = path_between(g, 1, 3, 5, 3)
      assert.are.same({ { 1, 3 }, { 1, 1 }, { 5, 1 }, { 5, 3 } }, xy(path))
      assert.are.equal(9, len)
    end)

    it("apply to diagonal steps too", function()
      local g = grid.new(3, 3)
      g:set_cost(1, 1, 3) -- through the centre: 2 * sqrt2 * 2 = 5.66
      g:set_cost(0, 1, 2) -- makes the other way round dearer
      local path, len, info = path_between(g, 0, 0, 2, 2)
      assert.are.same({ { 0, 0 }, { 1, 0 }, { 2, 1 }, { 2, 2 } }, xy(path))
      assert.are.equal(2 * brute.UNIT + 2 * brute.DIAG, info.cost_units)
      assert.are.equal(info.cost, len)
      assert.is_true(math.abs(len - (2 + SQRT2)) < 1e-6)
    end)

    it("A* matches a brute-force Dijkstra on random costly maps", function()
      math.randomseed(271828)
      for _ = 1, 25 do
        local w, h = math.random(3, 18), math.random(3, 18)
        local g = grid.from_ascii(brute.random_ascii(w, h, 0.2))
        for y = 0, h - 1 do
          for x = 0, w - 1 do
            if math.random() < 0.4 then g:set_cost(x, y, math.random(1, 12)) end
          end
        end
        g:set_cost(0, 0, 2) -- never uniform
        for _ = 1, 5 do
          local sx, sy = math.random(0, w - 1), math.random(0, h - 1)
          if g:is_passable(sx, sy) then
            local dist = brute.grid_dijkstra(g, nil, sx, sy)
            for _ = 1, 6 do
              local gx, gy = math.random(0, w - 1), math.random(0, h - 1)
              local path, len, info = path_between(g, sx, sy, gx, gy)
              local want = dist[gy * w + gx + 1]
              if not g:is_passable(gx, gy) then
                assert.are.equal("goal_blocked", len)
              elseif want == nil then
                assert.are.equal("unreachable", len)
              else
                assert.are.equal("astar", info.algorithm)
                assert.are.equal(want, info.cost_units)
                assert.are.equal(want, (brute.check_path(g, nil, path)))
              end
            end
          end
        end
      end
    end)

    it("jps refuses a grid with a cost other than 1; auto picks astar there", function()
      local g = grid.new(6, 6)
      assert.are.equal("jps", select(3, path_between(g, 0, 0, 5, 5)).algorithm)
      assert.are.equal("jps", select(3, path_between(g, 0, 0, 5, 5,
        { algorithm = "auto" })).algorithm)
      assert.are.equal("astar", select(3, path_between(g, 0, 0, 5, 5,
        { algorithm = "astar" })).algorithm)
      g:set_cost(3, 3, 2)
      assert.has_error(function() path_between(g, 0, 0, 5, 5, { algorithm = "jps" }) end,
        "grid:find_path: options.algorithm 'jps' needs a grid whose costs are all 1; use 'astar'")
      assert.are.equal("astar", select(3, path_between(g, 0, 0, 5, 5)).algorithm)
      assert.are.equal("astar", select(3, path_between(g, 0, 0, 5, 5,
        { algorithm = "auto" })).algorithm)
      g:set_cost(3, 3, 1)
      assert.are.equal("jps", select(3, path_between(g, 0, 0, 5, 5)).algorithm)
      assert.is_truthy(path_between(g, 0, 0, 5, 5, { algorithm = "jps" }))
    end)
  end)

  describe("classes", function()
    it("searches the passability of the class asked for", function()
      local g = grid.from_ascii(ascii({
        ".........",
        ".........",
        "....@....",
        ".........",
        ".........",
      }), { classes = { { name = "small" }, { name = "big", clearance = 1 } } })
      local path, len = path_between(g, 1, 2, 7, 2, { class = "small" })
      assert.is_true(math.abs(len - (4 + 2 * SQRT2)) < 1e-6)
      assert.is_truthy(brute.check_path(g, "small", path))
      -- the big class fits only in rows 1..3 and the block widens to 3x3
      assert.are.equal("unreachable", select(2, path_between(g, 1, 2, 7, 2, { class = "big" })))
      path = path_between(g, 1, 1, 7, 1, { class = "small" })
      assert.are.same({ { 1, 1 }, { 7, 1 } }, xy(path))
    end)
  end)

  describe("goals", function()
    -- membership as find_path sees it: a path of one waypoint when the
    -- start navcell is inside the goal
    local function members(g, gx, gy, goal)
      local out = {}
      for y = 0, g:height() - 1 do
        for x = 0, g:width() - 1 do
          local path = g:find_path(x + 0.5, y + 0.5, gx, gy, raw({ goal = goal }))
          out[y * g:width() + x + 1] = path ~= nil and #path == 1
        end
      end
      return out
    end

    local function picture(w, h, set)
      return brute.picture(w, h, function(x, y) return set[y * w + x + 1] end)
    end

    it("circle: every navcell with a point within the radius (edge included)", function()
      local g = grid.new(10, 10)
      assert.are.equal(ascii({
        "..........",
        "..........",
        "..........",
        "....@@....",
        "...@@@@...",
        "...@@@@...",
        "....@@....",
        "..........",
        "..........",
        "..........",
      }), picture(10, 10, members(g, 5, 5, { shape = "circle", radius = 1 })))
      assert.are.equal(ascii({
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        ".....@....",
        "..........",
        "..........",
        "..........",
        "..........",
      }), picture(10, 10, members(g, 5.5, 5.5, { shape = "circle", radius = 0 })))
    end)

    it("square: every navcell sharing a point with the rectangle", function()
      local g = grid.new(10, 10)
      -- x in [4, 6], y in [4.5, 5.5]; touching an edge counts
      assert.are.equal(ascii({
        "..........",
        "..........",
        "..........",
        "..........",
        "...@@@@...",
        "...@@@@...",
        "..........",
        "..........",
        "..........",
        "..........",
      }), picture(10, 10, members(g, 5, 5, { shape = "square", half_width = 1,
        half_height = 0.5 })))
      -- a quarter turn swaps the sides
      assert.are.equal(ascii({
        "..........",
        "..........",
        "..........",
        "....@@....",
        "....@@....",
        "....@@....",
        "....@@....",
        "..........",
        "..........",
        "..........",
      }), picture(10, 10, members(g, 5, 5, { shape = "square", half_width = 1, half_height = 0.5,
        angle = math.pi / 2 })))
      -- a point goal is the navcell holding the point
      assert.are.equal(ascii({
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..@.......",
        "..........",
        "..........",
      }), picture(10, 10, members(g, 2.9, 7.0, { shape = "point" })))
    end)

    it("circles and squares match the brute-force overlap test", function()
      math.randomseed(8080)
      local g = grid.new(16, 16)
      for _ = 1, 30 do
        local cx, cy = math.random(-16, 144) / 8, math.random(-16, 144) / 8
        local r = math.random(0, 40) / 8
        local got = members(g, cx, cy, { shape = "circle", radius = r })
        for y = 0, 15 do
          for x = 0, 15 do
            assert.are.equal(brute.circle_touches(cx, cy, r, x, y), got[y * 16 + x + 1],
              ("circle (%g, %g) r %g, navcell %d,%d"):format(cx, cy, r, x, y))
          end
        end
        local hw, hh = math.random(0, 40) / 8, math.random(0, 40) / 8
        local angle = math.random() * 2 * math.pi
        local ux, uy = brute.axis(angle)
        got = members(g, cx, cy, { shape = "square", half_width = hw, half_height = hh,
          angle = angle })
        for y = 0, 15 do
          for x = 0, 15 do
            local want = brute.square_touches(cx, cy, hw, hh, ux, uy, x, y, 1e-4)
            if want ~= nil then
              assert.are.equal(want, got[y * 16 + x + 1],
                ("square (%g, %g) %g x %g at %g, navcell %d,%d")
                  :format(cx, cy, hw, hh, angle, x, y))
            end
          end
        end
        -- the axis form gives the same goal as the angle form
        local by_u = members(g, cx, cy, { shape = "square", half_width = hw, half_height = hh,
          u = { math.cos(angle), math.sin(angle) } })
        assert.are.same(got, by_u)
      end
    end)

    it("the path ends at the first goal navcell reached, at the optimal cost", function()
      math.randomseed(6174)
      local found = 0
      for _ = 1, 40 do
        local w, h = math.random(6, 24), math.random(6, 24)
        local g = grid.from_ascii(brute.random_ascii(w, h, ({ 0, 0.15, 0.3 })[math.random(3)]))
        local sx, sy = math.random(0, w - 1), math.random(0, h - 1)
        if g:is_passable(sx, sy) then
          local dist = brute.grid_dijkstra(g, nil, sx, sy)
          for _ = 1, 4 do
            local cx, cy = math.random(0, w * 8) / 8, math.random(0, h * 8) / 8
            local goal, touches
            if math.random() < 0.5 then
              local r = math.random(0, 24) / 8
              goal = { shape = "circle", radius = r }
              touches = function(x, y) return brute.circle_touches(cx, cy, r, x, y) end
            else
              local hw, hh, angle = math.random(0, 24) / 8, math.random(0, 24) / 8,
                math.random() * 6.3
              local ux, uy = brute.axis(angle)
              goal = { shape = "square", half_width = hw, half_height = hh, angle = angle }
              touches = function(x, y)
                return brute.square_touches(cx, cy, hw, hh, ux, uy, x, y, 1e-4)
              end
            end
            -- optimal: between the best surely-inside and best maybe-inside
            local best_in, best_maybe
            for y = 0, h - 1 do
              for x = 0, w - 1 do
                local d, t = dist[y * w + x + 1], touches(x, y)
                if d and t ~= false then
                  best_maybe = math.min(best_maybe or d, d)
                  if t then best_in = math.min(best_in or d, d) end
                end
              end
            end
            for _, algo in ipairs(ALGOS) do
              local path, len, info = g:find_path(sx + 0.5, sy + 0.5, cx, cy, raw({ goal = goal,
                algorithm = algo }))
              if not path then
                assert.is_nil(best_in)
                assert.is_truthy(len == "unreachable" or len == "goal_outside", len)
              else
                found = found + 1
                local cost, cells = brute.check_path(g, nil, path)
                assert.is_truthy(cost, cells)
                assert.are.equal(cost, info.cost_units)
                assert.is_true(info.cost_units >= best_maybe)
                assert.is_true(info.cost_units <= (best_in or math.huge))
                assert.are_not.equal(false, touches(cells[#cells][1], cells[#cells][2]))
                for k = 1, #cells - 1 do
                  assert.are_not.equal(true, touches(cells[k][1], cells[k][2]),
                    ("navcell %d,%d of the path is already in the goal")
                      :format(cells[k][1], cells[k][2]))
                end
              end
            end
          end
        end
      end
      assert.is_true(found > 100)
    end)
  end)

  describe("smoothing", function()
    it("an open map from (0,0) to (9,3) is one straight segment", function()
      local g = grid.new(10, 5)
      for _, algo in ipairs(ALGOS) do
        local path, len, info = path_between(g, 0, 0, 9, 3, { smooth = true, algorithm = algo })
        assert.are.same({ { 0, 0 }, { 9, 3 } }, xy(path))
        assert.is_true(math.abs(len - math.sqrt(90)) < 1e-4)
        -- info.cost stays the grid path's cost
        assert.is_true(math.abs(info.cost - (6 + 3 * SQRT2)) < 1e-6)
      end
    end)

    it("drops a waypoint whose neighbours see each other", function()
      -- the grid path bends at (2, 0) and (3, 1) around the block at (1, 1);
      -- from (0, 0) the goal is in sight past the block
      local g = grid.from_ascii(".......\n.@.....\n")
      for _, algo in ipairs(ALGOS) do
        local unsmoothed = path_between(g, 0, 0, 6, 1, { algorithm = algo })
        assert.are.same({ { 0, 0 }, { 2, 0 }, { 3, 1 }, { 6, 1 } }, xy(unsmoothed))
        local path, len = path_between(g, 0, 0, 6, 1, { smooth = true, algorithm = algo })
        assert.are.same({ { 0, 0 }, { 6, 1 } }, xy(path))
        assert.is_true(math.abs(len - math.sqrt(37)) < 1e-4)
      end
    end)

    it("keeps a corridor's corners", function()
      local g = grid.from_ascii(ascii({
        "..........",
        "@@@@@@@@.@",
        "..........",
        ".@@@@@@@@@",
        "..........",
      }))
      local path, len = path_between(g, 0, 0, 0, 4, { smooth = true })
      assert.are.same({ { 0, 0 }, { 8, 0 }, { 8, 2 }, { 0, 2 }, { 0, 4 } }, xy(path))
      assert.are.equal(20, len)
      -- a start already in the goal stays one waypoint
      path, len = path_between(g, 3, 0, 3, 0, { smooth = true })
      assert.are.same({ { 3, 0 } }, xy(path))
      assert.are.equal(0, len)
    end)

    it("string-pulls along the grid path with clear lines of sight", function()
      math.randomseed(1618)
      local paths = 0
      for _ = 1, 80 do
        local w, h = math.random(5, 35), math.random(5, 35)
        local g = grid.from_ascii(brute.random_ascii(w, h, ({ 0.1, 0.25, 0.35 })[math.random(3)]))
        for _ = 1, 6 do
          local sx, sy = math.random(0, w - 1), math.random(0, h - 1)
          local gx, gy = math.random(0, w - 1), math.random(0, h - 1)
          local unsmoothed, raw_len = path_between(g, sx, sy, gx, gy)
          if unsmoothed then
            paths = paths + 1
            local path, len, info = path_between(g, sx, sy, gx, gy, { smooth = true })
            assert.are.equal(raw_len, info.cost)
            assert.are.same({ sx, sy }, xy(path)[1])
            assert.are.same({ gx, gy }, xy(path)[#path])
            assert.is_true(#path <= #unsmoothed)
            assert.is_true(len <= raw_len + 1e-9,
              ("smoothed %.6f > grid %.6f"):format(len, raw_len))
            assert.is_true(math.abs(len - brute.polyline_length(path)) < 1e-4)
            for k = 2, #path do
              local a, b = path[k - 1], path[k]
              assert.is_true(g:line_of_sight(a[1], a[2], b[1], b[2]),
                ("no line of sight from %d,%d to %d,%d"):format(a[1], a[2], b[1], b[2]))
            end
            -- the waypoints are navcells of the grid path, in order, and no
            -- single one can be dropped: its two neighbours do not see each other
            local cells = brute.expand(unsmoothed)
            local at = 1
            for k = 2, #path do
              local found
              for i = at + 1, #cells do
                if cells[i][1] == path[k][1] and cells[i][2] == path[k][2] then found = i; break end
              end
              assert.is_truthy(found, "waypoint is not on the grid path, or out of order")
              if k < #path then
                local a, c = path[k - 1], path[k + 1]
                assert.is_false(g:line_of_sight(a[1], a[2], c[1], c[2]),
                  ("waypoint %d,%d could be dropped"):format(path[k][1], path[k][2]))
              end
              at = found
            end
          end
        end
      end
      assert.is_true(paths > 200)
    end)
  end)

  describe("A* and JPS", function()
    it("give the same optimal lengths on random maps, also to circles", function()
      math.randomseed(123456)
      local compared = 0
      for _, density in ipairs({ 0, 0.05, 0.15, 0.3, 0.4 }) do
        for _ = 1, 12 do
          local w, h = math.random(4, 64), math.random(4, 64)
          local g = grid.from_ascii(brute.random_ascii(w, h, density))
          local dist_from = {}
          for q = 1, 25 do
            local sx, sy = math.random(0, w - 1), math.random(0, h - 1)
            local gx, gy = math.random(0, w - 1), math.random(0, h - 1)
            local goal
            if q % 3 == 0 then goal = { shape = "circle", radius = math.random(0, 30) / 10 } end
            local pa, la, ia = path_between(g, sx, sy, gx, gy, { algorithm = "astar", goal = goal })
            local pj, lj, ij = path_between(g, sx, sy, gx, gy, { algorithm = "jps", goal = goal })
            assert.are.equal(pa == nil, pj == nil)
            if pa then
              compared = compared + 1
              assert.are.equal(ia.cost_units, ij.cost_units)
              assert.are.equal(la, lj)
              assert.are.equal(ia.cost_units, (brute.check_path(g, nil, pa)))
              assert.are.equal(ij.cost_units, (brute.check_path(g, nil, pj)))
              if not goal and w * h <= 1600 then
                local key = sy * w + sx
                dist_from[key] = dist_from[key] or brute.grid_dijkstra(g, nil, sx, sy)
                assert.are.equal(dist_from[key][gy * w + gx + 1], ia.cost_units)
              end
            else
              assert.are.equal(la, lj)
            end
          end
          g:close()
        end
      end
      assert.is_true(compared > 500)
    end)

    -- A walled field of pillars whose only way out is a corridor leading
    -- away from the goal, round the field and back: JPS opens many jump
    -- points in the field (more than its small open list holds, so its
    -- entries move to the buckets) before the corridor's, the worst, is
    -- needed.
    local function field_with_detour(spacing, size, corridor)
      local top = corridor + 1
      local w, h = size + 4, top + size + 4
      local rows = {}
      for y = 0, h - 1 do
        local r = {}
        for x = 0, w - 1 do
          local free = (y >= top and y < top + size and x >= 1 and x <= size
                        and not (x % spacing == 0 and y % spacing == 0))
            or (x == 1 and y >= 1 and y < top)
            or (y == 1 and x >= 1 and x <= w - 2)
            or (x == w - 2 and y >= 1 and y <= h - 2)
            or (y == h - 2 and x >= 1 and x <= w - 2)
          r[#r + 1] = free and "." or "@"
        end
        rows[#rows + 1] = table.concat(r)
      end
      return ascii(rows), 1, top, compat.idiv(size, 2), h - 2
    end

    it("keep every open entry when JPS's open list outgrows its small array", function()
      for _, spacing in ipairs({ 2, 3, 4 }) do
        for _, size in ipairs({ 16, 28, 36, 44 }) do
          for _, corridor in ipairs({ 3, 11 }) do
            local text, sx, sy, gx, gy = field_with_detour(spacing, size, corridor)
            local g = grid.from_ascii(text)
            local pa, la, ia = path_between(g, sx, sy, gx, gy, { algorithm = "astar" })
            local pj, lj, ij = path_between(g, sx, sy, gx, gy, { algorithm = "jps" })
            assert.is_table(pa)
            assert.is_table(pj)
            local truth = brute.grid_dijkstra(g, nil, sx, sy)[gy * g:width() + gx + 1]
            assert.are.equal(truth, ia.cost_units)
            assert.are.equal(truth, ij.cost_units)
            assert.are.equal(truth, (brute.check_path(g, nil, pj)))
            assert.are.equal(la, lj)
            g:close()
          end
        end
      end
    end)

    it("agree on larger maps with long paths", function()
      math.randomseed(99)
      for _, density in ipairs({ 0.1, 0.3 }) do
        local g = grid.from_ascii(brute.random_ascii(200, 150, density))
        for _ = 1, 40 do
          local sx, sy = math.random(0, 199), math.random(0, 149)
          local gx, gy = math.random(0, 199), math.random(0, 149)
          local pa, _, ia = path_between(g, sx, sy, gx, gy, { algorithm = "astar" })
          local pj, _, ij = path_between(g, sx, sy, gx, gy, { algorithm = "jps" })
          assert.are.equal(pa == nil, pj == nil)
          if pa then
            assert.are.equal(ia.cost_units, ij.cost_units)
          end
        end
      end
    end)
  end)
end)

describe("grid:line_of_sight", function()
  it("is true across open ground and false through a blocked navcell", function()
    local g = grid.from_ascii(ascii({
      ".....",
      ".....",
      "..@..",
      ".....",
    }))
    assert.is_true(g:line_of_sight(0, 0, 4, 0))
    assert.is_true(g:line_of_sight(0, 0, 4, 1))  -- stays in rows 0 and 1
    assert.is_false(g:line_of_sight(0, 0, 4, 3)) -- enters (2, 2) past x = 2.5
    assert.is_false(g:line_of_sight(0, 2, 4, 2))
    assert.is_true(g:line_of_sight(4, 0, 4, 3))
    assert.is_false(g:line_of_sight(2, 2, 2, 2)) -- a blocked end
    assert.is_true(g:line_of_sight(3, 3, 3, 3))
  end)

  it("refuses to cut a blocked corner exactly", function()
    local g = grid.from_ascii(".@\n..\n")
    assert.is_false(g:line_of_sight(0, 0, 1, 1))
    assert.is_true(g:line_of_sight(0, 1, 1, 1))
    g = grid.from_ascii("...\n...\n...\n")
    assert.is_true(g:line_of_sight(0, 0, 2, 2))
    g:set_passable(1, 0, false)
    assert.is_false(g:line_of_sight(0, 0, 2, 2))
  end)

  it("takes a class", function()
    local g = grid.new(7, 7, { classes = { { name = "a" }, { name = "b", clearance = 1 } } })
    g:set_passable(3, 1, false)
    assert.is_true(g:line_of_sight(1, 3, 5, 3, "a"))
    assert.is_true(g:line_of_sight(1, 3, 5, 3))
    assert.is_false(g:line_of_sight(1, 2, 5, 2, "b"))
    assert.is_true(g:line_of_sight(1, 3, 5, 3, "b"))
  end)
end)
