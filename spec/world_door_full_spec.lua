-- Full rooms (docs/world.md, "Door queues"): with options.door_flow =
-- "queue", a door lets nobody into a part that holds a person for every
-- TILES_PER_PERSON of its tiles while someone in it holds or waits for one
-- of its doors, unless they come from a part holding as many people or
-- more; those inside still leave, and a room where people gather (nobody
-- leaving) still fills. Every tick: no overlap, nobody on a wall or out of
-- the world. Repeated runs and a saved run go on alike.
local world = require("wayfinder.world")
local bt = require("wayfinder.bt")
local prng = require("support.prng")
local reservations = require("wayfinder.world.reservations")

local tick_check = require("support.house_tick_check")
local broken, trace = tick_check.broken, tick_check.trace

local ROOM_TILES = 16
-- people that make the small room full
local FULL = math.ceil(ROOM_TILES / reservations.TILES_PER_PERSON)

-- Three rooms: the small one at the top left (4 x 4, 16 tiles), one below
-- it (4 x 4) and one on the right (6 x 8). Door A (tiles (3, 1) and
-- (4, 1)) joins the small room and the right one, door B (tiles (1, 3)
-- and (1, 4)) the small room and the one below. The small room holds
-- FULL people: with `leaving`, the first of them holds door B (as one
-- about to leave that way), the others stand idle; `extra` more stand
-- idle in the right room.
local function hold_tree()
  return bt.sequence { bt.reserve_portal(), bt.wait(100000) }
end

local function rooms(flow, leaving, extra)
  local w = world.new { width = 10, height = 8, avoidance = "sidestep", door_flow = flow }
  w:add_wall(4, 0, 4, 8)
  w:add_wall(0, 4, 4, 4)
  local a = w:add_object { type = "door", x = 3, y = 1, w = 2, h = 1 }
  local b = w:add_object { type = "door", x = 1, y = 3, w = 1, h = 2 }
  w:add_tree("hold", hold_tree())
  local walls = {}
  for r = 0, 7 do
    if r ~= 1 then walls[#walls + 1] = { true, 4, r } end
  end
  for c = 0, 3 do
    if c ~= 1 then walls[#walls + 1] = { false, c, 4 } end
  end
  local spots = { { 1.5, 2.5 }, { 0.5, 0.5 }, { 2.5, 3.5 }, { 3.5, 3.5 }, { 0.5, 2.5 } }
  local inside = {}
  for k = 1, FULL do
    inside[k] = w:add_person { x = spots[k][1], y = spots[k][2], speed = 0.2 }
  end
  if leaving then inside[1]:push("hold", b.id) end
  local right = { { 9.5, 7.5 }, { 8.5, 7.5 }, { 7.5, 7.5 }, { 9.5, 5.5 }, { 9.5, 6.5 },
    { 8.5, 6.5 } }
  for k = 1, extra do
    w:add_person { x = right[k][1], y = right[k][2], speed = 0.2 }
  end
  return w, a, inside, walls
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

-- A person in the right room walking into the small room.
local function walk_in(w)
  local p = w:add_person { x = 8.5, y = 1.5, speed = 0.2 }
  p:route_to(2.5, 1.5)
  return p
end

-- Runs the scene until p's route ends (200 ticks at most) and checks that
-- p held the door and arrived.
local function crosses(w, a, walls, p)
  local ended, held = run(w, a, walls, p, 200)
  assert.is_truthy(ended)
  assert.is_true(held)
  assert.are.equal("success", p:state().last_result)
end

describe("full rooms (door_flow = 'queue')", function()
  it("count a person for every eight tiles as full", function()
    assert.are.equal(8, reservations.TILES_PER_PERSON)
    assert.are.equal(2, FULL)
  end)

  it("let nobody in while someone inside is leaving, and let them in once one is gone",
    function()
      local w, a, inside, walls = rooms("queue", true, 0)
      local p = walk_in(w)
      local ended, held = run(w, a, walls, p, 150)
      assert.is_nil(ended)                  -- still waiting
      assert.is_false(held)                 -- never admitted
      assert.is_true(p:position() > 4)      -- still in the right room
      w:remove_object(inside[FULL].id)      -- one fewer: no longer full
      ended, held = run(w, a, walls, p, 300)
      assert.is_truthy(ended)
      assert.is_true(held)
      assert.are.equal("success", p:state().last_result)
      assert.are.same({ 2.5, 1.5 }, { p:position() })
    end)

  it("let people into a full room where nobody is leaving (a crowd gathering)", function()
    local w, a, _, walls = rooms("queue", false, 0)
    crosses(w, a, walls, walk_in(w))
  end)

  it("let those inside a full room leave", function()
    local w, a, inside, walls = rooms("queue", true, 0)
    local p = inside[2]
    p:route_to(8.5, 1.5)
    crosses(w, a, walls, p)
  end)

  it("let people in from a room holding as many or more", function()
    -- the right room holds the walker and FULL more
    local w, a, _, walls = rooms("queue", true, FULL)
    crosses(w, a, walls, walk_in(w))
  end)

  it("is the door flow's: without it the same person walks in", function()
    local w, a, _, walls = rooms(nil, true, 0)
    crosses(w, a, walls, walk_in(w))
  end)

  it("identical runs give identical traces, and a saved run goes on as the original",
    function()
      local function scene()
        local w, _, inside = rooms("queue", true, 0)
        walk_in(w)
        return w, inside
      end
      local a, inside = scene()
      local b = scene()
      assert.are.equal(prng.hex(trace(a, 40)), prng.hex(trace(b, 40)))
      local copy = world.load(a:save(), { hold = hold_tree() })
      a:remove_object(inside[FULL].id)
      copy:remove_object(inside[FULL].id)
      assert.are.equal(prng.hex(trace(a, 200)), prng.hex(trace(copy, 200)))
    end)
end)
