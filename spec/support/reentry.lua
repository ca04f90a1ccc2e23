--- Shared by the binding_reentry specs: objects to close in the middle of
-- a call, and the checks that the binding survived it.
local wayfinder = require("wayfinder")
local core = require("wayfinder.core")
local assert = require("luassert")

local M = {}

local MAP = "........\n..@@....\n........\n.@......\n....@@..\n........\n"

-- Whether obj is closed (the walker has no is_closed: its methods say so).
function M.is_closed(obj)
  if obj.is_closed then return obj:is_closed() end
  local ok, err = pcall(obj.person, obj, 1)
  return not ok and err:find("closed", 1, true) ~= nil
end

-- The call either succeeds, returns nil and a reason, or raises an error
-- naming the function; the object is closed afterwards and says so.
function M.check(obj, fname, ok, err)
  if not ok then
    assert.is_string(err)
    assert.truthy(err:find(fname, 1, true), err)
  end
  assert.is_true(M.is_closed(obj))
end

function M.grid() return wayfinder.grid.from_ascii(MAP) end

function M.queue()
  local g = M.grid()
  return wayfinder.queue.new(g), g
end

function M.planner()
  local ids = {}
  for i = 1, 25 do ids[i] = 1 end
  return wayfinder.rectplan.planner({ width = 5, height = 5, rooms = ids },
    { start = { 1.5, 1.5 }, goal = { 3.5, 3.5 } })
end

function M.walker()
  local w = core.walker_new(6, 6)
  w:add_person(1, 98304, 98304, 16384, 16384, 0)
  return w
end

-- A table whose every field read runs fn and a full collection.
function M.hostile(fn)
  return setmetatable({}, { __index = function() fn(); collectgarbage() end })
end

-- Garbage whose finalizer runs fn: a table with __gc on 5.2 and later, a
-- userdata proxy on 5.1 and LuaJIT (whose tables ignore __gc).
local newproxy = rawget(_G, "newproxy")
function M.garbage(fn)
  if newproxy then
    local p = newproxy(true)
    getmetatable(p).__gc = function() fn() end
    return
  end
  setmetatable({}, { __gc = function() fn() end })
end

-- A table whose field reads leave garbage with a finalizer that runs fn,
-- then collect: the finalizer runs inside the call.
function M.finalizing(fn)
  return setmetatable({}, { __index = function()
    M.garbage(fn)
    collectgarbage()
  end })
end

-- The cases both ways share: each makes its object, and the argument
-- (made by make with the function that closes the object).
function M.cases(make)
  return {
    { "grid:find_path (options)", function()
      local g = M.grid()
      local ok, err = pcall(g.find_path, g, 0.5, 0.5, 6.5, 5.5, make(function() g:close() end))
      M.check(g, "grid:find_path", ok, err)
    end },
    { "grid:find_path (options.goal)", function()
      local g = M.grid()
      local ok, err = pcall(g.find_path, g, 0.5, 0.5, 6.5, 5.5,
        { goal = make(function() g:close() end) })
      M.check(g, "grid:find_path", ok, err)
    end },
    { "grid:add_obstruction (shape)", function()
      local g = M.grid()
      local ok, err = pcall(g.add_obstruction, g, make(function() g:close() end))
      M.check(g, "grid:add_obstruction", ok, err)
    end },
    { "grid:nearest_reachable (options)", function()
      local g = M.grid()
      local ok, err = pcall(g.nearest_reachable, g, 0.5, 0.5, 6.5, 5.5,
        make(function() g:close() end))
      M.check(g, "grid:nearest_reachable", ok, err)
    end },
    { "grid:batch (the function closes the grid)", function()
      local g = M.grid()
      local ok, err = pcall(g.batch, g, function(gg)
        gg:set_passable(0, 0, false)
        g:close()
        collectgarbage()
      end)
      M.check(g, "grid:batch", ok, err)
    end },
    { "wayfinder.queue.new (options close the grid)", function()
      local g = M.grid()
      local ok, q = pcall(wayfinder.queue.new, g, make(function() g:close() end))
      M.check(g, "wayfinder.queue.new", ok, q)
      if ok then assert.has_error(function() q:run() end) end
    end },
    { "queue:submit (the request closes the queue)", function()
      local q = M.queue()
      local ok, err = pcall(q.submit, q, make(function() q:close() end))
      M.check(q, "queue:submit", ok, err)
    end },
    { "queue:submit (the request closes the queue's grid)", function()
      local q, g = M.queue()
      local req = make(function() g:close() end)
      local ok, err = pcall(q.submit, q, req)
      M.check(g, "queue:submit", ok, err)
      assert.has_error(function() q:run() end)
    end },
    { "queue:submit (request.goal closes the queue)", function()
      local q = M.queue()
      local ok, err = pcall(q.submit, q, { sx = 0.5, sy = 0.5, gx = 6.5, gy = 5.5,
        goal = make(function() q:close() end) })
      M.check(q, "queue:submit", ok, err)
    end },
  }
end

return M
