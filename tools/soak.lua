-- tools/soak.lua: long randomized runs of wayfinder with invariants checked
-- as they go (see docs/reliability.md, "Soak runs").
--
--   lua5.4 tools/soak.lua [--part house|grid|units|all] [--ticks N]
--                         [--seconds S] [--seed N] [--short]
--
-- Three parts, each seeded by the portable generator of spec/support/prng.lua
-- (the same run on every Lua version):
--   house  a generated house with hundreds of wandering people while doors
--          lock and unlock and furniture moves;
--   grid   a grid with 1000 agents whose paths all come through one request
--          queue while obstructions come and go;
--   units  a wayfinder.units simulation with random orders, stops, adds and
--          removes.
-- The crowd modes vary with the seed (crowd_modes below): odd seeds run
-- the house with sidestep avoidance, door queues and people's motion
-- options, and the units part cycles through ORCA, the sampled velocity
-- mode and no avoidance, with the motion options on odd seeds.
-- A part stops after --ticks ticks or --seconds seconds, whichever comes
-- first. Every violation stops the run with exit status 1 and a line
-- "soak: VIOLATION part=P seed=S tick=T: what" (rerun with --part P
-- --seed S --ticks T to reproduce); otherwise one summary line per part
-- and "soak: ok" at the end.
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua;" .. package.path
package.cpath = (os.getenv("WAYFINDER_CPATH") or "build/?.so") .. ";" .. package.cpath

local wayfinder = require("wayfinder")
local prng = require("support.prng")
local house_gen = require("support.house_gen")
local crowd = require("support.house_crowd")
local units_run = require("support.units_run")

-- ------------------------------------------------------------ options --
local opts = { part = "all", ticks = nil, seconds = nil, seed = 1, short = false }
do
  local i = 1
  while arg and arg[i] do
    local a = arg[i]
    if a == "--short" then opts.short = true
    elseif a == "--part" or a == "--ticks" or a == "--seconds" or a == "--seed" then
      local v = arg[i + 1]
      if v == nil then io.stderr:write("soak: " .. a .. " needs a value\n"); os.exit(2) end
      if a == "--part" then opts.part = v else
        local n = tonumber(v)
        if not n or n < 0 or n ~= math.floor(n) then
          io.stderr:write("soak: " .. a .. " must be a whole number, got " .. v .. "\n")
          os.exit(2)
        end
        opts[a:sub(3)] = n
      end
      i = i + 1
    else
      io.stderr:write("usage: lua5.4 tools/soak.lua [--part house|grid|units|all] "
        .. "[--ticks N] [--seconds S] [--seed N] [--short]\n")
      os.exit(2)
    end
    i = i + 1
  end
end

-- The bounds every part states and checks.
local BOUNDS = {
  house_errand = 4000,    -- ticks a person's errand (walk to a piece, wait) may last
  grid_request = 400,     -- ticks a queue request may stay pending
  grid_trip = 2000,       -- ticks from an agent's request to its arrival or failure
  units_order_slack = 2,  -- ticks past max_order_ticks an order may last
  lua_kb = 512 * 1024,    -- collectgarbage("count") at any sample
  growth = 1.5,           -- last quarter's mean over the second quarter's, at most
}

local part, seed, tick = "?", opts.seed, 0
local function violation(fmt, ...)
  io.write(("soak: VIOLATION part=%s seed=%d tick=%d: %s\n"):format(part, seed, tick,
    fmt:format(...)))
  io.write(("soak: reproduce with lua5.4 tools/soak.lua --part %s --seed %d --ticks %d\n")
    :format(part, seed, tick))
  os.exit(1)
end

