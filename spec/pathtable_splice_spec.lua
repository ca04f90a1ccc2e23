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

local function path_cells(path)
  local cells = {}
  for i, p in ipairs(path) do cells[i] = { p.x, p.y } end
  return cells
end

local function optimal(grid, sx, sy, gx, gy)
  local path, reason, info = grid:find_path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, { rewrite_goal = false, escape = false })
  if not path then return nil, reason end
  return info.cost_units
end

describe("quick then full, continued from the quick path's end", function()
  it("joins a valid, connected path whose cost is the sum, never below the optimal", function()
    local g = prng.new(9191)
    local reached, continued, walked = 0, 0, 0
    for _ = 1, 40 do
      local grid = random_grid(g, g.int(8, 30), g.int(8, 30))
      local w, h = grid:width(), grid:height()
      local sx, sy, gx, gy
      repeat
        sx, sy, gx, gy = g.int(0, w - 1), g.int(0, h - 1), g.int(0, w - 1), g.int(0, h - 1)
      until grid:is_passable(sx, sy) and grid:is_passable(gx, gy) and optimal(grid, sx, sy, gx, gy)
      local queue = wayfinder.queue.new(grid)
      local qf = wayfinder.queue.quick_then_full(queue, sx, sy, gx, gy, { quick = g.int(1, 80), from = "end" })
      local quick, _, qinfo = assert(qf:quick())
      local qcells = cells_of(quick)
      local qcost = check_walk(grid, qcells)
      assert.equals(qinfo.cost_units, qcost)
      if not qinfo.partial then
        -- the quick search reached the goal: nothing is queued
        reached = reached + 1
        assert.equals(0, queue:pending())
        assert.equals("done", qf:status())
        assert.same({ nil, "not_queued" }, { qf:full() })
        assert.is_false(qf:cancel())
      else
        continued = continued + 1
        assert.equals(1, queue:pending())
        assert.same({ nil, "pending" }, { qf:path() })
        while qf:status() == "pending" do queue:run(g.int(1, 50)) end
      end
      local path, info = assert(qf:path())
      local cells = path_cells(path)
      assert.same({ sx, sy }, cells[1])
      assert.same({ gx, gy }, cells[#cells])
      local cost = check_walk(grid, cells)
      assert.equals(info.cost_units, cost, "the reported cost is the cost of the steps")
      -- the quick path, then the continuation with its first navcell (the joint) once
      for i = 1, #qcells do assert.same(qcells[i], cells[i]) end
      assert.equals(#qcells, info.joint)
      local best = optimal(grid, sx, sy, gx, gy)
      assert.is_true(cost >= best, "never below the optimal")
      if qinfo.partial then
        local rest, _, rinfo = qf:full()
        local rcells = cells_of(rest)
        assert.same(qcells[#qcells], rcells[1])
        assert.equals(#qcells + #rcells - 1, #cells)
        assert.equals(qinfo.cost_units + rinfo.cost_units, info.cost_units, "quick cost + continuation cost")
        assert.equals(check_walk(grid, rcells), rinfo.cost_units)
        assert.equals(optimal(grid, qcells[#qcells][1], qcells[#qcells][2], gx, gy), rinfo.cost_units)
      else
        assert.equals(best, cost, "the quick search reached the goal: optimal")
      end
      -- an agent that walked part of the quick path gets the rest
      local k = g.int(1, #qcells)
      local rest, rinfo = assert(qf:splice(qcells[k][1], qcells[k][2]))
      local rcells = path_cells(rest)
      assert.equals(rinfo.cost_units, check_walk(grid, rcells))
      local first = 0
      for i = 1, #qcells do
        if qcells[i][1] == qcells[k][1] and qcells[i][2] == qcells[k][2] then first = i; break end
      end
      if first > 1 then walked = walked + 1 end
      for i = first, #cells do assert.same(cells[i], rcells[i - first + 1]) end
      assert.equals(#cells - first + 1, #rcells)
      assert.same({ nil, "off_path" }, { qf:splice(-1, -1) })
    end
    assert.is_true(reached > 0 and continued > 0 and walked > 0,
      "cases seen: " .. reached .. " reached, " .. continued .. " continued, " .. walked .. " walked")
    -- a quick path of one navcell: the continuation is the full search
    local grid = wayfinder.grid.new(12, 9)
    for y = 0, 6 do grid:set_passable(5, y, false) end
    local queue = wayfinder.queue.new(grid)
    local qf = wayfinder.queue.quick_then_full(queue, 1, 1, 10, 1, { quick = 1, from = "end" })
    local quick = assert(qf:quick())
    assert.equals(1, #cells_of(quick))
    queue:run()
    local path, info = assert(qf:path())
    assert.equals(1, info.joint)
    assert.same({ 1, 1 }, path_cells(path)[1])
    assert.equals(optimal(grid, 1, 1, 10, 1), check_walk(grid, path_cells(path)))
    assert.equals(optimal(grid, 1, 1, 10, 1), info.cost_units)
  end)

  it("reports a continuation that fails as the queue does", function()
    -- the goal is walled in: the quick search stops short, the continuation fails
    local grid = wayfinder.grid.from_ascii(table.concat({
      "..........",
      "......@@@.",
      "......@.@.",
      "......@@@.",
    }, "\n"))
    local queue = wayfinder.queue.new(grid)
    local qf = wayfinder.queue.quick_then_full(queue, 0, 0, 7, 2, { quick = 4, from = "end" })
    local quick, _, qinfo = assert(qf:quick())
    assert.is_true(qinfo.partial)
    assert.is_true(#quick >= 1)
    queue:run()
    assert.equals("failed", qf:status())
    local _, why = qf:full()
    assert.equals("unreachable", why)
    local none, why2 = qf:path()
    assert.is_nil(none)
    assert.equals("unreachable", why2)
    none, why2 = qf:splice(0, 0)
    assert.is_nil(none)
    assert.equals("unreachable", why2)
    -- a quick search that fails queues nothing
    grid:set_passable(0, 0, false)
    local blocked = wayfinder.queue.quick_then_full(queue, 0, 0, 9, 3, { from = "end" })
    assert.equals(0, queue:pending())
    assert.equals("failed", blocked:status())
    assert.same({ nil, "start_blocked" }, { blocked:path() })
    assert.equals("start_blocked", select(2, blocked:full()))
    assert.is_false(blocked:cancel())
  end)

  it("re-searches when the grid changes before the continuation is served", function()
    local g = prng.new(5150)
    local edited = 0
    for _ = 1, 30 do
      local grid = random_grid(g, g.int(10, 24), g.int(10, 24))
      local w, h = grid:width(), grid:height()
      local sx, sy, gx, gy
      repeat
        sx, sy, gx, gy = g.int(0, w - 1), g.int(0, h - 1), g.int(0, w - 1), g.int(0, h - 1)
      until grid:is_passable(sx, sy) and grid:is_passable(gx, gy) and optimal(grid, sx, sy, gx, gy)
      local queue = wayfinder.queue.new(grid)
      local qf = wayfinder.queue.quick_then_full(queue, sx, sy, gx, gy, { quick = g.int(2, 20), from = "end" })
      local quick, _, qinfo = assert(qf:quick())
      if qinfo.partial then
        local qcells = cells_of(quick)
        local on_quick = {}
        for _, c in ipairs(qcells) do on_quick[c[2] * w + c[1]] = true end
        queue:run(g.int(0, 3))
        -- block a navcell off the quick path and away from the goal
        local x, y
        repeat x, y = g.int(0, w - 1), g.int(0, h - 1)
        until not on_quick[y * w + x] and not (x == gx and y == gy) and grid:is_passable(x, y)
        grid:set_passable(x, y, false)
        edited = edited + 1
        while qf:status() == "pending" do queue:run(g.int(1, 40)) end
        local last = qcells[#qcells]
        local best = optimal(grid, last[1], last[2], gx, gy)
        local path, info = qf:path()
        if best then
          assert(path, info)
          local cells = path_cells(path)
          assert.equals(info.cost_units, check_walk(grid, cells), "valid on the edited grid")
          local _, _, rinfo = qf:full()
          assert.equals(best, rinfo.cost_units, "the continuation is searched on the edited grid")
        else
          assert.is_nil(path)
          assert.equals("unreachable", info)
        end
      end
    end
    assert.is_true(edited > 0)
  end)

  it("rejects bad input for from and for the join", function()
    local grid = wayfinder.grid.new(8, 8)
    local queue = wayfinder.queue.new(grid)
    local q = wayfinder.queue.quick_then_full
    for _, case in ipairs({ { "middle", "'middle'" }, { 1, "1" }, { true, "a boolean" }, { "", "''" } }) do
      assert.has_error(function() q(queue, 0, 0, 7, 7, { from = case[1] }) end,
        "wayfinder.queue.quick_then_full: options.from must be 'start' or 'end', got " .. case[2])
    end
    assert.equals(0, queue:pending())
    -- the default keeps queueing the full search from the start
    local qf = q(queue, 0, 0, 1, 0, { from = "start" })
    assert.equals(1, queue:pending())
    assert.is_true(qf:cancel())
    local join = wayfinder.queue.join
    local quick = { { x = 0, y = 0 }, { x = 2, y = 0 } }
    assert.same({ nil, "off_path" }, { join(quick, { { x = 2, y = 0 } }, 5, 5) })
    assert.has_error(function() join(quick, { { x = 0, y = 0 }, { x = 0, y = 3 } }, 0, 0) end,
      "wayfinder.queue.join: rest must start at the last navcell of quick")
    assert.has_error(function() join(quick, { { x = 2, y = 0 }, { x = 3, y = 2 } }, 0, 0) end,
      "wayfinder.queue.join: the paths must have straight or diagonal segments (search with smooth = false)")
    assert.has_error(function() join(quick, {}, 0, 0) end,
      "wayfinder.queue.join: rest must hold 1 to 67108864 waypoints, got 0")
    assert.has_error(function() join(quick, "x", 0, 0) end,
      "wayfinder.queue.join: rest must be a path (a table of waypoints), got 'x'")
    assert.has_error(function() join(quick, { { x = 2, y = 0 } }, 0 / 0, 0) end)
    local p, info = join(quick, { { x = 2, y = 0 }, { x = 4, y = 2 } }, 1, 0)
    assert.same({ { 1, 0 }, { 2, 0 }, { 3, 1 }, { 4, 2 } }, path_cells(p))
    assert.equals(2, info.joint)
    assert.equals(ORTHO + 2 * DIAG, info.cost_units)
  end)
end)
