-- Angles turn into unit vectors in integer arithmetic (src/trig.c): every
-- component lies within 0.51/65536 of the exact cosine and sine, and the
-- quadrant reduction keeps that up to the largest accepted angle.
local grid = require("wayfinder.grid")

local function axis_of(g, angle)
  local id = g:add_obstruction { x = 5, y = 5, half_width = 1, half_height = 1, angle = angle }
  local u = g:obstruction(id).u
  g:remove_obstruction(id)
  return u[1] * 65536, u[2] * 65536
end

describe("an obstruction's angle", function()
  it("gives exact vectors on the axes and the diagonals", function()
    local g = grid.new(10, 10)
    local cases = {
      { 0, 65536, 0 }, { math.pi / 2, 0, 65536 }, { math.pi, -65536, 0 },
      { -math.pi / 2, 0, -65536 }, { math.pi / 4, 46341, 46341 },
      { 3 * math.pi / 4, -46341, 46341 }, { math.pi / 6, 56756, 32768 },
    }
    for _, c in ipairs(cases) do
      local x, y = axis_of(g, c[1])
      assert.are.same({ c[2], c[3] }, { x, y }, "angle " .. c[1])
    end
  end)

  it("stays within 0.51/65536 of the exact cosine and sine", function()
    local g = grid.new(10, 10)
    local worst, n = 0, 0
    local function check(a)
      local x, y = axis_of(g, a)
      local e = math.max(math.abs(x - math.cos(a) * 65536), math.abs(y - math.sin(a) * 65536))
      if e > worst then worst = e end
      n = n + 1
    end
    for k = -2000, 2000 do check(k * 0.0137) end
    for k = 0, 200 do check(1e6 - k * 0.37) end
    for k = 0, 200 do check(-1e6 + k * 0.41) end
    assert.is_true(worst <= 0.51, ("worst error %.4f/65536 over %d angles"):format(worst, n))
  end)

  it("refuses angles beyond a million radians", function()
    local g = grid.new(10, 10)
    assert.has_error(function()
      g:add_obstruction { x = 5, y = 5, half_width = 1, half_height = 1, angle = 1e6 + 1 }
    end, "grid:add_obstruction: shape.angle must be a number in [-1e+06, 1e+06], got 1000001")
  end)
end)
