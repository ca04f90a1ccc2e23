-- The rockspec: format 3.0, Lua 5.1 to 5.4 (LuaJIT included), a builtin build of the one C
-- module wayfinder.core whose sources are exactly the .c files under src/.
local ROCKSPEC = "wayfinder-scm-1.rockspec"

local function load_rockspec()
  local env = {}
  local f = assert(io.open(ROCKSPEC, "rb"))
  local chunk = assert(require("wayfinder.compat").load(f:read("*a"), "@" .. ROCKSPEC, "t", env))
  f:close()
  chunk()
  return env
end

local function c_files_under_src()
  local files = {}
  local p = assert(io.popen("env -u LD_PRELOAD find src/ -name '*.c' | env -u LD_PRELOAD sort"))
  for line in p:lines() do files[#files + 1] = line end
  p:close()
  return files
end

describe("the rockspec", function()
  local spec = load_rockspec()

  it("is format 3.0 for package wayfinder", function()
    assert.are.equal("3.0", spec.rockspec_format)
    assert.are.equal("wayfinder", spec.package)
    assert.are.equal("scm-1", spec.version)
  end)

  it("depends on Lua 5.1 to 5.4 (every version make test runs) and nothing else", function()
    assert.are.same({ "lua >= 5.1, < 5.5" }, spec.dependencies)
  end)

  it("builds only wayfinder.core with the builtin backend", function()
    assert.are.equal("builtin", spec.build.type)
    local modules = {}
    for name in pairs(spec.build.modules) do modules[#modules + 1] = name end
    assert.are.same({ "wayfinder.core" }, modules)
  end)

  it("lists exactly the .c files under src/", function()
    local listed = {}
    for _, s in ipairs(spec.build.modules["wayfinder.core"].sources) do listed[#listed + 1] = s end
    table.sort(listed)
    local tree = c_files_under_src()
    assert.is_true(#tree > 0)
    assert.are.same(tree, listed)
  end)
end)
