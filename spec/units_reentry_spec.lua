-- Defects the API fuzzer (tools/fuzz/api.lua) found in wayfinder.units:
-- a metamethod of the options table closing the grid in the middle of
-- wayfinder.units.new (the simulation was then made over the freed grid),
-- and units:close given a wrong self raising "bad argument #1 to '?'".
local wayfinder = require("wayfinder")

describe("wayfinder.units against hostile callers", function()
  it("refuses a grid closed by a metamethod of the options, and stays usable", function()
    local g = wayfinder.grid.new(16, 16)
    local options = setmetatable({}, { __index = function() g:close() end })
    assert.has_error(function() wayfinder.units.new(g, options) end,
      "wayfinder.units.new: grid is a closed grid")
    assert.is_true(g:is_closed())
    -- a fresh grid works as before
    local g2 = wayfinder.grid.new(16, 16)
    local u = wayfinder.units.new(g2, { budget = 100 })
    assert.are.equal(1, u:add { x = 1.5, y = 1.5, radius = 0.25, speed = 1 })
    u:close()
  end)

  it("refuses a grid closed by a metamethod during wayfinder.units.load", function()
    local g = wayfinder.grid.new(16, 16)
    local saved = wayfinder.units.new(g):save()
    local hostile = setmetatable({}, { __index = function(_, k)
      if k == "units" then g:close() end
      return saved[k]
    end })
    assert.has_error(function() wayfinder.units.load(g, hostile) end,
      "wayfinder.units.load: grid is a closed grid")
  end)

  it("units:close names itself on a wrong self", function()
    local u = wayfinder.units.new(wayfinder.grid.new(4, 4))
    assert.has_error(function() u.close({}) end,
      "units:close: self must be a wayfinder.Units, got a table (call it as units:close())")
    assert.has_error(function() u.close(nil) end,
      "units:close: self must be a wayfinder.Units, got nil (call it as units:close())")
    -- the simulation was left alone
    assert.are.equal(0, u:count())
    u:close()
    u:close()                             -- closing twice is fine
    assert.has_error(function() u:count() end, "units:count: the units are closed")
  end)
end)
