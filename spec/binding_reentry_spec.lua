-- Lua code that runs in the middle of a call (a metamethod of an argument
-- table, or a finalizer the collector runs during an allocation) may close
-- the very object the call is using. The binding must neither crash nor use
-- the object afterwards: every registered function runs with its objects
-- marked busy, and closing a busy object takes effect when the call ends.
local wayfinder = require("wayfinder")
local unpack = require("wayfinder.compat").unpack
local core = require("wayfinder.core")

local MAP = "........\n..@@....\n........\n.@......\n....@@..\n........\n"

-- A table whose every field read runs fn and a full collection.
local function hostile(fn)
  return setmetatable({}, { __index = function() fn(); collectgarbage() end })
end

-- A table whose field reads leave garbage with a finalizer that runs fn,
-- then collect: the finalizer runs inside the call.
local function finalizing(fn)
  return setmetatable({}, { __index = function()
    setmetatable({}, { __gc = function() fn() end })
    collectgarbage()
  end })
end

-- Whether obj is closed (the walker has no is_closed: its methods say so).
local function is_closed(obj)
  if obj.is_closed then return obj:is_closed() end
  local ok, err = pcall(obj.person, obj, 1)
  return not ok and err:find("closed", 1, true) ~= nil
end

-- The call either succeeds, returns nil and a reason, or raises an error
-- naming the function; the object is closed afterwards and says so.
local function check(obj, fname, ok, err)
  if not ok then
    assert.is_string(err)
    assert.truthy(err:find(fname, 1, true), err)
  end
  assert.is_true(is_closed(obj))
end

local function grid() return wayfinder.grid.from_ascii(MAP) end

local function queue()
  local g = grid()
  return wayfinder.queue.new(g), g
end

local function planner()
  local ids = {}
  for i = 1, 25 do ids[i] = 1 end
  return wayfinder.rectplan.planner({ width = 5, height = 5, rooms = ids },
    { start = { 1.5, 1.5 }, goal = { 3.5, 3.5 } })
end

local function walker()
  local w = core.walker_new(6, 6)
  w:add_person(1, 98304, 98304, 16384, 16384, 0)
  return w
end

for _, how in ipairs({ { "a metamethod", hostile }, { "a finalizer", finalizing } }) do
  local name, make = how[1], how[2]
  describe("closing the object from " .. name .. " during a call", function()
    it("grid:find_path (options)", function()
      local g = grid()
      local ok, err = pcall(g.find_path, g, 0.5, 0.5, 6.5, 5.5, make(function() g:close() end))
      check(g, "grid:find_path", ok, err)
    end)

    it("grid:find_path (options.goal)", function()
      local g = grid()
      local ok, err = pcall(g.find_path, g, 0.5, 0.5, 6.5, 5.5,
        { goal = make(function() g:close() end) })
      check(g, "grid:find_path", ok, err)
    end)

    it("grid:add_obstruction (shape)", function()
      local g = grid()
      local ok, err = pcall(g.add_obstruction, g, make(function() g:close() end))
      check(g, "grid:add_obstruction", ok, err)
    end)

    it("grid:nearest_reachable (options)", function()
      local g = grid()
      local ok, err = pcall(g.nearest_reachable, g, 0.5, 0.5, 6.5, 5.5,
        make(function() g:close() end))
      check(g, "grid:nearest_reachable", ok, err)
    end)

    it("grid:batch (the function closes the grid)", function()
      local g = grid()
      local ok, err = pcall(g.batch, g, function(gg)
        gg:set_passable(0, 0, false)
        g:close()
        collectgarbage()
      end)
      check(g, "grid:batch", ok, err)
    end)

    it("wayfinder.queue.new (options close the grid)", function()
      local g = grid()
      local ok, q = pcall(wayfinder.queue.new, g, make(function() g:close() end))
      check(g, "wayfinder.queue.new", ok, q)
      if ok then assert.has_error(function() q:run() end) end
    end)

    it("queue:submit (the request closes the queue)", function()
      local q = queue()
      local ok, err = pcall(q.submit, q, make(function() q:close() end))
      check(q, "queue:submit", ok, err)
    end)

    it("queue:submit (the request closes the queue's grid)", function()
      local q, g = queue()
      local req = make(function() g:close() end)
      local ok, err = pcall(q.submit, q, req)
      check(g, "queue:submit", ok, err)
      assert.has_error(function() q:run() end)
    end)

    it("queue:submit (request.goal closes the queue)", function()
      local q = queue()
      local ok, err = pcall(q.submit, q, { sx = 0.5, sy = 0.5, gx = 6.5, gy = 5.5,
        goal = make(function() q:close() end) })
      check(q, "queue:submit", ok, err)
    end)

    it("walker:set_route (the points close the walker)", function()
      local w = walker()
      local pts = setmetatable({}, { __len = function()
        setmetatable({}, { __gc = function() w:close() end })
        w:close()
        collectgarbage()
        return 4
      end, __index = make(function() w:close() end) })
      local ok, err = pcall(w.set_route, w, 1, pts, 0)
      assert.is_false(ok)
      assert.truthy(err:find("walker:set_route", 1, true), err)
      assert.has_error(function() w:person(1) end, "walker:person: the walker is closed")
    end)
  end)
end

describe("a finalizer that closes the object during any call", function()
  -- Garbage with finalizers that close the object, and a collector that
  -- steps at every allocation: finalizers run inside the call, wherever it
  -- allocates.
  local function churn(fn)
    for _ = 1, 50 do setmetatable({}, { __gc = fn }) end
  end
  local saved
  before_each(function() saved = collectgarbage("incremental", 1, 1000, 0) end)
  after_each(function()
    collectgarbage("incremental", 200, 100, 13)     -- Lua 5.4's defaults
    if saved == "generational" then collectgarbage("generational") end
    collectgarbage()
  end)

  local cases = {
    { "grid", grid, { find_path = { 0.5, 0.5, 6.5, 5.5, { smooth = true } },
      add_obstruction = { { x = 3, y = 3, half_width = 1, half_height = 0.5 } },
      classes = {}, to_ascii = {}, obstructions = {}, regions = {},
      nearest_reachable = { 0.5, 0.5, 6.5, 5.5 }, is_reachable = { 0, 0, 6, 5 } } },
    { "queue", queue, { submit = { { sx = 0.5, sy = 0.5, gx = 6.5, gy = 5.5 } },
      run = {}, pending = {} } },
    { "planner", planner, { run = {}, state = {}, result = {}, obstacles = {},
      tuning = {} } },
    { "walker", walker, { positions = { {} }, person = { 1 }, step = { 1 },
      route = { 1 } } },
  }
  for _, c in ipairs(cases) do
    local kind, make, calls = c[1], c[2], c[3]
    local names = {}
    for m in pairs(calls) do names[#names + 1] = m end
    table.sort(names)
    for _, m in ipairs(names) do
      it(kind .. ":" .. m, function()
        for _ = 1, 5 do
          local obj = make()
          churn(function() obj:close() end)
          local ok, err = pcall(obj[m], obj, unpack(calls[m]))
          collectgarbage()
          if not ok then
            assert.truthy(tostring(err):find(kind .. ":" .. m, 1, true), err)
          end
          assert.is_true(is_closed(obj))
        end
      end)
    end
  end
end)
