-- Local avoidance by reciprocal half-planes (wayfinder.units.new(grid, {
-- avoidance = "orca" })): head-on pairs, crossing and opposing streams, a
-- crowd through a door one navcell wide, an idle unit making room (what
-- both modes promise alike, stalls, determinism and save/load, is in
-- spec/avoid_modes_spec.lua). Every tick of every run is checked: no two
-- units overlap (|dx| > r1 + r2 or |dy| > r1 + r2), no unit stands on
-- ground that is not passable, and the orders end by arriving within the
-- stated bounds (bounds the sampled mode, "velocity", does not all meet:
-- see docs/peers.md, "Crowds").
local wayfinder = require("wayfinder")

local avoid_run = require("support.avoid_run")
local field, all_arrive = avoid_run.field, avoid_run.all_arrive
local function run(...) return avoid_run.run("orca", ...) end

describe("orca head-on", function()
  it("two units meeting head-on in an open field arrive within 85 ticks", function()
    -- 19 navcells at 0.25 a tick is 76 ticks in a straight line; without
    -- the keep-right leg the pair only slows and takes 122
    local grid = field(24, 13)
    local list = { { 2.5, 6.5, 21.5, 6.5 }, { 21.5, 6.5, 2.5, 6.5 } }
    local arrived, failed = run(grid, list, 200)
    all_arrive(list, arrived, failed, 85)
  end)

  it("the two keep right (each to its own side) while passing", function()
    local grid = field(24, 13)
    local units = wayfinder.units.new(grid, { avoidance = "orca", max_wait = 200 })
    local a = units:add({ x = 2.5, y = 6.5, radius = 0.4, speed = 0.25 })
    local b = units:add({ x = 21.5, y = 6.5, radius = 0.4, speed = 0.25 })
    units:move(a, 21.5, 6.5)
    units:move(b, 2.5, 6.5)
    local passed = false
    for _ = 1, 200 do
      units:tick()
      local ax, ay = units:position(a)
      local bx, by = units:position(b)
      if math.abs(ax - bx) < 0.8 then
        passed = true
        assert.is_true(ay ~= by, "they pass side by side")
        -- a heads east, b west: opposite sides, the same hand
        assert.is_true(ay < by, "a passes north of b")
      end
    end
    assert.is_true(passed)
  end)

  it("head-on in a corridor two navcells wide both arrive", function()
    local grid = field(24, 4, { rows = { 1, 2 } })
    local list = { { 2.5, 1.5, 21.5, 1.5 }, { 21.5, 1.5, 2.5, 1.5 } }
    local arrived, failed = run(grid, list, 300)
    all_arrive(list, arrived, failed, 200)
  end)
end)

describe("orca streams and doors", function()
  it("two crossing blocks of 4 x 5 all arrive within 300 ticks", function()
    local grid = field(32, 32)
    local list = {}
    for i = 0, 3 do
      for j = 0, 4 do
        list[#list + 1] = { 2.5 + i, 13.5 + j, 26.5 + i, 13.5 + j }
        list[#list + 1] = { 13.5 + j, 2.5 + i, 13.5 + j, 26.5 + i }
      end
    end
    local arrived, failed = run(grid, list, 400)
    all_arrive(list, arrived, failed, 300)
  end)

  it("two opposing blocks of 4 x 5 all arrive within 350 ticks", function()
    local grid = field(32, 20)
    local list = {}
    for i = 0, 3 do
      for j = 0, 4 do
        list[#list + 1] = { 2.5 + i, 7.5 + j, 26.5 + i, 7.5 + j }
        list[#list + 1] = { 29.5 - i, 7.5 + j, 5.5 - i, 7.5 + j }
      end
    end
    local arrived, failed = run(grid, list, 500)
    all_arrive(list, arrived, failed, 350)
  end)

  it("a crowd of 24 through a door one navcell wide all pass it within 300 ticks", function()
    local grid = field(31, 19, { wall_x = 15, door_y = 9 })
    local list = {}
    for k = 0, 23 do
      local col, row = k % 4, math.floor(k / 4)
      list[#list + 1] = { 10.5 + col, 6.5 + row, 27.5 - col, 6.5 + row }
    end
    local _, failed, _, units, ids = run(grid, list, 300, { max_wait = 100000 })
    assert.same({}, failed)
    for i, id in ipairs(ids) do
      local x = units:position(id)
      assert.is_true(x > 16, ("unit %d is through the door"):format(i))
    end
  end)
end)

describe("orca making room", function()
  it("an idle unit beside a walker's way makes room, and stays idle", function()
    -- a corridor two navcells wide; the idle unit stands half in the lane
    local grid = field(21, 4, { rows = { 1, 2 } })
    local list = { { 2.5, 1.5, 18.5, 1.5 }, { 10.5, 2.0 } }
    local arrived, failed, _, units, ids = run(grid, list, 200)
    all_arrive(list, arrived, failed, 100)
    local _, iy = units:position(ids[2])
    assert.is_true(iy > 2.0, "it stepped away from the lane")
    assert.equal("idle", units:state(ids[2]))
  end)
end)

describe("orca options", function()
  it("accepts 'orca' and rejects near misses and other types, naming the option", function()
    local grid = field(5, 5)
    local units = wayfinder.units.new(grid, { avoidance = "orca" })
    assert.equal("orca", units:save().options.avoidance)
    for _, bad in ipairs({ "ORCA", "orca ", "orc", true, 2, {} }) do
      local ok, err = pcall(wayfinder.units.new, grid, { avoidance = bad })
      assert.is_false(ok)
      assert.matches("wayfinder.units.new: options.avoidance must be 'none', 'velocity' or 'orca', got ",
        err, 1, true)
    end
    assert.has_error(function() wayfinder.units.new(grid, { avoidance = "orca\0" }) end)
  end)
end)
