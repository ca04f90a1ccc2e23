-- The graph layer's Lua files are written in the subset shared by Lua 5.1
-- to 5.4: each must compile under luac5.1 (when it is installed), and the
-- exact arithmetic they use instead of integer division and bit operators
-- must agree with a plain reference on random inputs.
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
local exact = require("wayfinder.graph.exact")
-- draws the same numbers on every Lua version (support.prng): reseed(n)
-- starts over, random() is in [0, 1), random(n) in [1, n], random(a, b)
-- in [a, b]
local prng = require("support.prng")
local gen = prng.new(1)
local function reseed(n) gen = prng.new(n) end
local function random(a, b)
  if a == nil then return gen.float() end
  return gen.int(a, b)
end

local FILES = {
  "lua/wayfinder/graph/init.lua", "lua/wayfinder/graph/check.lua",
  "lua/wayfinder/graph/exact.lua", "lua/wayfinder/graph/model.lua",
  "lua/wayfinder/graph/links.lua", "lua/wayfinder/graph/solve.lua",
  "lua/wayfinder/graph/build.lua", "lua/wayfinder/graph/save.lua",
  "lua/wayfinder/graph/doors.lua", "lua/wayfinder/graph/refine.lua",
  "lua/wayfinder/graph_queue.lua", "lua/wayfinder/bezier.lua",
  "spec/support/graph_brute.lua", "bench/graph.lua", "examples/town.lua",
}

local function has_luac51()
  local p = io.popen("env -u LD_PRELOAD sh -c 'command -v luac5.1' 2>/dev/null")
  local out = p:read("*a")
  p:close()
  return out ~= ""
end

describe("graph files in the common Lua subset", function()
  it("compile under luac5.1", function()
    if not has_luac51() then
      pending("luac5.1 is not installed")
      return
    end
    local files = {}
    for _, f in ipairs(FILES) do files[#files + 1] = f end
    local p = io.popen("env -u LD_PRELOAD ls spec/graph_*_spec.lua")
    for line in p:lines() do files[#files + 1] = line end
    p:close()
    for _, f in ipairs(files) do
      local h = io.popen("env -u LD_PRELOAD luac5.1 -p '" .. f .. "' 2>&1")
      local out = h:read("*a")
      h:close()
      assert.are.equal("", out, f)
    end
  end)

  it("divides, masks and measures as plain integer arithmetic does", function()
    reseed(15)
    for _ = 1, 2000 do
      local a, b = random(-2 ^ 40, 2 ^ 40), random(1, 2 ^ 12)
      local q = exact.idiv(a, b)
      assert.is_true(q * b <= a and a < (q + 1) * b, ("%d / %d"):format(a, b))
      local m, k = random(0, 2 ^ 31 - 1), random(1, 32)
      local v = 1
      for _ = 2, k do v = v * 2 end
      assert.are.equal(v, exact.bit(k))
      local set = math.floor(m / v) % 2 == 1
      assert.are.equal(set, exact.has_bit(m, k))
      assert.are.equal(set and m or m + v, exact.set_bit(m, k))
      -- small enough for the plain square root to be checked exactly
      local dx, dy = random(-2 ^ 20, 2 ^ 20), random(-2 ^ 20, 2 ^ 20)
      local n = dx * dx + dy * dy
      local r = exact.hypot_ceil(dx, dy)
      assert.is_true(r * r >= n and (r == 0 or (r - 1) * (r - 1) < n),
        ("hypot %d %d -> %d"):format(dx, dy, r))
    end
    -- past 2^53 the sum of squares cannot be formed exactly; a Pythagorean
    -- triple scaled up has a known root
    assert.are.equal(5 * 2 ^ 28, exact.hypot_ceil(3 * 2 ^ 28, 4 * 2 ^ 28))
    assert.are.equal(5 * 2 ^ 28 + 1, exact.hypot_ceil(3 * 2 ^ 28, 4 * 2 ^ 28 + 1))
  end)
end)
