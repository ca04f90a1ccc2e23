--- wayfinder.pathcache: a cache of grid paths that knows when they go
-- stale, and give-up with back-off for goals that keep failing.
-- Requests for the same class, start region (the start's chunk and
-- component) and goal navcell reuse a stored path while nothing on it
-- changed: a request from the stored start takes it whole, one from
-- elsewhere in the region searches to the stored start and splices. Each
-- stored path remembers the chunks its navcells lie in; an edit reported
-- with cache:touched (or made through cache:set_passable) marks exactly the
-- stored paths that cross a chunk the edit touched as stale, and their
-- handles say so. An edit the cache was not told of (the grid's version
-- moved on) marks every path stale. A goal whose requests fail
-- `failures` times in a row waits `backoff` ticks, then twice as many after
-- each further failure, up to `max_backoff`. cache:submit puts the cache
-- in front of a request queue: hits are answered at once, other requests
-- are queued and their paths stored (and marked by edits) once their
-- search ends. See docs/pathtable.md.
--
-- Written in the subset of Lua that 5.1 to 5.4 and LuaJIT share.
local M = {}

local DEFAULTS = { capacity = 256, failures = 3, backoff = 4, max_backoff = 256 }

local util = require("wayfinder.util")

local is_integer = util.is_integer
local describe = util.describe_arg
local fail = util.fail

local Cache = {}
Cache.__index = Cache
Cache.__name = "wayfinder.PathCache"

local Handle = {}
Handle.__index = Handle
Handle.__name = "wayfinder.CachedPath"

function Cache:__tostring()
  return string.format("wayfinder.PathCache (%d paths, tick %d)", self.count, self.now)
end

function Handle:__tostring()
  return string.format("wayfinder.CachedPath (%s)", self.entry.stale and "stale" or "fresh")
end

--- pathcache.new(grid [, options]) -> cache
function M.new(grid, options)
  local fname = "wayfinder.pathtable.cache"
  if not util.is_grid(grid) then
    fail(fname, "grid must be a wayfinder.Grid, got %s", describe(grid))
  end
  if options == nil then options = {} end
  if type(options) ~= "table" then
    fail(fname, "options must be a table, got %s", describe(options))
  end
  local cfg = {}
  for k, v in pairs(options) do
    if DEFAULTS[k] == nil then fail(fname, "unknown options key %s", describe(k)) end
    if not is_integer(v) or v < 1 or v > 1048576 then
      fail(fname, "options.%s must be an integer in [1, 1048576], got %s", k, describe(v))
    end
    cfg[k] = v
  end
  for k, v in pairs(DEFAULTS) do
    if cfg[k] == nil then cfg[k] = v end
  end
  -- closed before the call, or by a metamethod of options
  if grid:is_closed() then fail(fname, "the grid is closed") end
  local grow = 0
  for _, c in ipairs(grid:classes()) do
    if c.clearance > grow then grow = c.clearance end
  end
  return setmetatable({ grid = grid, cfg = cfg, chunk = grid:regions().chunk_size,
    grow = grow + 1, version = grid:version(), now = 0, entries = {}, order = {},
    live = setmetatable({}, { __mode = "k" }), queued = {},
    count = 0, failed = {}, counts = { hits = 0, misses = 0, spliced = 0, saved = 0,
    stale_marked = 0, backed_off = 0 } }, Cache)
end

local function check_coord(fname, what, v, hi)
  if not is_integer(v) or v < 0 or v >= hi then
    fail(fname, "%s must be an integer in [0, %d), got %s", what, hi, describe(v))
  end
end

local function chunk_of(self, x, y)
  local per_row = math.floor((self.grid:width() + self.chunk - 1) / self.chunk)
  return math.floor(y / self.chunk) * per_row + math.floor(x / self.chunk)
end

-- Every chunk the path's navcells lie in (waypoints joined by straight or
-- diagonal runs of navcells).
local function chunks_of(self, path)
  local set = {}
  local x, y = path[1].x, path[1].y
  set[chunk_of(self, x, y)] = true
  for k = 2, #path do
    local tx, ty = path[k].x, path[k].y
    while x ~= tx or y ~= ty do
      if x < tx then x = x + 1 elseif x > tx then x = x - 1 end
      if y < ty then y = y + 1 elseif y > ty then y = y - 1 end
      set[chunk_of(self, x, y)] = true
    end
  end
  return set
end

