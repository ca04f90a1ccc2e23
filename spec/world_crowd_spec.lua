-- Crowds in house worlds (options.avoidance = "sidestep", docs/world.md
-- "Crowds"): people meeting head-on in a room or a corridor pass each
-- other, a person standing on another's goal is shoved aside, people
-- crossing a one-tile door both ways all arrive. Every tick: no two
-- people's squares overlap and no square overlaps a wall edge other than
-- an open door or leaves the world. Runs are repeatable, and a saved world
-- goes on exactly as the original.
local world = require("wayfinder.world")
local prng = require("support.prng")

local tick_check = require("support.house_tick_check")
local trace = tick_check.trace

local function done(p)
  return p:state().last_result ~= nil and not p:walking()
end

-- Ticks until every person in `people` has a result or `limit` ticks
-- passed, checking the invariants each tick; returns the ticks used.
local function run(w, people, walls, limit)
  return tick_check.run_until(w, walls, limit, function()
    for _, p in ipairs(people) do
      if not done(p) then return false end
    end
    return true
  end) or limit
end

-- Two people starting at the two ends of a room `height` tiles high, on the
-- same row, each walking to the other's start.
local function head_on(height, avoidance)
  local w = world.new { width = 12, height = height, avoidance = avoidance }
  local y = math.floor((height - 1) / 2) + 0.5
  local a = w:add_person { x = 1.5, y = y, speed = 0.2 }
  local b = w:add_person { x = 10.5, y = y, speed = 0.2 }
  a:route_to(10.5, y)
  b:route_to(1.5, y)
  return w, a, b
end

