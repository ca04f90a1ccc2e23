--- Helpers of the specs that test the search itself: queries with goal
-- rewriting and the escape from blocked starts (docs/scale.md) turned off,
-- navcell-centre queries, and waypoints as plain {x, y} pairs.
local M = {}

--- Options for the plain search: opts plus rewrite_goal = false and
-- escape = false (opts may override them).
function M.raw(opts)
  local o = { rewrite_goal = false, escape = false }
  for k, v in pairs(opts or {}) do o[k] = v end
  return o
end

--- find_path from navcell centre to navcell centre, plain search.
function M.path_between(g, sx, sy, gx, gy, opts)
  return g:find_path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, M.raw(opts))
end

--- The waypoints as plain {x, y} pairs.
function M.xy(path)
  local out = {}
  for k, p in ipairs(path) do out[k] = { p[1], p[2] } end
  return out
end

return M
