-- wayfinder.pathtable.cache refuses a closed grid by its own name, at the
-- caller's line (it raised "grid:classes: the grid is closed" from a line
-- inside the library; found by the API fuzzer, seed 4).
local wayfinder = require("wayfinder")

local function caught(f)
  local ok, err = pcall(f)
  assert.is_false(ok)
  return err
end

describe("wayfinder.pathtable.cache and a closed grid", function()
  it("refuses a grid closed before the call", function()
    local g = wayfinder.grid.new(8, 8)
    g:close()
    local err = caught(function()
      local c = wayfinder.pathtable.cache(g)
      return c
    end)
    assert.matches("^spec/pathcache_closed_grid_spec%.lua:%d+: "
      .. "wayfinder%.pathtable%.cache: the grid is closed$", err)
  end)

  -- pairs runs __pairs on 5.2 to 5.4
  local has_pairs = false
  for _ in pairs(setmetatable({}, { __pairs = function()
    has_pairs = true
    return next, {}, nil
  end })) do end

  it("refuses a grid closed by a metamethod of options", function()
    if not has_pairs then return end
    local g = wayfinder.grid.new(8, 8)
    local options = setmetatable({}, { __pairs = function()
      g:close()
      return next, {}, nil
    end })
    local err = caught(function()
      local c = wayfinder.pathtable.cache(g, options)
      return c
    end)
    assert.matches("wayfinder%.pathtable%.cache: ", err)
    assert.is_nil(err:find("pathcache.lua", 1, true))
  end)

  it("still makes a cache over an open grid", function()
    local g = wayfinder.grid.new(8, 8)
    local c = wayfinder.pathtable.cache(g)
    assert.truthy(c)
    g:close()
  end)
end)
