-- docs/rectplan.md covers every function of wayfinder.rectplan and every planner
-- method with a heading, lists every reason string, and its examples run.
local compat = require("wayfinder.compat")
local rectplan = require("wayfinder.rectplan")

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

describe("docs/rectplan.md", function()
  local text = read("docs/rectplan.md")
  local headings = {}
  for h in text:gmatch("\n### ([^\n]+)") do headings[#headings + 1] = h end

  local function has_heading(prefix)
    for _, h in ipairs(headings) do
      if h:sub(1, #prefix) == prefix then return true end
    end
    return false
  end

  it("has a heading for every function of wayfinder.rectplan", function()
    local n = 0
    for name, v in pairs(rectplan) do
      if type(v) == "function" then
        n = n + 1
        assert(has_heading("wayfinder.rectplan." .. name .. "("), "no heading for " .. name)
      end
    end
    assert.is_true(n >= 5)
  end)

  it("has a heading for every planner method", function()
    local n = 0
    local p = rectplan.planner(require("rectplan_helper").box_room(3, 3),
      { start = { 1.5, 1.5 }, goal = { 1.5, 1.5 } })
    for name in pairs(getmetatable(p).__index) do
      n = n + 1
      assert(has_heading("planner:" .. name .. "("), "no heading for planner:" .. name)
    end
    p:close()
    assert.is_true(n >= 10)
  end)

  it("lists every reason string", function()
    for _, r in ipairs({ "start_blocked", "goal_blocked", "no_path", "out_of_nodes",
      "running" }) do
      assert.truthy(text:find("| `\"" .. r .. "\"` |", 1, true), r)
    end
  end)

  it("has examples that run and print what their --> comments say", function()
    -- before 5.3 a whole float prints without ".0": on those versions only,
    -- numbers print as 5.4 would without it and the expected text drops it
    local subtypes = compat.VERSION == "5.3" or compat.VERSION == "5.4"
    local function normalise(line)
      line = line:gsub("0x%x+", "0x..."):gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")
      if not subtypes then
        line = line:gsub("(%d)%.0$", "%1"):gsub("(%d)%.0([^%de])", "%1%2")
      end
      return line
    end
    local n = 0
    for block in text:gmatch("```lua\n(.-)```") do
      n = n + 1
      local printed = {}
      local env = setmetatable({ print = function(...)
        local t = compat.pack(...)
        for i = 1, t.n do
          local v = t[i]
          t[i] = (type(v) == "number" and not subtypes) and compat.number_string(v) or tostring(v)
        end
        printed[#printed + 1] = normalise(table.concat(t, "\t"))
      end }, { __index = _G })
      local chunk = assert(compat.load(block, "=docs/rectplan.md example " .. n, "t", env))
      chunk()
      local expected = {}
      for line in block:gmatch("[^\n]*") do
        local e = line:match("%-%->%s?(.*)$")
        if e then expected[#expected + 1] = normalise(e) end
      end
      assert.same(expected, printed)
    end
    assert.is_true(n >= 10)
  end)
end)
