-- luacheck: max line length 130
-- The path cache in front of the request queue: a request from the start
-- of a fresh stored path is answered at once, others go to the queue and
-- their paths are stored when the search ends; an edit marks stale
-- exactly the queued paths that cross a chunk it touched (checked by
-- walking every path), including searches that ended before the edit but
-- were not looked at yet; an edit behind the cache marks everything.
local wayfinder = require("wayfinder")
local pathtable = require("wayfinder.pathtable")
local prng = require("spec.support.prng")

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

local function passable_path(grid, path)
  for _, c in ipairs(cells_of(path)) do
    if not grid:is_passable(c[1], c[2]) then return false end
  end
  return true
end

-- Whether the path has a navcell in a chunk that the box grown by `grow`
-- meets: what an edit of the box must mark.
local function crosses(grid, path, x0, y0, x1, y1, grow)
  local cs = grid:regions().chunk_size
  local ax, ay = math.max(0, x0 - grow), math.max(0, y0 - grow)
  local bx, by = math.min(grid:width() - 1, x1 + grow), math.min(grid:height() - 1, y1 + grow)
  for _, c in ipairs(cells_of(path)) do
    local cx, cy = math.floor(c[1] / cs), math.floor(c[2] / cs)
    if cx >= math.floor(ax / cs) and cx <= math.floor(bx / cs) and cy >= math.floor(ay / cs)
      and cy <= math.floor(by / cs) then
      return true
    end
  end
  return false
end

