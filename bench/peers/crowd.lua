-- crowd.lua - the crowd half of `make bench-peers`: wayfinder.units with
-- avoidance = "velocity" (peer "wayfinder") and "orca" (peer
-- "wayfinder-orca"; PEERS_CROWD_MODES picks them) on the crowd scenarios,
-- and the same scenarios written out for detour_crowd.cpp so both peers run
-- exactly the same maps, starts and goals. See docs/peers.md ("Crowds").
--
-- usage: lua5.4 crowd.lua OUTDIR [NAME ...]
--   writes OUTDIR/<name>.crowd for every scenario (or the NAMEs given) and
--   prints one record line per scenario run with wayfinder:
--   C  peer  scenario  agents  arrived  t50  t90  t_all  bound  ticks_run
--      min_gap  overlap_pair_ticks  ms_per_tick_per_agent
--   (t_all is the tick the last agent arrived, "-" when some never did;
--   min_gap is the least centre distance minus both radii over every pair
--   and tick, negative when two agents overlap.)
local wayfinder = require("wayfinder")
-- the crowd specs' packing order near a door: one copy, in spec/support
local door_cells = require("support.door_cells")
local ok_clock, clock = pcall(require, "peer_clock")

local floor, sqrt = math.floor, math.sqrt

-- Agents: same radius, speed and tick for both peers (the spec's units).
local RADIUS, SPEED = 0.4, 0.25 -- world units, world units per tick

-- Seeded generator, exact on every Lua (mod 2^32 LCG, as spec/support/prng).
local function lcg(seed)
  local s = seed % 4294967296
  return function(a, b)
    s = (s * 1664525 + 1013904223) % 4294967296
    return a + floor(s / 4294967296 * (b - a + 1))
  end
end

-- A walled w x h room; `wall_x` adds a wall column with a door at door_y.
local function field(w, h, wall_x, door_y)
  local rows = {}
  for y = 0, h - 1 do
    local r = {}
    for x = 0, w - 1 do
      local wall = x == 0 or y == 0 or x == w - 1 or y == h - 1
      if wall_x and x == wall_x and y ~= door_y then wall = true end
      r[#r + 1] = wall and "#" or "."
    end
    rows[#rows + 1] = table.concat(r)
  end
  return rows
end

local function headon()
  return { rows = field(24, 13), bound = 400,
    agents = { { 2.5, 6.5, 21.5, 6.5 }, { 21.5, 6.5, 2.5, 6.5 } } }
end

-- Two groups of 4 x 5 walking at each other through the same rows.
local function streams()
  local a = {}
  for i = 0, 3 do
    for j = 0, 4 do
      a[#a + 1] = { 2.5 + i, 7.5 + j, 26.5 + i, 7.5 + j }
      a[#a + 1] = { 29.5 - i, 7.5 + j, 5.5 - i, 7.5 + j }
    end
  end
  return { rows = field(32, 20), bound = 800, agents = a }
end

-- Two groups of 4 x 5 crossing at a right angle in the middle.
local function cross()
  local a = {}
  for i = 0, 3 do
    for j = 0, 4 do
      a[#a + 1] = { 2.5 + i, 13.5 + j, 26.5 + i, 13.5 + j }
      a[#a + 1] = { 13.5 + j, 2.5 + i, 13.5 + j, 26.5 + i }
    end
  end
  return { rows = field(32, 32), bound = 800, agents = a }
end

-- n agents packed in the left room nearest the one-navcell door, each going
-- to the mirror image of its start in the right room; with `back`, as many
-- more packed in the right room the same way going to the left one (two
-- crowds swapping rooms, each one's goals under the other).
local function door(n, back)
  local cells = door_cells.nearest(n, 20, 12, 2, 2, 22)
  local a = {}
  for i = 1, n do
    local c = cells[i]
    a[i] = { c[1] + 0.5, c[2] + 0.5, 40 - c[1] + 0.5, c[2] + 0.5 }
  end
  for i = 1, back and n or 0 do
    local c = cells[i]
    a[#a + 1] = { 40 - c[1] + 0.5, c[2] + 0.5, c[1] + 0.5, c[2] + 0.5 }
  end
  return { rows = field(41, 25, 20, 12), bound = #a < 100 and 1500 or 4000, agents = a }
end

-- n agents from distinct random cells to distinct random cells of an open
-- w x w room.
local function random_crowd(n, w, seed, bound)
  local rnd = lcg(seed)
  local used_s, used_g, a = {}, {}, {}
  while #a < n do
    local sx, sy = rnd(1, w - 2), rnd(1, w - 2)
    local gx, gy = rnd(1, w - 2), rnd(1, w - 2)
    local ks, kg = sy * w + sx, gy * w + gx
    if not used_s[ks] and not used_g[kg] and (sx - gx) ^ 2 + (sy - gy) ^ 2 >= 16 then
      used_s[ks], used_g[kg] = true, true
      a[#a + 1] = { sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5 }
    end
  end
  return { rows = field(w, w), bound = bound, agents = a }
end

local SCENARIOS = {
  { "headon2", headon },
  { "streams40", streams },
  { "cross40", cross },
  { "door50", function() return door(50) end },
  { "door200", function() return door(200) end },
  { "swap100", function() return door(100, true) end },
  { "random200", function() return random_crowd(200, 48, 7, 2000) end },
  { "random1000", function() return random_crowd(1000, 96, 11, 3000) end },
}

local function fmt(v)
  return string.format("%.6g", v)
end

local function write_scenario(path, name, sc)
  local f = assert(io.open(path, "w"))
  f:write(string.format("crowd %s %d %d %s %s %d %d\n", name, #sc.rows[1], #sc.rows,
    fmt(RADIUS), fmt(SPEED), sc.bound, #sc.agents))
  for _, r in ipairs(sc.rows) do f:write(r, "\n") end
  for _, s in ipairs(sc.agents) do
    f:write(string.format("%s %s %s %s\n", fmt(s[1]), fmt(s[2]), fmt(s[3]), fmt(s[4])))
  end
  f:close()
end

-- seconds: the harnesses' monotonic clock when built, else processor time
local function now()
  if ok_clock then return clock.now_ns() / 1e9 end
  return os.clock()
end

-- Least gap (centre distance minus 2 x RADIUS) over the pairs in the same or
-- adjacent navcells (every pair closer than 1 is), and how many overlap.
local function separation(xs, ys, n)
  local buckets = {}
  for i = 1, n do
    local k = floor(ys[i]) * 65536 + floor(xs[i])
    local b = buckets[k]
    if not b then b = {}; buckets[k] = b end
    b[#b + 1] = i
  end
  local min_gap, overlaps, lim = math.huge, 0, 2 * RADIUS
  for i = 1, n do
    local cx, cy = floor(xs[i]), floor(ys[i])
    for dy = -1, 1 do
      for dx = -1, 1 do
        local b = buckets[(cy + dy) * 65536 + cx + dx]
        if b then
          for _, j in ipairs(b) do
            if j > i then
              local d = sqrt((xs[i] - xs[j]) ^ 2 + (ys[i] - ys[j]) ^ 2) - lim
              if d < min_gap then min_gap = d end
              if d < 0 then overlaps = overlaps + 1 end
            end
          end
        end
      end
    end
  end
  return min_gap, overlaps
end

-- the avoidance modes run, and their peer names in the records
local MODES = { velocity = "wayfinder", orca = "wayfinder-orca" }

local function run(name, sc, mode)
  local grid = wayfinder.grid.from_ascii(table.concat(sc.rows, "\n") .. "\n")
  local units = wayfinder.units.new(grid, { avoidance = mode, max_wait = 1000000 })
  local ids, n = {}, #sc.agents
  for i, s in ipairs(sc.agents) do
    ids[i] = assert(units:add({ x = s[1], y = s[2], radius = RADIUS, speed = SPEED }))
  end
  for i, s in ipairs(sc.agents) do units:move(ids[i], s[3], s[4]) end
  local arrived, done, times = 0, 0, {}
  local min_gap, overlaps, elapsed, t = math.huge, 0, 0, 0
  local xs, ys = {}, {}
  while done < n and t < sc.bound do
    t = t + 1
    local t0 = now()
    local events = units:tick()
    elapsed = elapsed + (now() - t0)
    for _, e in ipairs(events) do
      if e.event == "arrived" then
        arrived = arrived + 1
        done = done + 1
        times[#times + 1] = t
      elseif e.event == "failed" then
        done = done + 1
      end
    end
    for i = 1, n do xs[i], ys[i] = units:position(ids[i]) end
    local g, o = separation(xs, ys, n)
    if g < min_gap then min_gap = g end
    overlaps = overlaps + o
  end
  local function at(frac)
    local k = math.ceil(frac * n)
    return times[k] and tostring(times[k]) or "-"
  end
  print(string.format("C\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%d\t%d\t%.4f\t%d\t%.6f",
    MODES[mode], name, n, arrived, at(0.5), at(0.9), arrived == n and tostring(times[n]) or "-",
    sc.bound, t, min_gap, overlaps, elapsed * 1000 / (t * n)))
  io.stdout:flush()
end

local outdir = arg[1] or "."
local wanted = {}
for i = 2, #arg do wanted[arg[i]] = true end
for _, s in ipairs(SCENARIOS) do
  if next(wanted) == nil or wanted[s[1]] then
    local sc = s[2]()
    write_scenario(outdir .. "/" .. s[1] .. ".crowd", s[1], sc)
    for mode in (os.getenv("PEERS_CROWD_MODES") or "velocity orca"):gmatch("%S+") do
      assert(MODES[mode], "crowd.lua: unknown mode in PEERS_CROWD_MODES: " .. mode)
      run(s[1], sc, mode)
    end
  end
end
