-- Bad input on every unit entry point: clear errors naming the argument,
-- and nothing half-changed.
local wayfinder = require("wayfinder")

local function fresh()
  local g = wayfinder.grid.new(16, 16, { classes = { { name = "small" },
    { name = "big", clearance = 1 } } })
  g:set_passable(5, 5, false)
  local units = wayfinder.units.new(g)
  local id = assert(units:add({ x = 2.5, y = 2.5, radius = 0.5, speed = 1 }))
  return g, units, id
end

local function err(f, msg)
  local ok, e = pcall(f)
  assert.is_false(ok)
  assert.are.equal(msg, (tostring(e):gsub("^[^:]*:%d+: ", "")))
end

describe("wayfinder.units errors", function()
  it("new checks the grid and every option", function()
    local g = wayfinder.grid.new(4, 4)
    err(function() wayfinder.units.new(nil) end,
      "wayfinder.units.new: grid must be a wayfinder.Grid, got nil")
    err(function() wayfinder.units.new(g, 5) end,
      "wayfinder.units.new: options must be a table, got 5")
    err(function() wayfinder.units.new(g, { speed = 1 }) end,
      "wayfinder.units.new: unknown options key 'speed'")
    err(function() wayfinder.units.new(g, { capacity = 0 }) end,
      "wayfinder.units.new: options.capacity must be an integer in [1, 1048576], got 0")
    err(function() wayfinder.units.new(g, { budget = 0 / 0 }) end,
      "wayfinder.units.new: options.budget must be an integer in [1, 9007199254740992], got nan")
    err(function() wayfinder.units.new(g, { max_wait = -1 }) end,
      "wayfinder.units.new: options.max_wait must be an integer in [0, 1000000], got -1")
    err(function() wayfinder.units.new(g, { bucket = 1.5 }) end,
      "wayfinder.units.new: options.bucket must be an integer in [1, 256], got 1.5")
    err(function() wayfinder.units.new(g, { brute = 1 }) end,
      "wayfinder.units.new: options.brute must be a boolean, got 1")
  end)

  it("add checks every field and changes nothing when it refuses", function()
    local _, units = fresh()
    err(function() units:add(3) end, "units:add: unit must be a table {x =, y =, "
      .. "class =, radius =, speed =}, got 3")
    err(function() units:add({ x = 1, y = 1, radius = 0.5, speed = 1, size = 2 }) end,
      "units:add: unknown unit key 'size'")
    err(function() units:add({ x = 0 / 0, y = 1, radius = 0.5, speed = 1 }) end,
      "units:add: unit.x must be a number in [-16384, 16384], got nan")
    err(function() units:add({ x = 1, y = math.huge, radius = 0.5, speed = 1 }) end,
      "units:add: unit.y must be a number in [-16384, 16384], got inf")
    err(function() units:add({ x = 1, y = 1, radius = -1, speed = 1 }) end,
      "units:add: unit.radius must be a number in [0, 8], got -1")
    err(function() units:add({ x = 1, y = 1, radius = 0, speed = 1 }) end,
      "units:add: unit.radius must be a number in (0, 8], got 0")
    err(function() units:add({ x = 1, y = 1, radius = 9, speed = 1 }) end,
      "units:add: unit.radius must be a number in [0, 8], got 9")
    err(function() units:add({ x = 1, y = 1, radius = 0.5, speed = 0 }) end,
      "units:add: unit.speed must be a number in (0, 16], got 0")
    err(function() units:add({ x = 1, y = 1, radius = 0.5, speed = "fast" }) end,
      "units:add: unit.speed must be a number in [0, 16], got 'fast'")
    err(function() units:add({ x = 1, y = 1, radius = 0.5, speed = 1, class = "huge" }) end,
      "units:add: unit.class must name a class of the grid, got 'huge'")
    err(function() units:add({ x = 1, y = 1, radius = 0.5, speed = 1, class = 1 }) end,
      "units:add: unit.class must be a string, got 1")
    assert.are.equal(1, units:count())
    -- expected refusals are nil, reason
    assert.are.same({ nil, "impassable" },
      { units:add({ x = 5.5, y = 5.5, radius = 0.5, speed = 1 }) })
    assert.are.same({ nil, "impassable" },
      { units:add({ x = 6, y = 5.5, radius = 0.5, speed = 1 }) })   -- on its edge
    assert.are.same({ nil, "impassable" },
      { units:add({ x = 4.5, y = 4.5, radius = 0.5, speed = 1, class = "big" }) })
    assert.are.same({ nil, "outside" },
      { units:add({ x = -1, y = 4.5, radius = 0.5, speed = 1 }) })
    -- 2.5 + 0.5 + 0.5 + 1/8 = 3.625: on the grown square is an overlap
    assert.are.same({ nil, "overlap" },
      { units:add({ x = 3.625, y = 2.5, radius = 0.5, speed = 1 }) })
    assert.is_truthy(units:add({ x = 3.625 + 1 / 64, y = 2.5, radius = 0.5, speed = 1 }))
    assert.are.equal(2, units:count())
  end)

  it("move, stop, remove, position, state and info need a known id", function()
    local _, units, id = fresh()
    for _, m in ipairs({ "stop", "remove", "position", "state", "info" }) do
      err(function() units[m](units, 99) end,
        ("units:%s: id must be the id of a unit, got 99"):format(m))
      err(function() units[m](units, "1") end,
        ("units:%s: id must be an integer in [1, 4294967294], got '1'"):format(m))
    end
    err(function() units:move(99, 1, 1) end, "units:move: id must be the id of a unit, got 99")
    err(function() units:move(id, 0 / 0, 1) end,
      "units:move: x must be a number in [-16384, 16384], got nan")
    err(function() units:move(id, 1, 1, { goal = { shape = "star" } }) end,
      "units:move: options.goal.shape must be 'point', 'circle' or 'square', got 'star'")
    err(function() units:move(id, 1, 1, { range = -2 }) end,
      "units:move: options.range must be a number in [0, 16384], got -2")
    err(function() units:move(id, 1, 1, { speed = 2 }) end,
      "units:move: unknown options key 'speed'")
    assert.are.equal("idle", units:state(id))   -- nothing half-changed
    err(function() units:tick(0) end, "units:tick: n must be an integer in [1, 1000000], got 0")
    err(function() units.tick({}) end,
      "units:tick: self must be a wayfinder.Units, got a table (call it as units:method(...))")
    err(function() units:check_placement(1, 1, "small", 0) end,
      "units:check_placement: radius must be a number in (0, 8], got 0")
  end)

  it("refuse to work once closed or when the grid is closed", function()
    local g, units = fresh()
    g:close()
    err(function() units:tick() end, "units:tick: the units' grid is a closed grid")
    units:close()
    units:close()
    err(function() units:count() end, "units:count: the units are closed")
    assert.are.equal("wayfinder.Units (closed)", tostring(units))
  end)

  it("load checks the saved table and makes nothing from a bad one", function()
    local g, units, id = fresh()
    units:move(id, 10.5, 10.5)
    units:tick(3)
    local saved = units:save()
    err(function() wayfinder.units.load(g, 4) end,
      "wayfinder.units.load: saved must be a table from units:save(), got 4")
    local bad = units:save()
    bad.version = 2
    err(function() wayfinder.units.load(g, bad) end,
      "wayfinder.units.load: saved.version must be an integer in [1, 1], got 2")
    bad = units:save()
    bad.units[1].class = "huge"
    err(function() wayfinder.units.load(g, bad) end,
      "wayfinder.units.load: saved.units[1].class must name a class of the grid, got 'huge'")
    bad = units:save()
    bad.units[1].x = 0.5
    err(function() wayfinder.units.load(g, bad) end,
      "wayfinder.units.load: saved.units[1].x must be an integer in [-2147483648, "
      .. "2147483647], got 0.5")
    bad = units:save()
    bad.units[1].next = 1000
    err(function() wayfinder.units.load(g, bad) end,
      "wayfinder.units.load: saved.units[1] is not a consistent unit for this grid")
    bad = units:save()
    bad.clock.next_id = 1
    err(function() wayfinder.units.load(g, bad) end,
      "wayfinder.units.load: saved.clock does not agree with saved.units")
    local again = wayfinder.units.load(g, saved)
    assert.are.same({ units:position(id) }, { again:position(id) })
  end)
end)

