-- Strings with a NUL byte are refused wherever the binding reads a string:
-- C would read them up to the NUL and accept "jps\0x" as "jps".
local wayfinder = require("wayfinder")

local MAP = "........\n..@@....\n........\n"

local function refuses(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  assert.truthy(tostring(err):find(pattern, 1, true), err)
end

describe("strings with a NUL byte", function()
  it("grid:find_path options.algorithm and options.class", function()
    local g = wayfinder.grid.from_ascii(MAP)
    refuses("grid:find_path: options.algorithm must not contain a NUL byte",
      g.find_path, g, 0.5, 0.5, 6.5, 2.5, { algorithm = "jps\0x" })
    refuses("grid:find_path: options.class must name a class of this grid, got 'default'",
      g.find_path, g, 0.5, 0.5, 6.5, 2.5, { class = "default\0x" })
    assert.truthy(g:find_path(0.5, 0.5, 6.5, 2.5, { algorithm = "jps" }))
  end)

  it("option keys", function()
    local g = wayfinder.grid.from_ascii(MAP)
    refuses("grid:find_path: unknown options key 'smooth",
      g.find_path, g, 0.5, 0.5, 6.5, 2.5, { ["smooth\0x"] = true })
  end)

  it("grid options: border_shape and class names", function()
    refuses("wayfinder.grid.new: options.border_shape must not contain a NUL byte",
      wayfinder.grid.new, 4, 4, { border_shape = "circle\0x" })
    refuses("must not contain a NUL byte", wayfinder.grid.new, 4, 4,
      { classes = { { name = "big\0x", clearance = 1 } } })
    refuses("grid:is_reachable: class must name a class of this grid, got 'default'",
      function()
        local g = wayfinder.grid.from_ascii(MAP)
        return g:is_reachable(0, 0, 1, 0, "default\0x")
      end)
  end)

  it("queue:submit request.algorithm and request.class", function()
    local q = wayfinder.queue.new(wayfinder.grid.from_ascii(MAP))
    refuses("queue:submit: request.algorithm must not contain a NUL byte", q.submit, q,
      { sx = 0.5, sy = 0.5, gx = 6.5, gy = 2.5, algorithm = "jps\0x" })
    refuses("queue:submit: request.class must name a class of the queue's grid, got 'default'",
      q.submit, q,
      { sx = 0.5, sy = 0.5, gx = 6.5, gy = 2.5, class = "default\0x" })
    assert.are.equal(0, q:pending())
  end)

  it("rectplan query.mode and penalties", function()
    local ids = {}
    for i = 1, 25 do ids[i] = 1 end
    local room = { width = 5, height = 5, rooms = ids }
    refuses("query.mode must not contain a NUL byte", wayfinder.rectplan.plan, room,
      { start = { 1.5, 1.5 }, goal = { 3.5, 3.5 }, mode = "near\0x" })
    local function terrain(p)
      return pcall(wayfinder.rectplan.plan, room, { start = { 1.5, 1.5 }, goal = { 3.5, 3.5 },
        terrain = { { x0 = 0, y0 = 0, x1 = 1, y1 = 1, penalty = p } } })
    end
    assert.is_true((terrain("impassable")))
    local ok, err = terrain("impassable\0x")
    assert.is_false(ok)
    assert.truthy(err:find("penalty", 1, true), err)
  end)
end)

describe("error positions", function()
  it("wayfinder.rectplan.plan and obstacles raise at the caller's line", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(function() local r = wayfinder.rectplan.plan(5, {}); return r end)
    assert.is_false(ok)
    assert.are.equal(("spec/binding_strings_spec.lua:%d: wayfinder.rectplan.plan: room must be "
      .. "a table, got 5"):format(line), err:match("spec/.*"))
    line = debug.getinfo(1, "l").currentline + 1
    ok, err = pcall(function() local r = wayfinder.rectplan.obstacles(5, {}); return r end)
    assert.is_false(ok)
    assert.are.equal(("spec/binding_strings_spec.lua:%d: wayfinder.rectplan.obstacles: room "
      .. "must be a table, got 5"):format(line), err:match("spec/.*"))
  end)
end)
