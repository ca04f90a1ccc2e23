-- Every Lua version the module is built for (make versions writes the list
-- to build/versions: lua5.1, lua5.2, lua5.3, luajit, those installed) gives
-- the committed trace hash and the same bad-input messages as Lua 5.4.
local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("*a")
  p:close()
  return out
end

local function versions()
  local f = io.open("build/versions", "r")
  if not f then error("build/versions is missing: run `make versions` (make test does)") end
  local list = { { lua = "lua5.4", cpath = "build/?.so" } }
  for v in f:lines() do
    if v ~= "" then list[#list + 1] = { lua = v, cpath = "build/" .. v .. "/?.so" } end
  end
  f:close()
  return list
end

describe("Lua versions", function()
  it("every installed version's build gives the committed trace hash", function()
    local reference = dofile("spec/data/reference_traces.lua").batch
    for _, v in ipairs(versions()) do
      local out = run(v.lua .. " spec/support/trace.lua '" .. v.cpath .. "'")
      local where, digest = out:match("^([^\n]*)\n([^\n]*)\n")
      assert.are.equal(v.cpath:gsub("%?", "wayfinder/core"), where, v.lua .. ": " .. out)
      assert.are.equal(reference, digest, v.lua .. " gives another trace hash")
    end
  end)

  it("every installed version gives the same bad-input messages as 5.4", function()
    local list = versions()
    local want = run("lua5.4 spec/support/errors_probe.lua 'build/?.so'")
    assert.truthy(want:find("grid.new: width must be", 1, true), want)
    assert.is_nil(want:find("no error", 1, true), want)
    for k = 2, #list do
      local got = run(list[k].lua .. " spec/support/errors_probe.lua '" .. list[k].cpath .. "'")
      assert.are.equal(want, got, list[k].lua .. " differs")
    end
  end)
end)
