-- One collision model for house people, checked every tick on random
-- seeded houses with wandering crowds, with both planners: no two people's
-- squares overlap, no square overlaps a wall edge (other than an open
-- door) or a piece of furniture, no step sweeps through a wall or another
-- person, and no walk the planner made is stopped by a wall, a door frame
-- or furniture (the planner and the walker agree on what is passable).
-- Everything is recomputed here from the world's public description, in
-- Q16.16 integers, with the sweep reference of spec/support/sweep_brute.lua.
local house = require("support.house_gen")
local crowd = require("support.house_crowd")
local brute = require("support.sweep_brute")
local rectplan = require("wayfinder.rectplan")
local gridplan = require("wayfinder.gridplan")

local ONE = 65536

-- A seeded house of 3 x 3 rooms with `n` wanderers placed by `seed`.
local function build(seed, planner, n)
  local w, info = house.generate { rooms_x = 3, rooms_y = 3, room_w = 5, room_h = 5,
    seed = seed, furniture = 2, extra_doors = 40,
    world = { route_ids = 32, trees = crowd.trees(), planner = planner } }
  local rng = house.rng(seed + 100)
  local placed, tries = 0, 0
  while placed < n and tries < 10000 do
    tries = tries + 1
    local r = info.rooms[rng(#info.rooms)]
    local x = r[1] + rng(r[3] - r[1] + 1) - 0.5
    local y = r[2] + rng(r[4] - r[2] + 1) - 0.5
    if w.walker:square_free(math.floor(x * ONE), math.floor(y * ONE), ONE / 4, 0) then
      placed = placed + 1
      local p = w:add_person { x = x, y = y, speed = 0.2, data = { seed = placed * 7919 + seed } }
      p:push("wander")
    end
  end
  assert(placed == n, "could not place the crowd")
  return w
end

-- The blocking geometry in integers: wall edges without an open door as
-- closed boxes of zero thickness, and furniture boxes.
local function geometry(w)
  local open = {}
  for _, d in ipairs(w:doors()) do
    local t = d.tiles
    if not d.locked then
      -- the edge between the door's two tiles
      if t[1] ~= t[3] then
        open["v" .. math.max(t[1], t[3]) .. ":" .. t[2]] = true
      else
        open["h" .. t[1] .. ":" .. math.max(t[2], t[4])] = true
      end
    end
  end
  local walls = {}
  for _, s in ipairs(w:walls()) do
    if s[2] == s[4] then
      for x = s[1], s[3] - 1 do
        if not open["h" .. x .. ":" .. s[2]] then
          walls[#walls + 1] = { x * ONE, s[2] * ONE, (x + 1) * ONE, s[2] * ONE }
        end
      end
    else
      for y = s[2], s[4] - 1 do
        if not open["v" .. s[1] .. ":" .. y] then
          walls[#walls + 1] = { s[1] * ONE, y * ONE, s[1] * ONE, (y + 1) * ONE }
        end
      end
    end
  end
  local things = {}
  for _, o in ipairs(w:objects()) do
    if o.type == "furniture" and not o.walk_over and not o.contained then
      things[#things + 1] = { o.tiles[1] * ONE, o.tiles[2] * ONE, (o.tiles[1] + o.w) * ONE,
        (o.tiles[2] + o.h) * ONE }
    end
  end
  return walls, things
end

-- Whether the open square of half h at (x, y) overlaps the closed box b
-- (a wall edge) or the box's open interior (furniture): for both, the
-- centre lies strictly inside the box grown by h.
local function square_hits(x, y, h, b)
  return x > b[1] - h and x < b[3] + h and y > b[2] - h and y < b[4] + h
end

-- Whether the step (ax, ay) -> (bx, by) of half h collides with box b by
-- the swept rule: b grown by h less one unit, closed; a step that starts
-- in it never collides.
local function sweep_hits(ax, ay, bx, by, h, b)
  local e = h - 1
  local x0, y0, x1, y1 = b[1] - e, b[2] - e, b[3] + e, b[4] + e
  if ax >= x0 and ax <= x1 and ay >= y0 and ay <= y1 then return false end
  return brute.meets(ax, ay, bx, by, x0, y0, x1, y1)
end

local function run(seed, planner, ticks)
  local w = build(seed, planner, 14)
  local walls, things = geometry(w)
  local people = w:people()
  local stops = { wall = 0, object = 0 }
  -- the walker's end events, as bench/house.lua counts them
  local walker = w.walker
  local proxy = {}
  for name, fn in pairs(getmetatable(walker).__index) do
    proxy[name] = function(_, ...) return fn(walker, ...) end
  end
  function proxy.step()
    local ev = walker:step()
    for i = 1, #ev, 3 do
      if ev[i + 1] ~= 1 then
        local o = ev[i + 2] ~= 0 and w:object(ev[i + 2])
        if not o or o.door then
          stops.wall = stops.wall + 1
        elseif not o.person then
          stops.object = stops.object + 1
        end
      end
    end
    return ev
  end
  w.walker = proxy
  local function positions()
    local out = {}
    for k, p in ipairs(people) do
      local x, y = walker:person(p.id)
      out[k] = { x, y, p.half }
    end
    return out
  end
  local before = positions()
  local moved = 0
  for tick = 1, ticks do
    w:tick()
    local now = positions()
    for a = 1, #people do
      local pa, qa = before[a], now[a]
      local h = qa[3]
      local where = ("seed %d tick %d person %d at (%d, %d)/65536"):format(seed, tick,
        people[a].id, qa[1], qa[2])
      if pa[1] ~= qa[1] or pa[2] ~= qa[2] then moved = moved + 1 end
      for _, b in ipairs(walls) do
        assert(not square_hits(qa[1], qa[2], h, b), "on a wall: " .. where)
        assert(not sweep_hits(pa[1], pa[2], qa[1], qa[2], h, b), "swept a wall: " .. where)
      end
      for _, b in ipairs(things) do
        assert(not square_hits(qa[1], qa[2], h, b), "on furniture: " .. where)
      end
      for c = a + 1, #people do
        local qc = now[c]
        local r = h + qc[3]
        assert(math.abs(qa[1] - qc[1]) >= r or math.abs(qa[2] - qc[2]) >= r,
          ("people %d and %d overlap: %s"):format(people[a].id, people[c].id, where))
      end
      -- the step was tested against each other person where it stood
      -- then: before or after its own step this tick
      if pa[1] ~= qa[1] or pa[2] ~= qa[2] then
        for c = 1, #people do
          if c ~= a then
            local hc = now[c][3]
            local function square(p) return { p[1] - hc, p[2] - hc, p[1] + hc, p[2] + hc } end
            local hit_old = sweep_hits(pa[1], pa[2], qa[1], qa[2], h, square(before[c]))
            local hit_new = sweep_hits(pa[1], pa[2], qa[1], qa[2], h, square(now[c]))
            assert(not (hit_old and hit_new),
              ("person %d swept through person %d: %s"):format(people[a].id, people[c].id, where))
          end
        end
      end
    end
    before = now
  end
  return stops, moved
end

for _, case in ipairs({ { "rectangle", rectplan.plan }, { "grid", gridplan.plan } }) do
  describe("house people with the " .. case[1] .. " planner", function()
    for _, seed in ipairs({ 3, 17 }) do
      it(("never overlap, stand on or sweep through walls, furniture or each other "
        .. "(seed %d)"):format(seed), function()
        local stops, moved = run(seed, case[2], 160)
        -- the crowd did walk, so the checks above saw real steps
        assert.is_true(moved > 500, "too few steps: " .. moved)
        assert.are.equal(0, stops.wall)
        assert.are.equal(0, stops.object)
      end)
    end
  end)
end
