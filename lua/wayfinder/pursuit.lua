--- wayfinder.pursuit: a pursuer that plans again as its target moves,
-- without a whole fresh search each time.
-- With a compressed grid table (wayfinder.pathtable.build_grid) every plan
-- is read from the table. Without one it runs moving-target adaptive A*:
-- after each search every navcell it closed learns h = g(goal) - g(cell),
-- a better estimate of its distance to the goal; when the goal moves, the
-- learned values stay admissible after subtracting the old estimate at the
-- new goal (a consistent h satisfies h(u) <= d(u, t') + h(t')), and the
-- plain octile distance is kept as a floor. Better estimates mean fewer
-- navcells opened, and every plan is still optimal. See docs/pathtable.md.
--
-- Written in the subset of Lua that 5.1 to 5.4 and LuaJIT share.
local grid_tables = require("wayfinder.pathtable_grid")

local M = {}

local ORTH = 33554432          -- grid:find_path's cost units
local DIAG = 47453132
local UNIT = 33554432
local DX = { 1, -1, 0, 0, 1, -1, 1, -1 }
local DY = { 0, 0, 1, -1, 1, 1, -1, -1 }

local util = require("wayfinder.util")

local is_integer = util.is_integer
local describe = util.describe_arg
local fail = util.fail

local Pursuer = {}
Pursuer.__index = Pursuer
Pursuer.__name = "wayfinder.Pursuer"

function Pursuer:__tostring()
  return string.format("wayfinder.Pursuer (%s, %d plans)", self:method(), self.plans)
end

--- pursuit.new(grid [, options]) -> pursuer
function M.new(grid, options)
  local fname = "wayfinder.pathtable.pursuer"
  if not util.is_grid(grid) then
    fail(fname, "grid must be a wayfinder.Grid, got %s", describe(grid))
  end
  if options == nil then options = {} end
  if type(options) ~= "table" then
    fail(fname, "options must be a table, got %s", describe(options))
  end
  for k in pairs(options) do
    if k ~= "class" and k ~= "table" and k ~= "learn" then
      fail(fname, "unknown options key %s", describe(k))
    end
  end
  local class = grid:classes()[1].name
  if options.class ~= nil then
    local ok = false
    for _, c in ipairs(grid:classes()) do
      if c.name == options.class then ok = true end
    end
    if not ok then
      fail(fname, "options.class must name a class of the grid, got %s", describe(options.class))
    end
    class = options.class
  end
  if not grid:uniform_cost() then
    fail(fname, "grid must have all navcell costs 1 (grid:uniform_cost())")
  end
  if options.learn ~= nil and type(options.learn) ~= "boolean" then
    fail(fname, "options.learn must be a boolean, got %s", describe(options.learn))
  end
  local t = options.table
  if t ~= nil then
    local tmt = getmetatable(t)
    if type(tmt) ~= "table" or tmt.__name ~= "wayfinder.GridPathTable" then
      fail(fname, "options.table must be a grid path table, got %s", describe(t))
    end
    if t.class ~= class or not t:matches(grid) then
      fail(fname, "options.table was built for another grid or class")
    end
  end
  return setmetatable({ grid = grid, class = class, table = t, version = -1,
    learn = options.learn ~= false,
    plans = 0, w = grid:width(), h = grid:height(),
    lh = {}, learned_shift = {}, shift = 0, goal = nil }, Pursuer)
end

-- Takes a fresh snapshot (and forgets what was learned) when the grid
-- changed since the last plan: learned values may overestimate then.
local function refresh(self)
  local v = self.grid:version()
  if v == self.version then return end
  self.version = v
  self.pass = grid_tables.passability(self.grid, self.class)
  self.lh, self.learned_shift, self.shift, self.goal = {}, {}, 0, nil
  if self.table and not self.table:matches(self.grid) then self.table_stale = true end
end

local function octile(ax, ay, bx, by)
  local dx, dy = math.abs(ax - bx), math.abs(ay - by)
  if dx < dy then dx, dy = dy, dx end
  return (dx - dy) * ORTH + dy * DIAG
end

-- The current estimate of cell c's cost to the goal (gx, gy).
local function estimate(self, c, gx, gy)
  local x, y = c % self.w, math.floor(c / self.w)
  local h = octile(x, y, gx, gy)
  local l = self.lh[c]
  if l then
    l = l - (self.shift - self.learned_shift[c])
    if l > h then h = l end
  end
  return h
end

-- Open list: a binary heap ordered by f, then larger g, then lower cell.
local function before(f1, g1, c1, f2, g2, c2)
  if f1 ~= f2 then return f1 < f2 end
  if g1 ~= g2 then return g1 > g2 end
  return c1 < c2
end

local function push(hp, n, f, g, c)
  n = n + 1
  local i = n
  while i > 1 do
    local p = math.floor(i / 2)
    local e = hp[p]
    if not before(f, g, c, e[1], e[2], e[3]) then break end
    hp[i] = e
    i = p
  end
  hp[i] = { f, g, c }
  return n
end

