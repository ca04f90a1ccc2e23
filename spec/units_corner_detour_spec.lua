-- Corner curves and detours together: a detour that replaces the
-- waypoints ahead must carry the corner curve's bookkeeping with it, so
-- that every save of a running simulation loads (a unit whose curve index
-- pointed past its shortened way was refused as "not a consistent unit").
local wayfinder = require("wayfinder")
local units_run = require("support.units_run")

local MOTION = { accel = 0.125, turn_rate = 1, arrive_radius = 1, lookahead = true,
  corner_radius = 1, max_wait = 8, budget = 2000 }

local function run(seed, ticks)
  local g = units_run.map(seed, 48, 40, 0.1)
  local u = wayfinder.units.new(g, MOTION)
  local _, schedule = units_run.populate(u, g, seed, 60, ticks)
  local saves, curved = 0, 0
  for t = 1, ticks do
    units_run.issue(u, schedule, t)
    u:tick()
    local saved = u:save()
    local ok, copy = pcall(wayfinder.units.load, g, saved)
    assert.is_true(ok, ("tick %d: the save did not load: %s"):format(t, tostring(copy)))
    -- the copy takes the next tick exactly as the original does
    local a, b = units_run.snapshot(u), units_run.snapshot(copy)
    units_run.issue(copy, schedule, t + 1)
    assert.same(units_run.trace_line(t, a), units_run.trace_line(t, b))
    for _, su in ipairs(saved.units) do
      if su.bend >= 0 then curved = curved + 1 end
    end
    copy:close()
    saves = saves + 1
  end
  u:close()
  g:close()
  return saves, curved
end

describe("units with corner curves and detours", function()
  it("save and load at every tick of seeded crowded runs", function()
    for _, seed in ipairs({ 3, 5, 21 }) do
      local saves, curved = run(seed, 150)
      assert.equal(150, saves)
      -- the runs do round corners (else they would prove nothing here)
      assert.is_true(curved > 0, "seed " .. seed .. ": no unit rounded a corner")
    end
  end)
end)