describe("path cache and request queue", function()
  it("answers a repeated request at once and stores what the queue found", function()
    local grid = wayfinder.grid.new(30, 20)
    for y = 2, 17 do grid:set_passable(15, y, false) end
    local queue = wayfinder.queue.new(grid)
    local cache = pathtable.cache(grid)
    assert.is_true(rawequal(grid, queue:grid()))
    local a = cache:submit(queue, 2, 10, 28, 10)
    assert.equals("queued", a:how())
    assert.equals("pending", a:status())
    assert.is_false(a:stale())
    local ticks = 0
    while a:status() == "pending" do
      queue:run(1)
      ticks = ticks + 1
    end
    assert.is_true(ticks > 1)
    local path, length, info = a:result()
    local _, slength = grid:find_path(2.5, 10.5, 28.5, 10.5, { rewrite_goal = false, escape = false })
    assert.equals(slength, length)
    assert.is_false(info.cached)
    local b = cache:submit(queue, 2, 10, 28, 10)
    assert.equals("hit", b:how())
    assert.equals("done", b:status())
    assert.equals(0, queue:pending())
    local bpath, blength, binfo = b:result()
    assert.equals(length, blength)
    assert.same(path, bpath)
    assert.is_true(binfo.cached)
    assert.equals(0, binfo.expanded)
    -- another start in the same region still goes to the queue
    local c = cache:submit(queue, 3, 10, 28, 10)
    assert.equals("queued", c:how())
    assert.equals(1, queue:pending())
    local st = cache:stats()
    assert.equals(1, st.hits)
    assert.equals(2, st.misses)
  end)

  it("marks exactly the queued paths an edit can touch, whenever their search ended", function()
    local g = prng.new(99)
    for round = 1, 6 do
      local grid = wayfinder.grid.new(48, 32)
      grid:set_chunk_size(8)
      for _ = 1, 120 do grid:set_passable(g.int(0, 47), g.int(0, 31), false) end
      local queue = wayfinder.queue.new(grid)
      local cache = pathtable.cache(grid, { capacity = 64 })
      local handles = {}
      local function free()
        while true do
          local x, y = g.int(0, 47), g.int(0, 31)
          if grid:is_passable(x, y) then return x, y end
        end
      end
      for _ = 1, 12 do
        local sx, sy = free()
        local gx, gy = free()
        local h = cache:submit(queue, sx, sy, gx, gy)
        if h then handles[#handles + 1] = h end
      end
      queue:run()   -- every search ends; nobody has looked yet
      for _ = 1, 5 do
        -- what each handle held before the edit
        local before = {}
        for i, h in ipairs(handles) do
          if h:status() == "done" and not h:stale() then before[i] = (h:result()) end
        end
        local x, y = g.int(0, 47), g.int(0, 31)
        cache:set_passable(x, y, not grid:is_passable(x, y))
        for i, h in ipairs(handles) do
          if before[i] then
            local should = crosses(grid, before[i], x, y, x, y, 1 + 0)
            assert.equals(should, h:stale(), "round " .. round .. " handle " .. i)
          end
          if h:status() == "done" and not h:stale() then
            assert.is_true(passable_path(grid, (h:result())), "a path not marked crosses a wall")
          end
        end
        -- new requests after the edit, some served before the next edit
        local sx, sy = free()
        local gx, gy = free()
        local h = cache:submit(queue, sx, sy, gx, gy)
        if h then handles[#handles + 1] = h end
        queue:run(g.int(0, 200))
      end
    end
  end)

  it("a search that ended before an edit, not yet looked at, is stale when the edit crosses it", function()
    local grid = wayfinder.grid.new(40, 10)
    local queue = wayfinder.queue.new(grid)
    local cache = pathtable.cache(grid)
    local a = cache:submit(queue, 1, 5, 38, 5)
    queue:run()
    cache:set_passable(20, 5, false)
    assert.is_true(a:stale())
    -- a request still waiting when the edit came is searched on the new grid
    local b = cache:submit(queue, 1, 5, 38, 5)
    cache:set_passable(20, 4, false)
    queue:run()
    assert.equals("done", b:status())
    assert.is_false(b:stale())
    assert.is_true(passable_path(grid, (b:result())))
    -- an edit the cache is not told of marks everything
    grid:set_passable(0, 0, false)
    assert.is_true(b:stale())
  end)

  it("backs off a goal the queue keeps failing to reach", function()
    local grid = wayfinder.grid.new(20, 5)
    for y = 0, 4 do grid:set_passable(10, y, false) end
    local queue = wayfinder.queue.new(grid)
    local cache = pathtable.cache(grid, { failures = 2, backoff = 3 })
    for _ = 1, 2 do
      local h = cache:submit(queue, 1, 2, 18, 2)
      queue:run()
      assert.equals("failed", h:status())
      assert.equals("unreachable", select(2, h:result()))
    end
    assert.same({ nil, "backing_off", 3 }, { cache:submit(queue, 1, 2, 18, 2) })
    cache:advance(3)
    local h = cache:submit(queue, 1, 2, 18, 2)
    assert.equals("queued", h:how())
    assert.is_true(h:cancel())
    assert.equals("cancelled", h:status())
    assert.is_false(h:cancel())
  end)

  it("rejects bad input", function()
    local grid = wayfinder.grid.new(8, 8)
    local cache = pathtable.cache(grid)
    local other = wayfinder.queue.new(wayfinder.grid.new(8, 8))
    assert.has_error(function() cache:submit(nil, 0, 0, 1, 1) end, "pathcache:submit: queue must be a wayfinder.Queue, got nil")
    assert.has_error(function() cache:submit(other, 0, 0, 1, 1) end, "pathcache:submit: queue must serve the cache's grid")
    local queue = wayfinder.queue.new(grid)
    assert.has_error(function() cache:submit(queue, 0, 0, 8, 1) end, "pathcache:submit: gx must be an integer in [0, 8), got 8")
    assert.has_error(function() cache:submit(queue, 0, 0, 1, 1, "tank") end,
      "pathcache:submit: class must name a class of the grid, got 'tank'")
    queue:close()
    assert.has_error(function() cache:submit(queue, 0, 0, 1, 1) end, "pathcache:submit: the queue is closed")
    assert.has_error(function() queue:grid() end)
  end)
end)
