-- The house world's docs: every exported function and method has its own
-- "### name(" heading in docs/world.md or docs/behaviors.md, and every lua
-- example there runs and prints what its "--> expected" comments say.
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")
local core = require("wayfinder.core")

local FILES = { "docs/world.md", "docs/behaviors.md" }

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local function headings()
  local found = {}
  for _, path in ipairs(FILES) do
    for line in read(path):gmatch("[^\n]+") do
      local name = line:match("^### ([%w_%.:]+)%(")
      if name then found[name] = true end
    end
  end
  return found
end

local function exported()
  local names = {}
  local function module(prefix, t)
    for k, v in pairs(t) do
      if type(v) == "function" then names[#names + 1] = prefix .. "." .. k end
    end
  end
  module("wayfinder.world", wayfinder.world)
  module("wayfinder.bt", wayfinder.bt)
  local w = wayfinder.world.new { width = 2, height = 2 }
  for k, v in pairs(getmetatable(w).__index) do
    if type(v) == "function" and k:sub(1, 1) ~= "_" then names[#names + 1] = "world:" .. k end
  end
  local p = w:add_person { x = 0.5, y = 0.5 }
  local generic = { position = true, facing_name = true, room = true }
  for k, v in pairs(getmetatable(p).__index) do
    if type(v) == "function" and k:sub(1, 1) ~= "_" then
      names[#names + 1] = (generic[k] and "object:" or "person:") .. k
    end
  end
  for k, v in pairs(getmetatable(w.ctx).__index) do
    if type(v) == "function" then names[#names + 1] = "ctx:" .. k end
  end
  names[#names + 1] = "wayfinder.core.walker_new"
  for k, v in pairs(getmetatable(core.walker_new(1, 1)).__index) do
    if type(v) == "function" then names[#names + 1] = "walker:" .. k end
  end
  table.sort(names)
  return names
end

describe("house world docs", function()
  it("have a heading for every exported function and method", function()
    local have = headings()
    local missing = {}
    local names = exported()
    for _, n in ipairs(names) do
      if not have[n] then missing[#missing + 1] = n end
    end
    assert.is_true(#names > 80, "only " .. #names .. " names collected")
    assert(#missing == 0, "no docs heading for:\n  " .. table.concat(missing, "\n  "))
  end)

  local function normalise(line)
    return (line:gsub("0x%x+", "0x..."):gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
  end

  for _, path in ipairs(FILES) do
    local text = read(path)
    for start, code in text:gmatch("()```lua\n(.-)```") do
      local _, lines = text:sub(1, start):gsub("\n", "")
      local name = path .. ":" .. (lines + 1)
      it("runs the example at " .. name, function()
        local printed = {}
        local env = setmetatable({}, { __index = _G })
        env.print = function(...)
          local t = compat.pack(...)
          for i = 1, t.n do t[i] = tostring(t[i]) end
          printed[#printed + 1] = table.concat(t, "\t") .. "\n"
        end
        env.io = setmetatable({ write = function(...)
          for _, v in ipairs({ ... }) do printed[#printed + 1] = tostring(v) end
        end }, { __index = io })
        local fn = assert(compat.load(code, "=" .. name, "t", env))
        fn()
        local got = {}
        for l in table.concat(printed):gmatch("([^\n]*)\n") do got[#got + 1] = normalise(l) end
        local want = {}
        for l in code:gmatch("[^\n]*") do
          local e = l:match("%-%->%s?(.*)$")
          if e then want[#want + 1] = normalise(e) end
        end
        assert.are.same(want, got)
      end)
    end
  end
end)
