-- Clearance: a class of clearance c blocks a navcell iff a terrain-blocked
-- navcell (or the outside of the grid, or the forced border) lies in the
-- (2c+1) x (2c+1) square centred on it.
local prng = require("support.prng")   -- the same numbers on every Lua version
local rand = prng.new(1)  -- reseeded by each run below
local wayfinder = require("wayfinder")
local brute = require("support.brute")

local grid = wayfinder.grid

local function lines(t) return table.concat(t, "\n") .. "\n" end

local CLASSES = {
  { name = "c0", clearance = 0 },
  { name = "c1", clearance = 1 },
  { name = "c2", clearance = 2 },
  { name = "c3", clearance = 3 },
}

describe("clearance", function()
  it("expands one blocked navcell into a square, the grid edge into a ring", function()
    local g = grid.new(11, 7, { classes = CLASSES })
    g:set_passable(2, 3, false)
    assert.are.equal(lines({
      "...........",
      "...........",
      "...........",
      "..@........",
      "...........",
      "...........",
      "...........",
    }), g:to_ascii("c0"))
    assert.are.equal(lines({
      "@@@@@@@@@@@",
      "@.........@",
      "@@@@......@",
      "@@@@......@",
      "@@@@......@",
      "@.........@",
      "@@@@@@@@@@@",
    }), g:to_ascii("c1"))
    assert.are.equal(lines({
      "@@@@@@@@@@@",
      "@@@@@@@@@@@",
      "@@@@@....@@",
      "@@@@@....@@",
      "@@@@@....@@",
      "@@@@@@@@@@@",
      "@@@@@@@@@@@",
    }), g:to_ascii("c2"))
    -- clearance 3 leaves row 3, columns 3..7, minus what (2, 3) covers
    assert.are.equal(lines({
      "@@@@@@@@@@@",
      "@@@@@@@@@@@",
      "@@@@@@@@@@@",
      "@@@@@@..@@@",
      "@@@@@@@@@@@",
      "@@@@@@@@@@@",
      "@@@@@@@@@@@",
    }), g:to_ascii("c3"))
  end)

  it("uses a square, not a disc", function()
    local g = grid.new(15, 15, { classes = { { name = "c3", clearance = 3 } } })
    g:set_passable(7, 7, false)
    assert.is_false(g:is_passable(10, 10, "c3")) -- corner of the 7 x 7 square
    assert.is_false(g:is_passable(4, 10, "c3"))
    assert.is_true(g:is_passable(11, 7, "c3"))
    assert.is_true(g:is_passable(10, 11, "c3"))
    assert.is_true(g:is_passable(3, 3, "c3"))
    assert.is_false(g:is_passable(2, 3, "c3")) -- within 3 of the left edge
  end)

  it("leaves only the centre of a 9 x 9 grid for clearance 4, nothing for 5", function()
    local g = grid.new(9, 9, { classes = {
      { name = "c4", clearance = 4 },
      { name = "c5", clearance = 5 },
    } })
    local want = {}
    for y = 0, 8 do want[#want + 1] = y == 4 and "@@@@.@@@@" or "@@@@@@@@@" end
    assert.are.equal(lines(want), g:to_ascii("c4"))
    assert.are.equal(("@@@@@@@@@\n"):rep(9), g:to_ascii("c5"))
  end)

  it("accepts the largest clearance, 255", function()
    local g = grid.new(600, 520, { classes = { { name = "huge", clearance = 255 } } })
    assert.is_true(g:is_passable(255, 255, "huge"))
    assert.is_true(g:is_passable(344, 264, "huge"))
    assert.is_false(g:is_passable(345, 264, "huge"))
    assert.is_false(g:is_passable(300, 265, "huge"))
    assert.is_false(g:is_passable(254, 300, "huge"))
  end)

  it("expands each class from its own terrain", function()
    local g = grid.new(9, 9, { classes = {
      { name = "land", clearance = 1 },
      { name = "sea", clearance = 1 },
    } })
    g:set_passable(4, 4, false, "land")
    assert.is_false(g:is_passable(3, 3, "land"))
    assert.is_true(g:is_passable(3, 3, "sea"))
    assert.is_true(g:is_passable(4, 4, "sea"))
    g:set_passable(4, 4, true, "land")
    assert.is_true(g:is_passable(3, 3, "land"))
  end)

  it("unblocking restores the navcells no other blocked navcell covers", function()
    local g = grid.new(12, 8, { classes = { { name = "c1", clearance = 1 } } })
    g:set_passable(4, 4, false)
    g:set_passable(6, 4, false)
    g:set_passable(4, 4, true)
    assert.are.equal(lines({
      "@@@@@@@@@@@@",
      "@..........@",
      "@..........@",
      "@....@@@...@",
      "@....@@@...@",
      "@....@@@...@",
      "@..........@",
      "@@@@@@@@@@@@",
    }), g:to_ascii("c1"))
  end)

  describe("matches a brute-force expansion on random grids", function()
    local function check(g, w, h, terrain, border)
      for k, c in ipairs(CLASSES) do
        local function blocked_terrain(x, y)
          return terrain[k][y * w + x + 1] or border(x, y)
        end
        local want = brute.picture(w, h, brute.clearance(w, h, c.clearance, blocked_terrain))
        assert.are.equal(want, g:to_ascii(c.name), ("%s on %dx%d"):format(c.name, w, h))
      end
    end

    it("with per-class terrain set navcell by navcell", function()
      rand = prng.new(20240601)
      for _ = 1, 60 do
        local w, h = rand.int(1, 28), rand.int(1, 28)
        local b = rand.int(0, 2)
        local shape = rand.float() < 0.5 and "square" or "circle"
        local g = grid.new(w, h, { classes = CLASSES, border = b, border_shape = shape })
        local density = ({ 0.02, 0.1, 0.3 })[rand.int(3)]
        local terrain = { {}, {}, {}, {} }
        for y = 0, h - 1 do
          for x = 0, w - 1 do
            if rand.float() < density then
              if rand.float() < 0.5 then
                g:set_passable(x, y, false)
                for k = 1, 4 do terrain[k][y * w + x + 1] = true end
              else
                local k = rand.int(4)
                g:set_passable(x, y, false, CLASSES[k].name)
                terrain[k][y * w + x + 1] = true
              end
            end
          end
        end
        check(g, w, h, terrain, brute.border_blocked(w, h, b, shape))
        -- then unblock some navcells again
        for y = 0, h - 1 do
          for x = 0, w - 1 do
            if rand.float() < 0.3 then
              g:set_passable(x, y, true)
              for k = 1, 4 do terrain[k][y * w + x + 1] = nil end
            end
          end
        end
        check(g, w, h, terrain, brute.border_blocked(w, h, b, shape))
        g:close()
      end
    end)

    it("when loaded from ASCII with several classes", function()
      rand = prng.new(777)
      for _ = 1, 30 do
        local w, h = rand.int(1, 40), rand.int(1, 25)
        local text = brute.random_ascii(w, h, ({ 0.05, 0.2, 0.45 })[rand.int(3)])
        local g = grid.from_ascii(text, { classes = CLASSES })
        local cells = {}
        local y = 0
        for row in text:gmatch("[^\n]+") do
          for x = 0, w - 1 do
            if row:sub(x + 1, x + 1) == "@" then cells[y * w + x + 1] = true end
          end
          y = y + 1
        end
        check(g, w, h, { cells, cells, cells, cells }, function() return false end)
        g:close()
      end
    end)
  end)
end)
