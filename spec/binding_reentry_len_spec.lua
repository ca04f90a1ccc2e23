-- The walker case of spec/binding_reentry_spec.lua: the points' __len (and
-- a finalizer it leaves) closes the walker during walker:set_route. Tables
-- honour __len from Lua 5.2 on; 5.1 and LuaJIT take a table's raw length,
-- so no Lua code runs there (tools/specs-not-portable.txt skips this file).
local reentry = require("support.reentry")

for _, how in ipairs({ { "a metamethod", reentry.hostile },
  { "a finalizer", reentry.finalizing } }) do
  local name, make = how[1], how[2]
  describe("closing the object from " .. name .. " during a call", function()
    it("walker:set_route (the points close the walker)", function()
      local w = reentry.walker()
      local pts = setmetatable({}, { __len = function()
        reentry.garbage(function() w:close() end)
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
