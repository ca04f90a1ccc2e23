-- luacheck: max line length 130
-- Next-hop tables checked against an all-pairs Floyd-Warshall reference on
-- random graphs: every route read from the table is made of real edges and
-- costs exactly the optimum, before and after incremental edge changes.
local pathtable = require("wayfinder.pathtable")

-- A small deterministic generator (no math.random state shared with others).
local function lcg(seed)
  local s = seed
  return function(lo, hi)
    s = (s * 1103515245 + 12345) % 2147483648
    return lo + math.floor(s / 65536) % (hi - lo + 1)
  end
end

local function random_graph(rand, n, m)
  local edges = {}
  for i = 1, m do
    local a, b = rand(1, n), rand(1, n)
    edges[i] = { a, b, rand(1, 20), one_way = rand(1, 4) == 1 or nil }
  end
  return edges
end

-- All-pairs shortest costs, obvious and slow.
local function floyd(n, edges)
  local d = {}
  for i = 1, n do
    d[i] = {}
    d[i][i] = 0
  end
  for _, e in ipairs(edges) do
    local a, b, c = e[1], e[2], e[3]
    if c then
      if not d[a][b] or c < d[a][b] then d[a][b] = c end
      if not e.one_way and (not d[b][a] or c < d[b][a]) then d[b][a] = c end
    end
  end
  for k = 1, n do
    for i = 1, n do
      local dik = d[i][k]
      if dik then
        for j = 1, n do
          local dkj = d[k][j]
          if dkj and (not d[i][j] or dik + dkj < d[i][j]) then d[i][j] = dik + dkj end
        end
      end
    end
  end
  return d
end

-- Cheapest edge from a to b, or nil.
local function step_cost(edges, a, b)
  local best
  for _, e in ipairs(edges) do
    if e[3] then
      if (e[1] == a and e[2] == b) or (not e.one_way and e[2] == a and e[1] == b) then
        if not best or e[3] < best then best = e[3] end
      end
    end
  end
  return best
end

