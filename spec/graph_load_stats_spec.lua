-- wayfinder.graph.load checks data.grid_stats: a saved graph whose grid
-- statistics held a number, inf or a table where a count belongs loaded,
-- then graph:stats() raised a raw error and graph:save() refused its own
-- graph (found by the file fuzzer).
local wayfinder = require("wayfinder")

local function saved()
  local g = wayfinder.grid.from_ascii("....@...\n..@@....\n........\n")
  return wayfinder.graph.from_grid(g):save()
end

describe("wayfinder.graph.load grid_stats", function()
  it("refuses grid_stats that is not a table, by name", function()
    local t = saved()
    t.grid_stats = 7
    local ok, err = pcall(wayfinder.graph.load, t)
    assert.is_false(ok)
    assert.matches("wayfinder%.graph%.load: data%.grid_stats must be a table, got 7", err)
  end)

  it("refuses non-finite, negative and fractional counts", function()
    for _, v in ipairs({ 1 / 0, -1 / 0, 0 / 0, -1, 2.5, "many", {} }) do
      local t = saved()
      t.grid_stats.navcells = v
      local ok, err = pcall(wayfinder.graph.load, t)
      assert.is_false(ok)
      assert.matches("wayfinder%.graph%.load: data%.grid_stats%.navcells must be a "
        .. "non%-negative integer", err)
    end
  end)

  it("refuses a class that is not a string", function()
    local t = saved()
    t.grid_stats.class = 3
    assert.has_error(function() wayfinder.graph.load(t) end,
      "wayfinder.graph.load: data.grid_stats.class must be a string, got 3")
  end)

  it("loads good statistics, which stats() and save() then give back", function()
    local t = saved()
    local navcells = t.grid_stats.navcells
    assert.is_true(navcells > 0)
    local g = wayfinder.graph.load(t)
    local st = g:stats()
    assert.equal(navcells, st.navcells)
    assert.equal(t.grid_stats.class, st.class)
    local again = wayfinder.graph.load(g:save())
    assert.equal(navcells, again:stats().navcells)
  end)

  it("loads a graph saved without grid statistics", function()
    local t = saved()
    t.grid_stats = nil
    local g = wayfinder.graph.load(t)
    assert.is_nil(g:stats().navcells)
  end)
end)
