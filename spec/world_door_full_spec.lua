-- Full rooms (docs/world.md, "Door queues"): with options.door_flow =
-- "queue", a door lets nobody into a part that holds a person for every
-- TILES_PER_PERSON of its tiles, unless they come from a part holding as
-- many people or more; those inside still leave. Every tick: no overlap,
-- nobody on a wall or out of the world. Repeated runs and a saved run go
-- on alike.
local world = require("wayfinder.world")
local prng = require("support.prng")
local reservations = require("wayfinder.world.reservations")

local tick_check = require("support.house_tick_check")
local broken, trace = tick_check.broken, tick_check.trace

-- Two rooms: the left one 4 x 4 (16 tiles), the right one 6 x 4, one door
-- (tiles (3, 1) and (4, 1)) in the wall x = 4 between them. `inside`
-- people stand idle in the left room away from the door; `extra` more
-- stand idle in the right room.
local function rooms(flow, inside, extra)
  local w = world.new { width = 10, height = 4, avoidance = "sidestep", door_flow = flow }
  w:add_wall(4, 0, 4, 4)
  local door = w:add_object { type = "door", x = 3, y = 1, w = 2, h = 1 }
  local walls = {}
  for r = 0, 3 do
    if r ~= 1 then walls[#walls + 1] = { true, 4, r } end
  end
  local spots = { { 0.5, 3.5 }, { 1.5, 3.5 }, { 2.5, 3.5 }, { 0.5, 0.5 }, { 0.5, 2.5 } }
  local idle = {}
  for k = 1, inside do
    idle[k] = w:add_person { x = spots[k][1], y = spots[k][2], speed = 0.2 }
  end
  local right = { { 9.5, 3.5 }, { 8.5, 3.5 }, { 7.5, 3.5 }, { 9.5, 0.5 }, { 9.5, 2.5 } }
  for k = 1, extra do
    w:add_person { x = right[k][1], y = right[k][2], speed = 0.2 }
  end
  return w, door, idle, walls
end

local function holds(w, door, p)
  local r = w:reservation(door.id)
  for _, id in ipairs(r and r.holders or {}) do
    if id == p.id then return true end
  end
  return false
end

-- Ticks w up to `limit` ticks, checking the invariants; returns the tick
-- person p's route ended on (nil when it did not) and whether p ever held
-- the door.
local function run(w, door, walls, p, limit)
  local held = false
  for t = 1, limit do
    w:tick()
    local msg = broken(w, walls)
    assert(msg == nil, msg)
    if holds(w, door, p) then held = true end
    if p:state().last_result then return t, held end
  end
  return nil, held
end

describe("full rooms (door_flow = 'queue')", function()
  it("counts a person for every four tiles as full", function()
    assert.are.equal(4, reservations.TILES_PER_PERSON)
  end)

  it("let nobody in from a room with fewer people, and let them in once one leaves", function()
    local w, door, idle, walls = rooms("queue", 4, 0)
    local p = w:add_person { x = 8.5, y = 1.5, speed = 0.2 }
    p:route_to(1.5, 1.5)
    local ended, held = run(w, door, walls, p, 150)
    assert.is_nil(ended)                  -- still waiting
    assert.is_false(held)                 -- never admitted
    assert.is_true(p:position() > 4)      -- still in the right room
    w:remove_object(idle[4].id)           -- three left: 12 of 16 tiles
    ended, held = run(w, door, walls, p, 300)
    assert.is_truthy(ended)
    assert.is_true(held)
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ 1.5, 1.5 }, { p:position() })
  end)

  it("let those inside a full room leave", function()
    local w, door, _, walls = rooms("queue", 4, 0)
    local p = w:add_person { x = 1.5, y = 1.5, speed = 0.2 }
    p:route_to(8.5, 1.5)
    local ended, held = run(w, door, walls, p, 200)
    assert.is_truthy(ended)
    assert.is_true(held)
    assert.are.equal("success", p:state().last_result)
  end)

  it("let people in from a room holding as many or more", function()
    -- the right room holds the walker and four more: five against four
    local w, door, _, walls = rooms("queue", 4, 4)
    local p = w:add_person { x = 8.5, y = 1.5, speed = 0.2 }
    p:route_to(1.5, 1.5)
    local ended, held = run(w, door, walls, p, 200)
    assert.is_truthy(ended)
    assert.is_true(held)
    assert.are.equal("success", p:state().last_result)
  end)

  it("is the door flow's: without it the same person walks in", function()
    local w, door, _, walls = rooms(nil, 4, 0)
    local p = w:add_person { x = 8.5, y = 1.5, speed = 0.2 }
    p:route_to(1.5, 1.5)
    local ended, held = run(w, door, walls, p, 200)
    assert.is_truthy(ended)
    assert.is_true(held)
    assert.are.equal("success", p:state().last_result)
  end)

  it("identical runs give identical traces, and a saved run goes on as the original",
    function()
      local function scene()
        local w, _, idle = rooms("queue", 4, 0)
        local p = w:add_person { x = 8.5, y = 1.5, speed = 0.2 }
        p:route_to(1.5, 1.5)
        return w, idle
      end
      local a, idle = scene()
      local b = scene()
      assert.are.equal(prng.hex(trace(a, 40)), prng.hex(trace(b, 40)))
      local copy = world.load(a:save(), {})
      a:remove_object(idle[4].id)
      copy:remove_object(idle[4].id)
      assert.are.equal(prng.hex(trace(a, 200)), prng.hex(trace(copy, 200)))
    end)
end)
