-- luacheck: max line length 130
-- Quick then full: a capped search answers at once, the full search runs
-- in the queue, and the C core splices the full path in where the agent
-- stands on the quick path. Checked on random grids against grid:find_path:
-- the spliced rest is a valid, connected path from the agent to the goal
-- whose reported cost is the sum of its steps, and when the agent stands
-- on the full path the rest is optimal from there.
local wayfinder = require("wayfinder")
local prng = require("spec.support.prng")

local ORTHO, DIAG = 33554432, 47453132

local function cells_of(path)
  local out = { { path[1].x, path[1].y } }
  local x, y = path[1].x, path[1].y
  for k = 2, #path do
    local tx, ty = path[k].x, path[k].y
    while x ~= tx or y ~= ty do
      x = x + (tx > x and 1 or (tx < x and -1 or 0))
      y = y + (ty > y and 1 or (ty < y and -1 or 0))
      out[#out + 1] = { x, y }
    end
  end
  return out
end

-- Steps of one navcell, on passable navcells, diagonals past two passable
-- sides; returns the cost in units.
local function check_walk(grid, cells)
  local cost = 0
  for i = 1, #cells do
    local c = cells[i]
    assert(grid:is_passable(c[1], c[2]), "navcell " .. c[1] .. "," .. c[2] .. " is blocked")
    if i > 1 then
      local p = cells[i - 1]
      local dx, dy = c[1] - p[1], c[2] - p[2]
      assert(math.abs(dx) <= 1 and math.abs(dy) <= 1 and (dx ~= 0 or dy ~= 0), "the path jumps")
      if dx ~= 0 and dy ~= 0 then
        assert(grid:is_passable(p[1] + dx, p[2]) and grid:is_passable(p[1], p[2] + dy), "a diagonal cuts a corner")
        cost = cost + DIAG
      else
        cost = cost + ORTHO
      end
    end
  end
  return cost
end

local function random_grid(g, w, h)
  local grid = wayfinder.grid.new(w, h)
  for _ = 1, math.floor(w * h / 4) do grid:set_passable(g.int(0, w - 1), g.int(0, h - 1), false) end
  return grid
end

describe("quick then full", function()
  it("splices a valid, connected rest, optimal whenever the agent stands on the full path", function()
    local g = prng.new(4242)
    local on_full, walked_back = 0, 0
    for _ = 1, 40 do
      local grid = random_grid(g, g.int(8, 30), g.int(8, 30))
      local w, h = grid:width(), grid:height()
      local sx, sy, gx, gy
      repeat
        sx, sy, gx, gy = g.int(0, w - 1), g.int(0, h - 1), g.int(0, w - 1), g.int(0, h - 1)
      until grid:is_passable(sx, sy) and grid:is_passable(gx, gy)
        and grid:find_path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, { rewrite_goal = false, escape = false })
      local queue = wayfinder.queue.new(grid)
      local qf = wayfinder.queue.quick_then_full(queue, sx, sy, gx, gy, { quick = g.int(1, 60) })
      local quick = assert(qf:quick())
      local qcells = cells_of(quick)
      check_walk(grid, qcells)
      assert.same({ sx, sy }, qcells[1])
      -- the agent walks part of the quick path while the queue works
      local k = g.int(1, #qcells)
      local ax, ay = qcells[k][1], qcells[k][2]
      assert.same({ nil, "pending" }, { qf:splice(ax, ay) })
      while qf:status() == "pending" do queue:run(g.int(1, 50)) end
      local full = qf:full()
      local _, _, finfo = grid:find_path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, { rewrite_goal = false, escape = false })
      assert.equals(finfo.cost_units, check_walk(grid, cells_of(full)), "the full path is optimal")
      local rest, info = qf:splice(ax, ay)
      assert(rest, info)
      local cells = {}
      for i, p in ipairs(rest) do cells[i] = { p.x, p.y } end
      assert.same({ ax, ay }, cells[1])
      assert.same({ gx, gy }, cells[#cells])
      assert.equals(info.cost_units, check_walk(grid, cells))
      -- the first steps walk the quick path back
      local first = 0
      for i = 1, #qcells do
        if qcells[i][1] == ax and qcells[i][2] == ay then first = i; break end
      end
      for i = 0, info.back do assert.same(qcells[first - i], cells[1 + i]) end
      local _, _, ainfo = grid:find_path(ax + 0.5, ay + 0.5, gx + 0.5, gy + 0.5, { rewrite_goal = false, escape = false })
      assert.is_true(info.cost_units >= ainfo.cost_units)
      if info.on_full then
        on_full = on_full + 1
        assert.equals(0, info.back)
        assert.equals(ainfo.cost_units, info.cost_units, "on the full path the rest is optimal")
      else
        walked_back = walked_back + 1
        assert.is_true(info.back > 0)
      end
    end
    assert.is_true(on_full > 0 and walked_back > 0, "both cases seen: " .. on_full .. " / " .. walked_back)
  end)

  it("splices the same way every time and leaves paths alone", function()
    local quick = { { x = 0, y = 0 }, { x = 3, y = 3 }, { x = 6, y = 3 } }
    local full = { { x = 0, y = 0 }, { x = 2, y = 0 }, { x = 6, y = 4 } }
    local a, ia = wayfinder.queue.splice(quick, full, 5, 3)
    local b, ib = wayfinder.queue.splice(quick, full, 5, 3)
    assert.same(a, b)
    assert.same(ia, ib)
    assert.same({ { x = 0, y = 0 }, { x = 3, y = 3 }, { x = 6, y = 3 } }, quick)
    -- the full path's navcells are (0,0) (1,0) (2,0) (3,1) (4,2) (5,3)
    -- (6,4): the agent on (5, 3) stands on it; on (6, 3) it steps back
    assert.equals(0, ia.back)
    assert.same({ 5, 3 }, { a[1].x, a[1].y })
    assert.same({ 6, 4 }, { a[2].x, a[2].y })
    assert.equals(DIAG, ia.cost_units)
    local c, ic = wayfinder.queue.splice(quick, full, 6, 3)
    assert.equals(1, ic.back)
    assert.equals(3, #c)
    assert.equals(ORTHO + DIAG, ic.cost_units)
  end)

  it("rejects bad input", function()
    local full = { { x = 0, y = 0 }, { x = 2, y = 0 } }
    assert.same({ nil, "off_path" }, { wayfinder.queue.splice(full, full, 5, 5) })
    assert.has_error(function() wayfinder.queue.splice({ { x = 0, y = 0 }, { x = 2, y = 1 } }, full, 0, 0) end,
      "wayfinder.queue.splice: the paths must have straight or diagonal segments (search with smooth = false)")
    assert.has_error(function() wayfinder.queue.splice({ { x = 1, y = 0 } }, full, 1, 0) end,
      "wayfinder.queue.splice: quick and full must start at the same navcell")
    assert.has_error(function() wayfinder.queue.splice({}, full, 0, 0) end,
      "wayfinder.queue.splice: quick must hold 1 to 67108864 waypoints, got 0")
    assert.has_error(function() wayfinder.queue.splice(1, full, 0, 0) end,
      "wayfinder.queue.splice: quick must be a path (a table of waypoints), got 1")
    assert.has_error(function() wayfinder.queue.splice({ { x = 0.5, y = 0 } }, full, 0, 0) end,
      "wayfinder.queue.splice: quick[1].x must be a whole number in [-32768, 32767], got 0.5")
    assert.has_error(function() wayfinder.queue.splice(full, full, 0 / 0, 0) end)
    local grid = wayfinder.grid.new(8, 8)
    local queue = wayfinder.queue.new(grid)
    local q = wayfinder.queue.quick_then_full
    assert.has_error(function() q(nil, 0, 0, 1, 1) end,
      "wayfinder.queue.quick_then_full: queue must be a wayfinder.Queue, got nil")
    assert.has_error(function() q(queue, 0, 0, 8, 1) end,
      "wayfinder.queue.quick_then_full: gx must be an integer in [0, 8), got 8")
    assert.has_error(function() q(queue, 0, 0, 1, 1, { quick = 0 }) end,
      "wayfinder.queue.quick_then_full: options.quick must be an integer in [1, 1048576], got 0")
    assert.has_error(function() q(queue, 0, 0, 1, 1, { class = "tank" }) end,
      "wayfinder.queue.quick_then_full: options.class must name a class of the grid, got 'tank'")
    assert.has_error(function() q(queue, 0, 0, 1, 1, { speed = 1 }) end,
      "wayfinder.queue.quick_then_full: unknown options key 'speed'")
    local qf = q(queue, 0, 0, 7, 7)
    assert.has_error(function() qf:splice(0.5, 0) end, "quickfull:splice: x and y must be integers, got 0.5, 0")
    assert.is_true(qf:cancel())
    assert.same({ nil, "cancelled" }, { qf:splice(0, 0) })
    grid:set_passable(3, 3, false)
    local blocked = q(queue, 3, 3, 7, 7)
    local none, why = blocked:quick()
    assert.is_nil(none)
    assert.equals("start_blocked", why)
  end)
end)