describe("wayfinder.units argument tables", function()
  -- a table whose fields close the object being called
  local function closing(t, closer)
    return setmetatable({}, { __index = function(_, k)
      closer()
      return t[k]
    end })
  end

  it("never reach a simulation or grid their metamethods closed", function()
    local g = wayfinder.grid.new(16, 16)
    local units = wayfinder.units.new(g)
    local a = units:add({ x = 3.5, y = 3.5, radius = 0.4, speed = 1 })
    local function close_units() units:close() end
    assert.has_error(function()
      units:move(a, 8, 8, closing({ range = 1 }, close_units))
    end, "units:move: the units are closed")
    units = wayfinder.units.new(g)
    a = units:add({ x = 3.5, y = 3.5, radius = 0.4, speed = 1 })
    assert.has_error(function()
      units:add(closing({ x = 8.5, y = 8.5, radius = 0.4, speed = 1 }, close_units))
    end, "units:add: the units are closed")
    units = wayfinder.units.new(g)
    assert.has_error(function()
      units:spawn_points(closing({ x = 8, y = 8, half_width = 1, half_height = 1 },
        close_units), nil, 0.4, 3)
    end, "units:spawn_points: the units are closed")
    local shape = { x = 8, y = 8, half_width = 1, half_height = 1 }
    assert.has_error(function()
      g:check_building(closing(shape, function() g:close() end))
    end, "grid:check_building: the grid is closed")
    local g2 = wayfinder.grid.new(16, 16)
    local u2 = wayfinder.units.new(g2)
    u2:add({ x = 3.5, y = 3.5, radius = 0.4, speed = 1 })
    local saved = u2:save()
    saved.units[1] = closing(saved.units[1], function() g2:close() end)
    assert.has_error(function() wayfinder.units.load(g2, saved) end,
      "wayfinder.units.load: grid is a closed grid")
  end)
end)
