-- Graphs held by a world: world:attach_graph, attached_graph, detach_graph
-- and graph_names; graphs of the house world follow its edits when asked
-- for; world:save carries them and wayfinder.world.load brings them back
-- (save, load, save again gives the same data), checking them and naming
-- the faulty field.
local wayfinder = require("wayfinder")
local gen = require("spec.support.house_gen")
local prng = require("spec.support.prng")
local graph = wayfinder.graph

-- a world's graph as sorted lists of boxes and links (ids aside;
-- temporary links left out)
local function shape(g)
  local s, p = {}, {}
  for i = 1, g:sector_count() do
    local b = g:sector(i)
    s[#s + 1] = ("%d %d %d %d"):format(b.x0, b.y0, b.x1, b.y1)
  end
  for _, id in ipairs(g:portals()) do
    local q = g:portal(id)
    local a, b = g:sector(q.a), g:sector(q.b)
    if not q.temporary then
      p[#p + 1] = ("%s %d %d %d %d %s %.3f %s %s"):format(q.kind, a.x0, a.y0, b.x0, b.y0,
        q.span and table.concat(q.span, ",") or "-", q.cost, tostring(q.action),
        tostring(q.data and q.data.door))
    end
  end
  table.sort(s)
  table.sort(p)
  return { sectors = s, portals = p }
end

local function two_rooms()
  local w = wayfinder.world.new { width = 12, height = 6 }
  w:add_wall(6, 0, 6, 6)
  local d = w:add_object { type = "door", x = 5, y = 2, w = 2, h = 1 }
  return w, d
end

describe("graphs held by a world", function()
  it("holds graphs by name", function()
    local w = two_rooms()
    local g = graph.from_world(w)
    local h = graph.new()
    h:add_sector { x0 = 0, y0 = 0, x1 = 4, y1 = 4 }
    assert.are.same({}, w:graph_names())
    w:attach_graph("nav", g)
    w:attach_graph("aux", h)
    assert.are.same({ "aux", "nav" }, w:graph_names())
    assert.are.equal(g, w:attached_graph("nav"))
    assert.are.equal(h, w:attached_graph("aux"))
    assert.is_nil(w:attached_graph("other"))
    assert.are.equal(h, w:detach_graph("aux"))
    assert.is_nil(w:detach_graph("aux"))
    assert.are.same({ "nav" }, w:graph_names())
  end)

  it("keeps a graph of the house world in step with its doors and furniture", function()
    local w, d = two_rooms()
    w:attach_graph("nav", graph.from_world(w))
    assert.are.same({ d.id },
      graph.doors_of(w:attached_graph("nav"):find_path(1.5, 1.5, 10.5, 1.5)))
    w:set_locked(d.id, true)
    assert.is_nil(w:attached_graph("nav"):find_path(1.5, 1.5, 10.5, 1.5))
    w:set_locked(d.id, false)
    w:add_tree("slow", wayfinder.world.standard_door_tree())
    w:set_portal_tree(d.id, "slow")
    local r = w:attached_graph("nav"):find_path(1.5, 1.5, 10.5, 1.5)
    local actions = {}
    for _, c in ipairs(r.corridor) do
      if c.kind == "door" then actions[#actions + 1] = c.action end
    end
    assert.are.same({ "slow" }, actions)
    -- random edits: the held graph always has the shape of a fresh one
    local rng = prng.new(11)
    local hw = gen.generate { rooms_x = 3, rooms_y = 2, room_w = 4, room_h = 4, seed = 4 }
    hw:attach_graph("nav", graph.from_world(hw))
    local checked = 0
    for _ = 1, 20 do
      local doors = hw:doors()
      local dd = doors[rng.int(#doors)]
      if rng.int(2) == 1 then
        hw:set_locked(dd.id, not dd.locked)
      else
        pcall(hw.add_object, hw, { type = "furniture", x = rng.int(0, hw.width - 1),
          y = rng.int(0, hw.height - 1) })
      end
      assert.are.same(shape(graph.from_world(hw)), shape(hw:attached_graph("nav")))
      checked = checked + 1
    end
    assert.are.equal(20, checked)
  end)

  it("saves and loads them with the world; save, load, save gives the same data", function()
    local w = gen.generate { rooms_x = 2, rooms_y = 2, room_w = 4, room_h = 4, seed = 9 }
    local g = graph.from_world(w)
    g:add_temporary_link { from = { 0.5, 0.5 }, to = { 3.5, 0.5 }, kind = "jump",
      data = { by = "player" } }
    w:attach_graph("nav", g)
    local h = graph.from_grid(wayfinder.grid.from_ascii("....\n.@..\n....\n"))
    w:attach_graph("grid", h)
    -- an edit after attaching: the saved graph is the synced one
    w:set_locked(w:doors()[1].id, true)
    local saved = w:save()
    assert.are.equal(2, #saved.graphs)
    assert.are.equal("grid", saved.graphs[1].name)
    assert.are.equal("nav", saved.graphs[2].name)
    assert.are.same(shape(graph.from_world(w)), shape(graph.load(saved.graphs[2].graph)))
    local w2 = wayfinder.world.load(saved)
    assert.are.same({ "grid", "nav" }, w2:graph_names())
    assert.are.same(saved, w2:save())
    assert.are.same(w:attached_graph("nav"):save(), w2:attached_graph("nav"):save())
    assert.are.same(h:save(), w2:attached_graph("grid"):save())
    -- the loaded world's graph follows the loaded world
    w2:set_locked(w2:doors()[1].id, false)
    assert.are.same(shape(graph.from_world(w2)), shape(w2:attached_graph("nav")))
    assert.are_not.same(shape(graph.from_world(w)), shape(w2:attached_graph("nav")))
    -- a world that holds no graph saves as before
    assert.is_nil(two_rooms():save().graphs)
  end)

  it("rejects malformed graphs in a save, naming the field, and loads nothing", function()
    local w = two_rooms()
    w:attach_graph("nav", graph.from_world(w))
    local good = w:save()
    local function broken(f)
      local s = w:save()
      f(s)
      local ok, err = pcall(wayfinder.world.load, s)
      assert.is_false(ok)
      return (tostring(err):gsub("^[^:\n]+:%d+: ", ""))
    end
    assert.are.equal("wayfinder.world.load: graphs[1].graph ('nav'): data.sectors must be a "
      .. "table, got nil", broken(function(s) s.graphs[1].graph.sectors = nil end))
    assert.are.equal("wayfinder.world.load: graphs[1].graph ('nav'): portal 1 leads to sector "
      .. "99, which does not exist", broken(function(s) s.graphs[1].graph.portals[1].a = 99 end))
    assert.are.equal("wayfinder.world.load: graphs[1].graph ('nav'): data.world is malformed",
      broken(function(s) s.graphs[1].graph.world.width = -1 end))
    assert.are.equal("wayfinder.world.load: graphs[1].graph ('nav'): the graph was built from a "
      .. "20x6 world, this one is 12x6", broken(function(s) s.graphs[1].graph.world.width = 20 end))
    assert.are.equal("wayfinder.world.load: graphs[1].graph ('nav'): portal 1 has a bad world "
      .. "mark", broken(function(s) s.graphs[1].graph.portals[1].world = "wall" end))
    assert.are.equal("wayfinder.world.load: graphs must be a list of {name =, graph =}, got 3",
      broken(function(s) s.graphs = 3 end))
    assert.are.equal("wayfinder.world.load: graphs[1].name must be a non-empty string of at "
      .. "most 64 bytes, got 7", broken(function(s) s.graphs[1].name = 7 end))
    assert.are.equal("wayfinder.world.load: graphs[2].name 'nav' is out of order or named twice",
      broken(function(s) s.graphs[2] = s.graphs[1] end))
    assert.are.equal("wayfinder.world.load: graphs[1] must be a table",
      broken(function(s) s.graphs[1] = "x" end))
    -- the good save still loads
    assert.are.same(good, wayfinder.world.load(good):save())
  end)

  it("rejects bad arguments", function()
    local w = two_rooms()
    local g = graph.from_world(w)
    assert.has_error(function() w:attach_graph("", g) end,
      "world:attach_graph: name must be a non-empty string of at most 64 bytes, got ''")
    assert.has_error(function() w:attach_graph("nav", {}) end,
      "world:attach_graph: graph must be a wayfinder.Graph, got a table")
    assert.has_error(function()
      w:attach_graph("nav", graph.from_world(wayfinder.world.new { width = 4, height = 4 }))
    end, "world:attach_graph: the graph was built from a 4x4 world, this one is 12x6")
    w:attach_graph("nav", g)
    assert.has_error(function() w:attach_graph("nav", graph.new()) end,
      "world:attach_graph: the world already holds a graph named 'nav'; detach it first")
    assert.has_error(function() w:attach_graph("again", g) end,
      "world:attach_graph: the graph is already held as 'nav'")
    assert.has_error(function() w:attached_graph(3) end,
      "world:attached_graph: name must be a non-empty string of at most 64 bytes, got 3")
    assert.has_error(function() w:detach_graph(nil) end,
      "world:detach_graph: name must be a non-empty string of at most 64 bytes, got nil")
    assert.has_error(function() w.attached_graph(42, "nav") end,
      "world:attached_graph: self must be a wayfinder world, got 42")
    assert.are.same({ "nav" }, w:graph_names())
    -- a held graph that cannot follow the world (a sector added by hand
    -- where furniture left the floor)
    local w3 = wayfinder.world.new { width = 8, height = 4 }
    local f = w3:add_object { type = "furniture", x = 3, y = 1 }
    local g3 = graph.from_world(w3)
    g3:add_sector { x0 = 3, y0 = 1, x1 = 4, y1 = 2 }
    w3:attach_graph("nav", g3)
    w3:remove_object(f.id)
    local why = "graph:sync_world: sector 5, added by hand, overlaps the floor at (0, 0)-(8, 4)"
    assert.has_error(function() w3:attached_graph("nav") end, "world:attached_graph: " .. why)
    assert.has_error(function() w3:save() end, "world:save: graph 'nav': " .. why)
  end)
end)
