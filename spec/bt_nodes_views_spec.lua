-- Behavior tree nodes and their frozen children lists and options answer
-- # and pairs themselves, through __len and __pairs: Lua 5.2 and later
-- only (tools/specs-not-portable.txt skips this file on 5.1 and LuaJIT,
-- whose tables ignore both; bt.fields is the way there, spec/bt_nodes_spec.lua).
local bt = require("wayfinder.bt")

describe("frozen behavior tree views on Lua 5.2+", function()
  local leaf = bt.wait(1)
  local nodes = {
    bt.sequence { leaf, bt.wait(2) }, bt.selector { leaf }, bt.invert(leaf),
    bt.retry(3, leaf), bt.action(function() return true end, { name = "a" }),
    bt.goto_relative { side = "front", distance = 0.5 }, bt.fail_portal(),
  }

  it("# of a children list counts what the constructor was given", function()
    local children = { leaf, bt.wait(2) }
    local s = bt.sequence(children)
    children[3] = bt.wait(3)
    assert.are.equal(2, #s.children)
    assert.are.equal(1, #bt.invert(leaf).children)
  end)

  it("pairs lists the same fields and entries as bt.fields", function()
    for _, n in ipairs(nodes) do
      local fields = bt.fields(n)
      local seen = 0
      for k, v in pairs(n) do
        assert.equal(fields[k], v, tostring(n) .. "." .. tostring(k))
        seen = seen + 1
      end
      local want = 0
      for _ in pairs(fields) do want = want + 1 end
      assert.equal(want, seen)
      for _, view in ipairs({ "children", "options" }) do
        if n[view] then
          local copy, m = bt.fields(n[view]), 0
          for k, v in pairs(n[view]) do
            assert.equal(copy[k], v)
            m = m + 1
          end
          local w = 0
          for _ in pairs(copy) do w = w + 1 end
          assert.equal(w, m)
          assert.equal(#copy, #n[view])
        end
      end
    end
  end)

  it("ipairs walks a children list in order", function()
    local s = nodes[1]
    local got = {}
    for i, c in ipairs(s.children) do got[i] = c.ticks end
    assert.are.same({ 1, 2 }, got)
  end)
end)
