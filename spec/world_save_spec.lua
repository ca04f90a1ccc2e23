-- Saving and loading a world in the middle of its walks, and determinism:
-- the same world gives the same trace, run after run and build after build.
local world = require("wayfinder.world")
local bt = require("wayfinder.bt")
local crowd = require("support.house_crowd")
local example = require("support.house_example")

-- Every value in a save is plain data.
local function assert_plain(v, path)
  local t = type(v)
  if t == "table" then
    for k, x in pairs(v) do
      assert.is_true(type(k) == "string" or type(k) == "number", path .. ": key " .. tostring(k))
      assert_plain(x, path .. "." .. tostring(k))
    end
  else
    assert.is_true(t == "string" or t == "number" or t == "boolean", path .. " is a " .. t)
  end
end

describe("world:save and wayfinder.world.load", function()
  it("save plain data", function()
    local w = crowd.build(12)
    w:tick(60)
    assert_plain(w:save(), "save")
  end)

  it("continue exactly: run N, save, run M; load, run M; every position and state agree",
    function()
      local w = crowd.build(24)
      w:tick(150)
      local saved = w:save()
      local walking = 0
      for _, p in ipairs(w:people()) do if p:walking() then walking = walking + 1 end end
      assert.is_true(walking > 5, "only " .. walking .. " people walk at the save")
      local h1 = crowd.trace(w, 200)
      local restored = world.load(saved, crowd.trees())
      local h2 = crowd.trace(restored, 200)
      assert.are.equal(h1, h2)
      assert.are.same(w:save(), restored:save())
      assert.are.equal(350, restored:now())
    end)

  it("keep door score tables and route ids across the save", function()
    local w, d = example.build()
    local p = w:add_person { x = example.START[1], y = example.START[2] }
    p:route_to(example.GOAL[1], example.GOAL[2])
    w:tick(5)
    local restored = world.load(w:save())
    local rd = restored:object(d.C.id)
    assert.are.same({ 81, 0 }, { restored:door_score(rd.id, 1), restored:door_score(rd.id, 2) })
    assert.are.same({ [1] = p.id }, restored:route_owners())
    assert.are.equal(1, restored:object(p.id):state().route_id)
    restored:tick(200)
    assert.are.equal("success", restored:object(p.id):state().last_result)
  end)

  it("load a save written before the world was split and go on as its world did", function()
    local old = dofile("spec/data/world_save_v1.lua")
    local restored = world.load(old.saved, crowd.trees())
    assert.are.equal(old.trace, crowd.trace(restored, 150))
    assert.are.equal(old.final, crowd.state_hash(restored))
    assert.are.equal(270, restored:now())
  end)

  it("refuse data that cannot be saved, naming where it is", function()
    local w = world.new { width = 4, height = 4, trees = {
      keep = bt.action(function(ctx)
        ctx.memory.fn = print
        return "running"
      end) } }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("keep")
    w:tick()
    assert.has_error(function() w:save() end,
      "world:save: person 1 frame 1 holds a function; only tables, strings, numbers and "
      .. "booleans can be saved")
  end)

  it("reject bad saves and missing trees", function()
    local w = crowd.build(3)
    w:tick(5)
    local saved = w:save()
    assert.has_error(function() world.load("save") end,
      "wayfinder.world.load: saved must be a table made by world:save(), got 'save'")
    assert.has_error(function() world.load(saved) end,
      "wayfinder.world.load: person 53 frame 1 uses tree 'wander', which is not in trees")
    assert.has_error(function() world.load(saved, crowd.trees(), { colour = 1 }) end,
      "wayfinder.world.load: unknown options key 'colour'")
    local old = world.load(saved, crowd.trees()):save()
    old.version = 0
    assert.has_error(function() world.load(old, crowd.trees()) end,
      "wayfinder.world.load: saved version 0 is not 1")
    local other = crowd.trees()
    other.wander = bt.wait(1)
    assert.has_error(function() world.load(saved, other) end,
      "wayfinder.world.load: person 53 frame 1 does not match tree 'wander' (node 2)")
    local bad = world.load(saved, crowd.trees()):save()
    bad.objects[1].x = 99
    assert.has_error(function() world.load(bad, crowd.trees()) end,
      "wayfinder.world.load: spec.x must be an integer in [0, 27], got 99")
  end)
end)

describe("determinism", function()
  it("gives the same trace hash on two runs of the same world", function()
    local a = crowd.trace(crowd.build(20), 250)
    local b = crowd.trace(crowd.build(20), 250)
    assert.are.equal(a, b)
    -- and the trace does depend on what happens
    local c = crowd.trace(crowd.build(19), 250)
    assert.are_not.equal(a, c)
  end)

  it("gives the same trace with the clang and -O0 builds of the core", function()
    -- raises, naming `make clang-check`, when a build is missing
    local builds = require("support.builds")
    local list = builds.all()
    local want = ("%08x"):format(crowd.trace(crowd.build(), 150))
    for _, build in ipairs(list) do
      local cmd = (builds.lua_for(build) .. " -e \"package.path='lua/?.lua;lua/?/init.lua;spec/?.lua;'"
        .. "..package.path; package.cpath='%s'\" spec/support/house_crowd.lua 150")
        :format(build.cpath)
      local p = assert(io.popen(cmd))
      local got = p:read("*l")
      p:close()
      assert.are.equal(want, got, build.name .. " (" .. build.cpath .. ") differs")
    end
  end)
end)