-- Memory samples: every sample under its bound, and no growth trend (the
-- mean of the last quarter of samples at most BOUNDS.growth times the
-- second quarter's, plus a fixed slack for small numbers).
local function memory_track(name, bound, slack)
  local samples = {}
  local m = {}
  function m.sample(v)
    if v > bound then violation("%s is %d, over its bound %d", name, v, bound) end
    samples[#samples + 1] = v
  end
  function m.check()
    local n = #samples
    if n < 8 then return "" end
    local q = math.floor(n / 4)
    local function mean(a, b)
      local s = 0
      for k = a, b do s = s + samples[k] end
      return s / (b - a + 1)
    end
    local second, last = mean(q + 1, 2 * q), mean(n - q + 1, n)
    if last > second * BOUNDS.growth + slack then
      violation("%s grows: mean %.0f in the second quarter of the run, %.0f in the last",
        name, second, last)
    end
    return ("%s %.0f -> %.0f"):format(name, second, last)
  end
  return m
end

local clock = os.clock
local function limits(default_ticks, short_ticks)
  local max_ticks = opts.ticks or (opts.short and short_ticks or default_ticks)
  local deadline = opts.seconds and (clock() + opts.seconds) or nil
  return function(t)
    return t < max_ticks and (not deadline or clock() < deadline)
  end
end

local function lua_kb() return math.floor(collectgarbage("count")) end

-- -------------------------------------------------------------- house --
-- People wander between furniture pieces (spec/support/house_crowd.lua's
-- trees). Events, drawn from the part's generator: lock or unlock a door,
-- move a furniture piece to a free tile. Checked every tick: every person's
-- The crowd modes of a seed: odd seeds (so the short soak's seed 1) run
-- the crowd features, even seeds the plain motion.
local function crowd_modes()
  local odd = seed % 2 == 1
  local unit_modes = { "orca", "velocity", "none" }
  return {
    house = odd and { avoidance = "sidestep", door_flow = "queue" } or {},
    person = odd and { turn_rate = 1, lookahead = true, corner_radius = 1 } or nil,
    units = unit_modes[(seed - 1) % 3 + 1],
    unit_motion = odd,
  }
end

-- square is free of walls, closed doors, furniture and other people
-- (walker:square_free, the walker's own rule); every errand ends within
-- BOUNDS.house_errand ticks. At random ticks the world is saved and loaded,
-- and the copy runs beside it with the same events for 40 ticks: the state
-- hashes must agree every tick.
local function house_part()
  local rng = prng.new(seed * 7 + 1)
  local people = opts.short and 120 or 300
  local modes = crowd_modes()
  local world, info = house_gen.generate { rooms_x = 6, rooms_y = 5, room_w = 6, room_h = 6,
    seed = seed, furniture = 2, extra_doors = 40,
    world = { route_ids = 512, trees = crowd.trees(), avoidance = modes.house.avoidance,
      door_flow = modes.house.door_flow } }
  local walker = world.walker
  local placed, tries = 0, 0
  while placed < people and tries < people * 50 do
    tries = tries + 1
    local r = info.rooms[rng.int(#info.rooms)]
    local x, y = r[1] + rng.int(6) - 0.5, r[2] + rng.int(6) - 0.5
    if walker:square_free(math.floor(x * 65536), math.floor(y * 65536), 16384, 0) then
      placed = placed + 1
      local spec = { x = x, y = y, speed = 0.2, data = { seed = placed * 7919 } }
      -- every third person with the motion options of the seed's modes
      if modes.person and placed % 3 == 0 then
        for k, v in pairs(modes.person) do spec[k] = v end
      end
      local p = world:add_person(spec)
      p:push("wander")
    end
  end
  local doors = {}
  for _, d in ipairs(world:doors()) do doors[#doors + 1] = d.id end

  -- an event is plain data so the saved copy can get the same one
  local function draw_event()
    local r = rng.int(10)
    if r <= 2 and #doors > 0 then
      local id = doors[rng.int(#doors)]
      return { "lock", id, not world:object(id).locked }
    elseif r == 3 then
      local furn = {}
      for _, o in ipairs(world:objects()) do
        if o.type == "furniture" then furn[#furn + 1] = o.id end
      end
      if #furn == 0 then return nil end
      local room = info.rooms[rng.int(#info.rooms)]
      return { "move", furn[rng.int(#furn)], room[1] + rng.int(6) - 1, room[2] + rng.int(6) - 1 }
    end
    return nil
  end
  -- applies an event; a move to a tile that is not free is skipped (the
  -- same way in both copies)
  local function apply(w, ev)
    if ev[1] == "lock" then
      w:set_locked(ev[2], ev[3])
      if ev[3] then
        -- a door is not locked on someone standing in it: taken back
        for _, p in ipairs(w:people()) do
          local x, y, _, _, _, _, half = w.walker:person(p.id)
          local free, blocker = w.walker:square_free(x, y, half, p.id)
          if not free and blocker == ev[2] then
            w:set_locked(ev[2], false)
            return "skip"
          end
        end
      end
      return "lock"
    end
    local x, y = ev[3], ev[4]
    if not w.walker:square_free(x * 65536 + 32768, y * 65536 + 32768, 32768, 0) then
      return "skip"
    end
    w:remove_object(ev[2])
    local ok, err = pcall(w.add_object, w, { type = "furniture", x = x, y = y, label = "o" })
    if not ok then
      if not tostring(err):find("world:add_object: ", 1, true) then
        violation("moving furniture raised a raw error: %s", tostring(err))
      end
      return "refused"
    end
    return "move"
  end

  local function check(w)
    for _, p in ipairs(w:people()) do
      local x, y, _, _, _, _, half = w.walker:person(p.id)
      local free, blocker = w.walker:square_free(x, y, half, p.id)
      if not free then
        violation("person %d at (%s, %s) overlaps %s", p.id, prng.exact(x / 65536),
          prng.exact(y / 65536), blocker == 0 and "a wall or closed door"
          or ("object " .. tostring(blocker)))
      end
    end
  end

  local errand_start, errand_seed, errands = {}, {}, 0
  local mem = memory_track("lua_kb", BOUNDS.lua_kb, 4096)
  local counts = { lock = 0, move = 0, skip = 0, refused = 0, saves = 0 }
  local copy, copy_left = nil, 0
  local more = limits(20000, 1500)
  local next_save = rng.int(50, 300)
  tick = 0
  while more(tick) do
    tick = tick + 1
    local ev = draw_event()
    if ev then
      local what = apply(world, ev)
      counts[what] = counts[what] + 1
      if copy then apply(copy, ev) end
    end
    world:tick()
    check(world)
    for _, p in ipairs(world:people()) do
      local s = p.data.seed
      if errand_seed[p.id] ~= s then
        if errand_seed[p.id] then errands = errands + 1 end
        errand_seed[p.id], errand_start[p.id] = s, tick
      elseif tick - errand_start[p.id] > BOUNDS.house_errand then
        violation("person %d's errand has lasted %d ticks (bound %d)", p.id,
          tick - errand_start[p.id], BOUNDS.house_errand)
      end
    end
    if copy then
      copy:tick()
      local a, b = crowd.state_hash(world), crowd.state_hash(copy)
      if a ~= b then
        violation("the world loaded from a save diverged %d ticks after the save",
          41 - copy_left)
      end
      copy_left = copy_left - 1
      if copy_left == 0 then copy = nil end
    elseif tick == next_save then
      copy = wayfinder.world.load(world:save(), crowd.trees())
      copy_left = 40
      counts.saves = counts.saves + 1
      next_save = tick + rng.int(100, 600)
    end
    if tick % 50 == 0 then mem.sample(lua_kb()) end
  end
  local trend = mem.check()
  print(("soak: house seed %d (avoidance %s, door_flow %s%s): %d ticks x %d people, "
    .. "%d errands ended, %d locks, %d moves "
    .. "(%d skipped), %d saves continued 40 ticks, memory %s kB"):format(seed,
    modes.house.avoidance or "none", modes.house.door_flow or "none",
    modes.person and ", motion options" or "", tick,
    #world:people(), errands, counts.lock, counts.move, counts.skip + counts.refused,
    counts.saves, trend))
  return tick * #world:people()
end

-- --------------------------------------------------------------- grid --
-- 1000 agents on a 128x128 grid; each asks the queue for a path to a random
-- goal, walks it one world unit a tick and asks again. Obstructions come and
-- go (one covering an agent is taken back at once: the soak does not drop
-- walls on agents). Checked: no agent ever stands on a blocked navcell; a
-- path from the queue starts at the agent, ends at its goal and has every
-- waypoint on a passable navcell; a request is served within
-- BOUNDS.grid_request ticks and a trip ends within BOUNDS.grid_trip;
-- grid:memory(), queue:memory() and the Lua heap stay bounded.
local function grid_part()
  local rng = prng.new(seed * 7 + 2)
  local W, H = 128, 128
  local g = wayfinder.grid.new(W, H)
  g:batch(function()
    for y = 0, H - 1 do
      for x = 0, W - 1 do
        if rng.float() < 0.12 then g:set_passable(x, y, false) end
      end
    end
  end)
  local q = wayfinder.queue.new(g, { max_fields = 8 })
  local function free_cell()
    for _ = 1, 1000 do
      local x, y = rng.int(0, W - 1), rng.int(0, H - 1)
      if g:is_passable(x, y) then return x, y end
    end
    violation("no free navcell found")
  end
  local N = opts.short and 400 or 1000
  local agents = {}
  for i = 1, N do
    local x, y = free_cell()
    agents[i] = { x = x + 0.5, y = y + 0.5, state = "idle" }
  end
  local obstructions = {}
  local stats = { served = 0, failed = 0, arrived = 0, replans = 0, obst = 0, refused = 0 }
  local mem_lua = memory_track("lua_kb", BOUNDS.lua_kb, 4096)
  local mem_c = memory_track("grid+queue bytes", 256 * 1024 * 1024, 65536)
  local more = limits(5000, 800)
  local function on_blocked(a)
    return not g:is_passable(math.floor(a.x), math.floor(a.y))
  end
  tick = 0
  while more(tick) do
    tick = tick + 1
    -- obstructions come and go
    if tick % 3 == 0 then
      local id = g:add_obstruction { x = rng.float() * W, y = rng.float() * H,
        half_width = rng.float() * 3, half_height = rng.float() * 1.5,
        angle = rng.float() * 6.283185307179586 }
      local covers = false
      for _, a in ipairs(agents) do
        if on_blocked(a) then covers = true; break end
      end
      if covers then
        g:remove_obstruction(id); stats.refused = stats.refused + 1
      else
        obstructions[#obstructions + 1] = id; stats.obst = stats.obst + 1
      end
      if #obstructions > 40 then
        g:remove_obstruction(table.remove(obstructions, rng.int(#obstructions)))
      end
    end
    -- requests
    for _, a in ipairs(agents) do
      if a.state == "idle" then
        local gx, gy = free_cell()
        a.gx, a.gy = gx + 0.5, gy + 0.5
        a.handle = q:submit { sx = a.x, sy = a.y, gx = a.gx, gy = a.gy }
        a.state, a.asked, a.trip = "pending", tick, a.trip or tick
      end
    end
    q:run(40000)
    for i, a in ipairs(agents) do
      if a.state == "pending" then
        local status = a.handle:status()
        if status == "pending" then
          if tick - a.asked > BOUNDS.grid_request then
            violation("agent %d's request has been pending %d ticks (bound %d)", i,
              tick - a.asked, BOUNDS.grid_request)
          end
        elseif status == "done" then
          local path, _, pinfo = a.handle:result()
          -- an unreachable goal is rewritten to the nearest reachable navcell
          if pinfo.goal_rewritten then a.gx, a.gy = path[#path].x + 0.5, path[#path].y + 0.5 end
          stats.served = stats.served + 1
          -- waypoints are navcells; the moves between two are all in one
          -- direction, so every navcell of the path is visited here
          local first, last = path[1], path[#path]
          if first.x ~= math.floor(a.x) or first.y ~= math.floor(a.y)
              or last.x ~= math.floor(a.gx) or last.y ~= math.floor(a.gy) then
            violation("agent %d's path runs %d,%d -> %d,%d, asked (%s, %s) -> (%s, %s)",
              i, first.x, first.y, last.x, last.y, a.x, a.y, a.gx, a.gy)
          end
          for k = 1, #path do
            local p, n = path[k], path[k + 1] or path[k]
            local sx = n.x > p.x and 1 or (n.x < p.x and -1 or 0)
            local sy = n.y > p.y and 1 or (n.y < p.y and -1 or 0)
            local cx, cy = p.x, p.y
            while true do
              if not g:is_passable(cx, cy) then
                violation("agent %d's path (waypoint %d) crosses blocked navcell %d,%d", i, k,
                  cx, cy)
              end
              if cx == n.x and cy == n.y then break end
              cx, cy = cx + sx, cy + sy
              if (sx ~= 0 and (cx - n.x) * sx > 0) or (sy ~= 0 and (cy - n.y) * sy > 0) then
                violation("agent %d's path moves from waypoint %d in more than one direction",
                  i, k)
              end
            end
          end
          a.path, a.next, a.version, a.state = path, 2, g:version(), "walking"
          a.handle = nil
          if #path < 2 then
            a.state, a.path, a.trip = "idle", nil, nil
            stats.arrived = stats.arrived + 1
          end
        else
          stats.failed = stats.failed + 1
          a.handle, a.state, a.trip = nil, "idle", nil
        end
      end
    end
    -- walking: one world unit a tick towards the next waypoint
    for i, a in ipairs(agents) do
      if a.state == "walking" then
        local p = a.path[a.next]
        local dx, dy = p.x + 0.5 - a.x, p.y + 0.5 - a.y
        local d = math.sqrt(dx * dx + dy * dy)
        local nx, ny
        if d <= 1 then nx, ny = p.x + 0.5, p.y + 0.5 else nx, ny = a.x + dx / d, a.y + dy / d end
        if not g:is_passable(math.floor(nx), math.floor(ny)) then
          if g:version() == a.version then
            violation("agent %d's path crosses blocked navcell %d,%d on an unchanged grid", i,
              math.floor(nx), math.floor(ny))
          end
          a.state = "idle"; stats.replans = stats.replans + 1      -- ask again from here
        else
          a.x, a.y = nx, ny
          if d <= 1 then
            a.next = a.next + 1
            if a.next > #a.path then
              a.state, a.path, a.trip = "idle", nil, nil
              stats.arrived = stats.arrived + 1
            end
          end
        end
      end
      if on_blocked(a) then
        violation("agent %d stands on blocked navcell %d,%d", i, math.floor(a.x),
          math.floor(a.y))
      end
      if a.trip and tick - a.trip > BOUNDS.grid_trip then
        violation("agent %d's trip has lasted %d ticks (bound %d)", i, tick - a.trip,
          BOUNDS.grid_trip)
      end
    end
    if tick % 10 == 0 then
      local gb, gs = g:memory()
      mem_c.sample(gb + gs + q:memory())
      mem_lua.sample(lua_kb())
    end
  end
  local t1, t2 = mem_lua.check(), mem_c.check()
  print(("soak: grid seed %d: %d ticks x %d agents, %d paths served, %d failed, %d arrived, "
    .. "%d replans, %d obstructions (%d taken back), memory %s kB, %s"):format(seed, tick, N,
    stats.served, stats.failed, stats.arrived, stats.replans, stats.obst, stats.refused, t1, t2))
  q:close()
  g:close()
  return tick * N
end

-- -------------------------------------------------------------- units --
-- A units simulation on a random map: random move orders (points, circles,
-- squares, ranges, inverted goals), stops, adds and removes. Checked every
-- tick with spec/support/units_run.lua's rule: no unit on a navcell
-- impassable for its class, no two units' squares overlapping, no move
-- sweeping across a blocked navcell. Every order ends (an arrived or failed
-- event, a stop or a remove) within max_order_ticks + BOUNDS.units_order_slack
-- ticks; units:memory() and the Lua heap stay bounded. At random ticks the
-- simulation is saved, loaded over the same grid and run beside the original
-- with the same orders for 40 ticks: every unit's trace must agree.
local function units_part()
  local rng = prng.new(seed * 7 + 3)
  local W, H = 48, 40
  local g = wayfinder.grid.new(W, H, { classes = { { name = "small" },
    { name = "big", clearance = 1 } } })
  g:batch(function()
    for y = 0, H - 1 do
      for x = 0, W - 1 do
        if x == 0 or y == 0 or x == W - 1 or y == H - 1 or rng.float() < 0.1 then
          g:set_passable(x, y, false)
        end
      end
    end
  end)
  local MAX_ORDER = 150
  local modes = crowd_modes()
  local uopts = { max_order_ticks = MAX_ORDER, budget = 2000, max_wait = 8,
    avoidance = modes.units }
  if modes.unit_motion then
    uopts.accel, uopts.turn_rate, uopts.arrive_radius = 0.125, 1, 1
    uopts.lookahead, uopts.corner_radius = true, 1
  end
  local u = wayfinder.units.new(g, uopts)
  local function coord(n) return rng.int(0, n * 16 - 1) / 16 end
  local function try_add(sim)
    local spec = { x = coord(W), y = coord(H), class = rng.int(10) <= 7 and "small" or "big",
      radius = rng.int(2, 12) / 16, speed = rng.int(4, 24) / 16 }
    if sim then return spec, sim:add(spec) end
    return spec
  end
  local target = opts.short and 60 or 150
  for _ = 1, target * 20 do
    if u:count() >= target then break end
    try_add(u)
  end
  -- orders are plain data, applied to the simulation and to its copy
  local function draw_orders()
    local list = {}
    local ids = u:ids()
    for _ = 1, rng.int(0, 4) do
      if #ids == 0 then break end
      local id = ids[rng.int(#ids)]
      local r = rng.int(100)
      if r <= 80 then
        local kind, o = rng.int(5), nil
        if kind == 2 then o = { goal = { shape = "circle", radius = rng.int(0, 3) } }
        elseif kind == 3 then
          o = { goal = { shape = "square", half_width = rng.int(0, 2),
            half_height = rng.int(0, 2) } }
        elseif kind == 4 then o = { range = rng.int(1, 4) / 2 }
        elseif kind == 5 then
          o = { goal = { shape = "circle", radius = rng.int(4, 40) / 8 }, inverted = true }
        end
        list[#list + 1] = { "move", id, coord(W), coord(H), o }
      elseif r <= 86 then list[#list + 1] = { "stop", id }
      elseif r <= 93 then list[#list + 1] = { "remove", id }
      else
        list[#list + 1] = { "add", { x = coord(W), y = coord(H),
          class = rng.int(10) <= 7 and "small" or "big", radius = rng.int(2, 12) / 16,
          speed = rng.int(4, 24) / 16 } }
      end
    end
    -- keep the population near its target
    if u:count() < target / 2 then
      for _ = 1, 10 do list[#list + 1] = { "add", (try_add(nil)) } end
    end
    return list
  end
  local function apply(sim, list, order_start)
    for _, o in ipairs(list) do
      if o[1] == "move" then
        if sim:move(o[2], o[3], o[4], o[5]) ~= true then violation("units:move did not return true") end
        if order_start then order_start[o[2]] = tick end
      elseif o[1] == "stop" then
        sim:stop(o[2]); if order_start then order_start[o[2]] = nil end
      elseif o[1] == "remove" then
        sim:remove(o[2]); if order_start then order_start[o[2]] = nil end
      else
        local id, why = sim:add(o[2])
        if not id and why ~= "outside" and why ~= "impassable" and why ~= "overlap" then
          violation("units:add gave an unknown reason %s", tostring(why))
        end
      end
    end
    -- a removed id drawn twice in one tick: the second call must raise,
    -- so draw_orders never repeats an id it removed (see below)
  end
  local order_start = {}
  local stats = { arrived = 0, failed = 0, orders = 0, saves = 0 }
  local mem_lua = memory_track("lua_kb", BOUNDS.lua_kb, 4096)
  local mem_c = memory_track("units bytes", 64 * 1024 * 1024, 65536)
  local copy, copy_left = nil, 0
  local next_save = rng.int(30, 200)
  local more = limits(20000, 1500)
  tick = 0
  while more(tick) do
    tick = tick + 1
    local list = draw_orders()
    -- drop orders for ids removed earlier in the same list
    local gone, kept = {}, {}
    for _, o in ipairs(list) do
      if o[1] == "add" or not gone[o[2]] then
        kept[#kept + 1] = o
        if o[1] == "remove" then gone[o[2]] = true end
        if o[1] == "move" then stats.orders = stats.orders + 1 end
      end
    end
    apply(u, kept, order_start)
    if copy then apply(copy, kept, nil) end
    -- after the orders: a unit ordered now is "planning", so its first
    -- tick's walk is checked through its new waypoints
    local before = units_run.snapshot(u)
    local events = u:tick()
    for _, e in ipairs(events) do
      if e.event == "arrived" then stats.arrived = stats.arrived + 1; order_start[e.id] = nil
      elseif e.event == "failed" then stats.failed = stats.failed + 1; order_start[e.id] = nil
      end
    end
    local after = units_run.snapshot(u)
    -- the walks between snapshots only without avoidance or motion
    -- options (units_run.check says why)
    local ok, err = pcall(units_run.check, g, before, after,
      modes.units == "none" and not modes.unit_motion)
    if not ok then
      if os.getenv("SOAK_DEBUG") then
        local function dump(snap)
          for _, s in ipairs(snap) do
            local id = tonumber(tostring(err):match("unit (%d+)"))
            if s.id == id then
              local wp = {}
              for _, w in ipairs(s.waypoints) do wp[#wp + 1] = w[1] .. "," .. w[2] end
              print(s.id, s.class, s.x, s.y, s.radius, s.state, s.wait, s.next, table.concat(wp, " "))
            end
          end
        end
        dump(before); dump(after)
      end
      violation("%s", (tostring(err):gsub("^[^:]+:%d+: ", "")))
    end
    for id, t0 in pairs(order_start) do
      if tick - t0 > MAX_ORDER + BOUNDS.units_order_slack then
        violation("unit %d's order has lasted %d ticks (max_order_ticks %d)", id, tick - t0,
          MAX_ORDER)
      end
    end
    if copy then
      local ce = copy:tick()
      local a = units_run.trace_line(tick, after)
      local b = units_run.trace_line(tick, units_run.snapshot(copy))
      if a ~= b or #ce ~= #events then
        violation("the simulation loaded from a save diverged %d ticks after the save",
          41 - copy_left)
      end
      copy_left = copy_left - 1
      if copy_left == 0 then copy:close(); copy = nil end
    elseif tick == next_save then
      copy = wayfinder.units.load(g, u:save())
      copy_left = 40
      stats.saves = stats.saves + 1
      next_save = tick + rng.int(100, 500)
    end
    if tick % 10 == 0 then
      mem_c.sample(u:memory())
      mem_lua.sample(lua_kb())
    end
  end
  local t1, t2 = mem_lua.check(), mem_c.check()
  print(("soak: units seed %d (avoidance %s%s): %d ticks x %d units, %d orders, %d arrived, "
    .. "%d failed, %d saves continued 40 ticks, memory %s kB, %s"):format(seed, modes.units,
    modes.unit_motion and ", motion options" or "", tick, u:count(),
    stats.orders, stats.arrived, stats.failed, stats.saves, t1, t2))
  if copy then copy:close() end
  local n = u:count()
  u:close()
  g:close()
  return tick * n
end

-- ---------------------------------------------------------------- run --
local parts = { house = house_part, grid = grid_part, units = units_part }
local order = opts.part == "all" and { "house", "grid", "units" } or { opts.part }
for _, name in ipairs(order) do
  if not parts[name] then
    io.stderr:write("soak: unknown part '" .. name .. "' (house, grid, units or all)\n")
    os.exit(2)
  end
end
local started = clock()
for _, name in ipairs(order) do
  part = name
  local ok, err = pcall(parts[name])
  if not ok then violation("raised %s", tostring(err)) end
  collectgarbage()
end
print(("soak: ok (%s, seed %d, %.1f s of processor time)"):format(table.concat(order, ", "),
  seed, clock() - started))
