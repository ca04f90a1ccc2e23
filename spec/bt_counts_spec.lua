-- Counts given as integral floats beyond the integer range (2^63, 1e308)
-- are refused with the node's message, not "attempt to compare nil".
local bt = require("wayfinder").bt

local function message_of(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return (tostring(err):gsub("^[^:]*:%d+: ", ""))
end

describe("behavior tree counts beyond the integer range", function()
  it("are refused naming the node and the argument", function()
    local node = bt.wait(1)
    assert.are.equal("wayfinder.bt.wait: ticks must be an integer in [0, 1000000000], got 1e+308",
      message_of(bt.wait, 1e308))
    assert.are.equal("wayfinder.bt.wait: ticks must be an integer in [0, 1000000000], "
      .. "got 9.2233720368548e+18", message_of(bt.wait, 2.0 ^ 63))
    assert.are.equal("wayfinder.bt.retry: n must be an integer in [1, 1000000000], "
      .. "got -1.1805916207174e+21", message_of(bt.retry, -(2.0 ^ 70), node))
    assert.are.equal("wayfinder.bt.wait: ticks must be an integer in [0, 1000000000], got -1",
      message_of(bt.wait, -1))
    assert.truthy(bt.wait(2.0))
  end)
end)
