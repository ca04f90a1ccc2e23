-- crowd_report.lua RECORDS - prints crowd.sh's records (C lines from
-- crowd.lua and detour_crowd.cpp) as one table, the peers of a scenario
-- on adjacent rows, scenarios in the order they were first seen.
local path = assert(arg[1], "usage: crowd_report.lua RECORDS")
local order, rows = {}, {}
for line in io.lines(path) do
  local f = {}
  for v in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = v end
  if f[1] == "C" then
    local sc = f[3]
    if not rows[sc] then rows[sc] = {}; order[#order + 1] = sc end
    table.insert(rows[sc], f)
  end
end
local fmt = "%-11s %-14s %6s %8s %5s %5s %5s %5s %8s %7s %9s"
print(string.format(fmt, "scenario", "peer", "agents", "arrived", "t50", "t90", "tall",
  "bound", "gap", "ovl", "ms/t/a"))
for _, sc in ipairs(order) do
  for _, f in ipairs(rows[sc]) do
    print(string.format(fmt, f[3], f[2], f[4], f[5], f[6], f[7], f[8], f[9],
      string.format("%.3f", tonumber(f[11])), f[12], string.format("%.4f", tonumber(f[13]))))
  end
end
if #order == 0 then print("(no records)") end
