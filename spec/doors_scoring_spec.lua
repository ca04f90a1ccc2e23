-- Door scoring for room-to-room routes: the reference's worked example,
-- tie rules, MAXSCORE, locks and penalties, the faithful recursion against
-- the best-first propagation on many random houses, parts of rooms, and
-- route ids.
local compat = require("wayfinder.compat")
local world = require("wayfinder.world")
local house = require("support.house_gen")
local example = require("support.house_example")

local GX, GY = example.GOAL[1], example.GOAL[2]
local SX, SY = example.START[1], example.START[2]

local function best(w, ...)
  local id, value = w:best_door(...)
  return { id, value }
end

local function by_label(w, scores)
  local out = {}
  for _, d in ipairs(w:doors()) do out[d.label] = scores[d.id] end
  return out
end

-- The doors whose portal frames a person pushes while ticking.
local function portal_trail(w, p, ticks)
  local trail = {}
  for _ = 1, ticks do
    w:tick()
    for _, f in ipairs(p:frame_stack()) do
      if f.portal and trail[#trail] ~= f.portal then trail[#trail + 1] = f.portal end
    end
    if #p:frame_stack() == 0 then break end
  end
  local labels = {}
  for k, id in ipairs(trail) do labels[k] = w:object(id).label end
  return labels
end

describe("the worked example (MAXSCORE 100)", function()
  for _, prop in ipairs({ "best_first", "recursive" }) do
    it("scores A 90, B 90, C 81, D 81, E 85 with " .. prop, function()
      local w = example.build()
      local scores = w:door_scores(GX, GY, { propagation = prop })
      assert.are.same({ A = 90, B = 90, C = 81, D = 81, E = 85 }, by_label(w, scores))
    end)

    it("chooses C over D by object order after subtracting the start distance, " .. prop,
      function()
        local w, d = example.build()
        assert.are.same({ d.C.id, 78 }, best(w, SX, SY, GX, GY, { propagation = prop }))
      end)
  end

  it("visits each door once best-first, where the recursion makes 30 visits", function()
    local w = example.build()
    assert.are.equal(5, select(2, w:door_scores(GX, GY, { propagation = "best_first" })))
    assert.are.equal(30, select(2, w:door_scores(GX, GY, { propagation = "recursive" })))
  end)

  it("takes D when D comes first in the object list", function()
    local w = world.new { width = 12, height = 25, max_score = 100 }
    w:add_wall(0, 12, 12, 12)
    w:add_wall(6, 12, 6, 20)
    w:add_wall(0, 20, 7, 20)
    w:add_wall(7, 20, 7, 25)
    local D = w:add_object { type = "door", x = 6, y = 20, w = 2, h = 1 }
    w:add_object { type = "door", x = 3, y = 19, w = 1, h = 2 }
    w:add_object { type = "door", x = 4, y = 11, w = 1, h = 2 }
    w:add_object { type = "door", x = 7, y = 11, w = 1, h = 2 }
    w:add_object { type = "door", x = 5, y = 16, w = 2, h = 1 }
    assert.are.same({ D.id, 78 }, best(w, SX, SY, GX, GY))
  end)

  it("routes a person from the start through C, then A", function()
    local w, d = example.build()
    local p = w:add_person { x = SX, y = SY }
    p:route_to(GX, GY)
    assert.are.same({ "C", "A" }, portal_trail(w, p, 200))
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ GX, GY }, { p:position() })
    assert.are.equal(0, w:door_score(d.C.id, 1) - 81) -- the score table of route id 1
  end)

  it("scales with MAXSCORE", function()
    local w = example.build { max_score = 1000 }
    assert.are.same({ A = 990, B = 990, C = 981, D = 981, E = 985 },
      by_label(w, w:door_scores(GX, GY)))
  end)
end)

