-- Worlds, walls, rooms and parts, objects and doors, the planner contract's
-- room description, ASCII layouts and drawings, and their bad input.
local world = require("wayfinder.world")
local bt = require("wayfinder.bt")

describe("wayfinder.world.new", function()
  it("makes an empty world: one room, one part, no objects", function()
    local w = world.new { width = 4, height = 3 }
    assert.are.same({ 1, 1 }, { w:room_count() })
    assert.are.same({}, w:objects())
    assert.are.same({}, w:walls())
    assert.are.equal(0, w:now())
    assert.are.equal(8, w.route_ids)
    assert.are.equal(1000000000, w.max_score)
    assert.are.equal("best_first", w.propagation)
    assert.is_true(w:has_tree("wayfinder.door"))
    assert.is_true(w:has_tree("wayfinder.route_to"))
  end)

  it("rejects bad options naming the option and the value", function()
    local cases = {
      { 5, "wayfinder.world.new: options must be a table {width =, height =, ...}, got 5" },
      { {}, "wayfinder.world.new: options.width must be an integer in [1, 4096], got nil" },
      { { width = 0, height = 2 },
        "wayfinder.world.new: options.width must be an integer in [1, 4096], got 0" },
      { { width = 2.5, height = 2 },
        "wayfinder.world.new: options.width must be an integer in [1, 4096], got 2.5" },
      { { width = 2, height = 5000 },
        "wayfinder.world.new: options.height must be an integer in [1, 4096], got 5000" },
      { { width = 4096, height = 4096 },
        "wayfinder.world.new: width*height must be at most 4194304 tiles, got 16777216" },
      { { width = 2, height = 2, colour = "red" },
        "wayfinder.world.new: unknown options key 'colour'" },
      { { width = 2, height = 2, route_ids = 0 },
        "wayfinder.world.new: options.route_ids must be an integer in [1, 4096], got 0" },
      { { width = 2, height = 2, max_score = -5 },
        "wayfinder.world.new: options.max_score must be an integer in [1, 1125899906842624], "
        .. "got -5" },
      { { width = 2, height = 2, propagation = "dfs" },
        "wayfinder.world.new: options.propagation must be 'best_first' or 'recursive', got 'dfs'" },
      { { width = 2, height = 2, planner = "grid" },
        "wayfinder.world.new: options.planner must be a function(room, query), got 'grid'" },
      { { width = 2, height = 2, max_steps = 0 },
        "wayfinder.world.new: options.max_steps must be an integer in [1, 1000], got 0" },
      { { width = 2, height = 2, on_error = true },
        "wayfinder.world.new: options.on_error must be a function(person, message), "
        .. "got a boolean" },
      { { width = 2, height = 2, ignore_radius = -1 },
        "wayfinder.world.new: options.ignore_radius must be a number in [0, 1024], got -1" },
      { { width = 2, height = 2, trees = { walk = "north" } },
        "wayfinder.world.new: tree 'walk' must be a node from wayfinder.bt, got 'north'" },
    }
    for _, c in ipairs(cases) do
      assert.has_error(function() world.new(c[1]) end, c[2])
    end
  end)

  it("registers trees once under non-empty names", function()
    local w = world.new { width = 2, height = 2 }
    w:add_tree("idle", bt.wait(1))
    assert.is_true(w:has_tree("idle"))
    assert.has_error(function() w:add_tree("idle", bt.wait(1)) end,
      "world:add_tree: a tree named 'idle' is already registered")
    assert.has_error(function() w:add_tree("", bt.wait(1)) end,
      "world:add_tree: name must be a non-empty string, got ''")
    assert.has_error(function() w:add_tree("x", {}) end,
      "world:add_tree: tree 'x' must be a node from wayfinder.bt, got a table")
  end)
end)

