-- Defects the API fuzzer (tools/fuzz/api.lua) found in the Lua-written
-- objects (navigation graphs, their solvers and queues, next-hop tables and
-- grid first-move tables): errors raised at a line inside the library
-- instead of the caller's, and raw errors ("attempt to index a nil value")
-- when a method was called with a wrong self. Every method and module
-- function now raises at the caller's line, named for what was called
-- (wayfinder.util.public_methods and public_function).
local wayfinder = require("wayfinder")

local THIS = "public_methods_spec.lua"

-- the error of f(), which must be a string positioned at this file
local function caught(f)
  local ok, err = pcall(f)
  assert.is_false(ok)
  assert.are.equal("string", type(err))
  local where, msg = err:match("^([^\n]-):%d+: (.*)$")
  assert.is_truthy(where, "no position in: " .. err)
  assert.are.equal(THIS, where:sub(-#THIS), "raised at " .. where .. ": " .. err)
  return msg
end

local function small_grid()
  return wayfinder.grid.from_ascii("....@...\n..@@....\n........\n.@......\n")
end

describe("Lua-written objects raise at the caller's line", function()
  it("next-hop tables", function()
    local t = wayfinder.pathtable.new { nodes = 3, edges = { { 1, 2, 1 }, { 2, 3, 1 } } }
    assert.are.equal("pathtable:next_hop: from must be a node in [1, 3], got 0",
      caught(function() t:next_hop(0, 1) end))
    assert.are.equal("pathtable:route: to must be a node in [1, 3], got a table",
      caught(function() t:route(1, {}) end))
    assert.are.equal("pathtable:set_cost: cost must be an integer in [1, 2147483647] or false, "
      .. "got -1", caught(function() t:set_cost(1, -1) end))
    assert.are.equal("wayfinder.pathtable.new: spec must be a table, got nil",
      caught(function() wayfinder.pathtable.new() end))
    -- the table still answers
    assert.are.equal(2, t:distance(1, 3))
  end)

  it("a function that hands its arguments on keeps the other's name", function()
    assert.are.equal("wayfinder.graph.from_grid: grid must be a wayfinder.Grid, got nil",
      caught(function() wayfinder.pathtable.from_regions(nil) end))
  end)

  it("grid first-move tables", function()
    local t = wayfinder.pathtable.build_grid(small_grid())
    assert.are.equal("gridpathtable:first_move: sx must be an integer in [0, 8), got 2.5",
      caught(function() t:first_move(2.5, 0, 6, 3) end))
    assert.is_truthy(caught(function() t:find_path(0, 0, {}, 3) end)
      :find("^gridpathtable:find_path: gx must be"))
    assert.is_truthy(caught(function() wayfinder.pathtable.build_grid(3) end)
      :find("^wayfinder%.pathtable%.build_grid: "))
  end)

  it("graphs, solvers and graph queues", function()
    local g = wayfinder.graph.from_grid(small_grid())
    assert.is_truthy(caught(function() g:add_link(3.5) end)
      :find("^graph:add_link: link must be a table, got 3.5"))
    assert.is_truthy(caught(function() g:sector_at(0 / 0, 1) end):find("^graph:sector_at: "))
    local q = wayfinder.graph.new_queue()
    assert.is_truthy(caught(function() q:result(nil) end)
      :find("^graph_queue:result: handle must be a live request of this queue, got nil"))
    local s = g:begin_path(0.5, 0.5, 6.5, 3.5)
    assert.is_truthy(caught(function() s:step(-1) end):find("^solver:step: "))
  end)
end)

describe("Lua-written objects refuse a wrong self by name", function()
  it("names the method and what self must be", function()
    local t = wayfinder.pathtable.new { nodes = 2, edges = { { 1, 2, 1 } } }
    assert.are.equal("pathtable:edge_count: self must be a table from wayfinder.pathtable.new, "
      .. "got a table", caught(function() t.edge_count({}) end))
    local g = wayfinder.graph.from_grid(small_grid())
    assert.are.equal("graph:sector_count: self must be a wayfinder.Graph, got nil",
      caught(function() g.sector_count(nil) end))
    assert.are.equal("graph:memory: self must be a wayfinder.Graph, got 5",
      caught(function() g.memory(5) end))
    local s = g:begin_path(0.5, 0.5, 6.5, 3.5)
    assert.are.equal("solver:finish: self must be a solver from graph:begin_path, got nil",
      caught(function() s.finish(nil) end))
    local q = wayfinder.graph.new_queue()
    assert.are.equal("graph_queue:pending: self must be a queue from wayfinder.graph.new_queue, "
      .. "got a table", caught(function() q.pending(t) end))
    local gt = wayfinder.pathtable.build_grid(small_grid())
    assert.are.equal("gridpathtable:memory: self must be a table from "
      .. "wayfinder.pathtable.build_grid, got a boolean", caught(function() gt.memory(true) end))
    -- and the objects still answer
    assert.are.equal(1, t:edge_count())
    assert.is_true(g:sector_count() > 0)
    assert.are.equal(0, q:pending())
  end)
end)
