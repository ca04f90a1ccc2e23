--- wayfinder.world.graphs: navigation graphs a world holds by name
-- (world:attach_graph, world:attached_graph, world:detach_graph,
-- world:graph_names), saved with the world and loaded with it. A graph
-- made by wayfinder.graph.from_world is kept in step with the world it is
-- attached to: world:attached_graph syncs it (graph:sync_world) when the
-- world's walls, doors or furniture changed since it last did, and
-- world:save does the same before saving it. See docs/world.md.
local graph = require("wayfinder.graph")
local model = require("wayfinder.graph.model")
local check = require("wayfinder.world.check")
local classes = require("wayfinder.world.classes")

local M = {}
local World = classes.World
local describe, fail = check.describe, check.fail

M.MAX_GRAPHS = 64
M.MAX_NAME = 64

local function check_world(fname, w)
  if getmetatable(w) ~= classes.world_mt then
    fail(fname, "self must be a wayfinder world, got " .. describe(w), 3)
  end
end

local function check_name(fname, name)
  if type(name) ~= "string" or name == "" or #name > M.MAX_NAME then
    fail(fname, ("name must be a non-empty string of at most %d bytes, got %s"):format(
      M.MAX_NAME, describe(name)), 3)
  end
end

-- what the world's floor and doors look like to a graph: changes whenever
-- walls, doors (locks, penalties, trees) or furniture change
local function stamp(w)
  return ("%d %d"):format(w.topology_version, w.portal_tree_version or 0)
end

--- Whether graph g can follow world w (made by from_world, of its size);
-- nil, or the reason it cannot.
function M.mismatch(w, g)
  local b = g.world_build
  if b and (b.w ~= w.width or b.h ~= w.height) then
    return ("the graph was built from a %dx%d world, this one is %dx%d"):format(b.w, b.h,
      w.width, w.height)
  end
  return nil
end

-- the entry's graph, synced with w when w changed since it last was
local function fresh(w, e)
  if e.graph.world_build then
    local now = stamp(w)
    if e.stamp ~= now then
      e.graph:sync_world(w)
      e.stamp = now
    end
  end
  return e.graph
end

-- the message of error err without the position in front
local function bare(err)
  return (tostring(err):gsub("^[^:\n]+:%d+: ", ""))
end

--- world:attach_graph(name, g): holds g under name (synced now when it is
-- a graph of a house world).
function World:attach_graph(name, g)
  local fname = "world:attach_graph"
  check_world(fname, self)
  check_name(fname, name)
  if getmetatable(g) ~= model.Graph then
    fail(fname, "graph must be a wayfinder.Graph, got " .. describe(g))
  end
  local held = self.nav_graphs or {}
  if held[name] then
    fail(fname, ("the world already holds a graph named '%s'; detach it first"):format(name))
  end
  local n = 0
  for _ in pairs(held) do n = n + 1 end
  if n >= M.MAX_GRAPHS then
    fail(fname, ("the world already holds %d graphs"):format(M.MAX_GRAPHS))
  end
  for _, e in pairs(held) do
    if e.graph == g then fail(fname, ("the graph is already held as '%s'"):format(e.name)) end
  end
  local why = M.mismatch(self, g)
  if why then fail(fname, why) end
  local e = { name = name, graph = g }
  if g.world_build then
    local ok, err = pcall(g.sync_world, g, self)
    if not ok then
      fail(fname, bare(err))
    end
    e.stamp = stamp(self)
  end
  held[name] = e
  self.nav_graphs = held
end

--- world:attached_graph(name) -> the graph held under name, or nil.
function World:attached_graph(name)
  local fname = "world:attached_graph"
  check_world(fname, self)
  check_name(fname, name)
  local e = self.nav_graphs and self.nav_graphs[name]
  if not e then return nil end
  local ok, g = pcall(fresh, self, e)
  if not ok then fail(fname, bare(g)) end
  return g
end

--- world:detach_graph(name) -> the graph no longer held, or nil.
function World:detach_graph(name)
  local fname = "world:detach_graph"
  check_world(fname, self)
  check_name(fname, name)
  local e = self.nav_graphs and self.nav_graphs[name]
  if not e then return nil end
  self.nav_graphs[name] = nil
  return e.graph
end

--- world:graph_names() -> the names of the graphs held, sorted.
function World:graph_names()
  check_world("world:graph_names", self)
  local out = {}
  for name in pairs(self.nav_graphs or {}) do out[#out + 1] = name end
  table.sort(out)
  return out
end

--- The held graphs as saved data, a list sorted by name (nil when the
-- world holds none).
function M.save(w, fname)
  local names = w:graph_names()
  if #names == 0 then return nil end
  local out = {}
  for i, name in ipairs(names) do
    local ok, data = pcall(function() return fresh(w, w.nav_graphs[name]):save() end)
    if not ok then
      error(("%s: graph '%s': %s"):format(fname, name, bare(data)), 3)
    end
    out[i] = { name = name, graph = data }
  end
  return out
end

--- Reads saved graphs (the list M.save made) for world w; raises
-- load_error(msg) on the first fault, before w holds any of them.
function M.load(w, list, load_error)
  if list == nil then return end
  if type(list) ~= "table" then
    load_error("graphs must be a list of {name =, graph =}, got " .. describe(list))
  end
  local n = 0
  for _ in pairs(list) do n = n + 1 end
  if n ~= #list or n > M.MAX_GRAPHS then
    load_error(("graphs must be a list of at most %d entries"):format(M.MAX_GRAPHS))
  end
  local held, last = {}, nil
  for i, s in ipairs(list) do
    if type(s) ~= "table" then load_error(("graphs[%d] must be a table"):format(i)) end
    local name = s.name
    if type(name) ~= "string" or name == "" or #name > M.MAX_NAME then
      load_error(("graphs[%d].name must be a non-empty string of at most %d bytes, got %s")
        :format(i, M.MAX_NAME, describe(name)))
    end
    if last and name <= last then
      load_error(("graphs[%d].name '%s' is out of order or named twice"):format(i, name))
    end
    last = name
    local ok, g = pcall(graph.load, s.graph)
    if not ok then
      local msg = bare(g):gsub("^wayfinder%.graph%.load: ", "")
      load_error(("graphs[%d].graph ('%s'): %s"):format(i, name, msg))
    end
    local why = M.mismatch(w, g)
    if why then load_error(("graphs[%d].graph ('%s'): %s"):format(i, name, why)) end
    held[name] = { name = name, graph = g, stamp = g.world_build and stamp(w) or nil }
  end
  if n > 0 then w.nav_graphs = held end
end

return M
