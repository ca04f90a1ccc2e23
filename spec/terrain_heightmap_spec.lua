-- Heightmap terrain: each navcell's height, slope and depth follow the
-- documented integer formula; class limits and the circular clearance
-- filter decide passability as documented; and after any sequence of edits
-- (heights, water, terrain bits, obstructions, inside and outside batches)
-- the grid equals one built from scratch with the final state, over every
-- navcell and class, on seeded random heightmaps.
local wayfinder = require("wayfinder")
local prng = require("support.prng")

local floor = math.floor
local ONE = 65536

-- floor(sqrt(v)) for an integer v below 2^53
local function isqrt(v)
  local r = floor(math.sqrt(v))
  while r * r > v do r = r - 1 end
  while (r + 1) * (r + 1) <= v do r = r + 1 end
  return r
end

-- truncation toward zero of a / b (b > 0)
local function trunc_div(a, b)
  if a >= 0 then return floor(a / b) end
  return -floor(-a / b)
end

-- The docs' formula, in Q16.16 integers (heights small enough that every
-- product stays exact below 2^53). hm: {tile, width, heights (Q16.16 ints,
-- row-major), water}. Returns height, slope, depth in Q16.16 units.
local function sample(hm, x, y)
  local t = hm.tile
  local d = 2 * t
  local i, j = floor(x / t), floor(y / t)
  local a, b = 2 * (x - i * t) + 1, 2 * (y - j * t) + 1
  local row = hm.width + 1
  local function c(ci, cj) return hm.q[cj * row + ci + 1] end
  local h00, h10, h01, h11 = c(i, j), c(i + 1, j), c(i, j + 1), c(i + 1, j + 1)
  local num = h00 * (d - a) * (d - b) + h10 * a * (d - b) + h01 * (d - a) * b + h11 * a * b
  local h = floor(num / (d * d))
  local gx = trunc_div((h10 - h00) * (d - b) + (h11 - h01) * b, d * t)
  local gy = trunc_div((h01 - h00) * (d - a) + (h11 - h10) * a, d * t)
  local depth = hm.water_q - h
  if depth < 0 then depth = 0 end
  return h, isqrt(gx * gx + gy * gy), depth
end

-- A random heightmap for a w x h grid: heights multiples of 1/256 in
-- [-span, span].
local function random_heightmap(rand, w, h, tile, span)
  local tw, th = floor((w + tile - 1) / tile), floor((h + tile - 1) / tile)
  local heights, q = {}, {}
  for k = 1, (tw + 1) * (th + 1) do
    local v = rand.int(-span * 256, span * 256)
    heights[k] = v / 256
    q[k] = v * 256
  end
  local wv = rand.int(-span * 64, span * 64)
  return { tile = tile, width = tw, height = th, heights = heights, water = wv / 256,
           q = q, water_q = wv * 256 }
end

local function copy_map(hm)
  local heights = {}
  for k, v in ipairs(hm.heights) do heights[k] = v end
  return { tile = hm.tile, width = hm.width, height = hm.height, heights = heights,
           water = hm.water }
end

local CLASSES = {
  { name = "walk", max_slope = 0.75, max_water_depth = 0.25 },
  { name = "wide", clearance = 2, max_slope = 1 },
  { name = "round", clearance = 3, max_slope = 1.25, clearance_shape = "circle" },
  { name = "ship", clearance = 1, min_water_depth = 0.5 },
  { name = "amphibious", min_water_depth = 0, max_water_depth = 4 },
  { name = "plain", clearance = 1 },
}

-- Every navcell and class of a and b agree (passability and terrain).
local function assert_same_grid(a, b, what)
  local w, h = a:width(), a:height()
  for _, c in ipairs(a:classes()) do
    local sa, sb = a:to_ascii(c.name), b:to_ascii(c.name)
    if sa ~= sb then
      error(("%s: class %s differs\nincremental:\n%s\nfrom scratch:\n%s"):format(
        what, c.name, sa, sb), 2)
    end
  end
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      local h1, s1, d1 = a:terrain(x, y)
      local h2, s2, d2 = b:terrain(x, y)
      if h1 ~= h2 or s1 ~= s2 or d1 ~= d2 then
        error(("%s: terrain of (%d, %d) differs"):format(what, x, y), 2)
      end
    end
  end
end

