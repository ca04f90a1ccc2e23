-- wayfinder_bench.lua - what a Lua script pays for wayfinder's search:
-- grid:find_path timed per call (argument checks, the search, and building
-- the waypoint tables) with the same clocks as the C harnesses
-- (CLOCK_MONOTONIC, and the thread's processor time beside it), through the
-- small peer_clock module built next to them.
--
-- usage: lua5.4 wayfinder_bench.lua MAP SCEN [K [WARMUP]]   (as wayfinder_bench.c)
-- Prints the record lines described in peer_common.h.
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")
local clock = require("peer_clock")

local SQRT2 = math.sqrt(2)

local function basename(path)
  return path:match("([^/]+)$") or path
end

local function read_all(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

-- The harness reads the map itself ('.', 'G', 'S' passable) so the path
-- check does not rely on the code it measures.
local function load_map(path)
  local text = read_all(path)
  local w = tonumber(text:match("width (%d+)"))
  local h = tonumber(text:match("height (%d+)"))
  local body = text:match("\nmap\r?\n(.*)$")
  assert(w and h and body, path .. ": bad header")
  local pass, y = {}, 0
  for row in body:gmatch("[^\r\n]+") do
    if y < h then
      assert(#row == w, path .. ": row " .. y .. " is not " .. w .. " wide")
      for x = 1, w do
        local c = row:sub(x, x)
        pass[y * w + x] = c == "." or c == "G" or c == "S"
      end
    end
    y = y + 1
  end
  assert(y >= h, path .. ": missing rows")
  return { w = w, h = h, pass = pass }
end

local function load_scen(path)
  local queries, header = {}, false
  for line in (read_all(path) .. "\n"):gmatch("([^\n]*)\n") do
    if line:match("%S") then
      if not header then
        assert(line:match("^version"), path .. ": expected a version header")
        header = true
      else
        local f = {}
        for word in line:gmatch("%S+") do f[#f + 1] = word end
        assert(#f == 9, path .. ": expected 9 fields")
        queries[#queries + 1] = {
          sx = compat.tointeger(tonumber(f[5])), sy = compat.tointeger(tonumber(f[6])),
          gx = compat.tointeger(tonumber(f[7])), gy = compat.tointeger(tonumber(f[8])),
          length = f[9],
        }
      end
    end
  end
  return queries
end

-- Same selection as peer_common.c's pc_select (indices are 0-based).
local function select(n, k)
  local idx = {}
  if k <= 0 or k >= n then
    for i = 0, n - 1 do idx[#idx + 1] = i end
  else
    for i = 0, k - 1 do idx[#idx + 1] = compat.idiv(i * n, k) end
  end
  return idx
end

local function passable(map, x, y)
  return x >= 0 and y >= 0 and x < map.w and y < map.h and map.pass[y * map.w + x + 1]
end

-- Same rule as peer_common.c's pc_check_path; returns length or nil, why.
local function check_path(map, path, q)
  local first, last = path[1], path[#path]
  if first.x ~= q.sx or first.y ~= q.sy then
    return nil, ("starts at (%d,%d)"):format(first.x, first.y)
  end
  if last.x ~= q.gx or last.y ~= q.gy then
    return nil, ("ends at (%d,%d)"):format(last.x, last.y)
  end
  local ortho, diag = 0, 0
  for i = 2, #path do
    local x, y = path[i - 1].x, path[i - 1].y
    local dx, dy = path[i].x - x, path[i].y - y
    if dx ~= 0 and dy ~= 0 and math.abs(dx) ~= math.abs(dy) then
      return nil, ("segment (%d,%d)-(%d,%d) not straight"):format(x, y, path[i].x, path[i].y)
    end
    local steps = math.max(math.abs(dx), math.abs(dy))
    local sx = dx > 0 and 1 or dx < 0 and -1 or 0
    local sy = dy > 0 and 1 or dy < 0 and -1 or 0
    for _ = 1, steps do
      if sx ~= 0 and sy ~= 0 and not (passable(map, x + sx, y) and passable(map, x, y + sy)) then
        return nil, ("corner cut (%d,%d)->(%d,%d)"):format(x, y, x + sx, y + sy)
      end
      x, y = x + sx, y + sy
      if not passable(map, x, y) then
        return nil, ("enters blocked (%d,%d)"):format(x, y)
      end
    end
    if sx ~= 0 and sy ~= 0 then diag = diag + steps else ortho = ortho + steps end
  end
  return ortho + diag * SQRT2
end

local function run_pass(peer, algorithm, grid, map, queries, idx, warmup, map_name, out)
  local options = { algorithm = algorithm }
  local now, cpu = clock.now_ns, clock.cpu_ns
  for i = 1, math.min(warmup, #idx) do
    local q = queries[idx[i] + 1]
    grid:find_path(q.sx + 0.5, q.sy + 0.5, q.gx + 0.5, q.gy + 0.5, options)
  end
  for _, i in ipairs(idx) do
    local q = queries[i + 1]
    local c0 = cpu()
    local t0 = now()
    local path, len_or_reason = grid:find_path(q.sx + 0.5, q.sy + 0.5, q.gx + 0.5, q.gy + 0.5,
                                               options)
    local t1 = now()
    local c1 = cpu()
    local status, len, why = "ok", 0, "-"
    if not path then
      status, why = "nopath", tostring(len_or_reason)
    else
      local walked, bad = check_path(map, path, q)
      if not walked then
        status, why = "invalid", bad
      elseif math.abs(walked - len_or_reason) > 1e-7 * (walked + 1) then
        status, why = "invalid", ("reported length %.9f"):format(len_or_reason)
      end
      len = walked or 0
    end
    out[#out + 1] = ("Q\t%s\t%s\t%d\t%s\t%d\t0\t%d\t0\t%.9f\t%s\t%d\t%d\t%d\t%d\t%s"):format(
      peer, map_name, i, status, t1 - t0, c1 - c0, len, q.length, q.sx, q.sy, q.gx, q.gy, why)
  end
end

local function main(args)
  local map_path, scen_path = args[1], args[2]
  if not scen_path then
    io.stderr:write("usage: lua5.4 wayfinder_bench.lua MAP SCEN [K [WARMUP]]\n")
    os.exit(2)
  end
  local k = compat.tointeger(tonumber(args[3] or "0")) or 0
  local warmup = compat.tointeger(tonumber(args[4] or "10")) or 10
  local grid = assert(wayfinder.grid.load_movingai(map_path))
  local map = load_map(map_path)
  local queries = load_scen(scen_path)
  local idx = select(#queries, k)
  local out = {}
  local name = basename(map_path)
  run_pass("wayfinder-jps-lua", "jps", grid, map, queries, idx, warmup, name, out)
  run_pass("wayfinder-astar-lua", "astar", grid, map, queries, idx, warmup, name, out)
  grid:close()
  io.write(table.concat(out, "\n"), "\n")
end

main(arg)
