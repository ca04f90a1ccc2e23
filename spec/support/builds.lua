-- The builds of the C core that the cross-build determinism specs compare
-- bit for bit: the one this process loaded (the sanitizer build under the
-- second run of `make test`), gcc -O2, clang -O2 and gcc -O0. `make test`
-- builds them all (the last two through `make clang-check`), so a missing
-- one is a failure, never a skip: a spec that compared nothing would pass
-- while proving nothing.
local M = {}

local GCC_O2 = { name = "gcc -O2", cpath = "build/?.so", make = "make build" }
M.CROSS = {
  { name = "clang -O2", cpath = "build/clang/?.so", make = "make clang-check" },
  { name = "gcc -O0", cpath = "build/O0/?.so", make = "make clang-check" },
}

--- The interpreter running this process ("lua5.1" ... "lua5.4", "luajit"):
-- make test runs the specs on every installed Lua, each with its own build
-- of this process (WAYFINDER_CPATH); the other builds are Lua 5.4 ones.
M.INTERPRETER = rawget(_G, "jit") and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")

--- The interpreter that loads a build of the list.
function M.lua_for(build)
  return build.lua or "lua5.4"
end

--- The core library file a cpath template loads.
function M.file(build)
  return (build.cpath:gsub("%?", "wayfinder/core"))
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

--- Raises, naming the file and the make target that builds it, unless
-- every build of the list is built; returns the list.
function M.check(list)
  for _, b in ipairs(list) do
    local file = M.file(b)
    if not exists(file) then
      error(("%s (%s) is missing: run `%s` (make test builds it) before this spec")
        :format(file, b.name, b.make), 2)
    end
  end
  return list
end

--- Every build to compare, this process's first; raises as check does.
function M.all()
  local here = os.getenv("WAYFINDER_CPATH") or GCC_O2.cpath
  local list = { { name = "this process's build", cpath = here, lua = M.INTERPRETER,
    make = here == GCC_O2.cpath and "make build" or "make test" } }
  if here ~= GCC_O2.cpath then list[#list + 1] = GCC_O2 end
  for _, b in ipairs(M.CROSS) do list[#list + 1] = b end
  return M.check(list)
end

return M
