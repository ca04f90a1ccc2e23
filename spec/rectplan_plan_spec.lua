-- The rectangle planner: node growth, A* over the cover it builds,
-- destination modes, penalties, outcomes and the step-by-step interface.
local compat = require("wayfinder.compat")
local rectplan = require("wayfinder.rectplan")
local builds = require("support.builds")
local H = require("rectplan_helper")

local function rects(list)
  local out = {}
  for i, n in ipairs(list) do out[i] = { n[1], n[2], n[3], n[4] } end
  return out
end

-- the room of the examples: 8 x 6 tiles and a 3 x 3 table, person 0.5 wide
local function table_room()
  return H.box_room(8, 6, { objects = {
    { id = "table", x0 = 3, y0 = 2, x1 = 6, y1 = 5, room = 1 } } })
end
local TABLE_Q = { start = { 1.5, 3.5 }, goal = { 8.5, 3.5 }, width = 0.5 }

describe("wayfinder.rectplan.planner", function()
  describe("node growth", function()
    it("grows the start node right, left, up, then down as far as obstacles allow", function()
      local p = rectplan.planner(table_room(), TABLE_Q)
      local s = p:state()
      assert.same({ { 1.25, 1.25, 2.75, 6.75 } }, rects(s.nodes))
      assert.equal(0, s.nodes[1].created)
      assert.is_nil(s.nodes[1].expanded)
      assert.same({ 1 }, s.open)
      assert.equal("running", s.status)
      assert.equal(0, s.step)
      assert.is_nil(s.current)
    end)

    it("expanding a node grows seeds along each uncovered stretch of its sides", function()
      local p = rectplan.planner(table_room(), TABLE_Q)
      assert.equal("running", p:advance())
      local s = p:state()
      assert.same({
        { 1.25, 1.25, 2.75, 6.75 },       -- start node
        { 2.75, 1.25, 8.75, 1.75 },       -- right side, above the table
        { 2.75, 5.25, 8.75, 6.75 },       -- right side, below it
      }, rects(s.nodes))
      assert.same({ 0, 1, 1 }, { s.nodes[1].created, s.nodes[2].created, s.nodes[3].created })
      assert.equal(1, s.nodes[1].expanded)
      -- per shared edge: the point nearest the straight start-goal line,
      -- then the ends of the edge that differ from it
      local function v(i)
        local x = s.vertices[i]
        return { x[1], x[2], x.kind, x.nodes[1], x.nodes[2] }
      end
      assert.same({ 2.75, 1.75, "edge", 1, 2 }, v(3))
      assert.same({ 2.75, 1.25, "end", 1, 2 }, v(4))
      assert.same({ 2.75, 5.25, "edge", 1, 3 }, v(5))
      assert.same({ 2.75, 6.75, "end", 1, 3 }, v(6))
      assert.equal(6, #s.vertices)
      assert.same({ 3, 5, 4, 6 }, s.open)        -- equal f and h: lower index first
      assert.equal(1, s.current)
      assert.same({ { 1.5, 3.5 } }, s.best)
    end)

    it("keeps every node within the maximum node size", function()
      local q = { start = { 1.5, 3.5 }, goal = { 8.5, 3.5 }, width = 0.5,
        tuning = { max_node_size = 2 } }
      local p = rectplan.planner(table_room(), q)
      assert.same({ { 1.25, 1.5, 2.75, 3.5 } }, rects(p:state().nodes))
      p:run()
      for _, n in ipairs(p:state().nodes) do
        assert.is_true(n[3] - n[1] <= 2 and n[4] - n[2] <= 2)
      end
    end)

    it("cuts seeds to the seed length", function()
      local room = H.box_room(8, 6)
      local q = { start = { 1.5, 3.5 }, goal = { 8.5, 3.5 },
        tuning = { max_node_size = 2, seed = 0.5 } }
      local p = rectplan.planner(room, q)
      p:advance()
      local s = p:state()
      -- the start seed uses the whole size going right, then down; the top
      -- side is cut into seeds of 0.5: the first grows up to the wall, then
      -- left and right (2 at most), the second fills what is left above
      local r = rects(s.nodes)
      assert.same({ 1.5, 1.5, 3.5, 3.5 }, r[1])
      assert.same({ 1, 1, 3, 1.5 }, r[2])
      assert.same({ 3, 1, 5, 1.5 }, r[3])
    end)

    local function check_cover(room, q, seed)
      local p = rectplan.planner(room, q)
      p:run()
      local s = p:state()
      local _, inflated, _, b = p:obstacles()
      local walls = H.blockers(inflated)
      local bounds = H.fix_rect(b)
      local nodes = {}
      for i, n in ipairs(s.nodes) do nodes[i] = H.fix_rect(n) end
      local size = q.tuning and q.tuning.max_node_size
      for i, n in ipairs(nodes) do
        local what = ("seed %d node %d"):format(seed, i)
        assert(n[1] < n[3] and n[2] < n[4], what .. " has no area")
        assert(n[1] >= bounds[1] and n[2] >= bounds[2] and n[3] <= bounds[3]
          and n[4] <= bounds[4], what .. " leaves the planning box")
        if size then
          assert(n[3] - n[1] <= H.fix(size) and n[4] - n[2] <= H.fix(size), what .. " too big")
        end
        for _, w in ipairs(walls) do
          assert(not (n[1] < w[3] and w[1] < n[3] and n[2] < w[4] and w[2] < n[4]),
            what .. " overlaps an obstacle")
        end
        for j = i + 1, #nodes do
          local m = nodes[j]
          assert(not (n[1] < m[3] and m[1] < n[3] and n[2] < m[4] and m[2] < n[4]),
            what .. " overlaps node " .. j)
        end
      end
      -- every expanded node is closed in: each side's band is covered by
      -- obstacles, nodes or the planning box
      for i, n in ipairs(nodes) do
        if s.nodes[i].expanded then
          for axis = 0, 1 do
            for sign = -1, 1, 2 do
              local lo, hi = axis == 0 and 1 or 2, axis == 0 and 3 or 4
              local plo, phi = axis == 0 and 2 or 1, axis == 0 and 4 or 3
              local c = sign > 0 and n[hi] or n[lo]
              if (sign > 0 and c < bounds[hi]) or (sign < 0 and c > bounds[lo]) then
                local spans = {}
                for _, w in ipairs(walls) do
                  local band = sign > 0 and (w[lo] <= c and c < w[hi])
                    or (w[lo] < c and c <= w[hi])
                  if band and w[plo] < n[phi] and w[phi] > n[plo] then
                    spans[#spans + 1] = { w[plo], w[phi] }
                  end
                end
                for j, m in ipairs(nodes) do
                  if j ~= i and (sign > 0 and m[lo] or m[hi]) == c
                    and m[plo] < n[phi] and m[phi] > n[plo] then
                    spans[#spans + 1] = { m[plo], m[phi] }
                  end
                end
                table.sort(spans, function(a, x) return a[1] < x[1] end)
                local cur = n[plo]
                for _, sp in ipairs(spans) do
                  assert(sp[1] <= cur, ("seed %d node %d side %d/%d has a gap"):format(
                    seed, i, axis, sign))
                  if sp[2] > cur then cur = sp[2] end
                end
                assert(cur >= n[phi], ("seed %d node %d side open at the end"):format(seed, i))
              end
            end
          end
        end
      end
      -- one point per pair of touching nodes, on their shared edge
      local pairs_seen = {}
      for v, vert in ipairs(s.vertices) do
        if vert.kind == "edge" then
          local a, c = vert.nodes[1], vert.nodes[2]
          local seg = H.contact(nodes[a], nodes[c])
          assert(seg, ("seed %d point %d: nodes %d and %d do not touch"):format(seed, v, a, c))
          assert(H.holds(seg, H.fix(vert[1]), H.fix(vert[2])), "point off its edge")
          pairs_seen[a .. ":" .. c] = true
        end
      end
      for i = 1, #nodes do
        for j = i + 1, #nodes do
          if H.contact(nodes[i], nodes[j]) then
            assert(pairs_seen[i .. ":" .. j], ("seed %d: nodes %d and %d touch but share no point")
              :format(seed, i, j))
          end
        end
      end
      return p, s
    end

    it("builds a cover of disjoint free rectangles, closed around expanded nodes (random rooms)",
      function()
        for seed = 1, 40 do
          local room, point = H.random_room(seed, 6 + seed % 9, 4 + seed % 17)
          local q = { start = point(0.5), goal = point(0.5), width = 0.5 }
          if seed % 3 == 0 then q.tuning = { max_node_size = 1 + seed % 4 } end
          if seed % 5 == 0 then q.tuning = { seed = 0.75 } end
          if seed % 7 == 0 then q.tuning = { edge_points = 1 } end
          check_cover(room, q, seed)
        end
      end)

    it("is optimal over the cover it built (Dijkstra on the same graph, random rooms)", function()
      local done = 0
      for seed = 1, 60 do
        local room, point = H.random_room(1000 + seed, 5 + seed % 10, 3 + seed % 20)
        local w = seed % 4 * 0.25
        local q = { start = point(w), goal = point(w), width = w }
        if seed % 4 == 1 then
          q.terrain = { { x0 = 2, y0 = 1, x1 = 4, y1 = 9, penalty = seed % 3 } }
        end
        if seed % 3 == 0 then q.tuning = { edge_points = 1 } end
        local p, s = check_cover(room, q, seed)
        local pts = p:result()
        if pts then
          done = done + 1
          local best = H.cover_cost(s, H.fix(q.goal[1]), H.fix(q.goal[2]))
          assert.equal(best, s.vertices[2].g_units)
        elseif s.reason == "no_path" then
          assert.is_nil(H.cover_cost(s, H.fix(q.goal[1]), H.fix(q.goal[2])))
        end
      end
      assert.is_true(done >= 30)
    end)

    it("places each edge's points by the documented rule (nearest the line, ends)", function()
      for seed = 1, 20 do
        local room, point = H.random_room(500 + seed, 10, 12)
        local q = { start = point(), goal = point() }
        local p = rectplan.planner(room, q)
        p:run()
        local s = p:state()
        local sx, sy = H.fix(q.start[1]), H.fix(q.start[2])
        local gx, gy = H.fix(q.goal[1]), H.fix(q.goal[2])
        local seen = {}
        for _, v in ipairs(s.vertices) do
          if v.kind == "end" then
            local seg = H.contact(H.fix_rect(s.nodes[v.nodes[1]]), H.fix_rect(s.nodes[v.nodes[2]]))
            local x, y = H.fix(v[1]), H.fix(v[2])
            assert.is_true((x == seg[1] and y == seg[2]) or (x == seg[3] and y == seg[4]))
            local key = v.nodes[1] .. ":" .. v.nodes[2] .. ":" .. x .. ":" .. y
            assert.is_nil(seen[key])                -- no point twice on one edge
            seen[key] = true
          end
        end
        for _, v in ipairs(s.vertices) do
          if v.kind == "edge" then
            local seg = H.contact(H.fix_rect(s.nodes[v.nodes[1]]), H.fix_rect(s.nodes[v.nodes[2]]))
            local key = v.nodes[1] .. ":" .. v.nodes[2] .. ":" .. H.fix(v[1]) .. ":" .. H.fix(v[2])
            assert.is_nil(seen[key])
            local vertical = seg[1] == seg[3]
            local c = vertical and seg[1] or seg[2]
            local s0, g0 = vertical and sx or sy, vertical and gx or gy
            local t0, t1 = vertical and sy or sx, vertical and gy or gx
            local ref
            if s0 == g0 then
              ref = compat.idiv(t0 + t1, 2)
            elseif (c >= s0 and c <= g0) or (c >= g0 and c <= s0) then
              local num, den = (t1 - t0) * (c - s0), g0 - s0
              local quo = compat.idiv(num, den)
              if num % den ~= 0 and (num < 0) ~= (den < 0) then quo = quo + 1 end
              ref = t0 + quo                               -- C division truncates
            elseif (c < s0) == (s0 < g0) then
              ref = t0
            else
              ref = t1
            end
            local lo, hi = vertical and seg[2] or seg[1], vertical and seg[4] or seg[3]
            ref = math.max(lo, math.min(hi, ref))
            local want = vertical and { c, ref } or { ref, c }
            assert.same(want, { H.fix(v[1]), H.fix(v[2]) })
          end
        end
      end
    end)
  end)

  describe("routes", function()
    it("goes around the table on the first of two equal sides", function()
      local pts, info = rectplan.plan(table_room(), TABLE_Q)
      assert.same({ { 1.5, 3.5 }, { 2.75, 1.75 }, { 6.25, 1.75 }, { 8.5, 3.5 } }, pts)
      assert.equal(4, info.nodes)
      assert.equal(6, info.expanded)
      local want = H.len_floor(H.fix(1.5), H.fix(3.5), H.fix(2.75), H.fix(1.75))
        + H.fix(3.5) + H.len_floor(H.fix(6.25), H.fix(1.75), H.fix(8.5), H.fix(3.5))
      assert.equal(want, info.length_units)
      assert.equal(want / 65536, info.length)
      assert.same({ 1, 2, 4 }, info.path_nodes)
    end)

    it("goes straight when nothing is in the way, in one node", function()
      local pts, info = rectplan.plan(H.box_room(8, 6),
        { start = { 1.5, 1.5 }, goal = { 7.25, 6.5 } })
      assert.same({ { 1.5, 1.5 }, { 7.25, 6.5 } }, pts)
      assert.equal(1, info.nodes)
      assert.equal(2, info.expanded)
    end)

    it("returns the start alone when start and goal coincide", function()
      local pts, info = rectplan.plan(table_room(), { start = { 1.5, 3.5 }, goal = { 1.5, 3.5 } })
      assert.same({ { 1.5, 3.5 } }, pts)
      assert.equal(0, info.length)
    end)

    it("ends on the nearest free point of the square around the goal (mode near)", function()
      local pts = rectplan.plan(H.box_room(8, 6),
        { start = { 1.5, 3.5 }, goal = { 6, 3.5 }, mode = "near", near = 1 })
      assert.same({ { 1.5, 3.5 }, { 5, 3.5 }, }, pts)
      -- near = 0 is the point mode
      assert.same({ { 1.5, 3.5 }, { 6, 3.5 } }, (rectplan.plan(H.box_room(8, 6),
        { start = { 1.5, 3.5 }, goal = { 6, 3.5 }, mode = "near", near = 0 })))
      -- already on the square: nowhere to go
      assert.same({ { 5, 3.5 } }, (rectplan.plan(H.box_room(8, 6),
        { start = { 5, 3.5 }, goal = { 6, 3.5 }, mode = "near", near = 1 })))
    end)

    it("routes near the destination object, which is then no obstacle", function()
      local room = H.box_room(8, 6, { objects = {
        { id = "desk", x0 = 5, y0 = 3, x1 = 7, y1 = 4, room = 1 } } })
      local q = { start = { 1.5, 3.5 }, goal = { 6, 3.5 }, mode = "near", near = 1.5,
        dest_object = "desk", width = 0.5 }
      assert.same({ { 1.5, 3.5 }, { 4.5, 3.5 } }, (rectplan.plan(room, q)))
      q.dest_object = nil                 -- the desk's inflated box now holds the left side
      assert.same({ { 1.5, 3.5 }, { 4.5, 3.5 } }, (rectplan.plan(room, q)))
      q.near = 0.5
      local pts, why = rectplan.plan(room, q)
      assert.same({ nil, "goal_blocked" }, { pts, why })
    end)

    it("ends on a free side of the square when a side is blocked", function()
      local room = H.box_room(10, 6, { objects = {
        { id = "bar", x0 = 5.5, y0 = 1, x1 = 6.5, y1 = 5.5, room = 1 } } })
      local pts, info = rectplan.plan(room,
        { start = { 1.5, 3.5 }, goal = { 7, 3.5 }, mode = "near", near = 1 })
      assert.same({ { 1.5, 3.5 }, { 5.5, 5.5 }, { 6.5, 5.5 }, { 6.5, 4.5 } }, pts)
      local last = pts[#pts]
      assert.equal(1, math.max(math.abs(last[1] - 7), math.abs(last[2] - 3.5)))
      assert.near(math.sqrt(20) + 2, info.length, 1e-4)
    end)
  end)

  describe("penalties", function()
    local function strip(y1, penalty)
      return { start = { 1.5, 3 }, goal = { 10.5, 3 },
        terrain = { { x0 = 4, y0 = 1, x1 = 8, y1 = y1, penalty = penalty } } }
    end

    it("crosses a costly area that cannot be avoided and charges its cost", function()
      local pts, info = rectplan.plan(H.box_room(10, 4), strip(5, 0.5))
      assert.same({ { 1.5, 3 }, { 10.5, 3 } }, pts)
      assert.equal(9, info.length)
      assert.equal(2.5 + 4 * 1.5 + 2.5, info.cost)
    end)

    it("goes round a costly area when that is cheaper, through it when not", function()
      local room = H.box_room(10, 4)
      local pts, info = rectplan.plan(room, strip(4, 10))
      assert.equal(info.length, info.cost)         -- never inside the area
      assert.is_nil(H.crossing({ H.fix_rect({ 4, 1, 8, 4 }) }, pts))
      assert.is_true(#pts > 2)
      pts, info = rectplan.plan(room, strip(4, 0.01))
      assert.same({ { 1.5, 3 }, { 10.5, 3 } }, pts)
      assert.is_true(info.cost > info.length)
    end)

    it("keeps nodes inside or outside each penalty area and marks their penalty", function()
      local p = rectplan.planner(H.box_room(10, 4), strip(4, 0.5))
      p:run()
      local inside = 0
      for _, n in ipairs(p:state().nodes) do
        local straddles = n[1] < 8 and n[3] > 4 and n[2] < 4 and n[4] > 1
          and not (n[1] >= 4 and n[3] <= 8 and n[2] >= 1 and n[4] <= 4)
        assert.is_false(straddles)
        if n[1] >= 4 and n[3] <= 8 and n[4] <= 4 then
          inside = inside + 1
          assert.equal(0.5, n.penalty)
        else
          assert.is_nil(n.penalty)
        end
      end
      assert.is_true(inside > 0)
    end)

    it("treats an impassable area as an obstacle", function()
      for _, impassable in ipairs({ "impassable", math.huge }) do
        local pts, why = rectplan.plan(H.box_room(10, 4), strip(5, impassable))
        assert.same({ nil, "no_path" }, { pts, why })
      end
    end)

    it("lets a route jump an object with a finite penalty", function()
      local room = H.box_room(10, 4, { objects = {
        { id = "hedge", x0 = 5, y0 = 1, x1 = 6, y1 = 5, room = 1, penalty = 1 } } })
      local pts, info = rectplan.plan(room, { start = { 1.5, 3 }, goal = { 10.5, 3 }, width = 0.5 })
      assert.same({ { 1.5, 3 }, { 10.5, 3 } }, pts)
      assert.equal(9 + 1.5, info.cost)             -- 1.5 = the inflated hedge, paid twice
    end)
  end)

  describe("outcomes", function()
    local function reason(room, q)
      local pts, why, info = rectplan.plan(room, q)
      assert.is_nil(pts)
      assert.is_table(info)
      return why
    end

    it("reports start_blocked and goal_blocked", function()
      assert.equal("start_blocked", reason(table_room(), { start = { 4, 3 }, goal = { 8, 3 } }))
      assert.equal("goal_blocked", reason(table_room(), { start = { 1.5, 3 }, goal = { 4, 3 } }))
      assert.equal("goal_blocked", reason(table_room(), { start = { 1.5, 3 }, goal = { 50, 3 } }))
      assert.equal("goal_blocked", reason(table_room(),
        { start = { 1.5, 3 }, goal = { 4.5, 3.5 }, mode = "near", near = 0.5 }))
    end)

    it("reports start_blocked for a width that fills the room", function()
      assert.equal("start_blocked", reason(H.box_room(2, 2),
        { start = { 1.5, 1.5 }, goal = { 2.5, 2.5 }, width = 2.5 }))
    end)

    it("reports no_path when the goal is walled off or the person is too wide", function()
      local room = H.box_room(8, 4, { objects = {
        { id = "a", x0 = 4, y0 = 1, x1 = 5, y1 = 2.5, room = 1 },
        { id = "b", x0 = 4, y0 = 3.5, x1 = 5, y1 = 5, room = 1 } } })
      local q = { start = { 2, 3 }, goal = { 7.5, 3 }, width = 0.9 }
      assert.is_table((rectplan.plan(room, q)))
      q.width = 1.1
      assert.equal("no_path", reason(room, q))
    end)

    it("reports out_of_nodes when the node pool is too small", function()
      assert.equal("out_of_nodes", reason(table_room(),
        { start = { 1.5, 3.5 }, goal = { 8.5, 3.5 }, tuning = { max_nodes = 2 } }))
    end)
  end)

  describe("escape", function()
    local function plan(room, q) return rectplan.plan(room, q) end

    it("walks a start out of an obstacle to the nearest free point first", function()
      -- 0.25 inside the table's left side, 1 from the others
      local q = { start = { 3.25, 3.5 }, goal = { 1.5, 3.5 } }
      local pts, info = plan(table_room(), q)
      assert.same({ { 3.25, 3.5 }, { 3, 3.5 }, { 1.5, 3.5 } }, pts)
      assert.is_true(info.escaped)
      assert.equal(1.75, info.length)              -- the escape leg counts
      assert.same({ 3, 3.5 }, info.chain[1])       -- the search began there
    end)

    it("breaks ties between equally near points by lower y, then lower x", function()
      local room = H.box_room(8, 8, { objects = {
        { id = "box", x0 = 3, y0 = 3, x1 = 4, y1 = 4, room = 1 } } })
      local pts, info = plan(room, { start = { 3.5, 3.5 }, goal = { 1.5, 1.5 } })
      assert.is_true(info.escaped)
      assert.same({ 3.5, 3 }, pts[2])             -- the top side's midpoint
    end)

    it("goes no further than tuning.escape, and not at all with 0", function()
      local q = { start = { 3.25, 3.5 }, goal = { 1.5, 3.5 }, tuning = { escape = 0.2 } }
      local pts, why = plan(table_room(), q)
      assert.is_nil(pts)
      assert.equal("start_blocked", why)
      q.tuning.escape = 0
      assert.equal("start_blocked", select(2, plan(table_room(), q)))
      q.tuning.escape = 0.25
      assert.is_table((plan(table_room(), q)))
    end)

    it("moves a point goal out of furniture, never out of a person", function()
      local pts, info = plan(table_room(), { start = { 1.5, 3.5 }, goal = { 5.875, 2.5 } })
      assert.is_true(info.goal_moved)
      assert.same({ 6, 2.5 }, info.goal)
      assert.same({ 6, 2.5 }, pts[#pts])
      local room = H.box_room(8, 6, { objects = {
        { id = "ann", x0 = 5, y0 = 2, x1 = 5.5, y1 = 2.5, room = 1, person = true } } })
      assert.equal("goal_blocked", select(2, plan(room,
        { start = { 1.5, 3.5 }, goal = { 5.125, 2.25 } })))
    end)

    it("starts from a point where two people's squares meet, into the free quarter", function()
      local room = H.box_room(8, 6, { objects = {
        { id = "a", x0 = 3, y0 = 2, x1 = 4, y1 = 3, room = 1, person = true },
        { id = "b", x0 = 3, y0 = 3, x1 = 4, y1 = 4, room = 1, person = true } } })
      local pts, info = plan(room, { start = { 3, 3 }, goal = { 1.5, 3 } })
      assert.same({ { 3, 3 }, { 1.5, 3 } }, pts)
      assert.is_false(info.escaped)
    end)
  end)

  describe("prepared rooms", function()
    local copy = H.copy

    it("plan as the description they were made from (random rooms with people)", function()
      for seed = 1, 30 do
        local room, point = H.random_room(700 + seed, 8 + seed % 9, 6 + seed % 10)
        for i = 1, 3 do
          local x, y = compat.unpack(point(0.5))
          room.objects[#room.objects + 1] = { id = "p" .. i, x0 = x - 0.25, y0 = y - 0.25,
            x1 = x + 0.25, y1 = y + 0.25, room = 1, person = true }
        end
        local plain = copy(room)
        assert.equal(room, rectplan.prepare(room))
        local q = { start = point(0.5), goal = point(0.5), width = 0.5, start_object = "p1",
          ignore_people_within = seed % 3 }
        assert.same({ rectplan.plan(plain, q) }, { rectplan.plan(room, q) })
        assert.same({ rectplan.obstacles(plain, q) }, { rectplan.obstacles(room, q) })
        assert.same(rectplan.planner(plain, q):state(), rectplan.planner(room, q):state())
        -- people move in place: the prepared room reads them again
        for _, o in ipairs(room.objects) do
          if o.person then o.x0, o.x1 = o.x0 + 0.5, o.x1 + 0.5 end
        end
        plain = copy(room)
        assert.same({ rectplan.plan(plain, q) }, { rectplan.plan(room, q) })
      end
    end)

    it("keep string room ids apart from numbers", function()
      local room = H.box_room(6, 4)
      for i, v in ipairs(room.rooms) do room.rooms[i] = v == 1 and "hall" or "out" end
      room.objects = { { id = 1, x0 = 3, y0 = 1, x1 = 4, y1 = 3, room = "hall" },
        { id = 2, x0 = 2, y0 = 3, x1 = 2.5, y1 = 3.5, room = "hall", person = true } }
      local plain = copy(room)
      rectplan.prepare(room)
      local q = { start = { 1.5, 1.5 }, goal = { 5.5, 1.5 }, width = 0.5 }
      assert.same({ rectplan.plan(plain, q) }, { rectplan.plan(room, q) })
      q.room = "hall"
      assert.same({ rectplan.plan(plain, q) }, { rectplan.plan(room, q) })
    end)

    it("keep what they read of everything but people until prepared again", function()
      local room = table_room()
      rectplan.prepare(room)
      local before = { rectplan.plan(room, TABLE_Q) }
      room.objects[1].y0 = 1              -- the table now shuts the way over its top
      assert.same(before, { rectplan.plan(room, TABLE_Q) })
      rectplan.prepare(room)
      local after = { rectplan.plan(room, TABLE_Q) }
      assert.not_same(before, after)
      assert.is_true(after[1][2][2] > 5)  -- round the bottom now
      assert.same({ rectplan.plan(copy(room), TABLE_Q) }, after)
    end)
  end)

  describe("step by step", function()
    it("advances one point at a time and then stays done", function()
      local p = rectplan.planner(table_room(), TABLE_Q)
      local n = 0
      while p:advance() == "running" do n = n + 1 end
      local pts, info = p:result()
      assert.equal(n + 1, info.expanded)
      assert.equal("done", p:advance())
      assert.same({ rectplan.plan(table_room(), TABLE_Q) }, { p:result() })
      local s = p:state()
      assert.equal("done", s.status)
      assert.equal(2, s.current)
      assert.same(pts[#pts], s.best[#s.best])
      assert.equal(#s.best, #s.best_vertices)
      assert.is_true(#s.stages >= 1)
      assert.equal(0.5, s.stages[1].step)
    end)

    it("lists open points in pop order", function()
      for seed = 1, 10 do
        local room, point = H.random_room(200 + seed, 12, 15)
        local p = rectplan.planner(room, { start = point(), goal = point() })
        for _ = 1, 4 do p:advance() end
        local s = p:state()
        for i = 2, #s.open do
          local a, b = s.vertices[s.open[i - 1]], s.vertices[s.open[i]]
          local fa, fb = a.g_units + a.h_units, b.g_units + b.h_units
          assert.is_true(fa < fb or (fa == fb and (a.h_units < b.h_units
            or (a.h_units == b.h_units and s.open[i - 1] < s.open[i]))))
        end
      end
    end)

    it("says running while running and gives the reason once failed", function()
      local p = rectplan.planner(table_room(), TABLE_Q)
      local pts, why, info = p:result()
      assert.same({ nil, "running" }, { pts, why })
      assert.equal(1, info.nodes)
      local f = rectplan.planner(table_room(), { start = { 4, 3 }, goal = { 8, 3 } })
      assert.equal("failed", f:state().status)
      assert.equal("start_blocked", f:state().reason)
      assert.equal("failed", f:advance())
      local fp, fwhy = f:result()
      assert.same({ nil, "start_blocked" }, { fp, fwhy })
    end)

    it("run() finishes like plan()", function()
      local p = rectplan.planner(table_room(), TABLE_Q)
      assert.same({ rectplan.plan(table_room(), TABLE_Q) }, { p:run() })
    end)

    it("reports its tuning with the defaults filled in", function()
      local p = rectplan.planner(table_room(), TABLE_Q)
      assert.same({ max_node_size = 0, seed = 0, step = 0.5, min_step = 1 / 1024,
        max_nodes = 64 + 16 * 5, edge_points = 3, escape = 0.5 }, p:tuning())
      local t = p:tuning()
      t.step = 7
      assert.equal(0.5, p:tuning().step)
    end)

    it("closes once and then refuses every method", function()
      local p = rectplan.planner(table_room(), TABLE_Q)
      assert.is_false(p:is_closed())
      assert.equal("wayfinder.RectPlan (running, step 0, 1 nodes)", tostring(p))
      p:close()
      p:close()
      assert.is_true(p:is_closed())
      assert.equal("wayfinder.RectPlan (closed)", tostring(p))
      for _, m in ipairs({ "advance", "run", "result", "state", "obstacles", "tuning",
        "route_text", "save_route" }) do
        assert.has_error(function() p[m](p) end, "planner:" .. m .. ": the planner is closed")
      end
      local q = require("support.closing")(function()
        return rectplan.planner(table_room(), TABLE_Q)
      end, function() end)
      if q then assert.is_true(q:is_closed()) end   -- no <close> before Lua 5.4
    end)

    it("names the method when called without self", function()
      local p = rectplan.planner(table_room(), TABLE_Q)
      assert.has_error(function() p.advance() end,
        "planner:advance: self must be a planner from wayfinder.rectplan.planner, got no value "
        .. "(call it as planner:advance(...))")
      assert.has_error(function() p.close(5) end,
        "planner:close: self must be a planner from wayfinder.rectplan.planner, got 5 "
        .. "(call it as planner:close(...))")
      assert.has_error(function() p.save_route({}, "x") end,
        "planner:save_route: self must be a planner from wayfinder.rectplan.planner, got table "
        .. "(call it as planner:save_route(...))")
      assert.has_error(function() p.tuning("abc") end,
        "planner:tuning: self must be a planner from wayfinder.rectplan.planner, got 'abc' "
        .. "(call it as planner:tuning(...))")
      assert.has_error(function() p.state(0.5) end,
        "planner:state: self must be a planner from wayfinder.rectplan.planner, got 0.5 "
        .. "(call it as planner:state(...))")
      assert.has_error(function() p.run({}) end,
        "planner:run: self must be a planner from wayfinder.rectplan.planner, got a table "
        .. "(call it as planner:run(...))")
    end)

    it("is this module's own type, named wayfinder.RectPlan, holding no fields", function()
      local p = rectplan.planner(table_room(), TABLE_Q)
      assert.equal("wayfinder.RectPlan", getmetatable(p).__name)
      assert.matches("^wayfinder%.RectPlan %(", tostring(p))
      local ok, err = pcall(function() p.step = 3 end)
      assert.is_false(ok)
      assert.matches("planner: cannot set field 'step' %(a planner has methods only%)$", err)
      assert.is_nil(rawget(p, "step"))
      -- the core's own planner type keeps only the core's methods: nothing
      -- written in Lua is added to a metatable of the binding
      local core_mt = debug.getregistry()["wayfinder.RectPlan"]
      assert.is_table(core_mt)
      assert.are_not.equal(core_mt, getmetatable(p))
      local n = 0
      for name, f in pairs(core_mt.__index) do
        assert.equal("C", debug.getinfo(f, "S").what, name)
        n = n + 1
      end
      assert.is_true(n > 0)
      assert.is_nil(core_mt.__index.route_text)
      assert.is_nil(core_mt.__index.save_route)
    end)

    it("raises the core's errors from the caller's line, as a direct call would", function()
      local p = rectplan.planner(table_room(), TABLE_Q)
      p:close()
      local ok, err = pcall(function() p:advance() end)
      assert.is_false(ok)
      assert.matches("^spec/rectplan_plan_spec%.lua:%d+: planner:advance: the planner is closed$",
        err)
      ok, err = pcall(p.run, p)
      assert.is_false(ok)
      assert.equal("planner:run: the planner is closed", err)
    end)
  end)

  describe("determinism", function()
    local function digest(build)
      local cpath = build.cpath
      local script = [[
        package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua;" .. package.path
        package.cpath = "]] .. cpath .. [["   -- this build only
        local rectplan = require("wayfinder.rectplan")
        local H = require("rectplan_helper")
        local exact = require("support.prng").exact   -- %a is 5.2+
        local out = {}
        for seed = 1, 25 do
          local room, point = H.random_room(seed, 8 + seed % 8, 5 + seed % 15)
          local q = { start = point(0.5), goal = point(0.5), width = 0.5,
            mode = seed % 3 == 0 and "near" or "point", near = 0.75 }
          local pts, info = rectplan.plan(room, q)
          out[#out + 1] = pts and #pts .. ":" .. info.length_units or tostring(info)
          for _, p in ipairs(pts or {}) do out[#out + 1] = exact(p[1]) .. "," .. exact(p[2]) end
        end
        io.write(table.concat(out, ";"))
      ]]
      local f = assert(io.popen(builds.lua_for(build) .. " -e '" .. script:gsub("'", "'\\''") .. "'"))
      local text = f:read("*a")
      f:close()
      return text
    end

    it("gives bit-identical routes from the gcc, clang and -O0 builds", function()
      -- raises, naming `make clang-check`, when a build is missing
      local list = builds.all()
      local base = digest(list[1])
      assert.is_true(#base > 100, base)
      assert.equal(base, digest(list[1]))
      for k = 2, #list do
        assert.equal(base, digest(list[k]), list[k].name .. " differs from " .. list[1].name)
      end
    end)
  end)
end)
