-- world:plan sees a person moved earlier in the same tick, whatever the
-- tick count: a world loaded at tick 2^40 folded the tick and its moves
-- into one number past 2^53, and on 5.1 and LuaJIT a move within the tick
-- was lost, so the plan went through the person's new place.
local world = require("wayfinder.world")

local function plans(tick)
  local w = world.new { width = 8, height = 1 }
  w:add_person { x = 0.5, y = 0.5 }
  local b = w:add_person { x = 6.5, y = 0.5 }
  if tick then
    local s = w:save()
    s.tick = tick
    w = world.load(s)
    b = w:object(b.id)
  end
  local first = w:plan(0.5, 0.5, 3.5, 0.5)
  b:place(2.5, 0.5)                     -- now in the way, same tick
  local second, reason = w:plan(0.5, 0.5, 3.5, 0.5)
  return first, second, reason
end

describe("world:plan after a move in the same tick", function()
  for _, tick in ipairs({ false, 2 ^ 33, 2 ^ 40, 2 ^ 52 }) do
    it("sees it at tick " .. tostring(tick or 0), function()
      local first, second, reason = plans(tick or nil)
      assert.equals(3.5, first[#first][1])
      assert.is_nil(second)
      assert.equals("no_path", reason)
    end)
  end
end)
