--- Units crowd scenes for the avoidance specs (spec/avoid_spec.lua for
-- "velocity", spec/units_orca_spec.lua for "orca"): walled fields with
-- corridors and doors, a run that checks the invariants every tick, and
-- the arrival check.
local wayfinder = require("wayfinder")
local assert = require("luassert")
local door_cells = require("support.door_cells")

local M = {}

local sweep = wayfinder.sweep

-- A walled field w x h; rows listed in `open` (0-based, optional) are the
-- only open rows (a corridor); `wall_x` adds a wall column with a door at
-- row door_y.
function M.field(w, h, opt)
  opt = opt or {}
  local rows = {}
  for y = 0, h - 1 do
    local r = {}
    for x = 0, w - 1 do
      local wall = x == 0 or y == 0 or x == w - 1 or y == h - 1
      if opt.rows and (y < opt.rows[1] or y > opt.rows[2]) then wall = true end
      if opt.wall_x and x == opt.wall_x and y ~= opt.door_y then wall = true end
      if opt.niche and x == opt.niche[1] and y == opt.niche[2] then wall = false end
      r[#r + 1] = wall and "#" or "."
    end
    rows[#rows + 1] = table.concat(r)
  end
  return wayfinder.grid.from_ascii(table.concat(rows, "\n") .. "\n")
end

-- The n navcell centres of the left room of a door scene nearest its door
-- (sc = {w, h, wall_x, door_y}: avoid_run.field(sc.w, sc.h, sc)), by
-- squared distance to the navcell before the door, then x, then y;
-- mirrored: their mirror images in the right room.
function M.nearest_door(sc, n, mirror)
  local out = {}
  for i, c in ipairs(door_cells.nearest(n, sc.wall_x, sc.door_y, 2, 2, sc.h - 3)) do
    out[i] = { (mirror and 2 * sc.wall_x - c[1] or c[1]) + 0.5, c[2] + 0.5 }
  end
  return out
end

-- A door scene's grid and list: sc.right units packed nearest the door in
-- the left room and sc.left in the right one, each ordered to the mirror
-- image of its start; with sc.closed the wall has no door.
function M.door_scene(sc)
  local grid = M.field(sc.w, sc.h,
    { wall_x = sc.wall_x, door_y = sc.closed and -1 or sc.door_y })
  local list = {}
  local near, far = M.nearest_door(sc, math.max(sc.right, sc.left)),
    M.nearest_door(sc, math.max(sc.right, sc.left), true)
  for i = 1, sc.right do
    list[#list + 1] = { near[i][1], near[i][2], far[i][1], far[i][2] }
  end
  for i = 1, sc.left do
    list[#list + 1] = { far[i][1], far[i][2], near[i][1], near[i][2] }
  end
  return grid, list
end

-- Fails the spec when two squares overlap: centres (xs[i], ys[i]) and
-- (xs[j], ys[j]) with |dx| <= r[i] + r[j] and |dy| <= r[i] + r[j]. Pairs
-- are found through buckets as wide as the largest r[i] + r[j], so a
-- crowd of hundreds costs a few comparisons per unit; the pairs compared
-- include every pair that can overlap.
function M.check_apart(xs, ys, r, t)
  local cell = 0
  for i = 1, #xs do cell = math.max(cell, 2 * r[i]) end
  local buckets = {}
  local function key(cx, cy) return cx * 65536 + cy end
  for i = 1, #xs do
    local k = key(math.floor(xs[i] / cell), math.floor(ys[i] / cell))
    local b = buckets[k]
    if not b then
      b = {}
      buckets[k] = b
    end
    b[#b + 1] = i
  end
  for i = 1, #xs do
    local cx, cy = math.floor(xs[i] / cell), math.floor(ys[i] / cell)
    for dy = -1, 1 do
      for dx = -1, 1 do
        for _, j in ipairs(buckets[key(cx + dx, cy + dy)] or {}) do
          if j > i then
            local lim = r[i] + r[j]
            assert.is_true(math.abs(xs[i] - xs[j]) > lim or math.abs(ys[i] - ys[j]) > lim,
              ("units %d and %d overlap at tick %d"):format(math.min(i, j), math.max(i, j), t))
          end
        end
      end
    end
  end
end

-- Runs, with options.avoidance = mode, the units of `list` ({x, y, gx, gy [, r =, speed =]}; no gx: idle)
-- for at most `ticks` ticks, checking the invariants every tick, then
-- calling after(t, units) when given. Returns the arrival tick of each
-- unit that was ordered (nil when it did not arrive), the failures, a
-- trace hash of every position, the units and their ids.
-- options.setup(grid, units), when given, runs after the units are added
-- and before they are ordered; the other options go to units.new.
function M.run(mode, grid, list, ticks, options, after)
  local opts = { avoidance = mode, max_wait = 200 }
  for k, v in pairs(options or {}) do
    if k ~= "setup" then opts[k] = v end
  end
  local units = wayfinder.units.new(grid, opts)
  local ids, rad = {}, {}
  for i, s in ipairs(list) do
    ids[i] = assert(units:add({ x = s[1], y = s[2], radius = s.r or 0.4, speed = s.speed or 0.25 }))
    rad[i] = s.r or 0.4
  end
  if options and options.setup then options.setup(grid, units) end
  local pending = 0
  for i, s in ipairs(list) do
    if s[3] then
      units:move(ids[i], s[3], s[4])
      pending = pending + 1
    end
  end
  local arrived, failed, h = {}, {}, 0
  local index = {}
  for i, id in ipairs(ids) do index[id] = i end
  for t = 1, ticks do
    for _, e in ipairs(units:tick()) do
      if e.event == "arrived" then
        arrived[index[e.id]] = t
        pending = pending - 1
      elseif e.event == "failed" then
        failed[#failed + 1] = ("unit %d failed (%s) at tick %d"):format(index[e.id], e.reason, t)
        pending = pending - 1
      end
    end
    local xs, ys = {}, {}
    for i, id in ipairs(ids) do
      xs[i], ys[i] = units:position(id)
      assert.is_false(sweep.grid(grid, xs[i], ys[i], xs[i], ys[i]),
        ("unit %d on blocked ground at tick %d"):format(i, t))
      h = (h * 31 + math.floor(xs[i] * 65536) % 1000003 + math.floor(ys[i] * 65536) % 999983)
        % 2147483647
    end
    M.check_apart(xs, ys, rad, t)
    if after then after(t, units) end
    if pending == 0 then break end
  end
  return arrived, failed, h, units, ids
end

function M.all_arrive(list, arrived, failed, bound)
  assert.same({}, failed)
  for i, s in ipairs(list) do
    if s[3] then
      assert.is_truthy(arrived[i], ("unit %d did not arrive within %d ticks"):format(i, bound))
      assert.is_true(arrived[i] <= bound)
    end
  end
end

return M
