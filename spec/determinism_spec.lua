-- Same inputs, bit-identical outputs: a fixed batch of mixed work (classes,
-- obstructions, costs, goal shapes, smoothing, every algorithm) hashed over
-- every waypoint, cost and expansion count must not change between runs in
-- one process, nor between the gcc -O2, clang -O2 and gcc -O0 builds.
local wayfinder = require("wayfinder")
local batch = require("support.trace_batch")
local builds = require("support.builds")

local function trace_with(build)
  local p = assert(io.popen(builds.lua_for(build) .. " spec/support/trace.lua '" .. build.cpath .. "' 2>&1"))
  local out = p:read("*a")
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

  it("the batch gives the committed reference hash (spec/data/reference_traces.lua)", function()
    local reference = dofile("spec/data/reference_traces.lua")
    assert.are.equal(reference.batch, digest_here or batch.trace(wayfinder))
  end)

  it("gcc -O2, clang -O2 and gcc -O0 builds give the same hash as this process", function()
    -- raises, naming `make clang-check`, when a build is missing
    local list = builds.all()
    local want = digest_here or batch.trace(wayfinder)
    local digests = {}
    for _, build in ipairs(list) do
      local where, digest, found = trace_with(build)
      assert.are.equal(builds.file(build), where)
      assert.is_true(found > 150)
      digests[#digests + 1] = build.cpath .. " " .. digest
      assert.are.equal(want, digest, "hashes differ:\n  " .. table.concat(digests, "\n  "))
    end
  end)

  it("fails, naming the make target, when a build to compare is missing", function()
    local missing = { name = "clang -O2", cpath = "build/no-such-build/?.so",
      make = "make clang-check" }
    assert.has_error(function() builds.check({ missing }) end,
      "build/no-such-build/wayfinder/core.so (clang -O2) is missing: run `make clang-check` "
      .. "(make test builds it) before this spec")
  end)
end)
