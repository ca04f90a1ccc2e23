-- "near" means anywhere within the distance, in the room: a person leaves
-- a closet smaller than the near square of its door through that door,
-- and the rectangle planner answers a start already in the square with the
-- start itself.
local wayfinder = require("wayfinder")
local rectplan = require("wayfinder.rectplan")

-- A closet of w x h tiles on the left of a hall, its door on the closet's
-- right wall, on its lowest row.
local function closet(w, h)
  local lines = {}
  local width = w + 4
  local function border()
    local t = { "+" }
    for _ = 1, width do t[#t + 1] = "-+" end
    return table.concat(t)
  end
  lines[1] = border()
  for y = 1, h do
    local t = { "|" }
    for x = 1, width do
      local edge = " "
      if x == w then edge = y == h and "A" or "|" end
      if x == width then edge = "|" end
      t[#t + 1] = "." .. edge
    end
    lines[#lines + 1] = table.concat(t)
    if y < h then
      local u = { "+" }
      for _ = 1, width do u[#u + 1] = " +" end
      lines[#lines + 1] = table.concat(u)
    end
  end
  lines[#lines + 1] = border()
  return table.concat(lines, "\n"), width
end

local planners = { { "rectangle", rectplan.plan }, { "grid", require("wayfinder.gridplan").plan } }

for _, planner in ipairs(planners) do
  describe("a person in a closet, " .. planner[1] .. " planner", function()
    for _, size in ipairs({ { 2, 2 }, { 2, 3 }, { 3, 2 }, { 1, 1 }, { 1, 3 } }) do
      local w, h = size[1], size[2]
      it(("leaves a %dx%d closet through its door"):format(w, h), function()
        local text, width = closet(w, h)
        local world = wayfinder.world.from_ascii(text, { legend = { A = { type = "door" } },
          world = { planner = planner[2] } })
        local p = world:add_person { x = 0.5, y = 0.5 }
        p:route_to(width - 0.5, h - 0.5)
        world:tick(300)
        assert.are.equal("success", p:state().last_result)
        local x, y = p:position()
        assert.are.same({ width - 0.5, h - 0.5 }, { x, y })
      end)
    end
  end)
end

describe("a thin fast person", function()
  -- 0.1 wide, one tile per tick, in a corridor with someone as thin: no
  -- step's swept square meets the other person's (the issue's case was a
  -- step from one side of them to the other, clear at both ends)
  it("never passes through another person", function()
    local brute = require("support.sweep_brute")
    local world = wayfinder.world.from_ascii(table.concat({
      "+-+-+-+-+-+-+",
      "|. . . . . .|",
      "+-+-+-+-+-+-+" }, "\n"))
    local p = world:add_person { x = 0.5, y = 0.5, width = 0.1, speed = 1 }
    p:route_to(5.5, 0.5)
    world:tick()
    -- someone steps into the walk's way after it was planned
    local x0 = world.walker:person(p.id)
    local q = world:add_person { x = x0 / 65536 + 0.3, y = 0.5, width = 0.1 }
    local moves = 0
    for _ = 1, 60 do
      local ax, ay = world.walker:person(p.id)
      local cx, cy = world.walker:person(q.id)
      world:tick()
      local bx, by = world.walker:person(p.id)
      if ax ~= bx or ay ~= by then moves = moves + 1 end
      local e = p.half + q.half - 1
      local x_lo, y_lo, x_hi, y_hi = cx - e, cy - e, cx + e, cy + e
      local inside = ax >= x_lo and ax <= x_hi and ay >= y_lo and ay <= y_hi
      assert.is_false(not inside and brute.meets(ax, ay, bx, by, x_lo, y_lo, x_hi, y_hi),
        ("the step (%d, %d) -> (%d, %d) swept through the person at (%d, %d)")
          :format(ax, ay, bx, by, cx, cy))
    end
    assert.is_true(moves > 0)
    -- it still gets there, round the other person
    assert.are.equal("success", p:state().last_result)
  end)
end)

describe("the rectangle planner's near mode", function()
  -- one 2 x 2 room; the square of half 2 round (1.5, 1.5) has no boundary in it
  local room = { width = 2, height = 2, rooms = { 1, 1, 1, 1 },
    walls = { { 0, 0, 2, 0 }, { 0, 2, 2, 2 }, { 0, 0, 0, 2 }, { 2, 0, 2, 2 } }, objects = {} }

  it("ends at once where the start already lies in the square", function()
    local points = assert(rectplan.plan(room, { start = { 0.5, 0.5 }, goal = { 1.5, 1.5 },
      mode = "near", near = 2, width = 0.5 }))
    assert.are.same({ { 0.5, 0.5 } }, points)
    -- on the square's edge counts as in it
    points = assert(rectplan.plan(room, { start = { 0.5, 0.5 }, goal = { 1.5, 1.5 },
      mode = "near", near = 1, width = 0.5 }))
    assert.are.same({ { 0.5, 0.5 } }, points)
  end)

  it("still walks to the square's boundary from outside it", function()
    local points = assert(rectplan.plan(room, { start = { 0.5, 0.5 }, goal = { 1.5, 1.5 },
      mode = "near", near = 0.5, width = 0.5 }))
    local last = points[#points]
    local dx, dy = math.abs(last[1] - 1.5), math.abs(last[2] - 1.5)
    assert.are.equal(0.5, math.max(dx, dy))
    assert.is_true(#points >= 2)
  end)
end)
