-- Fails when the rockspec's C source list differs from the .c files under
-- src/ (run by `make lint` from the repository root).
local function rockspec_sources(path)
  local env = {}
  local chunk = assert(loadfile(path, "t", env))
  chunk()
  local mod = env.build and env.build.modules and env.build.modules["wayfinder.core"]
  assert(mod and mod.sources, path .. ": build.modules['wayfinder.core'].sources missing")
  local set = {}
  for _, s in ipairs(mod.sources) do set[s] = true end
  return set
end

local function tree_sources()
  local set = {}
  local p = assert(io.popen("find src -name '*.c' | sort"))
  for line in p:lines() do set[line] = true end
  p:close()
  return set
end

local spec = rockspec_sources("wayfinder-scm-1.rockspec")
local tree = tree_sources()
local bad = {}
for s in pairs(tree) do
  if not spec[s] then bad[#bad + 1] = "not in the rockspec: " .. s end
end
for s in pairs(spec) do
  if not tree[s] then bad[#bad + 1] = "in the rockspec but missing: " .. s end
end
table.sort(bad)
if #bad > 0 then
  io.stderr:write("rockspec drift:\n  " .. table.concat(bad, "\n  ") .. "\n")
  os.exit(1)
end
