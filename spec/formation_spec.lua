-- Formations: slot shapes, the minimum-travel assignment checked against
-- every permutation, and a formation that walks a path at its slowest
-- member's pace, squeezes into a column through a gap narrower than
-- itself, never stands on a wall, and re-forms after.
local wayfinder = require("wayfinder")
local F = wayfinder.formation
local sweep = wayfinder.sweep

local Q = 65536

local function pts(list)
  local t = {}
  for i, p in ipairs(list) do t[i] = ("(%g,%g)"):format(p.x, p.y) end
  return table.concat(t, " ")
end

-- A 40 x 16 field split by a wall at x = 20 with a one-navcell gap at y = 9.
local function gap_grid()
  local rows = {}
  for y = 0, 15 do
    local row = {}
    for x = 0, 39 do
      row[#row + 1] = (x == 20 and y >= 4 and y <= 14 and y ~= 9) and "@" or "."
    end
    rows[#rows + 1] = table.concat(row)
  end
  return wayfinder.grid.from_ascii(table.concat(rows, "\n") .. "\n")
end

local function worst_slot(f)
  local worst = 0
  for i = 1, f:count() do
    local x, y, sx, sy = f:get(i)
    worst = math.max(worst, math.sqrt((x - sx) ^ 2 + (y - sy) ^ 2))
  end
  return worst
end

describe("formation shapes", function()
  it("lays out line, column, box and wedge (x forward, y left)", function()
    assert.equal("(0,2) (0,1) (0,0) (0,-1) (0,-2)", pts(F.offsets("line", 5, 1)))
    assert.equal("(0,0) (-1,0) (-2,0) (-3,0) (-4,0)", pts(F.offsets("column", 5)))
    assert.equal("(0,1) (0,0) (0,-1) (-1,0.5) (-1,-0.5)", pts(F.offsets("box", 5, 1)))
    assert.equal("(0,0) (-2,2) (-2,-2) (-4,4) (-4,-4)", pts(F.offsets("wedge", 5, 2)))
    assert.equal("(0,0.5) (0,-0.5) (-1,0.5) (-1,-0.5)", pts(F.offsets("box", 4, 1)))
  end)
end)

describe("formation assignment", function()
  it("finds the least total travel on a worked example", function()
    local slot, total = F.assign({ { x = 0, y = 0 }, { x = 10, y = 0 }, { x = 5, y = 5 } },
      { { x = 10, y = 1 }, { x = 5, y = 4 }, { x = 0, y = 1 } })
    assert.same({ 3, 1, 2 }, slot)
    assert.equal(3, total)
  end)

  it("equals the minimum over every permutation", function()
    local seed = 99
    local function rnd(m)
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % m
    end
    local function dist(a, b)   -- the core's floor of the Q16.16 length
      local dx, dy = (a.x - b.x) * Q, (a.y - b.y) * Q
      return math.floor(math.sqrt(dx * dx + dy * dy))
    end
    for _ = 1, 5 do
      local n = 6
      local m, s = {}, {}
      for i = 1, n do
        m[i] = { x = rnd(512) / 64 - 4, y = rnd(512) / 64 - 4 }
        s[i] = { x = rnd(512) / 64 - 4, y = rnd(512) / 64 - 4 }
      end
      local best = math.huge
      local used = {}
      local function rec(k, sum)
        if sum >= best then return end
        if k > n then best = sum; return end
        for j = 1, n do
          if not used[j] then
            used[j] = true
            rec(k + 1, sum + dist(m[k], s[j]))
            used[j] = false
          end
        end
      end
      rec(1, 0)
      local slot, total = F.assign(m, s)
      local seen, sum = {}, 0
      for i = 1, n do
        assert.is_nil(seen[slot[i]])
        seen[slot[i]] = true
        sum = sum + dist(m[i], s[slot[i]])
      end
      assert.equal(best, sum)
      assert.equal(best, total * Q)
    end
  end)

  it("names bad arguments", function()
    assert.has_error(function() F.assign({}, {}) end,
      "wayfinder.formation.assign: members must hold 1 to 256 points, got 0")
    assert.has_error(function()
      F.assign({ { x = 0, y = 0 } }, { { x = 0, y = 0 }, { x = 1, y = 1 } })
    end,
      "wayfinder.formation.assign: slots must hold as many points as members (1), got 2")
    assert.has_error(function() F.assign({ { x = 0, y = 0 / 0 } }, { { x = 0, y = 0 } }) end)
    assert.has_error(function() F.offsets("blob", 3) end,
      "wayfinder.formation.offsets: shape must be one of line, column, box, wedge, got 'blob'")
    assert.has_error(function() F.offsets("line", 0) end)
    assert.has_error(function() F.offsets("line", 3, 0) end,
      "wayfinder.formation.offsets: spacing must be in (0, 64], got 0")
  end)
end)

describe("a formation on a path", function()
  local function box_through_gap()
    local grid = gap_grid()
    local path = {}
    for i, p in ipairs(assert(grid:find_path(2.5, 9.5, 37.5, 9.5))) do
      path[i] = { x = p.x + 0.5, y = p.y + 0.5 }
    end
    local members = {}
    for i = 0, 8 do
      members[#members + 1] = { x = 1.5 + (i % 3), y = 8.5 + math.floor(i / 3),
        speed = i == 4 and 0.2 or 0.3 }
    end
    return grid, F.new(path, members, { shape = "box", spacing = 1 })
  end

  it("keeps shape, squeezes through a one-navcell gap, re-forms within 80 ticks", function()
    local grid, f = box_through_gap()
    local _, _, pace = f:anchor()
    -- 3/4 of the slowest member: 13107 * 49152 / 65536 = 9830.25
    assert.equal(9830, pace * Q)
    local squeezed_at, through_at, reformed_at, arrived_at
    local ax0, ay0 = f:anchor()
    for tick = 1, 600 do
      local arrived = f:step(grid)
      local ax, ay = f:anchor()
      assert.is_true(math.sqrt((ax - ax0) ^ 2 + (ay - ay0) ^ 2) <= pace + 1e-9)
      ax0, ay0 = ax, ay
      local all_through = true
      for i = 1, f:count() do
        local x, y = f:get(i)
        assert.is_false(sweep.grid(grid, x, y, x, y), ("member %d on a wall"):format(i))
        if x <= 21 then all_through = false end
      end
      if tick >= 30 and tick <= 100 then
        assert.is_true(worst_slot(f) < 1 / 16, "shape lost on the open stretch")
      end
      if f:squeezed() and not squeezed_at then squeezed_at = tick end
      if all_through and not through_at then through_at = tick end
      if through_at and not reformed_at and not f:squeezed() and worst_slot(f) < 1 / 16 then
        reformed_at = tick
      end
      if arrived then arrived_at = tick; break end
    end
    assert.is_not_nil(squeezed_at, "never squeezed")
    assert.is_not_nil(through_at, "never got through the gap")
    assert.is_not_nil(reformed_at, "never re-formed")
    assert.is_true(reformed_at - through_at <= 80, ("re-formed %d ticks after the gap")
      :format(reformed_at - through_at))
    assert.is_not_nil(arrived_at)
    assert.is_false(f:squeezed())
  end)

  it("gives the same trace twice", function()
    local function run()
      local grid, f = box_through_gap()
      local h = 0
      for _ = 1, 300 do
        f:step(grid)
        for i = 1, f:count() do
          local x, y = f:get(i)
          h = (h * 31 + math.floor(x * Q) + 7 * math.floor(y * Q)) % 2147483647
        end
      end
      return h
    end
    assert.equal(run(), run())
  end)

  it("follows a turning path in a user's slot list", function()
    local grid = wayfinder.grid.new(30, 30)
    local path = { { x = 5.5, y = 5.5 }, { x = 20.5, y = 5.5 }, { x = 20.5, y = 20.5 } }
    local slots = { { x = 0, y = 0 }, { x = -2, y = 1 }, { x = -2, y = -1 } }
    local f = F.new(path, { { x = 3.5, y = 5.5 }, { x = 4.5, y = 6.5 }, { x = 4.5, y = 4.5 } },
      { slots = slots, spacing = 1 })
    local done
    for tick = 1, 800 do
      if f:step(grid) then done = tick; break end
    end
    assert.is_not_nil(done)
    -- heading +y at the end: slot (-2, 1) lies at (20.5 - 1, 20.5 - 2)
    local found = false
    for i = 1, 3 do
      local x, y = f:get(i)
      if math.abs(x - 19.5) < 1 / 16 and math.abs(y - 18.5) < 1 / 16 then found = true end
    end
    assert.is_true(found)
  end)

  it("names bad arguments and closes once", function()
    local grid = gap_grid()
    local path = { { x = 1.5, y = 1.5 }, { x = 5.5, y = 1.5 } }
    local one = { { x = 1.5, y = 1.5 } }
    assert.has_error(function() F.new({}, one) end,
      "wayfinder.formation.new: path must hold 1 to 65536 points, got 0")
    assert.has_error(function() F.new(path, { 5 }) end,
      "wayfinder.formation.new: members[1] must be a table {x =, y =}, got 5")
    assert.has_error(function() F.new(path, { { x = 1, y = 1, speed = 0 } }) end,
      "wayfinder.formation.new: members[1].speed must be in (0, 8], got 0")
    assert.has_error(function() F.new(path, one, { shape = "ring" }) end,
      "wayfinder.formation.new: options.shape must be one of line, column, box, wedge, got 'ring'")
    assert.has_error(function() F.new(path, one, { slots = {} }) end,
      "wayfinder.formation.new: options.slots must hold 1 to 256 points, got 0")
    assert.has_error(function() F.new(path, one, { pace = 2 }) end)
    assert.has_error(function() F.new(path, one, { reform = 0 }) end)
    assert.has_error(function() F.new(path, one, { colour = 1 }) end,
      "wayfinder.formation.new: unknown options key 'colour'")
    local f = F.new(path, one)
    assert.has_error(function() f:step(5) end)
    assert.has_error(function() f:get(2) end,
      "formation:get: i must be an integer in [1, 1], got 2")
    local walled = F.new(path, { { x = 20.5, y = 5.5 } })
    assert.has_error(function() walled:step(grid) end,
      "formation:step: member 1 at (20.5, 5.5) stands on ground not passable for the class")
    assert.matches("wayfinder.Formation %(1 members%)", tostring(f))
    f:close()
    f:close()
    assert.has_error(function() f:count() end, "formation:count: the formation is closed")
  end)

  it("survives a grid closed while a formation steps on it", function()
    local grid = gap_grid()
    local f = F.new({ { x = 1.5, y = 1.5 }, { x = 5.5, y = 1.5 } }, { { x = 1.5, y = 1.5 } })
    grid:close()
    assert.has_error(function() f:step(grid) end,
      "formation:step: grid is a closed grid")
    assert.equal(0, f:ticks())
    f:close()
  end)
end)
