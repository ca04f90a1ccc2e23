-- The company primitives (bt.follow, bt.escort, bt.flee_from,
-- bt.hold_formation) in house worlds: distances kept across a door,
-- fleeing onto open ground, an escort arriving with its target, a
-- formation of four in its slots, failure reasons, argument errors,
-- identical traces and save/load continuation.
local wayfinder = require("wayfinder")
local bt = wayfinder.bt
local prng = require("support.prng")
local gen = require("support.house_gen")

local ROOMS = [[
+-+-+-+-+-+-+-+-+-+-+-+-+
|. . . . . .|. . . . . .|
+ + + + + + + + + + + + +
|. . . . . .|. . . . . .|
+ + + + + + + + + + + + +
|. . . . . .A. . . . . .|
+ + + + + + + + + + + + +
|. . . . . .|. . t . . .|
+ + + + + + + + + + + + +
|. . . . . .|. . . . . .|
+-+-+-+-+-+-+-+-+-+-+-+-+
]]

local function house()
  return wayfinder.world.from_ascii(ROOMS, { legend = {
    A = { type = "door" }, t = { type = "table" } } })
end

local function dist(a, b)
  local ax, ay = a:position()
  local bx, by = b:position()
  return math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2)
end

-- true when the person's centre is on an open tile (not under furniture)
local function on_open(w, p)
  local x, y = p:position()
  local tx, ty = math.floor(x), math.floor(y)
  for _, o in ipairs(w:objects()) do
    if not o.person and not o.door then
      local ox, oy = o:position()
      if math.abs(ox - (tx + 0.5)) < 0.5 and math.abs(oy - (ty + 0.5)) < 0.5 then
        return false
      end
    end
  end
  return w:room_at(x, y) ~= nil
end

describe("bt.follow", function()
  it("stays within its distance after the leader walks through a door", function()
    local w = house()
    local lead = w:add_person { x = 1.5, y = 2.5, speed = 0.25 }
    local fol = w:add_person { x = 0.5, y = 0.5, speed = 0.5 }
    w:add_tree("follow", bt.follow(lead.id, { distance = 2 }))
    fol:push("follow")
    lead:route_to(10.5, 1.5)
    local crossed = false
    for _ = 1, 200 do
      w:tick()
      local fx = fol:position()
      crossed = crossed or fx > 6
    end
    assert.is_nil(lead:state().last_result == "failure" or nil)
    assert.is_true(crossed)
    assert.is_true(dist(lead, fol) <= 2)
    assert.are.equal(lead:room(), fol:room())
    assert.are.same({ "follow" }, fol:state().frames)   -- still following
  end)

  it("succeeds after options.ticks and fails with lost_target", function()
    local w = house()
    local lead = w:add_person { x = 3.5, y = 2.5 }
    local fol = w:add_person { x = 0.5, y = 0.5 }
    w:add_tree("f5", bt.follow(lead.id, { ticks = 5 }))
    fol:push("f5")
    w:tick(10)
    assert.are.equal("success", fol:state().last_result)
    w:add_tree("fobj", bt.follow())
    fol:push("fobj", lead.id)
    w:tick(3)
    w:remove_object(lead.id)
    w:tick(40)
    assert.are.equal("failure", fol:state().last_result)
    assert.are.equal("lost_target", fol:state().reason)
  end)

  it("fails with no_route when no door leads to the target", function()
    local w = wayfinder.world.from_ascii([[
+-+-+-+-+-+
|. .|. . .|
+ + + + + +
|. .|. . .|
+-+-+-+-+-+
]])
    local lead = w:add_person { x = 4.5, y = 0.5 }
    local fol = w:add_person { x = 0.5, y = 0.5 }
    w:add_tree("follow", bt.follow(lead.id, { distance = 1 }))
    fol:push("follow")
    w:tick(5)
    assert.are.equal("failure", fol:state().last_result)
    assert.are.equal("no_route", fol:state().reason)
  end)
end)

