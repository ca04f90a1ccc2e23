-- Building graphs: by hand (validation, clear errors, nothing half-built),
-- from a grid (boxes cover exactly the passable navcells, one surface per
-- box, portals on shared edges), point lookup against a scan, and saving
-- and loading as plain data.
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

local function two_rooms()
  local g = graph.new()
  local a = g:add_sector { x0 = 0, y0 = 0, x1 = 4, y1 = 4 }
  local b = g:add_sector { x0 = 4, y0 = 0, x1 = 8, y1 = 4 }
  return g, a, b
end

describe("graph by hand", function()
  it("finds the shared edge of two sectors for a portal", function()
    local g, a, b = two_rooms()
    local id = g:add_portal { a = a, b = b }
    assert.are.same({ 4, 0, 4, 4 }, g:portal(id).span)
    assert.are.equal(1, g:portal_count())
  end)

  it("refuses malformed pieces with clear errors and changes nothing", function()
    local g, a, b = two_rooms()
    local cases = {
      { function() g:add_sector { x0 = 2, y0 = 2, x1 = 6, y1 = 3 } end,
        "graph:add_sector: sector overlaps sector 1" },
      { function() g:add_sector { x0 = 0, y0 = 0, x1 = 0, y1 = 3 } end,
        "graph:add_sector: sector box is empty: x0 0, x1 0, y0 0, y1 3" },
      { function() g:add_sector { x0 = 0 / 0, y0 = 0, x1 = 1, y1 = 3 } end,
        "graph:add_sector: sector.x0 must be a number in [-8192, 8192], got nan" },
      { function() g:add_sector { x0 = 9, y0 = 0, x1 = 10, y1 = 3, surface = "ice" } end,
        "graph:add_sector: sector.surface must name a surface of this graph, got 'ice'" },
      { function() g:add_sector { x0 = 9, y0 = 0, x1 = 10, y1 = 3, colour = 1 } end,
        "graph:add_sector: unknown sector key 'colour'" },
      { function() g:add_portal { a = a, b = 7 } end,
        "graph:add_portal: portal.b must be a sector id in [1, 2], got 7" },
      { function() g:add_portal { a = a, b = b, cost = -1 } end,
        "graph:add_portal: portal.cost must be a number in [0, 2^30], got -1" },
      { function() g:add_portal { a = a, b = a } end,
        "graph:add_portal: portal.a and portal.b are the same sector 1" },
      { function() g:add_portal { a = a, b = b, span = { 4, 0, 4, 5 } } end,
        "graph:add_portal: portal.span does not lie on the shared edge of sectors 1 and 2" },
      { function() g:add_link { from = { 1, 1 }, to = { 20, 1 } } end,
        "graph:add_link: link.to point (20, 1) is in no sector" },
      { function() g:add_link { from = { 1, 1 }, to = { 5, 1 }, cost = -2 } end,
        "graph:add_link: link.cost must be a number in [0, 2^30], got -2" },
      { function() g:add_link { from = { 1, 1 }, exit = 99, kind = "teleport" } end,
        "graph:add_link: link.exit must be a portal id of this graph, got 99" },
      { function() g:add_link { from = { 1, 1 }, to = { 5, 1 }, needs = { "fly" } } end,
        "graph:add_link: needs[1] must name a ability of this graph, got 'fly'" },
      { function() g:add_waypath { points = { { 1, 1 } } } end,
        "graph:add_waypath: waypath.points must hold at least 2 points, got 1" },
      { function() g:find_path(1, 1, 5, 1, { class = "tank" }) end,
        "graph:find_path: options.class must name a class of this graph, got 'tank'" },
      { function() g:find_path(1, 1, 5, 1, { weight = 0.5 }) end,
        "graph:find_path: options.weight must be a number in [1, 10], got 0.5" },
      { function() g:find_path(1, 1, 1 / 0, 1) end,
        "graph:find_path: gx must be a number in [-8192, 8192], got inf" },
    }
    for _, c in ipairs(cases) do
      local ok, err = pcall(c[1])
      assert.is_false(ok)
      assert.are.equal(c[2], (tostring(err):gsub("^[^:]+:%d+: ", "")))
    end
    assert.are.equal(2, g:sector_count())
    assert.are.equal(0, g:portal_count())
  end)

  it("refuses bad options to graph.new", function()
    assert.has_error(function() graph.new { surfaces = { "a", "a" } } end,
      "wayfinder.graph.new: options.surfaces names 'a' twice")
    assert.has_error(function()
      graph.new { surfaces = { "a" }, classes = { { name = "x", surfaces = { a = -1 } } } }
    end, "wayfinder.graph.new: options.classes[1].surfaces.a must be an integer in [0, 1000], "
      .. "got -1")
    assert.has_error(function() graph.new { waypath_bias = { 5, 4 } } end,
      "wayfinder.graph.new: options.waypath_bias must be {num, den} with integers "
      .. "1 <= num <= den <= 1000, got {5, 4}")
  end)

  it("locates points as a scan over every sector does", function()
    for seed = 1, 20 do
      reseed(seed)
      local g = graph.new()
      for _, b in ipairs(brute.random_boxes(30, 20, random(1, 40), random)) do
        if random() < 0.8 then g:add_sector { x0 = b[1], y0 = b[2], x1 = b[3], y1 = b[4] } end
      end
      for _ = 1, 200 do
        local x, y = random(-8, 32 * 8) / 8, random(-8, 22 * 8) / 8
        assert.are.equal(brute.sector_of(g, x, y), g:sector_at(x, y))
      end
    end
  end)
end)

