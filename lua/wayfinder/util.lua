--- wayfinder.util: small helpers shared by the house world's modules:
-- describing values in error messages and copying plain data.
local compat = require("wayfinder.compat")
local M = {}

function M.describe(v)
  if type(v) == "string" then
    if #v > 40 then v = v:sub(1, 40) .. "..." end
    return ("'%s'"):format(v)
  end
  if compat.type(v) == "float" then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    return ("%.14g"):format(v)
  end
  if type(v) == "number" then return tostring(v) end
  if v == nil then return "nil" end
  return "a " .. type(v)
end


-- A deep copy that accepts only plain data (tables, strings, numbers,
-- booleans) and refuses cycles; `where` names the value in errors.
function M.plain_copy(v, where, fname, seen)
  local t = type(v)
  if t == "number" then
    if v ~= v or v == math.huge or v == -math.huge then
      error(("%s: %s holds %s, which cannot be saved"):format(fname, where, M.describe(v)), 0)
    end
    return v
  end
  if t == "string" or t == "boolean" or t == "nil" then return v end
  if t ~= "table" then
    error(("%s: %s holds a %s; only tables, strings, numbers and booleans can be saved")
      :format(fname, where, t), 0)
  end
  seen = seen or {}
  if seen[v] then error(("%s: %s holds a cycle"):format(fname, where), 0) end
  seen[v] = true
  local out = {}
  for k, x in pairs(v) do
    local kt = type(k)
    if kt ~= "string" and kt ~= "number" and kt ~= "boolean" then
      error(("%s: %s has a %s key"):format(fname, where, kt), 0)
    end
    out[k] = M.plain_copy(x, where, fname, seen)
  end
  seen[v] = nil
  return out
end

return M
