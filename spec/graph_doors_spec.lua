-- Graphs of house worlds: doors become links of kind "door" carrying the
-- door id and the door's portal tree name, read through the world's public
-- functions; the graph's route between rooms passes the doors the world
-- itself chooses on worked examples, agrees with the world on which goals
-- can be reached on random houses, and costs what a brute-force Dijkstra
-- over the same graph costs.
local wayfinder = require("wayfinder")
local brute = require("spec.support.graph_brute")
local gen = require("spec.support.house_gen")
local graph = wayfinder.graph

-- the reference's four-room house (docs/world.md, world:best_door)
local function four_rooms()
  local w = wayfinder.world.new { width = 12, height = 25, max_score = 100 }
  w:add_wall(0, 12, 12, 12); w:add_wall(6, 12, 6, 20)
  w:add_wall(0, 20, 7, 20); w:add_wall(7, 20, 7, 25)
  local d = {}
  d.A = w:add_object { type = "door", x = 4, y = 11, w = 1, h = 2 }
  d.B = w:add_object { type = "door", x = 7, y = 11, w = 1, h = 2 }
  d.C = w:add_object { type = "door", x = 3, y = 19, w = 1, h = 2 }
  d.D = w:add_object { type = "door", x = 6, y = 20, w = 2, h = 1 }
  d.E = w:add_object { type = "door", x = 5, y = 16, w = 2, h = 1 }
  return w, d
end

-- a door's two tiles from its public position (the middle of its edge)
local function door_tiles(d)
  local px, py = d:position()
  if d.w == 2 then
    local x = math.floor(px + 0.5) - 1
    return x, math.floor(py), x + 1, math.floor(py)
  end
  local y = math.floor(py + 0.5) - 1
  return math.floor(px), y, math.floor(px), y + 1
end

