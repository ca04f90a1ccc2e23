-- Local avoidance by reciprocal half-planes (wayfinder.units.new(grid, {
-- avoidance = "orca" })): head-on pairs, crossing and opposing streams, a
-- crowd through a door one navcell wide, idle units stepping aside, stalls
-- broken by the documented rule, determinism and save/load. Every tick of
-- every run is checked: no two units overlap (|dx| > r1 + r2 or |dy| > r1
-- + r2), no unit stands on ground that is not passable, and the orders
-- end by arriving within the stated bounds (bounds the sampled mode,
-- "velocity", does not all meet: see docs/peers.md, "Crowds").
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

describe("orca shove and stalls", function()
  it("an idle unit standing on another's goal steps aside, and the mover arrives", function()
    local grid = field(21, 5)
    local list = { { 2.5, 2.5, 10.5, 2.5 }, { 10.5, 2.5 } }
    local arrived, failed, _, units, ids = run(grid, list, 200)
    all_arrive(list, arrived, failed, 60)
    local ix, iy = units:position(ids[2])
    assert.is_true(ix ~= 10.5 or iy ~= 2.5, "the idle unit moved")
    assert.equal("idle", units:state(ids[2]))
  end)

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

  it("an idle unit with no room to step aside stays, and the mover fails blocked", function()
    local grid = field(12, 3, { rows = { 1, 1 } })
    local list = { { 2.5, 1.5, 10.5, 1.5 }, { 10.5, 1.5 } }
    local arrived, failed, _, units, ids = run(grid, list, 200, { max_wait = 30 })
    assert.is_nil(arrived[1])
    assert.equal(1, #failed)
    assert.matches("unit 1 failed %(blocked%)", failed[1])
    local ix, iy = units:position(ids[2])
    assert.same({ 10, 1 }, { math.floor(ix), math.floor(iy) })
  end)

  it("a stall in a corridor is counted, and the unit of higher id gives way into a niche", function()
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
    local units = wayfinder.units.new(grid, { avoidance = "orca", max_wait = 200 })
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

describe("orca determinism", function()
  local function scene()
    local grid = field(21, 13, { wall_x = 10, door_y = 6 })
    local list = {}
    for k = 0, 5 do
      list[#list + 1] = { 2.5 + k % 3, 4.5 + math.floor(k / 3) * 2, 17.5, 3.5 + k }
      list[#list + 1] = { 17.5 - k % 3, 8.5 + math.floor(k / 3) * 2, 3.5, 3.5 + k }
    end
    return grid, list
  end

  it("identical runs give identical traces, the index gives the brute-force trace, and it is not the sampled mode's", function()
    local grid, list = scene()
    local _, _, h1 = run(grid, list, 300)
    local _, _, h2 = run(grid, list, 300)
    local _, _, h3 = run(grid, list, 300, { brute = true })
    local _, _, hv = run(grid, list, 300, { avoidance = "velocity" })
    assert.equal(h1, h2)
    assert.equal(h1, h3)
    assert.are_not.equal(h1, hv)
  end)

  it("a simulation saved and loaded mid-move continues exactly as the original", function()
    local grid, list = scene()
    local units = wayfinder.units.new(grid, { avoidance = "orca", max_wait = 200 })
    local ids = {}
    for i, s in ipairs(list) do ids[i] = units:add({ x = s[1], y = s[2], radius = 0.4, speed = 0.25 }) end
    for i, s in ipairs(list) do units:move(ids[i], s[3], s[4]) end
    units:tick(60)
    local saved = units:save()
    assert.equal("orca", saved.options.avoidance)
    local copy = wayfinder.units.load(grid, saved)
    for _ = 1, 150 do
      local e1, e2 = units:tick(), copy:tick()
      assert.same(e1, e2)
      for _, id in ipairs(ids) do
        assert.same({ units:position(id) }, { copy:position(id) })
      end
    end
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