describe("bt.escort", function()
  it("arrives with its target and succeeds", function()
    local w = house()
    local vip = w:add_person { x = 1.5, y = 3.5, speed = 0.25 }
    local guard = w:add_person { x = 0.5, y = 0.5, speed = 0.5 }
    w:add_tree("escort", bt.escort(vip.id, { distance = 2, side = "left" }))
    guard:push("escort")
    vip:route_to(9.5, 3.5)
    w:tick(300)
    assert.are.equal("success", vip:state().last_result)
    assert.are.equal("success", guard:state().last_result)
    assert.is_true(dist(vip, guard) <= 2)
    assert.are.equal(vip:room(), guard:room())
  end)
  it("fails with target_failed when its target's walk fails", function()
    local w = house()
    local vip = w:add_person { x = 1.5, y = 3.5 }
    local guard = w:add_person { x = 0.5, y = 0.5, speed = 0.5 }
    w:add_object { type = "crate", x = 4, y = 0 }
    w:add_tree("escort", bt.escort(vip.id, { side = "near" }))
    guard:push("escort")
    vip:route_to(4.5, 0.5)   -- under the crate: no path
    w:tick(60)
    assert.are.equal("failure", vip:state().last_result)
    assert.are.equal("failure", guard:state().last_result)
    assert.are.equal("target_failed", guard:state().reason)
    assert.is_true(dist(vip, guard) <= 1.5)
  end)

  it("halts with interrupted and walks on after a frame pushed above it", function()
    local w = house()
    local vip = w:add_person { x = 1.5, y = 3.5, speed = 0.2 }
    local guard = w:add_person { x = 0.5, y = 0.5, speed = 0.5 }
    w:add_tree("escort", bt.escort(vip.id))
    w:add_tree("pause", bt.wait(5))
    guard:push("escort")
    vip:route_to(4.5, 3.5)
    w:tick(4)
    guard:push("pause")
    w:tick(100)
    assert.are.equal("success", guard:state().last_result)
    assert.is_true(dist(vip, guard) <= 1.5)
    guard:push("escort")
    vip:route_to(10.5, 3.5)
    w:tick(3)
    guard:halt()
    assert.are.equal("interrupted", guard:last_failure())
    assert.are.equal(1, guard:state().stats.failures.interrupted)
  end)
end)

describe("bt.flee_from", function()
  it("ends at least the distance away, on open ground", function()
    local w = house()
    local cat = w:add_person { x = 7.5, y = 2.5 }
    local mouse = w:add_person { x = 9.5, y = 2.5, speed = 0.5 }
    w:add_tree("flee", bt.flee_from(cat.id, { distance = 3.5 }))
    mouse:push("flee")
    for _ = 1, 100 do
      w:tick()
      assert.is_true(on_open(w, mouse))
    end
    assert.are.equal("success", mouse:state().last_result)
    assert.is_true(dist(cat, mouse) >= 3.5)
  end)

  it("flees from a point, and fails cornered when the room is too small", function()
    local w = house()
    local p = w:add_person { x = 2.5, y = 2.5, speed = 0.5 }
    w:add_tree("away", bt.flee_from({ 0.5, 0.5 }, { distance = 4 }))
    p:push("away")
    w:tick(60)
    assert.are.equal("success", p:state().last_result)
    local x, y = p:position()
    assert.is_true(math.sqrt((x - 0.5) ^ 2 + (y - 0.5) ^ 2) >= 4)
    w:add_tree("far", bt.flee_from({ 0.5, 0.5 }, { distance = 40 }))
    p:push("far")
    w:tick(200)
    assert.are.equal("failure", p:state().last_result)
    assert.are.equal("cornered", p:state().reason)
    assert.is_true(on_open(w, p))
  end)
end)

