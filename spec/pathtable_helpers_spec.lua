-- luacheck: max line length 130
-- Next-hop tables made from a house world's doors, a navigation graph and a
-- grid's regions: nodes and edges read back from the source they came from.
local wayfinder = require("wayfinder")
local pathtable = require("wayfinder.pathtable")

describe("pathtable helpers", function()
  it("makes rooms and doors into nodes and edges, a locked door left out", function()
    local w = wayfinder.world.from_ascii([[
+-+-+-+-+
|.A.B.C.|
+-+-+-+-+
]], { legend = { A = { type = "door" }, B = { type = "door" }, C = { type = "door" } } })
    local t, info = pathtable.from_doors(w)
    assert.are.equal(w:room_count(), t:node_count())
    assert.are.equal(3, t:edge_count())
    local r1, r4 = w:room_at(0.5, 0.5), w:room_at(3.5, 0.5)
    local route, cost = t:route(r1, r4)
    assert.are.equal(4, #route)
    assert.are.equal(3, cost)
    for k, r in ipairs(route) do assert.are.equal(w:room_at(k - 0.5, 0.5), r) end
    -- lock the middle door: the table follows with set_cost
    local B = w:doors()[2]
    w:set_locked(B.id, true)
    local rows = t:set_cost(info.door_edge[B.id], false)
    assert.is_true(rows > 0)
    assert.are.same({ nil, "unreachable" }, { t:route(r1, r4) })
    local fresh = pathtable.from_doors(w)
    assert.are.same({ nil, "unreachable" }, { fresh:route(r1, r4) })
    assert.are.equal(B.id, info.edge_door[info.door_edge[B.id]])
    local priced = pathtable.from_doors(w, { cost = function(d) return d.id * 10 end })
    assert.are.equal(10, priced:distance(r1, w:room_at(1.5, 0.5)))
  end)

  it("makes a navigation graph's sectors and portals into nodes and edges", function()
    local g = wayfinder.graph.new()
    local s1 = g:add_sector { x0 = 0, y0 = 0, x1 = 4, y1 = 4 }
    local s2 = g:add_sector { x0 = 4, y0 = 0, x1 = 8, y1 = 4 }
    local s3 = g:add_sector { x0 = 8, y0 = 0, x1 = 12, y1 = 4 }
    local p12 = g:add_portal { a = s1, b = s2, span = { 4, 1, 4, 3 } }
    g:add_portal { a = s2, b = s3, span = { 8, 1, 8, 3 }, one_way = true }
    local t, info = pathtable.from_graph(g)
    assert.are.equal(3, t:node_count())
    assert.are.same({ { s1, s2, s3 }, 128 }, { t:route(s1, s3) })
    assert.are.same({ nil, "unreachable" }, { t:route(s3, s1) })
    local a, b, c = t:edge(info.portal_edge[p12])
    assert.are.same({ s1, s2, 64 }, { a, b, c })
    local t1 = pathtable.from_graph(g, { scale = 1 })
    assert.are.equal(8, t1:distance(s1, s3))
  end)

  it("makes a grid's regions into a table whose routes follow region adjacency", function()
    local grid = wayfinder.grid.from_ascii([[
..........
.########.
.#......#.
.#.####.#.
..........
]])
    local t, _, graph = pathtable.from_regions(grid)
    assert.are.equal(graph:sector_count(), t:node_count())
    local n = t:node_count()
    for a = 1, n do
      for b = 1, n do
        local route = t:route(a, b)
        assert.is_not_nil(route) -- one component: every region reaches every other
        for k = 2, #route do
          local found = false
          for _, id in ipairs(graph:portals()) do
            local p = graph:portal(id)
            if (p.a == route[k - 1] and p.b == route[k]) or (p.b == route[k - 1] and p.a == route[k]) then
              found = true
            end
          end
          assert.is_true(found)
        end
      end
    end
  end)

  it("rejects what is not a world, graph or grid", function()
    assert.has_error(function() pathtable.from_doors(3) end,
      "wayfinder.pathtable.from_doors: world must be a house world, got 3")
    assert.has_error(function() pathtable.from_graph({}) end,
      "wayfinder.pathtable.from_graph: graph must be a navigation graph, got a table")
    assert.has_error(function() pathtable.from_graph(wayfinder.graph.new(), { scale = 0 }) end,
      "wayfinder.pathtable.from_graph: options.scale must be an integer in [1, 65536], got 0")
    assert.has_error(function() pathtable.from_graph(wayfinder.graph.new()) end,
      "wayfinder.pathtable.from_graph: graph has no sectors")
    assert.has_error(function() pathtable.from_regions(nil) end,
      "wayfinder.graph.from_grid: grid must be a wayfinder.Grid, got nil")
    assert.has_error(function() pathtable.from_regions(nil, { bad = 1 }) end,
      "wayfinder.pathtable.from_regions: unknown options key 'bad'")
  end)
end)
