--- wayfinder.graph_queue: graph path requests served a slice at a time.
-- Requests wait in submission order; run(budget) spends at most `budget`
-- solver expansions per call on the oldest unfinished requests, so a game
-- gives graph searches a fixed share of each tick; run(budget, {share =
-- grid_queue}) splits one budget between graph and grid requests in turns. Results stay until
-- taken. Reached as wayfinder.graph.new_queue (docs/graph.md).
local util = require("wayfinder.util")
local exact = require("wayfinder.graph.exact")
local is_integer, unpack = exact.is_integer, exact.unpack

local function pack(...)
  return { n = select("#", ...), ... }
end

local M = {}

local Queue = {}
Queue.__index = Queue
Queue.__name = "wayfinder.GraphQueue"

local function fail(fname, fmt, ...)
  error(fname .. ": " .. fmt:format(...), 3)
end

--- new() -> queue
function M.new()
  return setmetatable({ next_handle = 1, order = {}, requests = {} }, Queue)
end

--- queue:submit(graph, sx, sy, gx, gy [, options]) -> handle
-- The request is checked now (argument errors raise here); expected
-- failures (a start in no sector, ...) are its result, as for find_path.
function Queue:submit(graph, sx, sy, gx, gy, options)
  if type(graph) ~= "table" or type(graph.begin_path) ~= "function" then
    fail("graph_queue:submit", "graph must be a wayfinder graph, got %s", util.describe(graph))
  end
  local solver, reason = graph:begin_path(sx, sy, gx, gy, options)
  local h = self.next_handle
  self.next_handle = h + 1
  local rq = { solver = solver }
  if not solver then rq.done, rq.result = true, { nil, reason, { expanded = 0 } } end
  self.requests[h] = rq
  self.order[#self.order + 1] = h
  return h
end

-- Spends at most `budget` expansions on this queue's requests.
local function run_own(self, budget)
  local used = 0
  local k = 1
  while k <= #self.order and used < budget do
    local h = self.order[k]
    local rq = self.requests[h]
    if rq.done then
      k = k + 1
    else
      local done, n = rq.solver:step(budget - used)
      used = used + n
      if done then
        rq.done = true
        rq.result = pack(rq.solver:finish())
        rq.solver = nil
        k = k + 1
      end
    end
  end
  return used
end

local RUN_KEYS = { share = true, slice = true }

--- queue:run(budget [, options]) -> used, used here, used by the shared queue
-- options.share: a grid queue (wayfinder.queue) that takes turns with this
-- one on the same budget, `options.slice` expansions at a time (default
-- 256), graph requests first.
function Queue:run(budget, options)
  local fname = "graph_queue:run"
  if not is_integer(budget) or budget < 0 or budget > 2 ^ 53 then
    fail(fname, "budget must be an integer in [0, 2^53], got %s", util.describe(budget))
  end
  if options == nil then
    local used = run_own(self, budget)
    return used, used, 0
  end
  if type(options) ~= "table" then
    fail(fname, "options must be a table, got %s", util.describe(options))
  end
  for k in pairs(options) do
    if not RUN_KEYS[k] then fail(fname, "unknown options key %s", util.describe(k)) end
  end
  local share = options.share
  if share ~= nil and (type(share) ~= "userdata" or not string.find(tostring(share),
    "^wayfinder%.Queue")) then
    fail(fname, "options.share must be a wayfinder.Queue, got %s", util.describe(share))
  end
  local slice = options.slice == nil and 256 or options.slice
  if not is_integer(slice) or slice < 1 or slice > 2 ^ 31 then
    fail(fname, "options.slice must be an integer in [1, 2^31], got %s", util.describe(slice))
  end
  local mine, theirs = 0, 0
  while mine + theirs < budget do
    local a = run_own(self, math.min(slice, budget - mine - theirs))
    mine = mine + a
    local b = 0
    if share and mine + theirs < budget then
      b = share:run(math.min(slice, budget - mine - theirs))
      theirs = theirs + b
    end
    -- nothing moved: both queues are idle (or waiting on no expansions)
    if a == 0 and b == 0 then break end
  end
  return mine + theirs, mine, theirs
end

local function request(self, fname, h)
  local rq = is_integer(h) and self.requests[h]
  if not rq then
    fail(fname, "handle must be a live request of this queue, got %s", util.describe(h))
  end
  return rq
end

--- queue:state(handle) -> "pending" | "done"
function Queue:state(h)
  return request(self, "graph_queue:state", h).done and "done" or "pending"
end

--- queue:result(handle) -> as graph:find_path; releases the request
function Queue:result(h)
  local rq = request(self, "graph_queue:result", h)
  if not rq.done then fail("graph_queue:result", "request %d is still pending", h) end
  self:_drop(h)
  return unpack(rq.result, 1, rq.result.n)
end

--- queue:cancel(handle)
function Queue:cancel(h)
  request(self, "graph_queue:cancel", h)
  self:_drop(h)
end

function Queue:_drop(h)
  self.requests[h] = nil
  for k, v in ipairs(self.order) do
    if v == h then table.remove(self.order, k); break end
  end
end

--- queue:pending() -> requests not yet done
function Queue:pending()
  local n = 0
  for _, h in ipairs(self.order) do
    if not self.requests[h].done then n = n + 1 end
  end
  return n
end

-- errors at the caller's line, named for the method called
util.public_methods(Queue, "graph_queue", "a queue from wayfinder.graph.new_queue")

return M
