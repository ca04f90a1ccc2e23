-- wayfinder.world.load takes counts only within 2^52, so a world it loads
-- has room to tick on and save a copy that loads again (a tick count of
-- 2^53 used to load, then its save after one tick was refused).
local world = require("wayfinder.world")

local ASCII = table.concat({
  "+-+-+-+-+-+-+",
  "|. . .A. . .|",
  "+-+-+-+-+-+-+",
}, "\n")

local function saved()
  local w = world.from_ascii(ASCII, { legend = { A = { type = "door" } } })
  local p = w:add_person { x = 0.5, y = 0.5 }
  p:route_to(5.5, 0.5)
  w:tick(2)
  return w:save()
end

local function person(s)
  for _, o in ipairs(s.objects) do
    if o.kind == "person" then return o end
  end
end

local function refused(s)
  local ok, err = pcall(function()
    local w = world.load(s)
    return w
  end)
  assert.is_false(ok)
  return err
end

describe("wayfinder.world.load and counts near the integer limit", function()
  it("refuses a tick count past 2^52, naming the field", function()
    local s = saved()
    s.tick = 2 ^ 53
    assert.matches("^spec/world_load_counts_spec%.lua:%d+: wayfinder%.world%.load: "
      .. "tick must be an integer in %[0, 2%^52%], got ", refused(s))
  end)

  it("refuses a person's counts past 2^52", function()
    local s = saved()
    person(s).stats.routes = 2 ^ 53
    assert.truthy(refused(s):find("stats.routes must be an integer in [0, 2^52]", 1, true))
    s = saved()
    person(s).route_counter = 2 ^ 53
    assert.truthy(refused(s):find("route_counter must be an integer in [0, 2^52]", 1, true))
  end)

  it("loads a tick count near 2^52, ticks on, and its save loads and runs the same", function()
    local s = saved()
    s.tick = 2 ^ 52 - 20
    local w = world.load(s)
    w:tick(5)
    assert.equals(2 ^ 52 - 15, w:now())
    local copy = world.load(w:save())
    for _ = 1, 6 do
      w:tick()
      copy:tick()
      assert.equals(w:draw(), copy:draw())
      assert.equals(w:now(), copy:now())
    end
  end)
end)