describe("heightmap terrain", function()
  it("gives each navcell the documented height, slope and depth", function()
    local rand = prng.new(7103)
    for round = 1, 6 do
      local w, h = rand.int(5, 23), rand.int(5, 19)
      local tile = rand.int(1, 6)
      local g = wayfinder.grid.new(w, h)
      local hm = random_heightmap(rand, w, h, tile, 40)
      g:set_heightmap(copy_map(hm))
      for y = 0, h - 1 do
        for x = 0, w - 1 do
          local eh, es, ed = sample(hm, x, y)
          local gh, gs, gd = g:terrain(x, y)
          assert.are.equal(eh / ONE, gh, ("round %d height (%d, %d)"):format(round, x, y))
          assert.are.equal(es / ONE, gs, ("round %d slope (%d, %d)"):format(round, x, y))
          assert.are.equal(ed / ONE, gd, ("round %d depth (%d, %d)"):format(round, x, y))
        end
      end
    end
  end)

  it("interpolates a plane exactly: constant slope, depth below the water", function()
    -- height = x / 4 navcells along x (1 per tile of 4): slope 1/4 everywhere
    local g = wayfinder.grid.new(8, 4)
    g:set_heightmap { tile = 4, width = 2, height = 1, heights = { 0, 1, 2, 0, 1, 2 }, water = 1 }
    for x = 0, 7 do
      local hgt, slope, depth = g:terrain(x, 2)
      assert.are.equal((2 * x + 1) / 8, hgt)
      assert.are.equal(0.25, slope)
      assert.are.equal(math.max(0, 1 - (2 * x + 1) / 8), depth)
    end
  end)

  it("blocks a navcell for a class exactly when it breaks a limit", function()
    local rand = prng.new(99)
    local g = wayfinder.grid.new(20, 16, { classes = CLASSES })
    local hm = random_heightmap(rand, 20, 16, 4, 3)
    g:set_heightmap(copy_map(hm))
    local blocked_somewhere, open_somewhere = false, false
    for _, c in ipairs(CLASSES) do
      if (c.clearance or 0) == 0 then
        for y = 0, 15 do
          for x = 0, 19 do
            local _, s, d = sample(hm, x, y)
            local ok = true
            if c.max_slope and s > c.max_slope * ONE then ok = false end
            if c.min_water_depth and d < c.min_water_depth * ONE then ok = false end
            if c.max_water_depth and d > c.max_water_depth * ONE then ok = false end
            assert.are.equal(ok, g:is_passable(x, y, c.name), c.name)
            -- the terrain bit is the one set_passable sets: untouched
            assert.is_true(g:terrain_passable(x, y, c.name))
            if ok then open_somewhere = true else blocked_somewhere = true end
          end
        end
      end
    end
    assert.is_true(blocked_somewhere and open_somewhere)
  end)

  it("applies the circular filter dx^2 + dy^2 <= c (c + 1) to blocked terrain", function()
    local rand = prng.new(4242)
    for c = 1, 5 do
      local w, h = 23, 17
      local g = wayfinder.grid.new(w, h, {
        classes = { { name = "base" }, { name = "round", clearance = c, clearance_shape = "circle" } },
        border = rand.int(0, 1) })
      for _ = 1, 12 do
        g:set_passable(rand.int(0, w - 1), rand.int(0, h - 1), false)
      end
      local function blocked(x, y)
        if x < 0 or y < 0 or x >= w or y >= h then return true end
        -- the base class has clearance 0 and no obstructions: its passability
        -- is exactly "terrain and border allow it"
        return not g:is_passable(x, y, "base")
      end
      local squares_differ = false
      for y = 0, h - 1 do
        for x = 0, w - 1 do
          local want = true
          for dy = -c, c do
            for dx = -c, c do
              if dx * dx + dy * dy <= c * (c + 1) and blocked(x + dx, y + dy) then want = false end
            end
          end
          assert.are.equal(want, g:is_passable(x, y, "round"), ("c=%d (%d, %d)"):format(c, x, y))
        end
      end
      local sq = wayfinder.grid.new(w, h, { classes = { { name = "round", clearance = c } } })
      if c >= 2 then
        for y = 0, h - 1 do
          for x = 0, w - 1 do
            if g:terrain_passable(x, y) == false then sq:set_passable(x, y, false) end
          end
        end
        squares_differ = squares_differ or sq:to_ascii() ~= g:to_ascii("round")
      end
      if c >= 2 and g:border() == 0 then assert.is_true(squares_differ, "c=" .. c) end
    end
  end)

  it("equals a grid built from scratch after random edits", function()
    for seed = 1, 5 do
      local rand = prng.new(seed * 7919)
      local w, h = rand.int(24, 40), rand.int(20, 36)
      local tile = rand.int(2, 5)
      local options = { classes = CLASSES, border = rand.int(0, 2),
                        border_shape = rand.int(0, 1) == 1 and "circle" or "square" }
      local g = wayfinder.grid.new(w, h, options)
      local hm = random_heightmap(rand, w, h, tile, 4)
      g:set_heightmap(copy_map(hm))
      local blocked, shapes = {}, {}
      for _ = 1, 6 do
        local x, y = rand.int(0, w - 1), rand.int(0, h - 1)
        g:set_passable(x, y, false)
        blocked[#blocked + 1] = { x, y }
      end
      for _ = 1, 3 do
        local s = { x = rand.int(2, w - 3) + 0.5, y = rand.int(2, h - 3) + 0.5,
                    half_width = 1.5, half_height = rand.int(2, 4) / 2 }
        shapes[#shapes + 1] = { s = s, id = g:add_obstruction(s) }
      end
      local versions_moved = 0
      local function edit()
        local kind = rand.int(1, 10)
        if kind <= 7 then
          local cx, cy = rand.int(0, hm.width), rand.int(0, hm.height)
          local v = rand.int(-4 * 256, 4 * 256) / 256
          local before = g:version()
          g:set_height(cx, cy, v)
          hm.heights[cy * (hm.width + 1) + cx + 1] = v
          if g:version() ~= before then versions_moved = versions_moved + 1 end
          assert.is_true(g:version() - before <= 1)
        elseif kind == 8 then
          hm.water = rand.int(-2 * 256, 2 * 256) / 256
          g:set_water(hm.water)
        elseif kind == 9 and #shapes > 0 then
          local k = rand.int(1, #shapes)
          g:remove_obstruction(shapes[k].id)
          table.remove(shapes, k)
        else
          local x, y = rand.int(0, w - 1), rand.int(0, h - 1)
          g:set_passable(x, y, false)
          blocked[#blocked + 1] = { x, y }
        end
      end
      for _ = 1, 30 do edit() end
      g:batch(function() for _ = 1, 10 do edit() end end)
      for _ = 1, 10 do edit() end
      assert.is_true(versions_moved > 0)

      local fresh = wayfinder.grid.new(w, h, options)
      for _, b in ipairs(blocked) do fresh:set_passable(b[1], b[2], false) end
      for _, o in ipairs(shapes) do fresh:add_obstruction(o.s) end
      fresh:set_heightmap(copy_map(hm))
      assert_same_grid(g, fresh, "seed " .. seed)
      assert.are.same(copy_map(hm), g:heightmap())
      -- region labels follow the edits too
      for _, c in ipairs(CLASSES) do
        assert.are.same(fresh:regions(c.name).components, g:regions(c.name).components)
      end
    end
  end)

  it("changes nothing for classes without limits, and is flat and dry without a heightmap", function()
    local text = "........\n..@.....\n........\n.....@..\n........\n"
    local plain = { classes = { { name = "a" }, { name = "b", clearance = 1 } } }
    local before = wayfinder.grid.from_ascii(text, plain)
    local g = wayfinder.grid.from_ascii(text, plain)
    local v = g:version()
    g:set_heightmap { tile = 2, width = 4, height = 3,
                      heights = { 9, -9, 9, -9, 9, 0, 5, 0, 5, 0, -3, 3, -3, 3, -3 ,
                                  1, 2, 3, 4, 5 }, water = 1 }
    assert.are.equal(v, g:version())
    assert.are.equal(before:to_ascii("a"), g:to_ascii("a"))
    assert.are.equal(before:to_ascii("b"), g:to_ascii("b"))

    local limited = wayfinder.grid.new(6, 4, { classes = {
      { name = "walk", max_slope = 0, max_water_depth = 0 }, { name = "ship", min_water_depth = 1 } } })
    assert.are.same({ nil, "no_heightmap" }, { limited:heightmap() })
    assert.are.same({ 0, 0, 0 }, { limited:terrain(3, 2) })
    assert.are.equal(("......\n"):rep(4), limited:to_ascii("walk"))
    assert.are.equal(("@@@@@@\n"):rep(4), limited:to_ascii("ship"))
    limited:set_heightmap { tile = 3, width = 2, height = 2, heights = { -2, -2, -2, -2, -2, -2, -2, -2, -2 } }
    assert.are.equal(("@@@@@@\n"):rep(4), limited:to_ascii("walk"))
    assert.are.equal(("......\n"):rep(4), limited:to_ascii("ship"))
    limited:set_heightmap(nil)
    assert.are.equal(("......\n"):rep(4), limited:to_ascii("walk"))
    assert.are.equal(("@@@@@@\n"):rep(4), limited:to_ascii("ship"))
  end)

  it("reports the terrain keys of a class only when they are set", function()
    local g = wayfinder.grid.new(4, 4, { classes = CLASSES })
    local cls = g:classes()
    assert.are.same({ name = "walk", clearance = 0, max_slope = 0.75, max_water_depth = 0.25 }, cls[1])
    assert.are.same({ name = "round", clearance = 3, max_slope = 1.25, clearance_shape = "circle" }, cls[3])
    assert.are.same({ name = "ship", clearance = 1, min_water_depth = 0.5 }, cls[4])
    assert.are.same({ name = "plain", clearance = 1 }, cls[6])
  end)
end)
