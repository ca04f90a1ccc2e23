-- report.lua - turns the record lines of the peer harnesses into the
-- comparison table of `make bench-peers`.
--
-- usage: lua5.4 report.lua RECORDS
-- RECORDS holds, in any order:
--   M  map  width  height  queries  subset      one per measured map (subset
--                                               = queries PathFinding.js ran,
--                                               0 = all)
--   S  peer  map-or-*  reason                   a peer that was skipped
--   Q  ...                                      per-query records (see
--                                               peer_common.h)
local compat = require("wayfinder.compat")
local SQRT2 = math.sqrt(2)

-- Rows in print order. A row reads one peer's records; "with_extra" adds the
-- time a caller pays outside the search (PathFinding.js's grid clone).
local ROWS = {
  { key = "wf-jps-c", peer = "wayfinder-jps-c", label = "wayfinder JPS, C core" },
  { key = "wf-astar-c", peer = "wayfinder-astar-c", label = "wayfinder A*, C core" },
  { key = "wf-jps-lua", peer = "wayfinder-jps-lua", label = "wayfinder JPS, Lua find_path" },
  { key = "wf-astar-lua", peer = "wayfinder-astar-lua", label = "wayfinder A*, Lua find_path" },
  { key = "tcod", peer = "libtcod-astar", label = "libtcod A* (C)" },
  { key = "pf-astar", peer = "pathfinding.js-astar", label = "PathFinding.js A*, search" },
  { key = "pf-astar-clone", peer = "pathfinding.js-astar", with_extra = true,
    label = "PathFinding.js A* + clone" },
  { key = "pf-jps", peer = "pathfinding.js-jps", label = "PathFinding.js JPS, search" },
  { key = "pf-jps-clone", peer = "pathfinding.js-jps", with_extra = true,
    label = "PathFinding.js JPS + clone" },
}

-- Reference figures from ../shared/maps/README.md in microseconds per query,
-- measured on this machine class by the README's authors, not in this run.
local REFERENCE = {
  ["clusters512.map"] = {
    rows = { tcod = 12500, ["pf-jps-clone"] = 130000, ["pf-jps"] = 55000 },
    only = {
      { "research reference JPS (C++)", 450 },
      { "research reference JPS2+ (C++)", 290 },
      { "Jumper JPS (Lua)", 190000 },
    },
  },
  ["rooms16.map"] = {
    rows = { tcod = 350, ["pf-jps-clone"] = 800 },
    only = {
      { "research reference JPS (C++)", 5.3 },
      { "research reference JPS2+ (C++)", 1.6 },
      { "Jumper JPS (Lua)", 4400 },
    },
  },
}

local TARGET_TCOD = 25
local TARGET_PF_JPS = 200
local TARGET_CLUSTERS_US = 450

-- Half a unit of the last printed digit, never less than 1e-3. A length
-- printed without a decimal point is a whole number printed exactly.
local function tolerance(text)
  local frac = text:match("%.(%d+)$")
  local half = frac and 0.5 * 10.0 ^ -#frac or 0
  return math.max(half, 1e-3)
end

local function split(line)
  local f = {}
  for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = field end
  return f
end

local function median(sorted)
  local n = #sorted
  if n == 0 then return nil end
  if n % 2 == 1 then return sorted[compat.idiv(n + 1, 2)] end
  return (sorted[compat.idiv(n, 2)] + sorted[compat.idiv(n, 2) + 1]) / 2
end

local function fmt_us(us)
  if not us then return "-" end
  if us < 10 then return ("%.2f"):format(us) end
  if us < 100 then return ("%.1f"):format(us) end
  return ("%.0f"):format(us)
end

local function fmt_ratio(r)
  if not r then return "-" end
  if r < 10 then return ("%.2fx"):format(r) end
  return ("%.1fx"):format(r)
end

local function read_records(path)
  local maps, map_order, skipped, recs = {}, {}, {}, {}
  for line in io.lines(path) do
    local f = split(line)
    if f[1] == "M" then
      maps[f[2]] = { w = tonumber(f[3]), h = tonumber(f[4]), n = tonumber(f[5]),
                     subset = tonumber(f[6]) }
      map_order[#map_order + 1] = f[2]
    elseif f[1] == "S" then
      skipped[#skipped + 1] = { peer = f[2], map = f[3], reason = f[4] }
    elseif f[1] == "Q" and #f >= 16 then
      local r = {
        peer = f[2], map = f[3], index = tonumber(f[4]), status = f[5],
        ns = tonumber(f[6]), extra = tonumber(f[7]),
        cpu = tonumber(f[8]), extra_cpu = tonumber(f[9]), length = tonumber(f[10]),
        expected_text = f[11], expected = tonumber(f[11]),
        sx = f[12], sy = f[13], gx = f[14], gy = f[15], detail = f[16],
      }
      r.tolerance = tolerance(r.expected_text)
      r.optimal = r.status == "ok" and math.abs(r.length - r.expected) <= r.tolerance
      local by_map = recs[r.map] or {}
      recs[r.map] = by_map
      local list = by_map[r.peer] or {}
      by_map[r.peer] = list
      list[#list + 1] = r
    end
  end
  return maps, map_order, skipped, recs
end

local function mismatch_text(r)
  local where = ("query %d (%s,%s)->(%s,%s), optimal %s"):format(
    r.index, r.sx, r.sy, r.gx, r.gy, r.expected_text)
  if r.status == "nopath" then
    return where .. ": no path returned (" .. r.detail .. ")"
  elseif r.status == "invalid" then
    return ("%s: illegal path of length %.6f: %s"):format(where, r.length, r.detail)
  end
  local d = r.length - r.expected
  return ("%s: path length %.6f, %s by %.6f (= %.3f x (2 - sqrt 2))"):format(
    where, r.length, d > 0 and "longer" or "SHORTER", math.abs(d), math.abs(d) / (2 - SQRT2))
end

-- Median and mean of a list of microsecond values (sorted in place).
local function summarize(values)
  local sum = 0
  for _, v in ipairs(values) do sum = sum + v end
  table.sort(values)
  return median(values), #values > 0 and sum / #values or nil
end

-- Statistics of one row over all of its records and over the common set.
local function row_stats(row, list, common)
  local wall, cpu, cwall, ccpu = {}, {}, {}, {}
  local optimal, mismatches = 0, {}
  for _, r in ipairs(list) do
    local us = (r.ns + (row.with_extra and r.extra or 0)) / 1000
    local cpu_us = (r.cpu + (row.with_extra and r.extra_cpu or 0)) / 1000
    wall[#wall + 1] = us
    cpu[#cpu + 1] = cpu_us
    if common[r.index] then
      cwall[#cwall + 1] = us
      ccpu[#ccpu + 1] = cpu_us
    end
    if r.optimal then optimal = optimal + 1 else mismatches[#mismatches + 1] = r end
  end
  local s = { n = #list, optimal = optimal, mismatches = mismatches }
  s.median, s.mean = summarize(wall)
  s.cpu_median, s.cpu_mean = summarize(cpu)
  s.c_median, s.c_mean = summarize(cwall)
  s.c_cpu_median = summarize(ccpu)
  return s
end

-- The queries every peer that ran on a map ran.
local function common_set(by_peer)
  local count, present = {}, 0
  for _, list in pairs(by_peer) do
    present = present + 1
    for _, r in ipairs(list) do count[r.index] = (count[r.index] or 0) + 1 end
  end
  local common, n = {}, 0
  for index, c in pairs(count) do
    if c == present then
      common[index] = true
      n = n + 1
    end
  end
  return common, n
end

local out = io.write
local ROW_FMT = "%-30s %7s %7s %8s %10s %10s %8s %8s %10s %8s  %s\n"

local function print_mismatches(name, stats, wayfinder_bad)
  local printed = {}
  for _, row in ipairs(ROWS) do
    local s = stats[row.key]
    if s and #s.mismatches > 0 and not printed[row.peer] then
      printed[row.peer] = true
      local is_wf = row.peer:match("^wayfinder") ~= nil
      local kinds = { shorter = 0, longer = 0, nopath = 0, invalid = 0 }
      for _, r in ipairs(s.mismatches) do
        local k = r.status
        if k == "ok" then k = r.length < r.expected and "shorter" or "longer" end
        kinds[k] = kinds[k] + 1
      end
      out(("  %s mismatches on %s: %d (longer %d, shorter %d, no path %d, illegal %d)%s\n")
        :format(row.peer, name, #s.mismatches, kinds.longer, kinds.shorter, kinds.nopath,
          kinds.invalid, is_wf and " -- a wayfinder core bug; every one listed" or ""))
      local limit = is_wf and math.huge or 5
      for i, r in ipairs(s.mismatches) do
        if i > limit then
          out(("    ... %d more\n"):format(#s.mismatches - limit))
          break
        end
        out("    " .. mismatch_text(r) .. "\n")
      end
      if is_wf then wayfinder_bad[#wayfinder_bad + 1] = { name, row.peer, #s.mismatches } end
    end
  end
end

local function report_map(name, info, by_peer, skipped, wayfinder_bad)
  local common, ncommon = common_set(by_peer)
  out(("\n== %s (%dx%d), %d queries in the file"):format(name, info.w, info.h, info.n))
  if info.subset > 0 and info.subset < info.n then
    out((":\n   PathFinding.js ran %d evenly spread ones (query floor(i*%d/%d)),"
      .. " the other peers all;\n   ratios use the %d queries every peer ran\n")
      :format(info.subset, info.n, info.subset, ncommon))
  else
    out(": every peer ran all of them\n")
  end
  out(ROW_FMT:format("peer", "queries", "optimal", "mismatch", "median us", "mean us",
    "ratio", "mean r.", "cpu med us", "cpu r.", "README ref."))

  local stats = {}
  for _, row in ipairs(ROWS) do
    local list = by_peer[row.peer]
    if list then stats[row.key] = row_stats(row, list, common) end
  end
  local base = stats["wf-jps-c"]
  local ref = REFERENCE[name]
  local ratios = { median = {}, mean = {}, cpu = {} }
  for _, row in ipairs(ROWS) do
    local s = stats[row.key]
    if s then
      if base and base.c_median and s.c_median then
        ratios.median[row.key] = s.c_median / base.c_median
        ratios.mean[row.key] = s.c_mean / base.c_mean
        ratios.cpu[row.key] = s.c_cpu_median / base.c_cpu_median
      end
      local r_us = ref and ref.rows[row.key]
      out(ROW_FMT:format(row.label, s.n, s.optimal, #s.mismatches, fmt_us(s.median),
        fmt_us(s.mean), fmt_ratio(ratios.median[row.key]), fmt_ratio(ratios.mean[row.key]),
        fmt_us(s.cpu_median), fmt_ratio(ratios.cpu[row.key]),
        r_us and fmt_us(r_us) .. " us" or ""))
    end
  end
  if ref then
    for _, only in ipairs(ref.only) do
      out(ROW_FMT:format(only[1], "-", "-", "-", "-", "-", "-", "-", "-", "-",
        fmt_us(only[2]) .. " us (README; not run here)"))
    end
  end
  for _, sk in ipairs(skipped) do
    if sk.map == name or sk.map == "*" then
      out(("%-30s skipped: %s\n"):format(sk.peer, sk.reason))
    end
  end
  print_mismatches(name, stats, wayfinder_bad)
  return { name = name, ratios = ratios, stats = stats }
end

local COLUMNS = {
  { "tcod", "libtcod A*" }, { "pf-astar-clone", "PF A*+clone" },
  { "pf-jps-clone", "PF JPS+clone" }, { "pf-jps", "PF JPS" },
  { "wf-astar-c", "wf A* C" }, { "wf-jps-lua", "wf JPS Lua" },
}

local function ratio_table(summary, kind, title)
  out(("\n== %s\n"):format(title))
  out(("%-20s %10s"):format("map", kind == "cpu" and "wf cpu us" or "wf JPS us"))
  for _, c in ipairs(COLUMNS) do out((" %13s"):format(c[2])) end
  out("\n")
  for _, s in ipairs(summary) do
    local base = s.stats["wf-jps-c"]
    local us = base and (kind == "cpu" and base.c_cpu_median or base.c_median)
    out(("%-20s %10s"):format(s.name, fmt_us(us)))
    for _, c in ipairs(COLUMNS) do out((" %13s"):format(fmt_ratio(s.ratios[kind][c[1]]))) end
    out("\n")
  end
end

-- One target line: every map's median ratio (with the mean and processor
-- time ratios beside it), then how many maps meet it.
local function target(summary, label, key, goal)
  local parts, met, total = {}, 0, 0
  for _, s in ipairs(summary) do
    local r = s.ratios.median[key]
    if r then
      total = total + 1
      if r >= goal then met = met + 1 end
      parts[#parts + 1] = ("%s %s%s (mean %s, cpu %s)"):format(s.name:gsub("%.map$", ""),
        fmt_ratio(r), r >= goal and "" or " NO", fmt_ratio(s.ratios.mean[key]),
        fmt_ratio(s.ratios.cpu[key]))
    end
  end
  if total == 0 then
    out(("  %s: not measured (peer skipped)\n"):format(label))
    return
  end
  out(("  %s: met on %d of %d maps -> %s\n"):format(label, met, total,
    met == total and "MET" or "NOT MET"))
  for i = 1, #parts, 2 do
    out("      " .. table.concat(parts, ", ", i, math.min(i + 1, #parts)) .. "\n")
  end
end

local function main(path)
  local maps, map_order, skipped, recs = read_records(path)
  local summary, wayfinder_bad = {}, {}
  for _, name in ipairs(map_order) do
    summary[#summary + 1] = report_map(name, maps[name], recs[name] or {}, skipped,
      wayfinder_bad)
  end

  ratio_table(summary, "median",
    "ratios: peer median / wayfinder JPS (C core) median, same queries, same run")
  ratio_table(summary, "cpu", "the same from processor time (not inflated by preemption)")

  out("\n== targets (report lines, not failures; judged on the median wall-clock ratio)\n")
  target(summary, ("wayfinder JPS >= %dx faster than libtcod A*"):format(TARGET_TCOD),
    "tcod", TARGET_TCOD)
  target(summary, ("wayfinder JPS >= %dx faster than PathFinding.js JPS + its clone")
    :format(TARGET_PF_JPS), "pf-jps-clone", TARGET_PF_JPS)
  target(summary, ("wayfinder JPS >= %dx faster than PathFinding.js JPS search alone")
    :format(TARGET_PF_JPS), "pf-jps", TARGET_PF_JPS)
  local checked = 0
  for _, s in ipairs(summary) do
    for _, k in ipairs({ "wf-jps-c", "wf-astar-c", "wf-jps-lua", "wf-astar-lua" }) do
      if s.stats[k] then checked = checked + s.stats[k].n end
    end
  end
  if #wayfinder_bad == 0 then
    out(("  0 mismatches by wayfinder: MET (%d wayfinder query results checked)\n")
      :format(checked))
  else
    out("  0 mismatches by wayfinder: NOT MET\n")
    for _, b in ipairs(wayfinder_bad) do
      out(("    %s on %s: %d mismatches (listed above)\n"):format(b[2], b[1], b[3]))
    end
  end
  local found = false
  for _, s in ipairs(summary) do
    local st = s.stats["wf-jps-c"]
    if s.name == "clusters512.map" and st then
      found = true
      out(("  wayfinder JPS per query on clusters512 <= about %d us (research reference"
        .. " JPS), judged on the mean:\n      %s (mean %s us, median %s us;"
        .. " processor time mean %s us)\n"):format(TARGET_CLUSTERS_US,
          st.mean <= TARGET_CLUSTERS_US and "MET" or "NOT MET", fmt_us(st.mean),
          fmt_us(st.median), fmt_us(st.cpu_mean)))
    end
  end
  if not found then out("  clusters512 per-query target: not measured (map missing)\n") end
end

main(arg[1] or error("usage: lua5.4 report.lua RECORDS"))