describe("graph from a grid", function()
  local ROWS = {
    "..........",
    ".@@@@@@@..",
    ".@......@.",
    ".@..@@..@.",
    "....@.....",
    "@@@@@@@@@@",
    "...@......",
  }

  it("covers exactly the passable navcells with boxes of one surface", function()
    local grid = wayfinder.grid.from_ascii(table.concat(ROWS, "\n"))
    local surf = { "rrrrrggggg", "rrrrrggggg", "rrrrrggggg", "rrrrrggggg",
      "rrrrrggggg", "gggggggggg", "ggggggrrrr" }
    local g = graph.from_grid(grid, { surfaces = surf, legend = { r = "road", g = "grass" } })
    local st = g:stats()
    local passable = 0
    for y = 0, grid:height() - 1 do
      for x = 0, grid:width() - 1 do
        local id = g:sector_at(x + 0.5, y + 0.5)
        if grid:is_passable(x, y) then
          passable = passable + 1
          assert.is_number(id)
          local want = surf[y + 1]:sub(x + 1, x + 1) == "r" and "road" or "grass"
          assert.are.equal(want, g:sector(id).surface)
        else
          assert.is_nil(id)
        end
      end
    end
    assert.are.equal(passable, st.navcells)
    assert.is_true(st.sectors < passable)
    -- the wall row splits the map: three regions (top, bottom left, bottom right)
    assert.are.equal(3, st.regions)
    local _, why = g:find_path(0.5, 0.5, 0.5, 6.5)
    assert.are.equal("unreachable", why)
    -- each portal lies on the shared edge of its sectors
    for _, id in ipairs(g:portals()) do
      local p = g:portal(id)
      local a, b = g:sector(p.a), g:sector(p.b)
      for _, pt in ipairs({ { p.span[1], p.span[2] }, { p.span[3], p.span[4] } }) do
        for _, s in ipairs({ a, b }) do
          assert.is_true(pt[1] >= s.x0 and pt[1] <= s.x1 and pt[2] >= s.y0 and pt[2] <= s.y1)
        end
      end
    end
  end)

  it("decomposes into quadtree leaves: aligned power-of-two squares, clipped", function()
    reseed(11)
    for _ = 1, 5 do
      local w, h = random(5, 30), random(5, 30)
      local rows = {}
      for y = 1, h do
        local r = {}
        for x = 1, w do r[x] = random() < 0.25 and "@" or "." end
        rows[y] = table.concat(r)
      end
      local grid = wayfinder.grid.from_ascii(table.concat(rows, "\n"))
      local q = graph.from_grid(grid, { decomposition = "quadtree" })
      local b = graph.from_grid(grid)
      assert.are.equal("quadtree", q:stats().decomposition)
      assert.are.equal(b:stats().navcells, q:stats().navcells)
      assert.are.equal(b:stats().regions, q:stats().regions)
      for i = 1, q:sector_count() do
        local s = q:sector(i)
        local side = math.max(s.x1 - s.x0, s.y1 - s.y0)
        local p2 = 1
        while p2 < side do p2 = p2 * 2 end
        -- the leaf's square has a power-of-two side and is aligned to it
        assert.are.equal(0, s.x0 % p2)
        assert.are.equal(0, s.y0 % p2)
        assert.is_true((s.x1 - s.x0 == p2 or s.x1 == w) and (s.y1 - s.y0 == p2 or s.y1 == h))
      end
      for y = 0, h - 1 do
        for x = 0, w - 1 do
          assert.are.equal(grid:is_passable(x, y), q:sector_at(x + 0.5, y + 0.5) ~= nil)
        end
      end
    end
  end)

  it("cuts long shared edges into spans of at most max_span navcells", function()
    local grid = wayfinder.grid.from_ascii(("." .. ("@"):rep(19) .. "\n"):rep(1)
      .. ("."):rep(20) .. "\n")
    for _, span in ipairs({ 1, 3, 8 }) do
      local g = graph.from_grid(grid, { max_span = span })
      for _, id in ipairs(g:portals()) do
        local p = g:portal(id).span
        assert.is_true(math.abs(p[3] - p[1]) + math.abs(p[4] - p[2]) <= span)
      end
    end
  end)

  it("keeps box sides within max_box", function()
    local grid = wayfinder.grid.new(40, 23)
    for _, d in ipairs({ "boxes", "quadtree" }) do
      for _, m in ipairs({ 1, 5, 16 }) do
        local g = graph.from_grid(grid, { max_box = m, decomposition = d })
        local cells = 0
        for i = 1, g:sector_count() do
          local s = g:sector(i)
          assert.is_true(s.x1 - s.x0 <= m and s.y1 - s.y0 <= m)
          cells = cells + (s.x1 - s.x0) * (s.y1 - s.y0)
        end
        assert.are.equal(40 * 23, cells)
      end
    end
  end)

  it("refuses bad options", function()
    local grid = wayfinder.grid.from_ascii("..\n..")
    assert.has_error(function() graph.from_grid(grid, { max_box = 1.5 }) end,
      "wayfinder.graph.from_grid: options.max_box must be an integer in [1, 16384], got 1.5")
    assert.has_error(function() graph.from_grid(grid, { max_span = 0 }) end,
      "wayfinder.graph.from_grid: options.max_span must be an integer in [1, 16384], got 0")
    assert.has_error(function() graph.from_grid(grid, { class = "tank" }) end,
      "wayfinder.graph.from_grid: options.class must name a class of the grid, got 'tank'")
    assert.has_error(function()
      graph.from_grid(grid, { surfaces = { "ab", "cc" }, legend = { a = "x", c = "y" } })
    end, "wayfinder.graph.from_grid: options.surfaces[1] has 'b' at 2, not in options.legend")
  end)
end)

