-- graph:sync_world: a graph of a house world brought up to date after the
-- world's doors and furniture change, without building it again. After
-- random sequences of edits (doors locked and unlocked, removed and put
-- back, penalties, furniture on and off door tiles) the synced graph holds
-- the very sectors, walk portals and door links a fresh from_world makes,
-- answers every query at the same cost, records nothing touched keep
-- their ids, and links added by hand stay.
local wayfinder = require("wayfinder")
local gen = require("spec.support.house_gen")
local prng = require("spec.support.prng")
local graph = wayfinder.graph

local function box(s)
  return ("%d %d %d %d r%s"):format(s.x0, s.y0, s.x1, s.y1, tostring(s.room))
end

local function num(v) return ("%.6f"):format(v) end

-- a record's content, named by the boxes it joins (ids and order aside)
local function portal_key(g, id)
  local p = g:portal(id)
  local pt = p.span and table.concat(p.span, " ")
    or (num(p.from[1]) .. " " .. num(p.from[2]) .. " " .. num(p.to[1]) .. " " .. num(p.to[2]))
  return table.concat({ p.kind, box(g:sector(p.a)), box(g:sector(p.b)), pt, num(p.cost),
    tostring(p.action), tostring(type(p.data) == "table" and p.data.door), tostring(p.one_way) },
    "|")
end

