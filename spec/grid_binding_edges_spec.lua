-- Grid binding paths the other specs leave out: a square clearance named
-- outright, names and paths holding a NUL byte, a heightmap with its tile
-- given, and starts off the grid for nearest_reachable and find_path.
local grid = require("wayfinder.grid")

local function err(want, f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok)
  e = tostring(e):gsub("^[^\n]-:%d+: ", "")
  assert.are.equal(want, e:sub(1, #want))
end

describe("grid binding edges", function()
  it("takes clearance_shape 'square' as the default square clearance", function()
    local function made(shape)
      local g = grid.new(11, 11, { classes = { { name = "big", clearance = 2,
        clearance_shape = shape } } })
      g:set_passable(5, 5, false)
      return g:to_ascii("big")
    end
    local square = made("square")
    assert.are.equal(made(nil), square)
    -- the square filter blocks the whole 5 x 5 block round (5, 5); the
    -- round one leaves its corners free
    local ring = "@@@@@@@@@@@\n@@@@@@@@@@@\n@@.......@@\n"
    local full = "@@.@@@@@.@@\n"
    local round = "@@..@@@..@@\n"
    assert.are.equal(ring .. full:rep(5) .. ring:sub(25) .. ring:sub(1, 24), square)
    assert.are.equal(ring .. round .. full:rep(3) .. round .. ring:sub(25) .. ring:sub(1, 24),
      made("circle"))
    err("wayfinder.grid.new: options.classes[1].clearance_shape must be 'square' or 'circle', "
      .. "got 'hex'", grid.new, 4, 4, { classes = { { name = "a", clearance_shape = "hex" } } })
  end)

  it("refuses a class name or a map path holding a NUL byte", function()
    err("wayfinder.grid.new: options.classes[1].name must not contain a NUL byte", grid.new,
      4, 4, { classes = { { name = "a\0b" } } })
    err("wayfinder.grid.load_movingai: path must not contain a NUL byte",
      grid.load_movingai, "spec/data/maps/x\0.map")
  end)

  it("reads a heightmap's tile, and refuses one out of range", function()
    local g = grid.new(4, 4, { classes = { { name = "walker", max_slope = 1 } } })
    local flat = { tile = 2, width = 2, height = 2, heights = { 0, 0, 0, 0, 0, 0, 0, 0, 0 } }
    g:set_heightmap(flat)
    assert.are.equal("....\n....\n....\n....\n", g:to_ascii("walker"))
    local steep = { tile = 2, width = 2, height = 2,
      heights = { 0, 0, 0, 0, 0, 0, 50, 50, 50 } }
    g:set_heightmap(steep)
    assert.are.equal("....\n....\n@@@@\n@@@@\n", g:to_ascii("walker"))
    err("grid:set_heightmap: map.tile must be an integer in [1, 256], got 0", g.set_heightmap,
      g, { tile = 0, width = 1, height = 1, heights = { 0, 0, 0, 0 } })
    assert.are.equal("....\n....\n@@@@\n@@@@\n", g:to_ascii("walker"))
  end)

  it("answers start_outside for starts past any edge", function()
    local g = grid.new(5, 4, { classes = { { name = "a" }, { name = "b", clearance = 1 } } })
    for _, s in ipairs { { -0.5, 1 }, { 1, -0.5 }, { 5.5, 1 }, { 1, 4.5 } } do
      assert.are.same({ nil, "start_outside" },
        { g:nearest_reachable(s[1], s[2], 2.5, 2.5, { class = "b" }) })
      local path, why = g:find_path(s[1], s[2], 2.5, 2.5, { class = "b" })
      assert.is_nil(path)
      assert.are.equal("start_outside", why)
    end
    local x, y = g:nearest_reachable(1.5, 1.5, 4.5, 3.5, { class = "b" })
    assert.are.same({ 3, 2 }, { x, y })
    err("grid:nearest_reachable: options.class must name a class of this grid, got 'c'",
      g.nearest_reachable, g, 0.5, 0.5, 4.5, 3.5, { class = "c" })
  end)
end)