describe("graph save and load", function()
  local town = assert(loadfile("examples/town.lua"))("module")

  it("round-trips to plain data with the same answers", function()
    local g = town.build()
    g:add_temporary_link { kind = "jump", from = { 51, 9 }, to = { 36, 11 }, data = { v = 3 } }
    local saved = g:save()
    local h = graph.load(saved)
    assert.are.same(saved, h:save())
    reseed(5)
    for _ = 1, 40 do
      local sx, sy = random(0, 60 * 4) / 4, random(0, 30 * 4) / 4
      local gx, gy = random(0, 60 * 4) / 4, random(0, 30 * 4) / 4
      for _, class in ipairs({ "person", "car" }) do
        local o = { class = class, abilities = { "jump" } }
        local r1, w1 = g:find_path(sx, sy, gx, gy, o)
        local r2, w2 = h:find_path(sx, sy, gx, gy, o)
        assert.are.same(r1, r2)
        assert.are.equal(w1, w2)
      end
    end
  end)

  it("refuses corrupt input", function()
    local g = town.build()
    local function corrupt(edit)
      local t = g:save()
      edit(t)
      local ok, err = pcall(graph.load, t)
      assert.is_false(ok)
      return (tostring(err):gsub("^[^:]+:%d+: ", ""))
    end
    assert.are.equal("wayfinder.graph.load: data must be a table, got 3",
      select(2, pcall(graph.load, 3)):gsub("^[^:]+:%d+: ", ""))
    assert.are.equal("wayfinder.graph.load: data is not a saved wayfinder graph of version 1",
      corrupt(function(t) t.version = 9 end))
    assert.are.equal("wayfinder.graph.load: portal 1 leads to sector 99, which does not exist",
      corrupt(function(t) t.portals[1].b = 99 end))
    assert.are.equal("wayfinder.graph.load: portal 1 has a negative or bad cost -1",
      corrupt(function(t) t.portals[1].cost = -1 end))
    assert.are.equal("wayfinder.graph.load: sectors 1 and 4 overlap",
      corrupt(function(t) t.sectors[4][4] = 11 end))
    assert.are.equal("wayfinder.graph.load: sector 2 has an unknown surface 'ice'",
      corrupt(function(t) t.sectors[2][5] = "ice" end))
    -- two teleports naming each other as exits
    local msg = corrupt(function(t)
      local a, b
      for _, p in ipairs(t.portals) do
        if p.kind == "teleport" then
          if a then b = p else a = p end
        end
      end
      a.exit, b.exit = b.id, a.id
    end)
    assert.truthy(msg:find("teleport cycle", 1, true), msg)
  end)
end)