-- sorted lists of the sectors and of the portals of g
local function canonical(g)
  local s, p = {}, {}
  for i = 1, g:sector_count() do
    local sec = g:sector(i)
    sec.room = g.sectors[i].room
    s[#s + 1] = box(sec)
  end
  for _, id in ipairs(g:portals()) do p[#p + 1] = portal_key(g, id) end
  table.sort(s)
  table.sort(p)
  return s, p
end

-- how many entries of list a are not matched in list b (as multisets),
-- counting only those whose key starts with `prefix`
local function missing(a, b, prefix)
  local have, n = {}, 0
  for _, k in ipairs(b) do have[k] = (have[k] or 0) + 1 end
  for _, k in ipairs(a) do
    if k:sub(1, #prefix) == prefix then
      if (have[k] or 0) > 0 then have[k] = have[k] - 1 else n = n + 1 end
    end
  end
  return n
end

local function by_key(g)
  local out = {}
  for _, id in ipairs(g:portals()) do out[portal_key(g, id)] = id end
  return out
end

-- the tiles of a door from its public position
local function door_tiles(d)
  local px, py = d:position()
  if d.w == 2 then
    local x = math.floor(px + 0.5) - 1
    return x, math.floor(py), x + 1, math.floor(py)
  end
  local y = math.floor(py + 0.5) - 1
  return math.floor(px), y, math.floor(px), y + 1
end

-- one random edit of w; removed doors are kept in `gone` to be put back
local function edit(w, rng, gone, furniture)
  local doors = w:doors()
  local what = rng.int(6)
  if what == 1 and #doors > 0 then
    local d = doors[rng.int(#doors)]
    w:set_locked(d.id, not d.locked)
    return "lock " .. d.id
  elseif what == 2 and #doors > 1 then
    local d = doors[rng.int(#doors)]
    gone[#gone + 1] = { type = "door", x = d.tiles[1], y = d.tiles[2], w = d.w, h = d.h,
      penalty = d.penalty }
    w:remove_object(d.id)
    return "remove door " .. d.id
  elseif what == 3 and #gone > 0 then
    local spec = table.remove(gone, rng.int(#gone))
    w:add_object(spec)
    return "put back a door"
  elseif what == 4 and #doors > 0 then
    local d = doors[rng.int(#doors)]
    w:set_penalty(d.id, rng.int(0, 5))
    return "penalty " .. d.id
  elseif what == 5 and #doors > 0 then
    -- furniture on one of a door's tiles (the door goes inactive)
    local d = doors[rng.int(#doors)]
    local x1, y1, x2, y2 = door_tiles(d)
    local x, y = x1, y1
    if rng.int(2) == 2 then x, y = x2, y2 end
    local ok, o = pcall(w.add_object, w, { type = "furniture", x = x, y = y })
    if ok then furniture[#furniture + 1] = o.id end
    return "furniture at a door"
  elseif #furniture > 0 then
    local id = table.remove(furniture, rng.int(#furniture))
    w:remove_object(id)
    return "remove furniture " .. id
  end
  local x, y = rng.int(0, w.width - 1), rng.int(0, w.height - 1)
  local ok, o = pcall(w.add_object, w, { type = "furniture", x = x, y = y })
  if ok then furniture[#furniture + 1] = o.id end
  return "furniture"
end

describe("graph:sync_world", function()
  it("makes what a fresh from_world makes after random edits (random houses)", function()
    local queries, reached, edits_done, changed = 0, 0, 0, 0
    for seed = 1, 10 do
      local w = gen.generate { rooms_x = 2 + seed % 2, rooms_y = 2, room_w = 4, room_h = 4,
        seed = seed, extra_doors = 30, furniture = 2 }
      local g = graph.from_world(w)
      local rng = prng.new(seed * 7919)
      local gone, furniture = {}, {}
      -- a link added by hand and a temporary jump, both in the margin
      -- outside the house, which no edit touches
      local hand = g:add_link { from = { 0.5, 0.5 }, to = { w.width - 0.5, 0.5 }, kind = "zip" }
      local jump = g:add_temporary_link { from = { 0.5, 1.5 }, to = { 1.5, w.height - 0.5 },
        kind = "jump" }
      for step = 1, 8 do
        local before = by_key(g)
        local s0, p0 = canonical(g)
        local what = edit(w, rng, gone, furniture)
        edits_done = edits_done + 1
        local counts = g:sync_world(w)
        local fresh = graph.from_world(w)
        local where = ("seed %d step %d (%s)"):format(seed, step, what)
        local s1, p1 = canonical(fresh)
        local s2, p2 = canonical(g)
        -- the hand-made link and the jump are the only records beyond the world's
        assert.are.same(s1, s2, where)
        assert.are.equal(#p1 + 2, #p2, where)
        local want = {}
        for _, k in ipairs(p1) do want[k] = (want[k] or 0) + 1 end
        for _, id in ipairs(g:portals()) do
          if id ~= hand and id ~= jump then
            local k = portal_key(g, id)
            assert.is_truthy(want[k] and want[k] > 0, where .. ": extra " .. k)
            want[k] = want[k] - 1
          end
        end
        assert.are.equal("zip", g:portal(hand).kind)
        assert.are.same({ jump }, g:temporary_links())
        -- untouched records keep their ids
        local after = by_key(g)
        for k, id in pairs(before) do
          if after[k] then assert.are.equal(id, after[k], where .. ": " .. k) end
        end
        local moved = counts.removed + counts.added + counts.walk_removed + counts.walk_added
          + counts.doors_removed + counts.doors_added
        if moved > 0 then changed = changed + 1 end
        -- the counts say what changed between the graph before and the world now
        assert.are.equal(missing(s0, s1, ""), counts.removed, where)
        assert.are.equal(missing(s1, s0, ""), counts.added, where)
        assert.are.equal(missing(p0, p1, "walk|"), counts.walk_removed, where)
        assert.are.equal(missing(p1, p0, "walk|"), counts.walk_added, where)
        assert.are.equal(missing(p0, p1, "door|"), counts.doors_removed, where)
        assert.are.equal(missing(p1, p0, "door|"), counts.doors_added, where)
        assert.are.same({}, counts.dropped, where)
        -- every query costs what it costs on the fresh graph
        for _ = 1, 6 do
          local sx, sy = rng.int(w.width) - 0.5, rng.int(w.height) - 0.5
          local gx, gy = rng.int(w.width) - 0.5, rng.int(w.height) - 0.5
          if fresh:sector_at(sx, sy) and fresh:sector_at(gx, gy) then
            assert.are.equal(box(fresh:sector(fresh:sector_at(sx, sy))),
              box(g:sector(g:sector_at(sx, sy))), where)
            local r1 = fresh:find_path(sx, sy, gx, gy)
            local r2 = g:find_path(sx, sy, gx, gy, { abilities = {} })
            queries = queries + 1
            if r1 then
              reached = reached + 1
              assert.is_truthy(r2, where)
              assert.are.equal(r1.cost_units, r2.cost_units, where)
            end
          end
        end
      end
    end
    assert.is_true(queries > 100 and reached > 40 and changed > 20,
      ("%d queries, %d reached, %d of %d syncs changed something"):format(queries, reached,
        changed, edits_done))
  end)

  it("counts what one edit changes and leaves the rest alone", function()
    local w = wayfinder.world.new { width = 12, height = 6 }
    w:add_wall(6, 0, 6, 6)
    local d = w:add_object { type = "door", x = 5, y = 2, w = 2, h = 1 }
    local g, info = graph.from_world(w)
    local link = info.doors[1].link
    local n = g:sector_count()
    assert.are.same({ removed = 0, added = 0, walk_removed = 0, walk_added = 0,
      doors_removed = 0, doors_added = 0, dropped = {} }, g:sync_world(w))
    -- locking drops the door link only
    w:set_locked(d.id, true)
    local c = g:sync_world(w)
    assert.are.same({ removed = 0, added = 0, walk_removed = 0, walk_added = 0,
      doors_removed = 1, doors_added = 0, dropped = {} }, c)
    assert.is_nil(g:find_path(1.5, 1.5, 10.5, 1.5))
    assert.are.equal(n, g:sector_count())
    -- unlocking makes a new link
    w:set_locked(d.id, false)
    c = g:sync_world(w)
    assert.are.equal(1, c.doors_added)
    assert.is_true(g:portal(g:portals()[#g:portals()]).id > link)
    assert.are.same({ d.id }, graph.doors_of(g:find_path(1.5, 1.5, 10.5, 1.5)))
    -- furniture on the door's tile: the sectors around it are cut, the door goes
    local f = w:add_object { type = "furniture", x = 5, y = 2 }
    c = g:sync_world(w)
    assert.is_true(c.removed >= 1 and c.added >= 2, c.removed .. " " .. c.added)
    assert.are.equal(1, c.doors_removed)
    assert.is_nil(g:find_path(1.5, 1.5, 10.5, 1.5))
    -- sectors of the other room kept their ids and boxes
    assert.are.same(graph.from_world(w):sector(graph.from_world(w):sector_at(10.5, 1.5)),
      g:sector(g:sector_at(10.5, 1.5)))
    w:remove_object(f.id)
    c = g:sync_world(w)
    assert.are.equal(1, c.doors_added)
    assert.is_truthy(g:find_path(1.5, 1.5, 10.5, 1.5))
  end)

  it("moves hand-made links off sectors that went and drops them when nothing is left",
    function()
      local w = wayfinder.world.new { width = 8, height = 4 }
      local g = graph.from_world(w)
      local a = g:add_link { from = { 2.5, 2.5 }, to = { 6.5, 0.5 }, kind = "hop", cost = 1 }
      local b = g:add_link { from = { 4.5, 1.5 }, to = { 0.5, 0.5 }, kind = "hop", cost = 1 }
      local f = w:add_object { type = "furniture", x = 4, y = 1 }
      local c = g:sync_world(w)
      assert.are.same({ b }, c.dropped)
      assert.is_truthy(g:portal(a))
      local p = g:portal(a)
      assert.are.equal(g:sector_at(2.5, 2.5), p.a)
      assert.are.equal(g:sector_at(6.5, 0.5), p.b)
      w:remove_object(f.id)
      g:sync_world(w)
      local r = g:find_path(2.5, 2.5, 6.5, 0.5)
      assert.is_truthy(r)
    end)

  it("survives save and load and syncs afterwards", function()
    local w = gen.generate { rooms_x = 2, rooms_y = 2, room_w = 4, room_h = 4, seed = 5 }
    local g = graph.from_world(w)
    local saved = g:save()
    local g2 = graph.load(saved)
    assert.are.same(saved, g2:save())
    local d = w:doors()[1]
    w:set_locked(d.id, true)
    g:sync_world(w)
    g2:sync_world(w)
    assert.are.same(g:save(), g2:save())
  end)

  it("rejects graphs not of worlds, other worlds and bad arguments", function()
    local w = wayfinder.world.new { width = 8, height = 4 }
    local g = graph.from_world(w)
    assert.has_error(function() g:sync_world(42) end,
      "graph:sync_world: world must be a wayfinder world, got 42")
    assert.has_error(function() g:sync_world(wayfinder.world.new { width = 9, height = 4 }) end,
      "graph:sync_world: world is 9x4, the graph was built from a 8x4 world")
    assert.has_error(function() graph.new():sync_world(w) end,
      "graph:sync_world: the graph was not built by wayfinder.graph.from_world")
    -- a sector added by hand where floor opens up: nothing changes
    local w2 = wayfinder.world.new { width = 8, height = 4 }
    local f = w2:add_object { type = "furniture", x = 3, y = 1 }
    local g2 = graph.from_world(w2)
    g2:add_sector { x0 = 3, y0 = 1, x1 = 4, y1 = 2 }
    local before = g2:save()
    w2:remove_object(f.id)
    assert.has_error(function() g2:sync_world(w2) end,
      "graph:sync_world: sector 5, added by hand, overlaps the floor at (0, 0)-(8, 4)")
    assert.are.same(before, g2:save())
  end)
end)