describe("improvements over the reference", function()
  it("leaves locked doors out of the best-first scores; the recursion keeps them", function()
    local w, d = example.build()
    w:set_locked(d.C.id, true)
    assert.are.same({ A = 90, B = 90, C = 0, D = 81, E = 85 },
      by_label(w, w:door_scores(GX, GY)))
    assert.are.same({ d.D.id, 78 }, best(w, SX, SY, GX, GY))
    assert.are.same({ A = 90, B = 90, C = 81, D = 81, E = 85 },
      by_label(w, w:door_scores(GX, GY, { propagation = "recursive" })))
  end)

  it("subtracts per-door penalties in the best-first propagation", function()
    local w, d = example.build()
    w:set_penalty(d.C.id, 5)
    w:set_penalty(d.A.id, 2)
    -- C: best through E now, 85 - 4 - 1 - 5
    assert.are.same({ A = 88, B = 90, C = 75, D = 81, E = 85 },
      by_label(w, w:door_scores(GX, GY)))
    assert.are.same({ d.D.id, 78 }, best(w, SX, SY, GX, GY))
  end)

  it("keeps people inside the house when the side doors outside carry a penalty", function()
    -- two rooms side by side, joined by an inner door far from the goal and
    -- by a door each to the outdoor strip on the north, close to the start
    local w = world.new { width = 11, height = 10 }
    w:add_wall(0, 2, 11, 2)
    w:add_wall(5, 2, 5, 10)
    local inner = w:add_object { type = "door", x = 4, y = 9, w = 2, h = 1 }
    local out1 = w:add_object { type = "door", x = 3, y = 1, w = 1, h = 2 }
    local out2 = w:add_object { type = "door", x = 7, y = 1, w = 1, h = 2 }
    local M = w.max_score
    assert.are.same({ out1.id, M - 9 }, best(w, 0.5, 2.5, 7.5, 3.5))
    w:set_penalty(out1.id, 20)
    w:set_penalty(out2.id, 20)
    assert.are.same({ inner.id, M - 14 }, best(w, 0.5, 2.5, 7.5, 3.5))
  end)

  it("gives the same scores and choices both ways on many random houses", function()
    local compared = 0
    for seed = 1, 30 do
      local w, info = house.generate { rooms_x = 2 + seed % 3, rooms_y = 2 + (compat.idiv(seed, 3)) % 3,
        room_w = 3 + seed % 4, room_h = 3 + seed % 5, seed = seed, extra_doors = 60,
        furniture = seed % 4, exterior_doors = seed % 3 }
      local rng = house.rng(seed * 31)
      local W, H = w.width, w.height
      for _ = 1, 8 do
        local gx, gy = rng(W) - 0.5, rng(H) - 0.5
        if w:part_at(gx, gy) then
          local a = w:door_scores(gx, gy, { propagation = "best_first" })
          local b = w:door_scores(gx, gy, { propagation = "recursive" })
          assert.are.same(b, a)
          for _ = 1, 4 do
            local sx, sy = rng(W) - 0.5, rng(H) - 0.5
            if w:part_at(sx, sy) then
              local x = { w:best_door(sx, sy, gx, gy, { propagation = "best_first" }) }
              local y = { w:best_door(sx, sy, gx, gy, { propagation = "recursive" }) }
              assert.are.same({ y[1], y[2] }, { x[1], x[2] })
              compared = compared + 1
            end
          end
        end
      end
      assert.is_true(#info.doors > 0)
    end
    assert.is_true(compared > 300, "compared " .. compared .. " choices")
  end)
end)

describe("parts of rooms", function()
  -- room 1 (y < 3) is cut in two by a shelf along x = 3; room 2 below it
  -- joins both halves through one door each
  local function cut_house()
    local w = world.new { width = 7, height = 6 }
    w:add_wall(0, 3, 7, 3)
    w:add_object { type = "shelf", x = 3, y = 0, w = 1, h = 3 }
    local left = w:add_object { type = "door", x = 1, y = 2, w = 1, h = 2 }
    local right = w:add_object { type = "door", x = 5, y = 2, w = 1, h = 2 }
    return w, left, right
  end

  it("scores doors per part, so a cut room is left by one door and entered by another",
    function()
      local w, left, right = cut_house()
      assert.are.same({ 2, 3 }, { w:room_count() })
      assert.are.same({ left.id }, { (w:best_door(0.5, 0.5, 6.5, 0.5)) })
      local p = w:add_person { x = 0.5, y = 0.5 }
      p:route_to(6.5, 0.5)
      local trail = {}
      for _ = 1, 200 do
        w:tick()
        local frames = p:frame_stack()
        local f = frames[#frames]
        if f and f.portal and trail[#trail] ~= f.portal then trail[#trail + 1] = f.portal end
        if #p:frame_stack() == 0 then break end
      end
      assert.are.same({ left.id, right.id }, trail)
      assert.are.equal("success", p:state().last_result)
      assert.are.same({ 6.5, 0.5 }, { p:position() })
    end)
end)

describe("route ids", function()
  it("take the lowest id no person holds, and give it back on arrival", function()
    local w = example.build()
    local p = w:add_person { x = SX, y = SY }
    local q = w:add_person { x = 1.5, y = 23.5 }
    p:route_to(GX, GY)
    q:route_to(1.5, 1.5)
    w:tick()
    assert.are.same({ 1, 2 }, { p:state().route_id, q:state().route_id })
    assert.are.same({ p.id, q.id }, { w:route_owners()[1], w:route_owners()[2] })
    w:tick(300)
    assert.are.same({ "success", "success" }, { p:state().last_result, q:state().last_result })
    assert.are.same({}, w:route_owners())
    assert.is_nil(p:state().route_id)
  end)

  it("make a person wait when all are taken, without touching the holder's scores", function()
    local w, d = example.build { route_ids = 1 }
    local p = w:add_person { x = SX, y = SY }
    local q = w:add_person { x = 8.5, y = 23.5 } -- room 4
    p:route_to(GX, GY)
    q:route_to(2.5, 15.5) -- room 2
    w:tick()
    assert.are.same({ 1, nil }, { p:state().route_id, q:state().route_id })
    local held = {}
    for _, door in ipairs(w:doors()) do held[door.label] = w:door_score(door.id, 1) end
    assert.are.same({ A = 90, B = 90, C = 81, D = 81, E = 85 }, held)
    local waited = false
    for _ = 1, 400 do
      w:tick()
      if p:state().route_id == 1 then
        -- while p holds id 1, nobody rewrites its table
        assert.are.same({ 90, 90, 85 },
          { w:door_score(d.A.id, 1), w:door_score(d.B.id, 1), w:door_score(d.E.id, 1) })
      end
      if q:state().stats.waits > 0 and not q:state().route_id then waited = true end
      if #p:frame_stack() == 0 and #q:frame_stack() == 0 then break end
    end
    assert.is_true(waited)
    assert.are.same({ "success", "success" }, { p:state().last_result, q:state().last_result })
    assert.are.same({ 2.5, 15.5 }, { q:position() })
  end)
end)

describe("door scoring input", function()
  it("rejects bad goals and options", function()
    local w = example.build()
    assert.has_error(function() w:door_scores(13, 1) end,
      "world:door_scores: gx must be a number in [0, 12], got 13")
    assert.has_error(function() w:door_scores(1, 1, { propagation = "bfs" }) end,
      "world:door_scores: options.propagation must be 'best_first' or 'recursive', got 'bfs'")
    assert.has_error(function() w:door_scores(1, 1, { order = 1 }) end,
      "world:door_scores: unknown options key 'order'")
    assert.are.same({ nil, "same_part" }, best(w, 1.5, 1.5, GX, GY))
    assert.has_error(function() w:best_door(-1, 1, GX, GY) end,
      "world:best_door: sx must be a number in [0, 12], got -1")
  end)
end)
