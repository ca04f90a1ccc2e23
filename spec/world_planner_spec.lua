-- The house world plans inside rooms with the rectangle-cover planner by
-- default (its description prepared once, people read afresh), takes the
-- grid planner (or any planner) as an option, and with the rectangle
-- planner can write the route file of every planning call.
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")
local rectplan = require("wayfinder.rectplan")
local deep_copy = require("rectplan_helper").copy

local function temp_dir()
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir '" .. dir .. "'"))
  return dir
end

local function remove_dir(dir)
  os.execute("rm -rf '" .. dir .. "'")
end

local function furnished_world(options)
  local w = wayfinder.world.new(options)
  w:add_object { type = "crate", x = 3, y = 0, w = 1, h = 3 }
  w:add_object { type = "table", x = 5, y = 1, w = 1, h = 3 }
  return w
end

local function points_equal(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i][1] ~= b[i][1] or a[i][2] ~= b[i][2] then return false end
  end
  return true
end

describe("the house world's within-room planner", function()
  it("takes and gives Q16.16 integers with query.fixed, the same path as in world units",
    function()
      local w = furnished_world { width = 8, height = 4 }
      w:add_person { x = 7.5, y = 2.5 }
      local room = w:room_description()
      local q = { start = { 0.5, 0.5 }, goal = { 7.25, 3.5 }, mode = "near", near = 0.75,
        width = 0.5, ignore_people_within = 1.5, tuning = {} }
      local floats = assert(rectplan.plan(room, q))
      local F = 65536
      local qf = { fixed = true, start = { compat.idiv(F, 2), compat.idiv(F, 2) }, goal = { 7 * F + compat.idiv(F, 4), compat.idiv(7 * F, 2) },
        mode = "near", near = compat.idiv(3 * F, 4), width = compat.idiv(F, 2), ignore_people_within = compat.idiv(3 * F, 2),
        tuning = {} }
      local ints = assert(rectplan.plan(room, qf))
      assert.is_true(#floats >= 3)
      assert.are.equal(#floats, #ints)
      for i, pt in ipairs(ints) do
        assert.are.equal("integer", compat.type(pt[1]))
        assert.are.equal("integer", compat.type(pt[2]))
        assert.are.same({ floats[i][1] * F, floats[i][2] * F }, { pt[1] + 0.0, pt[2] + 0.0 })
      end
      qf.start = { 0.5, 0.5 }
      assert.has_error(function() rectplan.plan(room, qf) end,
        "wayfinder.rectplan.plan: query.start.x must be an integer in [-536870912, 536870912], "
        .. "got 0.5")
      qf.start, qf.fixed = { compat.idiv(F, 2), compat.idiv(F, 2) }, 1
      assert.has_error(function() rectplan.plan(room, qf) end,
        "wayfinder.rectplan.plan: query.fixed must be a boolean, got 1")
    end)

  it("is the rectangle-cover planner by default", function()
    local w = furnished_world { width = 8, height = 4 }
    assert.are.equal(rectplan.plan, w.planner)
    local via_world = assert(w:plan(0.5, 0.5, 7.5, 0.5))
    local q = { start = { 0.5, 0.5 }, goal = { 7.5, 0.5 }, mode = "point", width = 0.5,
      tuning = {} }
    local via_rooms = assert(rectplan.plan(w:room_description(), q))
    assert.is_true(points_equal(via_world, via_rooms))
    -- the route goes round both pieces of furniture: it bends at least twice
    assert.is_true(#via_world >= 4)
    -- the world's description is prepared; a plain copy plans the same
    local direct = assert(rectplan.plan(deep_copy(w:room_description()), q))
    assert.is_true(points_equal(via_world, direct))
  end)

  it("sees people where they are now through the prepared description", function()
    local w = wayfinder.world.new { width = 8, height = 3 }
    local ann = w:add_person { x = 6.5, y = 0.5 }
    local q = { start = { 0.5, 1.5 }, goal = { 7.5, 1.5 }, width = 0.5 }
    local straight = assert(rectplan.plan(w:room_description(), q))
    assert.are.equal(2, #straight)
    ann:place(4.5, 1.5)                     -- now in the way
    local room = w:room_description()
    local around = assert(rectplan.plan(room, q))
    assert.is_true(#around > 2)
    assert.is_true(points_equal(around, assert(rectplan.plan(deep_copy(room), q))))
  end)

  it("gives a walking person the planner's points", function()
    local dir = temp_dir()
    local w = furnished_world { width = 8, height = 4, route_files = dir, planner = rectplan.plan }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:route_to(7.5, 0.5)
    w:tick(1)
    local ahead = p:route()
    -- the first route file is the plan the person walks: replanning the
    -- saved room and query gives the same points, and the walk follows them
    local room, query, result = rectplan.load_route(dir .. "/route-000001.json")
    local again = assert(rectplan.plan(room, query))
    assert.is_true(points_equal(again, result.points))
    local last = again[#again]
    assert.are.same({ last[1], last[2] }, ahead[#ahead])
    w:tick(60)
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ 7.5, 0.5 }, { p:position() })
    remove_dir(dir)
  end)

  it("writes one numbered route file per planning call, and none by default", function()
    local dir = temp_dir()
    local w = furnished_world { width = 8, height = 4, route_files = dir, planner = rectplan.plan }
    w:plan(0.5, 0.5, 7.5, 0.5)
    w:plan(0.5, 3.5, 7.5, 3.5)
    local names = {}
    local ls = assert(io.popen("env -u LD_PRELOAD ls '" .. dir .. "'"))
    for name in ls:lines() do names[#names + 1] = name end
    ls:close()
    assert.are.same({ "route-000001.json", "route-000002.json" }, names)
    remove_dir(dir)
    local quiet = furnished_world { width = 8, height = 4 }
    assert.is_nil(quiet.route_files)
  end)

  it("rejects a route_files value that is not a directory name", function()
    assert.has_error(function() wayfinder.world.new { width = 4, height = 4, route_files = 5 } end,
      "wayfinder.world.new: options.route_files must be a directory name, got 5")
    assert.has_error(function() wayfinder.world.new { width = 4, height = 4, route_files = "" } end,
      "wayfinder.world.new: options.route_files must be a directory name, got ''")
  end)

  it("takes the grid planner as an option, which also routes round furniture", function()
    local w = furnished_world { width = 8, height = 4, planner = wayfinder.gridplan.plan }
    assert.are.equal(wayfinder.gridplan.plan, w.planner)
    local points = assert(w:plan(0.5, 0.5, 7.5, 0.5))
    assert.are.same({ 7.5, 0.5 }, points[#points])
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:route_to(7.5, 0.5)
    w:tick(60)
    assert.are.equal("success", p:state().last_result)
    -- with the grid's margins exact both find the same route between tile
    -- centres; off them they disagree on the exact points, so the option
    -- is honoured
    local rect = furnished_world { width = 8, height = 4 }
    assert.is_true(points_equal(points, assert(rect:plan(0.5, 0.5, 7.5, 0.5))))
    assert.is_false(points_equal(assert(w:plan(1.1, 2.2, 6.6, 0.3)),
      assert(rect:plan(1.1, 2.2, 6.6, 0.3))))
  end)

  it("plans for a person flush against a thin wall: walls are edges to both", function()
    local w = wayfinder.world.new { width = 6, height = 3 }
    w:add_wall(3, 0, 3, 2)
    local p = w:add_person { x = 2.75, y = 0.5 }
    local pts, info = rectplan.plan(w:room_description(), { start = { 2.75, 0.5 },
      goal = { 0.5, 0.5 }, start_object = p.id, width = 0.5, mode = "point" })
    assert.are.same({ { 2.75, 0.5 }, { 0.5, 0.5 } }, pts)
    assert.is_false(info.escaped)
    p:route_to(0.5, 0.5)
    w:tick(1)
    local ahead = p:route()
    assert.are.same({ 0.5, 0.5 }, ahead[#ahead])
    w:tick(40)
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ 0.5, 0.5 }, { p:position() })
  end)

  it("walks a person put down overlapping furniture out of it first", function()
    local w = furnished_world { width = 8, height = 4 }
    local p = w:add_person { x = 0.5, y = 3.5 }
    p:place(3.125, 2.5)          -- the crate covers x 3 to 4, y 0 to 3
    -- out by the nearest side of the crate grown by the half width, x 2.75
    local pts, info = rectplan.plan(w:room_description(), { start = { 3.125, 2.5 },
      goal = { 0.5, 0.5 }, start_object = p.id, width = 0.5 })
    assert.is_true(info.escaped)
    assert.are.same({ { 3.125, 2.5 }, { 2.75, 2.5 } }, { pts[1], pts[2] })
    p:route_to(0.5, 0.5)
    w:tick(60)
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ 0.5, 0.5 }, { p:position() })
  end)
end)
