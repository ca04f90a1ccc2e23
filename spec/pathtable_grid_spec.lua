-- luacheck: max line length 130
-- Compressed first-move tables for grids: every path read from a table is a
-- real path (steps between neighbours, no cut corners) and costs exactly
-- what grid:find_path finds, on random small grids and on arena; saved
-- tables load back only onto the grid they were built for, and damaged
-- files are refused with a reason, never half loaded.
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

local function random_grid(rand, w, h, percent)
  local g = wayfinder.grid.new(w, h)
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if rand(1, 100) <= percent then g:set_passable(x, y, false) end
    end
  end
  return g
end

local function check_steps(g, path)
  for k = 2, #path do
    local a, b = path[k - 1], path[k]
    local dx, dy = b.x - a.x, b.y - a.y
    assert.is_true(math.abs(dx) <= 1 and math.abs(dy) <= 1 and (dx ~= 0 or dy ~= 0))
    assert.is_true(g:is_passable(b.x, b.y))
    if dx ~= 0 and dy ~= 0 then
      assert.is_true(g:is_passable(a.x + dx, a.y) and g:is_passable(a.x, a.y + dy), "cut corner")
    end
  end
end

-- Compares the table with the search for the pairs given; returns how many
-- pairs had a path.
local function compare(g, t, pairs_list)
  local found = 0
  for _, p in ipairs(pairs_list) do
    local sx, sy, gx, gy = p[1], p[2], p[3], p[4]
    local path, len, info = t:find_path(sx, sy, gx, gy)
    local spath, sreason, sinfo = g:find_path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, PLAIN)
    if spath then
      assert.is_not_nil(path, ("no table path %d,%d -> %d,%d: %s"):format(sx, sy, gx, gy, tostring(len)))
      assert.are.equal(sinfo.cost_units, info.cost_units)
      assert.are.equal(sx, path[1].x)
      assert.are.equal(gy, path[#path].y)
      assert.are.equal(gx, path[#path].x)
      assert.is_true(math.abs(len - sinfo.cost) < 1e-9)
      check_steps(g, path)
      found = found + 1
    else
      assert.is_nil(path)
      assert.are.equal(sreason, len)
    end
  end
  return found
end

local function all_pairs(g)
  local cells = {}
  for y = 0, g:height() - 1 do
    for x = 0, g:width() - 1 do
      if g:is_passable(x, y) then cells[#cells + 1] = { x, y } end
    end
  end
  local list = {}
  for _, a in ipairs(cells) do
    for _, b in ipairs(cells) do list[#list + 1] = { a[1], a[2], b[1], b[2] } end
  end
  return list
end

local function tmpname()
  return os.tmpname()
end

describe("grid path tables", function()
  it("give the search's optimal cost for every pair on random small grids", function()
    local rand = lcg(2024)
    local found = 0
    for _ = 1, 8 do
      local g = random_grid(rand, rand(3, 11), rand(3, 9), rand(10, 40))
      local t = pathtable.build_grid(g)
      found = found + compare(g, t, all_pairs(g))
    end
    assert.is_true(found > 500)
  end)

  it("give the search's optimal cost on arena", function()
    local g = wayfinder.grid.load_movingai("spec/data/maps/arena.map")
    local t = pathtable.build_grid(g)
    local cells = {}
    for y = 0, g:height() - 1 do
      for x = 0, g:width() - 1 do
        if g:is_passable(x, y) then cells[#cells + 1] = { x, y } end
      end
    end
    local rand = lcg(5)
    local list = {}
    for i = 1, 300 do
      local a, b = cells[rand(1, #cells)], cells[rand(1, #cells)]
      list[i] = { a[1], a[2], b[1], b[2] }
    end
    assert.is_true(compare(g, t, list) > 250)
    local st = t:stats()
    assert.are.equal(#cells, st.passable)
    assert.are.equal(4 * st.runs, st.run_bytes)
    assert.is_true(t:memory() > st.run_bytes)
  end)

  it("answers first moves and says why there is none", function()
    local g = wayfinder.grid.from_ascii([[
..#..
..#..
..#..
]])
    local t = pathtable.build_grid(g)
    -- (0, 1) settles before (1, 1) (lower index, ties kept): the path goes south first
    assert.are.same({ 0, 1 }, { t:first_move(0, 0, 1, 2) })
    assert.are.same({ nil, "arrived" }, { t:first_move(0, 0, 0, 0) })
    assert.are.same({ nil, "unreachable" }, { t:first_move(0, 0, 4, 0) })
    assert.are.same({ nil, "unreachable" }, { t:find_path(0, 0, 4, 0) })
    assert.are.same({ nil, "goal_blocked" }, { t:find_path(0, 0, 2, 0) })
    assert.are.same({ nil, "start_blocked" }, { t:first_move(2, 1, 0, 0) })
    local path, len, info = t:find_path(1, 1, 1, 1)
    assert.are.equal(1, #path)
    assert.are.equal(0, len)
    assert.are.equal(0, info.cost_units)
  end)

  it("saves and loads, refusing other grids, versions and damaged files", function()
    local rand = lcg(77)
    local g = random_grid(rand, 9, 7, 25)
    local t = pathtable.build_grid(g)
    local name = tmpname()
    assert.is_true(t:save(name))
    local u = assert(pathtable.load_grid(name, g))
    assert.are.same(t:stats(), u:stats())
    compare(g, u, all_pairs(g))
    assert.is_true(u:matches(g))

    local f = assert(io.open(name, "rb"))
    local text = f:read("*a")
    f:close()
    local function try(content, grid, options)
      local w = assert(io.open(name, "wb"))
      w:write(content)
      w:close()
      return pathtable.load_grid(name, grid or g, options)
    end
    -- another grid of the same size
    local other = random_grid(lcg(78), 9, 7, 25)
    local r1 = { try(text, other) }
    assert.are.same({ nil, "wrong_grid", "the grid's passability differs from the one the table was built for" }, r1)
    assert.is_false(t:matches(other))
    -- a grid of another size
    local r2 = { try(text, wayfinder.grid.new(4, 4)) }
    assert.are.same({ nil, "wrong_grid", "the table is for a 9x7 grid, this one is 4x4" }, r2)
    -- another class
    local gc = wayfinder.grid.new(9, 7, { classes = { { name = "a" }, { name = "b" } } })
    local tc = pathtable.build_grid(gc, { class = "b" })
    assert.is_true(tc:save(name))
    local f2 = assert(io.open(name, "rb"))
    local ctext = f2:read("*a")
    f2:close()
    assert.are.same({ nil, "wrong_grid", "the table is for class 'b', not 'a'" }, { try(ctext, gc) })
    assert.is_not_nil(try(ctext, gc, { class = "b" }))
    -- an older version
    local old = text:gsub("\nversion 1\n", "\nversion 0\n", 1)
    local r3 = { try(old) }
    assert.are.equal("old_version", r3[2])
    assert.is_nil(r3[1])
    -- truncated anywhere
    for _, cut in ipairs({ 1, 10, 40, #text - 30, #text - 3, #text - 1 }) do
      local r = { try(text:sub(1, cut)) }
      assert.is_nil(r[1])
      assert.is_true(r[2] == "truncated" or r[2] == "not_a_table", "cut at " .. cut .. ": " .. tostring(r[2]))
    end
    -- one byte changed in the rows: the checksum catches it
    local at = #text - 40
    local flipped = text:sub(1, at - 1) .. string.char((text:byte(at) + 1) % 256) .. text:sub(at + 1)
    assert.are.same({ nil, "corrupt", "the checksum does not match the contents" }, { try(flipped) })
    assert.are.same({ nil, "not_a_table", "the file does not start with 'wayfinder-cpd'" }, { try("hello\n") })
    os.remove(name)
    local r4 = { pathtable.load_grid(name, g) }
    assert.is_nil(r4[1])
    assert.are.equal("open_failed", r4[2])
  end)

  it("rejects bad arguments", function()
    local g = wayfinder.grid.new(4, 3)
    local t = pathtable.build_grid(g)
    assert.has_error(function() pathtable.build_grid(3) end,
      "wayfinder.pathtable.build_grid: grid must be a wayfinder.Grid, got 3")
    assert.has_error(function() pathtable.build_grid(g, { class = "tank" }) end,
      "wayfinder.pathtable.build_grid: options.class must name a class of the grid, got 'tank'")
    assert.has_error(function() pathtable.build_grid(g, { size = 1 }) end,
      "wayfinder.pathtable.build_grid: unknown options key 'size'")
    local costly = wayfinder.grid.new(3, 3)
    costly:set_cost(1, 1, 4)
    assert.has_error(function() pathtable.build_grid(costly) end,
      "wayfinder.pathtable.build_grid: grid must have all navcell costs 1 (grid:uniform_cost())")
    assert.has_error(function() t:find_path(4, 0, 0, 0) end,
      "gridpathtable:find_path: sx must be an integer in [0, 4), got 4")
    assert.has_error(function() t:first_move(0, 0, 0, 0 / 0) end,
      "gridpathtable:first_move: gy must be an integer in [0, 3), got nan")
    assert.has_error(function() t:save(nil) end, "gridpathtable:save: path must be a string, got nil")
    assert.has_error(function() pathtable.load_grid(1, g) end,
      "wayfinder.pathtable.load_grid: path must be a string, got 1")
    assert.has_error(function() t:matches(1) end, "gridpathtable:matches: grid must be a wayfinder.Grid, got 1")
  end)
end)