local function check_all(t, n, edges)
  local d = floyd(n, edges)
  local checked = 0
  for a = 1, n do
    for b = 1, n do
      local route, cost = t:route(a, b)
      if d[a][b] == nil then
        assert.is_nil(route)
        assert.are.equal("unreachable", cost)
        assert.are.same({ nil, "unreachable" }, { t:next_hop(a, b) })
      else
        assert.are.equal(a, route[1])
        assert.are.equal(b, route[#route])
        local sum = 0
        for k = 2, #route do
          local c = step_cost(edges, route[k - 1], route[k])
          assert.is_not_nil(c, ("no edge %d-%d on route %d->%d"):format(route[k - 1], route[k], a, b))
          sum = sum + c
        end
        assert.are.equal(d[a][b], sum)
        assert.are.equal(d[a][b], cost)
        assert.are.equal(d[a][b], t:distance(a, b))
        if a ~= b then assert.are.equal(route[2], t:next_hop(a, b)) end
        checked = checked + 1
      end
    end
  end
  return checked
end

describe("pathtable", function()
  it("reads the route of the reference's eight-node level", function()
    -- A..H as 1..8, the links of the level the next-hop matrix was drawn for.
    local A, B, C, D, E, F, G, H = 1, 2, 3, 4, 5, 6, 7, 8
    local links = { { A, B }, { B, C }, { C, D }, { D, E }, { E, A }, { A, F },
      { E, F }, { F, G }, { G, C }, { G, D }, { F, H }, { G, H } }
    local edges = {}
    for i, l in ipairs(links) do edges[i] = { l[1], l[2], 1 } end
    local t = pathtable.new { nodes = 8, edges = edges }
    local route, cost = t:route(B, H)
    assert.are.same({ B, A, F, H }, route)
    assert.are.equal(3, cost)
    assert.are.same({ nil, "arrived" }, { t:next_hop(C, C) })
    assert.are.same({ { C }, 0 }, { t:route(C, C) })
  end)

  it("gives optimal routes on random graphs", function()
    local rand = lcg(7)
    local total = 0
    for round = 1, 12 do
      local n = rand(2, 24)
      local edges = random_graph(rand, n, rand(0, 3 * n))
      local t = pathtable.new { nodes = n, edges = edges }
      total = total + check_all(t, n, edges)
      assert.are.equal(#edges, t:edge_count(), "round " .. round)
    end
    assert.is_true(total > 100)
  end)

  it("stays optimal after incremental changes and matches a full build", function()
    local rand = lcg(99)
    local partial, full = 0, 0
    for _ = 1, 6 do
      local n = rand(5, 20)
      local edges = random_graph(rand, n, 2 * n)
      local t = pathtable.new { nodes = n, edges = edges }
      for _ = 1, 15 do
        local id = rand(1, #edges)
        local c = rand(0, 30)
        if c == 0 then c = false end
        local rows = t:set_cost(id, c)
        edges[id][3] = c
        partial, full = partial + rows, full + n
        check_all(t, n, edges)
        local fresh = pathtable.new { nodes = n, edges = edges }
        for a = 1, n do
          for b = 1, n do
            assert.are.same({ fresh:distance(a, b) }, { t:distance(a, b) })
          end
        end
        local ea, eb, ec = t:edge(id)
        assert.are.same({ edges[id][1], edges[id][2], c }, { ea, eb, ec })
      end
    end
    -- the point of set_cost: fewer rows searched than rebuilding each time
    assert.is_true(partial < full)
  end)

  it("reports its memory", function()
    local t = pathtable.new { nodes = 10, edges = { { 1, 2, 1 } } }
    local small = t:memory()
    local big = pathtable.new { nodes = 20, edges = { { 1, 2, 1 } } }:memory()
    assert.is_true(small > 2 * 10 * 10 * 8)
    assert.is_true(big > 3 * small)
    assert.are.equal("wayfinder.PathTable (10 nodes, 1 edges)", tostring(t))
  end)

  it("rejects bad input", function()
    local new = pathtable.new
    local cases = {
      { nil, "wayfinder.pathtable.new: spec must be a table, got nil" },
      { { nodes = 0, edges = {} }, "wayfinder.pathtable.new: spec.nodes must be an integer in [1, 2048], got 0" },
      { { nodes = 0 / 0, edges = {} }, "wayfinder.pathtable.new: spec.nodes must be an integer in [1, 2048], got nan" },
      { { nodes = 3 }, "wayfinder.pathtable.new: spec.edges must be a table, got nil" },
      { { nodes = 3, edges = {}, x = 1 }, "wayfinder.pathtable.new: unknown spec key 'x'" },
      { { nodes = 3, edges = { { 1, 4, 1 } } },
        "wayfinder.pathtable.new: spec.edges[1][2] must be a node in [1, 3], got 4" },
      { { nodes = 3, edges = { { 1, 2, 0 } } },
        "wayfinder.pathtable.new: spec.edges[1][3] must be an integer in [1, 2147483647] or false, got 0" },
      { { nodes = 3, edges = { { 1, 2, 1.5 } } },
        "wayfinder.pathtable.new: spec.edges[1][3] must be an integer in [1, 2147483647] or false, got 1.5" },
      { { nodes = 3, edges = { { 1, 2, 1, one_way = 1 } } },
        "wayfinder.pathtable.new: spec.edges[1].one_way must be a boolean, got 1" },
      { { nodes = 3, edges = { { 1, 2, 1 }, [3] = { 1, 2, 1 } } },
        "wayfinder.pathtable.new: spec.edges must be a sequence, has key 3" },
    }
    for _, c in ipairs(cases) do
      assert.has_error(function() new(c[1]) end, c[2])
    end
    local t = new { nodes = 3, edges = { { 1, 2, 1 } } }
    assert.has_error(function() t:next_hop(0, 1) end, "pathtable:next_hop: from must be a node in [1, 3], got 0")
    assert.has_error(function() t:route(1, "b") end, "pathtable:route: to must be a node in [1, 3], got 'b'")
    assert.has_error(function() t:distance(1, 1 / 0) end, "pathtable:distance: to must be a node in [1, 3], got inf")
    assert.has_error(function() t:set_cost(2, 1) end, "pathtable:set_cost: id must be an edge in [1, 1], got 2")
    assert.has_error(function() t:set_cost(1, -1) end,
      "pathtable:set_cost: cost must be an integer in [1, 2147483647] or false, got -1")
    assert.has_error(function() t:edge(nil) end, "pathtable:edge: id must be an edge in [1, 1], got nil")
    assert.are.same({ nil, "unreachable" }, { t:route(1, 3) })
    assert.are.same({ nil, "unreachable" }, { t:distance(3, 1) })
  end)
end)
