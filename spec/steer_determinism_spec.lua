-- Steering groups and formations give bit-identical traces in the gcc -O2,
-- clang -O2 and gcc -O0 builds (the builds `make test` makes; a missing
-- one fails), and a second run in one build repeats the first.
local BUILDS = {
  { cpath = "build/?.so", file = "build/wayfinder/core.so", make = "make build" },
  { cpath = "build/clang/?.so", file = "build/clang/wayfinder/core.so", make = "make clang-check" },
  { cpath = "build/O0/?.so", file = "build/O0/wayfinder/core.so", make = "make clang-check" },
}

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

local function trace_with(build)
  assert(exists(build.file), build.file .. " is missing: run `" .. build.make .. "` first")
  local p = assert(io.popen("lua5.4 spec/support/steer_trace.lua '" .. build.cpath .. "' 2>&1"))
  local out = p:read("*a")
  local ok, how, code = p:close()
  assert(ok, ("steer_trace.lua with %s failed (%s %s):\n%s"):format(build.cpath,
    tostring(how), tostring(code), out))
  local where, digest = out:match("^([^\n]+)\n(%x+)\n$")
  assert(where, "unexpected steer_trace.lua output:\n" .. out)
  return where, digest
end

describe("steer determinism", function()
  it("gcc -O2, clang -O2 and gcc -O0 builds give the same steering trace", function()
    local first
    for _, build in ipairs(BUILDS) do
      local where, digest = trace_with(build)
      assert.are.equal(build.file, where)
      first = first or digest
      assert.are.equal(first, digest, build.cpath .. " differs")
    end
    local _, again = trace_with(BUILDS[1])
    assert.are.equal(first, again)
  end)
end)
