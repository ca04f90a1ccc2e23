-- Steering groups and formations give bit-identical traces in every build
-- `make test` makes (this process's, gcc -O2, clang -O2, gcc -O0; a missing
-- one fails) and under every installed Lua version (build/versions, written
-- by `make versions`), and a second run in one build repeats the first.
local builds = require("support.builds")

local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("*a")
  p:close()
  return out
end

-- The builds to compare: the cross-build list, then one per Lua version.
local function all_builds()
  local list = builds.all()
  local f = io.open("build/versions", "r")
  if not f then error("build/versions is missing: run `make versions` (make test does)") end
  for v in f:lines() do
    if v ~= "" then
      list[#list + 1] = { name = v, lua = v, cpath = "build/" .. v .. "/?.so",
        make = "make versions" }
    end
  end
  f:close()
  return builds.check(list)
end

local function trace_with(build)
  local lua = builds.lua_for(build)
  local out = run(lua .. " spec/support/steer_trace.lua '" .. build.cpath .. "'")
  local where, digest = out:match("^([^\n]+)\n(%x+)\n$")
  assert(where, ("steer_trace.lua under %s with %s failed:\n%s"):format(lua, build.cpath, out))
  return where, digest
end

describe("steer determinism", function()
  it("every build and every Lua version gives the same steering trace", function()
    local list = all_builds()
    local first
    for _, build in ipairs(list) do
      local where, digest = trace_with(build)
      assert.are.equal(builds.file(build), where)
      first = first or digest
      assert.are.equal(first, digest, build.name .. " (" .. build.cpath .. ") differs")
    end
    local _, again = trace_with(list[1])
    assert.are.equal(first, again)
  end)
end)
