-- The graph module's functions raise at the caller's line, named for the
-- function the caller called, whatever depth the problem is found at.
local graph = require("wayfinder.graph")
local grid = require("wayfinder.grid")

local function error_of(f, ...)
  local args = { n = select("#", ...), ... }
  local ok, err = pcall(function()
    local r = f(require("wayfinder.compat").unpack(args, 1, args.n))
    return r
  end)
  assert.is_false(ok)
  return err
end

describe("wayfinder.graph's functions", function()
  it("blame the calling line for a bad argument", function()
    local err = error_of(graph.new, 5)
    assert.matches("^spec/graph_public_errors_spec%.lua:%d+: wayfinder%.graph%.new: options must "
      .. "be a table, got 5$", err)
  end)

  it("name themselves when a call they make refuses", function()
    local g = grid.new(4, 4)
    g:close()
    local err = error_of(graph.from_grid, g)
    assert.matches("^spec/graph_public_errors_spec%.lua:%d+: wayfinder%.graph%.from_grid: ", err)
    assert.matches("the grid is closed", err, 1, true)
  end)

  it("check a route given to doors_of", function()
    local err = error_of(graph.doors_of, nil)
    assert.matches("wayfinder.graph.doors_of: result must be a route from graph:find_path, got nil",
      err, 1, true)
  end)
end)
