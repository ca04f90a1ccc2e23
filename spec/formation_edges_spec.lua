-- Formations at their edges: one member, a path of one point or with a
-- repeated point, a path that ends in a corridor too narrow for the shape,
-- a member whose move toward its slot slides along a wall, and the inputs
-- each function refuses.
local wayfinder = require("wayfinder")
local F = wayfinder.formation

local function err(pattern, f, ...)
  local ok, msg = pcall(f, ...)
  assert.is_false(ok)
  assert.matches(pattern, msg, 1, true)
end

local function ascii(rows)
  return wayfinder.grid.from_ascii(table.concat(rows, "\n") .. "\n")
end

-- Steps until f:step returns true, at most limit ticks; the ticks taken or
-- nil.
local function walk(f, grid, limit)
  for t = 1, limit do
    if f:step(grid) then return t end
  end
  return nil
end

describe("formation offsets and assignment at their edges", function()
  it("one member stands on the anchor in every shape", function()
    for _, shape in ipairs({ "line", "column", "box", "wedge" }) do
      assert.same({ { x = 0, y = 0 } }, F.offsets(shape, 1, 3))
    end
  end)

  it("refuses a spacing that rounds to nothing and shapes with a zero byte", function()
    err("wayfinder.formation.offsets: spacing must be in (0, 64], got 1e-07",
      F.offsets, "box", 4, 1e-7)
    err("wayfinder.formation.offsets: shape must not contain a NUL byte",
      F.offsets, "box\0", 4)
    err("wayfinder.formation.offsets: n must be an integer in [1, 256]",
      F.offsets, "box", 257)
  end)

  it("refuses lists that are not lists, too long, or of different lengths", function()
    err("wayfinder.formation.assign: members must be a list of points, got 5",
      F.assign, 5, {})
    err("wayfinder.formation.assign: slots must be a list of points, got nil",
      F.assign, { { x = 0, y = 0 } })
    err("wayfinder.formation.assign: members must hold 1 to 256 points, got 0",
      F.assign, {}, {})
    local many = {}
    for i = 1, 257 do many[i] = { x = i, y = 0 } end
    err("wayfinder.formation.assign: members must hold 1 to 256 points, got 257",
      F.assign, many, many)
    err("wayfinder.formation.assign: slots must hold as many points as members (1), got 2",
      F.assign, { { x = 0, y = 0 } }, { { x = 0, y = 0 }, { x = 1, y = 0 } })
  end)

  it("assigns one member to its one slot, at the distance between them", function()
    local slot, total = F.assign({ { x = 1, y = 1 } }, { { x = 4, y = 5 } })
    assert.same({ 1 }, slot)
    assert.equal(5, total)
  end)
end)

