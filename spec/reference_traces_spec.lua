-- The house world and the units give the trace hashes committed in
-- spec/data/reference_traces.lua, on every Lua version and every build: a
-- compiler, processor, C library or code change that alters a result fails
-- here instead of agreeing with itself. Re-basing after a change meant to
-- alter results: lua5.4 tools/reference-hash.lua --update (docs/reliability.md).
local wayfinder = require("wayfinder")
local runs = require("support.reference_runs")
local builds = require("support.builds")

local reference = dofile("spec/data/reference_traces.lua")
local REBASE = " (if the change is meant, re-base: lua5.4 tools/reference-hash.lua --update)"

describe("reference traces", function()
  it("the house world gives the committed hash", function()
    assert.are.equal(reference.house, runs.house(), "house trace" .. REBASE)
  end)

  it("the units give the committed hash, with arrivals to hash", function()
    local hash, arrived = runs.units(wayfinder)
    assert.is_true(arrived > 20, "only " .. arrived .. " arrivals")
    assert.are.equal(reference.units, hash, "units trace" .. REBASE)
  end)

  it("the same run twice gives the same hashes (no state kept between runs)", function()
    assert.are.equal(runs.house(), runs.house())
    assert.are.equal((runs.units(wayfinder)), (runs.units(wayfinder)))
  end)

  it("the clang -O2 and gcc -O0 builds give the committed hashes", function()
    for _, build in ipairs(builds.check(builds.CROSS)) do
      local p = assert(io.popen("WAYFINDER_CPATH='" .. build.cpath .. "' "
        .. builds.lua_for(build) .. " tools/reference-hash.lua 2>&1"))
      local out = p:read("*a")
      local ok = p:close()
      assert.is_true(ok == true or ok == 0, build.name .. ":\n" .. out .. REBASE)
      assert.is_truthy(out:find("house  " .. reference.house, 1, true), out)
      assert.is_truthy(out:find("units  " .. reference.units, 1, true), out)
    end
  end)
end)
