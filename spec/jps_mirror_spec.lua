-- JPS under the eight symmetries of the square: a map turned or mirrored,
-- with its start and goal turned or mirrored alike, has paths of the same
-- length, and JPS finds A*'s length in each of the eight, whatever the
-- direction from the start to the goal. The maps are wider than 64
-- navcells so the scans cross words in both directions.
local wayfinder = require("wayfinder")
local prng = require("support.prng")
local S = require("support.search")

-- the n x n map `cells` (cells[y][x], true = blocked) under symmetry t:
-- t = 0..3 turns by t quarters, 4..7 mirrors first
local function map_point(t, n, x, y)
  if t >= 4 then x = n - 1 - x end
  for _ = 1, t % 4 do x, y = n - 1 - y, x end
  return x, y
end

local function transformed(cells, n, t)
  local rows = {}
  local out = {}
  for y = 0, n - 1 do out[y] = {} end
  for y = 0, n - 1 do
    for x = 0, n - 1 do
      local tx, ty = map_point(t, n, x, y)
      out[ty][tx] = cells[y][x]
    end
  end
  for y = 0, n - 1 do
    local r = {}
    for x = 0, n - 1 do r[x + 1] = out[y][x] and "@" or "." end
    rows[y + 1] = table.concat(r)
  end
  return wayfinder.grid.from_ascii(table.concat(rows, "\n"))
end

local function random_map(seed, n, percent)
  local r = prng.new(seed)
  local cells = {}
  for y = 0, n - 1 do
    cells[y] = {}
    for x = 0, n - 1 do cells[y][x] = r.int(1, 100) <= percent end
  end
  return cells, r
end

local function free_cell(cells, r, n)
  while true do
    local x, y = r.int(0, n - 1), r.int(0, n - 1)
    if not cells[y][x] then return x, y end
  end
end

local function cost(g, sx, sy, gx, gy, algorithm, goal)
  local o = { algorithm = algorithm }
  if goal then o.goal = goal end
  local path, _, info = S.path_between(g, sx, sy, gx, gy, o)
  if not path then return nil end
  assert.are.equal(algorithm, info.algorithm)
  return info.cost_units
end

describe("JPS under the eight symmetries", function()
  it("finds A*'s lengths on a random map turned and mirrored, goals in every direction",
    function()
    local n = 70
    local cells, r = random_map(7, n, 22)
    local pairs_ = {}
    for _ = 1, 24 do
      local sx, sy = free_cell(cells, r, n)
      local gx, gy = free_cell(cells, r, n)
      pairs_[#pairs_ + 1] = { sx, sy, gx, gy }
    end
    -- a few starts with the goal straight or diagonally away, near and far
    local cx, cy = free_cell(cells, r, n)
    for _, d in ipairs { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, 1 },
      { 1, -1 }, { -1, -1 } } do
      for _, k in ipairs { 1, 3, 40 } do
        local gx, gy = cx + d[1] * k, cy + d[2] * k
        if gx >= 0 and gy >= 0 and gx < n and gy < n and not cells[gy][gx] then
          pairs_[#pairs_ + 1] = { cx, cy, gx, gy }
        end
      end
    end
    local base = {}
    local found = 0
    for t = 0, 7 do
      local g = transformed(cells, n, t)
      for k, p in ipairs(pairs_) do
        local sx, sy = map_point(t, n, p[1], p[2])
        local gx, gy = map_point(t, n, p[3], p[4])
        local a = cost(g, sx, sy, gx, gy, "astar")
        local j = cost(g, sx, sy, gx, gy, "jps")
        assert.are.equal(a, j)
        if t == 0 then
          base[k] = a or false
          if a then found = found + 1 end
        else
          assert.are.equal(base[k], a or false)
        end
      end
    end
    assert.is_true(found >= 20)
  end)

  it("agrees with A* for circle and square goals in every turn", function()
    local n = 67
    local cells, r = random_map(11, n, 15)
    local goals = { { shape = "circle", radius = 2.5 }, { shape = "square", half_width = 3,
      half_height = 1.5 } }
    local qs = {}
    for _ = 1, 10 do
      local sx, sy = free_cell(cells, r, n)
      local gx, gy = free_cell(cells, r, n)
      qs[#qs + 1] = { sx, sy, gx, gy }
    end
    local checked = 0
    for t = 0, 7 do
      local g = transformed(cells, n, t)
      for _, q in ipairs(qs) do
        local sx, sy = map_point(t, n, q[1], q[2])
        local gx, gy = map_point(t, n, q[3], q[4])
        for _, goal in ipairs(goals) do
          local a = cost(g, sx, sy, gx, gy, "astar", goal)
          assert.are.equal(a, cost(g, sx, sy, gx, gy, "jps", goal))
          if a then checked = checked + 1 end
        end
      end
    end
    assert.is_true(checked >= 100)
  end)

  it("reaches a goal in plain sight and one behind a wall corner in all eight", function()
    -- a wall with one gap: the goal is straight or diagonal from the start
    -- on the open side, and round the wall's end on the other
    local n = 9
    local cells = {}
    for y = 0, n - 1 do
      cells[y] = {}
      for x = 0, n - 1 do cells[y][x] = (x == 4 and y >= 2) end
    end
    for t = 0, 7 do
      local g = transformed(cells, n, t)
      local function c(sx, sy, gx, gy)
        local ax, ay = map_point(t, n, sx, sy)
        local bx, by = map_point(t, n, gx, gy)
        local a = cost(g, ax, ay, bx, by, "astar")
        assert.are.equal(a, cost(g, ax, ay, bx, by, "jps"))
        return a
      end
      local D = 2 ^ 25
      assert.are.equal(3 * D, c(0, 5, 3, 5))                      -- straight
      local diag = c(0, 0, 3, 3)
      assert.is_true(diag > 4 * D and diag < 5 * D)               -- 3 diagonal steps
      -- round the wall's top end: (3, 8) to (5, 8) goes up to row 1
      local round = c(3, 8, 5, 8)
      assert.is_true(round > 14 * D)
    end
  end)
end)
