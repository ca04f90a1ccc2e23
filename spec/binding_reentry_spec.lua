-- Lua code that runs in the middle of a call (a metamethod of an argument
-- table, or a finalizer the collector runs during an allocation) may close
-- the very object the call is using. The binding must neither crash nor use
-- the object afterwards: every registered function runs with its objects
-- marked busy, and closing a busy object takes effect when the call ends.
-- This file: the metamethod cases, on every Lua version. The finalizer
-- cases are in spec/binding_reentry_gc_spec.lua, a sequence's __len in
-- spec/binding_reentry_len_spec.lua (5.2+).
local reentry = require("support.reentry")

describe("closing the object from a metamethod during a call", function()
  for _, c in ipairs(reentry.cases(reentry.hostile)) do it(c[1], c[2]) end
end)