local absorb

-- Marks every stored path stale when the grid changed behind the cache.
local function sync(self)
  local v = self.grid:version()
  if v ~= self.version then
    absorb(self)
    for e in pairs(self.live) do
      if not e.stale then
        e.stale = true
        self.counts.stale_marked = self.counts.stale_marked + 1
      end
    end
    self.live = setmetatable({}, { __mode = "k" })
    self.entries, self.order, self.count = {}, {}, 0
    self.version = v
  end
end

local function forget(self, e)
  if self.entries[e.key] == e then
    self.entries[e.key] = nil
    self.count = self.count - 1
  end
end

--- cache:touched(x0, y0, x1, y1) -> paths marked stale
-- Reports an edit of the navcells in the box (inclusive; grown by the
-- largest clearance of the grid's classes plus one, since clearance
-- spreads a change). Call it after each edit made on the grid directly.
function Cache:touched(x0, y0, x1, y1)
  local fname = "pathcache:touched"
  local w, h = self.grid:width(), self.grid:height()
  check_coord(fname, "x0", x0, w)
  check_coord(fname, "y0", y0, h)
  check_coord(fname, "x1", x1, w)
  check_coord(fname, "y1", y1, h)
  if x1 < x0 or y1 < y0 then fail(fname, "the box is empty: x1 < x0 or y1 < y0") end
  -- queued requests that finished before the edit hold paths of the old
  -- grid: store them first, so the edit marks them like any other
  absorb(self)
  local g = self.grow
  local ax, ay = math.max(0, x0 - g), math.max(0, y0 - g)
  local bx, by = math.min(w - 1, x1 + g), math.min(h - 1, y1 + g)
  local hit = {}
  for cy = math.floor(ay / self.chunk), math.floor(by / self.chunk) do
    for cx = math.floor(ax / self.chunk), math.floor(bx / self.chunk) do
      hit[chunk_of(self, cx * self.chunk, cy * self.chunk)] = true
    end
  end
  -- every path a handle may still hold, cached or not (the order of this
  -- walk does not matter: it only sets flags)
  local marked, gone = 0, {}
  for e in pairs(self.live) do
    local crosses = false
    for c in pairs(e.chunks) do
      if hit[c] then crosses = true; break end
    end
    if crosses then
      if not e.stale then
        e.stale = true
        marked = marked + 1
      end
      gone[#gone + 1] = e
    end
  end
  for _, e in ipairs(gone) do
    self.live[e] = nil
    forget(self, e)
  end
  local keep = {}
  for i = 1, #self.order do
    if not self.order[i].stale then keep[#keep + 1] = self.order[i] end
  end
  self.order = keep
  self.counts.stale_marked = self.counts.stale_marked + marked
  self.version = self.grid:version()
  return marked
end

--- cache:set_passable(x, y, passable [, class]) -> what grid:set_passable
-- returns, after marking the paths it touches stale.
function Cache:set_passable(x, y, passable, class)
  sync(self)
  local r = { self.grid:set_passable(x, y, passable, class) }
  self:touched(x, y, x, y)
  return (table.unpack or unpack)(r) -- luacheck: ignore
end

--- cache:advance([n]) -> the cache's tick after moving it n (default 1) on
function Cache:advance(n)
  if n == nil then n = 1 end
  if not is_integer(n) or n < 0 or n > 1048576 then
    fail("pathcache:advance", "n must be an integer in [0, 1048576], got %s", describe(n))
  end
  self.now = self.now + n
  return self.now
end

local function store(self, key, path, cost, expanded)
  local e = { key = key, path = path, cost = cost, expanded = expanded,
    chunks = chunks_of(self, path), stale = false }
  if self.entries[key] then
    local old = self.entries[key]
    for i = 1, #self.order do
      if self.order[i] == old then table.remove(self.order, i); break end
    end
    self.count = self.count - 1
  end
  self.entries[key] = e
  self.live[e] = true
  self.order[#self.order + 1] = e
  self.count = self.count + 1
  if self.count > self.cfg.capacity then   -- drop the oldest
    local oldest = table.remove(self.order, 1)
    forget(self, oldest)
  end
  return e
end

local function handle(e, path, cost, how)
  return setmetatable({ entry = e, points = path, total = cost, kind = how }, Handle)
end

-- One more failure in a row for goal key gkey; from `failures` on, the
-- goal waits `backoff` ticks, doubled for each further failure, at most
-- `max_backoff`.
local function note_failure(self, gkey)
  local f = self.failed[gkey] or { count = 0, wait_until = 0 }
  f.count = f.count + 1
  if f.count >= self.cfg.failures then
    local wait = self.cfg.backoff
    for _ = 1, f.count - self.cfg.failures do
      wait = wait * 2
      if wait >= self.cfg.max_backoff then break end
    end
    if wait > self.cfg.max_backoff then wait = self.cfg.max_backoff end
    f.wait_until = self.now + wait
  end
  self.failed[gkey] = f
end

-- The checks and keys shared by request and submit: returns class, the
-- goal's key, the request's key, or nil, "backing_off", ticks.
local function prepare(self, fname, sx, sy, gx, gy, class)
  local w, h = self.grid:width(), self.grid:height()
  check_coord(fname, "sx", sx, w)
  check_coord(fname, "sy", sy, h)
  check_coord(fname, "gx", gx, w)
  check_coord(fname, "gy", gy, h)
  if class == nil then class = self.grid:classes()[1].name end
  local known = false
  for _, c in ipairs(self.grid:classes()) do
    if c.name == class then known = true end
  end
  if not known then fail(fname, "class must name a class of the grid, got %s", describe(class)) end
  return class
end

local function keys(self, sx, sy, gx, gy, class)
  local w = self.grid:width()
  local gkey = class .. ":" .. (gy * w + gx)
  local comp = self.grid:component(sx, sy, class) or 0
  local key = class .. ":" .. chunk_of(self, sx, sy) .. ":" .. comp .. ":" .. (gy * w + gx)
  return gkey, key
end

--- cache:request(sx, sy, gx, gy [, class]) -> handle | nil, reason [, wait]
function Cache:request(sx, sy, gx, gy, class)
  local fname = "pathcache:request"
  class = prepare(self, fname, sx, sy, gx, gy, class)
  sync(self)
  local gkey, key = keys(self, sx, sy, gx, gy, class)
  local f = self.failed[gkey]
  if f and self.now < f.wait_until then
    self.counts.backed_off = self.counts.backed_off + 1
    return nil, "backing_off", f.wait_until - self.now
  end
  local e = self.entries[key]
  local opts = { class = class, rewrite_goal = false, escape = false }
  if e and not e.stale then
    local p0 = e.path[1]
    if p0.x == sx and p0.y == sy then
      self.counts.hits = self.counts.hits + 1
      self.counts.saved = self.counts.saved + e.expanded
      return handle(e, e.path, e.cost, "hit")
    end
    local lead, _, info = self.grid:find_path(sx + 0.5, sy + 0.5, p0.x + 0.5, p0.y + 0.5, opts)
    if lead then
      local path = {}
      for i = 1, #lead do path[i] = lead[i] end
      for i = 2, #e.path do path[#path + 1] = e.path[i] end
      self.counts.spliced = self.counts.spliced + 1
      self.counts.saved = self.counts.saved + math.max(0, e.expanded - info.expanded)
      local he = { key = key, path = path, chunks = chunks_of(self, path), stale = false }
      self.live[he] = true
      return handle(he, path, info.cost + e.cost, "spliced")
    end
  end
  self.counts.misses = self.counts.misses + 1
  local path, cost, info = self.grid:find_path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, opts)
  if not path then
    note_failure(self, gkey)
    return nil, cost
  end
  self.failed[gkey] = nil
  local ne = store(self, key, path, cost, info.expanded)
  return handle(ne, path, cost, "searched")
end

-- ------------------------------------------------------ queued requests --

local Queued = {}
Queued.__index = Queued
Queued.__name = "wayfinder.QueuedPath"

function Queued:__tostring()
  return string.format("wayfinder.QueuedPath (%s, %s)", self.kind, self:status())
end

-- A queued request whose search ended: its path is stored (so later
-- requests reuse it and edits mark it), or its failure counts for back-off.
local function finish(self, q, status)
  q.req_status = status
  if status == "done" then
    local path, length, info = q.req:result()
    q.entry = store(self, q.key, path, length, info.expanded)
    self.failed[q.gkey] = nil
  elseif status == "failed" then
    note_failure(self, q.gkey)
  end
end

-- Takes in every queued request whose search has ended, in submission order.
absorb = function(self)
  local list = self.queued
  if #list == 0 then return end
  local keep = {}
  for _, q in ipairs(list) do
    local st = q.req:status()
    if st == "pending" then keep[#keep + 1] = q else finish(self, q, st) end
  end
  self.queued = keep
end

--- cache:submit(queue, sx, sy, gx, gy [, class]) -> queued | nil, "backing_off", ticks
-- A request served by the cache when it holds a fresh path from this very
-- start, else by `queue` (a wayfinder.Queue of the cache's grid); its path
-- is stored when the search ends.
function Cache:submit(queue, sx, sy, gx, gy, class)
  local fname = "pathcache:submit"
  local mt = getmetatable(queue)
  if type(mt) ~= "table" or mt.__name ~= "wayfinder.Queue" then
    fail(fname, "queue must be a wayfinder.Queue, got %s", describe(queue))
  end
  if queue:is_closed() then fail(fname, "the queue is closed") end
  if not rawequal(queue:grid(), self.grid) then fail(fname, "queue must serve the cache's grid") end
  class = prepare(self, fname, sx, sy, gx, gy, class)
  sync(self)
  absorb(self)
  local gkey, key = keys(self, sx, sy, gx, gy, class)
  local f = self.failed[gkey]
  if f and self.now < f.wait_until then
    self.counts.backed_off = self.counts.backed_off + 1
    return nil, "backing_off", f.wait_until - self.now
  end
  local e = self.entries[key]
  if e and not e.stale and e.path[1].x == sx and e.path[1].y == sy then
    self.counts.hits = self.counts.hits + 1
    self.counts.saved = self.counts.saved + e.expanded
    return setmetatable({ cache = self, entry = e, kind = "hit", req_status = "done" }, Queued)
  end
  self.counts.misses = self.counts.misses + 1
  local req = queue:submit({ sx = sx + 0.5, sy = sy + 0.5, gx = gx + 0.5, gy = gy + 0.5,
    class = class, rewrite_goal = false, escape = false })
  local q = setmetatable({ cache = self, req = req, key = key, gkey = gkey, kind = "queued",
    req_status = "pending" }, Queued)
  self.queued[#self.queued + 1] = q
  return q
end

-- Brings a queued request up to date (its search may have ended).
local function refresh(q)
  if q.req_status == "pending" then
    sync(q.cache)
    absorb(q.cache)
  end
end

--- queued:status() -> "pending" | "done" | "failed" | "cancelled"
function Queued:status()
  refresh(self)
  return self.req_status
end

--- queued:result() -> path, length, info | nil, reason [, info]
function Queued:result()
  refresh(self)
  if self.kind == "hit" then
    local e = self.entry
    return e.path, e.cost, { expanded = 0, cached = true }
  end
  local path, length, info = self.req:result()
  if info then info.cached = false end
  return path, length, info
end

--- queued:stale() -> true once an edit touched a chunk its path crosses
function Queued:stale()
  refresh(self)
  sync(self.cache)
  return self.entry ~= nil and self.entry.stale
end

--- queued:how() -> "hit" (answered from the cache) or "queued"
function Queued:how() return self.kind end

--- queued:cancel() -> true when the request was pending
function Queued:cancel()
  if self.kind == "hit" then return false end
  local r = self.req:cancel()
  refresh(self)
  return r
end

--- cache:stats() -> { hits, misses, spliced, saved, stale_marked, backed_off, paths }
function Cache:stats()
  local s = {}
  for k, v in pairs(self.counts) do s[k] = v end
  s.paths = self.count
  return s
end

--- cache:failures(gx, gy [, class]) -> failures in a row, ticks still to wait
function Cache:failures(gx, gy, class)
  local w = self.grid:width()
  check_coord("pathcache:failures", "gx", gx, w)
  check_coord("pathcache:failures", "gy", gy, self.grid:height())
  if class == nil then class = self.grid:classes()[1].name end
  local f = self.failed[class .. ":" .. (gy * w + gx)]
  if not f then return 0, 0 end
  return f.count, math.max(0, f.wait_until - self.now)
end

--- handle:stale() -> true once an edit touched a chunk the path crosses
function Handle:stale()
  return self.entry.stale
end

--- handle:path() -> the waypoints (a shared list: do not change it)
function Handle:path() return self.points end

--- handle:cost() -> the path's length in navcells
function Handle:cost() return self.total end

--- handle:how() -> "searched", "hit" or "spliced"
function Handle:how() return self.kind end

return M
