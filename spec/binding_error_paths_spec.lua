-- Error paths of the binding that the other specs do not reach (measured
-- with make coverage): each bad call raises a message naming the function
-- and the argument, and the object still answers as before.
local wayfinder = require("wayfinder")
local core = require("wayfinder.core")

local function err(f, want)
  local ok, e = pcall(f)
  assert.is_false(ok)
  e = tostring(e):gsub("^[^\n]-:%d+: ", "")
  assert.are.equal(want, e:sub(1, #want))
end

describe("walker argument errors", function()
  local F = 65536
  it("set_box, place and set_route refuse bad boxes, positions and routes", function()
    local w = core.walker_new(6, 4)
    w:add_person(1, F + F / 2, F + F / 2, F / 4, F / 8, 0)
    err(function() w:set_box(1, 3 * F, 0, 2 * F, F) end,
      "walker:set_box: the box must have x0 <= x1 and y0 <= y1")
    err(function() w:place(1, 6 * F, F, 0) end, "walker:place: position (")
    err(function() w:place(1, F, -1, 0) end, "walker:place: position (")
    err(function() w:set_route(1, "a", 0) end,
      "walker:set_route: points must be a table of fixed point x, y pairs, got 'a'")
    err(function() w:set_route(1, { F }, 0) end, "walker:set_route: points must hold 1 to ")
    err(function() w:set_route(1, { F, F, F }, 0) end, "walker:set_route: points must hold 1 to ")
    -- the person is where it was, not walking
    local x, y, _, walking = w:person(1)
    assert.are.equal(F + F / 2, x)
    assert.are.equal(F + F / 2, y)
    assert.is_false(walking)
    w:close()
    err(function() w:person(1) end, "walker:person: the walker is closed")
  end)
end)

describe("queue argument errors", function()
  local function setup()
    local g = wayfinder.grid.new(16, 8, { classes = { { name = "a" }, { name = "b",
      clearance = 1 } } })
    return g, wayfinder.queue.new(g)
  end

  it("submit refuses unknown classes and algorithms, and shared with caps", function()
    local g, q = setup()
    err(function() q:submit { sx = 0.5, sy = 0.5, gx = 9.5, gy = 3.5, class = "c" } end,
      "queue:submit: request.class must name a class of the queue's grid, got 'c'")
    err(function() q:submit { sx = 0.5, sy = 0.5, gx = 9.5, gy = 3.5, algorithm = "dfs" } end,
      "queue:submit: request.algorithm must be 'astar', 'jps' or 'auto', got 'dfs'")
    err(function()
      q:submit { sx = 0.5, sy = 0.5, gx = 9.5, gy = 3.5, shared = true, max_expansions = 5 }
    end, "queue:submit: a shared request takes no max_expansions or partial")
    g:set_cost(3, 3, 5)
    err(function() q:submit { sx = 0.5, sy = 0.5, gx = 9.5, gy = 3.5, algorithm = "jps" } end,
      "queue:submit: request.algorithm 'jps' needs a grid whose costs are all 1")
    assert.are.equal(0, q:pending())
    local h = q:submit { sx = 0.5, sy = 0.5, gx = 9.5, gy = 3.5, algorithm = "auto",
      class = "b" }
    q:run()
    assert.are.equal("done", h:status())
  end)

  it("a handle names the closed queue, and prints as released once collected", function()
    local _, q = setup()
    local h = q:submit { sx = 0.5, sy = 0.5, gx = 9.5, gy = 3.5 }
    assert.is_truthy(tostring(h):find("^wayfinder%.Request"))
    q:close()
    err(function() h:status() end, "handle:status: the queue is closed")
    assert.are.equal("wayfinder.Request (released)", tostring(h))
  end)
end)

describe("sweep argument errors", function()
  it("a move longer than the step limit is refused by both tests", function()
    err(function() wayfinder.sweep.square(0, 0, 300, 0, 5, 5, 1) end,
      "wayfinder.sweep.square: the move from (ax, ay) to (bx, by) must be at most ")
    local g = wayfinder.grid.new(8, 8)
    err(function() wayfinder.sweep.grid(g, 0, 0, 0, -300) end,
      "wayfinder.sweep.grid: the move from (ax, ay) to (bx, by) must be at most ")
  end)
end)

describe("first-move table core errors", function()
  it("core.cpd_build and core.cpd_hash refuse what is not a passability string", function()
    err(function() core.cpd_build(5, 2, 2) end, "core.cpd_build: pass must be a string")
    err(function() core.cpd_build("\1\1\1", 2, 2) end,
      "core.cpd_build: pass must hold width*height bytes")
    err(function() core.cpd_hash({}) end, "core.cpd_hash: s must be a string")
  end)
end)
