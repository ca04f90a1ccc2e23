-- Rejected calls name the method and the argument, also for a wrong self
-- and for the lifecycle methods (they once gave "bad argument #1 to '?'").
local wayfinder = require("wayfinder")
local core = require("wayfinder.core")

local function message_of(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return (tostring(err):gsub("^[^:]*:%d+: ", ""))
end

describe("messages of the binding's lifecycle methods", function()
  it("queue:close and queue:is_closed name themselves on a wrong self", function()
    local q = wayfinder.queue.new(wayfinder.grid.new(4, 4))
    assert.are.equal("queue:is_closed: self must be a wayfinder.Queue, got 5 "
      .. "(call it as queue:method(...))", message_of(q.is_closed, 5))
    assert.are.equal("queue:close: self must be a wayfinder.Queue, got a table "
      .. "(call it as queue:method(...))", message_of(q.close, {}))
    assert.is_false(q:is_closed())
  end)

  it("walker:close names itself on a wrong self", function()
    local w = core.walker_new(4, 4)
    assert.are.equal("walker:close: self must be a wayfinder.Walker, got 7",
      message_of(w.close, 7))
  end)

  it("walker:positions names its argument", function()
    local w = core.walker_new(4, 4)
    assert.are.equal("walker:positions: t must be a table, got nil",
      message_of(w.positions, w, nil))
    assert.are.equal("walker:positions: t must be a table, got no value",
      message_of(w.positions, w))
    assert.are.equal(0, w:positions({}))
  end)

  it("grid:close names itself on a wrong self", function()
    local g = wayfinder.grid.new(4, 4)
    assert.are.equal("grid:close: self must be a wayfinder.Grid, got 5", message_of(g.close, 5))
  end)
end)
