-- Local avoidance for units (wayfinder.units.new(grid, { avoidance =
-- "velocity" })): head-on pairs in the open and in corridors two and three
-- navcells wide, crossing and opposing streams, a group through a door one
-- navcell wide, idle units shoved aside, stalls broken by the documented
-- tie-break. Every tick of every run is checked: no two units overlap
-- (|dx| > r1 + r2 or |dy| > r1 + r2), no unit stands on ground that is not
-- passable, and every order ends by arriving within the stated bound.
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

describe("avoidance shove and stalls", function()
  it("an idle unit standing on another's goal steps aside, and the mover arrives", function()
    local grid = field(21, 5)
    local list = { { 2.5, 2.5, 10.5, 2.5 }, { 10.5, 2.5 } }
    local arrived, failed, _, units, ids = run(grid, list, 200)
    all_arrive(list, arrived, failed, 60)
    local ix, iy = units:position(ids[2])
    assert.is_true(ix ~= 10.5 or iy ~= 2.5, "the idle unit moved")
    assert.equal("idle", units:state(ids[2]))
  end)

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

  it("an idle unit with no room to step aside stays, and the mover fails blocked", function()
    -- a corridor one navcell wide ending at the idle unit: nowhere to go
    local grid = field(12, 3, { rows = { 1, 1 } })
    local list = { { 2.5, 1.5, 10.5, 1.5 }, { 10.5, 1.5 } }
    local arrived, failed, _, units, ids = run(grid, list, 200, { max_wait = 30 })
    assert.is_nil(arrived[1])
    assert.equal(1, #failed)
    assert.matches("unit 1 failed %(blocked%)", failed[1])
    -- it may shift inside its navcell, never out of it
    local ix, iy = units:position(ids[2])
    assert.same({ 10, 1 }, { math.floor(ix), math.floor(iy) })
  end)

  it("a stall counts ticks without progress, and the unit of higher id gives way", function()
    -- a corridor one navcell wide (units of radius 0.5 cannot pass in it)
    -- with a niche two navcells deep above its middle: the two meet and
    -- stall; unit 2 (the higher id) steps to its right (north, heading
    -- west) into the niche, unit 1 keeps to the corridor and passes
    local rows = {}
    for y = 0, 4 do
      local r = {}
      for x = 0, 19 do
        local open = (y == 3 and x > 0 and x < 19) or ((x == 10 or x == 11) and (y == 1 or y == 2))
        r[#r + 1] = open and "." or "#"
      end
      rows[#rows + 1] = table.concat(r)
    end
    local grid = wayfinder.grid.from_ascii(table.concat(rows, "\n") .. "\n")
    local units = wayfinder.units.new(grid, { avoidance = "velocity", max_wait = 200 })
    local a = units:add({ x = 2.5, y = 3.5, radius = 0.5, speed = 0.25 })
    local b = units:add({ x = 17.5, y = 3.5, radius = 0.5, speed = 0.25 })
    units:move(a, 17.5, 3.5)
    units:move(b, 2.5, 3.5)
    local seen_stall, in_niche, done = 0, false, {}
    for t = 1, 400 do
      for _, e in ipairs(units:tick()) do
        if e.event == "arrived" then done[e.id] = t end
        assert.is_not.equal("failed", e.event)
      end
      for _, id in ipairs({ a, b }) do
        local info = units:info(id)
        if info.stall > seen_stall then seen_stall = info.stall end
      end
      local ax, ay = units:position(a)
      local bx, by = units:position(b)
      assert.is_true(math.abs(ax - bx) > 1 or math.abs(ay - by) > 1, "overlap")
      if by < 3 then in_niche = true end
      assert.is_true(ay >= 3, "unit 1 (the lower id) never gives way")
      if done[a] and done[b] then break end
    end
    assert.is_true(seen_stall >= 8, "a stall was detected")
    assert.is_true(in_niche, "unit 2 stepped into the niche")
    assert.is_truthy(done[a])
    assert.is_truthy(done[b])
  end)
end)

describe("avoidance determinism", function()
  local function scene()
    local grid = field(21, 13, { wall_x = 10, door_y = 6 })
    local list = {}
    for k = 0, 5 do
      list[#list + 1] = { 2.5 + k % 3, 4.5 + math.floor(k / 3) * 2, 17.5, 3.5 + k }
      list[#list + 1] = { 17.5 - k % 3, 8.5 + math.floor(k / 3) * 2, 3.5, 3.5 + k }
    end
    return grid, list
  end

  it("identical runs give identical traces, and the index gives the trace of testing every unit", function()
    local grid, list = scene()
    local _, _, h1 = run(grid, list, 300)
    local _, _, h2 = run(grid, list, 300)
    local _, _, h3 = run(grid, list, 300, { brute = true })
    assert.equal(h1, h2)
    assert.equal(h1, h3)
  end)

  it("a simulation saved and loaded mid-move continues exactly as the original", function()
    local grid, list = scene()
    local units = wayfinder.units.new(grid, { avoidance = "velocity", max_wait = 200 })
    local ids = {}
    for i, s in ipairs(list) do ids[i] = units:add({ x = s[1], y = s[2], radius = 0.4, speed = 0.25 }) end
    for i, s in ipairs(list) do units:move(ids[i], s[3], s[4]) end
    units:tick(60)
    local copy = wayfinder.units.load(grid, units:save())
    assert.equal("velocity", units:save().options.avoidance)
    for _ = 1, 120 do
      local e1, e2 = units:tick(), copy:tick()
      assert.same(e1, e2)
      for _, id in ipairs(ids) do
        assert.same({ units:position(id) }, { copy:position(id) })
      end
    end
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
