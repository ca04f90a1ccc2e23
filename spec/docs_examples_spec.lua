-- Every ```lua block in README.md and docs/*.md runs, and what it prints
-- matches its "--> expected" comments line by line (addresses such as
-- table: 0x... are compared as "0x..."). A doc example that drifts from the
-- code fails here.
local compat = require("wayfinder.compat")

-- Before 5.3 a number has no integer subtype, so 4.0 prints as 4 there:
-- on those versions only, a ".0" after a whole number is dropped from the
-- expected text too (5.3 and 5.4 still compare 4 against 4.0 exactly).
local SUBTYPES = compat.VERSION == "5.3" or compat.VERSION == "5.4"

local function normalise(line)
  line = line:gsub("0x%x+", "0x..."):gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")
  if not SUBTYPES then
    line = line:gsub("(%d)%.0$", "%1"):gsub("(%d)%.0([^%de])", "%1%2")
  end
  return line
end

-- tostring as 5.4 writes numbers, on every version (whole numbers below
-- 2^53 in digits, not 1e+15 as 5.1's %.14g would)
local function show(v)
  if type(v) == "number" and not SUBTYPES then return compat.number_string(v) end
  return tostring(v)
end

local function doc_files()
  local files = { "README.md" }
  local p = assert(io.popen("env -u LD_PRELOAD ls docs/*.md 2>/dev/null"))
  for f in p:lines() do files[#files + 1] = f end
  p:close()
  return files
end

local function blocks_of(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  local found = {}
  for start, code in text:gmatch("()```lua\n(.-)```") do
    local _, newlines = text:sub(1, start):gsub("\n", "")
    found[#found + 1] = { line = newlines + 1, code = code }
  end
  return found
end

local function run_block(name, code)
  local printed = {}
  local env = setmetatable({}, { __index = _G })
  env.print = function(...)
    local t = compat.pack(...)
    for i = 1, t.n do t[i] = show(t[i]) end
    printed[#printed + 1] = table.concat(t, "\t") .. "\n"
  end
  env.io = setmetatable({
    write = function(...)
      for _, v in ipairs({ ... }) do printed[#printed + 1] = show(v) end
    end,
  }, { __index = io })
  local fn, err = compat.load(code, "=" .. name, "t", env)
  if not fn then return false, err end
  local ok, rerr = pcall(fn)
  if not ok then return false, rerr end
  local lines = {}
  for line in table.concat(printed):gmatch("([^\n]*)\n") do
    lines[#lines + 1] = normalise(line)
  end
  return true, lines
end

describe("documentation examples", function()
  local total = 0
  for _, file in ipairs(doc_files()) do
    for _, block in ipairs(blocks_of(file)) do
      total = total + 1
      local name = file .. ":" .. block.line
      it("run as written: " .. name, function()
        -- <close> and <const> are 5.4 syntax: such a block documents 5.4 use
        if compat.VERSION ~= "5.4" and block.code:find("<close>") then return end
        local expected = {}
        for line in block.code:gmatch("[^\n]*") do
          local e = line:match("%-%->%s?(.*)$")
          if e then expected[#expected + 1] = normalise(e) end
        end
        local ok, got = run_block(name, block.code)
        assert(ok, name .. " raised: " .. tostring(got))
        assert.are.same(expected, got)
      end)
    end
  end

  it("finds the examples it checks", function()
    assert.is_true(total >= 30, "expected at least 30 lua blocks, found " .. total)
  end)
end)
