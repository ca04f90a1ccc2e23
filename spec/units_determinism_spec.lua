-- The unit simulation gives bit-identical traces in the gcc -O2, clang -O2
-- and gcc -O0 builds (the builds `make test` makes; a missing one fails).
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
  local p = assert(io.popen("lua5.4 spec/support/units_trace.lua '" .. build.cpath .. "' 2>&1"))
  local out = p:read("*a")
  local ok, how, code = p:close()
  assert(ok, ("units_trace.lua with %s failed (%s %s):\n%s"):format(build.cpath,
    tostring(how), tostring(code), out))
  local where, digest, arrived = out:match("^([^\n]+)\n(%x+)\n(%d+)\n$")
  assert(where, "unexpected units_trace.lua output:\n" .. out)
  return where, digest, tonumber(arrived)
end

describe("units determinism", function()
  it("gcc -O2, clang -O2 and gcc -O0 builds give the same unit trace", function()
    local first
    for _, build in ipairs(BUILDS) do
      local where, digest, arrived = trace_with(build)
      assert.are.equal(build.file, where)
      assert.is_true(arrived > 10, "only " .. arrived .. " arrivals")
      first = first or digest
      assert.are.equal(first, digest, build.cpath .. " differs")
    end
  end)
end)
