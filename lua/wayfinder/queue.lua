--- wayfinder.queue: time-sliced path requests for many agents.
-- A queue serves path requests on one grid in submission order, spending at
-- most a given number of node expansions per queue:run call; see
-- docs/scale.md. The queue and its request handles are the
-- "wayfinder.Queue" and "wayfinder.Request" userdata of the C core.
--
-- Quick then full (docs/scale.md): quick_then_full answers at once with a
-- capped search's partial path, queues the full search, and splices the
-- full path in where the agent stands once it is found (the splicing is
-- the C core's, wayfinder.queue.splice). With options.from = "end" the
-- queued search continues from the quick path's end instead and the two
-- are joined (wayfinder.queue.join).
--
-- Written in the subset of Lua that 5.1 to 5.4 and LuaJIT share.
local core = require("wayfinder.core")

local M = {}

--- Creates a queue for a grid: wayfinder.queue.new(grid [, options]).
M.new = core.queue_new

--- wayfinder.queue.splice(quick, full, x, y) -> path, info | nil, "off_path"
M.splice = core.queue_splice

--- wayfinder.queue.join(quick, rest, x, y) -> path, info | nil, "off_path"
M.join = core.queue_join

local DEFAULT_QUICK = 64
local MAX_QUICK = 1048576

local util = require("wayfinder.util")

local is_integer = util.is_integer
local describe = util.describe_arg
local fail = util.fail

local QuickFull = {}
QuickFull.__index = QuickFull
QuickFull.__name = "wayfinder.QuickFull"

function QuickFull:__tostring()
  return string.format("wayfinder.QuickFull (%s)", self:status())
end

local OPTION_KEYS = { class = true, quick = true, from = true }

--- queue.quick_then_full(queue, sx, sy, gx, gy [, options]) -> quickfull
-- A capped A* search (options.quick expansions, default 64) answers at
-- once with its partial path; the full search goes to the queue, from
-- the start (options.from = "start", the default) or from the quick path's
-- last navcell ("end"; nothing is queued when the quick path reached the
-- goal or failed).
function M.quick_then_full(queue, sx, sy, gx, gy, options)
  local fname = "wayfinder.queue.quick_then_full"
  local mt = getmetatable(queue)
  if type(mt) ~= "table" or mt.__name ~= "wayfinder.Queue" then
    fail(fname, "queue must be a wayfinder.Queue, got %s", describe(queue))
  end
  if queue:is_closed() then fail(fname, "the queue is closed") end
  local grid = queue:grid()
  local w, h = grid:width(), grid:height()
  local coords = { { "sx", sx, w }, { "sy", sy, h }, { "gx", gx, w }, { "gy", gy, h } }
  for _, c in ipairs(coords) do
    if not is_integer(c[2]) or c[2] < 0 or c[2] >= c[3] then
      fail(fname, "%s must be an integer in [0, %d), got %s", c[1], c[3], describe(c[2]))
    end
  end
  if options == nil then options = {} end
  if type(options) ~= "table" then fail(fname, "options must be a table, got %s", describe(options)) end
  for k in pairs(options) do
    if not OPTION_KEYS[k] then fail(fname, "unknown options key %s", describe(k)) end
  end
  local class = options.class
  if class == nil then
    class = grid:classes()[1].name
  else
    local known = false
    for _, c in ipairs(grid:classes()) do
      if c.name == class then known = true end
    end
    if not known then fail(fname, "options.class must name a class of the grid, got %s", describe(class)) end
  end
  local quick = options.quick
  if quick == nil then quick = DEFAULT_QUICK end
  if not is_integer(quick) or quick < 1 or quick > MAX_QUICK then
    fail(fname, "options.quick must be an integer in [1, %d], got %s", MAX_QUICK, describe(quick))
  end
  local from = options.from
  if from == nil then from = "start" end
  if from ~= "start" and from ~= "end" then
    fail(fname, "options.from must be 'start' or 'end', got %s", describe(from))
  end
  local path, length, info = grid:find_path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, {
    class = class, algorithm = "astar", max_expansions = quick, partial = true, smooth = false,
    rewrite_goal = false, escape = false })
  local req
  if from == "start" then
    req = queue:submit({ sx = sx + 0.5, sy = sy + 0.5, gx = gx + 0.5, gy = gy + 0.5, class = class,
      smooth = false, rewrite_goal = false, escape = false })
  elseif path and info.partial then
    local last = path[#path]
    req = queue:submit({ sx = last.x + 0.5, sy = last.y + 0.5, gx = gx + 0.5, gy = gy + 0.5, class = class,
      smooth = false, rewrite_goal = false, escape = false })
  end
  return setmetatable({ req = req, from = from, qpath = path, qlength = length, qinfo = info }, QuickFull)
end

--- quickfull:quick() -> the capped search's path, length, info | nil, reason, info
function QuickFull:quick()
  if self.qpath then return self.qpath, self.qlength, self.qinfo end
  return nil, self.qlength, self.qinfo
end

--- quickfull:status() -> the full search's status
-- With nothing queued (from = "end"): "done" when the quick path reached
-- the goal, "failed" when the quick search failed.
function QuickFull:status()
  if self.req then return self.req:status() end
  return self.qpath and "done" or "failed"
end

--- quickfull:full() -> the full search's result (handle:result())
-- With nothing queued: nil, "not_queued" when the quick path reached the
-- goal, the quick search's nil, reason, info when it failed.
function QuickFull:full()
  if self.req then return self.req:result() end
  if self.qpath then return nil, "not_queued" end
  return nil, self.qlength, self.qinfo
end

--- quickfull:cancel() -> true when the full search was pending
function QuickFull:cancel()
  if self.req then return self.req:cancel() end
  return false
end

--- quickfull:splice(x, y) -> path, info | nil, reason
-- The rest of the way for an agent standing on navcell (x, y) of the quick
-- path: the full path spliced in there (wayfinder.queue.splice).
function QuickFull:splice(x, y)
  local fname = "quickfull:splice"
  if not is_integer(x) or not is_integer(y) then
    fail(fname, "x and y must be integers, got %s, %s", describe(x), describe(y))
  end
  if not self.qpath then return nil, self.qlength end
  if not self.req then
    -- from = "end" and the quick path reached the goal: its own tail
    return core.queue_join(self.qpath, { self.qpath[#self.qpath] }, x, y)
  end
  local st = self.req:status()
  if st ~= "done" then
    if st == "failed" then return nil, select(2, self.req:result()) end
    return nil, st
  end
  local full = self.req:result()
  if self.from == "end" then return core.queue_join(self.qpath, full, x, y) end
  return core.queue_splice(self.qpath, full, x, y)
end

--- quickfull:path() -> path, info | nil, reason
-- The whole way from the start: quickfull:splice at the quick path's
-- first navcell.
function QuickFull:path()
  if not self.qpath then return nil, self.qlength end
  local s = self.qpath[1]
  return self:splice(s.x, s.y)
end

return M
