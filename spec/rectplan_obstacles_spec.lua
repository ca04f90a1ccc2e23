-- The obstacle list of a room: boundary, wall scan, thin walls, the seven
-- object rules and inflation (wayfinder.rectplan.obstacles).
local rectplan = require("wayfinder.rectplan")
local H = require("rectplan_helper")

local U = 1 / 65536   -- one fixed point unit

local function walls_only(list)
  local out = {}
  for _, a in ipairs(H.plain(list)) do
    if a[5] == "wall" then out[#out + 1] = a end
  end
  return out
end

local function objects_only(list)
  local out = {}
  for _, a in ipairs(H.plain(list)) do
    if a[5] == "object" or a[5] == "person" or a[5] == "terrain" then out[#out + 1] = a end
  end
  return out
end

describe("wayfinder.rectplan.obstacles", function()
  describe("outer boundary", function()
    it("closes the room box grown by one tile with four one-tile rectangles", function()
      local room = H.box_room(8, 6)
      local obs, inflated, skipped, bounds = rectplan.obstacles(room,
        { start = { 2.5, 2.5 }, goal = { 5, 5 } })
      assert.same({
        { 0, 0, 10, 1, "boundary" }, { 0, 7, 10, 8, "boundary" },
        { 0, 1, 1, 7, "boundary" }, { 9, 1, 10, 7, "boundary" },
      }, H.plain(obs))
      assert.same(H.plain(obs), H.plain(inflated))   -- width 0
      assert.same({}, skipped)
      assert.same({ 0, 0, 10, 8 }, bounds)
    end)

    it("uses the box of the start's room, wherever it lies in the world", function()
      local room = H.room({
        "#######",
        "#..#22#",
        "#..#22#",
        "#######",
      })
      local obs, _, _, bounds = rectplan.obstacles(room, { start = { 4.5, 1.5 }, goal = { 5, 2 } })
      assert.same({ 3, 0, 7, 4 }, bounds)
      assert.same({
        { 3, 0, 7, 1, "boundary" }, { 3, 3, 7, 4, "boundary" },
        { 3, 1, 4, 3, "boundary" }, { 6, 1, 7, 3, "boundary" },
      }, H.plain(obs))
    end)

    it("takes the starting room from query.room when given", function()
      local room = H.room({
        "#######",
        "#..#22#",
        "#..#22#",
        "#######",
      })
      local _, _, _, bounds = rectplan.obstacles(room,
        { start = { 4.5, 1.5 }, goal = { 5, 2 }, room = 1 })
      assert.same({ 0, 0, 4, 4 }, bounds)
    end)

    it("accepts string room ids and negative integer ones, never mixing them", function()
      local room = H.box_room(3, 2, { objects = {
        { id = 1, x0 = 2, y0 = 2, x1 = 3, y1 = 3, room = "hall" },
        { id = 2, x0 = 2, y0 = 1, x1 = 3, y1 = 1.5, room = -1 },
        { id = 3, x0 = 1, y0 = 1, x1 = 1.5, y1 = 1.5, room = 1073741823 } } })
      for i, v in ipairs(room.rooms) do room.rooms[i] = v == 1 and "hall" or -1 end
      local obs, _, skipped, bounds = rectplan.obstacles(room,
        { start = { 1.5, 1.5 }, goal = { 2, 2 } })
      assert.same({ 0, 0, 5, 4 }, bounds)
      assert.same({ 2, 2, 3, 3, "object", 1 }, H.plain(obs)[5])
      assert.same({ { id = 2, rule = "other_room", index = 2 },
        { id = 3, rule = "other_room", index = 3 } }, skipped)
      local _, _, _, b2 = rectplan.obstacles(room, { start = { 0.5, 0.5 }, goal = { 2, 2 } })
      assert.same({ -1, -1, 6, 5 }, b2)        -- the room -1 is the border
    end)
  end)

  describe("wall scan", function()
    it("turns non-routable tiles of the box into rectangles, top to bottom", function()
      local room = H.room({
        "##########",
        "#....##..#",
        "#....##..#",
        "#........#",
        "##.......#",
        "##.......#",
        "##########",
      })
      local obs = rectplan.obstacles(room, { start = { 2.5, 2.5 }, goal = { 3, 3 } })
      assert.same({ { 5, 1, 7, 3, "wall" }, { 1, 4, 2, 6, "wall" } }, walls_only(obs))
    end)

    it("grows each rectangle right first, then down", function()
      local room = H.room({
        "#######",
        "#.##..#",
        "#.#...#",
        "#######",
      })
      local obs = rectplan.obstacles(room, { start = { 1.5, 1.5 }, goal = { 5, 2 } })
      assert.same({ { 2, 1, 4, 2, "wall" }, { 2, 2, 3, 3, "wall" } }, walls_only(obs))
    end)

    it("skips tiles an earlier rectangle covers", function()
      local room = H.room({
        "#########",
        "#.##....#",
        "#.###...#",
        "#.......#",
        "#########",
      })
      local obs = rectplan.obstacles(room, { start = { 1.5, 1.5 }, goal = { 5, 2 } })
      assert.same({ { 2, 1, 4, 3, "wall" }, { 4, 2, 5, 3, "wall" } }, walls_only(obs))
    end)

    it("routes over door tiles and puts doors beside the room in its box", function()
      local room = H.room({
        "####D####",
        "#.......#",
        "#..D....#",
        "#.......#",
        "#########",
      })
      local obs, _, _, bounds = rectplan.obstacles(room, { start = { 1.5, 1.5 }, goal = { 5, 2 } })
      assert.same({ 0, -1, 9, 5 }, bounds)
      assert.same({
        { 0, -1, 9, 0, "boundary" }, { 0, 4, 9, 5, "boundary" },
        { 0, 0, 1, 4, "boundary" }, { 8, 0, 9, 4, "boundary" },
        { 1, 0, 4, 1, "wall" }, { 5, 0, 8, 1, "wall" },
      }, H.plain(obs))
    end)
  end)

  describe("thin walls", function()
    it("block between two routable tiles, merged along a line, dropped elsewhere", function()
      local room = H.box_room(6, 4, { walls = {
        { 3, 2, 3, 4 },        -- inside the room: kept
        { 1, 1, 4, 1 },        -- on the room's edge: dropped
        { 4, 3, 6, 3 }, { 7, 3, 5, 3 },   -- overlapping: one rectangle
        { 7, 2, 7, 5 },        -- beside the border: dropped
      } })
      local obs = rectplan.obstacles(room, { start = { 1.5, 1.5 }, goal = { 5, 2 } })
      assert.same({
        { 4, 3, 7, 3, "wall" },
        { 3, 2, 3, 4, "wall" },
      }, walls_only(obs))
    end)

    it("are edges, as route following sees them: a person may stand against one", function()
      local room = H.box_room(6, 4, { walls = { { 3, 1, 3, 4 } } })
      local q = { start = { 2.75, 2 }, goal = { 1.5, 2 }, width = 0.5 }
      local _, inflated = rectplan.obstacles(room, q)
      assert.same({ { 2.75, 0.75, 3.25, 4.25, "wall" } }, walls_only(inflated))
      -- the centre a quarter tile from the wall touches it: free to go
      local points = rectplan.plan(room, q)
      assert.same({ { 2.75, 2 }, { 1.5, 2 } }, points)
    end)

    it("keep one unit of thickness each way when the person has no width", function()
      local room = H.box_room(6, 4, { walls = { { 3, 1, 3, 4 } } })
      local q = { start = { 2.5, 2 }, goal = { 3.5, 2 } }
      local _, inflated = rectplan.obstacles(room, q)
      assert.same({ { 3 - U, 1, 3 + U, 4, "wall" } }, walls_only(inflated))
      local points = rectplan.plan(room, q)
      assert.is_true(#points > 2, "a point must go round the wall, not through it")
      for _, p in ipairs(points) do
        assert.is_true(p[1] <= 3 - U or p[1] >= 3 + U or p[2] <= 1 or p[2] >= 4)
      end
    end)

    it("block a door tile from the room when a wall lies between them", function()
      local room = H.room({
        "#####",
        "#..D#",
        "#####",
      }, { walls = { { 3, 1, 3, 2 } } })
      local obs = rectplan.obstacles(room, { start = { 1.5, 1.5 }, goal = { 3.5, 1.5 } })
      assert.same({ { 3, 1, 3, 2, "wall" } }, walls_only(obs))
    end)
  end)

  describe("object scan", function()
    local function furnished()
      return H.box_room(8, 6, { objects = {
        { id = "me", x0 = 2, y0 = 2, x1 = 3, y1 = 3, room = 1, person = true },
        { id = "dest", x0 = 6, y0 = 5, x1 = 7, y1 = 6, room = 1 },
        { id = "away", x0 = 1, y0 = 5, x1 = 2, y1 = 6, room = 2 },
        { id = "cup", x0 = 6.25, y0 = 5.25, x1 = 6.5, y1 = 5.5, room = 1, contained = true },
        { id = "rug", x0 = 4, y0 = 4, x1 = 6, y1 = 5, room = 1, walk_over = true },
        { id = "ann", x0 = 3.5, y0 = 2, x1 = 4, y1 = 3, room = 1, person = true },
        { id = "bob", x0 = 7, y0 = 1, x1 = 7.5, y1 = 1.5, room = 1, person = true },
        { id = "table", x0 = 4, y0 = 1.5, x1 = 5.5, y1 = 3, room = 1 },
        { id = 9, x0 = 1, y0 = 1, x1 = 1.5, y1 = 1.5, room = 2, contained = true },
      } })
    end
    local base = { start = { 2.5, 2.5 }, goal = { 6.5, 5.5 }, start_object = "me",
      dest_object = "dest" }

    it("applies the seven rules in order, the first that applies deciding", function()
      local q = {}
      for k, v in pairs(base) do q[k] = v end
      -- ann stands half a tile from the goal, bob far from it
      q.goal, q.mode, q.near, q.ignore_people_within = { 3.75, 3.5 }, "near", 1, 1
      local obs, _, skipped = rectplan.obstacles(furnished(), q)
      assert.same({
        { id = "me", rule = "start_object", index = 1 },       -- rule 1
        { id = "dest", rule = "dest_object", index = 2 },      -- rule 2
        { id = "away", rule = "other_room", index = 3 },       -- rule 3
        { id = "cup", rule = "contained", index = 4 },         -- rule 4
        { id = "rug", rule = "walk_over", index = 5 },         -- rule 5
        { id = "ann", rule = "person_near", index = 6 },       -- rule 6
        { id = 9, rule = "other_room", index = 9 },            -- 3 before 4
      }, skipped)
      assert.same({                                             -- rule 7
        { 7, 1, 7.5, 1.5, "person", "bob" },
        { 4, 1.5, 5.5, 3, "object", "table" },
      }, objects_only(obs))
    end)

    it("skips people the routing person already overlaps at the start", function()
      local function scan(width)
        local q = {}
        for k, v in pairs(base) do q[k] = v end
        q.start, q.width = { 3.25, 2.5 }, width
        local _, _, skipped = rectplan.obstacles(furnished(), q)
        local out = {}
        for _, s in ipairs(skipped) do
          if s.rule == "person_overlap" then out[#out + 1] = s.id end
        end
        return out
      end
      -- ann's box starts 0.25 to the right of the start
      assert.same({}, scan(0))
      assert.same({}, scan(0.5))          -- squares that only touch: not skipped
      assert.same({ "ann" }, scan(0.6))
      assert.same({ "ann" }, scan(1))     -- 'me' is rule 1, whatever the width
    end)

    it("keeps the destination object when routing onto a point", function()
      local _, _, skipped = rectplan.obstacles(furnished(), base)
      for _, s in ipairs(skipped) do assert.not_equal("dest", s.id) end
      local obs = rectplan.obstacles(furnished(), base)
      assert.same({ 6, 5, 7, 6, "object", "dest" }, objects_only(obs)[1])
    end)

    it("skips people only within the ignore distance of the goal (inclusive)", function()
      local function people(d)
        local q = {}
        for k, v in pairs(base) do q[k] = v end
        q.goal = { 5, 2.5 }           -- ann's box 1 away, bob's sqrt(5)
        q.ignore_people_within = d
        local ids = {}
        for _, a in ipairs(objects_only((rectplan.obstacles(furnished(), q)))) do
          ids[#ids + 1] = a[6]
        end
        return ids
      end
      assert.same({ "dest", "ann", "bob", "table" }, people(nil))
      assert.same({ "dest", "ann", "bob", "table" }, people(0.99))
      assert.same({ "dest", "bob", "table" }, people(1))       -- exactly 1 away
      assert.same({ "dest", "table" }, people(5))
    end)
  end)

  describe("inflation", function()
    it("grows every obstacle by width/2 on each side but leaves terrain alone", function()
      local room = H.box_room(8, 6, { objects = {
        { id = "t", x0 = 3, y0 = 2, x1 = 6, y1 = 4, room = 1 },
        { id = "bench", x0 = 2, y0 = 5, x1 = 3, y1 = 5.5, room = 1, penalty = 2 },
      }, walls = { { 4, 5, 4, 7 } } })
      local obs, inflated = rectplan.obstacles(room, {
        start = { 1.5, 1.5 }, goal = { 7, 6 }, width = 0.5,
        terrain = { { x0 = 6, y0 = 5, x1 = 8, y1 = 7, penalty = 0.5 },
          { x0 = 1, y0 = 6, x1 = 2, y1 = 7, penalty = "impassable" } },
      })
      assert.same({
        { 0, 0, 10, 1, "boundary" }, { 0, 7, 10, 8, "boundary" },
        { 0, 1, 1, 7, "boundary" }, { 9, 1, 10, 7, "boundary" },
        { 4, 5, 4, 7, "wall" },
        { 3, 2, 6, 4, "object", "t" },
        { 2, 5, 3, 5.5, "object", "bench", 2 },
        { 6, 5, 8, 7, "terrain", nil, 0.5 },
        { 1, 6, 2, 7, "terrain" },
      }, H.plain(obs))
      assert.same({
        { -0.25, -0.25, 10.25, 1.25, "boundary" }, { -0.25, 6.75, 10.25, 8.25, "boundary" },
        { -0.25, 0.75, 1.25, 7.25, "boundary" }, { 8.75, 0.75, 10.25, 7.25, "boundary" },
        { 3.75, 4.75, 4.25, 7.25, "wall" },
        { 2.75, 1.75, 6.25, 4.25, "object", "t" },
        { 1.75, 4.75, 3.25, 5.75, "object", "bench", 2 },
        { 6, 5, 8, 7, "terrain", nil, 0.5 },            -- a penalty area: as given
        { 0.75, 5.75, 2.25, 7.25, "terrain" },          -- impassable: inflated
      }, H.plain(inflated))
    end)

    it("rounds a width to whole 1/65536 units per side", function()
      local room = H.box_room(4, 4, { objects = {
        { id = 1, x0 = 2, y0 = 2, x1 = 3, y1 = 3, room = 1 } } })
      local _, inflated = rectplan.obstacles(room, { start = { 1.5, 1.5 }, goal = { 4, 4 },
        width = 0.3 })
      local half = math.floor(0.3 * 32768 + 0.5) / 65536
      assert.same({ 2 - half, 2 - half, 3 + half, 3 + half, "object", 1 },
        H.plain(inflated)[5])
    end)
  end)
end)
