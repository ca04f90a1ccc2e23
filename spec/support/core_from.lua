-- Loads wayfinder with its C core taken from `cpath` only, for the trace
-- scripts that compare builds and Lua versions (spec/support/trace.lua,
-- spec/support/steer_trace.lua). Exits with a usage line when cpath is
-- missing and with a message when no core is found there. Returns the
-- module and the file the core was loaded from. The caller sets
-- package.path first (to find this file).
return function(script, cpath)
  if not cpath then
    io.stderr:write("usage: LUA " .. script .. " CPATH\n")
    os.exit(2)
  end
  package.cpath = cpath
  -- package.searchpath is 5.2+: the same search by hand
  local where
  for t in cpath:gmatch("[^;]+") do
    local f = t:gsub("%?", "wayfinder/core")
    local h = io.open(f, "rb")
    if h then h:close(); where = f; break end
  end
  if not where then
    io.stderr:write("no wayfinder.core in " .. cpath .. "\n")
    os.exit(1)
  end
  return require("wayfinder"), where
end