local function pop(hp, n)
  local top = hp[1]
  local last = hp[n]
  hp[n] = nil
  n = n - 1
  local i = 1
  while true do
    local k = 2 * i
    if k > n then break end
    if k < n then
      local a, b = hp[k], hp[k + 1]
      if before(b[1], b[2], b[3], a[1], a[2], a[3]) then k = k + 1 end
    end
    local e = hp[k]
    if not before(e[1], e[2], e[3], last[1], last[2], last[3]) then break end
    hp[i] = e
    i = k
  end
  if n > 0 then hp[i] = last end
  return top, n
end

local function astar(self, s, g, gx, gy)
  local w, h, pass = self.w, self.h, self.pass
  local gs, parent, closed = { [s] = 0 }, {}, {}
  local hp, n = {}, 0
  n = push(hp, n, estimate(self, s, gx, gy), 0, s)
  local expanded, closed_list = 0, {}
  local found = false
  while n > 0 do
    local e
    e, n = pop(hp, n)
    local u, gu = e[3], e[2]
    if not closed[u] and gu == gs[u] then
      closed[u] = true
      closed_list[#closed_list + 1] = u
      expanded = expanded + 1
      if u == g then found = true; break end
      local ux, uy = u % w, math.floor(u / w)
      for k = 1, 8 do
        local nx, ny = ux + DX[k], uy + DY[k]
        if nx >= 0 and ny >= 0 and nx < w and ny < h and pass:byte(ny * w + nx + 1) ~= 0
          and (k <= 4 or (pass:byte(uy * w + nx + 1) ~= 0 and pass:byte(ny * w + ux + 1) ~= 0)) then
          local v = ny * w + nx
          local ng = gu + (k <= 4 and ORTH or DIAG)
          if gs[v] == nil or ng < gs[v] then
            -- with a consistent estimate a closed navcell never improves;
            -- reopening keeps the plan optimal should one ever do
            gs[v], parent[v], closed[v] = ng, u, nil
            n = push(hp, n, ng + estimate(self, v, gx, gy), ng, v)
          end
        end
      end
    end
  end
  if not found then return nil, expanded end
  -- learn: every closed navcell's distance to the goal is at least g* - g
  local gstar = gs[g]
  for _, c in ipairs(self.learn and closed_list or {}) do
    local l = gstar - gs[c]
    if l > estimate(self, c, gx, gy) then
      self.lh[c], self.learned_shift[c] = l, self.shift
    end
  end
  local cells = { g }
  local c = g
  while c ~= s do
    c = parent[c]
    cells[#cells + 1] = c
  end
  return cells, expanded, gstar
end

local function check_cell(self, fname, what, x, y)
  if not is_integer(x) or x < 0 or x >= self.w then
    fail(fname, "%sx must be an integer in [0, %d), got %s", what, self.w, describe(x))
  end
  if not is_integer(y) or y < 0 or y >= self.h then
    fail(fname, "%sy must be an integer in [0, %d), got %s", what, self.h, describe(y))
  end
  return y * self.w + x
end

--- pursuer:plan(sx, sy, tx, ty) -> path, length, info | nil, reason, info
function Pursuer:plan(sx, sy, tx, ty)
  local fname = "pursuer:plan"
  local s = check_cell(self, fname, "s", sx, sy)
  local g = check_cell(self, fname, "t", tx, ty)
  refresh(self)
  self.plans = self.plans + 1
  if self.pass:byte(s + 1) == 0 then return nil, "start_blocked", { expanded = 0 } end
  if self.pass:byte(g + 1) == 0 then return nil, "goal_blocked", { expanded = 0 } end
  if self.table and not self.table_stale then
    local path, length, info = self.table:find_path(sx, sy, tx, ty)
    if not path then return nil, length, { expanded = 0, method = "table" } end
    return path, length, { expanded = 0, lookups = info.lookups, cost_units = info.cost_units,
      method = "table" }
  end
  -- the goal moved: what was learned about the old goal stays admissible
  -- once the old estimate at the new goal is taken off
  if self.goal ~= nil and self.goal ~= g then
    self.shift = self.shift + estimate(self, g, self.goal % self.w, math.floor(self.goal / self.w))
  end
  self.goal = g
  local cells, expanded, cost = astar(self, s, g, tx, ty)
  if not cells then return nil, "unreachable", { expanded = expanded, method = "adaptive" } end
  local path = {}
  for i = #cells, 1, -1 do
    local c = cells[i]
    local x, y = c % self.w, math.floor(c / self.w)
    path[#path + 1] = { x, y, x = x, y = y }
  end
  return path, cost / UNIT, { expanded = expanded, cost_units = cost, method = "adaptive" }
end

--- pursuer:method() -> "table" | "adaptive"
function Pursuer:method()
  if self.table and not self.table_stale then return "table" end
  return "adaptive"
end

--- pursuer:learned() -> how many navcells hold a learned estimate
function Pursuer:learned()
  local n = 0
  for _ in pairs(self.lh) do n = n + 1 end
  return n
end

return M
