-- Worked examples on the town of examples/town.lua: portal mechanisms and
-- actions, one-way drops, abilities, classes and surfaces, innate
-- waypaths, teleports with exit portals, temporary jump links, danger.
local town = assert(loadfile("examples/town.lua"))("module")

local function kinds(r)
  local out = {}
  for _, c in ipairs(r.corridor) do
    if c.kind ~= "walk" then out[#out + 1] = c.kind end
  end
  return out
end

local function actions(r)
  local out = {}
  for _, c in ipairs(r.corridor) do
    if c.action then out[#out + 1] = c.action end
  end
  return out
end

describe("graph mechanisms", function()
  it("rides the elevator to the roof and names the actions to run", function()
    local g, s, p = town.build()
    local r = assert(g:find_path(25, 5, 55, 5, { class = "person" }))
    assert.are.same({ "elevator" }, kinds(r))
    assert.are.same({ "ride_elevator" }, actions(r))
    assert.are.equal(p.elevator, r.corridor[1].portal)
    assert.are.same({ s.tower, s.roof }, r.sectors)
    -- the elevator's cost is its travel cost plus its wait
    assert.are.equal(2 + 6, g:portal(p.elevator).cost)
    -- points: start, the elevator's door, its exit on the roof, the goal
    assert.are.same({ { 25, 5 }, { 28, 2 }, { 52, 2 }, { 55, 5 } }, r.points)
  end)

  it("drops one way from the roof and takes the elevator back", function()
    local g, _, p = town.build()
    local down = assert(g:find_path(55, 5, 38, 20, { class = "person" }))
    assert.are.same({ "drop" }, kinds(down))
    local up = assert(g:find_path(38, 20, 55, 5, { class = "person" }))
    assert.are.same({ "elevator" }, kinds(up))
    assert.is_true(g:portal(p.drop).one_way)
    assert.has_error(function()
      g:add_link { kind = "drop", from = { 58, 9 }, to = { 38, 19 }, one_way = false }
    end, "graph:add_link: a 'drop' link is always one-way")
  end)

  it("uses a ladder only with the climb ability", function()
    local g = town.build()
    local r = assert(g:find_path(30, 25, 55, 25, { class = "person", abilities = { "climb" } }))
    assert.are.same({ "ladder" }, kinds(r))
    assert.are.same({ "climb_ladder" }, actions(r))
    local r2, why = g:find_path(30, 25, 55, 25, { class = "person", abilities = {} })
    assert.is_nil(r2)
    assert.are.equal("unreachable", why)
  end)

  it("keeps cars on the road and people off the lava", function()
    local g, s = town.build()
    local r = assert(g:find_path(1, 14, 39, 14, { class = "car" }))
    for _, sec in ipairs(r.sectors) do assert.are.equal(s.road, sec) end
    local _, why = g:find_path(1, 14, 5, 5, { class = "car" })
    assert.are.equal("goal_blocked", why)
    local _, why2 = g:find_path(35, 5, 5, 5, { class = "person" })
    assert.are.equal("start_blocked", why2)
    -- a person crossing the road pays 4 per navcell on it: the crossing
    -- at the zebra (18..22) is used rather than walking along the road
    local walk = assert(g:find_path(20, 11, 20, 17, { class = "person" }))
    assert.are.same({ s.north, s.road, s.south }, walk.sectors)
    assert.are.equal(1 * 1 + 4 * 4 + 1 * 1, walk.cost)
  end)

  it("lets a car follow the one-way lane for its direction", function()
    local g = town.build()
    local east = assert(g:find_path(1, 14.5, 39, 14.5, { class = "car" }))
    assert.are.same({ "waypath", "waypath" }, kinds(east))
    -- the lane costs 3/4 of walking it: 19.5 + 19.5 navcells, plus the ends
    assert.is_true(east.cost < 38 * 1)
    local west = assert(g:find_path(39, 13, 1, 13, { class = "car" }))
    assert.are.same({ "waypath", "waypath" }, kinds(west))
    -- the east lane is not used westwards
    for _, c in ipairs(west.corridor) do assert.is_true(g:portal(c.portal).waypath == 2) end
    -- people may not use the car lanes
    local person = assert(g:find_path(1, 14.5, 39, 14.5, { class = "person" }))
    assert.are.same({}, kinds(person))
  end)

  it("sends a teleport with an exit to where the exit leads", function()
    local g, _, p = town.build()
    local pad2 = g:portal(p.pad2)
    assert.are.same({ 2, 2 }, pad2.to)
    assert.are.equal(p.pad, pad2.exit)
    local r = assert(g:find_path(2, 27, 3, 3, { class = "person" }))
    assert.are.same({ "teleport" }, kinds(r))
    assert.are.equal(p.pad2, r.corridor[1].portal)
  end)

  it("follows a player's jump, oldest jumps falling out of the bucket", function()
    local g = town.build()
    local before = assert(g:find_path(55, 5, 36, 11, { class = "person", abilities = { "jump" } }))
    assert.are.same({ "elevator" }, kinds(before))
    local id = g:add_temporary_link { kind = "jump", from = { 51, 9 }, to = { 36, 11 },
      data = { heading = 200 } }
    local r = assert(g:find_path(55, 5, 36, 11, { class = "person", abilities = { "jump" } }))
    assert.are.same({ "jump" }, kinds(r))
    assert.are.same({ heading = 200 }, r.corridor[1].data)
    assert.is_true(r.cost < before.cost)
    -- a person who cannot jump does not follow
    local no = assert(g:find_path(55, 5, 36, 11, { class = "person", abilities = {} }))
    assert.are.same({ "elevator" }, kinds(no))
    -- the bucket holds 4: three more keep it, the fifth pushes it out
    local ids = { id }
    for k = 1, 3 do
      local nid, dropped = g:add_temporary_link { kind = "jump", from = { 51 + k, 9 },
        to = { 5, 5 } }
      assert.is_nil(dropped)
      ids[#ids + 1] = nid
    end
    assert.are.same(ids, g:temporary_links())
    local last, dropped = g:add_temporary_link { kind = "jump", from = { 59, 9 }, to = { 5, 5 } }
    assert.are.equal(id, dropped)
    assert.are.same({ ids[2], ids[3], ids[4], last }, g:temporary_links())
    assert.has_error(function() g:portal(id) end)
    local after = assert(g:find_path(55, 5, 36, 11, { class = "person", abilities = { "jump" } }))
    assert.are.same({ "elevator" }, kinds(after))
  end)

  it("adds the danger of the sectors entered, and scripts can change it", function()
    local g, s = town.build()
    local base = assert(g:find_path(5, 5, 35, 17, { class = "person" }))
    g:set_danger(s.road, 50)
    local r = assert(g:find_path(5, 5, 35, 17, { class = "person" }))
    assert.are.equal(base.cost + 50, r.cost)
    g:set_danger(s.road, 0)
    assert.are.equal(base.cost, assert(g:find_path(5, 5, 35, 17, { class = "person" })).cost)
  end)
end)
