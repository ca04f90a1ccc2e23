-- wayfinder.world.from_ascii and wayfinder.world.load blame their caller's
-- line on every Lua version, 5.1 and LuaJIT included: each error from
-- spec/support/world_errors_probe.lua starts with the probe's file and the
-- line of the call, and every installed version prints what 5.4 prints.
local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("*a")
  p:close()
  return out
end

local function versions()
  local list = { { lua = "lua5.4", cpath = "build/?.so" } }
  local f = io.open("build/versions", "r")
  if f then
    for v in f:lines() do
      if v ~= "" then list[#list + 1] = { lua = v, cpath = "build/" .. v .. "/?.so" } end
    end
    f:close()
  end
  return list
end

local PROBE = "spec/support/world_errors_probe.lua"

-- The probe's lines: case number, the line the call is on, the message.
local function check_positions(out, who)
  local n = 0
  for i, line, msg in out:gmatch("(%d+)\t(%d+)\t([^\n]*)\n") do
    n = n + 1
    assert.equal(tostring(n), i, who)
    local want = PROBE .. ":" .. line .. ": wayfinder.world."
    assert.equal(want, msg:sub(1, #want), who .. " case " .. i .. ": " .. msg)
  end
  assert.is_true(n >= 10, who .. " printed " .. n .. " cases:\n" .. out)
end

describe("world.from_ascii and world.load errors", function()
  it("name the caller's line on Lua 5.4", function()
    check_positions(run("lua5.4 " .. PROBE .. " 'build/?.so'"), "lua5.4")
  end)

  it("are the same, position included, on every installed version", function()
    local list = versions()
    local want = run("lua5.4 " .. PROBE .. " 'build/?.so'")
    for k = 2, #list do
      local got = run(list[k].lua .. " " .. PROBE .. " '" .. list[k].cpath .. "'")
      check_positions(got, list[k].lua)
      assert.are.equal(want, got, list[k].lua .. " differs")
    end
  end)
end)
