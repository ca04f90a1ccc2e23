-- Elevator schedules: an elevator link with {period, offset} leaves at
-- offset + k * period (in navcells of cost, the query's `time` at the
-- start); an agent reaching it waits for the next departure. Worked
-- examples, a brute-force Dijkstra that walks the departures one by one on
-- random graphs, saving, and bad input.
local wayfinder = require("wayfinder")
local graph = wayfinder.graph
local brute = require("support.graph_brute")
-- draws the same numbers on every Lua version (support.prng): reseed(n)
-- starts over, random() is in [0, 1), random(n) in [1, n], random(a, b)
-- in [a, b]
local prng = require("support.prng")
local gen = prng.new(1)
local function reseed(n) gen = prng.new(n) end
local function random(a, b)
  if a == nil then return gen.float() end
  return gen.int(a, b)
end

-- ground [0, 10) x [0, 10), roof [20, 30) x [0, 10); an elevator from
-- (1, 1) to (21, 1) (ride 2, every 10 from 3) and a ladder (cost 8)
local function tower()
  local g = graph.new()
  local ground = g:add_sector { x0 = 0, y0 = 0, x1 = 10, y1 = 10 }
  local roof = g:add_sector { x0 = 20, y0 = 0, x1 = 30, y1 = 10 }
  local lift = g:add_link { from = { 1, 1 }, to = { 21, 1 }, kind = "elevator", cost = 2,
    schedule = { period = 10, offset = 3 } }
  return g, ground, roof, lift
end

