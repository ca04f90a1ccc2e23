-- Unit motion on random maps with random orders: the invariants hold at
-- every tick, every order ends within its bound, runs are deterministic,
-- the spatial index changes nothing, and save -> load continues identically.
local wayfinder = require("wayfinder")
local run = require("support.units_run")

local TICKS = 300
local MAX_ORDER_TICKS = 120

local function scenario(seed, options)
  local g = run.map(seed, 40, 32, 0.12)
  local opts = { max_order_ticks = MAX_ORDER_TICKS, budget = 3000, max_wait = 8 }
  for k, v in pairs(options or {}) do opts[k] = v end
  local units = wayfinder.units.new(g, opts)
  local ids, schedule = run.populate(units, g, seed + 1, 40, TICKS)
  return g, units, ids, schedule
end

-- Fails at the first line where two traces differ.
local function same_trace(a, b)
  for k = 1, math.max(#a, #b) do
    if a[k] ~= b[k] then
      error(("traces differ at line %d:\n%s\n%s"):format(k, tostring(a[k]), tostring(b[k])), 2)
    end
  end
end

-- Runs ticks [from, to], checking the invariants, and returns the trace
-- lines and the events.
local function play(g, units, schedule, from, to, check)
  local lines, events = {}, {}
  for t = from, to do
    run.issue(units, schedule, t)
    local before = check and run.snapshot(units)
    for _, e in ipairs(units:tick()) do events[#events + 1] = e end
    local after = run.snapshot(units)
    if check then run.check(g, before, after) end
    lines[#lines + 1] = run.trace_line(t, after)
  end
  return lines, events
end

describe("units", function()
  for _, seed in ipairs({ 1401, 1402, 1403 }) do
    it("keep every invariant at every tick (map seed " .. seed .. ")", function()
      local g, units, ids, schedule = scenario(seed)
      assert.is_true(#ids >= 20)
      local started, outcomes = {}, {}
      local swept = 0
      for t = 1, TICKS do
        for _, o in ipairs(schedule[t]) do
          if o[2] == "stop" then started[o[1]] = nil else started[o[1]] = t end
        end
        run.issue(units, schedule, t)
        local before = run.snapshot(units)
        local events = units:tick()
        local after = run.snapshot(units)
        swept = swept + run.check(g, before, after)
        for _, e in ipairs(events) do
          assert.are.equal(t, e.tick)
          if e.event ~= "blocked" then
            assert.is_truthy(started[e.id], "an event for an order that is not running")
            if e.event == "failed" then
              assert.is_truthy(({ unreachable = true, blocked = true, timeout = true,
                goal_outside = true, stuck = true })[e.reason], e.reason)
            end
            outcomes[e.event .. (e.reason and (":" .. e.reason) or "")] = true
            started[e.id] = nil
          end
        end
        -- every order ends within the bound
        for id, t0 in pairs(started) do
          assert.is_true(t - t0 <= MAX_ORDER_TICKS,
            ("order of unit %d from tick %d still running at %d"):format(id, t0, t))
        end
      end
      assert.is_true(outcomes.arrived, "no order arrived")
      assert.is_true(swept > 1000, "too little movement to mean anything")
    end)
  end

  it("give identical traces for identical runs, with or without the index", function()
    local g1, u1, _, s1 = scenario(1404)
    local g2, u2, _, s2 = scenario(1404)
    local g3, u3, _, s3 = scenario(1404, { brute = true, bucket = 3 })
    local l1 = play(g1, u1, s1, 1, 150)
    local l2 = play(g2, u2, s2, 1, 150)
    local l3 = play(g3, u3, s3, 1, 150)
    assert.are.equal(run.hash(l1), run.hash(l2))
    assert.are.equal(run.hash(l1), run.hash(l3))
    same_trace(l1, l3)
  end)

  it("continue identically after save and load mid-move", function()
    local mid_search = 0
    for at = 1, 60, 15 do
      -- a small budget, so searches span ticks and wait in the queue
      local g, units, _, schedule = scenario(1405, { budget = 8, max_order_ticks = 1000 })
      play(g, units, schedule, 1, at)
      local saved = units:save()
      local again = wayfinder.units.load(g, saved)
      local la, ea = play(g, units, schedule, at + 1, 180)
      local lb, eb = play(g, again, schedule, at + 1, 180)
      same_trace(la, lb)
      assert.are.same(ea, eb)
      -- a search the save caught in progress finished in the continuation
      local head = math.huge
      for _, u in ipairs(saved.units) do
        if u.state == "planning" and u.plan_seq < head then head = u.plan_seq end
      end
      for _, u in ipairs(saved.units) do
        if u.plan_seq == head and saved.clock.head_spent > 0
          and again:state(u.id) ~= "planning" then
          mid_search = mid_search + 1
        end
      end
    end
    -- some saves fell in the middle of a search
    assert.is_true(mid_search > 0, "no save caught a search in progress")
  end)
end)
