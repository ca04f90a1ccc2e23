--- bench/lib/system.lua: what the benchmark says about the machine it runs
-- on, and the process's peak resident memory (Linux /proc; every reader
-- returns nil where the information is not available).
local M = {}

local function read_file(path, limit)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read(limit or "a")
  f:close()
  return text
end

local function command_line(cmd)
  local p = io.popen(cmd .. " 2>/dev/null")
  if not p then return nil end
  local text = p:read("*l")
  p:close()
  return text
end

--- The first line `cmd` prints, or nil.
M.command_line = command_line

--- Peak resident set size of this process so far, in bytes (VmHWM).
function M.peak_rss()
  local text = read_file("/proc/self/status")
  local kib = text and text:match("VmHWM:%s*(%d+)%s*kB")
  return kib and tonumber(kib) * 1024
end

--- Current resident set size of this process, in bytes (VmRSS).
function M.rss()
  local text = read_file("/proc/self/status")
  local kib = text and text:match("VmRSS:%s*(%d+)%s*kB")
  return kib and tonumber(kib) * 1024
end

--- Resets the peak resident set size to the current one, so the next
-- peak_rss() covers only what follows. Returns true when the kernel took
-- it (Linux 4.0 and later: writing "5" to /proc/self/clear_refs).
function M.reset_peak_rss()
  local f = io.open("/proc/self/clear_refs", "w")
  if not f then return false end
  local ok = f:write("5")
  local closed = f:close()
  return ok ~= nil and closed == true
end

--- The compiler named in the .comment section of a shared object, or nil.
function M.compiler_of(path)
  local bin = path and read_file(path)
  if not bin then return nil end
  return bin:match("(GCC: %([^%z]-%) [%w%.%-]+)") or bin:match("(clang version [%w%.%-]+)")
end

-- Makefile variables whose values hold no further references, joined over
-- backslash continuations: name -> value.
local function make_variables(text)
  local vars = {}
  local joined = text:gsub("\\\n%s*", " ")
  for line in joined:gmatch("[^\n]+") do
    local name, value = line:match("^([%w_]+)%s*[?:]?=%s*(.-)%s*$")
    if name and not value:find("%$") then vars[name] = value:gsub("%s+", " ") end
  end
  return vars
end

--- The command of the rule that makes `target` in a Makefile, with simple
-- variables ($(CC), $(WARN), ...) replaced by the values written there.
function M.make_rule(makefile, target)
  local text = read_file(makefile)
  if not text then return nil end
  local rule = text:match("\n" .. target:gsub("%p", "%%%0") .. ":[^\n]*\n(.-)\n[^\t]")
  if not rule then return nil end
  local vars = make_variables(text)
  local lines = {}
  for line in rule:gmatch("[^\n]+") do
    if not line:match("^\t@") then
      line = line:gsub("^\t", ""):gsub("%$%(([%w_]+)%)", function(name)
        return vars[name]
      end)
      lines[#lines + 1] = line
    end
  end
  return table.concat(lines, "; ")
end

--- A table describing the machine: cpu, cores, kernel, load.
function M.machine()
  local info = {}
  local cpuinfo = read_file("/proc/cpuinfo") or ""
  info.cpu = cpuinfo:match("model name%s*:%s*([^\n]+)")
  info.cores = tonumber(command_line("nproc") or "")
  info.kernel = command_line("uname -sr")
  info.load = M.load()
  return info
end

--- The 1, 5 and 15 minute load averages, as printed by the kernel.
function M.load()
  local text = read_file("/proc/loadavg")
  return text and text:match("^(%S+ %S+ %S+)")
end

return M
