-- Units whose ground changes under them: escaping an impassable navcell,
-- planning again when a wall appears on the way, and "stuck".
local wayfinder = require("wayfinder")

describe("units on changing ground", function()
  it("escape to the nearest passable navcell, idle or with an order", function()
    local g = wayfinder.grid.new(12, 12)
    local units = wayfinder.units.new(g)
    local idle = units:add({ x = 3.5, y = 3.5, radius = 0.3, speed = 0.25 })
    local busy = units:add({ x = 8.5, y = 3.5, radius = 0.3, speed = 0.5 })
    -- block a 3 x 3 square round the idle unit and the busy one's navcell
    for y = 2, 4 do for x = 2, 4 do g:set_passable(x, y, false) end end
    g:set_passable(8, 3, false)
    units:move(busy, 8.5, 10.5)
    units:tick()
    assert.are.equal("escaping", units:state(idle))
    assert.are.equal("escaping", units:state(busy))
    local events = units:tick(60)
    -- the idle unit ends on the centre of the nearest passable navcell
    -- (ties: lower row, then lower column) and stays idle
    assert.are.same({ 3.5, 1.5 }, { units:position(idle) })
    assert.are.equal("idle", units:state(idle))
    -- the busy one escaped, planned again and arrived
    assert.are.same({ { tick = events[1].tick, id = busy, event = "arrived" } }, events)
    assert.are.same({ 8.5, 10.5 }, { units:position(busy) })
  end)

  it("plan again when the grid closes the way", function()
    local g = wayfinder.grid.new(16, 8)
    local units = wayfinder.units.new(g)
    local a = units:add({ x = 1.5, y = 3.5, radius = 0.3, speed = 0.5 })
    units:move(a, 14.5, 3.5)
    units:tick(4)
    assert.are.equal("moving", units:state(a))
    -- a wall across x = 8 with one gap at y = 7
    for y = 0, 6 do g:set_passable(8, y, false) end
    local events = units:tick(80)
    assert.are.equal("arrived", events[#events].event)
    assert.are.same({ 14.5, 3.5 }, { units:position(a) })
    -- it went through the gap
    local info = units:info(a)
    local through = false
    for _, w in ipairs(info.waypoints) do
      if w[2] >= 7 then through = true end
    end
    assert.is_true(through)
  end)

  it("fail 'stuck' with no passable navcell at all", function()
    local g = wayfinder.grid.new(4, 4)
    local units = wayfinder.units.new(g)
    local a = units:add({ x = 1.5, y = 1.5, radius = 0.3, speed = 0.5 })
    units:move(a, 2.5, 2.5)
    for y = 0, 3 do for x = 0, 3 do g:set_passable(x, y, false) end end
    assert.are.same({ { tick = 1, id = a, event = "failed", reason = "stuck" } }, units:tick())
    assert.are.equal("idle", units:state(a))
  end)
end)
