--- The cross-build determinism specs' shared parts. A spec's script runs
-- once against every build of support.builds (each in its own process)
-- and prints what it computed through the recorder; compare() asks that
-- every build print the same text.
local M = {}

--- For the script: put(...) records values (numbers written exactly with
-- support.prng.exact, the same on every Lua; a grid path, a list of
-- {x =, y =}, as "x,y;x,y"; anything else with tostring), and flush()
-- writes everything recorded, space-separated, to standard output.
function M.recorder()
  local exact = require("support.prng").exact
  local out = {}
  local function put(...)
    local n = select("#", ...)
    local args = { ... }
    for i = 1, n do
      local v = args[i]
      if type(v) == "table" then
        local parts = {}
        for _, c in ipairs(v) do parts[#parts + 1] = c.x .. "," .. c.y end
        v = table.concat(parts, ";")
      elseif type(v) == "number" then
        v = exact(v)
      end
      out[#out + 1] = tostring(v)
    end
  end
  local function flush() io.write(table.concat(out, " ")) end
  return put, flush
end

--- For the spec: runs script (Lua source; its `...` is the cpath of the
-- build to load) under every build, this process's first, and raises
-- unless each ran, the first printed more than 10000 bytes, and all
-- printed the same. Raises, naming the make target, when a build is
-- missing (support.builds.all).
function M.compare(script)
  local builds = require("support.builds")
  local list = builds.all()
  local file = os.tmpname()
  local f = assert(io.open(file, "wb"))
  f:write(script)
  f:close()
  local outputs = {}
  for i, b in ipairs(list) do
    local p = assert(io.popen(("%s %s '%s' 2>&1"):format(builds.lua_for(b), file, b.cpath)))
    outputs[i] = p:read("*a")
    local ok, how, code = p:close()
    if not ok then
      os.remove(file)
      error(("%s (%s) failed (%s %s):\n%s"):format(b.name, b.cpath, tostring(how),
        tostring(code), outputs[i]:sub(1, 300)), 2)
    end
  end
  os.remove(file)
  if #outputs[1] <= 10000 then
    error("the script printed too little: " .. outputs[1]:sub(1, 300), 2)
  end
  for i = 2, #outputs do
    if outputs[i] ~= outputs[1] then
      error(("%s differs from %s"):format(list[i].name, list[1].name), 2)
    end
  end
  return #list
end

return M
