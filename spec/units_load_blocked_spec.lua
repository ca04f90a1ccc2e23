-- wayfinder.units.load refuses a unit standing where its class cannot
-- (a save that does not belong to the grid), by the unit's place in the
-- save and its id, and takes the two cases where the simulation itself
-- leaves a unit there: escaping, or the grid closed over it since the
-- last tick (the save marks it "blocked"; it escapes on the next tick).
local wayfinder = require("wayfinder")

local function grid()
  return wayfinder.grid.from_ascii(table.concat({
    "........",
    "........",
    "........",
    "........",
  }, "\n"), { classes = { { name = "default", clearance = 0 },
    { name = "big", clearance = 1 } } })
end

local function sim(g)
  local u = wayfinder.units.new(g, { budget = 1000 })
  u:add { x = 0.5, y = 0.5, radius = 0.25, speed = 0.5 }
  u:add { x = 4.5, y = 1.5, radius = 0.25, speed = 0.5 }
  u:move(2, 7.5, 3.5)
  u:tick(1)
  return u
end

local function trace(u, ticks)
  local out = {}
  for _ = 1, ticks do
    u:tick()
    for _, id in ipairs(u:ids()) do
      local x, y = u:position(id)
      out[#out + 1] = ("%d %.6f %.6f %s"):format(id, x, y, u:state(id))
    end
  end
  return table.concat(out, "\n")
end

describe("wayfinder.units.load and blocked navcells", function()
  it("refuses a unit on a navcell blocked in the loaded grid, naming it", function()
    local saved = sim(grid()):save()
    local g = grid()
    g:set_passable(0, 0, false)
    local version = g:version()
    local ok, err = pcall(function()
      local copy = wayfinder.units.load(g, saved)
      return copy
    end)
    assert.is_false(ok)
    assert.equals("wayfinder.units.load: saved.units[1] (unit 1) stands at (0.5, 0.5), "
      .. "on a navcell blocked for class 'default' in this grid", err:gsub("^[^:]+:%d+: ", ""))
    assert.truthy(err:find("units_load_blocked_spec%.lua:%d+: wayfinder%.units%.load: "))
    assert.equals(version, g:version())
    assert.is_true(g:is_passable(1, 0))
  end)

  it("refuses a moving unit whose position was moved onto a wall", function()
    local g = grid()
    g:set_passable(3, 3, false)
    local saved = sim(g):save()
    saved.units[2].x, saved.units[2].y = 3.5 * 65536, 3.5 * 65536
    local ok, err = pcall(wayfinder.units.load, g, saved)
    assert.is_false(ok)
    assert.truthy(err:find("saved.units[2] (unit 2) stands at (3.5, 3.5)", 1, true))
  end)

  it("judges by the unit's class", function()
    local g = grid()
    local u = wayfinder.units.new(g)
    u:add { x = 2.5, y = 2.5, radius = 0.25, speed = 0.5, class = "big" }
    local saved = u:save()
    local g2 = grid()
    g2:set_passable(3, 2, false)     -- beside it: blocked for "big" only
    local ok, err = pcall(wayfinder.units.load, g2, saved)
    assert.is_false(ok)
    assert.truthy(err:find("blocked for class 'big'", 1, true))
    saved.units[1].class = "default"
    assert.truthy(wayfinder.units.load(g2, saved))
  end)

  it("takes a unit the grid closed over since the last tick, which then escapes", function()
    local g = grid()
    local u = sim(g)
    g:set_passable(0, 0, false)
    local saved = u:save()
    assert.is_true(saved.units[1].blocked)
    assert.is_nil(saved.units[2].blocked)
    local copy = wayfinder.units.load(g, saved)
    assert.equals(trace(u, 12), trace(copy, 12))
    local x, y = copy:position(1)
    assert.is_false(x < 1 and y < 1)
    saved.units[1].blocked = nil
    local ok, err = pcall(wayfinder.units.load, g, saved)
    assert.is_false(ok)
    assert.truthy(err:find("saved.units[1] (unit 1) stands", 1, true))
  end)

  it("takes an escaping unit", function()
    local g = grid()
    local u = sim(g)
    g:set_passable(0, 0, false)
    u:tick(1)
    assert.equals("escaping", u:state(1))
    local saved = u:save()
    assert.equals("escaping", saved.units[1].state)
    assert.is_nil(saved.units[1].blocked)
    local copy = wayfinder.units.load(g, saved)
    assert.equals(trace(u, 10), trace(copy, 10))
  end)
end)