describe("house crowds (avoidance = 'sidestep')", function()
  for _, height in ipairs({ 5, 2, 3 }) do
    local what = height == 5 and "an open room" or ("a corridor %d tiles wide"):format(height)
    it("two people head-on in " .. what .. " both arrive", function()
      local w, a, b = head_on(height, "sidestep")
      local ticks = run(w, { a, b }, {}, 300)
      assert.are.equal("success", a:state().last_result)
      assert.are.equal("success", b:state().last_result)
      local ax, ay = a:position()
      local bx, by = b:position()
      assert.are.same({ 10.5, height == 5 and 2.5 or (height == 2 and 0.5 or 1.5) }, { ax, ay })
      assert.are.same({ 1.5, height == 5 and 2.5 or (height == 2 and 0.5 or 1.5) }, { bx, by })
      -- 9 tiles at 0.2 a tick take 45 ticks; the detour costs a few more
      assert.is_true(ticks <= 80, "took " .. ticks .. " ticks")
    end)

    it("without avoidance the same pair in " .. what .. " gets stuck (the old behaviour)",
      function()
        local w, a, b = head_on(height, nil)
        run(w, { a, b }, {}, 300)
        assert.are.equal("out_of_tries", a:last_failure())
        assert.are.equal("out_of_tries", b:last_failure())
      end)
  end

  it("shoves a person standing on another's goal aside, and the route succeeds", function()
    for _, mode in ipairs({ "sidestep", "none" }) do
      local w = world.new { width = 10, height = 5, avoidance = mode }
      local a = w:add_person { x = 1.5, y = 2.5, speed = 0.2 }
      local idle = w:add_person { x = 7.5, y = 2.5, speed = 0.2 }
      a:route_to(7.5, 2.5)
      run(w, { a }, {}, 300)
      if mode == "sidestep" then
        assert.are.equal("success", a:state().last_result)
        assert.are.same({ 7.5, 2.5 }, { a:position() })
        local ix, iy = idle:position()
        assert.is_true(ix ~= 7.5 or iy ~= 2.5)
      else
        assert.are.equal("failure", a:state().last_result)
        assert.are.same({ 7.5, 2.5 }, { idle:position() })
      end
    end
  end)

  it("never shoves anybody through a door", function()
    -- a person stands in the doorway on its own side; the walker comes from
    -- the same side and wants that spot
    local w = world.new { width = 8, height = 3, avoidance = "sidestep" }
    w:add_wall(4, 0, 4, 3)
    w:add_object { type = "door", x = 3, y = 1, w = 2, h = 1 }
    local idle = w:add_person { x = 3.5, y = 1.5 }
    local a = w:add_person { x = 0.5, y = 1.5, speed = 0.2 }
    a:route_to(3.5, 1.5)
    local walls = { { true, 4, 0 }, { true, 4, 2 } }
    run(w, { a }, walls, 300)
    local ix = idle:position()
    assert.is_true(ix < 4, "the idle person went through the door")
  end)

  -- Two rooms 6 x 5 with one door (a one-tile gap) between them, n people
  -- in each, every one walking to a spot in the other room.
  local function door_crowd(n, mode)
    local w = world.new { width = 12, height = 5, avoidance = mode }
    w:add_wall(6, 0, 6, 5)
    w:add_object { type = "door", x = 5, y = 2, w = 2, h = 1 }
    local walls = {}
    for r = 0, 4 do
      if r ~= 2 then walls[#walls + 1] = { true, 6, r } end
    end
    local rng = prng.new(77)
    local people, goals = {}, {}
    local spots = {}
    for x = 0, 5 do
      for y = 0, 4 do spots[#spots + 1] = { x, y } end
    end
    -- shuffle the spots of a room deterministically
    for k = #spots, 2, -1 do
      local j = rng.int(1, k)
      spots[k], spots[j] = spots[j], spots[k]
    end
    local used = 0
    for side = 0, 1 do
      for k = 1, n do
        local s = spots[k]
        local g = spots[#spots - k + 1]
        local x = s[1] + 0.5 + side * 6
        local gx = g[1] + 0.5 + (1 - side) * 6
        local p = w:add_person { x = x, y = s[2] + 0.5, speed = 0.2 }
        used = used + 1
        people[#people + 1] = p
        goals[p.id] = { gx, g[2] + 0.5 }
      end
    end
    for _, p in ipairs(people) do
      p:route_to(goals[p.id][1], goals[p.id][2], { max_tries = 20 })
    end
    return w, people, walls, goals
  end

  it("people through a one-tile door both ways all arrive within 900 ticks", function()
    local n = 3
    local w, people, walls, goals = door_crowd(n, "sidestep")
    local ticks = run(w, people, walls, 900)
    assert.is_true(ticks < 900, "still going after 900 ticks")
    local arrived = 0
    for _, p in ipairs(people) do
      if p:state().last_result == "success" then
        local x, y = p:position()
        local g = goals[p.id]
        assert.is_true(math.abs(x - g[1]) <= 1 and math.abs(y - g[2]) <= 1)
        arrived = arrived + 1
      end
    end
    assert.are.equal(#people, arrived)
    -- every person crossed the door: it now stands in the other room
    for k, p in ipairs(people) do
      local x = p:position()
      if k <= n then assert.is_true(x > 6) else assert.is_true(x < 6) end
    end
  end)

  it("identical runs give identical traces", function()
    local w1 = door_crowd(5, "sidestep")
    local w2 = door_crowd(5, "sidestep")
    local h1, h2 = trace(w1, 400), trace(w2, 400)
    assert.are.equal(prng.hex(h1), prng.hex(h2))
    -- and the option matters: the run without avoidance goes otherwise
    local w3 = door_crowd(5, nil)
    assert.are_not.equal(prng.hex(h1), prng.hex(trace(w3, 400)))
  end)

  it("a saved crowd goes on exactly as the original", function()
    local w = door_crowd(5, "sidestep")
    for _ = 1, 60 do w:tick() end
    local saved = w:save()
    assert.are.equal("sidestep", saved.avoidance)
    local copy = world.load(saved, {})
    assert.are.equal("sidestep", copy.walker:avoidance())
    assert.are.equal(prng.hex(trace(w, 300)), prng.hex(trace(copy, 300)))
  end)

  it("keeps saves of worlds without avoidance as they were", function()
    local w = world.new { width = 4, height = 4 }
    assert.is_nil(w:save().avoidance)
    assert.are.equal("none", w.walker:avoidance())
    local w2 = world.new { width = 4, height = 4, avoidance = "none" }
    assert.is_nil(w2:save().avoidance)
  end)

  it("rejects bad avoidance modes", function()
    for _, bad in ipairs({ "velocity", 1, true, "" }) do
      local ok, msg = pcall(world.new, { width = 4, height = 4, avoidance = bad })
      assert.is_false(ok)
      assert.matches("wayfinder.world.new: options.avoidance must be 'none' or 'sidestep'",
        msg, 1, true)
    end
    local w = world.new { width = 4, height = 4 }
    local ok, msg = pcall(w.walker.set_avoidance, w.walker, "fast")
    assert.is_false(ok)
    assert.matches("walker:set_avoidance: mode must be 'none' or 'sidestep', got fast", msg, 1,
      true)
    assert.are.equal("none", w.walker:avoidance())
  end)
end)
