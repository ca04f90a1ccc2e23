-- wayfinder.queue: time-sliced path requests, budgets, fair order,
-- cancellation, partial paths and shared goals.
local wayfinder = require("wayfinder")
local H = require("scale_helpers")

local ROOM, cells, close = H.ROOM, H.cells, H.close

-- Runs the queue with a fixed budget until nothing is pending; returns the
-- number of calls. Asserts the budget is never exceeded and always used
-- in full while work remains.
local function drain(q, budget)
  local calls = 0
  while q:pending() > 0 do
    local used = q:run(budget)
    calls = calls + 1
    if budget then
      assert.is_true(used <= budget)
      if q:pending() > 0 then assert.are.equal(budget, used) end
    end
    assert.is_true(calls < 1e6)
  end
  return calls
end

-- Everything a handle reports, as plain data.
local function outcome(h)
  local path, b, info = h:result()
  local out = { status = h:status() }
  if path then
    out.path, out.length = cells(path), b
  else
    out.reason = b
  end
  if info then
    out.expanded, out.partial, out.rewritten = info.expanded, info.partial, info.goal_rewritten
    out.escaped, out.shared = info.escaped, info.shared
  end
  return out
end

describe("wayfinder.queue", function()
  it("serves a request over several runs", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local q = wayfinder.queue.new(g)
    local h = q:submit({ sx = 0.5, sy = 0.5, gx = 9.5, gy = 5.5, algorithm = "astar" })
    assert.are.equal("pending", h:status())
    assert.are.same({ nil, "pending" }, { h:result() })
    assert.are.same({ 3, 0 }, { q:run(3) })
    assert.are.equal("pending", h:status())
    local used, served = q:run()
    assert.are.equal(1, served)
    assert.are.equal("done", h:status())
    local path, len, info = h:result()
    assert.is_true(close(len, H.walk(g, path)))
    assert.are.equal(3 + used, info.expanded)
    local _, len2, info2 = g:find_path(0.5, 0.5, 9.5, 5.5, { algorithm = "astar" })
    assert.are.equal(len2, len)
    assert.are.equal(info2.expanded, info.expanded)
    assert.are.equal(0, q:pending())
    assert.are.same({ 0, 0 }, { q:run(10) })
  end)

  it("reports failures with the find_path reasons", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local q = wayfinder.queue.new(g)
    local a = q:submit({ sx = 0.5, sy = 0.5, gx = 4.5, gy = 2.5, rewrite_goal = false })
    local b = q:submit({ sx = 2.5, sy = 1.5, gx = 4.5, gy = 2.5, escape = false })
    local c = q:submit({ sx = -3, sy = 0.5, gx = 4.5, gy = 2.5 })
    local d = q:submit({ sx = 0.5, sy = 0.5, gx = 40, gy = 2.5, rewrite_goal = false })
    q:run()
    assert.are.same({ "failed", "failed", "failed", "failed" },
      { a:status(), b:status(), c:status(), d:status() })
    local p, why = a:result()
    assert.are.same({ nil, "unreachable" }, { p, why })
    assert.are.equal("start_blocked", select(2, b:result()))
    assert.are.equal("start_outside", select(2, c:result()))
    assert.are.equal("goal_outside", select(2, d:result()))
    assert.is_true(select(3, a:result()).expanded > 0)
  end)

  it("rewrites goals and escapes like find_path", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local q = wayfinder.queue.new(g)
    local h = q:submit({ sx = 2.5, sy = 2.5, gx = 4.5, gy = 2.5 })
    q:run()
    local p1, l1, i1 = h:result()
    local p2, l2, i2 = g:find_path(2.5, 2.5, 4.5, 2.5)
    assert.are.same(cells(p2), cells(p1))
    assert.are.equal(l2, l1)
    assert.is_true(i1.escaped and i1.goal_rewritten)
    assert.are.same(i2.goal, i1.goal)
    assert.are.same(i2.escape, i1.escape)
    assert.are.equal(i2.escape_length, i1.escape_length)
  end)

  for _, seed in ipairs({ 3, 14, 159 }) do
    it(("gives the same results whatever the budget, seed %d"):format(seed), function()
      local r = H.rng(seed)
      local w, h = r.int(20, 40), r.int(20, 40)
      local text = H.random_ascii(r, w, h, 30)
      local reqs = {}
      for i = 1, 24 do
        local req = {
          sx = r.int(0, w * 2 - 1) / 2, sy = r.int(0, h * 2 - 1) / 2,
          gx = r.int(0, w * 2 - 1) / 2, gy = r.int(0, h * 2 - 1) / 2,
        }
        local kind = i % 6
        if kind == 1 then req.algorithm = "astar" end
        if kind == 2 then req.max_expansions = r.int(1, 30) end
        if kind == 3 then req.max_expansions, req.partial = r.int(1, 30), true end
        if kind == 4 then req.goal = { shape = "circle", radius = r.int(0, 8) / 2 } end
        if kind == 5 then req.shared = true; req.gx, req.gy = 3.5, 4.5 end
        if kind == 0 then req.smooth = true end
        reqs[i] = req
      end
      local results = {}
      for _, budget in ipairs({ 1, 7, 1000, false }) do
        local g = wayfinder.grid.from_ascii(text)
        local q = wayfinder.queue.new(g)
        local handles = {}
        for i, req in ipairs(reqs) do handles[i] = q:submit(req) end
        drain(q, budget or nil)
        local res = {}
        for i, hd in ipairs(handles) do res[i] = outcome(hd) end
        results[#results + 1] = res
      end
      for k = 2, #results do
        assert.are.same(results[1], results[k])
      end
      -- and the same as one find_path call each, for the unshared ones
      local g = wayfinder.grid.from_ascii(text)
      for i, req in ipairs(reqs) do
        if not req.shared then
          local opts = { algorithm = req.algorithm, max_expansions = req.max_expansions,
                         partial = req.partial, goal = req.goal, smooth = req.smooth }
          local path, b = g:find_path(req.sx, req.sy, req.gx, req.gy, opts)
          local mine = results[1][i]
          if path then
            assert.are.same(cells(path), mine.path)
            assert.are.equal(b, mine.length)
          else
            assert.are.equal(b, mine.reason)
          end
        end
      end
    end)
  end

  it("serves requests in submission order, resuming the one in progress", function()
    local g = wayfinder.grid.new(40, 5)
    local q = wayfinder.queue.new(g)
    local hs = {}
    for i = 1, 4 do
      hs[i] = q:submit({ sx = 0.5, sy = 2.5, gx = 39.5 - i, gy = 2.5, algorithm = "astar" })
    end
    local order = {}
    local seen = {}
    while q:pending() > 0 do
      q:run(5)
      for i = 1, 4 do
        if not seen[i] and hs[i]:status() == "done" then
          seen[i] = true
          order[#order + 1] = i
        end
      end
      -- never more than one request is between pending and done
      for i = 1, 4 do
        if hs[i]:status() == "pending" then
          for j = i + 1, 4 do assert.are.equal("pending", hs[j]:status()) end
        end
      end
    end
    assert.are.same({ 1, 2, 3, 4 }, order)
  end)

  it("cancels pending and in-progress requests", function()
    local g = wayfinder.grid.new(40, 5)
    local q = wayfinder.queue.new(g)
    local a = q:submit({ sx = 0.5, sy = 2.5, gx = 39.5, gy = 2.5, algorithm = "astar" })
    local b = q:submit({ sx = 0.5, sy = 0.5, gx = 39.5, gy = 4.5, algorithm = "astar" })
    local c = q:submit({ sx = 1.5, sy = 1.5, gx = 3.5, gy = 1.5, algorithm = "astar" })
    assert.are.equal(10, q:run(10))      -- a is in progress
    assert.is_true(a:cancel())
    assert.is_true(b:cancel())
    assert.is_false(b:cancel())
    assert.are.same({ "cancelled", "cancelled", "pending" },
      { a:status(), b:status(), c:status() })
    assert.are.same({ nil, "cancelled" }, { a:result() })
    assert.are.equal(1, q:pending())
    local used, served = q:run()
    assert.are.equal(1, served)
    assert.are.equal(3, used)
    assert.are.equal("done", c:status())
    assert.is_false(c:cancel())
    assert.are.equal("done", c:status())
  end)

  it("returns partial paths at a request's own cap", function()
    local g = wayfinder.grid.from_ascii(table.concat({
      "@@@@@@@@@@@@",
      "@..........@",
      "@@@@@@@@@@@@",
    }, "\n"))
    local q = wayfinder.queue.new(g)
    local a = q:submit({ sx = 1.5, sy = 1.5, gx = 10.5, gy = 1.5, algorithm = "astar",
                         max_expansions = 4, partial = true })
    local b = q:submit({ sx = 1.5, sy = 1.5, gx = 10.5, gy = 1.5, algorithm = "astar",
                         max_expansions = 4 })
    drain(q, 1)
    local path, len, info = a:result()
    assert.are.same({ { 1, 1 }, { 4, 1 } }, cells(path))
    assert.are.equal(3, len)
    assert.is_true(info.partial)
    assert.are.equal("expansion_limit", info.partial_reason)
    assert.are.equal("failed", b:status())
    assert.are.equal("expansion_limit", select(2, b:result()))
  end)

  it("starts a request over when the grid changes under it", function()
    local g = wayfinder.grid.new(30, 6)
    local q = wayfinder.queue.new(g)
    local h = q:submit({ sx = 0.5, sy = 2.5, gx = 29.5, gy = 2.5, algorithm = "astar" })
    q:run(5)
    g:add_obstruction({ x = 15, y = 2.5, half_width = 1, half_height = 2.5 })
    q:run()
    local path, len = h:result()
    local p2, l2 = g:find_path(0.5, 2.5, 29.5, 2.5, { algorithm = "astar" })
    assert.are.same(cells(p2), cells(path))
    assert.are.equal(l2, len)
    H.walk(g, path)
  end)

  it("refuses to run inside grid:batch", function()
    local g = wayfinder.grid.new(5, 5)
    local q = wayfinder.queue.new(g)
    assert.has_error(function()
      g:batch(function() q:run() end)
    end, "queue:run: cannot search inside grid:batch")
  end)
end)

describe("shared goals", function()
  for _, seed in ipairs({ 2, 21, 88 }) do
    it(("give every agent an optimal path, seed %d"):format(seed), function()
      local r = H.rng(seed)
      local w, h = r.int(20, 45), r.int(20, 45)
      local g = wayfinder.grid.from_ascii(H.random_ascii(r, w, h, 28))
      if seed == 88 then
        for _ = 1, 60 do g:set_cost(r.int(0, w - 1), r.int(0, h - 1), r.int(2, 5)) end
      end
      local q = wayfinder.queue.new(g)
      local goals = {}
      for i = 1, 3 do
        goals[i] = { gx = r.int(0, w - 1) + 0.5, gy = r.int(0, h - 1) + 0.5 }
      end
      goals[3].goal = { shape = "circle", radius = 1.5 }
      local agents = {}
      for i = 1, 60 do
        local gl = goals[i % 3 + 1]
        local req = { sx = r.int(0, w - 1) + 0.5, sy = r.int(0, h - 1) + 0.5,
                      gx = gl.gx, gy = gl.gy, goal = gl.goal, shared = true }
        agents[i] = { req = req, h = q:submit(req) }
      end
      drain(q, 50)
      local fields = 0
      for _, a in ipairs(agents) do
        local path, len, info = a.h:result()
        local p2, l2, i2 = g:find_path(a.req.sx, a.req.sy, a.req.gx, a.req.gy,
          { goal = a.req.goal, algorithm = "astar" })
        assert.are.equal(p2 == nil, path == nil)
        if path then
          assert.is_true(close(len, l2))
          assert.are.equal(i2.cost_units, info.cost_units)
          assert.are.same(cells(p2)[1], cells(path)[1])
          assert.are.equal(i2.goal_rewritten, info.goal_rewritten)
          if not info.goal_rewritten then
            assert.is_true(info.shared)
            if info.expanded > 0 then fields = fields + 1 end
          end
          if not info.escaped then
            local walked = H.walk(g, path)
            if seed ~= 88 then assert.is_true(close(len, walked)) end
          end
        end
      end
      -- one computation per goal (some goals may be unreachable for all)
      assert.is_true(fields >= 1 and fields <= 3)
    end)
  end

  for _, seed in ipairs({ 5, 60 }) do
    it(("give optimal paths from every navcell of a random map, seed %d"):format(seed), function()
      local r = H.rng(seed)
      local w, h = 26, 21
      local g = wayfinder.grid.from_ascii(H.random_ascii(r, w, h, 22 + seed % 20))
      local gx, gy
      repeat gx, gy = r.int(0, w - 1), r.int(0, h - 1) until g:is_passable(gx, gy)
      local q = wayfinder.queue.new(g)
      local agents = {}
      for y = 0, h - 1 do
        for x = 0, w - 1 do
          if g:is_reachable(x, y, gx, gy) then
            agents[#agents + 1] = { x = x, y = y,
              h = q:submit({ sx = x + 0.5, sy = y + 0.5, gx = gx + 0.5, gy = gy + 0.5,
                             shared = true }) }
          end
        end
      end
      q:run()
      assert.is_true(#agents > 100)
      for _, a in ipairs(agents) do
        local path, len, info = a.h:result()
        local _, _, i2 = g:find_path(a.x + 0.5, a.y + 0.5, gx + 0.5, gy + 0.5,
          { algorithm = "astar" })
        assert.are.equal(i2.cost_units, info.cost_units)
        assert.is_true(close(len, H.walk(g, path)))
      end
    end)
  end

  it("serves later agents from the ready field without expansions", function()
    local g = wayfinder.grid.new(30, 30)
    local q = wayfinder.queue.new(g)
    local a = q:submit({ sx = 0.5, sy = 0.5, gx = 20.5, gy = 20.5, shared = true })
    q:run()
    assert.are.equal(900, select(3, a:result()).expanded)
    local b = q:submit({ sx = 29.5, sy = 0.5, gx = 20.5, gy = 20.5, shared = true })
    assert.are.same({ 0, 1 }, { q:run(0) })
    local path, len, info = b:result()
    assert.are.equal(0, info.expanded)
    assert.is_true(info.shared)
    assert.are.same({ 20, 20 }, cells(path)[#path])
    assert.is_true(close(len, 11 + 9 * math.sqrt(2)))
    -- a grid edit makes the field stale: it is computed again
    g:set_passable(10, 10, false)
    local c = q:submit({ sx = 29.5, sy = 0.5, gx = 20.5, gy = 20.5, shared = true })
    q:run()
    assert.are.equal(899, select(3, c:result()).expanded)
  end)

  it("computes fields in slices under the budget", function()
    local g = wayfinder.grid.new(30, 30)
    local q = wayfinder.queue.new(g)
    local hs = {}
    for i = 1, 5 do
      hs[i] = q:submit({ sx = i + 0.5, sy = 0.5, gx = 20.5, gy = 20.5, shared = true })
    end
    -- 900 navcells settled 10 per call; the call that settles the last one
    -- serves all five agents
    assert.are.equal(90, drain(q, 10))
    for i = 1, 5 do assert.are.equal("done", hs[i]:status()) end
    assert.are.equal(900, select(3, hs[1]:result()).expanded)
    assert.are.equal(0, select(3, hs[2]:result()).expanded)
  end)

  it("serves every waiting agent of a goal as soon as its field is ready", function()
    local g = wayfinder.grid.new(30, 30)
    local q = wayfinder.queue.new(g)
    local a = q:submit({ sx = 0.5, sy = 0.5, gx = 20.5, gy = 20.5, shared = true })
    local b = q:submit({ sx = 0.5, sy = 29.5, gx = 29.5, gy = 0.5, algorithm = "astar" })
    local c = q:submit({ sx = 29.5, sy = 29.5, gx = 20.5, gy = 20.5, shared = true })
    assert.are.same({ 900, 2 }, { q:run(900) })
    assert.are.same({ "done", "pending", "done" }, { a:status(), b:status(), c:status() })
    assert.are.equal(0, select(3, c:result()).expanded)
  end)

  it("keeps at most max_fields fields", function()
    local g = wayfinder.grid.new(10, 10)
    local q = wayfinder.queue.new(g, { max_fields = 1 })
    local a = q:submit({ sx = 0.5, sy = 0.5, gx = 5.5, gy = 5.5, shared = true })
    local b = q:submit({ sx = 0.5, sy = 0.5, gx = 8.5, gy = 8.5, shared = true })
    q:run()
    -- b's field took the only place: (5, 5) is computed again
    local c = q:submit({ sx = 9.5, sy = 0.5, gx = 5.5, gy = 5.5, shared = true })
    q:run()
    assert.are.same({ 100, 100, 100 }, {
      select(3, a:result()).expanded, select(3, b:result()).expanded,
      select(3, c:result()).expanded })
  end)
end)

describe("queue lifetime and bad input", function()
  it("releases requests whose handles are collected", function()
    local g = wayfinder.grid.new(10, 10)
    local q = wayfinder.queue.new(g)
    for _ = 1, 50 do q:submit({ sx = 0.5, sy = 0.5, gx = 9.5, gy = 9.5 }) end
    collectgarbage()
    collectgarbage()
    assert.are.equal(0, q:pending())
    local h = q:submit({ sx = 0.5, sy = 0.5, gx = 9.5, gy = 9.5 })
    q:run()
    assert.are.equal("done", h:status())
  end)

  it("closes idempotently and says so", function()
    local g = wayfinder.grid.new(10, 10)
    local q = wayfinder.queue.new(g)
    local h = q:submit({ sx = 0.5, sy = 0.5, gx = 9.5, gy = 9.5 })
    assert.are.equal("wayfinder.Queue (1 pending)", tostring(q))
    assert.are.equal("wayfinder.Request (pending)", tostring(h))
    assert.is_true(q:memory() > 0)
    q:close()
    q:close()
    assert.is_true(q:is_closed())
    assert.are.equal("wayfinder.Queue (closed)", tostring(q))
    assert.are.equal("wayfinder.Request (released)", tostring(h))
    assert.has_error(function() q:run() end, "queue:run: the queue is closed")
    assert.has_error(function() h:status() end, "handle:status: the queue is closed")
    assert.has_error(function() h:result() end, "handle:result: the queue is closed")
    assert.has_error(function() h:cancel() end, "handle:cancel: the queue is closed")
  end)

  it("errors when its grid is closed", function()
    local g = wayfinder.grid.new(10, 10)
    local q = wayfinder.queue.new(g)
    g:close()
    assert.has_error(function() q:run() end, "queue:run: the queue's grid is a closed grid")
    assert.has_error(function() q:submit({ sx = 0, sy = 0, gx = 1, gy = 1 }) end,
      "queue:submit: the queue's grid is a closed grid")
  end)

  it("rejects bad arguments to wayfinder.queue.new", function()
    local g = wayfinder.grid.new(10, 10)
    assert.has_error(function() wayfinder.queue.new() end,
      "wayfinder.queue.new: grid must be a wayfinder.Grid, got no value")
    assert.has_error(function() wayfinder.queue.new({}) end,
      "wayfinder.queue.new: grid must be a wayfinder.Grid, got a table")
    assert.has_error(function() wayfinder.queue.new(g, 3) end,
      "wayfinder.queue.new: options must be a table, got 3")
    assert.has_error(function() wayfinder.queue.new(g, { fields = 3 }) end,
      "wayfinder.queue.new: unknown options key 'fields'")
    assert.has_error(function() wayfinder.queue.new(g, { max_fields = 0 }) end,
      "wayfinder.queue.new: options.max_fields must be an integer in [1, 1024], got 0")
    g:close()
    assert.has_error(function() wayfinder.queue.new(g) end,
      "wayfinder.queue.new: grid is a closed grid")
  end)

  it("rejects bad requests", function()
    local g = wayfinder.grid.new(10, 10, { classes = { { name = "a" }, { name = "b" } } })
    local q = wayfinder.queue.new(g)
    local function bad(req, msg)
      assert.has_error(function() q:submit(req) end, "queue:submit: " .. msg)
    end
    assert.has_error(function() q:submit() end,
      "queue:submit: request must be a table {sx =, sy =, gx =, gy =, ...}, got no value")
    bad({ sx = 0, sy = 0, gx = 1 }, "request.gy must be a number in [-32767, 32767], got nil")
    bad({ sx = 0 / 0, sy = 0, gx = 1, gy = 1 },
      "request.sx must be a number in [-32767, 32767], got nan")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, speed = 3 }, "unknown request key 'speed'")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, class = "c" },
      "request.class must name a class of the queue's grid, got 'c'")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, algorithm = "bfs" },
      "request.algorithm must be 'astar', 'jps' or 'auto', got 'bfs'")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, max_expansions = -1 },
      "request.max_expansions must be an integer in [1, 9007199254740992], got -1")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, partial = "no" },
      "request.partial must be a boolean, got 'no'")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, shared = 1 },
      "request.shared must be a boolean, got 1")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, smooth = 1 },
      "request.smooth must be a boolean, got 1")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, escape = 1 },
      "request.escape must be a boolean, got 1")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, rewrite_goal = 1 },
      "request.rewrite_goal must be a boolean, got 1")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, shared = true, max_expansions = 5 },
      "a shared request takes no max_expansions or partial (its path is read from a "
      .. "complete field)")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, goal = 5 }, "request.goal must be a table, got 5")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, goal = { shape = "circle", radius = -1 } },
      "request.goal.radius must be a number in [0, 16384], got -1")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, goal = { shape = "hex" } },
      "request.goal.shape must be 'point', 'circle' or 'square', got 'hex'")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, goal = { shape = "square", half_width = 1,
                                                   half_height = 1, u = { 1, 1 } } },
      "request.goal.u must be a unit vector, its length is 1.41421")
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, goal = { radius = 1, colour = 2 } },
      "unknown request.goal key 'colour'")
    g:set_cost(1, 1, 3)
    bad({ sx = 0, sy = 0, gx = 1, gy = 1, algorithm = "jps" },
      "request.algorithm 'jps' needs a grid whose costs are all 1; use 'astar'")
    assert.are.equal(0, q:pending())
  end)

  it("rejects bad budgets and foreign selves", function()
    local g = wayfinder.grid.new(10, 10)
    local q = wayfinder.queue.new(g)
    local h = q:submit({ sx = 0, sy = 0, gx = 1, gy = 1 })
    assert.has_error(function() q:run(-1) end,
      "queue:run: budget must be an integer in [0, 9007199254740992], got -1")
    assert.has_error(function() q:run(1.5) end,
      "queue:run: budget must be an integer in [0, 9007199254740992], got 1.5")
    assert.has_error(function() q:run(1 / 0) end,
      "queue:run: budget must be an integer in [0, 9007199254740992], got inf")
    assert.has_error(function() q.run(g) end,
      "queue:run: self must be a wayfinder.Queue, got a userdata (call it as queue:method(...))")
    assert.has_error(function() h.status(q) end,
      "handle:status: self must be a wayfinder.Request, got a userdata "
      .. "(call it as handle:method(...))")
    assert.has_error(function() h.result() end,
      "handle:result: self must be a wayfinder.Request, got no value "
      .. "(call it as handle:method(...))")
    assert.has_error(function() q.submit(h, {}) end,
      "queue:submit: self must be a wayfinder.Queue, got a userdata "
      .. "(call it as queue:method(...))")
    assert.has_error(function() q.pending(5) end,
      "queue:pending: self must be a wayfinder.Queue, got 5 (call it as queue:method(...))")
    assert.has_error(function() q.memory("q") end,
      "queue:memory: self must be a wayfinder.Queue, got 'q' (call it as queue:method(...))")
    assert.has_error(function() h.cancel({}) end,
      "handle:cancel: self must be a wayfinder.Request, got a table "
      .. "(call it as handle:method(...))")
    assert.has_error(function() q.close(h) end)
    q:close()
    assert.has_error(function() q:pending() end, "queue:pending: the queue is closed")
    assert.has_error(function() q:memory() end, "queue:memory: the queue is closed")
    assert.has_error(function() q:submit({ sx = 0, sy = 0, gx = 1, gy = 1 }) end,
      "queue:submit: the queue is closed")
  end)
end)
