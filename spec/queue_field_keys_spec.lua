-- Shared requests share a field only when their goals are the same: the
-- same navcell for points, the same shape (every size, direction and the
-- inversion) for circles and squares. A request whose goal differs in any
-- one of these pays for a field of its own; one whose goal is the same is
-- served from the kept field at no cost. Every path has find_path's length.
local wayfinder = require("wayfinder")

local function served(q, g, goal_x, goal_y, goal)
  local h = q:submit { sx = 1.5, sy = 1.5, gx = goal_x, gy = goal_y, goal = goal,
    shared = true }
  q:run()
  local path, len, info = h:result()
  assert.is_truthy(path)
  local _, want = g:find_path(1.5, 1.5, goal_x, goal_y, { goal = goal })
  assert.are.equal(want, len)
  assert.is_true(info.shared)
  return info.expanded
end

describe("shared fields keyed by goal", function()
  it("reuse a field for the same goal and compute one for each difference", function()
    local g = wayfinder.grid.new(24, 16)
    for y = 3, 12 do g:set_passable(10, y, false) end
    local q = wayfinder.queue.new(g, { max_fields = 16 })
    local base = { shape = "square", half_width = 2, half_height = 1, angle = 0 }
    local function with(k, v)
      local t = {}
      for key, val in pairs(base) do t[key] = val end
      t[k] = v
      return t
    end
    assert.is_true(served(q, g, 18.5, 8.5, base) > 0)
    assert.are.equal(0, served(q, g, 18.5, 8.5, with("angle", 0)))        -- the same
    assert.is_true(served(q, g, 18.5, 8.5, with("half_width", 3)) > 0)
    assert.is_true(served(q, g, 18.5, 8.5, with("half_height", 2)) > 0)
    assert.is_true(served(q, g, 18.5, 8.5, with("angle", 30)) > 0)
    assert.is_true(served(q, g, 19.5, 8.5, base) > 0)                     -- x moved
    assert.is_true(served(q, g, 18.5, 9.5, base) > 0)                     -- y moved
    local circle = { shape = "circle", radius = 2 }
    assert.is_true(served(q, g, 18.5, 8.5, circle) > 0)
    assert.are.equal(0, served(q, g, 18.5, 8.5, { shape = "circle", radius = 2 }))
    assert.is_true(served(q, g, 18.5, 8.5, { shape = "circle", radius = 3 }) > 0)
    -- points share a field by navcell, whatever the point inside it
    assert.is_true(served(q, g, 20.25, 4.25, nil) > 0)
    assert.are.equal(0, served(q, g, 20.75, 4.5, nil))
    assert.is_true(served(q, g, 21.25, 4.25, nil) > 0)
  end)
end)