describe("bt.hold_formation", function()
  it("keeps four members in their slots while the leader crosses a room", function()
    local w = wayfinder.world.new { width = 20, height = 9 }
    local lead = w:add_person { x = 4.5, y = 4.5, speed = 0.2, facing = "east" }
    local members, ids = {}, {}
    local g = prng.new(7)
    for i = 1, 4 do
      members[i] = w:add_person { x = 0.5 + g.int(0, 2), y = 1.5 + 2 * (i - 1), speed = 0.5 }
      ids[i] = members[i].id
    end
    local tol = 0.5
    w:add_tree("hold", bt.hold_formation(lead.id, {
      members = function() return ids end, shape = "box", spacing = 1, tolerance = tol }))
    -- the slots worked out here: the box's offsets one spacing behind the
    -- leader, facing east, and the least-travel assignment
    local offs = wayfinder.formation.offsets("box", 4, 1)
    local function slots()
      local lx, ly = lead:position()
      local out = {}
      for k, o in ipairs(offs) do out[k] = { x = lx - 1 + o.x, y = ly - o.y } end
      return out
    end
    local start = {}
    for i = 1, 4 do
      local x, y = members[i]:position()
      start[i] = { x = x, y = y }
    end
    local given = wayfinder.formation.assign(start, slots())
    lead:route_to(16.5, 4.5)
    for i = 1, 4 do members[i]:push("hold") end
    local worst_walking = 0
    for t = 1, 120 do
      w:tick()
      local s = slots()
      for i = 1, 4 do
        local x, y = members[i]:position()
        local d = math.sqrt((x - s[given[i]].x) ^ 2 + (y - s[given[i]].y) ^ 2)
        if t > 20 and lead:walking() then worst_walking = math.max(worst_walking, d) end
      end
    end
    -- while the leader walks, a member trails its slot by less than one
    -- leg's planning lag; once the leader stops, every member is in its slot
    assert.is_true(worst_walking > 0 and worst_walking <= 1, "worst " .. worst_walking)
    local s = slots()
    for i = 1, 4 do
      local x, y = members[i]:position()
      assert.is_true(math.sqrt((x - s[given[i]].x) ^ 2 + (y - s[given[i]].y) ^ 2) <= tol)
      assert.are.equal("success", members[i]:state().last_result)
    end
    local lx = lead:position()
    assert.are.equal(16.5, lx)
  end)

  it("swaps two members that each stand on the other's slot", function()
    -- the scene of examples/escort.lua: a column of two pages behind a
    -- guard escorting the boss; on the way the pages end up each near the
    -- other's slot, and the one whose slot is held cannot get nearer
    local w = house()
    local boss = w:add_person { x = 1.5, y = 2.5, speed = 0.25 }
    local guard = w:add_person { x = 0.5, y = 0.5, speed = 0.5 }
    local dog = w:add_person { x = 0.5, y = 4.5, speed = 0.5 }
    local cat = w:add_person { x = 3.5, y = 3.5, speed = 0.5 }
    local pages = { w:add_person { x = 4.5, y = 0.5, speed = 0.5 },
      w:add_person { x = 5.5, y = 0.5, speed = 0.5 } }
    local ids = { pages[1].id, pages[2].id }
    w:add_tree("escort", bt.escort(boss.id, { distance = 2, side = "left" }))
    w:add_tree("follow", bt.follow(boss.id, { distance = 1.5 }))
    w:add_tree("flee", bt.flee_from(dog.id, { distance = 3 }))
    w:add_tree("pages", bt.hold_formation(guard.id, {
      members = function() return ids end, shape = "column", ticks = 110 }))
    boss:route_to(10.5, 2.5)
    guard:push("escort")
    dog:push("follow")
    cat:push("flee")
    for _, p in ipairs(pages) do p:push("pages") end
    for _ = 1, 120 do w:tick() end
    assert.are.equal("success", guard:state().last_result)
    local shared = guard.data.formation_slots
    -- the guard faces east: slot 1 is one tile behind it, slot 2 two
    local gx, gy = guard:position()
    for i = 1, 2 do
      local s = pages[i]:state()
      assert.are.equal("success", s.last_result, tostring(s.reason))
      local x, y = pages[i]:position()
      local k = shared.slots[i]
      assert.is_true(math.sqrt((x - (gx - k)) ^ 2 + (y - gy) ^ 2) <= 0.75,
        ("page %d at %g, %g is not in slot %d"):format(i, x, y, k))
    end
    assert.is_true((shared.round or 0) >= 1, "the group was never assigned again")
  end)

  it("raises an error of the frame when members leaves out the person", function()
    local w = wayfinder.world.new { width = 8, height = 4 }
    local lead = w:add_person { x = 4.5, y = 1.5 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    w:add_tree("bad", bt.hold_formation(lead.id, { members = function() return { lead.id } end }))
    p:push("bad")
    w:tick()
    assert.are.equal("failure", p:state().last_result)
    assert.matches("members must return a list holding the person running it",
      p:state().last_error)
  end)
end)

describe("company primitives' arguments", function()
  local f = function() end
  local cases = {
    { bt.follow, { "x" }, "wayfinder.bt.follow: target must be" },
    { bt.follow, { nil, { distance = -1 } },
      "wayfinder.bt.follow: options.distance must be a number in %(0, 64%], got %-1" },
    { bt.follow, { nil, { distance = 0 / 0 } }, "options.distance must be a number" },
    { bt.follow, { nil, { speed = 1 } }, "wayfinder.bt.follow: unknown options key 'speed'" },
    { bt.follow, { 1, 5 }, "wayfinder.bt.follow: options must be a table, got 5" },
    { bt.follow, { 1.5 }, "wayfinder.bt.follow: target must be" },
    { bt.follow, { nil, { ticks = 0 } }, "options.ticks must be an integer in %[1, 1000000000%]" },
    { bt.escort, { nil, { side = "up" } },
      "wayfinder.bt.escort: options.side must be 'left', 'right' or 'near', got 'up'" },
    { bt.escort, { nil, { max_tries = 1001 } }, "options.max_tries must be an integer in %[1, 1000%]" },
    { bt.flee_from, { f }, "wayfinder.bt.flee_from: options must be a table {distance =}, got nil" },
    { bt.flee_from, { f, { distance = 2000 } },
      "wayfinder.bt.flee_from: options.distance must be a number in %(0, 1024%]" },
    { bt.flee_from, { { 1, "y" }, { distance = 2 } }, "target point must be {x, y}" },
    { bt.flee_from, { {}, { distance = 2 } }, "target point must be {x, y}.*got nil" },
    { bt.flee_from, { { nil, 3 }, { distance = 2 } }, "target point must be {x, y}.*got nil" },
    { bt.flee_from, { true, { distance = 2 } }, "wayfinder.bt.flee_from: target must be" },
    { bt.hold_formation, { 1 }, "wayfinder.bt.hold_formation: options must be a table {members =}" },
    { bt.hold_formation, { 1, { members = {} } }, "options.members must be a function" },
    { bt.hold_formation, { 1, { members = f, shape = "ring" } }, "options.shape must be one of" },
    { bt.hold_formation, { 1, { members = f, spacing = 9 } },
      "options.spacing must be a number in %(0, 8%]" },
    { bt.hold_formation, { 1, { members = f, tolerance = -1 } }, "options.tolerance must be" },
  }
  for i, c in ipairs(cases) do
    it("rejects bad input " .. i, function()
      local ok, err = pcall(function()
        local node = c[1]((table.unpack or unpack)(c[2], 1, 2))
        return node
      end)
      assert.is_false(ok)
      assert.matches(c[3], err)
      assert.matches("bt_follow_spec", err)   -- blamed on the caller
    end)
  end

  it("makes nodes from good input", function()
    assert.is_true(bt.is_node(bt.follow()))
    assert.is_true(bt.is_node(bt.escort(3, { side = "near", distance = 2 })))
    assert.is_true(bt.is_node(bt.flee_from({ 1, 2 }, { distance = 3 })))
    assert.is_true(bt.is_node(bt.hold_formation(f, { members = f, shape = "wedge" })))
  end)
end)

-- A seeded scenario in a generated house: a leader walks to a random room
-- with a follower, an escort and a formation of two; a fourth person flees
-- from the leader. Returns the world and a function running n ticks that
-- extends the trace.
local function trees(ids)
  return {
    follow = bt.follow(ids.lead, { distance = 2 }),
    escort = bt.escort(ids.lead, { distance = 2.5, side = "right" }),
    flee = bt.flee_from(ids.lead, { distance = 5 }),
    hold = bt.hold_formation(ids.lead, { members = function() return ids.group end,
      shape = "line", spacing = 1, tolerance = 0.75 }),
  }
end

local function scenario(seed)
  local w, info = gen.generate { rooms_x = 2, rooms_y = 2, seed = seed, furniture = 1 }
  local g = prng.new(seed)
  local r1 = info.rooms[1]
  local function spot(r, k) return r[1] + 0.5 + (k % (r[3] - r[1])), r[2] + 0.5 + 1 end
  local lx, ly = r1[1] + 2.5, r1[2] + 3.5
  local lead = w:add_person { x = lx, y = ly, speed = 0.25 }
  local people = {}
  for k = 1, 5 do
    local x, y = spot(r1, k - 1)
    people[k] = w:add_person { x = x, y = y + (k > 3 and 3 or 0), speed = 0.5 }
  end
  local ids = { lead = lead.id, group = { people[4].id, people[5].id } }
  for name, root in pairs(trees(ids)) do w:add_tree(name, root) end
  local far = info.rooms[g.int(2, #info.rooms)]
  -- the first tile of that room, from a random one on, free of furniture
  local covered = {}
  for _, o in ipairs(info.furniture) do
    local x, y = o:position()
    covered[math.floor(x) .. "," .. math.floor(y)] = true
  end
  local fw, fh = far[3] - far[1], far[4] - far[2]
  local k = g.int(0, fw * fh - 1)
  local gx, gy
  repeat
    gx, gy = far[1] + k % fw, far[2] + math.floor(k / fw) % fh
    k = k + 1
  until not covered[gx .. "," .. gy]
  lead:route_to(gx + 0.5, gy + 0.5)
  people[1]:push("follow")
  people[2]:push("escort")
  people[3]:push("flee")
  people[4]:push("hold")
  people[5]:push("hold")
  return w, ids
end

local function run(w, n, h)
  for _ = 1, n do
    w:tick()
    for _, o in ipairs(w:objects()) do
      if o.person then
        local x, y = o:position()
        h = prng.fnv32(h, ("%s %s %s %s|"):format(prng.exact(x), prng.exact(y),
          o:facing_name(), tostring(o:state().last_result)))
      end
    end
  end
  return h
end

describe("company primitives' runs", function()
  for _, seed in ipairs({ 3, 5, 11 }) do
    it("give identical traces and continue identically after save and load, seed "
        .. seed, function()
      local w1, ids = scenario(seed)
      local h1 = run(w1, 300, prng.FNV_OFFSET)
      local w2 = scenario(seed)
      local h2 = run(w2, 120, prng.FNV_OFFSET)
      local w3 = wayfinder.world.load(w2:save(), trees(ids))
      assert.are.equal(prng.hex(h1), prng.hex(run(w2, 180, h2)))
      assert.are.equal(prng.hex(h1), prng.hex(run(w3, 180, h2)))
      -- every person ran its primitive: the leader arrived, the escort
      -- with it, the follower is within its distance and the fleeing one
      -- ended the distance away or cornered
      local p = {}
      for _, o in ipairs(w1:objects()) do
        if o.person then p[#p + 1] = o end
      end
      assert.are.equal("success", p[1]:state().last_result)
      assert.is_true(dist(p[1], p[2]) <= 2)
      assert.are.same({ "follow" }, p[2]:state().frames)
      assert.are.equal("success", p[3]:state().last_result)
      assert.is_true(dist(p[1], p[3]) <= 2.5)
      local fled = p[4]:state()
      assert.is_true(fled.last_result == "success" or fled.reason == "cornered")
      assert.are.equal("success", p[5]:state().last_result)
      assert.are.equal("success", p[6]:state().last_result)
    end)
  end
end)
