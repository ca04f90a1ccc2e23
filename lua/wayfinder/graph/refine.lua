--- wayfinder.graph.refine: a graph route turned into a grid path. For a
-- graph built from a grid, the walked legs of a find_path result (between
-- the start, the corridor's turning points at portal spans, the ends of
-- links and the goal) are each searched again on the grid with its own
-- find_path (JPS where the grid allows it), so the route follows the
-- grid's moves and costs while the graph decides which way to go. Links
-- (jumps, elevators, ...) stay as they are.
local model = require("wayfinder.graph.model")
local C = require("wayfinder.graph.check")
local describe, fail = C.describe, C.fail
local check_table = C.check_table

local M = {}
local Graph = model.Graph

-- Candidate navcell indices along one axis for a coordinate: a point on a
-- navcell border touches both navcells.
local function axis(v)
  local f = math.floor(v)
  if f == v then return { f - 1, f } end
  return { f }
end

-- The navcell for point pt: one touching it that lies in a sector of the
-- corridor (in the corridor's order), else any touching one in a sector.
local function navcell_of(self, pt, corridor)
  local best, rank
  for _, y in ipairs(axis(pt[2])) do
    for _, x in ipairs(axis(pt[1])) do
      local ok, s = pcall(self.sector_at, self, x + 0.5, y + 0.5)
      if ok and s then
        local r = corridor[s] or math.huge
        if not rank or r < rank then best, rank = { x, y }, r end
      end
    end
  end
  return best
end

--- graph:refine(result [, grid]) -> refined | nil, reason
function Graph:refine(result, grid)
  local fname = "graph:refine"
  check_table(fname, "result", result)
  if type(result.points) ~= "table" or type(result.via) ~= "table"
    or type(result.sectors) ~= "table" or #result.via ~= #result.points then
    fail(fname, "result must be a table returned by graph:find_path")
  end
  local b = self.grid_build
  if not b then fail(fname, "the graph was not built from a grid by this process") end
  grid = grid == nil and self.source_grid or grid
  if type(grid) ~= "userdata" then
    fail(fname, "grid must be a wayfinder.Grid, got %s", describe(grid))
  end
  if grid:width() ~= b.w or grid:height() ~= b.h then
    fail(fname, "grid is %dx%d, the graph was built from a %dx%d grid", grid:width(),
      grid:height(), b.w, b.h)
  end
  local class = grid:classes()[b.class_index].name
  local corridor = {}
  for i, s in ipairs(result.sectors) do
    if corridor[s] == nil then corridor[s] = i end
  end
  local opts = { class = class, rewrite_goal = false, escape = false }
  local pts = result.points
  local out, via = { { pts[1][1], pts[1][2] } }, { false }
  local cost, expanded, legs, algorithm = 0, 0, 0, nil
  local prev = navcell_of(self, pts[1], corridor)
  if not prev then return nil, "start_outside" end
  for i = 2, #pts do
    local cell = navcell_of(self, pts[i], corridor)
    if not cell then return nil, "off_grid" end
    if result.via[i] then
      out[#out + 1] = { pts[i][1], pts[i][2] }
      via[#via + 1] = result.via[i]
    elseif cell[1] ~= prev[1] or cell[2] ~= prev[2] then
      local path, length, info = grid:find_path(prev[1] + 0.5, prev[2] + 0.5, cell[1] + 0.5,
        cell[2] + 0.5, opts)
      if not path then return nil, length end
      legs = legs + 1
      cost = cost + info.cost
      expanded = expanded + info.expanded
      algorithm = algorithm or info.algorithm
      for k = 2, #path do
        out[#out + 1] = { path[k][1] + 0.5, path[k][2] + 0.5 }
        via[#via + 1] = false
      end
    end
    prev = cell
  end
  -- the exact goal, when it is not the last navcell's centre
  local goal = pts[#pts]
  local last = out[#out]
  if last[1] ~= goal[1] or last[2] ~= goal[2] then
    if #out > 1 and not via[#via] then
      out[#out] = { goal[1], goal[2] }
    else
      out[#out + 1] = { goal[1], goal[2] }
      via[#via + 1] = false
    end
  end
  local length = 0
  for i = 2, #out do
    local dx, dy = out[i][1] - out[i - 1][1], out[i][2] - out[i - 1][2]
    length = length + math.sqrt(dx * dx + dy * dy)
  end
  return { points = out, via = via, grid_cost = cost, length = length, legs = legs,
    expanded = expanded, algorithm = algorithm }
end

return M
