-- wayfinder.graph.load and wayfinder.graph.new refuse class, surface and
-- ability lists with a hole: a saved graph whose classes were {nil, c}
-- loaded with no class at all, and graph:find_path then raised "attempt
-- to index a nil value" (found by the file fuzzer, seed 4).
local wayfinder = require("wayfinder")

local function saved()
  local g = wayfinder.grid.from_ascii("........\n..@@....\n........\n")
  return wayfinder.graph.from_grid(g):save()
end

local function refused(f)
  local ok, err = pcall(f)
  assert.is_false(ok)
  return err
end

describe("graph lists with a hole", function()
  it("a saved graph's classes", function()
    local s = saved()
    s.classes[2], s.classes[1] = s.classes[1], nil
    local err = refused(function()
      local g = wayfinder.graph.load(s)
      return g
    end)
    assert.matches("^spec/graph_load_lists_spec%.lua:%d+: wayfinder%.graph%.load: "
      .. "options%.classes must be a list with no holes, got none at %[1%]$", err)
  end)

  it("a saved graph's surfaces", function()
    local s = saved()
    s.surfaces[3] = "mud"
    assert.truthy(refused(function() wayfinder.graph.load(s) end)
      :find("options.surfaces must be a list with no holes, got none at [2]", 1, true))
  end)

  it("graph.new's options", function()
    assert.truthy(refused(function()
      wayfinder.graph.new { classes = { [2] = { name = "big" } } }
    end):find("wayfinder.graph.new: options.classes must be a list with no holes", 1, true))
    assert.truthy(refused(function()
      wayfinder.graph.new { abilities = { "swim", x = "fly" } }
    end):find("wayfinder.graph.new: options.abilities must be a list with no holes", 1, true))
  end)

  it("a whole save still loads and answers", function()
    local g = wayfinder.graph.load(saved())
    assert.truthy(g:find_path(0.5, 0.5, 7.5, 2.5))
  end)
end)
