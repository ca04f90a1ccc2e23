-- JPS reads planes kept in the search scratch (src/jplanes.c): jump masks
-- and diagonal stops, made on a class's first JPS search and brought up to
-- date with the grid's edits on the next one, in place when the grid's
-- change log reaches back far enough, rebuilt whole when it does not.
-- Whatever edits came before and whatever was searched, JPS returns what it
-- returns on a fresh grid built with the same passability: the same
-- waypoints, cost and expansion count, and a cost equal to A*'s. Any stop
-- left wrong by an update changes the expansions of queries crossing it,
-- or their paths.
local wayfinder = require("wayfinder")
local helpers = require("scale_helpers")

local S = require("support.search")

local grid = wayfinder.grid

local function opts(algorithm, class)
  return S.raw({ algorithm = algorithm, class = class })
end

-- Rooms of 9 x 9 navcells behind one-navcell walls, each wall with a
-- door of one or two navcells, and a few blocked navcells inside: the
-- diagonals meet dead ends and forced neighbours everywhere.
local function rooms_ascii(r, rooms_x, rooms_y)
  local w, h = rooms_x * 10 + 1, rooms_y * 10 + 1
  local cell = {}
  for y = 0, h - 1 do
    cell[y] = {}
    for x = 0, w - 1 do
      cell[y][x] = (x % 10 == 0 or y % 10 == 0) and "@" or "."
      if cell[y][x] == "." and r.chance(4) then cell[y][x] = "@" end
    end
  end
  for ry = 0, rooms_y - 1 do
    for rx = 0, rooms_x - 1 do
      local x0, y0 = rx * 10, ry * 10
      if rx + 1 < rooms_x then -- a door in the east wall
        local d = r.int(1, 8)
        cell[y0 + d][x0 + 10] = "."
        if r.chance(30) then cell[y0 + d + 1][x0 + 10] = "." end
      end
      if ry + 1 < rooms_y then -- and in the south wall
        local d = r.int(1, 8)
        cell[y0 + 10][x0 + d] = "."
        if r.chance(30) then cell[y0 + 10][x0 + d + 1] = "." end
      end
    end
  end
  local rows = {}
  for y = 0, h - 1 do rows[#rows + 1] = table.concat(cell[y], "", 0, w - 1) end
  return table.concat(rows, "\n") .. "\n"
end

local function passable_cells(g, class)
  local out = {}
  for y = 0, g:height() - 1 do
    for x = 0, g:width() - 1 do
      if g:is_passable(x, y, class) then out[#out + 1] = { x, y } end
    end
  end
  return out
end

-- n random (start, goal) pairs among the navcells passable for class
local function queries(r, g, n, class)
  local cells, qs = passable_cells(g, class), {}
  for i = 1, n do
    local a, b = cells[r.int(1, #cells)], cells[r.int(1, #cells)]
    qs[i] = { a[1], a[2], b[1], b[2] }
  end
  return qs
end

-- One query's result as a string: waypoints, cost units and expansions,
-- or the reason and expansions.
local function outcome(g, q, algorithm, class)
  local path, len, info = S.path_between(g, q[1], q[2], q[3], q[4],
    { algorithm = algorithm, class = class })
  if not path then
    return ("%s expanded %d"):format(len, info.expanded)
  end
  local pts = {}
  for i, p in ipairs(path) do pts[i] = p.x .. "," .. p.y end
  return ("%s cost %d expanded %d"):format(table.concat(pts, " "), info.cost_units,
    info.expanded), info.cost_units
end

-- A grid that has never been searched, with the same passability for the
-- default class.
local function fresh(g)
  return grid.from_ascii(g:to_ascii())
end

local function describe_query(q) return ("(%d,%d) -> (%d,%d)"):format(q[1], q[2], q[3], q[4]) end

-- JPS on g must give what JPS gives on a fresh copy, and A*'s cost.
local function check_queries(g, qs, where)
  local copy = fresh(g)
  for _, q in ipairs(qs) do
    local got, cost = outcome(g, q, "jps")
    local want = outcome(copy, q, "jps")
    assert.are.equal(want, got, where .. ", query " .. describe_query(q))
    local _, astar_cost = outcome(g, q, "astar")
    assert.are.equal(astar_cost, cost, where .. ", A* cost, query " .. describe_query(q))
  end
  copy:close()
end

-- Random edits of every kind on g: a navcell flipped, a wall navcell
-- opened, an obstruction added or removed.
local function edit(r, g, obstacles)
  local kind = r.int(1, 4)
  local x, y = r.int(0, g:width() - 1), r.int(0, g:height() - 1)
  if kind == 1 then
    g:set_passable(x, y, not g:is_passable(x, y))
  elseif kind == 2 then
    -- open a wall navcell: a new door
    g:set_passable(x - x % 10, y, true)
  elseif kind == 3 or #obstacles == 0 then
    obstacles[#obstacles + 1] = g:add_obstruction({ x = x + 0.5, y = y + 0.5,
      half_width = r.int(0, 2) + 0.5, half_height = 0.5 })
  else
    g:remove_obstruction(table.remove(obstacles, r.int(1, #obstacles)))
  end
end

-- Rounds of nq checked queries on a grid of rooms, each followed by
-- edits(r, round) random edits, and a last round of queries.
local function edits_between_queries(seed, rooms_x, rooms_y, rounds, nq, edits)
  local r = helpers.rng(seed)
  local g = grid.from_ascii(rooms_ascii(r, rooms_x, rooms_y))
  local obstacles = {}
  for round = 1, rounds do
    check_queries(g, queries(r, g, nq), "round " .. round)
    for _ = 1, edits(r, round) do edit(r, g, obstacles) end
  end
  check_queries(g, queries(r, g, nq), "last round")
  g:close()
end

describe("JPS's jump planes", function()
  it("stay right through passability edits between queries", function()
    edits_between_queries(20261125, 5, 4, 30, 10, function(r) return r.int(1, 3) end)
  end)

  -- On a grid many words wide, a small edit changes the stops in place
  -- one by one (on narrow grids and for large edits the diagonal layout
  -- is rebuilt whole): both ways are checked against fresh grids.
  it("stay right on a wide grid, edit after edit, near the edges too", function()
    local r = helpers.rng(4242)
    local g = grid.from_ascii(rooms_ascii(r, 30, 9))
    assert.are.equal(301, g:width())
    local obstacles = {}
    for round = 1, 25 do
      for _ = 1, r.int(1, 4) do edit(r, g, obstacles) end
      -- and one edit at a corner or an edge of the grid
      local x = ({ 0, 1, g:width() - 2, g:width() - 1, r.int(0, g:width() - 1) })[r.int(1, 5)]
      local y = ({ 0, 1, g:height() - 2, g:height() - 1, r.int(0, g:height() - 1) })[r.int(1, 5)]
      g:set_passable(x, y, not g:is_passable(x, y))
      check_queries(g, queries(r, g, 12), "wide grid, round " .. round)
    end
    -- a batch spanning most of the grid takes the other way
    g:batch(function()
      for _ = 1, 60 do edit(r, g, obstacles) end
    end)
    check_queries(g, queries(r, g, 20), "wide grid, after a batch")
    g:close()
  end)

  it("give the same results cold and warm, in any order", function()
    local r = helpers.rng(7)
    local g = grid.from_ascii(rooms_ascii(r, 6, 6))
    local qs = queries(r, g, 120)
    local cold, warm = {}, {}
    for i, q in ipairs(qs) do cold[i] = outcome(g, q, "jps") end
    for i, q in ipairs(qs) do warm[i] = outcome(g, q, "jps") end
    assert.are.same(cold, warm)
    -- backwards on a grid that has never been searched
    local copy = fresh(g)
    for i = #qs, 1, -1 do
      assert.are.equal(cold[i], (outcome(copy, qs[i], "jps")), describe_query(qs[i]))
    end
    -- and each query alone on a grid of its own
    for i = 1, #qs, 10 do
      local alone = fresh(g)
      assert.are.equal(cold[i], (outcome(alone, qs[i], "jps")), describe_query(qs[i]))
      alone:close()
    end
    copy:close()
    g:close()
  end)

  it("keep classes apart when queries alternate between them", function()
    local function build(seed)
      local r = helpers.rng(seed)
      local text = rooms_ascii(r, 4, 4)
      local g = grid.new(41, 41, { classes = { { name = "small" },
        { name = "large", clearance = 1 } } })
      local y = 0
      for line in text:gmatch("[^\n]+") do
        for x = 1, #line do
          if line:sub(x, x) == "@" then g:set_passable(x - 1, y, false) end
        end
        y = y + 1
      end
      return g
    end
    local r = helpers.rng(99)
    local mixed, separate = build(5), build(5)
    local qs = queries(r, mixed, 60, "large")
    local by_class = { small = {}, large = {} }
    for _, class in ipairs({ "small", "large" }) do
      for i, q in ipairs(qs) do by_class[class][i] = outcome(separate, q, "jps", class) end
    end
    for i, q in ipairs(qs) do
      for _, class in ipairs(i % 2 == 0 and { "small", "large" } or { "large", "small" }) do
        local got, cost = outcome(mixed, q, "jps", class)
        assert.are.equal(by_class[class][i], got, class .. " " .. describe_query(q))
        local _, astar_cost = outcome(mixed, q, "astar", class)
        assert.are.equal(astar_cost, cost, class .. " A* " .. describe_query(q))
      end
    end
    -- the classes differ somewhere, or the test would prove little
    local differ = false
    for i = 1, #qs do differ = differ or by_class.small[i] ~= by_class.large[i] end
    assert.is_true(differ)
    mixed:close()
    separate:close()
  end)

  it("serve queued, sliced searches right across edits", function()
    local r = helpers.rng(31)
    local g = grid.from_ascii(rooms_ascii(r, 5, 5))
    local queue = wayfinder.queue.new(g)
    for round = 1, 12 do
      local qs = queries(r, g, 8)
      local handles = {}
      for i, q in ipairs(qs) do
        handles[i] = queue:submit(S.raw({ sx = q[1] + 0.5, sy = q[2] + 0.5,
          gx = q[3] + 0.5, gy = q[4] + 0.5, algorithm = "jps" }))
      end
      -- a few expansions at a time, and an edit while a request is under
      -- way (the queue starts it over on the new grid)
      queue:run(3)
      local x, y = r.int(1, g:width() - 2), r.int(1, g:height() - 2)
      g:set_passable(x, y, not g:is_passable(x, y))
      while queue:pending() > 0 do queue:run(5) end
      local copy = fresh(g)
      for i, q in ipairs(qs) do
        local path, len, info = handles[i]:result()
        local want_path, want_len, want_info = S.path_between(copy, q[1], q[2],
          q[3], q[4], { algorithm = "jps" })
        if want_path then
          assert.is_table(path, ("round %d %s: %s"):format(round, describe_query(q), tostring(len)))
          assert.are.same(helpers.cells(want_path), helpers.cells(path))
          assert.are.equal(want_info.cost_units, info.cost_units)
        else
          assert.is_nil(path)
          assert.are.equal(want_len, len)
        end
      end
      copy:close()
      -- and the grid's own scratch, searched between the queue's slices
      check_queries(g, queries(r, g, 4), "find_path after round " .. round)
    end
    queue:close()
    g:close()
  end)

  -- More edits between two searches than the grid's change log holds
  -- (16): the planes cannot be brought up to date in place and are made
  -- again from the passability.
  it("stay right when more edits came than the change log holds", function()
    edits_between_queries(1616, 30, 9, 6, 8, function(_, round) return 15 + round * 4 end)
  end)

  -- A cost edit bumps the grid's version without changing passability;
  -- JPS runs again once every cost is back to 1.
  it("stay right across cost edits", function()
    local r = helpers.rng(88)
    local g = grid.from_ascii(rooms_ascii(r, 8, 8))
    check_queries(g, queries(r, g, 8), "before the cost edit")
    g:set_cost(3, 3, 5)
    g:set_passable(15, 15, not g:is_passable(15, 15))
    assert.are.equal("astar", select(3, g:find_path(1.5, 1.5, 40.5, 40.5, S.raw())).algorithm)
    g:set_cost(3, 3, 1)
    check_queries(g, queries(r, g, 12), "after the cost edit")
    g:close()
  end)

  it("live in the search scratch, made on a class's first JPS search", function()
    local g = grid.new(64, 64,
      { classes = { { name = "small" }, { name = "large", clearance = 1 } } })
    local bytes = g:memory()
    g:find_path(0.5, 0.5, 60.5, 50.5, opts("astar"))
    local bytes_astar, scratch_astar = g:memory()
    -- the scratch: 24-byte records, 24-byte open-list slots, 16-byte
    -- bucket slots, a 1-byte mark and JPS's 4-byte record slot per navcell
    assert.is_true(scratch_astar >= 69 * 64 * 64, "scratch " .. scratch_astar)
    assert.is_true(scratch_astar < 69 * 64 * 64 + 20000, "scratch " .. scratch_astar)
    -- one class's planes: 8 row-major planes of 66 rows of 3 words and 4
    -- diagonal planes of 127 lines of 3 words
    local planes = (8 * 66 * 3 + 4 * 127 * 3) * 8
    g:find_path(0.5, 0.5, 60.5, 50.5, opts("jps", "small"))
    local bytes_jps, scratch_jps = g:memory()
    local one = scratch_jps - scratch_astar
    assert.is_true(one >= planes and one < planes + 256, "one class " .. one)
    -- the same class again allocates nothing; another class its own set
    g:find_path(2.5, 2.5, 50.5, 60.5, opts("jps", "small"))
    assert.are.equal(scratch_jps, select(2, g:memory()))
    g:find_path(2.5, 2.5, 50.5, 60.5, opts("jps", "large"))
    local _, scratch_two = g:memory()
    assert.are.equal(2 * one, scratch_two - scratch_astar)
    -- and the grid holds none of it
    assert.are.equal(bytes, bytes_astar)
    assert.are.equal(bytes, bytes_jps)
    assert.are.equal(bytes, (g:memory()))
    g:close()
  end)
end)
