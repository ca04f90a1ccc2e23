--- bench/lib/stats.lua: small statistics and formatting helpers.
local compat = require("wayfinder.compat")
local M = {}

--- The median of a sequence of numbers (mean of the two middle values for
-- an even count); nil for an empty sequence. Does not change `values`.
function M.median(values)
  local n = #values
  if n == 0 then return nil end
  local sorted = table.move(values, 1, n, 1, {})
  table.sort(sorted)
  if n % 2 == 1 then return sorted[compat.idiv(n + 1, 2)] end
  return (sorted[compat.idiv(n, 2)] + sorted[compat.idiv(n, 2) + 1]) / 2
end

--- The arithmetic mean; nil for an empty sequence.
function M.mean(values)
  local n = #values
  if n == 0 then return nil end
  local sum = 0
  for i = 1, n do sum = sum + values[i] end
  return sum / n
end

--- The sum of a sequence (0 when empty).
function M.sum(values)
  local sum = 0
  for i = 1, #values do sum = sum + values[i] end
  return sum
end

--- A number with at least 3 significant digits (2 decimals below 10, none
-- from 1000 up), or "-" for nil.
function M.num(v)
  if v == nil then return "-" end
  local a = math.abs(v)
  if a >= 1000 then return ("%.0f"):format(v) end
  if a >= 100 then return ("%.1f"):format(v) end
  return ("%.2f"):format(v)
end

--- A ratio as "12.3x", or "-" for nil.
function M.ratio(v)
  if v == nil then return "-" end
  return ("%.1fx"):format(v)
end

--- Bytes in KiB (whole), or "-" for nil.
function M.kib(bytes)
  if bytes == nil then return "-" end
  return ("%.0f"):format(bytes / 1024)
end

--- Bytes in MiB with one decimal, or "-" for nil.
function M.mib(bytes)
  if bytes == nil then return "-" end
  return ("%.1f"):format(bytes / (1024 * 1024))
end

--- Left- (negative width) or right-aligned (positive width) text columns.
function M.row(widths, cells)
  local out = {}
  for i, w in ipairs(widths) do
    local text = tostring(cells[i] == nil and "" or cells[i])
    if w < 0 then
      out[i] = text .. (" "):rep(-w - #text)
    else
      out[i] = (" "):rep(w - #text) .. text
    end
  end
  return (table.concat(out, " "):gsub("%s+$", ""))
end

return M
