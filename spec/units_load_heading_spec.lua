-- wayfinder.units.load refuses a saved heading that is not a unit vector:
-- a short one (hx = 1/65536, hy = 0), turned by turn_rate, rounded to
-- length 0 and the next tick divided by it (found by the file fuzzer with
-- the sanitizer build, seed 4: "division by zero" in travel_of).
local wayfinder = require("wayfinder")

local function saved()
  local g = wayfinder.grid.new(12, 6)
  local u = wayfinder.units.new(g, { turn_rate = 1, budget = 1000 })
  u:add { x = 1.5, y = 1.5, radius = 0.25, speed = 0.5 }
  u:move(1, 1.5, 4.5)          -- a quarter turn from the heading (1, 0)
  u:tick(1)
  return g, u:save()
end

describe("wayfinder.units.load and the saved heading", function()
  for _, h in ipairs({ { 1, 0 }, { 0, -1 }, { 20000, 20000 }, { 32767, 0 } }) do
    it(("refuses hx, hy = %d, %d"):format(h[1], h[2]), function()
      local g, s = saved()
      s.units[1].hx, s.units[1].hy = h[1], h[2]
      local ok, err = pcall(wayfinder.units.load, g, s)
      assert.is_false(ok)
      assert.truthy(err:find("wayfinder.units.load: saved.units[1] is not a consistent unit "
        .. "for this grid", 1, true))
    end)
  end

  it("takes a heading of length about one, and the unit turns and walks", function()
    local g, s = saved()
    s.units[1].hx, s.units[1].hy = 46341, -46341     -- (1, -1) / sqrt 2
    local u = wayfinder.units.load(g, s)
    u:tick(30)
    local x, y = u:position(1)
    assert.equals(1.5, x)
    assert.equals(4.5, y)
  end)

  it("loads its own save", function()
    local g, s = saved()
    assert.truthy(wayfinder.units.load(g, s))
  end)
end)
