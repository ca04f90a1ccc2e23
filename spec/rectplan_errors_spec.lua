-- Bad input to the rectangle planner: every argument error names the
-- function, the argument and the bad value.
local rectplan = require("wayfinder.rectplan")
local H = require("rectplan_helper")

local function room(f)
  local r = H.box_room(4, 3, { objects = {
    { id = "t", x0 = 2, y0 = 2, x1 = 3, y1 = 3, room = 1 } } })
  if f then f(r) end
  return r
end

local function q(f)
  local x = { start = { 1.5, 1.5 }, goal = { 4, 3 } }
  if f then f(x) end
  return x
end

-- { what, room, query, message after "<function>: " }
local CASES = {
  { "room nil", nil, q(),
    "room must be a table, got nil" },
  { "room key", room(function(r) r.size = 3 end), q(),
    "unknown room key 'size'" },
  { "width 0", room(function(r) r.width = 0 end), q(),
    "room.width must be an integer in [1, 4096], got 0" },
  { "width frac", room(function(r) r.width = 6.5 end), q(),
    "room.width must be an integer in [1, 4096], got 6.5" },
  { "width huge", room(function(r) r.width = 5000 end), q(),
    "room.width must be an integer in [1, 4096], got 5000" },
  { "area", room(function(r) r.width = 4096 r.height = 4096 end), q(),
    "room.width*room.height must be at most 4194304 tiles, got 16777216" },
  { "rooms nil", room(function(r) r.rooms = nil end), q(),
    "room.rooms must be a table of width*height room ids, got nil" },
  { "rooms short", room(function(r) r.rooms[#r.rooms] = nil end), q(),
    "room.rooms must hold width*height = 30 room ids, got 29" },
  { "rooms bool", room(function(r) r.rooms[3] = true end), q(),
    "room.rooms[3] must be an integer in [-1073741824, 1073741823] or a string, got true" },
  { "rooms too low", room(function(r) r.rooms[3] = -2 ^ 31 end), q(),
    "room.rooms[3] must be an integer in [-1073741824, 1073741823] or a string, got -2147483648" },
  { "rooms float", room(function(r) r.rooms[3] = 1.5 end), q(),
    "room.rooms[3] must be an integer in [-1073741824, 1073741823] or a string, got 1.5" },
  { "doors type", room(function(r) r.doors = 3 end), q(),
    "room.doors must be a table {[tile index] = true}, got 3" },
  { "doors key", room(function(r) r.doors = {[0] = true} end), q(),
    "room.doors keys must be tile indices in [1, 30], got 0" },
  { "doors key str", room(function(r) r.doors = {x = true} end), q(),
    "room.doors keys must be tile indices in [1, 30], got 'x'" },
  { "doors val", room(function(r) r.doors = {[2] = 1} end), q(),
    "room.doors[2] must be a boolean, got 1" },
  { "walls type", room(function(r) r.walls = "x" end), q(),
    "room.walls must be a sequence of {x0, y0, x1, y1}, got 'x'" },
  { "wall type", room(function(r) r.walls = {5} end), q(),
    "room.walls[1] must be a table {x0, y0, x1, y1}, got 5" },
  { "wall coord", room(function(r) r.walls = {{1, 1, 7, 1}} end), q(),
    "room.walls[1][3] (x1) must be an integer in [0, 6], got 7" },
  { "wall diag", room(function(r) r.walls = {{1, 1, 2, 2}} end), q(),
    "room.walls[1] must be horizontal or vertical, got (1, 1)-(2, 2)" },
  { "wall zero", room(function(r) r.walls = {{1, 1, 1, 1}} end), q(),
    "room.walls[1] has zero length at (1, 1)" },
  { "wall nan", room(function(r) r.walls = {{0/0, 1, 1, 1}} end), q(),
    "room.walls[1][1] (x0) must be an integer in [0, 6], got nan" },
  { "objects type", room(function(r) r.objects = 1 end), q(),
    "room.objects must be a sequence of tables, got 1" },
  { "object type", room(function(r) r.objects = {1} end), q(),
    "room.objects[1] must be a table, got 1" },
  { "object key", room(function(r) r.objects[1].colour = "red" end), q(),
    "unknown room.objects[1] key 'colour'" },
  { "object id", room(function(r) r.objects[1].id = nil end), q(),
    "room.objects[1].id must be a number or a string, got nil" },
  { "object id bool", room(function(r) r.objects[1].id = true end), q(),
    "room.objects[1].id must be a number or a string, got true" },
  { "object nan", room(function(r) r.objects[1].x0 = 0/0 end), q(),
    "room.objects[1].x0 must be a number in [-8192, 8192], got nan" },
  { "object inf", room(function(r) r.objects[1].y1 = math.huge end), q(),
    "room.objects[1].y1 must be a number in [-8192, 8192], got inf" },
  { "object neg w", room(function(r) r.objects[1].x1 = 1 end), q(),
    "room.objects[1] has a negative width (x1 1 < x0 2)" },
  { "object neg h", room(function(r) r.objects[1].y1 = 1 end), q(),
    "room.objects[1] has a negative height (y1 1 < y0 2)" },
  { "object missing x1", room(function(r) r.objects[1].x1 = nil end), q(),
    "room.objects[1].x1 must be a number in [-8192, 8192], got nil" },
  { "object room", room(function(r) r.objects[1].room = nil end), q(),
    "room.objects[1].room is missing" },
  { "object room bad", room(function(r) r.objects[1].room = {} end), q(),
    "room.objects[1].room must be an integer in [-1073741824, 1073741823] or a string, "
    .. "got a table" },
  { "object bool", room(function(r) r.objects[1].person = "yes" end), q(),
    "room.objects[1].person must be a boolean, got 'yes'" },
  { "object pen", room(function(r) r.objects[1].penalty = -1 end), q(),
    "room.objects[1].penalty must be a number in [0, 10000] or 'impassable', got -1" },
  { "object pen str", room(function(r) r.objects[1].penalty = "high" end), q(),
    "room.objects[1].penalty must be a number in [0, 10000] or 'impassable', got 'high'" },
  { "query nil", room(), nil,
    "query must be a table, got nil" },
  { "query key", room(), q(function(x) x.speed = 1 end),
    "unknown query key 'speed'" },
  { "start missing", room(), q(function(x) x.start = nil end),
    "query.start must be a point {x, y}, got nil" },
  { "start short", room(), q(function(x) x.start = {1} end),
    "query.start.y must be a number in [-8192, 8192], got nil" },
  { "start nan", room(), q(function(x) x.start = {0/0, 1} end),
    "query.start.x must be a number in [-8192, 8192], got nan" },
  { "start off", room(), q(function(x) x.start = {7, 1} end),
    "query.start must lie on the world [0, 6) x [0, 5) (or give query.room), got (7, 1)" },
  { "start neg", room(), q(function(x) x.start = {-0.5, 1} end),
    "query.start must lie on the world [0, 6) x [0, 5) (or give query.room), got (-0.5, 1)" },
  { "goal far", room(), q(function(x) x.goal = {1e6, 1} end),
    "query.goal.x must be a number in [-8192, 8192], got 1000000" },
  { "mode", room(), q(function(x) x.mode = "around" end),
    "query.mode must be 'point' or 'near', got 'around'" },
  { "mode type", room(), q(function(x) x.mode = 1 end),
    "query.mode must be a string, got 1" },
  { "near neg", room(), q(function(x) x.near = -1 end),
    "query.near must be a number in [0, 8192], got -1" },
  { "width neg", room(), q(function(x) x.width = -0.5 end),
    "query.width must be a number in [0, 256], got -0.5" },
  { "width nan", room(), q(function(x) x.width = 0/0 end),
    "query.width must be a number in [0, 256], got nan" },
  { "width big", room(), q(function(x) x.width = 300 end),
    "query.width must be a number in [0, 256], got 300" },
  { "ignore neg", room(), q(function(x) x.ignore_people_within = -1 end),
    "query.ignore_people_within must be a number in [0, 8192], got -1" },
  { "tuning type", room(), q(function(x) x.tuning = 5 end),
    "query.tuning must be a table, got 5" },
  { "tuning key", room(), q(function(x) x.tuning = {speed = 1} end),
    "unknown query.tuning key 'speed'" },
  { "tuning step", room(), q(function(x) x.tuning = {step = 0} end),
    "query.tuning.step must be a number in [1.52588e-05, 8192], got 0" },
  { "tuning min>step", room(), q(function(x) x.tuning = {step = 0.1, min_step = 0.5} end),
    "query.tuning.min_step (0.5) must not exceed query.tuning.step (0.1)" },
  { "tuning max_nodes", room(), q(function(x) x.tuning = {max_nodes = 0} end),
    "query.tuning.max_nodes must be an integer in [1, 1000000], got 0" },
  { "tuning size", room(), q(function(x) x.tuning = {max_node_size = -1} end),
    "query.tuning.max_node_size must be a number in [0, 8192], got -1" },
  { "terrain type", room(), q(function(x) x.terrain = 1 end),
    "query.terrain must be a sequence of areas, got 1" },
  { "terrain key", room(), q(function(x) x.terrain = {{x0=1,y0=1,x1=2,y1=2,cost=1}} end),
    "unknown query.terrain[1] key 'cost'" },
  { "terrain pen", room(), q(function(x) x.terrain = {{x0=1,y0=1,x1=2,y1=2}} end),
    "query.terrain[1].penalty must be a number in [0, 10000] or 'impassable', got nil" },
  { "terrain neg", room(), q(function(x) x.terrain = {{x0=1,y0=1,x1=0,y1=2,penalty=1}} end),
    "query.terrain[1] has a negative width (x1 0 < x0 1)" },
  { "start_object", room(), q(function(x) x.start_object = "nobody" end),
    "query.start_object: no object has id 'nobody'" },
  { "start_object type", room(), q(function(x) x.start_object = {} end),
    "query.start_object must be an object id, got a table" },
  { "dest_object", room(), q(function(x) x.dest_object = 99 end),
    "query.dest_object: no object has id 99" },
  { "query room", room(), q(function(x) x.room = 7 end),
    "query.room: no tile has room id 7" },
  { "query room type", room(), q(function(x) x.room = true end),
    "query.room must be an integer in [-1073741824, 1073741823] or a string, got true" },
}

describe("bad input", function()
  for _, fname in ipairs({ "plan", "obstacles", "planner" }) do
    describe("wayfinder.rectplan." .. fname, function()
      for _, c in ipairs(CASES) do
        it("rejects " .. c[1], function()
          assert.has_error(function() rectplan[fname](c[2], c[3]) end,
            "wayfinder.rectplan." .. fname .. ": " .. c[4])
        end)
      end
    end)
  end

  describe("wayfinder.rectplan.prepare", function()
    for _, c in ipairs(CASES) do
      if c[4]:find("^room") or c[4]:find("^unknown room key") then
        it("rejects " .. c[1], function()
          assert.has_error(function() rectplan.prepare(c[2]) end,
            "wayfinder.rectplan.prepare: " .. c[4])
        end)
      end
    end

    it("leaves nothing prepared when it rejects a room", function()
      local r = room()
      r.rooms[3] = true
      assert.has_error(function() rectplan.prepare(r) end)
      -- so the next call reads the table again and finds the same fault
      assert.has_error(function() rectplan.plan(r, q()) end,
        "wayfinder.rectplan.plan: room.rooms[3] must be an integer in [-1073741824, 1073741823] "
        .. "or a string, got true")
    end)

    it("checks the people it reads again at every call", function()
      local r = room(function(x)
        x.objects[2] = { id = "ann", x0 = 1, y0 = 1, x1 = 1.5, y1 = 1.5, room = 1, person = true }
      end)
      rectplan.prepare(r)
      r.objects[2].x1 = "wide"
      assert.has_error(function() rectplan.plan(r, q()) end,
        "wayfinder.rectplan.plan: room.objects[2].x1 must be a number in [-8192, 8192], got 'wide'")
      r.objects[2].x1, r.objects[2].room = 1.5, {}
      assert.has_error(function() rectplan.obstacles(r, q()) end,
        "wayfinder.rectplan.obstacles: room.objects[2].room must be an integer in "
        .. "[-1073741824, 1073741823] or a string, got a table")
      r.objects[2] = 7
      assert.has_error(function() rectplan.planner(r, q()) end,
        "wayfinder.rectplan.planner: room.objects[2] must be a table, got 7")
    end)
  end)

  it("accepts every case once the bad field is fixed", function()
    assert.is_table((rectplan.plan(room(), q())))
  end)

  it("does not change the room or the query it was given", function()
    local r, x = room(), q(function(y) y.tuning = { step = 0.25 } end)
    local r0, x0 = room(), q(function(y) y.tuning = { step = 0.25 } end)
    rectplan.plan(r, x)
    rectplan.planner(r, x):run()
    rectplan.obstacles(r, x)
    assert.same(r0, r)
    assert.same(x0, x)
  end)
end)
