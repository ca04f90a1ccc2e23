-- Smoothing by perturbation: points slide along their shared edges, the
-- route never gets longer and never leaves the free rectangles.
local compat = require("wayfinder.compat")
local rectplan = require("wayfinder.rectplan")
local H = require("rectplan_helper")

-- cost of a chain of {x, y} with one factor (/256) per leg, as the core
-- counts it: floor length per leg times the factor
local function chain_cost(pts, factors)
  local t = 0
  for i = 2, #pts do
    local a, b = pts[i - 1], pts[i]
    local len = H.len_floor(H.fix(a[1]), H.fix(a[2]), H.fix(b[1]), H.fix(b[2]))
    t = t + len * (factors and factors[i - 1] or 256)
  end
  return t
end

local function leg_factors(state, path_nodes)
  local f = {}
  for i, k in ipairs(path_nodes) do
    f[i] = 256 + compat.tointeger((state.nodes[k].penalty or 0) * 256)
  end
  return f
end

describe("smoothing", function()
  it("slides a point along its edge to the corner the route bends around", function()
    local room = H.box_room(8, 6, { objects = {
      { id = "wall", x0 = 5, y0 = 1, x1 = 6, y1 = 5.5, room = 1 } } })
    -- with one point per edge, A* puts the point of the lower edge (y = 5.5,
    -- x in [6, 9]) at the end nearest the straight start-goal line, x = 8.5
    local pts, info = rectplan.plan(room, { start = { 1.5, 1.5 }, goal = { 8.5, 4 },
      tuning = { edge_points = 1 } })
    assert.same({ { 1.5, 1.5 }, { 5, 5.5 }, { 8.5, 5.5 }, { 8.5, 4 } }, info.astar)
    assert.same({ { 1.5, 1.5 }, { 5, 5.5 }, { 6, 5.5 }, { 8.5, 4 } }, pts)
    assert.near(math.sqrt(3.5 ^ 2 + 4 ^ 2) + 1 + math.sqrt(2.5 ^ 2 + 1.5 ^ 2), info.length, 1e-4)
    assert.is_true(info.chain_length > info.length)
    assert.equal(info.length / info.chain_length, info.ratio)
    -- with the ends of each edge as points too, A* finds the corner itself
    local pts3, info3 = rectplan.plan(room, { start = { 1.5, 1.5 }, goal = { 8.5, 4 } })
    assert.same(pts, pts3)
    assert.same(pts, info3.astar)
  end)

  it("records one stage per step size, halving from step to min_step", function()
    local room = H.box_room(8, 6, { objects = {
      { id = "wall", x0 = 5, y0 = 1, x1 = 6, y1 = 5.5, room = 1 } } })
    local p = rectplan.planner(room, { start = { 1.5, 1.5 }, goal = { 8.5, 4 },
      tuning = { step = 2, min_step = 0.25, edge_points = 1 } })
    p:run()
    local s = p:state()
    local steps = {}
    for i, st in ipairs(s.stages) do steps[i] = st.step end
    assert.same({ 2, 1, 0.5, 0.25 }, steps)
    assert.same({ 6, 5.5 }, s.stages[1].points[3])   -- 8.5 - 2 - 2 = 4.5, clamped at 6
  end)

  it("slides the end along the near square's side", function()
    local room = H.box_room(10, 6, { objects = {
      { id = "bar", x0 = 5.5, y0 = 1, x1 = 6.5, y1 = 4.5, room = 1 } } })
    local pts, info = rectplan.plan(room,
      { start = { 1.5, 2 }, goal = { 8, 2 }, mode = "near", near = 2 })
    local last = pts[#pts]
    assert.equal(2, math.max(math.abs(last[1] - 8), math.abs(last[2] - 2)))
    assert.is_true(info.length <= info.chain_length)
  end)

  it("never lengthens a route nor leaves the free rectangles (random rooms)", function()
    local checked, improved, escaped, moved = 0, 0, 0, 0
    for seed = 1, 200 do   -- enough random rooms to meet an escape
      local room, point = H.random_room(3000 + seed, 6 + seed % 12, 4 + seed % 22)
      local w = (seed % 3) * 0.25
      local q = { start = point(w), goal = point(w), width = w }
      if seed % 4 == 0 then q.mode, q.near = "near", 0.5 + seed % 3 * 0.5 end
      if seed % 5 == 0 then
        q.terrain = { { x0 = 1, y0 = 3, x1 = 5, y1 = 6, penalty = 1.5 } }
      end
      q.tuning = { edge_points = seed % 2 == 0 and 1 or 3 }
      if seed % 7 == 0 then
        q.tuning = { max_node_size = 2, step = 1, min_step = 1 / 256, edge_points = 1 }
      end
      local p = rectplan.planner(room, q)
      local pts, info = p:run()
      if pts then
        checked = checked + 1
        local s = p:state()
        local _, inflated = p:obstacles()
        local walls = H.blockers(inflated)
        local chain, astar = info.chain, info.astar
        local factors = leg_factors(s, info.path_nodes)
        -- never costlier: each stage, and the end, against the A* chain
        local prev = chain_cost(astar, factors)
        for _, st in ipairs(s.stages) do
          local c = chain_cost(st.points, factors)
          assert(c <= prev, "a stage made the route costlier (seed " .. seed .. ")")
          prev = c
        end
        assert.same(s.stages[#s.stages].points, chain)
        if chain_cost(chain, factors) < chain_cost(astar, factors) then improved = improved + 1 end
        if not q.terrain then
          assert(H.poly_len(chain) <= H.poly_len(astar), "longer after smoothing")
        end
        -- never invalid: ends fixed, each point on its shared edge, each leg
        -- inside the node it crosses, no leg through an obstacle. A start
        -- inside an obstacle escapes first (the chain begins where the
        -- search did); a blocked point goal moves (the chain ends there).
        assert.same(q.start, pts[1])
        if info.escaped then
          escaped = escaped + 1
          pts = { compat.unpack(pts, 2) }
        else
          assert.same(q.start, chain[1])
        end
        assert.same(pts[1], chain[1])
        if q.mode ~= "near" then
          assert.same(info.goal, chain[#chain])
          if info.goal_moved then moved = moved + 1 else assert.same(q.goal, info.goal) end
        end
        local nodes = {}
        for i, n in ipairs(s.nodes) do nodes[i] = H.fix_rect(n) end
        for i = 2, #chain - 1 do
          local seg = H.contact(nodes[info.path_nodes[i - 1]], nodes[info.path_nodes[i]])
          assert(seg and H.holds(seg, H.fix(chain[i][1]), H.fix(chain[i][2])),
            "point " .. i .. " left its edge (seed " .. seed .. ")")
        end
        for i, k in ipairs(info.path_nodes) do
          for _, pt in ipairs({ chain[i], chain[i + 1] }) do
            assert(H.holds(nodes[k], H.fix(pt[1]), H.fix(pt[2])), "leg leaves its node")
          end
        end
        assert.is_nil(H.crossing(walls, chain))
        assert.is_nil(H.crossing(walls, pts))
        -- the points are the chain without repeats and straight-on points
        local j = 1
        for i, c in ipairs(chain) do
          if j <= #pts and pts[j][1] == c[1] and pts[j][2] == c[2] then
            j = j + 1
          else
            local a, b = pts[j - 1], pts[j]
            if not b then
              -- past the last point only repeats of it remain (a route of
              -- length 0: a near start already in the square)
              assert(c[1] == a[1] and c[2] == a[2], "point " .. i .. " of the chain was dropped")
            else
              local cross = (H.fix(c[1]) - H.fix(a[1])) * (H.fix(b[2]) - H.fix(a[2]))
                - (H.fix(c[2]) - H.fix(a[2])) * (H.fix(b[1]) - H.fix(a[1]))
              assert(cross == 0, "point " .. i .. " of the chain was dropped off the line")
            end
          end
        end
        assert.equal(#pts + 1, j)
      end
    end
    assert.is_true(checked >= 60)
    assert.is_true(improved >= 5)
    assert.is_true(escaped >= 1)
    assert.equal(0, moved)      -- the point generator keeps clear of objects
  end)
end)
