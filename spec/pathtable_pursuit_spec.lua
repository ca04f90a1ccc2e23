-- luacheck: max line length 130
-- A pursuer chasing a moving target: every plan, with a table or with
-- moving-target adaptive A*, costs exactly what a fresh grid:find_path
-- finds for the current positions, also after the grid changes mid-chase.
local wayfinder = require("wayfinder")
local pathtable = require("wayfinder.pathtable")

local PLAIN = { rewrite_goal = false, escape = false, algorithm = "astar" }

local function lcg(seed)
  local s = seed
  return function(lo, hi)
    s = (s * 1103515245 + 12345) % 2147483648
    return lo + math.floor(s / 65536) % (hi - lo + 1)
  end
end

local function passable_cells(g)
  local cells = {}
  for y = 0, g:height() - 1 do
    for x = 0, g:width() - 1 do
      if g:is_passable(x, y) then cells[#cells + 1] = { x, y } end
    end
  end
  return cells
end

-- The target wanders: up to 3 random steps onto passable navcells a tick.
local function wander(g, rand, x, y)
  for _ = 1, rand(1, 3) do
    local nx, ny = x + rand(-1, 1), y + rand(-1, 1)
    if nx >= 0 and ny >= 0 and nx < g:width() and ny < g:height() and g:is_passable(nx, ny) then
      x, y = nx, ny
    end
  end
  return x, y
end

-- Runs a chase of `steps` ticks; returns plans checked and total expanded.
local function chase(g, p, rand, steps, edit)
  local cells = passable_cells(g)
  local a, b = cells[rand(1, #cells)], cells[rand(1, #cells)]
  local sx, sy, tx, ty = a[1], a[2], b[1], b[2]
  local checked, expanded = 0, 0
  for step = 1, steps do
    if edit then edit(step) end
    local path, len, info = p:plan(sx, sy, tx, ty)
    local spath, sreason, sinfo = g:find_path(sx + 0.5, sy + 0.5, tx + 0.5, ty + 0.5, PLAIN)
    if spath then
      assert.is_not_nil(path, "step " .. step .. ": " .. tostring(len))
      assert.are.equal(sinfo.cost_units, info.cost_units, "step " .. step)
      assert.are.equal(sx, path[1].x)
      assert.are.equal(ty, path[#path].y)
      for k = 2, #path do
        local dx, dy = path[k].x - path[k - 1].x, path[k].y - path[k - 1].y
        assert.is_true(math.abs(dx) <= 1 and math.abs(dy) <= 1)
        assert.is_true(g:is_passable(path[k].x, path[k].y))
      end
      checked = checked + 1
      expanded = expanded + info.expanded
      if path[2] then sx, sy = path[2].x, path[2].y end
    else
      assert.is_nil(path)
      assert.are.equal(sreason, len)
    end
    tx, ty = wander(g, rand, tx, ty)
  end
  return checked, expanded
end

describe("pursuit", function()
  it("plans optimally every step with adaptive A* on arena", function()
    local g = wayfinder.grid.load_movingai("spec/data/maps/arena.map")
    local p = pathtable.pursuer(g)
    assert.are.equal("adaptive", p:method())
    local checked = chase(g, p, lcg(11), 120)
    assert.is_true(checked > 60)
    assert.is_true(p:learned() > 0)
  end)

  it("plans optimally on random grids, through edits mid-chase", function()
    local rand = lcg(3)
    for _ = 1, 5 do
      local w, h = rand(8, 20), rand(8, 16)
      local g = wayfinder.grid.new(w, h)
      for y = 0, h - 1 do
        for x = 0, w - 1 do
          if rand(1, 100) <= 25 then g:set_passable(x, y, false) end
        end
      end
      local p = pathtable.pursuer(g)
      chase(g, p, rand, 40, function(step)
        if step % 10 == 0 then g:set_passable(rand(0, w - 1), rand(0, h - 1), rand(0, 1) == 1) end
      end)
    end
  end)

  it("reads plans from a grid table when given one", function()
    local rand = lcg(8)
    local g = wayfinder.grid.new(14, 10)
    for y = 0, 9 do
      for x = 0, 13 do
        if rand(1, 100) <= 20 then g:set_passable(x, y, false) end
      end
    end
    local t = pathtable.build_grid(g)
    local p = pathtable.pursuer(g, { table = t })
    assert.are.equal("table", p:method())
    local checked, expanded = chase(g, p, rand, 40)
    assert.is_true(checked > 20)
    assert.are.equal(0, expanded)
    -- after an edit the table no longer matches: the pursuer searches
    g:set_passable(0, 0, not g:is_passable(0, 0))
    p:plan(1, 1, 1, 1)
    assert.are.equal("adaptive", p:method())
  end)

  it("rejects bad input", function()
    local g = wayfinder.grid.new(4, 4)
    assert.has_error(function() pathtable.pursuer(1) end,
      "wayfinder.pathtable.pursuer: grid must be a wayfinder.Grid, got 1")
    assert.has_error(function() pathtable.pursuer(g, { table = 1 }) end,
      "wayfinder.pathtable.pursuer: options.table must be a grid path table, got 1")
    assert.has_error(function() pathtable.pursuer(g, { table = pathtable.build_grid(wayfinder.grid.new(5, 4)) }) end,
      "wayfinder.pathtable.pursuer: options.table was built for another grid or class")
    assert.has_error(function() pathtable.pursuer(g, { speed = 1 }) end,
      "wayfinder.pathtable.pursuer: unknown options key 'speed'")
    local p = pathtable.pursuer(g)
    assert.has_error(function() p:plan(0, 0, 4, 0) end, "pursuer:plan: tx must be an integer in [0, 4), got 4")
    g:set_passable(3, 3, false)
    local none, reason = p:plan(0, 0, 3, 3)
    assert.is_nil(none)
    assert.are.equal("goal_blocked", reason)
  end)
end)
