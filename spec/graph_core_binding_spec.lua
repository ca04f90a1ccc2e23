-- The graph core's functions (core.graph_*) are reachable from scripts,
-- so they check their arguments again behind lua/wayfinder/graph: each bad
-- call raises an error naming the function, each refused graph comes back
-- as nil, fault, i, j, and the searches report a changed graph.
local core = require("wayfinder.core")
local grid = require("wayfinder.grid")
local compat = require("wayfinder.compat")

local function err(want, f, ...)
  local args = { n = select("#", ...), ... }
  local ok, e = pcall(f, compat.unpack(args, 1, args.n))
  assert.is_false(ok)
  e = tostring(e):gsub("^[^\n]-:%d+: ", "")
  assert.are.equal(want, e:sub(1, #want))
end

-- two 4 x 4 sectors side by side and a walk portal on x = 4, y in [1, 3]
local function sectors()
  return { 0, 0, 4, 4, 0, 0,  4, 0, 8, 4, 0, 0 }
end

local function portal(a, b)
  return { a, b, 4, 1, 4, 3, 4, 1, 4, 3, 0, 1, 0, 2, 0, 0 }
end

local function two()
  return assert(core.graph_compile(sectors(), portal(0, 1)))
end

-- a table whose length is n without holding n items (where the Lua
-- version honours __len on tables), or else a table of the wrong size
local len_honoured = #setmetatable({}, { __len = function() return 1 end }) == 1
local function long(n, short)
  if not len_honoured then return short end
  return setmetatable({}, { __len = function() return n end })
end

local function mults() return { 1 } end

local function begin(s, g, gx, ...)
  return core.graph_begin(s, g, 1, 2, gx or 7, 2, 1, 0, mults(), 1, 1, 1, 1, ...)
end

describe("core.graph_compile", function()
  it("compiles two sectors and a portal, and locates points in them", function()
    local g = two()
    assert.are.equal(1, core.graph_locate(g, 1, 1))
    assert.are.equal(2, core.graph_locate(g, 7.5, 3))
    assert.are.equal(0, core.graph_locate(g, 9, 1))
    assert.is_true(core.graph_memory(g) > 0)
  end)

  it("refuses arrays whose lengths are not whole sectors and portals", function()
    err("graph_compile: bad array sizes 5, 0", core.graph_compile, { 0, 0, 4, 4, 0 }, {})
    err("graph_compile: bad array sizes 12, 15", core.graph_compile, sectors(),
      { 0, 1, 4, 1, 4, 3, 4, 1, 4, 3, 0, 0, 0, 2, 0 })
    if len_honoured then
      err("graph_compile: bad array sizes 6000000000, 0", core.graph_compile, long(6e9), {})
      err("graph_compile: bad array sizes 0, 16000000000", core.graph_compile, {}, long(16e9))
    end
    err("bad argument #2 to ", core.graph_compile, {}, 5)
  end)

  it("refuses items out of range, naming the array item", function()
    local s = sectors()
    s[3] = 9000
    err("graph_compile: array item must be a number in [", core.graph_compile, s, {})
    s = sectors()
    s[5] = 99
    err("graph_compile: array item must be an integer in [0, ", core.graph_compile, s, {})
    local p = portal(0, 1)
    p[14] = 4
    err("graph_compile: array item must be an integer in [0, 3], got 4",
      core.graph_compile, sectors(), p)
    p = portal(0, 1)
    p[11] = -1
    err("graph_compile: array item must be a number in [0, ", core.graph_compile, sectors(), p)
  end)

  it("returns nil, the fault and 1-based indices for a graph it refuses", function()
    local function fault(s, p, f, i, j)
      local g, why, fi, fj = core.graph_compile(s, p)
      assert.are.same({ nil, f, i, j }, { g, why, fi, fj })
    end
    local s = sectors()
    s[7] = 3                                            -- sector 2 starts inside sector 1
    fault(s, {}, "overlap", 1, 2)
    s = sectors()
    s[9] = 4                                            -- an empty box
    fault(s, {}, "box", 2, 0)
    fault(sectors(), portal(0, 2), "nowhere", 1, 3)
    fault(sectors(), portal(-1, 1), "nowhere", 1, 0)
    local p = portal(0, 1)
    p[16] = 1                                           -- an offset without a period
    fault(sectors(), p, "cost", 1, 0)
    p = portal(0, 1)
    p[3] = 5                                            -- a's span leaves sector 1
    fault(sectors(), p, "span", 1, 1)
    p = portal(0, 1)
    p[8] = 2                                            -- b's span differs from a's
    fault(sectors(), p, "walk", 1, 0)
    p = portal(1, 1)
    fault(sectors(), p, "walk", 1, 0)
  end)

  it("compiles an empty graph, where no point has a sector", function()
    local g = assert(core.graph_compile({}, {}))
    assert.are.equal(0, core.graph_locate(g, 0, 0))
  end)
end)

describe("core.graph_patch", function()
  it("drops a sector and a portal, adds others, and leaves the old graph as it was", function()
    local old = two()
    local g = assert(core.graph_patch(old, { 2 }, { 4, 0, 6, 4, 0, 0 }, { 1 }, {},
      { 0, 1, 4, 1, 4, 3, 4, 1, 4, 3, 0, 1, 0, 2, 0, 0 }))
    assert.are.equal(2, core.graph_locate(g, 5, 1))
    assert.are.equal(0, core.graph_locate(g, 7, 1))
    assert.are.equal(2, core.graph_locate(old, 7, 1))
  end)

  it("moves a kept portal onto new sector indices", function()
    local old = two()
    -- drop sector 1, add it again as the new sector 2: portal 1 now joins 1 and 0
    local g, why = core.graph_patch(old, { 1 }, { 0, 0, 4, 4, 0, 0 }, {}, { 1, 1, 0 }, {})
    assert.is_nil(why)
    local s = core.graph_search()
    assert.is_true(core.graph_begin(s, g, 7, 2, 1, 2, 1, 0, mults(), 1, 1, 1, 1))
    local done = core.graph_step(s, 100)
    assert.is_true(done)
    local r = core.graph_finish(s)
    assert.are.same({ 1 }, r.portals)
    assert.are.same({ 1, 2 }, r.sectors)
  end)

  it("refuses lists of the wrong sizes", function()
    local old = two()
    local function sizes(...)
      err("graph_patch: bad array sizes", core.graph_patch, old, ...)
    end
    sizes({ 1, 2, 1 }, {}, {}, {}, {})                 -- more drops than sectors
    sizes({}, {}, { 1, 1 }, {}, {})                    -- more drops than portals
    sizes({}, { 1 }, {}, {}, {})                       -- part of a sector
    sizes({}, {}, {}, {}, { 1 })                       -- part of a portal
    sizes({}, {}, {}, { 1, 0 }, {})                    -- part of a move
    sizes({}, long(6e9, { 1 }), {}, {}, {})
    sizes({}, {}, {}, {}, long(16e9, { 1 }))
    sizes({}, {}, {}, { 1, 0, 1, 1, 0, 1 }, {})        -- more moves than portals
  end)

  it("refuses indices out of range, and indices the core refuses", function()
    local old = two()
    err("graph_patch: array item must be an integer in [1, 2], got 3",
      core.graph_patch, old, { 3 }, {}, {}, {}, {})
    err("graph_patch: array item must be an integer in [1, 1], got 0",
      core.graph_patch, old, {}, {}, { 0 }, {}, {})
    err("graph_patch: bad patch indices", core.graph_patch, old, { 1, 1 }, {}, {}, {}, {})
    -- moves of portal 0, of a portal past the last and of a dropped portal
    err("graph_patch: bad patch indices", core.graph_patch, old, {}, {}, {}, { 0, 0, 1 }, {})
    err("graph_patch: bad patch indices", core.graph_patch, old, {}, {}, {}, { 2, 0, 1 }, {})
    err("graph_patch: bad patch indices", core.graph_patch, old, {}, {}, { 1 }, { 1, 0, 1 }, {})
    err("graph_patch: argument 1 must be a compiled graph", core.graph_patch, {}, {}, {}, {},
      {}, {})
    -- the old graph still answers
    assert.are.equal(2, core.graph_locate(old, 5, 1))
  end)

  it("returns the fault of a patched graph it refuses", function()
    local g, why, i, j = core.graph_patch(two(), { 2 }, {}, {}, {}, {})
    assert.are.same({ nil, "nowhere", 1, 0 }, { g, why, i, j })
    g, why, i, j = core.graph_patch(two(), {}, {}, {}, { 1, 5, 0 }, {})
    assert.are.same({ nil, "nowhere", 1, 6 }, { g, why, i, j })
  end)
end)

describe("core.graph_* on a graph or search in the wrong state", function()
  it("refuse a collected graph and a collected search", function()
    local g = two()
    getmetatable(g).__gc(g)
    getmetatable(g).__gc(g)                            -- twice is harmless
    err("graph_locate: argument 1 must be a compiled graph", core.graph_locate, g, 1, 1)
    err("graph_memory: argument 1 must be a compiled graph", core.graph_memory, g)
    err("graph_set_danger: argument 1 must be a compiled graph", core.graph_set_danger, g, 1, 0)
    local s = core.graph_search()
    getmetatable(s).__gc(s)
    err("graph_step: argument 1 must be a graph search", core.graph_step, s, 1)
    err("graph_cancel: argument 1 must be a graph search", core.graph_cancel, s)
    err("graph_finish: argument 1 must be a graph search", core.graph_finish, "s")
  end)

  it("report a graph changed between steps, and a search never begun", function()
    local g, s = two(), core.graph_search()
    assert.are.same({ nil, "graph_changed" }, { core.graph_step(s, 10) })
    assert.are.same({ nil, "graph_changed" }, { core.graph_finish(s) })
    assert.is_true(begin(s, g))
    core.graph_set_danger(g, 2, 3)
    assert.are.same({ nil, "graph_changed" }, { core.graph_step(s, 10) })
    assert.is_true(begin(s, g))
    local done = core.graph_step(s, 100)
    assert.is_true(done)
    core.graph_set_danger(g, 2, 0)
    assert.are.same({ nil, "graph_changed" }, { core.graph_finish(s) })
    -- a search cancelled halfway has nothing to finish
    assert.is_true(begin(s, g))
    core.graph_cancel(s)
    assert.are.same({ nil, "graph_changed" }, { core.graph_finish(s) })
  end)

  it("set_danger checks its sector and danger, and the danger adds to the cost", function()
    local g, s = two(), core.graph_search()
    err("graph_set_danger: sector must be an integer in [1, 2], got 3",
      core.graph_set_danger, g, 3, 0)
    err("graph_set_danger: danger must be a number in [0, ", core.graph_set_danger, g, 1, -1)
    assert.is_true(begin(s, g))
    core.graph_step(s, 100)
    local before = core.graph_finish(s).cost
    core.graph_set_danger(g, 2, 5)
    assert.is_true(begin(s, g))
    core.graph_step(s, 100)
    assert.are.equal(before + 5, core.graph_finish(s).cost)
  end)
end)

describe("core.graph_begin", function()
  it("checks every argument by name", function()
    local g, s = two(), core.graph_search()
    local function bad(want, i, v)
      local a = { s, g, 1, 2, 7, 2, 1, 0, mults(), 1, 1, 1, 1, n = 13 }
      a[i] = v
      a.n = math.max(a.n, i)
      err("graph_begin: " .. want, core.graph_begin, compat.unpack(a, 1, a.n))
    end
    bad("argument 1 must be a graph search", 1, g)
    bad("argument 2 must be a compiled graph", 2, s)
    bad("sx must be a number in [", 3, 1e9)
    bad("gy must be a number in [", 6, 0 / 0)
    bad("class_bit must be an integer in [0, ", 7, -1)
    local a9 = { s, g, 1, 2, 7, 2, 1, 0, 1, 1, 1, 1, 1 }
    err("bad argument #9 to ", core.graph_begin, compat.unpack(a9, 1, 13))
    bad("mult must be an integer in [0, 1000], got 1001", 9, { 1001 })
    bad("wnum must be an integer in [1, 1000], got 0", 10, 0)
    bad("rden must be an integer in [1, 1000], got 1001", 13, 1001)
    local a = { s, g, 1, 2, 7, 2, 1, 0, mults(), 2, 3, 1, 1 }
    err("graph_begin: weight below 1", core.graph_begin, compat.unpack(a, 1, 13))
    bad("time must be a number in [0, ", 14, -1)
  end)

  it("answers nil and a reason for points outside and sectors forbidden", function()
    local g, s = two(), core.graph_search()
    assert.are.same({ nil, "goal_outside" }, { begin(s, g, 9) })
    assert.are.same({ nil, "start_outside" },
      { core.graph_begin(s, g, -1, 2, 7, 2, 1, 0, mults(), 1, 1, 1, 1) })
    assert.are.same({ nil, "start_blocked" },
      { core.graph_begin(s, g, 1, 2, 7, 2, 1, 0, {}, 1, 1, 1, 1) })
  end)

  it("finds the path through the portal, with a time given or not", function()
    local g, s = two(), core.graph_search()
    for _, time in ipairs { false, 3 } do
      if time then assert.is_true(begin(s, g, 7, time)) else assert.is_true(begin(s, g)) end
      local done, used = core.graph_step(s, 1)
      assert.is_false(done)
      assert.are.equal(1, used)
      repeat done = core.graph_step(s, 1) until done
      local r = core.graph_finish(s)
      assert.are.same({ 1 }, r.portals)
      assert.are.same({ 1, 2 }, r.sectors)
      assert.are.equal(6, r.cost)
      assert.are.same({ { 1, 2 }, { 7, 2 } }, r.points)
    end
  end)

  it("finishes a search with no path as unreachable, with its expansions", function()
    local g = assert(core.graph_compile(sectors(), {}))
    local s = core.graph_search()
    assert.is_true(begin(s, g))
    assert.is_true((core.graph_step(s, 100)))
    local r, why, info = core.graph_finish(s)
    assert.is_nil(r)
    assert.are.equal("unreachable", why)
    assert.are.equal(1, info.expanded)
  end)
end)

describe("core.graph_boxes and graph_boxes_in", function()
  it("check the class, the surface bytes, the spans and the rectangles", function()
    local gr = grid.new(4, 4)
    err("graph_boxes: class must be an integer in [1, 1], got 2", core.graph_boxes, gr, 2, nil,
      4, false, 4)
    err("graph_boxes: surface must have width*height bytes", core.graph_boxes, gr, 1, "abc",
      4, false, 4)
    err("graph_boxes: max_span must be an integer in [1, ", core.graph_boxes, gr, 1, nil, 0,
      false, 4)
    err("graph_boxes: bad surface codes", core.graph_boxes, gr, 1, ("\200"):rep(16), 4, false, 4)
    err("graph_boxes_in: surface must have width*height bytes", core.graph_boxes_in, gr, 1,
      "", 4, {})
    err("graph_boxes_in: bad rectangle list", core.graph_boxes_in, gr, 1, nil, 4, { 0, 0, 1 })
    err("graph_boxes_in: bad rectangle list", core.graph_boxes_in, gr, 1, nil, 4, long(4e9, { 1 }))
    err("graph_boxes_in: array item must be an integer in [0, ", core.graph_boxes_in, gr, 1,
      nil, 4, { 0, 0, -1, 1 })
    err("graph_boxes_in: bad rectangles or surface codes", core.graph_boxes_in, gr, 1, nil, 4,
      { 0, 0, 9, 9 })
    err("graph_boxes_in: bad rectangles or surface codes", core.graph_boxes_in, gr, 1,
      ("\200"):rep(16), 4, { 0, 0, 1, 1 }, true)
    err("graph_boxes_in: bad rectangles or surface codes", core.graph_boxes_in, gr, 1,
      ("\200"):rep(16), 4, { 0, 0, 1, 1 })
  end)

  it("cover an open grid, with surfaces and without, and in rectangles", function()
    local gr = grid.new(4, 4)
    local boxes, regions, portals, n = core.graph_boxes(gr, 1, ("\0"):rep(16), 4, false, 4)
    assert.are.same({ 0, 0, 4, 4, 0 }, boxes)
    assert.are.same({ 1 }, regions)
    assert.are.same({}, portals)
    assert.are.equal(1, n)
    boxes = core.graph_boxes(gr, 1, nil, 4, true, 2)
    assert.are.equal(4 * 5, #boxes)
    assert.are.same({ 0, 0, 2, 2, 0 }, core.graph_boxes_in(gr, 1, nil, 2, { 0, 0, 2, 2 }))
    assert.are.same({}, core.graph_boxes_in(gr, 1, ("\0"):rep(16), 2, {}))
    assert.are.same({ 0, 0, 2, 2, 0 }, core.graph_boxes_in(gr, 1, nil, 2, { 0, 0, 1, 1 }, true))
  end)

  it("graph_boxes_in without its quadtree argument covers with greedy boxes", function()
    -- the greedy box is the rectangle itself; the quadtree's leaf meeting
    -- it is the whole 4 x 4 grid
    local gr = grid.new(4, 4)
    assert.are.same({ 0, 0, 3, 3, 0 }, core.graph_boxes_in(gr, 1, nil, 4, { 0, 0, 3, 3 }))
    assert.are.same({ 0, 0, 3, 3, 0 }, core.graph_boxes_in(gr, 1, nil, 4, { 0, 0, 3, 3 }, false))
    assert.are.same({ 0, 0, 4, 4, 0 }, core.graph_boxes_in(gr, 1, nil, 4, { 0, 0, 3, 3 }, true))
  end)
end)

describe("core.graph_grid_changed", function()
  it("says nothing, a box, or everything changed since a version", function()
    local gr = grid.new(8, 8)
    local v = gr:version()
    assert.is_false(core.graph_grid_changed(gr, v))
    gr:set_passable(2, 3, false)
    assert.are.same({ 2, 3, 2, 3 }, { core.graph_grid_changed(gr, v) })
    gr:set_passable(5, 1, false)
    assert.are.same({ 2, 1, 5, 3 }, { core.graph_grid_changed(gr, v) })
    -- more changes than the grid's log keeps: everything may have changed
    for k = 1, 40 do gr:set_passable(k % 8, math.floor(k / 8) % 8, k % 2 == 0) end
    assert.are.equal("all", core.graph_grid_changed(gr, v))
    err("graph_grid_changed: since must be an integer in [0, ", core.graph_grid_changed, gr, -1)
  end)
end)
