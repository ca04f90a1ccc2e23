-- The grid planner's own contract: what it refuses, and that a plan that
-- fails half-way leaves its cached grid as it found it.
local gridplan = require("wayfinder.gridplan")

local function corridor(people)
  local ids = {}
  for i = 1, 6 do ids[i] = "hall" end
  return { width = 6, height = 1, rooms = ids, walls = {}, objects = people }
end

local function query(overrides)
  local q = { start = { 0.5, 0.5 }, goal = { 3.5, 0.5 }, width = 0.5 }
  for k, v in pairs(overrides or {}) do q[k] = v end
  return q
end

describe("wayfinder.gridplan.plan", function()
  it("plans in a room whose id is a string", function()
    local points = assert(gridplan.plan(corridor({}), query()))
    assert.are.same({ 3.5, 0.5 }, points[#points])
  end)

  it("leaves no person in its cached grid when adding the people fails half-way", function()
    local blocker = { id = 1, x0 = 2, y0 = 0, x1 = 2.5, y1 = 0.5, person = true }
    local huge = { id = 2, x0 = -8000, y0 = -8000, x1 = 8000, y1 = 8000, person = true }
    local room = corridor({ blocker, huge })
    assert.has_error(function() gridplan.plan(room, query()) end)
    -- both move out of the way in place, as a world's description does
    blocker.x0, blocker.x1 = 5, 5.5
    huge.x0, huge.y0, huge.x1, huge.y1 = 5.5, 0, 6, 0.5
    local points, why = gridplan.plan(room, query())
    assert.is_table(points, why)
    local fresh = corridor({ { id = 1, x0 = 5, y0 = 0, x1 = 5.5, y1 = 0.5, person = true },
      { id = 2, x0 = 5.5, y0 = 0, x1 = 6, y1 = 0.5, person = true } })
    assert.are.same(assert(gridplan.plan(fresh, query())), points)
  end)

  local bad = {
    { "a query that is not a table", corridor({}), 7, "query must be a table, got 7" },
    { "a NaN width", corridor({}), query { width = 0 / 0 }, "query.width must be a number" },
    { "a negative width", corridor({}), query { width = -1 },
      "query.width must be a number in [0, 256], got -1" },
    { "no width", corridor({}), query { width = false }, "query.width must be a number" },
    { "an unknown mode", corridor({}), query { mode = "nearby" },
      "query.mode must be 'point' or 'near', got 'nearby'" },
    { "near mode without a distance", corridor({}), query { mode = "near" },
      "query.near must be a number in [0, 8192], got nil" },
    { "a start that is not a point", corridor({}), query { start = 3 },
      "query.start must be a table {x, y}, got 3" },
    { "an infinite goal", corridor({}), query { goal = { 1 / 0, 0.5 } },
      "query.goal[1] must be a number in [-8192, 8192], got inf" },
    { "bad tuning", corridor({}), query { tuning = { cells = 1 } },
      "query.tuning.cells must be an integer in [2, 32], got 1" },
    { "a room without walls", { width = 2, height = 1, rooms = { 1, 1 }, objects = {} },
      query(), "room.walls must be a table, got nil" },
    { "a room that is not a table", "hall", query(), "room must be a table, got 'hall'" },
    { "too few room ids", { width = 2, height = 2, rooms = { 1, 1 }, walls = {}, objects = {} },
      query(), "room.rooms must be a table of width*height = 4 room ids, got 2 ids" },
    { "a fractional width", { width = 1.5, height = 1, rooms = { 1 }, walls = {}, objects = {} },
      query(), "room.width must be an integer in [1, 4096], got 1.5" },
    { "an object with a NaN corner", corridor({ { id = 1, x0 = 0 / 0, y0 = 0, x1 = 1, y1 = 1 } }),
      query(), "room.objects[1].x0 must be a number" },
  }
  for _, case in ipairs(bad) do
    it("rejects " .. case[1] .. " at the caller's line", function()
      local ok, err = pcall(gridplan.plan, case[2], case[3])
      assert.is_false(ok)
      assert.matches("wayfinder.gridplan.plan: " .. case[4], err, 1, true)
    end)
  end

  it("blames the line that called it", function()
    local ok, err = pcall(function()
      local points = gridplan.plan(corridor({}), query { width = -1 })
      return points
    end)
    assert.is_false(ok)
    assert.matches("^spec/gridplan_spec%.lua:%d+: wayfinder%.gridplan%.plan: ", err)
  end)
end)

describe("wayfinder.gridplan.plan and the walker", function()
  -- A hall above a room, a wall between them at y = 1 with an open door over
  -- its tile x = 2. A person 0.5 wide stands 0.1 past the door line, inside
  -- the frame's clearance, so the raster refuses its start navcell; someone
  -- stands below it, so the nearest free navcell is off to one side.
  local W, H = 6, 4
  local function house()
    local rooms = {}
    for y = 0, H - 1 do
      for x = 0, W - 1 do rooms[y * W + x + 1] = y == 0 and 1 or 2 end
    end
    return { width = W, height = H, rooms = rooms, walls = { { 0, 1, W, 1 } },
      objects = { { id = 7, x0 = 2.25, y0 = 1.25, x1 = 2.75, y1 = 1.75, person = true } } }
  end

  -- Walks the route in a walker holding the same walls; the walk's end event.
  local function walk(points, half)
    local core = require("wayfinder.core")
    local h = core.walker_new(W, H)
    for x = 0, W - 1 do h:set_wall(false, x, 1, true) end
    h:set_door(false, 2, 1, 9, true)
    local flat = {}
    for k, p in ipairs(points) do
      flat[2 * k - 1] = math.floor(p[1] * 65536 + 0.5)
      flat[2 * k] = math.floor(p[2] * 65536 + 0.5)
    end
    h:add_person(1, flat[1], flat[2], math.floor(half * 65536), math.floor(65536 / 5), 0)
    h:add_person(7, 2 * 65536 + 32768, 65536 + 32768, 16384, 65536, 0)
    h:set_route(1, flat, 1)
    for _ = 1, 400 do
      local ev = h:step()
      if #ev > 0 then return ev end
    end
    return nil
  end

  it("leaves a door frame by a leg the walker lets it walk", function()
    for _, goal in ipairs({ { 0.5, 3.5 }, { 5.5, 3.5 }, { 0.5, 2.5 }, { 5.5, 2.5 } }) do
      local points = assert(gridplan.plan(house(), { start = { 2.5, 1.1 }, goal = goal,
        width = 0.5 }))
      assert.is_true(#points >= 3, "the start is snapped to a navcell first")
      assert.are.same({ 1, 1, 0 }, walk(points, 0.25))
    end
  end)
end)

describe("wayfinder.gridplan.plan on a room too large for its raster", function()
  it("refuses before building anything", function()
    local ids = {}
    for i = 1, 200 * 200 do ids[i] = 1 end
    local room = { width = 200, height = 200, rooms = ids, walls = {}, objects = {} }
    local ok, err = pcall(gridplan.plan, room,
      { start = { 0.5, 0.5 }, goal = { 1.5, 0.5 }, width = 0.5, tuning = { cells = 32 } })
    assert.is_false(ok)
    assert.matches("wayfinder.gridplan.plan: the room's grid would be 6465 x 6465 navcells, "
      .. "more than 4194304", err, 1, true)
  end)
end)

describe("wayfinder.gridplan.plan and the walker's margins", function()
  local core = require("wayfinder.core")
  local prng = require("support.prng")
  local ONE = 65536

  local function fix(v) return math.floor(v * ONE + 0.5) end

  -- A room of one id over the whole world, its border walled, the given
  -- boxes in it (furniture and people, as the description holds them).
  local function room(W, H, objects)
    local ids = {}
    for i = 1, W * H do ids[i] = 1 end
    return { width = W, height = H, rooms = ids,
      walls = { { 0, 0, W, 0 }, { 0, H, W, H }, { 0, 0, 0, H }, { W, 0, W, H } },
      objects = objects }
  end

  -- Walks the route of a person 0.5 wide in a walker holding the same
  -- border and boxes; the first event of the walk.
  local function walk(W, H, objects, points)
    local h = core.walker_new(W, H)
    for x = 0, W - 1 do
      h:set_wall(false, x, 0, true)
      h:set_wall(false, x, H, true)
    end
    for y = 0, H - 1 do
      h:set_wall(true, 0, y, true)
      h:set_wall(true, W, y, true)
    end
    for _, o in ipairs(objects) do
      if o.person then
        h:add_person(o.id, fix((o.x0 + o.x1) / 2), fix((o.y0 + o.y1) / 2),
          fix((o.x1 - o.x0) / 2), ONE, 0)
      else
        h:set_box(o.id, fix(o.x0), fix(o.y0), fix(o.x1), fix(o.y1))
      end
    end
    local flat = {}
    for k, p in ipairs(points) do
      flat[2 * k - 1], flat[2 * k] = fix(p[1]), fix(p[2])
    end
    h:add_person(1, flat[1], flat[2], ONE / 4, fix(0.2), 0)
    h:set_route(1, flat, 1)
    for _ = 1, 2000 do
      local ev = h:step()
      if #ev > 0 then return ev end
    end
    return nil
  end

  it("passes between a person and a wall where the gap is just wide enough", function()
    -- a hall two tiles high; one person stands 0.6 from the top wall, one
    -- below it closes the rest: the only way past is along the top wall,
    -- where a person 0.5 wide has 0.1 to spare
    local objects = {
      { id = 7, x0 = 3.75, y0 = 0.6, x1 = 4.25, y1 = 1.1, person = true },
      { id = 8, x0 = 3.75, y0 = 1.35, x1 = 4.25, y1 = 1.85, person = true },
    }
    local points, why = gridplan.plan(room(8, 2, objects),
      { start = { 0.5, 0.5 }, goal = { 7.5, 0.5 }, width = 0.5 })
    assert.is_table(points, why)
    assert.are.same({ 7.5, 0.5 }, points[#points])
    assert.are.same({ 1, 1, 0 }, walk(8, 2, objects, points))
  end)

  it("gives routes the walker walks to the end among furniture on and off the lattice", function()
    local g = prng.new(1)
    for case = 1, 120 do
      local W, H = 6, 5
      local objects = {}
      for n = 1, 3 do
        local x0 = g.int(0, 9) / 2 + (case % 2 == 0 and 0 or g.int(0, 7) / 8)
        local y0 = g.int(0, 7) / 2 + (case % 3 == 0 and 0 or g.int(0, 7) / 8)
        objects[n] = { id = 10 + n, x0 = x0, y0 = y0, x1 = math.min(W, x0 + g.int(1, 3) / 2),
          y1 = math.min(H, y0 + g.int(1, 3) / 2), person = false }
      end
      local function clear(x, y)
        for _, o in ipairs(objects) do
          if x > o.x0 - 0.25 and x < o.x1 + 0.25 and y > o.y0 - 0.25 and y < o.y1 + 0.25 then
            return false
          end
        end
        return true
      end
      local function spot()
        for _ = 1, 100 do
          local x, y = 0.25 + g.int(0, 88) / 16, 0.25 + g.int(0, 72) / 16
          if clear(x, y) then return x, y end
        end
      end
      local sx, sy = spot()
      local gx, gy = spot()
      if sx and gx then
        local points = gridplan.plan(room(W, H, objects),
          { start = { sx, sy }, goal = { gx, gy }, width = 0.5 })
        if points then
          local ev = walk(W, H, objects, points)
          assert.are.same({ 1, 1, 0 }, ev, ("case %d"):format(case))
        end
      end
    end
  end)
end)
