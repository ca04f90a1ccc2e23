-- luacheck: max line length 130
-- The exploring agent: its route table grows as it sees nodes and, once it
-- has seen everything it can reach, equals (entry for entry) a table built
-- at once over the whole graph; at every step of the way every route it
-- could read, and the one it walks, runs over seen nodes only; the walk
-- depends only on the graph and the sight table. Also the batch edge
-- change of wayfinder.pathtable it relies on.
local pathtable = require("wayfinder.pathtable")
local explore = require("wayfinder.explore")
local wayfinder = require("wayfinder")
local prng = require("spec.support.prng")

local function random_graph(g, n, m, one_way)
  local edges = {}
  for i = 1, m do
    local a, b = g.int(1, n), g.int(1, n)
    edges[i] = { a, b, g.int(1, 9), one_way = (one_way and g.int(1, 5) == 1) or nil }
  end
  -- a spanning chain in a shuffled order, so the graph is connected
  local order = {}
  for v = 1, n do order[v] = v end
  for v = n, 2, -1 do
    local j = g.int(1, v)
    order[v], order[j] = order[j], order[v]
  end
  for v = 2, n do edges[#edges + 1] = { order[v - 1], order[v], g.int(1, 9) } end
  return edges
end

local function random_sight(g, n, k)
  local sight = {}
  for v = 1, n do
    local list = {}
    for i = 1, g.int(0, k) do list[i] = g.int(1, n) end
    sight[v] = list
  end
  return sight
end

-- Every entry of table t equals table u's.
local function same_tables(t, u, n, rows)
  for a = 1, n do
    if rows == nil or rows[a] then
      for b = 1, n do
        local h1, r1 = t:next_hop(a, b)
        local h2, r2 = u:next_hop(a, b)
        if h1 ~= h2 or r1 ~= r2 then
          return false, string.format("next_hop(%d, %d): %s %s against %s %s", a, b,
            tostring(h1), tostring(r1), tostring(h2), tostring(r2))
        end
        local d1, d2 = t:distance(a, b), u:distance(a, b)
        if d1 ~= d2 then return false, string.format("distance(%d, %d)", a, b) end
      end
    end
  end
  return true
end

-- Every route the agent's table holds runs over seen nodes, and so does
-- the route to its frontier.
local function only_seen(agent)
  local n, t = agent:node_count(), agent:table()
  if not agent:known(agent:position()) then return false, "stands on an unseen node" end
  for a = 1, n do
    for b = 1, n do
      local h = t:next_hop(a, b)
      if h and not (agent:known(a) and agent:known(b) and agent:known(h)) then
        return false, string.format("next_hop(%d, %d) = %d uses an unseen node", a, b, h)
      end
    end
  end
  local target = agent:frontier()
  if target then
    local route = agent:route(target)
    for _, v in ipairs(route) do
      if not agent:known(v) then return false, "the frontier route crosses unseen node " .. v end
    end
  end
  return true
end

local function walk(agent, check)
  local trail = { agent:position() }
  while true do
    if check then
      local ok, why = only_seen(agent)
      assert(ok, why)
    end
    local target = agent:frontier()
    local planned = target and agent:next_hop(target)
    assert(planned == nil or agent:known(planned), "plans a step onto an unseen node")
    local nxt, why = agent:step()
    if not nxt then return trail, why end
    assert.equals(planned, nxt)
    trail[#trail + 1] = nxt
    assert(#trail <= 100000, "the walk does not end")
  end
end

describe("pathtable:set_costs", function()
  it("leaves every table equal to a fresh build, one batch after another", function()
    local g = prng.new(11)
    for _ = 1, 12 do
      local n = g.int(2, 18)
      local edges = random_graph(g, n, g.int(0, 3 * n), true)
      local closed = {}
      for i, e in ipairs(edges) do closed[i] = { e[1], e[2], false, one_way = e.one_way } end
      local t = pathtable.new { nodes = n, edges = closed }
      local current = {}
      for i = 1, #edges do current[i] = false end
      for _ = 1, 6 do
        local changes = {}
        for _ = 1, g.int(1, 6) do
          local id = g.int(1, #edges)
          local c = g.int(1, 4) == 1 and false or g.int(1, 9)
          changes[#changes + 1] = { id, c }
          current[id] = c
        end
        t:set_costs(changes)
        local now = {}
        for i, e in ipairs(edges) do now[i] = { e[1], e[2], current[i], one_way = e.one_way } end
        local fresh = pathtable.new { nodes = n, edges = now }
        local ok, why = same_tables(t, fresh, n)
        assert(ok, why)
      end
    end
  end)

  it("rejects bad changes", function()
    local t = pathtable.new { nodes = 2, edges = { { 1, 2, 1 } } }
    assert.has_error(function() t:set_costs(1) end, "pathtable:set_costs: changes must be a table, got 1")
    assert.has_error(function() t:set_costs({ { 2, 1 } }) end,
      "pathtable:set_costs: changes[1][1] must be an edge in [1, 1], got 2")
    assert.has_error(function() t:set_costs({ { 1, 0 } }) end,
      "pathtable:set_costs: changes[1][2] must be an integer in [1, 2147483647] or false, got 0")
    assert.equals(0, t:set_costs({ { 1, 1 } }))
    assert.equals(2, t:set_costs({ { 1, false } }))
    assert.is_nil(t:next_hop(1, 2))
  end)
end)

describe("wayfinder.explore", function()
  it("converges to the whole graph's table, seeing only what it walks to", function()
    local g = prng.new(2026)
    for round = 1, 10 do
      local n = g.int(3, 24)
      local edges = random_graph(g, n, g.int(0, 2 * n), false)
      local sight = random_sight(g, n, 3)
      local start = g.int(1, n)
      local agent = explore.new { nodes = n, edges = edges, sight = sight, start = start }
      assert.equals(start, agent:position())
      local trail, why = walk(agent, true)
      assert.equals("explored", why, "round " .. round)
      assert.equals(n, agent:known_count())
      assert.is_true(agent:explored())
      local full = pathtable.new { nodes = n, edges = edges }
      local ok, diff = same_tables(agent:table(), full, n)
      assert(ok, diff)
      -- every move followed a known edge of the graph
      for i = 2, #trail do
        local a, b = trail[i - 1], trail[i]
        local found = false
        for _, e in ipairs(edges) do
          if (e[1] == a and e[2] == b) or (e[1] == b and e[2] == a) then found = true end
        end
        assert(found, "move " .. a .. " -> " .. b .. " is no edge")
      end
    end
  end)

  it("on a graph in pieces converges on its own piece and knows nothing of the others", function()
    -- two triangles and a chain; the agent starts in the first triangle
    local edges = { { 1, 2, 1 }, { 2, 3, 1 }, { 3, 1, 1 }, { 4, 5, 1 }, { 5, 6, 1 }, { 6, 4, 1 }, { 7, 8, 2 } }
    local agent = explore.new { nodes = 8, edges = edges, start = 2 }
    local _, why = walk(agent, true)
    assert.equals("explored", why)
    assert.same({ 1, 2, 3 }, agent:known_nodes())
    local full = pathtable.new { nodes = 8, edges = edges }
    local ok, diff = same_tables(agent:table(), full, 8, { [1] = true, [2] = true, [3] = true })
    assert(ok, diff)
    assert.is_nil(agent:table():next_hop(4, 5))
    assert.same({ nil, "unknown" }, { agent:next_hop(5) })
  end)

  it("learns the route the reference level teaches: a new node shortens an old route", function()
    -- a ring 1-2-3-4-5-6-1; the side through 5 and 6 is cheaper
    local edges = { { 1, 2, 2 }, { 2, 3, 2 }, { 3, 4, 2 }, { 4, 5, 1 }, { 5, 6, 1 }, { 6, 1, 1 } }
    local agent = explore.new { nodes = 6, edges = edges, start = 3 }
    assert.same({ 2, 3, 4 }, agent:known_nodes())
    assert.same({ nil, "unknown" }, { agent:route(1) })
    assert.same({ 1 }, agent:arrive(2))
    assert.same({ { 1, 2, 3, 4 }, 6 }, { agent:table():route(1, 4) })
    assert.same({ 6 }, agent:arrive(1))
    assert.same({ 5 }, agent:arrive(6))
    assert.same({ { 1, 6, 5, 4 }, 3 }, { agent:table():route(1, 4) })
    assert.same({ { 6, 5, 4 }, 2 }, { agent:route(4) })
    -- a sight list shows nodes far off at once
    local seer = explore.new { nodes = 6, edges = edges, start = 3, sight = { [3] = { 5, 6 } } }
    assert.same({ 2, 3, 4, 5, 6 }, seer:known_nodes())
    assert.same({ 3, 4, 5, 6 }, (seer:route(6)))
  end)

  it("walks the same whatever order its sight lists come in", function()
    local g = prng.new(77)
    for _ = 1, 6 do
      local n = g.int(4, 20)
      local edges = random_graph(g, n, g.int(0, 2 * n), false)
      local sight = random_sight(g, n, 4)
      local shuffled = {}
      for v = 1, n do
        local list = {}
        for i = #sight[v], 1, -1 do list[#list + 1] = sight[v][i] end
        list[#list + 1] = sight[v][1]   -- a repeat changes nothing
        shuffled[v] = list
      end
      local a = explore.new { nodes = n, edges = edges, sight = sight, start = 1 }
      local b = explore.new { nodes = n, edges = edges, sight = function(v) return shuffled[v] end, start = 1 }
      local ta, tb = walk(a), walk(b)
      assert.same(ta, tb)
      assert.same(a:stats(), b:stats())
    end
  end)

  it("explores a grid by line of sight and ends with the grid's whole table", function()
    local grid = wayfinder.grid.from_ascii([[
......#.......
.####.#..###..
.#....#....#..
.#..####...#..
..............
####..###.####
......#.......
]])
    local agent = explore.from_grid(grid, 0, 0, { range = 3 })
    local x, y = agent:navcell(agent:position())
    assert.same({ 0, 0 }, { x, y })
    local trail, why = walk(agent, true)
    assert.equals("explored", why)
    assert.equals(agent:node_count(), agent:known_count())
    local full = pathtable.new(agent:graph())
    local ok, diff = same_tables(agent:table(), full, agent:node_count())
    assert(ok, diff)
    -- every seen node was in line of sight (or next to) a navcell walked
    for i = 2, #trail do
      local ax, ay = agent:navcell(trail[i - 1])
      local bx, by = agent:navcell(trail[i])
      assert(math.abs(ax - bx) <= 1 and math.abs(ay - by) <= 1)
    end
    -- a route's cost is grid:find_path's, in its units
    local a, b = agent:node_at(0, 0), agent:node_at(13, 6)
    local _, _, info = grid:find_path(0.5, 0.5, 13.5, 6.5)
    local cost = full:distance(a, b)
    assert.equals(info.cost_units, cost)
  end)

  it("rejects bad input", function()
    local edges = { { 1, 2, 1 } }
    assert.has_error(function() explore.new(nil) end, "wayfinder.explore.new: spec must be a table, got nil")
    assert.has_error(function() explore.new { nodes = 2, edges = edges, start = 3 } end,
      "wayfinder.explore.new: spec.start must be a node in [1, 2], got 3")
    assert.has_error(function() explore.new { nodes = 2, edges = { { 1, 3, 1 } }, start = 1 } end,
      "wayfinder.explore.new: spec.edges[1][2] must be a node in [1, 2], got 3")
    assert.has_error(function() explore.new { nodes = 2, edges = edges, start = 1, sight = 5 } end,
      "wayfinder.explore.new: spec.sight must be a table or a function, got 5")
    assert.has_error(function() explore.new { nodes = 2, edges = edges, start = 1, sight = { [1] = { 0 } } } end,
      "wayfinder.explore.new: spec.sight[1][1] must be a node in [1, 2], got 0")
    assert.has_error(function() explore.new { nodes = 2, edges = edges, start = 1, known = { 1 / 0 } } end,
      "wayfinder.explore.new: spec.known[1] must be a node in [1, 2], got inf")
    assert.has_error(function() explore.new { nodes = 2, edges = edges, start = 1, speed = 1 } end,
      "wayfinder.explore.new: unknown spec key 'speed'")
    assert.has_error(function() explore.new { nodes = 2, edges = edges, start = 1, sight = function() return 1 end } end,
      "wayfinder.explore: sight(1) must return a table, got 1")
    local agent = explore.new { nodes = 2, edges = edges, start = 1 }
    assert.has_error(function() agent:next_hop(0 / 0) end, "explorer:next_hop: to must be a node in [1, 2], got nan")
    assert.has_error(function() agent:arrive(3) end, "explorer:arrive: node must be a node in [1, 2], got 3")
    assert.has_error(function() agent:node_at(0, 0) end, "explorer:node_at: the explorer was not made from a grid")
    local grid = wayfinder.grid.from_ascii("..#\n...\n")
    assert.has_error(function() explore.from_grid({}, 0, 0) end,
      "wayfinder.explore.from_grid: grid must be a wayfinder.Grid, got a table")
    assert.has_error(function() explore.from_grid(grid, 2, 0) end,
      "wayfinder.explore.from_grid: the start (2, 0) is blocked")
    assert.has_error(function() explore.from_grid(grid, 3, 0) end,
      "wayfinder.explore.from_grid: x must be an integer in [0, 3), got 3")
    assert.has_error(function() explore.from_grid(grid, 0, 0, { range = 0 }) end,
      "wayfinder.explore.from_grid: options.range must be an integer in [1, 64], got 0")
    assert.has_error(function() explore.from_grid(grid, 0, 0, { class = "tank" }) end,
      "wayfinder.explore.from_grid: options.class must name a class of the grid, got 'tank'")
    assert.has_error(function() explore.from_grid(grid, 0, 0, { size = 1 }) end,
      "wayfinder.explore.from_grid: unknown options key 'size'")
  end)
end)
