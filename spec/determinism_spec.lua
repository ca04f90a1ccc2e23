-- Same inputs, bit-identical outputs: a fixed batch of mixed work (classes,
-- obstructions, costs, goal shapes, smoothing, every algorithm) hashed over
-- every waypoint, cost and expansion count must not change between runs in
-- one process, nor between the gcc -O2, clang -O2 and gcc -O0 builds.
local wayfinder = require("wayfinder")
local batch = require("support.trace_batch")

-- Builds that `make test` produces (the last two through its clang-check
-- target). A missing one is a failure, never a skip.
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
  local p = assert(io.popen("lua5.4 spec/support/trace.lua '" .. build.cpath .. "' 2>&1"))
  local out = p:read("a")
  local ok, how, code = p:close()
  assert(ok, ("trace.lua with %s failed (%s %s):\n%s"):format(build.cpath, tostring(how),
    tostring(code), out))
  local where, digest, found = out:match("^([^\n]+)\n(%x+)\n(%d+)\n$")
  assert(where, "unexpected trace.lua output:\n" .. out)
  return where, digest, tonumber(found)
end

describe("determinism", function()
  local digest_here

  it("the batch gives the same hash twice on the same grids (no stale search scratch)", function()
    local grids, hash = batch.build(wayfinder)
    local first, found = batch.run(grids, hash)
    local second = batch.run(grids, hash)
    assert.are.equal(first, second)
    assert.is_true(found > 150, "only " .. found .. " paths found")
    -- and on freshly built grids
    local again = batch.trace(wayfinder)
    assert.are.equal(first, again)
    for _, g in ipairs(grids) do g:close() end
    digest_here = first
  end)

  it("gcc -O2, clang -O2 and gcc -O0 builds give the same hash as this process", function()
    local digests = {}
    for _, build in ipairs(BUILDS) do
      local where, digest, found = trace_with(build)
      assert.are.equal(build.file, where)
      assert.is_true(found > 150)
      digests[#digests + 1] = build.cpath .. " " .. digest
      assert.are.equal(digest_here or batch.trace(wayfinder), digest,
        "hashes differ:\n  " .. table.concat(digests, "\n  "))
    end
  end)
end)