-- the doors a person passes following world:best_door from door to door
local function world_chain(w, sx, sy, gx, gy)
  local out = {}
  for _ = 1, 64 do
    local id, why = w:best_door(sx, sy, gx, gy)
    if not id then return out, why end
    out[#out + 1] = id
    local x1, y1, x2, y2 = door_tiles(w:object(id))
    if w:part_at(sx, sy) == w:part_at(x1 + 0.5, y1 + 0.5) then
      sx, sy = x2 + 0.5, y2 + 0.5
    else
      sx, sy = x1 + 0.5, y1 + 0.5
    end
  end
  error("the world's doors lead in a loop")
end

describe("graphs of house worlds", function()
  it("turns every door into a link carrying its id and portal tree", function()
    local w, d = four_rooms()
    w:add_tree("slow_door", wayfinder.world.standard_door_tree())
    w:set_portal_tree(d.B.id, "slow_door")
    local g, info = graph.from_world(w)
    assert.are.equal(5, #info.doors)
    local seen = {}
    for _, e in ipairs(info.doors) do
      local p = g:portal(e.link)
      local door = w:object(e.door)
      assert.are.equal("door", p.kind)
      assert.are.same({ door = door.id }, p.data)
      assert.are.equal(door.portal_tree, p.action)
      assert.is_false(p.one_way)
      -- the link joins the door's two tiles, in two rooms
      local x1, y1, x2, y2 = door_tiles(door)
      assert.are.same({ x1 + 0.5, y1 + 0.5 }, p.from)
      assert.are.same({ x2 + 0.5, y2 + 0.5 }, p.to)
      assert.are_not.equal(w:room_at(x1 + 0.5, y1 + 0.5), w:room_at(x2 + 0.5, y2 + 0.5))
      seen[door.id] = p.action
    end
    assert.are.equal("slow_door", seen[d.B.id])
    assert.are.equal("wayfinder.door", seen[d.A.id])
    -- every sector lies in one room
    for k = 1, g:sector_count() do
      local s = g:sector(k)
      local room = w:room_at(s.x0 + 0.5, s.y0 + 0.5)
      for y = s.y0, s.y1 - 1 do
        for x = s.x0, s.x1 - 1 do assert.are.equal(room, w:room_at(x + 0.5, y + 0.5)) end
      end
    end
  end)

  it("passes the doors the world chooses on the reference's house", function()
    local w, d = four_rooms()
    local g = graph.from_world(w)
    local r = assert(g:find_path(4.5, 23.5, 6.5, 1.5))
    assert.are.same({ d.C.id, d.A.id }, graph.doors_of(r))
    assert.are.same(world_chain(w, 4.5, 23.5, 6.5, 1.5), graph.doors_of(r))
    local pairs_ = { { 0.5, 0.5, 2.5, 22.5 }, { 0.5, 0.5, 10.5, 23.5 }, { 11.5, 24.5, 6.5, 1.5 },
      { 11.5, 24.5, 1.5, 14.5 }, { 3.5, 17.5, 10.5, 23.5 }, { 4.5, 23.5, 3.5, 17.5 },
      { 3.5, 17.5, 10.5, 15.5 }, { 11.5, 24.5, 2.5, 22.5 } }
    for _, q in ipairs(pairs_) do
      local got = assert(g:find_path(q[1], q[2], q[3], q[4]))
      local want = world_chain(w, q[1], q[2], q[3], q[4])
      assert.is_true(#want > 0)
      assert.are.same(want, graph.doors_of(got),
        ("(%s, %s) to (%s, %s)"):format(q[1], q[2], q[3], q[4]))
    end
    -- the corridor names the portal tree to run at each door
    for _, c in ipairs(r.corridor) do
      if c.kind == "door" then assert.are.equal("wayfinder.door", c.action) end
    end
  end)

  it("leaves out locked doors as the world does, and reads the world only", function()
    local w, d = four_rooms()
    w:set_locked(d.C.id, true)
    local before = w:save()
    local g, info = graph.from_world(w)
    assert.are.same(before, w:save())
    assert.are.same({ { door = d.C.id, reason = "locked" } }, info.skipped)
    local r = assert(g:find_path(4.5, 23.5, 6.5, 1.5))
    local doors = graph.doors_of(r)
    assert.are.same(world_chain(w, 4.5, 23.5, 6.5, 1.5), doors)
    for _, id in ipairs(doors) do assert.are_not.equal(d.C.id, id) end
    -- with D locked too the bottom-left room is cut off, for both
    w:set_locked(d.D.id, true)
    local g2 = graph.from_world(w)
    local r2, why = g2:find_path(4.5, 23.5, 6.5, 1.5)
    assert.is_nil(r2)
    assert.are.equal("unreachable", why)
    assert.are.equal("no_door", select(2, w:best_door(4.5, 23.5, 6.5, 1.5)))
  end)

  it("agrees with the world on reachability and with Dijkstra on cost (random houses)",
    function()
      local compared, reached = 0, 0
      for seed = 1, 12 do
        local w = gen.generate { rooms_x = 2 + seed % 2, rooms_y = 2, room_w = 4, room_h = 4,
          seed = seed, extra_doors = 20, furniture = 2 }
        local doors = w:doors()
        if seed % 3 == 0 then w:set_locked(doors[1 + seed % #doors].id, true) end
        local g = graph.from_world(w)
        local rng = gen.rng(seed)
        for _ = 1, 12 do
          local sx, sy = rng(w.width) - 0.5, rng(w.height) - 0.5
          local gx, gy = rng(w.width) - 0.5, rng(w.height) - 0.5
          if g:sector_at(sx, sy) and g:sector_at(gx, gy) then
            local r = g:find_path(sx, sy, gx, gy)
            local id, why = w:best_door(sx, sy, gx, gy)
            local world_reaches = id ~= nil or why == "same_part"
            assert.are.equal(world_reaches, r ~= nil,
              ("seed %d (%s, %s) to (%s, %s)"):format(seed, sx, sy, gx, gy))
            local want = brute.solve(g, sx, sy, gx, gy, { ground = 1 }, 1, 0)
            if r then
              reached = reached + 1
              assert.are.equal(want, r.cost_units)
            else
              assert.is_nil(want)
            end
            compared = compared + 1
          end
        end
      end
      assert.is_true(compared > 50 and reached > 25, compared .. " " .. reached)
    end)

  it("rejects what is not a world and bad options", function()
    local w = four_rooms()
    assert.has_error(function() graph.from_world(42) end,
      "wayfinder.graph.from_world: world must be a wayfinder world, got 42")
    assert.has_error(function() graph.from_world(w, { speed = 1 }) end,
      "wayfinder.graph.from_world: unknown options key 'speed'")
    assert.has_error(function() graph.from_world(w, { door_cost = -1 }) end,
      "wayfinder.graph.from_world: options.door_cost must be a number in [0, 1000000], got -1")
    assert.has_error(function() graph.from_world(w, { kind = "" }) end,
      "wayfinder.graph.from_world: options.kind must be a non-empty string of at most 64 "
        .. "bytes, got ''")
  end)
end)
