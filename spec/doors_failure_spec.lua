-- The failure protocol of room-to-room routes: a portal tree that fails
-- sets the trap count to minus the door's id (and failed_portal); Goto
-- Relative zeroes that door's score for its route id and takes the next
-- best door, or fails the route. Every failure path: locked doors, doors
-- removed mid-route, portal trees raising errors, no door, route id
-- exhaustion.
local world = require("wayfinder.world")
local bt = require("wayfinder.bt")
local example = require("support.house_example")

local GX, GY = example.GOAL[1], example.GOAL[2]
local SX, SY = example.START[1], example.START[2]

-- Ticks until the person is idle; returns the labels of the doors whose
-- portal frames it pushed, in order.
local function run(w, p, ticks, each)
  local trail = {}
  for t = 1, ticks do
    w:tick()
    if each then each(t) end
    for _, f in ipairs(p:frame_stack()) do
      if f.portal and trail[#trail] ~= f.portal then trail[#trail + 1] = f.portal end
    end
    if #p:frame_stack() == 0 then break end
  end
  local labels = {}
  for k, id in ipairs(trail) do
    local d = w:object(id)
    labels[k] = d and d.label or id
  end
  return labels
end

describe("a locked door", function()
  it("is tried by the faithful routing, fails with locked, and the next door is taken",
    function()
      local w, d = example.build { propagation = "recursive" }
      -- the standard tree, watched: after it fails, read the protocol fields
      local seen = {}
      w:add_tree("watched", bt.fallback {
        world.standard_door_tree(),
        bt.action(function(ctx)
          seen[#seen + 1] = { ctx.person.trap_count, ctx.person.failed_portal }
          return false
        end),
      })
      for _, door in ipairs(w:doors()) do w:set_portal_tree(door.id, "watched") end
      w:set_locked(d.C.id, true)
      local p = w:add_person { x = SX, y = SY }
      p:route_to(GX, GY)
      local zeroed = false
      local trail = run(w, p, 300, function()
        local rid = p:state().route_id
        if rid and w:door_score(d.C.id, rid) == 0 then zeroed = true end
      end)
      assert.are.same({ "C", "D", "B" }, trail)
      assert.are.same({ { -d.C.id, d.C.id } }, seen)
      assert.is_true(zeroed)
      assert.are.equal("success", p:state().last_result)
      assert.are.same({ 0, nil }, { p:state().trap_count, p:state().failed_portal })
      assert.are.equal(1, p:state().stats.portal_failures)
      assert.are.same({ GX, GY }, { p:position() })
    end)

  it("is left out by the best-first routing from the start", function()
    local w, d = example.build()
    w:set_locked(d.C.id, true)
    local p = w:add_person { x = SX, y = SY }
    p:route_to(GX, GY)
    assert.are.same({ "D", "B" }, run(w, p, 300))
    assert.are.equal(0, p:state().stats.portal_failures)
  end)

  it("locked while a person walks to it sends the person to the next best door", function()
    local w, d = example.build()
    local p = w:add_person { x = SX, y = SY }
    p:route_to(GX, GY)
    local trail = run(w, p, 300, function(t)
      if t == 3 then w:set_locked(d.C.id, true) end
    end)
    assert.are.same({ "C", "D", "B" }, trail)
    assert.are.equal("locked", p:last_failure())
    assert.are.equal("success", p:state().last_result)
    assert.are.equal(1, p:state().stats.portal_failures)
  end)

  it("fails the route with no_door once every door toward the goal has failed", function()
    local w, d = example.build { propagation = "recursive" }
    w:set_locked(d.C.id, true)
    w:set_locked(d.D.id, true)
    local p = w:add_person { x = SX, y = SY }
    p:route_to(GX, GY)
    assert.are.same({ "C", "D" }, run(w, p, 300))
    assert.are.equal("failure", p:state().last_result)
    assert.are.equal("no_door", p:last_failure())
    assert.are.equal(2, p:state().stats.portal_failures)
    assert.are.same({}, w:route_owners())
  end)
end)

describe("after a portal failure", function()
  -- kitchen (left) and hall (right) above a living room; the hall's door D
  -- to the living room sticks
  local layout = [[
+-+-+-+-+-+-+-+-+-+-+-+-+
|. . . . . .|. . . . . .|
+ + + + + + + + + + + + +
|. . . . . .A. . . . . .|
+ + + + + + + + + + + + +
|. . . . . .|. . . . . .|
+-+C+-+-+-+-+-+-+D+-+-+-+
|. . . . . . . . . . . .|
+ + + + + + + + + + + + +
|. . . . . . . . . . . .|
+ + + + + + + + + + + + +
|. . . . . . . . . . . .|
+-+-+-+-+-+-+-+-+-+-+-+-+
]]
  local function sticky_house(propagation)
    local w = world.from_ascii(layout, { legend = {
      A = { type = "door" }, C = { type = "door" }, D = { type = "door" } },
      world = { propagation = propagation } })
    w:add_tree("sticky", bt.fail_portal())
    for _, d in ipairs(w:doors()) do
      if d.label == "D" then w:set_portal_tree(d.id, "sticky") end
    end
    local p = w:add_person { x = 3.5, y = 0.5 }
    p:route_to(8.5, 5.5)
    return w, p
  end

  it("the best-first scores route round the failed door, even back the way the person came",
    function()
      local w, p = sticky_house("best_first")
      local trail = {}
      for _ = 1, 300 do
        w:tick()
        for _, f in ipairs(p:frame_stack()) do
          if f.portal and trail[#trail] ~= f.portal then trail[#trail + 1] = f.portal end
        end
        if #p:frame_stack() == 0 then break end
      end
      local labels = {}
      for k, id in ipairs(trail) do labels[k] = w:object(id).label end
      -- D fails within its own tick, so it never shows among the frames,
      -- and the two A crossings in a row show once: A, (D), A, C
      assert.are.same({ "A", "C" }, labels)
      assert.are.equal(4, p:state().stats.portals)
      assert.are.equal("success", p:state().last_result)
      assert.are.equal(1, p:state().stats.portal_failures)
      assert.are.same({ 8.5, 5.5 }, { p:position() })
    end)

  it("the recursion only zeroes the door, as the reference does, and here runs out of doors",
    function()
      local w, p = sticky_house("recursive")
      w:tick(300)
      assert.are.equal("failure", p:state().last_result)
      assert.are.equal("no_door", p:last_failure())
      assert.are.equal(1, p:state().stats.portal_failures)
    end)
end)

describe("a door removed mid-route", function()
  it("fails its portal tree with removed and the route goes on by another door", function()
    local w, d = example.build()
    local p = w:add_person { x = SX, y = SY }
    p:route_to(GX, GY)
    local trail = run(w, p, 300, function(t)
      if t == 3 then w:remove_object(d.C.id) end
    end)
    assert.are.same({ 3, "D", "B" }, trail) -- 3: the id of C, gone
    assert.are.equal("removed", p:last_failure())
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ GX, GY }, { p:position() })
  end)
end)

describe("a portal tree raising a Lua error", function()
  it("fails only that person's route, with portal_error, and the world goes on", function()
    local errors = {}
    local w, d = example.build { on_error = function(person, msg)
      errors[#errors + 1] = { person.id, msg }
    end }
    w:add_tree("broken", bt.sequence {
      bt.action(function() error("hinge fell off", 0) end),
    })
    w:set_portal_tree(d.C.id, "broken")
    local p = w:add_person { x = SX, y = SY }
    local q = w:add_person { x = 2.5, y = 14.5 } -- room 2, goes through A
    p:route_to(GX, GY)
    q:route_to(1.5, 1.5)
    w:tick(200)
    assert.are.equal("failure", p:state().last_result)
    assert.are.same({ "portal_error", d.C.id }, { p:last_failure() })
    assert.are.equal("hinge fell off", p:state().last_error)
    assert.are.same({}, p:state().frames)
    assert.are.same({ SX, SY }, { p:position() })
    assert.are.equal("success", q:state().last_result)
    assert.are.same({ 1.5, 1.5 }, { q:position() })
    assert.are.same({}, errors) -- the goto below handled it
    assert.are.same({}, w:route_owners())
  end)

  it("in a top-level frame reaches on_error and leaves the person idle", function()
    local errors = {}
    local w = world.new { width = 4, height = 4, on_error = function(person, msg)
      errors[#errors + 1] = { person.id, msg }
    end, trees = { boom = bt.action(function() error({ code = 7 }) end) } }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("boom")
    w:tick()
    assert.are.equal(1, #errors)
    assert.are.equal(p.id, errors[1][1])
    assert.matches("^table: ", errors[1][2])
    assert.are.same({ "failure", "error" }, { p:state().last_result, p:last_failure() })
    assert.are.equal(1, p:state().stats.errors)
  end)
end)

describe("custom portal trees", function()
  it("replace the standard one per door and report failure through the trap count", function()
    local w, d = example.build()
    local tried = {}
    -- a door that refuses everyone, using only the trap count
    w:add_tree("stuck", bt.action(function(ctx)
      tried[#tried + 1] = ctx.object
      ctx.person.trap_count = -ctx.object
      return false
    end))
    w:set_portal_tree(d.C.id, "stuck")
    local p = w:add_person { x = SX, y = SY }
    p:route_to(GX, GY)
    assert.are.same({ "D", "B" }, run(w, p, 300))
    assert.are.same({ d.C.id }, tried)
    assert.are.equal("success", p:state().last_result)
    assert.are.equal(1, p:state().stats.portal_failures)
    assert.are.same({ 0, nil }, { p:state().trap_count, p:state().failed_portal })
  end)

  it("may move people any way they like, for example by stepping them across", function()
    local w = example.build()
    local used = {}
    w:add_tree("hop", bt.action(function(ctx)
      local door = ctx:stack_object()
      used[#used + 1] = door.label
      local x, y = ctx.person:position()
      local t = door.tiles
      if w:room_at(x, y) == w:room_at(t[1] + 0.5, t[2] + 0.5) then
        ctx.person:place(t[3] + 0.5, t[4] + 0.5)
      else
        ctx.person:place(t[1] + 0.5, t[2] + 0.5)
      end
      return true
    end))
    for _, door in ipairs(w:doors()) do w:set_portal_tree(door.id, "hop") end
    local p = w:add_person { x = SX, y = SY }
    p:route_to(GX, GY)
    run(w, p, 300)
    assert.are.same({ "C", "A" }, used)
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ GX, GY }, { p:position() })
  end)

  it("set_failed_portal sets the protocol by hand, for doors only", function()
    local w, d = example.build()
    local p = w:add_person { x = SX, y = SY }
    p:set_failed_portal(d.E.id)
    assert.are.same({ -d.E.id, d.E.id }, { p:state().trap_count, p:state().failed_portal })
    local lamp = w:add_object { type = "lamp", x = 0, y = 0 }
    assert.has_error(function() p:set_failed_portal(lamp.id) end,
      "person:set_failed_portal: object 7 is a 'lamp', not a door")
    assert.has_error(function() p:set_failed_portal(99) end,
      "person:set_failed_portal: id 99 names no object")
  end)
end)

describe("routes that cannot start", function()
  it("fail with no_door when no door leads toward the goal", function()
    local w = world.new { width = 6, height = 3 }
    w:add_wall(3, 0, 3, 3)
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:route_to(5.5, 0.5)
    w:tick()
    assert.are.equal("failure", p:state().last_result)
    assert.are.equal("no_door", p:last_failure())
  end)

  it("fail with removed when the goal object goes away before the route starts", function()
    local w = world.new { width = 6, height = 3, trees = {
      go = bt.goto_relative { side = "front" } } }
    local vase = w:add_object { type = "vase", x = 4, y = 1 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("go", vase.id)
    w:remove_object(vase.id)
    w:tick()
    assert.are.equal("removed", p:last_failure())
  end)

  it("fail a portal side on something that is not a door", function()
    local w = world.new { width = 6, height = 3, trees = {
      go = bt.goto_relative { side = "portal" } } }
    local vase = w:add_object { type = "vase", x = 4, y = 1 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("go", vase.id)
    w:tick()
    assert.are.equal("goto_relative: side 'portal' needs a door as stack object, object 1 "
      .. "is a 'vase'", p:state().last_error)
  end)
end)

describe("halting a route", function()
  it("stops the walk, gives back the route id and records interrupted", function()
    local w = example.build()
    local p = w:add_person { x = SX, y = SY }
    p:route_to(GX, GY)
    w:tick(5)
    assert.are.equal(1, p:state().route_id)
    assert.is_true(p:walking())
    p:halt()
    assert.is_false(p:walking())
    assert.are.same({}, w:route_owners())
    assert.are.equal("interrupted", p:last_failure())
    assert.are.same({}, p:state().frames)
    for _, d in ipairs(w:doors()) do assert.is_nil(w:reservation(d.id)) end
  end)
end)

describe("door reservations", function()
  local function two_rooms()
    local w = world.new { width = 8, height = 3 }
    w:add_wall(4, 0, 4, 3)
    local d = w:add_object { type = "door", x = 3, y = 1, w = 2, h = 1 }
    return w, d
  end

  it("let people cross one direction at a time, so they never meet in the doorway", function()
    local w, d = two_rooms()
    local a = w:add_person { x = 2.5, y = 1.5 }
    local b = w:add_person { x = 5.5, y = 1.5 }
    a:route_to(7.5, 1.5)
    b:route_to(0.5, 1.5)
    local mixed, held = false, {}
    for _ = 1, 200 do
      w:tick()
      local r = w:reservation(d.id)
      if r then
        local ids = {}
        for _, id in ipairs(r.holders) do ids[id] = true end
        if ids[a.id] and ids[b.id] then mixed = true end
        if ids[a.id] then held.a = true end
        if ids[b.id] then held.b = true end
      end
      if #a:frame_stack() == 0 and #b:frame_stack() == 0 then break end
    end
    assert.is_false(mixed)
    assert.are.same({ a = true, b = true }, held)
    assert.are.same({ "success", "success" }, { a:state().last_result, b:state().last_result })
    assert.are.same({ 7.5, 1.5 }, { a:position() })
    assert.are.same({ 0.5, 1.5 }, { b:position() })
    assert.is_nil(w:reservation(d.id))
  end)

  it("let people of one direction follow each other once the first is at the door", function()
    local w, d = two_rooms()
    local a = w:add_person { x = 2.5, y = 1.5 }
    local b = w:add_person { x = 1.5, y = 0.5 }
    a:route_to(7.5, 1.5)
    b:route_to(6.5, 0.5)
    local both = false
    for _ = 1, 200 do
      w:tick()
      local r = w:reservation(d.id)
      if r and #r.holders == 2 then both = true end
      if #a:frame_stack() == 0 and #b:frame_stack() == 0 then break end
    end
    assert.is_true(both)
    assert.are.same({ "success", "success" }, { a:state().last_result, b:state().last_result })
  end)

  it("fail with busy after waiting too long, and end with the frame that made them", function()
    local w, d = two_rooms()
    w:add_tree("hold", bt.sequence { bt.reserve_portal(), bt.wait(10) })
    w:add_tree("try", bt.reserve_portal { ticks = 3 })
    local a = w:add_person { x = 2.5, y = 1.5 }
    local b = w:add_person { x = 5.5, y = 1.5 }
    a:push("hold", d.id)
    b:push("try", d.id)
    w:tick(5)
    assert.are.same({ "failure", "busy", a.id },
      { b:state().last_result, b:last_failure() })
    assert.are.same({ a.id }, w:reservation(d.id).holders)
    w:tick(10)
    assert.is_nil(w:reservation(d.id))
    local lamp = w:add_object { type = "lamp", x = 0, y = 0 }
    b:push("try", lamp.id)
    w:tick()
    assert.are.equal("reserve_portal: stack object 4 is a 'lamp', not a door",
      b:state().last_error)
  end)
end)
