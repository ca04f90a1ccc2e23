-- Shared helpers of the scale specs: a seeded generator, random maps,
-- brute-force oracles for components and "nearest", and a path checker.
local compat = require("wayfinder.compat")
local M = {}

--- A small linear congruential generator, the same on every platform and
-- every Lua version.
function M.rng(seed)
  local state = seed
  local gen = {}
  function gen.int(lo, hi)
    -- state * 1103515245 mod 2^31, the multiplier split in 16-bit halves
    -- (16838 * 2^16 + 20077) so every product stays exact below 2^53
    state = ((state * 16838) % 32768 * 65536 + state * 20077 + 12345) % 2147483648
    return lo + (compat.idiv(state, 65536)) % (hi - lo + 1)
  end
  function gen.chance(p)   -- p in percent
    return gen.int(0, 99) < p
  end
  return gen
end

--- Random ASCII map text: width x height, about pct % blocked.
function M.random_ascii(r, w, h, pct)
  local rows = {}
  for _ = 1, h do
    local row = {}
    for x = 1, w do row[x] = r.chance(pct) and "@" or "." end
    rows[#rows + 1] = table.concat(row)
  end
  return table.concat(rows, "\n")
end

--- Components by breadth-first search over orthogonal neighbours:
-- comp[y * w + x + 1] = component number (1-based, in row-major order of
-- their first navcell) or false.
function M.components(grid, class)
  local w, h = grid:width(), grid:height()
  local comp, n = {}, 0
  for i = 1, w * h do comp[i] = false end
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      local i = y * w + x + 1
      if not comp[i] and grid:is_passable(x, y, class) then
        n = n + 1
        comp[i] = n
        local stack = { x, y }
        while #stack > 0 do
          local cy = table.remove(stack)
          local cx = table.remove(stack)
          for _, d in ipairs({ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
            local nx, ny = cx + d[1], cy + d[2]
            if nx >= 0 and ny >= 0 and nx < w and ny < h then
              local j = ny * w + nx + 1
              if not comp[j] and grid:is_passable(nx, ny, class) then
                comp[j] = n
                stack[#stack + 1] = nx
                stack[#stack + 1] = ny
              end
            end
          end
        end
      end
    end
  end
  return comp, n
end

--- The navcell among cells(x, y) -> bool nearest (px, py): smallest squared
-- distance from its centre, then lowest y, then lowest x. nil if none.
function M.nearest(w, h, px, py, accept)
  local bx, by, bd
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if accept(x, y) then
        local dx, dy = x + 0.5 - px, y + 0.5 - py
        local d = dx * dx + dy * dy
        if not bd or d < bd then bx, by, bd = x, y, d end
      end
    end
  end
  return bx, by
end

--- Goal membership for point, circle and axis-aligned square goals:
-- the closed navcell square and the closed shape share a point.
function M.in_goal(goal, gx, gy, x, y)
  local shape = goal and goal.shape or "point"
  if shape == "point" then
    return x == math.floor(gx) and y == math.floor(gy)
  end
  local dx = math.max(x - gx, 0, gx - (x + 1))
  local dy = math.max(y - gy, 0, gy - (y + 1))
  if shape == "circle" then
    return dx * dx + dy * dy <= goal.radius * goal.radius
  end
  return dx <= goal.half_width and dy <= goal.half_height
end

local SQRT2 = math.sqrt(2)

--- Checks that a waypoint list walks only passable navcells in straight
-- 8-connected runs without cutting corners; returns its octile length.
function M.walk(grid, path, class)
  local total = 0
  for i = 1, #path - 1 do
    local a, b = path[i], path[i + 1]
    local dx, dy = b.x - a.x, b.y - a.y
    local sx = dx > 0 and 1 or (dx < 0 and -1 or 0)
    local sy = dy > 0 and 1 or (dy < 0 and -1 or 0)
    assert(dx == 0 or dy == 0 or math.abs(dx) == math.abs(dy),
      ("segment %d is not straight: %d,%d -> %d,%d"):format(i, a.x, a.y, b.x, b.y))
    local x, y = a.x, a.y
    while x ~= b.x or y ~= b.y do
      if sx ~= 0 and sy ~= 0 then
        assert(grid:is_passable(x + sx, y, class) and grid:is_passable(x, y + sy, class),
          ("corner cut at %d,%d"):format(x, y))
        total = total + SQRT2
      else
        total = total + 1
      end
      x, y = x + sx, y + sy
      assert(grid:is_passable(x, y, class), ("blocked navcell %d,%d on the path"):format(x, y))
    end
  end
  return total
end

--- A walled room with an opening on no side: its inside is unreachable
-- from the outside (6 rows of 10).
M.ROOM = table.concat({
  "..........",
  "..@@@@@...",
  "..@...@...",
  "..@...@...",
  "..@@@@@...",
  "..........",
}, "\n")

--- A path's waypoints as {x, y} pairs.
function M.cells(path)
  local out = {}
  for i, c in ipairs(path) do out[i] = { c.x, c.y } end
  return out
end

--- Lengths from integer costs: a diagonal is 23726566 / 2^24, within 3e-8
-- of sqrt(2), so lengths agree to 1e-6.
function M.close(a, b)
  return math.abs(a - b) < 1e-6
end

return M
