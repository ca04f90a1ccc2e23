-- The portal solver against a brute-force Dijkstra over the same cost
-- model on random hand-built graphs (surfaces, danger, one-way portals,
-- links with classes and abilities, teleports, waypaths), weighted A*
-- within its ratio, the sliced solver equal to the one-shot one, and
-- grid-built graphs against the grid's optimum within the documented bound.
local wayfinder = require("wayfinder")
local graph = wayfinder.graph
local brute = require("support.graph_brute")
-- draws the same numbers on every Lua version (support.prng): reseed(n)
-- starts over, random() is in [0, 1), random(n) in [1, n], random(a, b)
-- in [a, b]
local prng = require("support.prng")
local gen = prng.new(1)
local function reseed(n) gen = prng.new(n) end
local function random(a, b)
  if a == nil then return gen.float() end
  return gen.int(a, b)
end

local MULTS = {
  walker = { grass = 1, road = 2, mud = 5 },
  car = { road = 1, grass = 3 },
}

local function random_graph(seed)
  reseed(seed)
  local g = graph.new {
    surfaces = { "grass", "road", "mud" },
    classes = { { name = "walker", surfaces = MULTS.walker },
      { name = "car", surfaces = MULTS.car } },
    abilities = { "jump", "climb" },
  }
  local boxes = brute.random_boxes(24, 18, random(6, 24), random)
  local names = { "grass", "road", "mud" }
  for _, b in ipairs(boxes) do
    g:add_sector { x0 = b[1], y0 = b[2], x1 = b[3], y1 = b[4], surface = names[random(3)],
      danger = random() < 0.2 and random(0, 8) / 4 or 0 }
  end
  local n = g:sector_count()
  for i = 1, n do
    for j = i + 1, n do
      local a, b = g:sector(i), g:sector(j)
      local x0, x1 = math.max(a.x0, b.x0), math.min(a.x1, b.x1)
      local y0, y1 = math.max(a.y0, b.y0), math.min(a.y1, b.y1)
      local touch = (x0 == x1 and y0 < y1) or (y0 == y1 and x0 < x1)
      if touch and random() < 0.85 then
        local from, to = i, j
        if random(2) == 1 then from, to = j, i end
        g:add_portal { a = from, b = to, one_way = random() < 0.2,
          cost = random() < 0.3 and random(0, 12) / 4 or 0,
          classes = random() < 0.15 and { "walker" } or nil }
      end
    end
  end
  local function point()
    return { random(0, 24 * 4 - 1) / 4, random(0, 18 * 4 - 1) / 4 }
  end
  local kinds = { "jump", "ladder", "teleport", "drop", "elevator", "zipline" }
  for _ = 1, random(0, 5) do
    local kind = kinds[random(#kinds)]
    local spec = { from = point(), to = point(), kind = kind }
    if kind == "ladder" then spec.needs = { "climb" } end
    if kind == "elevator" then spec.wait = random(0, 4) end
    if kind == "teleport" then spec.cost = random(0, 3) end
    if kind == "zipline" and random(2) == 1 then spec.classes = { "car" } end
    g:add_link(spec)
  end
  if random() < 0.4 then
    g:add_waypath { points = { point(), point(), point() }, one_way = random(2) == 1 }
  end
  return g
end

local ABILITIES = { jump = 1, climb = 2 }

describe("graph solver", function()
  it("finds the least cost Dijkstra finds on random hand-built graphs", function()
    local compared, reached = 0, 0
    for seed = 1, 60 do
      local g = random_graph(seed)
      for _ = 1, 8 do
        local sx, sy = random(0, 95) / 4, random(0, 71) / 4
        local gx, gy = random(0, 95) / 4, random(0, 71) / 4
        local class = random(2) == 1 and "walker" or "car"
        local abil = ({ {}, { "jump" }, { "climb" }, { "jump", "climb" } })[random(4)]
        local mask = 0
        for _, a in ipairs(abil) do mask = mask + ABILITIES[a] end
        local want, why = brute.solve(g, sx, sy, gx, gy, MULTS[class],
          class == "walker" and 1 or 2, mask)
        local r, reason = g:find_path(sx, sy, gx, gy, { class = class, abilities = abil })
        compared = compared + 1
        if want then
          assert.is_table(r, ("seed %d: expected cost %d, got %s"):format(seed, want,
            tostring(reason)))
          assert.are.equal(want, r.cost_units)
          reached = reached + 1
          -- the path runs from the start to the goal
          assert.are.same({ sx, sy }, r.points[1])
          assert.are.same({ gx, gy }, r.points[#r.points])
          assert.are.equal(#r.corridor + 1, #r.sectors)
        else
          assert.is_nil(r)
          assert.are.equal(why, reason)
        end
      end
    end
    assert.is_true(reached > compared / 4, "too few reachable queries to mean anything")
    assert.is_true(reached < compared, "no unreachable query was tried")
  end)

  it("keeps weighted A* within its ratio of the optimum", function()
    local worse = 0
    for seed = 100, 140 do
      local g = random_graph(seed)
      for _ = 1, 6 do
        local sx, sy = random(0, 95) / 4, random(0, 71) / 4
        local gx, gy = random(0, 95) / 4, random(0, 71) / 4
        local best = g:find_path(sx, sy, gx, gy)
        for _, w in ipairs({ 1.5, 2, 4 }) do
          local r = g:find_path(sx, sy, gx, gy, { weight = w })
          assert.are.equal(best == nil, r == nil)
          if best then
            assert.is_true(r.cost_units * 100 <= best.cost_units * math.floor(w * 100 + 0.5))
            assert.is_true(r.cost_units >= best.cost_units)
            assert.are.same(r, g:find_path(sx, sy, gx, gy, { weight = w }))
            if r.cost_units > best.cost_units then worse = worse + 1 end
          end
        end
      end
    end
    -- the weight did change some searches, so the bound was tested
    assert.is_true(worse > 0)
  end)

  it("gives the same result sliced as in one call, whatever the budget", function()
    for seed = 200, 215 do
      local g = random_graph(seed)
      local sx, sy = random(0, 95) / 4, random(0, 71) / 4
      local gx, gy = random(0, 95) / 4, random(0, 71) / 4
      local whole, reason = g:find_path(sx, sy, gx, gy)
      for _, budget in ipairs({ 1, 3, 50 }) do
        local solver, early = g:begin_path(sx, sy, gx, gy)
        if not solver then
          assert.are.equal(reason, early)
        else
          local steps, done = 0, false
          while not done do
            done = solver:step(budget)
            steps = steps + 1
          end
          local r, why = solver:finish()
          if whole then
            assert.are.same(whole.points, r.points)
            assert.are.equal(whole.cost_units, r.cost_units)
            assert.are.equal(whole.expanded, r.expanded)
            assert.is_true(steps >= math.ceil(r.expanded / budget))
          else
            assert.is_nil(r)
            assert.are.equal(reason, why)
          end
        end
      end
    end
  end)

  it("reports a graph changed under a running solver", function()
    local g = random_graph(3)
    local solver = assert(g:begin_path(0.5, 0.5, 20.5, 15.5))
    g:add_sector { x0 = 100, y0 = 100, x1 = 101, y1 = 101 }
    assert.is_true(solver:step(10))
    local r, why = solver:finish()
    assert.is_nil(r)
    assert.are.equal("graph_changed", why)
  end)

  it("keeps every path segment inside the corridor's sectors", function()
    for seed = 300, 330 do
      local g = random_graph(seed)
      for _ = 1, 5 do
        local sx, sy = random(0, 95) / 4, random(0, 71) / 4
        local gx, gy = random(0, 95) / 4, random(0, 71) / 4
        local r = g:find_path(sx, sy, gx, gy, { class = "walker", abilities = {} })
        if r then
          -- points between links: each run's segments stay in the run's sectors
          local boxes = {}
          for _, s in ipairs(r.sectors) do boxes[#boxes + 1] = g:sector(s) end
          local only_walk = true
          for _, c in ipairs(r.corridor) do
            if c.kind ~= "walk" then only_walk = false end
          end
          if only_walk then
            for i = 2, #r.points do
              local a, b = r.points[i - 1], r.points[i]
              assert.is_true(brute.segment_inside(boxes, a[1], a[2], b[1], b[2]),
                ("seed %d: segment %d leaves the corridor"):format(seed, i))
            end
          end
        end
      end
    end
  end)
end)

describe("graph built from a grid", function()
  -- The documented bound: with the default max_span 8 the string-pulled
  -- path is at most 1.25 times the grid's optimal 8-connected length.
  local BOUND = 1.25

  local function compare(grid, n, seed, decomposition)
    reseed(seed)
    local g = graph.from_grid(grid, { decomposition = decomposition })
    local w, h = grid:width(), grid:height()
    local worst, found = 0, 0
    for _ = 1, n do
      local sx, sy, gx, gy
      repeat sx, sy = random(0, w - 1), random(0, h - 1) until grid:is_passable(sx, sy)
      repeat gx, gy = random(0, w - 1), random(0, h - 1) until grid:is_passable(gx, gy)
      local p, len = grid:find_path(sx + .5, sy + .5, gx + .5, gy + .5,
        { rewrite_goal = false, escape = false })
      local r = g:find_path(sx + .5, sy + .5, gx + .5, gy + .5)
      assert.are.equal(p == nil, r == nil)
      if p and len > 0 then
        found = found + 1
        worst = math.max(worst, r.length / len)
        local boxes = {}
        for _, s in ipairs(r.sectors) do boxes[#boxes + 1] = g:sector(s) end
        for i = 2, #r.points do
          local a, b = r.points[i - 1], r.points[i]
          assert.is_true(brute.segment_inside(boxes, a[1], a[2], b[1], b[2]))
        end
      end
    end
    assert.is_true(found > 0)
    return worst
  end

  it("stays within the bound of the grid's optimum on random maps", function()
    for seed = 1, 6 do
      reseed(seed)
      local rows = {}
      for y = 1, 28 do
        local r = {}
        for x = 1, 28 do r[x] = random() < 0.3 and "@" or "." end
        rows[y] = table.concat(r)
      end
      local grid = wayfinder.grid.from_ascii(table.concat(rows, "\n"))
      for _, d in ipairs({ "boxes", "quadtree" }) do
        local worst = compare(grid, 60, seed, d)
        assert.is_true(worst <= BOUND, ("seed %d, %s: ratio %.4f"):format(seed, d, worst))
      end
    end
  end)

  it("stays within the bound on the maps in spec/data/maps", function()
    for _, name in ipairs({ "arena", "den011d" }) do
      local grid = assert(wayfinder.grid.load_movingai("spec/data/maps/" .. name .. ".map"))
      for _, d in ipairs({ "boxes", "quadtree" }) do
        local worst = compare(grid, 60, 7, d)
        assert.is_true(worst <= BOUND, ("%s, %s: ratio %.4f"):format(name, d, worst))
      end
    end
  end)
end)

describe("graph queue", function()
  it("serves requests in order under a budget, with the answers of find_path", function()
    local graphs = { random_graph(400), random_graph(401) }
    local q = graph.new_queue()
    local asked = {}
    reseed(402)
    for k = 1, 12 do
      local g = graphs[k % 2 + 1]
      local sx, sy = random(0, 95) / 4, random(0, 71) / 4
      local gx, gy = random(0, 95) / 4, random(0, 71) / 4
      asked[#asked + 1] = { h = q:submit(g, sx, sy, gx, gy),
        want = { g:find_path(sx, sy, gx, gy) } }
    end
    local calls, total = 0, 0
    while q:pending() > 0 do
      local used = q:run(7)
      assert.is_true(used <= 7)
      total = total + used
      calls = calls + 1
    end
    local expanded = 0
    for _, a in ipairs(asked) do
      assert.are.equal("done", q:state(a.h))
      local got = { q:result(a.h) }
      assert.are.same(a.want[1], got[1])
      assert.are.equal(a.want[2], got[2])
      if got[1] then expanded = expanded + got[1].expanded end
    end
    assert.is_true(expanded <= total)
    assert.is_true(calls > 1)
    assert.has_error(function() q:result(asked[1].h) end,
      "graph_queue:result: handle must be a live request of this queue, got " .. asked[1].h)
  end)

  it("cancels and refuses bad arguments", function()
    local g = random_graph(403)
    local q = graph.new_queue()
    local h = q:submit(g, 0.5, 0.5, 20.5, 15.5)
    assert.are.equal("pending", q:state(h))
    assert.has_error(function() q:result(h) end,
      "graph_queue:result: request " .. h .. " is still pending")
    q:cancel(h)
    assert.are.equal(0, q:pending())
    assert.has_error(function() q:run(-1) end,
      "graph_queue:run: budget must be an integer in [0, 2^53], got -1")
    assert.has_error(function() q:submit(42, 0, 0, 1, 1) end,
      "graph_queue:submit: graph must be a wayfinder graph, got 42")
  end)
end)
