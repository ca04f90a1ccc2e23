-- Local avoidance for units (wayfinder.units.new(grid, { avoidance =
-- "velocity" })): head-on pairs in the open and in corridors two and three
-- navcells wide, crossing and opposing streams, a group through a door one
-- navcell wide, an idle unit on a goal (what both modes promise alike,
-- shoves, stalls, determinism and save/load, is in
-- spec/avoid_modes_spec.lua). Every tick of every run is checked: no two
-- units overlap (|dx| > r1 + r2 or |dy| > r1 + r2), no unit stands on
-- ground that is not passable, and every order ends by arriving within
-- the stated bound.
local wayfinder = require("wayfinder")
local prng = require("support.prng")

local avoid_run = require("support.avoid_run")
local field, all_arrive = avoid_run.field, avoid_run.all_arrive
local function run(...) return avoid_run.run("velocity", ...) end

describe("avoidance head-on", function()
  it("two units meeting head-on in an open field both arrive, keeping right", function()
    local grid = field(24, 13)
    local list = { { 2.5, 6.5, 21.5, 6.5 }, { 21.5, 6.5, 2.5, 6.5 } }
    local arrived, failed = run(grid, list, 200)
    -- 19 navcells at 0.25 a tick is 76 ticks in a straight line
    all_arrive(list, arrived, failed, 120)
  end)

  it("the two step to opposite sides (each to its own right) while passing", function()
    local grid = field(24, 13)
    local units = wayfinder.units.new(grid, { avoidance = "velocity", max_wait = 200 })
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
        -- a heads east: its right is south (y grows downward); b the other way
        assert.is_true(ay > by, "a passes south of b")
      end
    end
    assert.is_true(passed)
  end)

  for _, width in ipairs({ 2, 3 }) do
    it(("two units meeting head-on in a corridor %d navcells wide both arrive"):format(width), function()
      local grid = field(24, width + 2, { rows = { 1, width } })
      for _, y in ipairs({ 1.5, width + 0.5 }) do
        local list = { { 2.5, y, 21.5, y }, { 21.5, y, 2.5, y } }
        local arrived, failed = run(grid, list, 200)
        all_arrive(list, arrived, failed, 120)
      end
      -- on different rows, and with the lanes crossed
      local list = { { 2.5, 1.5, 21.5, width + 0.5 }, { 21.5, 1.5, 2.5, width + 0.5 } }
      local arrived, failed = run(grid, list, 200)
      all_arrive(list, arrived, failed, 120)
    end)
  end
end)

describe("avoidance streams and doors", function()
  it("two crossing streams of six all arrive", function()
    local grid = field(22, 22)
    local list = {}
    for k = 0, 5 do
      list[#list + 1] = { 2.5, 8.5 + k, 19.5, 8.5 + k }
      list[#list + 1] = { 8.5 + k, 2.5, 8.5 + k, 19.5 }
    end
    local arrived, failed = run(grid, list, 400)
    all_arrive(list, arrived, failed, 250)
  end)

  it("two opposing streams of six all arrive", function()
    local grid = field(22, 22)
    local list = {}
    for k = 0, 5 do
      list[#list + 1] = { 2.5, 8.5 + k, 19.5, 8.5 + k }
      list[#list + 1] = { 19.5, 8.5 + k, 2.5, 8.5 + k }
    end
    local arrived, failed = run(grid, list, 400)
    all_arrive(list, arrived, failed, 250)
  end)

  it("a group of ten through a door one navcell wide all arrive within 300 ticks", function()
    local grid = field(21, 13, { wall_x = 10, door_y = 6 })
    local list = {}
    for k = 0, 9 do
      local col, row = k % 3, math.floor(k / 3)
      list[#list + 1] = { 2.5 + col, 3.5 + row * 1.5, 16.5 + col, 3.5 + row * 1.5 }
    end
    local arrived, failed = run(grid, list, 400)
    all_arrive(list, arrived, failed, 300)
  end)

  it("the same group arrives when an idle unit stands on one of their goals", function()
    local grid = field(21, 13, { wall_x = 10, door_y = 6 })
    local list = {}
    for k = 0, 9 do
      local col, row = k % 3, math.floor(k / 3)
      list[#list + 1] = { 2.5 + col, 3.5 + row * 1.5, 16.5 + col, 3.5 + row * 1.5 }
    end
    list[#list + 1] = { list[10][3], list[10][4] }
    local arrived, failed, _, units, ids = run(grid, list, 400)
    all_arrive(list, arrived, failed, 300)
    assert.equal("idle", units:state(ids[11]))
    local x, y = units:position(ids[11])
    assert.is_true(math.abs(x - list[10][3]) > 0.8 or math.abs(y - list[10][4]) > 0.8)
  end)

  it("random crowds in a field with pillars keep every invariant and all arrive", function()
    local rows = {}
    for y = 0, 19 do
      local r = {}
      for x = 0, 29 do
        local wall = x == 0 or y == 0 or x == 29 or y == 19
          or (x % 7 == 3 and y % 6 == 3)
        r[#r + 1] = wall and "#" or "."
      end
      rows[#rows + 1] = table.concat(r)
    end
    local grid = wayfinder.grid.from_ascii(table.concat(rows, "\n") .. "\n")
    for seed = 1, 3 do
      local g = prng.new(seed * 7919)
      local list, taken = {}, {}
      local function free_cell()
        for _ = 1, 1000 do
          local x, y = g.int(1, 28), g.int(1, 18)
          if not taken[y * 30 + x] and rows[y + 1]:sub(x + 1, x + 1) == "." then
            taken[y * 30 + x] = true
            return x + 0.5, y + 0.5
          end
        end
        error("no free navcell")
      end
      for _ = 1, 16 do
        local x, y = free_cell()
        list[#list + 1] = { x, y }
      end
      local goals = {}
      for i = 1, 16 do
        local gx, gy = free_cell()
        goals[i] = { gx, gy }
      end
      for i = 1, 16 do list[i][3], list[i][4] = goals[i][1], goals[i][2] end
      local arrived, failed = run(grid, list, 600)
      all_arrive(list, arrived, failed, 500)
    end
  end)
end)

describe("avoidance off", function()
  it("without avoidance the same order fails: today's behaviour is kept", function()
    local grid = field(21, 5)
    local units = wayfinder.units.new(grid)
    local a = units:add({ x = 2.5, y = 2.5, radius = 0.4, speed = 0.25 })
    local b = units:add({ x = 10.5, y = 2.5, radius = 0.4, speed = 0.25 })
    units:move(a, 10.5, 2.5)
    local failed
    for _, e in ipairs(units:tick(200)) do
      if e.event == "failed" then failed = e.reason end
    end
    assert.equal("blocked", failed)
    assert.same({ 10.5, 2.5 }, { units:position(b) })
  end)
end)

describe("avoidance options", function()
  it("rejects a bad avoidance value, naming it", function()
    local grid = field(5, 5)
    assert.has_error(function() wayfinder.units.new(grid, { avoidance = "orcas" }) end,
      "wayfinder.units.new: options.avoidance must be 'none', 'velocity' or 'orca', got 'orcas'")
    assert.has_error(function() wayfinder.units.new(grid, { avoidance = 1 }) end,
      "wayfinder.units.new: options.avoidance must be 'none', 'velocity' or 'orca', got 1")
    local units = wayfinder.units.new(grid, { avoidance = "none" })
    assert.equal("none", units:save().options.avoidance)
  end)
end)