describe("elevator schedules", function()
  it("waits for the next departure, measured from the query's time", function()
    local g = tower()
    -- arriving at 0 waits 3; at 3 not at all; at 4 waits 9 (the next is 13)
    assert.are.equal(3 + 2, assert(g:find_path(1, 1, 21, 1)).cost)
    assert.are.equal(2, assert(g:find_path(1, 1, 21, 1, { time = 3 })).cost)
    assert.are.equal(9 + 2, assert(g:find_path(1, 1, 21, 1, { time = 4 })).cost)
    assert.are.equal(2, assert(g:find_path(1, 1, 21, 1, { time = 23 })).cost)
    -- walking 4 to the door is part of the arrival time: 4 + 9 + 2
    assert.are.equal(15, assert(g:find_path(5, 1, 21, 1)).cost)
    assert.are.equal(4 + 9 + 2, assert(g:find_path(5, 1, 21, 1, { time = 10 })).cost)
    assert.are.equal(4 + 2, assert(g:find_path(5, 1, 21, 1, { time = 9 })).cost)
  end)

  it("takes the ladder when the wait makes the elevator dearer", function()
    local g = tower()
    g:add_link { from = { 2, 1 }, to = { 22, 1 }, kind = "ladder", cost = 8 }
    local kind = function(r)
      for _, c in ipairs(r.corridor) do if c.kind ~= "walk" then return c.kind end end
    end
    -- at 3: 0 + 2 + 1 (walk from (21, 1) to (22, 1)) against 1 + 8
    local r = assert(g:find_path(1, 1, 22, 1, { time = 3 }))
    assert.are.equal("elevator", kind(r))
    assert.are.equal(3, r.cost)
    -- at 4: 9 + 2 + 1 against 1 + 8
    r = assert(g:find_path(1, 1, 22, 1, { time = 4 }))
    assert.are.equal("ladder", kind(r))
    assert.are.equal(9, r.cost)
    -- the same query always gives the same answer
    for _ = 1, 3 do
      assert.are.same(r.points, assert(g:find_path(1, 1, 22, 1, { time = 4 })).points)
    end
  end)

  it("costs what a departure-by-departure Dijkstra finds on random graphs", function()
    local compared, waited = 0, 0
    for seed = 1, 40 do
      reseed(seed)
      local g = graph.new()
      for _, b in ipairs(brute.random_boxes(20, 14, random(4, 14), random)) do
        g:add_sector { x0 = b[1], y0 = b[2], x1 = b[3], y1 = b[4] }
      end
      local n = g:sector_count()
      for i = 1, n do
        for j = i + 1, n do
          local a, b = g:sector(i), g:sector(j)
          local x0, x1 = math.max(a.x0, b.x0), math.min(a.x1, b.x1)
          local y0, y1 = math.max(a.y0, b.y0), math.min(a.y1, b.y1)
          if ((x0 == x1 and y0 < y1) or (y0 == y1 and x0 < x1)) and random() < 0.6 then
            g:add_portal { a = i, b = j }
          end
        end
      end
      local function point() return { random(0, 79) / 4, random(0, 55) / 4 } end
      for _ = 1, random(1, 6) do
        local period = random(1, 40) / 4
        g:add_link { from = point(), to = point(), kind = "elevator",
          cost = random(0, 8) / 4, one_way = random(2) == 1,
          schedule = { period = period, offset = random(0, period * 4 - 1) / 4 } }
      end
      for _ = 1, 6 do
        local s, t = point(), point()
        local time = random(0, 200) / 4
        local want = brute.solve(g, s[1], s[2], t[1], t[2], { ground = 1 }, 1, 0, time)
        local r = g:find_path(s[1], s[2], t[1], t[2], { time = time })
        compared = compared + 1
        if want then
          assert.is_table(r, "seed " .. seed)
          assert.are.equal(want, r.cost_units, "seed " .. seed)
          local still = brute.solve(g, s[1], s[2], t[1], t[2], { ground = 1 }, 1, 0, nil)
          if still ~= brute.solve(g, s[1], s[2], t[1], t[2], { ground = 1 }, 1, 0, time + 0.25)
          then
            waited = waited + 1
          end
        else
          assert.is_nil(r, "seed " .. seed)
        end
      end
    end
    assert.is_true(compared >= 200)
    -- the schedules mattered on some queries
    assert.is_true(waited > 10, "waited " .. waited)
  end)

  it("saves and loads the schedule, and shows it in portal()", function()
    local g, _, _, lift = tower()
    assert.are.same({ period = 10, offset = 3 }, g:portal(lift).schedule)
    local h = graph.load(g:save())
    assert.are.same({ period = 10, offset = 3 }, h:portal(lift).schedule)
    assert.are.equal(9 + 2, assert(h:find_path(1, 1, 21, 1, { time = 4 })).cost)
    local saved = g:save()
    saved.portals[1].schedule = { period = 2, offset = 5 }
    assert.has_error(function() graph.load(saved) end,
      "wayfinder.graph.load: portal 1 has a bad schedule: schedule.offset must be below "
        .. "the period 2, got 5")
  end)

  it("rejects bad schedules and times", function()
    local g = tower()
    assert.has_error(function()
      g:add_link { from = { 1, 2 }, to = { 21, 2 }, kind = "ladder", schedule = { period = 4 } }
    end, "graph:add_link: link.schedule is only for kind 'elevator'")
    assert.has_error(function()
      g:add_link { from = { 1, 2 }, to = { 21, 2 }, kind = "elevator", schedule = { period = 0 } }
    end, "graph:add_link: link.schedule.period must be above 0, got 0")
    assert.has_error(function()
      g:add_link { from = { 1, 2 }, to = { 21, 2 }, kind = "elevator",
        schedule = { period = 4, offset = 4 } }
    end, "graph:add_link: link.schedule.offset must be below the period 4, got 4")
    assert.has_error(function()
      g:add_link { from = { 1, 2 }, to = { 21, 2 }, kind = "elevator",
        schedule = { period = 4, every = 1 } }
    end, "graph:add_link: unknown link.schedule key 'every'")
    assert.has_error(function() g:find_path(1, 1, 21, 1, { time = -1 }) end,
      "graph:find_path: options.time must be a number in [0, 2^30], got -1")
    assert.has_error(function() g:find_path(1, 1, 21, 1, { time = 0 / 0 }) end)
  end)
end)
