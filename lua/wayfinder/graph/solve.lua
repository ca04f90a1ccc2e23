--- wayfinder.graph.solve: path queries over a graph: the query options,
-- the solver stepped under a budget, find_path, and curves through a result.
local core = require("wayfinder.core")
local bezier = require("wayfinder.bezier")
local exact = require("wayfinder.graph.exact")
local model = require("wayfinder.graph.model")
local links = require("wayfinder.graph.links")
local C = require("wayfinder.graph.check")
local describe, fail, finite, set = C.describe, C.fail, C.finite, C.set
local check_coord, check_cost, check_table = C.check_coord, C.check_cost, C.check_table
local check_keys, check_point = C.check_keys, C.check_point
local ALL = C.ALL
local compile, mask_of = model.compile, links.mask_of
local is_integer, bit, unpack = exact.is_integer, exact.bit, exact.unpack

local M = {}
local Graph = model.Graph

local FIND_KEYS = set { "class", "abilities", "weight", "time", "refine" }

local function read_query(self, fname, sx, sy, gx, gy, options)
  check_coord(fname, "sx", sx)
  check_coord(fname, "sy", sy)
  check_coord(fname, "gx", gx)
  check_coord(fname, "gy", gy)
  options = options == nil and {} or options
  check_table(fname, "options", options)
  check_keys(fname, "options", options, FIND_KEYS)
  local ci = 1
  if options.class ~= nil then
    ci = self.class_index[options.class]
    if not ci then
      fail(fname, "options.class must name a class of this graph, got %s", describe(options.class))
    end
  end
  local abil = ALL
  if options.abilities ~= nil then
    abil = mask_of(self, fname, "options.abilities", options.abilities, self.ability_index, 0)
  end
  local wnum, wden = 1, 1
  if options.weight ~= nil then
    local w = options.weight
    if not finite(w) or w < 1 or w > 10 then
      fail(fname, "options.weight must be a number in [1, 10], got %s", describe(w))
    end
    wnum, wden = math.floor(w * 100 + 0.5), 100
  end
  local rnum, rden = 1, 1
  if #self.waypaths > 0 then rnum, rden = self.bias[1], self.bias[2] end
  local time = 0
  if options.time ~= nil then time = check_cost(fname, "options.time", options.time) end
  if options.refine ~= nil and type(options.refine) ~= "boolean" then
    fail(fname, "options.refine must be a boolean, got %s", describe(options.refine))
  end
  if options.refine and not self.grid_build then
    fail(fname, "options.refine needs a graph built from a grid by this process")
  end
  return { sx, sy, gx, gy, bit(ci), abil, self.classes[ci].mult, wnum, wden, rnum, rden, time,
    refine = options.refine or false }
end

local function result_of(self, c, r)
  local corridor = {}
  for i, cidx in ipairs(r.portals) do
    local id = c.ids[cidx]
    local p = self.recs[id]
    corridor[i] = { portal = id, kind = p.kind, action = p.action, data = p.data,
      from_sector = r.sectors[i], to_sector = r.sectors[i + 1],
      reverse = r.dirs[i] == 1 }
  end
  local length = 0
  for i = 2, #r.points do
    local a, b = r.points[i - 1], r.points[i]
    length = length + math.sqrt((b[1] - a[1]) ^ 2 + (b[2] - a[2]) ^ 2)
  end
  local via = {}
  for i, v in ipairs(r.via) do via[i] = v > 0 and c.ids[v] or false end
  return { points = r.points, via = via, corridor = corridor, sectors = r.sectors, cost = r.cost,
    cost_units = r.cost_units, expanded = r.expanded, length = length }
end

--- graph:curve(result [, options]) -> points, info
function Graph:curve(result, options)
  local fname = "graph:curve"
  check_table(fname, "result", result)
  if type(result.points) ~= "table" or type(result.sectors) ~= "table"
    or type(result.via) ~= "table" or #result.via ~= #result.points then
    fail(fname, "result must be a table returned by graph:find_path")
  end
  options = options == nil and {} or options
  check_table(fname, "options", options)
  check_keys(fname, "options", options, set { "samples" })
  local samples = options.samples or 8
  if not is_integer(samples) or samples < 1 or samples > 64 then
    fail(fname, "options.samples must be an integer in [1, 64], got %s", describe(samples))
  end
  local boxes = {}
  for i, id in ipairs(result.sectors) do
    local s = self.sectors[id]
    if not is_integer(id) or not s then
      fail(fname, "result.sectors[%d] is not a sector of this graph", i)
    end
    boxes[i] = { s.x0, s.y0, s.x1, s.y1 }
  end
  for i, p in ipairs(result.points) do
    check_point(fname, ("result.points[%d]"):format(i), p)
  end
  return bezier.curve(result.points, boxes, result.via, samples)
end

-- With options.refine, the grid path along the route (graph:refine) as
-- result.refined, or false and result.refine_reason when it fails.
local function with_refined(self, result, refine)
  if refine then
    local refined, why = self:refine(result)
    result.refined = refined or false
    result.refine_reason = why
  end
  return result
end

local Solver = {}
Solver.__index = Solver
Solver.__name = "wayfinder.GraphSolver"

--- graph:begin_path(sx, sy, gx, gy [, options]) -> solver | nil, reason
function Graph:begin_path(sx, sy, gx, gy, options)
  local q = read_query(self, "graph:begin_path", sx, sy, gx, gy, options)
  local c = compile(self)
  local search = core.graph_search()
  local ok, reason = core.graph_begin(search, c.ud, unpack(q, 1, 12))
  if not ok then return nil, reason end
  return setmetatable({ graph = self, compiled = c, search = search, done = false,
    finished = false, refine = q.refine }, Solver)
end

--- solver:step(budget) -> done, used
function Solver:step(budget)
  if not is_integer(budget) or budget < 0 or budget > 2 ^ 53 then
    fail("solver:step", "budget must be an integer in [0, 2^53], got %s", describe(budget))
  end
  if self.finished then fail("solver:step", "the solver has finished") end
  if self.graph.compiled ~= self.compiled then self.changed = true; return true, 0 end
  local done, used = core.graph_step(self.search, budget)
  if done == nil then self.changed = true; return true, 0 end
  self.done = done
  return done, used
end

--- solver:finish() -> result | nil, reason, info
function Solver:finish()
  if self.finished then fail("solver:finish", "the solver has finished") end
  if not self.done and not self.changed then
    fail("solver:finish", "the search has not ended; step it")
  end
  self.finished = true
  if self.changed or self.graph.compiled ~= self.compiled then
    return nil, "graph_changed", { expanded = 0 }
  end
  local r, reason, info = core.graph_finish(self.search)
  if not r then return nil, reason, info end
  return with_refined(self.graph, result_of(self.graph, self.compiled, r), self.refine)
end

--- graph:find_path(sx, sy, gx, gy [, options]) -> result | nil, reason, info
function Graph:find_path(sx, sy, gx, gy, options)
  local q = read_query(self, "graph:find_path", sx, sy, gx, gy, options)
  local c = compile(self)
  c.search = c.search or core.graph_search()
  local ok, reason = core.graph_begin(c.search, c.ud, unpack(q, 1, 12))
  if not ok then return nil, reason, { expanded = 0 } end
  core.graph_step(c.search, 2 ^ 53)
  local r, why, info = core.graph_finish(c.search)
  if not r then return nil, why, info end
  return with_refined(self, result_of(self, c, r), q.refine)
end
-- errors at the caller's line, named for the method called
require("wayfinder.util").public_methods(Solver, "solver", "a solver from graph:begin_path")

return M
