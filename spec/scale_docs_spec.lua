-- docs/scale.md: every function of the scale layer has its heading, every
-- method of the queue and request types is documented, and every Lua
-- example in the file runs.
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local DOC = read("docs/scale.md")

local function has_heading(name)
  for line in DOC:gmatch("[^\n]+") do
    if line:sub(1, 4) == "### " and line:sub(5, 4 + #name + 1) == name .. "(" then
      return true
    end
  end
  return false
end

describe("docs/scale.md", function()
  it("has a heading for every function of the scale layer", function()
    local names = {
      "grid:is_reachable", "grid:component", "grid:nearest_passable",
      "grid:nearest_reachable", "grid:regions", "grid:set_chunk_size",
      "wayfinder.queue.new",
    }
    local grid = wayfinder.grid.new(4, 4)
    local queue = wayfinder.queue.new(grid)
    local handle = queue:submit({ sx = 0, sy = 0, gx = 1, gy = 1 })
    for name in pairs(getmetatable(queue).__index) do
      names[#names + 1] = "queue:" .. name
    end
    for name in pairs(getmetatable(handle).__index) do
      names[#names + 1] = "handle:" .. name
    end
    table.sort(names)
    local missing = {}
    for _, name in ipairs(names) do
      if not has_heading(name) then missing[#missing + 1] = name end
    end
    assert.are.same({}, missing)
    assert.is_true(#names >= 16)
  end)

  it("has examples that run", function()
    local n = 0
    for code in DOC:gmatch("```lua\n(.-)```") do
      n = n + 1
      -- <close> is 5.4 syntax: such an example documents 5.4 use
      if compat.VERSION == "5.4" or not code:find("<close>") then
        local env = setmetatable({}, { __index = _G })
        local chunk = assert(compat.load(code, "docs/scale.md example " .. n, "t", env))
        local ok, err = pcall(chunk)
        assert(ok, ("example %d failed: %s"):format(n, tostring(err)))
      end
    end
    assert.is_true(n >= 15)
  end)
end)