describe("formation.new at its edges", function()
  local one = { { x = 2.5, y = 2.5 } }

  it("refuses options that round to nothing or disagree with the members", function()
    err("wayfinder.formation.new: options.spacing must be in (0, 64], got 1e-07",
      F.new, one, one, { spacing = 1e-7 })
    err("wayfinder.formation.new: options.pace must be in (0, 1], got 1e-07",
      F.new, one, one, { pace = 1e-7 })
    err("wayfinder.formation.new: members[1].speed must be in (0, 8], got 1e-07",
      F.new, one, { { x = 0, y = 0, speed = 1e-7 } })
    err("wayfinder.formation.new: options.slots must hold as many points as members (1), got 2",
      F.new, one, one, { slots = { { x = 0, y = 0 }, { x = 1, y = 0 } } })
    err("wayfinder.formation.new: options.slots[1] must be a table {x =, y =}, got 7",
      F.new, one, one, { slots = { 7 } })
    err("wayfinder.formation.new: path must hold 1 to 65536 points, got 0",
      F.new, {}, one)
  end)

  it("the slowest pace is 1/65536 a tick, never zero", function()
    -- pace * speed = 2^-16 * 2^-16 rounds to 0: the anchor still moves
    local f = F.new({ { x = 1.5, y = 1.5 }, { x = 9.5, y = 1.5 } },
      { { x = 1.5, y = 1.5, speed = 1 / 65536 } }, { pace = 1 / 65536 })
    local _, _, pace = f:anchor()
    assert.equal(1 / 65536, pace)
    assert.is_false(f:step(wayfinder.grid.new(12, 4)))
    local ax = f:anchor()
    assert.equal(1.5 + 1 / 65536, ax)
  end)

  it("a path of one point: members take the shape round it, heading +x", function()
    local grid = wayfinder.grid.new(12, 12)
    local f = F.new({ { x = 5.5, y = 5.5 } },
      { { x = 2.5, y = 2.5, speed = 1 }, { x = 8.5, y = 8.5, speed = 1 },
        { x = 2.5, y = 8.5, speed = 1 } },
      { shape = "wedge", spacing = 1 })
    local t = walk(f, grid, 40)
    assert.is_truthy(t)
    -- wedge of 3 heading +x: the point on the anchor, the pair one behind
    -- to the left (+y) and right (-y)
    local slots = {}
    for i = 1, 3 do
      local x, y, sx, sy = f:get(i)
      assert.same({ sx, sy }, { x, y })
      slots[#slots + 1] = ("(%g,%g)"):format(sx, sy)
    end
    table.sort(slots)
    assert.same({ "(4.5,4.5)", "(4.5,6.5)", "(5.5,5.5)" }, slots)
    local ax, ay = f:anchor()
    assert.same({ 5.5, 5.5 }, { ax, ay })
    assert.is_false(f:squeezed())
  end)

  it("a path of one point repeated is a path of one point", function()
    local grid = wayfinder.grid.new(12, 12)
    local members = { { x = 2.5, y = 2.5, speed = 1 }, { x = 8.5, y = 8.5, speed = 1 } }
    local a = F.new({ { x = 5.5, y = 5.5 }, { x = 5.5, y = 5.5 } }, members,
      { shape = "line", spacing = 2 })
    local b = F.new({ { x = 5.5, y = 5.5 } }, members, { shape = "line", spacing = 2 })
    local tb = walk(b, grid, 40)
    assert.is_truthy(tb)
    assert.equal(tb, walk(a, grid, 40))
    for i = 1, 2 do
      assert.same({ b:get(i) }, { a:get(i) })
    end
    -- heading +x: the line stands across it, along y
    local _, y1 = a:get(1)
    local _, y2 = a:get(2)
    assert.same({ 4.5, 6.5 }, { math.min(y1, y2), math.max(y1, y2) })
  end)

  it("a slot or a member more than 256 from the anchor files in a column", function()
    local grid = wayfinder.grid.new(620, 620)
    -- heading north-east: a slot offset of (200, +-200) or (-200, +-200)
    -- lies 282.8 from the anchor along one axis, beyond one sweep
    local path = { { x = 300.5, y = 300.5 }, { x = 310.5, y = 310.5 } }
    for _, o in ipairs({ { 200, -200 }, { -200, 200 }, { 200, 200 }, { -200, -200 } }) do
      local f = F.new(path, { { x = 300.5, y = 300.5, speed = 1 } },
        { slots = { { x = o[1], y = o[2] } } })
      assert.is_false(f:step(grid))
      assert.is_true(f:squeezed())
      local x, y, sx, sy = f:get(1)
      -- the column slot is on the path, the member already on it
      assert.same({ sx, sy }, { x, y })
    end
    -- a member 290 away on either axis, slot on the anchor
    for _, m in ipairs({ { 10.5, 300.5 }, { 590.5, 300.5 }, { 300.5, 10.5 }, { 300.5, 590.5 } }) do
      local f = F.new(path, { { x = m[1], y = m[2], speed = 8 } }, { slots = { { x = 0, y = 0 } } })
      f:step(grid)
      assert.is_true(f:squeezed())
    end
  end)

  it("a repeated last point keeps the heading of the segment before it", function()
    local grid = wayfinder.grid.new(12, 12)
    -- the path goes north (+y) then repeats its end: at the end the
    -- heading is still north, so a line stands across it along x
    local f = F.new({ { x = 5.5, y = 1.5 }, { x = 5.5, y = 6.5 }, { x = 5.5, y = 6.5 } },
      { { x = 4.5, y = 1.5, speed = 1 }, { x = 6.5, y = 1.5, speed = 1 } },
      { shape = "line", spacing = 2, pace = 1, slack = 0.5 })
    assert.is_truthy(walk(f, grid, 60))
    local ax, ay = f:anchor()
    assert.same({ 5.5, 6.5 }, { ax, ay })
    local xs = {}
    for i = 1, 2 do
      local x, y = f:get(i)
      assert.equal(6.5, y)
      xs[i] = x
    end
    table.sort(xs)
    assert.same({ 4.5, 6.5 }, xs)
  end)

  it("a path ending in a corridor too narrow for the shape never arrives in shape", function()
    -- a one-navcell corridor along y = 5 from x = 6 to 11
    local grid = ascii({
      "............",
      "............",
      "............",
      "............",
      "......@@@@@@",
      "............",
      "......@@@@@@",
      "............",
      "............",
    })
    local f = F.new({ { x = 2.5, y = 5.5 }, { x = 10.5, y = 5.5 } },
      { { x = 2.5, y = 4.5 }, { x = 2.5, y = 6.5 } },
      { shape = "line", spacing = 2, reform = 3 })
    assert.is_nil(walk(f, grid, 200))
    assert.is_true(f:squeezed())
    -- filed along the path: the slots one spacing apart behind the anchor,
    -- every member on its slot
    local ax, ay = f:anchor()
    assert.same({ 10.5, 5.5 }, { ax, ay })
    local at = {}
    for i = 1, 2 do
      local x, y, sx, sy = f:get(i)
      assert.same({ sx, sy }, { x, y })
      at[#at + 1] = x
    end
    table.sort(at)
    assert.same({ 8.5, 10.5 }, at)
  end)

  it("a member whose step meets a wall on x slides along y", function()
    -- navcell (5, 4) is blocked; the member at (6.0625, 4.5) heads for the
    -- anchor at (5.5, 5.5), up and to the left: the step and its x part
    -- enter the blocked navcell, its y part does not
    local grid = ascii({
      "........",
      "........",
      "........",
      "........",
      ".....@..",
      "........",
      "........",
    })
    local f = F.new({ { x = 5.5, y = 5.5 } }, { { x = 6.0625, y = 4.5 } })
    assert.is_false(f:step(grid))
    local x, y = f:get(1)
    assert.equal(6.0625, x)
    assert.is_true(y > 4.5 and y <= 4.75)
    -- round the corner of the blocked navcell it reaches the anchor
    local t = walk(f, grid, 40)
    assert.is_truthy(t)
    x, y = f:get(1)
    assert.same({ 5.5, 5.5 }, { x, y })
  end)

  it("a member whose step and both its parts meet walls stays", function()
    -- the member at (6.0625, 4.0625) heads down and to the left for the
    -- anchor at (2.5, 1.5); navcells (5, 4), (6, 3) and (5, 3) are blocked
    local grid = ascii({
      "........",
      "........",
      "........",
      ".....@@.",
      ".....@..",
      "........",
    })
    local f = F.new({ { x = 2.5, y = 1.5 } }, { { x = 6.0625, y = 4.0625 } })
    for _ = 1, 5 do
      assert.is_false(f:step(grid))
      local x, y = f:get(1)
      assert.same({ 6.0625, 4.0625 }, { x, y })
    end
  end)
end)
