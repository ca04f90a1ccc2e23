--- wayfinder.graph_queue: graph path requests served a slice at a time.
-- Requests wait in submission order; run(budget) spends at most `budget`
-- solver expansions per call on the oldest unfinished requests, so a game
-- gives graph searches a fixed share of each tick. Results stay until
-- taken. Reached as wayfinder.graph.new_queue (docs/graph.md).
local util = require("wayfinder.util")

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

--- queue:run(budget) -> expansions used
function Queue:run(budget)
  if math.type(budget) ~= "integer" or budget < 0 or budget > 2 ^ 53 then
    fail("graph_queue:run", "budget must be an integer in [0, 2^53], got %s", util.describe(budget))
  end
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
        rq.result = table.pack(rq.solver:finish())
        rq.solver = nil
        k = k + 1
      end
    end
  end
  return used
end

local function request(self, fname, h)
  local rq = math.type(h) == "integer" and self.requests[h]
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
  return table.unpack(rq.result, 1, rq.result.n)
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

return M