describe("per-world timing of the movement primitives", function()
  it("defaults to the values the primitives always used and checks each option", function()
    local w = world.new { width = 2, height = 2 }
    local seen
    w:add_tree("peek", bt.action(function(ctx)
      seen = { ctx:option("goto_stall"), ctx:option("crowd_stall"), ctx:option("delta_stall"),
        ctx:option("portal_turn") }
      return true
    end))
    w:add_person({ x = 0.5, y = 0.5 }):push("peek")
    w:tick()
    assert.are.same({ 2, 4, 8, 12 }, seen)
    assert.are.same({ goto_stall = 2, crowd_stall = 4, delta_stall = 8, portal_turn = 12 },
      world.TIMING)
    for _, name in ipairs({ "goto_stall", "crowd_stall", "delta_stall", "portal_turn" }) do
      for _, bad in ipairs({ -1, 100001, 1.5, "2" }) do
        local msg = ("wayfinder.world.new: options.%s must be an integer in [0, 100000], got %s")
          :format(name, type(bad) == "string" and "'2'" or tostring(bad))
        assert.has_error(function() world.new { width = 2, height = 2, [name] = bad } end, msg)
      end
    end
  end)

  it("sets how long a Delta Move waits for a person in its way", function()
    local function blocked_after(stall)
      local w = world.new { width = 6, height = 1, delta_stall = stall }
      w:add_tree("step", bt.delta_move { distance = 3 })
      local p = w:add_person { x = 0.5, y = 0.5 }
      w:add_person { x = 2.5, y = 0.5 }
      p:push("step")
      for t = 1, 100 do
        w:tick()
        if #p:state().frames == 0 then return t, p:last_failure() end
      end
    end
    local quick, why = blocked_after(0)
    local slow, why2 = blocked_after(20)
    assert.are.same({ "blocked", "blocked" }, { why, why2 })
    assert.is_true(slow >= quick + 20, ("%d ticks, then %d"):format(quick, slow))
  end)
end)

