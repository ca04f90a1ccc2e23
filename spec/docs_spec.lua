-- Every exported function has its own docs heading: a line of docs/*.md
-- starting "### " then the qualified name then "(", for example
-- "### wayfinder.grid.new(width, height [, options])" or
-- "### grid:find_path(sx, sy, gx, gy [, options])".
local wayfinder = require("wayfinder")

-- Module functions: wayfinder.<fn> and wayfinder.<module>.<fn>.
local function module_functions()
  local names = {}
  for key, value in pairs(wayfinder) do
    if type(value) == "function" then
      names[#names + 1] = "wayfinder." .. key
    elseif type(value) == "table" then
      for fn, f in pairs(value) do
        if type(f) == "function" then names[#names + 1] = ("wayfinder.%s.%s"):format(key, fn) end
      end
    end
  end
  return names
end

-- The name the docs give an object of each userdata type; a type not listed
-- is named by its lower-case type name.
local OBJECT_NAMES = {
  ["wayfinder.RectPlan"] = "planner",
  ["wayfinder.Request"] = "handle",
}

-- Methods: every function in the __index of every "wayfinder.X" metatable,
-- named <object>:<method>.
local function methods()
  local names = {}
  for key, mt in pairs(debug.getregistry()) do
    if type(key) == "string" and key:match("^wayfinder%.%u") and type(mt) == "table"
      and mt.__name == key and type(mt.__index) == "table" then
      local object = OBJECT_NAMES[key] or key:match("^wayfinder%.(.+)$"):lower()
      for method, f in pairs(mt.__index) do
        if type(f) == "function" then names[#names + 1] = object .. ":" .. method end
      end
    end
  end
  return names
end

local function doc_headings()
  local headings = {}
  local p = assert(io.popen("env -u LD_PRELOAD ls docs/*.md 2>/dev/null"))
  for path in p:lines() do
    for line in io.lines(path) do
      if line:sub(1, 4) == "### " then headings[#headings + 1] = line end
    end
  end
  p:close()
  return headings
end

describe("docs", function()
  it("finds the exported functions it must check", function()
    local all = {}
    for _, n in ipairs(module_functions()) do all[n] = true end
    for _, n in ipairs(methods()) do all[n] = true end
    for _, n in ipairs({ "wayfinder.grid.new", "wayfinder.grid.from_ascii",
      "wayfinder.grid.load_movingai",
      "wayfinder.movingai.load_scenarios", "wayfinder.movingai.parse_scenarios",
      "wayfinder.movingai.tolerance", "grid:find_path", "grid:set_passable", "grid:close" }) do
      assert.is_true(all[n] == true, n .. " was not collected")
    end
  end)

  it("give every exported function a '### name(' heading in docs/*.md", function()
    local names = module_functions()
    for _, n in ipairs(methods()) do names[#names + 1] = n end
    table.sort(names)
    local headings = doc_headings()
    local missing = {}
    for _, name in ipairs(names) do
      local prefix = "### " .. name .. "("
      local found = false
      for _, h in ipairs(headings) do
        if h:sub(1, #prefix) == prefix then found = true; break end
      end
      if not found then missing[#missing + 1] = name end
    end
    assert(#missing == 0, ("%d exported functions have no docs heading in docs/*.md:\n  %s")
      :format(#missing, table.concat(missing, "\n  ")))
  end)
end)
