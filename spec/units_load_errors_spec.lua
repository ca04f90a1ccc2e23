-- wayfinder.units.load refuses every malformed field of a save by name,
-- and a refused load leaves the grid usable (the error paths of
-- src/lua/lunits.c that the other unit specs do not reach).
local wayfinder = require("wayfinder")

local function deep_copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = deep_copy(v) end
  return c
end

-- a save with an idle unit, a moving unit with waypoints and an order, and
-- a unit ordered to a circle
local function saved_sim()
  local g = wayfinder.grid.new(16, 12)
  for y = 2, 8 do g:set_passable(6, y, false) end
  local u = wayfinder.units.new(g, { budget = 1000 })
  u:add { x = 1.5, y = 1.5, radius = 0.25, speed = 0.5 }
  u:add { x = 2.5, y = 5.5, radius = 0.25, speed = 0.5 }
  u:add { x = 12.5, y = 10.5, radius = 0.25, speed = 0.5 }
  u:move(2, 12.5, 5.5)
  u:move(3, 2.5, 10.5, { goal = { shape = "circle", radius = 1 } })
  u:tick(2)
  return g, u:save(), u
end

local function moving_index(saved)
  for k, unit in ipairs(saved.units) do
    if unit.goal and #unit.waypoints > 0 then return k end
  end
  error("no moving unit in the save")
end

describe("wayfinder.units.load refuses", function()
  local cases = {
    { "options not a table", function(s) s.options = 3 end,
      "saved.options must be a table, got 3" },
    { "bad options", function(s) s.options.budget = 0 end,
      "options.budget must be an integer in [1, 9007199254740992], got 0" },
    { "clock not a table", function(s) s.clock = "now" end,
      "saved.clock must be a table, got 'now'" },
    { "clock.next_id", function(s) s.clock.next_id = 0 end,
      "saved.clock.next_id must be an integer in [1, 4294967295], got 0" },
    { "clock.ticks", function(s) s.clock.ticks = -1 end, "saved.clock.ticks must be" },
    { "units not a table", function(s) s.units = true end,
      "saved.units must be a table, got true" },
    { "more units than the capacity", function(s) s.options.capacity = 1 end,
      "saved.units holds more units than options.capacity" },
    { "a unit not a table", function(s) s.units[2] = 7 end,
      "saved.units[2] must be a table, got 7" },
    { "a unit without a class", function(s) s.units[1].class = nil end,
      "saved.units[1].class must be a string, got nil" },
    { "an unknown state", function(s) s.units[1].state = "dancing" end,
      "saved.units[1].state must be a unit state, got 'dancing'" },
    { "a state not a string", function(s) s.units[1].state = 4 end,
      "saved.units[1].state must be a string" },
    { "a radius out of range", function(s) s.units[1].radius = 0 end,
      "saved.units[1].radius must be an integer in [1, " },
    { "a goal not a table", function(s) s.units[s.k].goal = 5 end,
      "saved.units[K].goal must be a table, got 5" },
    { "a goal of an unknown type", function(s) s.units[s.k].goal.type = 3 end,
      "saved.units[K].goal.type must be an integer in [0, 2], got 3" },
    { "a goal direction out of range", function(s) s.units[s.k].goal.ux = 65537 end,
      "saved.units[K].goal.ux must be an integer in [-65536, 65536], got 65537" },
    { "waypoints not a table", function(s) s.units[s.k].waypoints = "a" end,
      "saved.units[K].waypoints must be a table, got 'a'" },
    { "an odd number of waypoint coordinates", function(s)
        local w = s.units[s.k].waypoints
        w[#w + 1] = 65536
      end, "saved.units[K].waypoints must hold x, y pairs" },
    { "a waypoint coordinate not an integer", function(s) s.units[s.k].waypoints[1] = 0.5 end,
      "saved.units[K].waypoints[1] must be an integer in [-2147483648, 2147483647], got 0.5" },
    { "a unit off the grid", function(s) s.units[1].x = 16 * 65536 end,
      "saved.units[1] is not a consistent unit for this grid" },
    { "a waypoint off the grid", function(s) s.units[s.k].waypoints[2] = 12 * 65536 end,
      "saved.units[K] is not a consistent unit for this grid" },
    { "a clock behind its units", function(s) s.clock.next_id = 1 end,
      "saved.clock does not agree with saved.units" },
  }
  for _, case in ipairs(cases) do
    it(case[1], function()
      local g, saved = saved_sim()
      local bad = deep_copy(saved)
      bad.k = nil
      local k = moving_index(bad)
      bad.k = k
      case[2](bad)
      bad.k = nil
      local ok, err = pcall(wayfinder.units.load, g, bad)
      assert.is_false(ok)
      local want = "wayfinder.units.load: " .. case[3]:gsub("%[K%]", "[" .. k .. "]")
      assert.are.equal(want, tostring(err):sub(1, #want))
      -- the grid is still usable, and the untouched save still loads
      local u2 = wayfinder.units.load(g, saved)
      assert.are.equal(3, u2:count())
      u2:close()
    end)
  end

  it("a save loads and goes on as the original does", function()
    local g, saved, u = saved_sim()
    local copy = wayfinder.units.load(g, deep_copy(saved))
    for _ = 1, 30 do
      u:tick()
      copy:tick()
      for _, id in ipairs(u:ids()) do
        local x1, y1 = u:position(id)
        local x2, y2 = copy:position(id)
        assert.are.equal(x1, x2)
        assert.are.equal(y1, y2)
        assert.are.equal(u:state(id), copy:state(id))
      end
    end
  end)
end)