describe("argument errors", function()
  it("blame the calling line, not the world's own files", function()
    local w = world.new { width = 4, height = 4 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    local calls = {
      function() w:add_object(5) end,
      function() w:add_object { type = "box", x = 9, y = 0 } end,
      function() w:add_object { type = "door", x = 0, y = 0, walk_over = true } end,
      function() w:add_person { x = 9, y = 0 } end,
      function() w:remove_object(77) end,
      function() w:set_locked(p.id, true) end,
      function() p:set_failed_portal(p.id) end,
      function() p:push("wayfinder.door", 99) end,
      function() w:wall(true, 9, 0) end,
      function() world.new { width = 4, height = 4, delta_stall = -1 } end,
      function() world.load { format = "wayfinder.world", version = 1, width = 4, height = 4,
        vwalls = { 999 } } end,
    }
    for k, call in ipairs(calls) do
      local ok, err = pcall(call)
      assert.is_false(ok)
      -- Lua 5.1 counts world.load's tail call as a level: the message comes
      -- without the caller's position there (docs/engines.md)
      local tail_51 = require("wayfinder.compat").TAIL_LEVEL == 1
        and err:match("^wayfinder%.world%.load: ")
      if not tail_51 then
        assert.matches("^spec/world_rooms_spec%.lua:%d+: ", err, nil, false, "call " .. k)
      end
    end
  end)
end)

describe("the world's types", function()
  it("have names and say what a value is when printed", function()
    local w = world.new { width = 3, height = 2 }
    assert.are.equal("wayfinder.World", getmetatable(w).__name)
    local p = w:add_person { x = 0.5, y = 0.5 }
    local box = w:add_object { type = "box", x = 2, y = 1 }
    assert.are.equal("wayfinder.World (3x2 tiles, 2 objects, tick 0)", tostring(w))
    assert.are.equal("wayfinder.Object 1 (person)", tostring(p))
    assert.are.equal("wayfinder.Object 2 (box)", tostring(box))
    local seen
    w:add_tree("look", bt.action(function(ctx) seen = tostring(ctx); return true end))
    p:push("look")
    w:tick()
    assert.are.equal("wayfinder.Ctx (person 1, frame 'look')", seen)
    assert.are.equal("wayfinder.Ctx (idle)", tostring(world.new { width = 1, height = 1 }.ctx))
    w:remove_object(box.id)
    assert.are.equal("wayfinder.Object 2 (box, removed)", tostring(box))
  end)
end)

describe("the state accessors", function()
  it("read walls, door scores, route ids and reservations, and reject bad calls", function()
    local w = world.new { width = 6, height = 2 }
    w:add_wall(3, 0, 3, 2)
    local d = w:add_object { type = "door", x = 2, y = 0, w = 2, h = 1 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    assert.are.same({ true, true, false }, { w:wall(true, 3, 0), w:wall(true, 3, 1),
      w:wall(false, 3, 1) })
    assert.are.same({ 0, nil }, { w:door_score(d.id, 1), w:reservation(d.id) })
    p:route_to(5.5, 0.5)
    w:tick()
    assert.are.same({ [1] = p.id }, w:route_owners())
    assert.is_true(w:door_score(d.id, 1) > 0)
    assert.are.same({ { tree = "wayfinder.route_to" },
      { tree = "wayfinder.door", object = d.id, portal = d.id } }, p:frame_stack())
    assert.has_error(function() w:wall(1, 0, 0) end,
      "world:wall: vertical must be a boolean, got 1")
    assert.has_error(function() w:wall(true, 7, 0) end,
      "world:wall: x must be an integer in [0, 6], got 7")
    assert.has_error(function() w:wall(false, 0, 3) end,
      "world:wall: y must be an integer in [0, 2], got 3")
    assert.has_error(function() w:door_score(p.id, 1) end,
      "world:door_score: object 2 is a 'person', not a door")
    assert.has_error(function() w:door_score(d.id, 9) end,
      "world:door_score: rid must be an integer in [0, 8], got 9")
    assert.has_error(function() w:reservation(99) end,
      "world:reservation: id 99 names no object")
    w:remove_object(p.id)
    assert.are.same({}, w:route_owners())
    assert.has_error(function() p:frame_stack() end,
      "person:frame_stack: person 2 was removed")
  end)
end)

describe("walls and rooms", function()
  it("splits rooms along walls and merges them when a wall goes", function()
    local w = world.new { width = 4, height = 3 }
    w:add_wall(2, 0, 2, 3)
    assert.are.same({ 2, 2 }, { w:room_count() })
    assert.are.equal(1, w:room_at(0.5, 2.5))
    assert.are.equal(2, w:room_at(3.5, 0.5))
    assert.are.same({ { 2, 0, 2, 3 } }, w:walls())
    w:remove_wall(2, 1, 2, 2)
    assert.are.same({ 1, 1 }, { w:room_count() })
    assert.are.same({ { 2, 0, 2, 1 }, { 2, 2, 2, 3 } }, w:walls())
    assert.is_nil(w:room_at(4, 1))
  end)

  it("numbers rooms in row-major order of their first tile; the outdoors is a room", function()
    local w = world.new { width = 6, height = 4 }
    w:add_wall(1, 1, 5, 1)
    w:add_wall(1, 3, 5, 3)
    w:add_wall(1, 1, 1, 3)
    w:add_wall(5, 1, 5, 3)
    w:add_wall(3, 1, 3, 3)
    assert.are.same({ 3, 3 }, { w:room_count() })
    assert.are.equal(1, w:room_at(0.5, 0.5)) -- outdoors, around the house
    assert.are.equal(1, w:room_at(0.5, 3.5))
    assert.are.equal(2, w:room_at(1.5, 1.5))
    assert.are.equal(3, w:room_at(4.5, 2.5))
    assert.are.same({ { 1, 1, 5, 1 }, { 1, 3, 5, 3 }, { 1, 1, 1, 3 }, { 3, 1, 3, 3 },
      { 5, 1, 5, 3 } }, w:walls())
  end)

  it("cuts a room into parts with furniture that cannot be walked over", function()
    local w = world.new { width = 5, height = 3 }
    local shelf = w:add_object { type = "shelf", x = 2, y = 0, w = 1, h = 3 }
    w:add_object { type = "rug", x = 0, y = 0, w = 2, h = 3, walk_over = true }
    w:add_object { type = "cup", x = 3, y = 1, contained = true }
    assert.are.same({ 1, 2 }, { w:room_count() })
    assert.are.equal(1, w:part_at(0.5, 0.5))
    assert.are.equal(2, w:part_at(4.5, 2.5))
    -- a point under the shelf belongs to the first open neighbour: east
    assert.are.equal(2, w:part_at(2.5, 1.5))
    w:remove_object(shelf.id)
    assert.are.same({ 1, 1 }, { w:room_count() })
  end)

  it("rejects walls that are not straight runs on tile edges", function()
    local w = world.new { width = 4, height = 4 }
    assert.has_error(function() w:add_wall(0, 0, 2, 2) end,
      "world:add_wall: a wall runs along one tile edge line: x0 == x1 or y0 == y1, and has "
      .. "length >= 1; got (0, 0)-(2, 2)")
    assert.has_error(function() w:add_wall(1, 1, 1, 1) end,
      "world:add_wall: a wall runs along one tile edge line: x0 == x1 or y0 == y1, and has "
      .. "length >= 1; got (1, 1)-(1, 1)")
    assert.has_error(function() w:add_wall(0, 0, 5, 0) end,
      "world:add_wall: x1 must be an integer in [0, 4], got 5")
    assert.has_error(function() w:remove_wall(0.5, 0, 1, 0) end,
      "world:remove_wall: x0 must be an integer in [0, 4], got 0.5")
    assert.has_error(function() w:room_at(0 / 0, 1) end,
      "world:room_at: x must be a number in [-1000000000, 1000000000], got nan")
  end)
end)

describe("objects", function()
  it("get increasing ids in object-list order and keep them after removals", function()
    local w = world.new { width = 4, height = 4 }
    local a = w:add_object { type = "chair", x = 0, y = 0 }
    local b = w:add_object { type = "table", x = 1, y = 1, w = 2, h = 1, facing = "south" }
    local c = w:add_person { x = 3.5, y = 3.5 }
    assert.are.same({ 1, 2, 3 }, { a.id, b.id, c.id })
    w:remove_object(b.id)
    local d = w:add_object { type = "lamp", x = 3, y = 0 }
    assert.are.equal(4, d.id)
    local ids = {}
    for k, o in ipairs(w:objects()) do ids[k] = o.id end
    assert.are.same({ 1, 3, 4 }, ids)
    assert.is_nil(w:object(2))
    assert.are.equal(d, w:object(4))
    assert.are.same({ 2, 1.5 }, { b:position() })
    assert.are.equal("south", b:facing_name())
    assert.are.equal(1, a:room())
    assert.are.same({ c }, w:people())
  end)

  it("makes doors of two tiles across a wall between two rooms", function()
    local w = world.new { width = 4, height = 2 }
    w:add_wall(2, 0, 2, 2)
    local d = w:add_object { type = "door", x = 1, y = 0, w = 2, h = 1 }
    assert.is_true(d.door)
    assert.are.same({ 2, 0.5 }, { d:position() })
    assert.are.equal("east", d:facing_name())
    assert.are.same({ d }, w:doors())
    w:add_wall(0, 1, 2, 1)
    local v = w:add_object { type = "door", x = 0, y = 0 }
    assert.are.same({ 0.5, 1 }, { v:position() })
    assert.are.equal("south", v:facing_name())
  end)

  it("rejects bad doors", function()
    local w = world.new { width = 4, height = 2 }
    w:add_wall(2, 0, 2, 2)
    assert.has_error(function() w:add_object { type = "door", x = 0, y = 0, w = 2, h = 1 } end,
      "world:add_object: a door needs a wall on the edge it spans; (1, 0)-(1, 1) has none")
    w:add_wall(1, 0, 1, 1)
    assert.has_error(function() w:add_object { type = "door", x = 0, y = 0, w = 2, h = 1 } end,
      "world:add_object: the door's tiles (0, 0) and (1, 0) lie in the same room")
    assert.has_error(function() w:add_object { type = "door", x = 1, y = 0, w = 2, h = 2 } end,
      "world:add_object: a door spans two tiles: w = 2, h = 1 (across a vertical wall) or "
      .. "w = 1, h = 2 (across a horizontal wall), got w = 2, h = 2")
    assert.has_error(function() w:add_object { type = "door", x = 3, y = 0, w = 2, h = 1 } end,
      "world:add_object: the door at (3, 0) does not fit in the world")
    assert.has_error(function()
      w:add_object { type = "door", x = 1, y = 0, w = 2, h = 1, facing = "west" }
    end, "world:add_object: spec.facing does not apply to doors")
    assert.has_error(function()
      w:add_object { type = "door", x = 1, y = 0, w = 2, h = 1, portal_tree = "nope" }
    end, "world:add_object: spec.portal_tree names no registered tree: 'nope'")
    w:add_object { type = "door", x = 1, y = 0, w = 2, h = 1 }
    assert.has_error(function() w:add_object { type = "door", x = 1, y = 0, w = 2, h = 1 } end,
      "world:add_object: door 1 already spans that edge")
  end)

  it("rejects bad object specs naming the key and value", function()
    local w = world.new { width = 4, height = 4 }
    local cases = {
      { "chair", "world:add_object: spec must be a table {type =, x =, y =, ...}, got 'chair'" },
      { { x = 0, y = 0 }, "world:add_object: spec.type must be a non-empty string, got nil" },
      { { type = "chair", x = 0, y = 0, colour = 1 },
        "world:add_object: unknown spec key 'colour'" },
      { { type = "chair", x = 4, y = 0 },
        "world:add_object: spec.x must be an integer in [0, 3], got 4" },
      { { type = "chair", x = 3, y = 0, w = 2 },
        "world:add_object: the object at (3, 0) of size 2x1 does not fit in the world" },
      { { type = "chair", x = 0, y = 0, w = 0 },
        "world:add_object: spec.w must be an integer in [1, 64], got 0" },
      { { type = "chair", x = 0, y = 0, facing = "up" },
        "world:add_object: spec.facing must be a direction ('east', 'southeast', 'south', "
        .. "'southwest', 'west', 'northwest', 'north', 'northeast'), got 'up'" },
      { { type = "chair", x = 0, y = 0, label = "ab" },
        "world:add_object: spec.label must be a one-character string, got 'ab'" },
      { { type = "chair", x = 0, y = 0, locked = true },
        "world:add_object: spec.locked does not apply to objects that are not doors" },
      { { type = "chair", x = 0, y = 0, speed = 1 },
        "world:add_object: spec.speed does not apply to objects that are not people" },
      { { type = "chair", x = 0, y = 0, data = { f = print } },
        "world:add_object: spec.data holds a function; only tables, strings, numbers and "
        .. "booleans can be saved" },
      { { type = "person", x = 4.5, y = 0.5 },
        "world:add_object: spec.x must be a number in [0, 4], got 4.5" },
      { { type = "person", x = 4, y = 0.5 },
        "world:add_object: spec.x, spec.y (4, 0.5) lie outside the world" },
      { { type = "person", x = 1, y = 1, width = 0 },
        "world:add_object: spec.width must be a number in (0, 1], got 0" },
      { { type = "person", x = 1, y = 1, speed = 1.5 },
        "world:add_object: spec.speed must be a number in (0, 1], got 1.5" },
      { { type = "person", x = 1, y = 1, w = 2 },
        "world:add_object: spec.w does not apply to people" },
      { { type = "robot", x = 1, y = 1, person = true, door = true },
        "world:add_object: an object cannot be a person and a door" },
    }
    for _, c in ipairs(cases) do
      assert.has_error(function() w:add_object(c[1]) end, c[2])
    end
    assert.are.same({}, w:objects())
  end)

  it("rejects unknown and malformed ids", function()
    local w = world.new { width = 4, height = 4 }
    local chair = w:add_object { type = "chair", x = 0, y = 0 }
    assert.has_error(function() w:remove_object(7) end, "world:remove_object: id 7 names no object")
    assert.has_error(function() w:remove_object("1") end,
      "world:remove_object: id must be an integer in [1, 2147483647], got '1'")
    assert.has_error(function() w:object(-1) end,
      "world:object: id must be an integer in [1, 2147483647], got -1")
    assert.has_error(function() w:set_locked(chair.id, true) end,
      "world:set_locked: object 1 is a 'chair', not a door")
    assert.has_error(function() w:set_portal_tree(chair.id, "wayfinder.door") end,
      "world:set_portal_tree: object 1 is a 'chair', not a door")
    assert.has_error(function() w:set_penalty(99, 1) end,
      "world:set_penalty: id 99 names no object")
    assert.has_error(function() chair:route_to(1, 1) end,
      "person:route_to: object 1 is a 'chair', not a person")
  end)

  it("locks doors, sets penalties and portal trees with checks", function()
    local w = world.new { width = 4, height = 2, trees = { hop = bt.wait(1) } }
    w:add_wall(2, 0, 2, 2)
    local d = w:add_object { type = "door", x = 1, y = 0, w = 2, h = 1 }
    w:set_locked(d.id, true)
    assert.is_true(d.locked)
    assert.has_error(function() w:set_locked(d.id, "yes") end,
      "world:set_locked: locked must be a boolean, got 'yes'")
    w:set_penalty(d.id, 7)
    assert.are.equal(7, d.penalty)
    assert.has_error(function() w:set_penalty(d.id, -1) end,
      "world:set_penalty: penalty must be an integer in [0, 1000000], got -1")
    w:set_portal_tree(d.id, "hop")
    assert.are.equal("hop", d.portal_tree)
    assert.has_error(function() w:set_portal_tree(d.id, "jump") end,
      "world:set_portal_tree: unknown tree name 'jump'")
  end)
end)

describe("world:room_description", function()
  it("gives the planner contract's room table exactly", function()
    local w = world.new { width = 4, height = 2 }
    w:add_wall(2, 0, 2, 2)
    w:add_object { type = "door", x = 1, y = 0, w = 2, h = 1 }
    w:add_object { type = "bed", x = 0, y = 1 }
    w:add_object { type = "cup", x = 3, y = 0, contained = true }
    w:add_person { x = 3.5, y = 1.5 }
    assert.are.same({
      width = 4, height = 2,
      rooms = { 1, 1, 2, 2, 1, 1, 2, 2 },
      doors = { [2] = true, [3] = true },
      walls = { { 2, 0, 2, 2 } },
      objects = {
        { id = 1, x0 = 1, y0 = 0, x1 = 3, y1 = 1, room = 1, contained = false,
          walk_over = true, person = false },
        { id = 2, x0 = 0, y0 = 1, x1 = 1, y1 = 2, room = 1, contained = false,
          walk_over = false, person = false },
        { id = 3, x0 = 3, y0 = 0, x1 = 4, y1 = 1, room = 2, contained = true,
          walk_over = false, person = false },
        { id = 4, x0 = 3.25, y0 = 1.25, x1 = 3.75, y1 = 1.75, room = 2, contained = false,
          walk_over = false, person = true },
      },
    }, w:room_description())
  end)

  it("passes the contract's query to a planner given in the options", function()
    local seen
    local w = world.new { width = 5, height = 2, tuning = { smooth = 3 },
      planner = function(_, query)
        seen = query
        return { query.start, query.goal }
      end }
    local stool = w:add_object { type = "stool", x = 4, y = 0 }
    local p = w:add_person { x = 0.5, y = 0.5, width = 0.5 }
    w:add_tree("to_stool", bt.goto_relative { side = "back", distance = 1 })
    p:push("to_stool", stool.id)
    w:tick()
    assert.are.same({
      start = { 0.5, 0.5 }, goal = { 2.75, 0.5 }, start_object = p.id, dest_object = stool.id,
      mode = "point", width = 0.5, tuning = { smooth = 3 },
    }, seen)
    assert.are.same({ { 2.75, 0.5 } }, p:route())
  end)
end)

describe("the default planner", function()
  it("goes around walls inside a room and keeps clear of objects by the width", function()
    local w = world.new { width = 6, height = 5 }
    w:add_wall(3, 0, 3, 4) -- a partition open at the bottom row
    w:add_object { type = "crate", x = 1, y = 4 }
    local points = w:plan(0.5, 0.5, 5.5, 0.5, { width = 0.5 })
    assert.are.same({ 0.5, 0.5 }, points[1])
    assert.are.same({ 5.5, 0.5 }, points[#points])
    for k = 2, #points do
      local a, b = points[k - 1], points[k]
      -- every segment stays at least half a width from the partition
      for s = 0, 16 do
        local x = a[1] + (b[1] - a[1]) * s / 16
        local y = a[2] + (b[2] - a[2]) * s / 16
        if y < 4.25 then assert.is_true(math.abs(x - 3) >= 0.25) end
        assert.is_false(x > 0.75 and x < 2.25 and y > 3.75)
      end
    end
  end)

  it("reports reasons instead of points when it cannot plan", function()
    local w = world.new { width = 5, height = 1 }
    w:add_object { type = "wardrobe", x = 2, y = 0 }
    local none, why = w:plan(0.5, 0.5, 4.5, 0.5)
    assert.are.same({ nil, "no_path" }, { none, why })
    local g = world.new { width = 5, height = 1, planner = require("wayfinder.gridplan").plan }
    g:add_object { type = "wardrobe", x = 2, y = 0 }
    none, why = g:plan(0.5, 0.5, 4.5, 0.5)
    assert.are.same({ nil, "unreachable" }, { none, why })
    assert.has_error(function() w:plan(0.5, 0.5, 4.5, 0.5, { mode = "around" }) end,
      "world:plan: options.mode must be 'point' or 'near', got 'around'")
    assert.has_error(function() w:plan(-1, 0.5, 4.5, 0.5) end,
      "world:plan: sx must be a number in [0, 5], got -1")
  end)

  it("plans to the boundary of a square in near mode", function()
    local w = world.new { width = 8, height = 3 }
    local points = w:plan(0.5, 1.5, 6.5, 1.5, { mode = "near", near = 1.5 })
    local last = points[#points]
    assert.is_true(math.abs(last[1] - 5) <= 0.125)
    assert.are.equal(1.5, last[2])
  end)
end)

describe("ASCII layouts and drawings", function()
  local layout = [[
+-+-+-+-+
|. . a .|
+ +-+-+A+
|1|. . .|
+-+-+-+-+
]]
  local legend = { a = { type = "chair" }, A = { type = "door" }, ["1"] = { type = "person" } }

  it("builds walls, doors, objects and people from a layout", function()
    local w, made = world.from_ascii(layout, { legend = legend })
    assert.are.same({ 2, 3 }, { w:room_count() })
    assert.are.same({ 1, 2, 3 }, { made["1"][1].id, made.A[1].id, made.a[1].id })
    assert.are.same({ 0.5, 1.5 }, { made["1"][1]:position() })
    assert.are.same({ 3.5, 1 }, { made.A[1]:position() })
    assert.are.equal(1, w:room_at(0.5, 1.5))
    assert.are.equal(2, w:room_at(1.5, 1.5))
    assert.are.equal(layout:gsub("%.", " "):gsub(" +\n", "\n"), w:draw())
  end)

  it("draws people and the tiles their routes still cross", function()
    local w = world.from_ascii([[
+-+-+-+-+-+
|. . . . .|
+-+-+-+-+-+
]], { legend = {} })
    local p = w:add_person { x = 0.5, y = 0.5, label = "P" }
    p:route_to(4.5, 0.5)
    w:tick()
    assert.are.equal("+-+-+-+-+-+\n|P * * * *|\n+-+-+-+-+-+\n", w:draw())
    assert.are.equal("+-+-+-+-+-+\n|P        |\n+-+-+-+-+-+\n", w:draw { routes = false })
    assert.has_error(function() w:draw { colour = true } end,
      "world:draw: unknown options key 'colour'")
  end)

  it("rejects characters it does not know", function()
    assert.has_error(function() world.from_ascii("+-+\n|x|\n+-+\n") end,
      "wayfinder.world.from_ascii: character 'x' at line 2, column 2 is not in the legend")
    assert.has_error(function() world.from_ascii("+-+\n|||\n+-+\n") end,
      "wayfinder.world.from_ascii: a wall character '|' stands on tile (0, 0) (line 2)")
    assert.has_error(function() world.from_ascii(7) end,
      "wayfinder.world.from_ascii: text must be a string, got 7")
    assert.has_error(function()
      world.from_ascii("+-+\n| |\n+-+\n", { legend = { ["|"] = {} } })
    end,
      "wayfinder.world.from_ascii: options.legend keys must be single characters other than "
      .. "walls (| - = # +) and floor (space, .), got '|'")
  end)
end)
