-- luacheck: max line length 130
-- The path cache: hits and splices give valid paths; an edit marks stale
-- exactly the handles whose paths cross a chunk it touched (checked by
-- walking every path); goals that keep failing back off for a growing
-- number of ticks.
local wayfinder = require("wayfinder")
local pathtable = require("wayfinder.pathtable")

local function lcg(seed)
  local s = seed
  return function(lo, hi)
    s = (s * 1103515245 + 12345) % 2147483648
    return lo + math.floor(s / 65536) % (hi - lo + 1)
  end
end

-- Every navcell of a waypoint path, in order.
local function cells_of(path)
  local out = { { path[1].x, path[1].y } }
  local x, y = path[1].x, path[1].y
  for k = 2, #path do
    local tx, ty = path[k].x, path[k].y
    local dx, dy = tx - x, ty - y
    assert.is_true(dx == 0 or dy == 0 or math.abs(dx) == math.abs(dy), "segment not straight")
    while x ~= tx or y ~= ty do
      x = x + (dx > 0 and 1 or (dx < 0 and -1 or 0))
      y = y + (dy > 0 and 1 or (dy < 0 and -1 or 0))
      out[#out + 1] = { x, y }
    end
  end
  return out
end

local function valid(grid, path, sx, sy, gx, gy)
  local cells = cells_of(path)
  assert.are.same({ sx, sy }, cells[1])
  assert.are.same({ gx, gy }, cells[#cells])
  for _, c in ipairs(cells) do assert.is_true(grid:is_passable(c[1], c[2])) end
end

describe("path cache", function()
  it("reuses a path whole or spliced, and says which", function()
    local grid = wayfinder.grid.new(30, 20)
    for y = 2, 17 do grid:set_passable(15, y, false) end
    local cache = pathtable.cache(grid)
    local a = cache:request(2, 10, 28, 10)
    assert.are.equal("searched", a:how())
    valid(grid, a:path(), 2, 10, 28, 10)
    local b = cache:request(2, 10, 28, 10)
    assert.are.equal("hit", b:how())
    assert.are.equal(a:path(), b:path())
    assert.are.equal(a:cost(), b:cost())
    local c = cache:request(4, 11, 28, 10)
    assert.are.equal("spliced", c:how())
    valid(grid, c:path(), 4, 11, 28, 10)
    local st = cache:stats()
    assert.are.equal(1, st.hits)
    assert.are.equal(1, st.spliced)
    assert.are.equal(1, st.misses)
    assert.is_true(st.saved > 0)
    assert.are.equal(1, st.paths)
  end)

  it("marks stale exactly the paths that cross a touched chunk", function()
    local rand = lcg(12)
    local grid = wayfinder.grid.new(40, 40)
    grid:set_chunk_size(8)
    for _ = 1, 150 do grid:set_passable(rand(0, 39), rand(0, 39), false) end
    local cache = pathtable.cache(grid, { capacity = 8 })   -- small: evicted paths count too
    local held = {}
    local function add_handles(n)
      for _ = 1, n do
        local sx, sy, gx, gy = rand(0, 39), rand(0, 39), rand(0, 39), rand(0, 39)
        local h = cache:request(sx, sy, gx, gy)
        if h then held[#held + 1] = { h = h, cells = cells_of(h:path()), was = false } end
      end
    end
    add_handles(40)
    assert.is_true(#held > 20)
    local marked_total = 0
    for _ = 1, 25 do
      local x, y = rand(0, 39), rand(0, 39)
      local before = grid:is_passable(x, y)
      cache:set_passable(x, y, not before)
      -- the touched chunks: the navcell grown by one (no class has clearance)
      local touched = {}
      for cy = math.floor(math.max(0, y - 1) / 8), math.floor(math.min(39, y + 1) / 8) do
        for cx = math.floor(math.max(0, x - 1) / 8), math.floor(math.min(39, x + 1) / 8) do
          touched[cy * 5 + cx] = true
        end
      end
      for _, e in ipairs(held) do
        local crosses = false
        for _, c in ipairs(e.cells) do
          if touched[math.floor(c[2] / 8) * 5 + math.floor(c[1] / 8)] then crosses = true end
        end
        local expect = e.was or crosses
        assert.are.equal(expect, e.h:stale())
        if expect and not e.was then marked_total = marked_total + 1 end
        e.was = expect
        if not expect then
          for _, c in ipairs(e.cells) do assert.is_true(grid:is_passable(c[1], c[2])) end
        end
      end
      add_handles(3)
    end
    assert.is_true(marked_total > 0)
    local fresh = 0
    for _, e in ipairs(held) do if not e.h:stale() then fresh = fresh + 1 end end
    assert.is_true(fresh > 0)
    -- an edit the cache was not told of marks every path stale
    grid:set_passable(0, 0, not grid:is_passable(0, 0))
    cache:request(5, 5, 6, 6)
    for _, e in ipairs(held) do assert.is_true(e.h:stale()) end
  end)

  it("backs off a goal that keeps failing", function()
    local grid = wayfinder.grid.from_ascii([[
.......
..###..
..#.#..
..###..
.......
]])
    local cache = pathtable.cache(grid, { failures = 2, backoff = 3, max_backoff = 10 })
    assert.are.same({ nil, "unreachable" }, { cache:request(0, 0, 3, 2) })
    assert.are.same({ 1, 0 }, { cache:failures(3, 2) })
    assert.are.same({ nil, "unreachable" }, { cache:request(0, 0, 3, 2) })
    assert.are.same({ 2, 3 }, { cache:failures(3, 2) })
    assert.are.same({ nil, "backing_off", 3 }, { cache:request(6, 4, 3, 2) })
    cache:advance(2)
    assert.are.same({ nil, "backing_off", 1 }, { cache:request(0, 0, 3, 2) })
    cache:advance()
    assert.are.same({ nil, "unreachable" }, { cache:request(0, 0, 3, 2) })
    assert.are.same({ 3, 6 }, { cache:failures(3, 2) })
    cache:advance(6)
    cache:request(0, 0, 3, 2)
    assert.are.same({ 4, 10 }, { cache:failures(3, 2) })   -- 12 capped at 10
    -- opened up: the next try succeeds and the count resets
    cache:advance(10)
    cache:set_passable(3, 1, true)
    assert.is_not_nil(cache:request(0, 0, 3, 2))
    assert.are.same({ 0, 0 }, { cache:failures(3, 2) })
    assert.are.equal(2, cache:stats().backed_off)
  end)

  it("rejects bad input", function()
    local grid = wayfinder.grid.new(5, 5)
    assert.has_error(function() pathtable.cache(1) end, "wayfinder.pathtable.cache: grid must be a wayfinder.Grid, got 1")
    assert.has_error(function() pathtable.cache(grid, { size = 1 }) end, "wayfinder.pathtable.cache: unknown options key 'size'")
    assert.has_error(function() pathtable.cache(grid, { backoff = 0 }) end,
      "wayfinder.pathtable.cache: options.backoff must be an integer in [1, 1048576], got 0")
    local cache = pathtable.cache(grid)
    assert.has_error(function() cache:request(0, 0, 5, 0) end, "pathcache:request: gx must be an integer in [0, 5), got 5")
    assert.has_error(function() cache:request(0, 0, 1, 1, "tank") end,
      "pathcache:request: class must name a class of the grid, got 'tank'")
    assert.has_error(function() cache:touched(3, 3, 2, 2) end, "pathcache:touched: the box is empty: x1 < x0 or y1 < y0")
    assert.has_error(function() cache:advance(-1) end, "pathcache:advance: n must be an integer in [0, 1048576], got -1")
    assert.are.equal("wayfinder.PathCache (0 paths, tick 0)", tostring(cache))
  end)
end)
