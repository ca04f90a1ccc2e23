-- Steering groups over many ticks: pursuit catches a slower target,
-- evasion escapes a slower pursuer, crowds never overlap, walls are never
-- crossed, neighbours from the buckets are exactly the neighbours of an
-- all-pairs scan, and identical runs give identical traces.
local steer = require("wayfinder.steer")
local grid_mod = require("wayfinder.grid")
local sweep = require("wayfinder.sweep")

local Q = 65536

local function dist(g, a, b)
  local ax, ay = g:get(a)
  local bx, by = g:get(b)
  return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)
end

-- A pursuer (0.5 a tick) after a target crossing its path at 0.25 a tick;
-- returns the tick of the catch (within 0.5) or nil within `ticks`.
local function chase(mode, ticks)
  local g = steer.group({ max_speed = 0.5, max_accel = 0.125, lookahead = 40 })
  local p = g:add(0, 0)
  local t = g:add(20, -10, 0, 0.25)
  g:speed(t, 0.25)
  g:target(t, 20, 1000)
  g:behave(t, { seek = 1 })
  g:behave(p, { [mode] = 1 })
  g:chase(p, t)
  for tick = 1, ticks do
    if mode == "seek" then g:target(p, g:get(t)) end
    g:step()
    if dist(g, p, t) < 0.5 then return tick end
  end
  return nil
end

