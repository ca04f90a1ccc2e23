-- The finalizer cases of spec/binding_reentry_spec.lua: a finalizer the
-- collector runs during an allocation closes the object the call is using.
-- Garbage with a finalizer is a table with __gc on 5.2 and later and a
-- userdata proxy (newproxy) on 5.1 and LuaJIT; the collector is made to
-- step at every allocation with collectgarbage("incremental", ...) on 5.4
-- and with "setpause"/"setstepmul" before.
local reentry = require("support.reentry")
local unpack = require("wayfinder.compat").unpack

describe("closing the object from a finalizer during a call", function()
  for _, c in ipairs(reentry.cases(reentry.finalizing)) do it(c[1], c[2]) end
end)

-- The collector's settings, to restore after each case.
local has_modes = pcall(collectgarbage, "isrunning") and _VERSION == "Lua 5.4"

describe("a finalizer that closes the object during any call", function()
  -- Garbage with finalizers that close the object, and a collector that
  -- steps at every allocation: finalizers run inside the call, wherever it
  -- allocates.
  local function churn(fn)
    for _ = 1, 50 do reentry.garbage(fn) end
  end
  local saved, pause, stepmul
  before_each(function()
    if has_modes then
      saved = collectgarbage("incremental", 1, 1000, 0)
    else
      pause = collectgarbage("setpause", 1)
      stepmul = collectgarbage("setstepmul", 1000)
    end
  end)
  after_each(function()
    if has_modes then
      collectgarbage("incremental", 200, 100, 13)     -- Lua 5.4's defaults
      if saved == "generational" then collectgarbage("generational") end
    else
      collectgarbage("setpause", pause)
      collectgarbage("setstepmul", stepmul)
    end
    collectgarbage()
  end)

  local cases = {
    { "grid", reentry.grid, { find_path = { 0.5, 0.5, 6.5, 5.5, { smooth = true } },
      add_obstruction = { { x = 3, y = 3, half_width = 1, half_height = 0.5 } },
      classes = {}, to_ascii = {}, obstructions = {}, regions = {},
      nearest_reachable = { 0.5, 0.5, 6.5, 5.5 }, is_reachable = { 0, 0, 6, 5 } } },
    { "queue", reentry.queue, { submit = { { sx = 0.5, sy = 0.5, gx = 6.5, gy = 5.5 } },
      run = {}, pending = {} } },
    { "planner", reentry.planner, { run = {}, state = {}, result = {}, obstacles = {},
      tuning = {} } },
    { "walker", reentry.walker, { positions = { {} }, person = { 1 }, step = { 1 },
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
          assert.is_true(reentry.is_closed(obj))
        end
      end)
    end
  end
end)
