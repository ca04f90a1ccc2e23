-- Graph requests and grid requests served from one budget per tick: the
-- graph queue's run(budget, {share = grid_queue}) gives the two queues
-- turns of `slice` expansions, never spends more than the budget, lets
-- neither starve, and changes no result.
local wayfinder = require("wayfinder")
local graph = wayfinder.graph

local function map()
  local rows = {}
  for y = 1, 40 do
    local r = {}
    for x = 1, 40 do
      r[x] = ((x % 8 == 0 and y % 10 ~= 3) or (y % 9 == 0 and x % 7 ~= 2)) and "@" or "."
    end
    rows[y] = table.concat(r)
  end
  return wayfinder.grid.from_ascii(table.concat(rows, "\n"))
end

local QUERIES = { { 0.5, 0.5, 38.5, 38.5 }, { 38.5, 0.5, 0.5, 37.5 }, { 3.5, 20.5, 36.5, 4.5 },
  { 20.5, 38.5, 1.5, 1.5 } }

describe("graph queue sharing a budget with a grid queue", function()
  it("spends one budget on both in turns and finds the same paths", function()
    local grid = map()
    local g = graph.from_grid(grid)
    local gq = graph.new_queue()
    local q = wayfinder.queue.new(grid)
    local gh, qh = {}, {}
    for i, t in ipairs(QUERIES) do
      gh[i] = gq:submit(g, t[1], t[2], t[3], t[4])
      qh[i] = q:submit({ sx = t[1], sy = t[2], gx = t[3], gy = t[4], algorithm = "astar" })
    end
    local ticks, first = 0, nil
    local mine_total, theirs_total = 0, 0
    while gq:pending() > 0 or q:pending() > 0 do
      local used, mine, theirs = gq:run(40, { share = q, slice = 8 })
      assert.is_true(used <= 40)
      assert.are.equal(used, mine + theirs)
      first = first or { mine, theirs }
      mine_total, theirs_total = mine_total + mine, theirs_total + theirs
      ticks = ticks + 1
      assert.is_true(ticks < 100000)
    end
    -- both got expansions on the first tick: neither waits for the other
    assert.is_true(first[1] > 0 and first[2] > 0)
    assert.is_true(ticks > 1)
    assert.is_true(mine_total > 0 and theirs_total > 0)
    for i, t in ipairs(QUERIES) do
      local r = assert(gq:result(gh[i]))
      local want = assert(g:find_path(t[1], t[2], t[3], t[4]))
      assert.are.same(want.points, r.points)
      assert.are.equal(want.cost_units, r.cost_units)
      local path, length = qh[i]:result()
      local wpath, wlength = grid:find_path(t[1], t[2], t[3], t[4], { algorithm = "astar" })
      assert.are.same(wpath, path)
      assert.are.equal(wlength, length)
    end
  end)

  it("runs alone as before without options", function()
    local grid = map()
    local g = graph.from_grid(grid)
    local gq = graph.new_queue()
    gq:submit(g, 0.5, 0.5, 38.5, 38.5)
    local used, mine, theirs = gq:run(5)
    assert.is_true(used <= 5)
    assert.are.equal(used, mine)
    assert.are.equal(0, theirs)
  end)

  it("rejects bad options", function()
    local gq = graph.new_queue()
    assert.has_error(function() gq:run(10, 3) end,
      "graph_queue:run: options must be a table, got 3")
    assert.has_error(function() gq:run(10, { share = {} }) end,
      "graph_queue:run: options.share must be a wayfinder.Queue, got a table")
    assert.has_error(function() gq:run(10, { slice = 0 }) end,
      "graph_queue:run: options.slice must be an integer in [1, 2^31], got 0")
    assert.has_error(function() gq:run(10, { every = 1 }) end,
      "graph_queue:run: unknown options key 'every'")
  end)
end)
