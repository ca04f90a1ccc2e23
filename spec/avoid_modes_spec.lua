-- What both local avoidance modes of units ("velocity", spec/avoid_spec.lua,
-- and "orca", spec/units_orca_spec.lua) promise alike, run once per mode:
-- an idle unit on a mover's goal steps aside, an idle unit with no room
-- stays and the mover fails blocked, a stall in a corridor is counted and
-- the unit of higher id gives way into a niche, identical runs repeat
-- (with the spatial index or testing every unit), and a saved simulation
-- continues exactly. Every tick of the crowd runs is checked by
-- spec/support/avoid_run.lua (no overlap, nobody on blocked ground).
local wayfinder = require("wayfinder")

local avoid_run = require("support.avoid_run")
local field, all_arrive = avoid_run.field, avoid_run.all_arrive

-- a door scene: six units a side crossing a one-navcell door both ways
local function door_scene()
  local grid = field(21, 13, { wall_x = 10, door_y = 6 })
  local list = {}
  for k = 0, 5 do
    list[#list + 1] = { 2.5 + k % 3, 4.5 + math.floor(k / 3) * 2, 17.5, 3.5 + k }
    list[#list + 1] = { 17.5 - k % 3, 8.5 + math.floor(k / 3) * 2, 3.5, 3.5 + k }
  end
  return grid, list
end

for _, mode in ipairs({ "velocity", "orca" }) do
  local function run(...) return avoid_run.run(mode, ...) end

  describe(("avoidance %q: shove and stalls"):format(mode), function()
    it("an idle unit standing on another's goal steps aside, and the mover arrives", function()
      local grid = field(21, 5)
      local list = { { 2.5, 2.5, 10.5, 2.5 }, { 10.5, 2.5 } }
      local arrived, failed, _, units, ids = run(grid, list, 200)
      all_arrive(list, arrived, failed, 60)
      local ix, iy = units:position(ids[2])
      assert.is_true(ix ~= 10.5 or iy ~= 2.5, "the idle unit moved")
      assert.equal("idle", units:state(ids[2]))
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

    it("a stall is counted, and the unit of higher id gives way into a niche", function()
      -- a corridor one navcell wide (units of radius 0.5 cannot pass in it)
      -- with a niche two navcells deep above its middle: the two meet and
      -- stall; unit 2 (the higher id) steps into the niche, unit 1 keeps
      -- to the corridor and passes
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
      local units = wayfinder.units.new(grid, { avoidance = mode, max_wait = 200 })
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

  describe(("avoidance %q: determinism"):format(mode), function()
    it("identical runs give identical traces, and the index gives the trace of testing every unit", function()
      local grid, list = door_scene()
      local _, _, h1 = run(grid, list, 300)
      local _, _, h2 = run(grid, list, 300)
      local _, _, h3 = run(grid, list, 300, { brute = true })
      assert.equal(h1, h2)
      assert.equal(h1, h3)
    end)

    it("a simulation saved and loaded mid-move continues exactly as the original", function()
      local grid, list = door_scene()
      local units = wayfinder.units.new(grid, { avoidance = mode, max_wait = 200 })
      local ids = {}
      for i, s in ipairs(list) do ids[i] = units:add({ x = s[1], y = s[2], radius = 0.4, speed = 0.25 }) end
      for i, s in ipairs(list) do units:move(ids[i], s[3], s[4]) end
      units:tick(60)
      local saved = units:save()
      assert.equal(mode, saved.options.avoidance)
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
end

describe("avoidance modes", function()
  it("the two modes move the same scene differently", function()
    local grid, list = door_scene()
    local _, _, hv = avoid_run.run("velocity", grid, list, 300)
    local _, _, ho = avoid_run.run("orca", grid, list, 300)
    assert.are_not.equal(hv, ho)
  end)
end)

describe("the crowd runs' overlap check", function()
  local function fails_with(text, ...)
    local ok, err = pcall(avoid_run.check_apart, ...)
    assert.is_false(ok)
    assert.matches(text, tostring(type(err) == "table" and err.message or err), 1, true)
  end

  it("fails on two squares that overlap, across buckets too, and passes apart ones", function()
    local r = { 0.4, 0.4, 0.4 }
    -- 0.79 apart in x: overlapping; the pair straddles a bucket edge
    fails_with("units 1 and 2 overlap at tick 7", { 0.5, 1.29, 5 }, { 1, 1, 5 }, r, 7)
    fails_with("units 2 and 3 overlap at tick 3", { 5, 1.29, 0.5 }, { 5, 1.5, 1.2 }, r, 3)
    -- 0.81 apart in x, or in y: apart
    avoid_run.check_apart({ 0.5, 1.31, 0.5 }, { 1, 1, 1.81 }, r, 1)
  end)
end)