describe("steer motion", function()
  it("pursuit catches a slower crossing target within 60 ticks, sooner than seek", function()
    local caught = chase("pursue", 60)
    assert.is_not_nil(caught)
    local by_seek = chase("seek", 200)
    assert.is_not_nil(by_seek)
    assert.is_true(caught < by_seek, ("pursue %d, seek %d"):format(caught, by_seek))
  end)

  it("evasion keeps a slower pursuer from ever closing in (2000 ticks)", function()
    local g = steer.group({ max_speed = 0.5, max_accel = 0.125 })
    local e = g:add(0, 0)
    local p = g:add(-4, 1)
    g:speed(p, 0.4)
    g:behave(e, { evade = 1 })
    g:chase(e, p)
    g:behave(p, { pursue = 1 })
    g:chase(p, e)
    local start = dist(g, e, p)
    local closest = start
    for _ = 1, 2000 do
      g:step()
      closest = math.min(closest, dist(g, e, p))
    end
    assert.is_true(closest >= start - 1e-9, "the pursuer closed to " .. closest)
    assert.is_true(dist(g, e, p) > start + 100)
    -- the same pursuer catches an evader slower than itself
    local g2 = steer.group({ max_speed = 0.5, max_accel = 0.125 })
    local e2 = g2:add(0, 0)
    local p2 = g2:add(-4, 1)
    g2:speed(e2, 0.25)
    g2:behave(e2, { evade = 1 })
    g2:chase(e2, p2)
    g2:behave(p2, { pursue = 1 })
    g2:chase(p2, e2)
    local caught = false
    for _ = 1, 200 do
      g2:step()
      if dist(g2, e2, p2) < 0.5 then caught = true; break end
    end
    assert.is_true(caught)
  end)

  it("a crowd arriving on one point never overlaps when started apart", function()
    local r = 0.25
    local g = steer.group({ max_speed = 0.25, max_accel = 0.0625, radius = r,
      neighbour_radius = 1.5, separation_radius = 1 })
    local n = 25
    for i = 0, n - 1 do
      local a = g:add((i % 5) * 2, math.floor(i / 5) * 2)
      g:target(a, 4, 4)
      g:behave(a, { arrive = 2, separation = 1 })
    end
    local blocked = 0
    for _ = 1, 300 do
      blocked = blocked + g:step()
      for i = 1, n do
        local ax, ay = g:get(i)
        for j = i + 1, n do
          local bx, by = g:get(j)
          -- squares of half size r never share a point: |dx| or |dy| > 2r
          assert.is_true(math.max(math.abs(ax - bx), math.abs(ay - by)) > 2 * r,
            ("agents %d and %d touch"):format(i, j))
        end
      end
    end
    assert.is_true(blocked > 0, "the crowd never pressed together")
    -- and separation by itself spreads a clump (no collision rule)
    local s = steer.group({ max_speed = 0.25, max_accel = 0.0625, separation_radius = 2 })
    for i = 0, 8 do s:add(10 + (i % 3) * 0.25, 10 + math.floor(i / 3) * 0.25) end
    for i = 1, 9 do s:behave(i, { separation = 1 }) end
    for _ = 1, 100 do s:step() end
    local closest = math.huge
    for i = 1, 9 do
      for j = i + 1, 9 do closest = math.min(closest, dist(s, i, j)) end
    end
    assert.is_true(closest > 1, "closest pair " .. closest)
  end)

  it("never leaves passable ground; slides along walls", function()
    local grid = grid_mod.from_ascii(table.concat({
      "..........",
      "..........",
      "....@@....",
      "....@@....",
      "....@@....",
      "..........",
    }, "\n") .. "\n")
    local g = steer.group({ max_speed = 0.5, max_accel = 0.25, radius = 0.2,
      neighbour_radius = 1.5 })
    local n = 0
    for y = 2.5, 4.5 do
      for x = 0.5, 1.5 do
        local a = g:add(x, y)
        g:target(a, 9, 0.5)   -- past the wall's top corner: sliding gets there
        g:behave(a, { seek = 2, separation = 1 })
        n = n + 1
      end
    end
    local blocked = 0
    for _ = 1, 120 do
      blocked = blocked + g:step(grid)
      for i = 1, n do
        local x, y = g:get(i)
        assert.is_false(sweep.grid(grid, x, y, x, y), ("agent %d on a wall"):format(i))
      end
    end
    assert.is_true(blocked > 0)
    local past = 0
    for i = 1, n do
      if (g:get(i)) > 6 then past = past + 1 end
    end
    assert.is_true(past >= 1, "no agent got round the wall")
    local bad = steer.group()
    bad:add(4.5, 3.5)
    assert.has_error(function() bad:step(grid) end,
      "group:step: agent 1 at (4.5, 3.5) stands on ground not passable for the class")
    assert.has_error(function() bad:step(grid, "huge") end,
      "group:step: class must name a class of the grid, got 'huge'")
  end)

  it("takes neighbours from buckets exactly as an all-pairs scan would", function()
    local g = steer.group({ neighbour_radius = 1.5, capacity = 200, max_speed = 0.5 })
    local seed = 12345
    local function rnd(m)
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % m
    end
    local n = 150
    local st = {}
    for i = 1, n do
      local x, y = rnd(1600) / 64 - 12, rnd(1600) / 64 - 12
      local vx, vy = (rnd(33) - 16) / 64, (rnd(33) - 16) / 64
      g:add(x, y, vx, vy)
      st[i] = { x * Q, y * Q, vx * Q, vy * Q }
    end
    local function trunc(v) return v >= 0 and math.floor(v) or -math.floor(-v) end
    local r2 = (1.5 * Q) ^ 2
    local with = 0
    for i = 1, n do
      local sx, sy, c = 0, 0, 0
      for j = 1, n do
        local dx, dy = st[i][1] - st[j][1], st[i][2] - st[j][2]
        if j ~= i and dx * dx + dy * dy <= r2 then
          sx, sy, c = sx + st[j][3], sy + st[j][4], c + 1
        end
      end
      local want = { 0, 0 }
      if c > 0 then
        want = { trunc(sx / c) - st[i][3], trunc(sy / c) - st[i][4] }
        with = with + 1
      end
      local fx, fy = g:force(i, "alignment")
      assert.same(want, { fx * Q, fy * Q }, "agent " .. i)
    end
    assert.is_true(with > 20 and with < n, "neighbourhoods too uniform to test")
  end)

  it("gives identical traces for identical runs, another for another seed", function()
    local function run(seed)
      local g = steer.group({ seed = seed, max_speed = 0.3, max_accel = 0.05,
        radius = 0.2, neighbour_radius = 1.5, separation_radius = 1 })
      for i = 0, 29 do
        local a = g:add((i % 6) * 1.5, math.floor(i / 6) * 1.5)
        g:behave(a, { wander = 2, separation = 3, alignment = 1, cohesion = 1 })
      end
      local h = 0
      for _ = 1, 200 do
        g:step()
        for i = 1, g:count() do
          local x, y, vx, vy = g:get(i)
          for _, v in ipairs({ x, y, vx, vy }) do
            h = (h * 31 + math.floor(v * Q) % 1000003) % 2147483647
          end
        end
      end
      return h
    end
    local a, b = run(7), run(7)
    assert.equal(a, b)
    assert.are_not.equal(a, run(8))
  end)
end)
