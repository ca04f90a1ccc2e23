--- wayfinder.gridplan: a within-room planner for house worlds on a navcell grid.
-- It takes the planner contract (a room description and a query, see
-- docs/world.md) and plans on a navcell grid of `cells` navcells per tile
-- laid over the start's room: tiles of other rooms, thin walls (rasterized
-- as the navcell column or row centred on the edge) and furniture are
-- blocked; a class clearance of ceil(width * cells / 2) navcells keeps the
-- person's square clear of them; other people are added as obstructions
-- for the one query. The grid search is optimal and string-pulled.
--
-- The static raster of a room is cached per description table (weakly), so
-- a world that rebuilds its description whenever walls or objects change
-- and only moves the person entries in place (same tables, new boxes) plans
-- without rebuilding.
local compat = require("wayfinder.compat")
local idiv = compat.idiv
local grid = require("wayfinder.grid")
local sweep = require("wayfinder.sweep")

local M = {}

local floor, ceil, max, min = math.floor, math.ceil, math.max, math.min

M.DEFAULT_CELLS = 8
local TUNING_KEYS = { cells = true, snap = true }

local caches = setmetatable({}, { __mode = "k" })

local FNAME = "wayfinder.gridplan.plan"
local COORD_LIMIT = 8192          -- as the rectangle planner's
local MAX_SIDE = 4096             -- tiles, as the walker's
local MAX_WIDTH = 256             -- person width, as the rectangle planner's
local MAX_NAVCELLS = 4194304      -- largest raster of one room (a Lua table each)

local function describe(v)
  if type(v) == "string" then return ("'%s'"):format(v) end
  if type(v) == "table" then return "a table" end
  return tostring(v)
end

-- Raised without a position; M.plan raises it again at its caller's line.
local function fail(msg, ...)
  error(FNAME .. ": " .. msg:format(...), 0)
end

local function finite(v, lo, hi)
  return type(v) == "number" and v == v and v >= lo and v <= hi
end

local function check_number(v, what, lo, hi)
  if not finite(v, lo, hi) then
    fail("%s must be a number in [%g, %g], got %s", what, lo, hi, describe(v))
  end
  return v
end

local function check_point(v, what)
  if type(v) ~= "table" then fail("%s must be a table {x, y}, got %s", what, describe(v)) end
  check_number(v[1], what .. "[1]", -COORD_LIMIT, COORD_LIMIT)
  check_number(v[2], what .. "[2]", -COORD_LIMIT, COORD_LIMIT)
end

local function check_tuning(tuning)
  local cells, snap = M.DEFAULT_CELLS, nil
  if tuning == nil then return cells, snap end
  if type(tuning) ~= "table" then
    fail("query.tuning must be a table, got %s", describe(tuning))
  end
  for k in pairs(tuning) do
    if not TUNING_KEYS[k] then fail("unknown query.tuning key %s", describe(k)) end
  end
  if tuning.cells ~= nil then
    cells = compat.tointeger(tuning.cells)
    if not cells or cells < 2 or cells > 32 then
      fail("query.tuning.cells must be an integer in [2, 32], got %s", describe(tuning.cells))
    end
  end
  if tuning.snap ~= nil then
    snap = compat.tointeger(tuning.snap)
    if not snap or snap < 0 or snap > 256 then
      fail("query.tuning.snap must be an integer in [0, 256], got %s", describe(tuning.snap))
    end
  end
  return cells, snap
end

-- The query's fields, checked before anything is built or changed.
local function check_query(query)
  if type(query) ~= "table" then fail("query must be a table, got %s", describe(query)) end
  check_point(query.start, "query.start")
  check_point(query.goal, "query.goal")
  local mode = query.mode
  if mode ~= nil and mode ~= "point" and mode ~= "near" then
    fail("query.mode must be 'point' or 'near', got %s", describe(mode))
  end
  if mode == "near" then check_number(query.near, "query.near", 0, COORD_LIMIT) end
  check_number(query.width, "query.width", 0, MAX_WIDTH)
  if query.ignore_people_within ~= nil then
    check_number(query.ignore_people_within, "query.ignore_people_within", 0, COORD_LIMIT)
  end
  return check_tuning(query.tuning)
end

-- The room description's fields (see docs/world.md), checked once per
-- description table: a malformed one never reaches the raster.
local function check_room(room)
  if type(room) ~= "table" then fail("room must be a table, got %s", describe(room)) end
  local W, H = compat.tointeger(room.width), compat.tointeger(room.height)
  if not W or W < 1 or W > MAX_SIDE then
    fail("room.width must be an integer in [1, %d], got %s", MAX_SIDE, describe(room.width))
  end
  if not H or H < 1 or H > MAX_SIDE then
    fail("room.height must be an integer in [1, %d], got %s", MAX_SIDE, describe(room.height))
  end
  if type(room.rooms) ~= "table" or #room.rooms ~= W * H then
    fail("room.rooms must be a table of width*height = %d room ids, got %s", W * H,
      type(room.rooms) == "table" and #room.rooms .. " ids" or describe(room.rooms))
  end
  for i = 1, W * H do
    local r = room.rooms[i]
    if compat.type(r) ~= "integer" and type(r) ~= "string" then
      fail("room.rooms[%d] must be an integer or a string, got %s", i, describe(r))
    end
  end
  for _, list in ipairs({ "walls", "objects" }) do
    if type(room[list]) ~= "table" then
      fail("room.%s must be a table, got %s", list, describe(room[list]))
    end
  end
  for n, s in ipairs(room.walls) do
    if type(s) ~= "table" then fail("room.walls[%d] must be a table, got %s", n, describe(s)) end
    for k = 1, 4 do
      check_number(s[k], ("room.walls[%d][%d]"):format(n, k), -COORD_LIMIT, COORD_LIMIT)
    end
  end
  for n, o in ipairs(room.objects) do
    if type(o) ~= "table" then
      fail("room.objects[%d] must be a table, got %s", n, describe(o))
    end
    for _, k in ipairs({ "x0", "y0", "x1", "y1" }) do
      check_number(o[k], ("room.objects[%d].%s"):format(n, k), -COORD_LIMIT, COORD_LIMIT)
    end
  end
end

-- Bounding boxes of every room of a description, computed once.
local function room_boxes(room)
  local W, H, rooms = room.width, room.height, room.rooms
  local boxes = {}
  for y = 0, H - 1 do
    local base = y * W
    for x = 0, W - 1 do
      local r = rooms[base + x + 1]
      local b = boxes[r]
      if not b then
        boxes[r] = { x, y, x, y }
      else
        if x < b[1] then b[1] = x end
        if x > b[3] then b[3] = x end
        if y > b[4] then b[4] = y end
      end
    end
  end
  return boxes
end

-- The static grid of room rid for cells k and clearance c, for a person
-- of half size `half` navcells. The raster is exact where the walker's
-- rule is: a wall on the tile lattice blocks its own navcell line, a
-- piece of furniture the navcell centres inside its box grown by
-- half - c (at least half a navcell), and the clearance of c navcells
-- adds the rest, so a centre is refused where the person's square would
-- overlap the wall or the box, and one that only touches it is passed.
local function build(room, rid, k, c, box, half)
  local grow = half - c
  if grow < 0.5 then grow = 0.5 end
  local W, H, rooms = room.width, room.height, room.rooms
  local ox, oy = box[1] - 1, box[2] - 1
  local nx = (box[3] - box[1] + 3) * k + 1
  local ny = (box[4] - box[2] + 3) * k + 1
  -- tiles each navcell column/row straddles: navcell i covers
  -- [(i - 0.5) / k, (i + 0.5) / k) around the tile origin
  local function spans(n, o, limit)
    local t = {}
    for i = 0, n - 1 do
      local a, b
      if i % k == 0 then
        a, b = o + idiv(i, k) - 1, o + idiv(i, k)
      else
        a = o + idiv(i, k)
        b = a
      end
      if a < 0 or b >= limit then t[i] = false else t[i] = { a, b } end
    end
    return t
  end
  local cols, rows = spans(nx, ox, W), spans(ny, oy, H)
  local blocked = {}
  for j = 0, ny - 1 do
    local rj = rows[j]
    local base = j * nx
    for i = 0, nx - 1 do
      local ci = cols[i]
      local free = ci and rj
        and rooms[rj[1] * W + ci[1] + 1] == rid and rooms[rj[1] * W + ci[2] + 1] == rid
        and rooms[rj[2] * W + ci[1] + 1] == rid and rooms[rj[2] * W + ci[2] + 1] == rid
      if not free then blocked[base + i + 1] = true end
    end
  end
  local function block_range(i0, i1, j0, j1)
    if i0 < 0 then i0 = 0 end
    if j0 < 0 then j0 = 0 end
    if i1 > nx - 1 then i1 = nx - 1 end
    if j1 > ny - 1 then j1 = ny - 1 end
    for j = j0, j1 do
      local base = j * nx
      for i = i0, i1 do blocked[base + i + 1] = true end
    end
  end
  for _, s in ipairs(room.walls) do
    local x0, y0, x1, y1 = s[1], s[2], s[3], s[4]
    if x0 > x1 then x0, x1 = x1, x0 end
    if y0 > y1 then y0, y1 = y1, y0 end
    block_range((x0 - ox) * k, (x1 - ox) * k, (y0 - oy) * k, (y1 - oy) * k)
  end
  local bx0, by0, bx1, by1 = ox, oy, ox + (nx - 1) / k, oy + (ny - 1) / k
  -- the pieces of furniture blocked here (of a positive size): what a leg
  -- is tested against besides the walls (see search)
  local furniture = {}
  for _, o in ipairs(room.objects) do
    if not o.person and not o.walk_over and not o.contained
        and o.x1 > bx0 and o.x0 < bx1 and o.y1 > by0 and o.y0 < by1 then
      -- navcells whose centre lies in the box's open interior grown by grow
      block_range(floor((o.x0 - ox) * k - grow) + 1, ceil((o.x1 - ox) * k + grow) - 1,
        floor((o.y0 - oy) * k - grow) + 1, ceil((o.y1 - oy) * k + grow) - 1)
      if o.x1 > o.x0 and o.y1 > o.y0 then furniture[#furniture + 1] = o end
    end
  end
  local lines = {}
  local row = {}
  for j = 0, ny - 1 do
    local base = j * nx
    for i = 0, nx - 1 do row[i + 1] = blocked[base + i + 1] and "#" or "." end
    lines[j + 1] = table.concat(row, "", 1, nx)
  end
  local g = grid.from_ascii(table.concat(lines, "\n"),
    { classes = { { name = "person", clearance = c } } })
  return { grid = g, ox = ox, oy = oy, nx = nx, ny = ny, k = k, furniture = furniture }
end

local function cache_of(room)
  local cache = caches[room]
  if not cache then
    check_room(room)
    local people = {}
    for _, o in ipairs(room.objects) do
      if o.person then people[#people + 1] = o end
    end
    cache = { boxes = room_boxes(room), people = people, grids = {} }
    caches[room] = cache
  end
  return cache
end

local function room_data(room, rid, k, c, h)
  local cache = cache_of(room)
  local grids = cache.grids[rid]
  if not grids then
    grids = {}
    cache.grids[rid] = grids
  end
  local by_k = grids[k]
  if not by_k then
    by_k = {}
    grids[k] = by_k
  end
  local d = by_k[h]
  if not d then
    local box = cache.boxes[rid]
    local nx, ny = (box[3] - box[1] + 3) * k + 1, (box[4] - box[2] + 3) * k + 1
    if nx * ny > MAX_NAVCELLS then
      fail("the room's grid would be %d x %d navcells, more than %d: give fewer "
        .. "query.tuning.cells", nx, ny, MAX_NAVCELLS)
    end
    d = build(room, rid, k, c, box, h)
    by_k[h] = d
  end
  return d
end

-- The walls of a description as the walker holds them, once per
-- description: unit edges by key (a wall segment runs under its doors
-- too, and the edge a person stands in never stops a step that starts
-- there), and any wall off the tile lattice whole.
local function wall_edges(room)
  local cache = caches[room]
  if cache.edges then return cache.edges end
  local W = room.width
  local h, v, odd = {}, {}, {}
  for _, s in ipairs(room.walls) do
    local x0, y0, x1, y1 = s[1], s[2], s[3], s[4]
    if x0 > x1 then x0, x1 = x1, x0 end
    if y0 > y1 then y0, y1 = y1, y0 end
    if x0 ~= floor(x0) or y0 ~= floor(y0) or x1 ~= floor(x1) or y1 ~= floor(y1)
        or (x0 ~= x1 and y0 ~= y1) then
      odd[#odd + 1] = { x0, y0, x1, y1 }
    elseif y0 == y1 then
      for x = x0, x1 - 1 do h[y0 * (W + 1) + x] = true end
    else
      for y = y0, y1 - 1 do v[y * (W + 1) + x0] = true end
    end
  end
  cache.edges = { h = h, v = v, odd = odd }
  return cache.edges
end

-- Whether the walker would let a square of half size `half` step straight
-- from (ax, ay) to (bx, by): the walker's own swept test
-- (wayfinder.sweep.box against each unit wall edge, and each box of
-- `solids`, grown by half - 2^-16; see docs/world.md).
local function leg_clear(room, ax, ay, bx, by, half, solids)
  local e = half - 1 / 65536
  if e < 0 then e = 0 end
  local W = room.width
  local edges = wall_edges(room)
  local lx, hx = floor(min(ax, bx) - e) - 1, ceil(max(ax, bx) + e) + 1
  local ly, hy = floor(min(ay, by) - e) - 1, ceil(max(ay, by) + e) + 1
  for y = ly, hy do
    for x = lx, hx do
      local key = y * (W + 1) + x
      if edges.h[key] and sweep.box(ax, ay, bx, by, x - e, y - e, x + 1 + e, y + e) then
        return false
      end
      if edges.v[key] and sweep.box(ax, ay, bx, by, x - e, y - e, x + e, y + 1 + e) then
        return false
      end
    end
  end
  for _, s in ipairs(edges.odd) do
    if sweep.box(ax, ay, bx, by, s[1] - e, s[2] - e, s[3] + e, s[4] + e) then return false end
  end
  for _, o in ipairs(solids) do
    if sweep.box(ax, ay, bx, by, o.x0 - e, o.y0 - e, o.x1 + e, o.y1 + e) then return false end
  end
  return true
end

-- The furniture and the other people of the description whose box lies
-- within r of (x, y): all a leg from there of at most r can meet. People
-- the query ignores (within ignore_people_within of the goal) are left
-- out, as add_people leaves them out of the raster.
local function solids_near(room, query, r)
  local x, y = query.start[1], query.start[2]
  local self_id, ignore = query.start_object, query.ignore_people_within
  local gx, gy = query.goal[1], query.goal[2]
  local out = {}
  for _, o in ipairs(room.objects) do
    local solid
    if o.person then
      solid = o.id ~= self_id
      if solid and ignore then
        local dx, dy = (o.x0 + o.x1) / 2 - gx, (o.y0 + o.y1) / 2 - gy
        solid = dx * dx + dy * dy > ignore * ignore
      end
    else
      solid = not o.walk_over and not o.contained
    end
    if solid and o.x1 > o.x0 and o.y1 > o.y0 and o.x1 >= x - r and o.x0 <= x + r
        and o.y1 >= y - r and o.y0 <= y + r then
      out[#out + 1] = o
    end
  end
  return out
end

-- The wall edges and solids whose box grown by e (closed) holds (x, y),
-- as sets: h and v by edge key, odd and solids by index. A step that
-- starts in such a box never collides with it.
local function boxes_holding(room, x, y, e, solids)
  local W = room.width
  local edges = wall_edges(room)
  local at = { h = {}, v = {}, odd = {}, solids = {} }
  for yy = floor(y - e), ceil(y + e) do
    for xx = floor(x - e) - 1, ceil(x + e) do
      local key = yy * (W + 1) + xx
      if edges.h[key] and x >= xx - e and x <= xx + 1 + e and y >= yy - e and y <= yy + e then
        at.h[key] = true
      end
      if edges.v[key] and x >= xx - e and x <= xx + e and y >= yy - e and y <= yy + 1 + e then
        at.v[key] = true
      end
    end
  end
  for n, s in ipairs(edges.odd) do
    if x >= s[1] - e and x <= s[3] + e and y >= s[2] - e and y <= s[4] + e then
      at.odd[n] = true
    end
  end
  for n, o in ipairs(solids) do
    if x >= o.x0 - e and x <= o.x1 + e and y >= o.y0 - e and y <= o.y1 + e then
      at.solids[n] = true
    end
  end
  return at
end

-- Whether a centre at (x, y) lies outside every wall edge and solid grown
-- by e (closed boxes) except those of `skip` (boxes_holding the start).
local function point_free(room, x, y, e, solids, skip)
  local W = room.width
  local edges = wall_edges(room)
  for yy = floor(y - e), ceil(y + e) do
    for xx = floor(x - e) - 1, ceil(x + e) do
      local key = yy * (W + 1) + xx
      if edges.h[key] and not skip.h[key] and x >= xx - e and x <= xx + 1 + e
          and y >= yy - e and y <= yy + e then
        return false
      end
      if edges.v[key] and not skip.v[key] and x >= xx - e and x <= xx + e
          and y >= yy - e and y <= yy + 1 + e then
        return false
      end
    end
  end
  for n, s in ipairs(edges.odd) do
    if not skip.odd[n] and x >= s[1] - e and x <= s[3] + e and y >= s[2] - e
        and y <= s[4] + e then
      return false
    end
  end
  for n, o in ipairs(solids) do
    if not skip.solids[n] and x >= o.x0 - e and x <= o.x1 + e and y >= o.y0 - e
        and y <= o.y1 + e then
      return false
    end
  end
  return true
end

-- The way out of a start navcell the raster refuses (in a door frame's
-- clearance, or next to another person): a breadth-first search over
-- navcell centres within Chebyshev radius r of the start navcell (si, sj)
-- where the walker lets the person stand (point_free: clear of everything
-- but what the person already overlaps at the start), by steps of one
-- navcell along an axis, entered from the start by a straight leg the
-- walker allows, to the nearest navcell the raster passes. The chain is
-- then string-pulled into legs, each one tested by the walker's own rule
-- (leg_clear); returns that navcell and the legs, or nil when there is no
-- such navcell or a leg fails.
local function escape(room, g, d, query, k, si, sj, r)
  if r < 1 then return nil end
  local ox, oy, nx, ny = d.ox, d.oy, d.nx, d.ny
  local sx, sy = query.start[1], query.start[2]
  local half = query.width / 2
  local e = half - 1 / 65536
  if e < 0 then e = 0 end
  local solids = solids_near(room, query, (r + 2) / k + half + 1)
  local skip = boxes_holding(room, sx, sy, e, solids)
  local side = 2 * r + 1
  -- cell (i, j) as a key within the search square
  local function key(i, j) return (j - sj + r) * side + (i - si + r) end
  local seen, from, queue = {}, {}, {}
  local function free(i, j)
    return i >= 0 and j >= 0 and i < nx and j < ny
      and point_free(room, ox + i / k, oy + j / k, e, solids, skip)
  end
  -- entries: the navcells within two of the start the person reaches by
  -- one leg, nearest first (rings, row by row, as everywhere here)
  for dd = 0, min(2, r) do
    for j = sj - dd, sj + dd do
      local edge = j == sj - dd or j == sj + dd
      local step = (edge or dd == 0) and 1 or 2 * dd
      for i = si - dd, si + dd, step do
        local kk = key(i, j)
        if not seen[kk] and free(i, j)
            and leg_clear(room, sx, sy, ox + i / k, oy + j / k, half, solids) then
          seen[kk] = true
          from[kk] = false
          queue[#queue + 1] = { i, j }
        end
      end
    end
  end
  local head, found = 1, nil
  while head <= #queue do
    local c = queue[head]
    head = head + 1
    if g:is_passable(c[1], c[2]) then
      found = c
      break
    end
    local ck = key(c[1], c[2])
    for n = 1, 4 do
      local i, j = c[1], c[2]
      if n == 1 then i = i + 1 elseif n == 2 then i = i - 1
      elseif n == 3 then j = j + 1 else j = j - 1 end
      if i >= si - r and i <= si + r and j >= sj - r and j <= sj + r then
        local kk = key(i, j)
        if not seen[kk] then
          seen[kk] = true
          if free(i, j) then
            from[kk] = ck
            queue[#queue + 1] = { i, j }
          end
        end
      end
    end
  end
  if not found then return nil end
  -- the chain of navcells back to an entry, then the legs: from each
  -- point the farthest chain navcell a straight leg reaches
  local chain = {}
  local kk = key(found[1], found[2])
  while kk do
    local j = floor(kk / side)
    local i = kk - j * side
    table.insert(chain, 1, { ox + (i + si - r) / k, oy + (j + sj - r) / k })
    kk = from[kk]
  end
  local legs = {}
  local px, py, at = sx, sy, 0
  while at < #chain do
    local to = nil
    for n = #chain, at + 1, -1 do
      if leg_clear(room, px, py, chain[n][1], chain[n][2], half, solids) then
        to = n
        break
      end
    end
    if not to then return nil end
    px, py, at = chain[to][1], chain[to][2], to
    legs[#legs + 1] = { px, py }
  end
  return found[1], found[2], legs
end

-- Whether every leg of `points` from the from-th point on passes the
-- walker's swept test against the walls and the furniture.
local function legs_clear(room, points, from, half, solids)
  for n = from, #points - 1 do
    local a, b = points[n], points[n + 1]
    if not leg_clear(room, a[1], a[2], b[1], b[2], half, solids) then return false end
  end
  return true
end

-- The grid path `path` (navcells, unsmoothed: its moves between two
-- waypoints all go one way) string-pulled from the point (px, py) in its
-- first navcell: from each point the farthest waypoint that the grid sees
-- (line of sight, for the people in the raster) and the walker's test
-- passes (walls and furniture, exactly), else the next waypoint, by way
-- of the navcell's centre when the point is off it. Returns the world
-- points after (px, py).
local function pull(room, d, path, px, py, half, solids)
  local g, ox, oy, k = d.grid, d.ox, d.oy, d.k
  local out = {}
  local at, ci, cj = 1, path[1].x, path[1].y
  while at < #path do
    local to = nil
    for n = #path, at + 1, -1 do
      local q = path[n]
      if g:line_of_sight(ci, cj, q.x, q.y)
          and leg_clear(room, px, py, ox + q.x / k, oy + q.y / k, half, solids) then
        to = n
        break
      end
    end
    local cx, cy = ox + ci / k, oy + cj / k
    if not to and (px ~= cx or py ~= cy) then
      -- off its navcell's centre (the exact start): to the centre first,
      -- from where the grid path's own moves are taken
      px, py = cx, cy
    else
      to = to or at + 1
      at, ci, cj = to, path[to].x, path[to].y
      px, py = ox + ci / k, oy + cj / k
    end
    out[#out + 1] = { px, py }
  end
  return out
end

local function search(room, d, query, k, c, snap)
  local g, ox, oy, nx, ny = d.grid, d.ox, d.oy, d.nx, d.ny
  local sx, sy = query.start[1], query.start[2]
  local gx, gy = query.goal[1], query.goal[2]
  local su, sv = (sx - ox) * k + 0.5, (sy - oy) * k + 0.5
  local si, sj = floor(su), floor(sv)
  if si < 0 or sj < 0 or si >= nx or sj >= ny then return nil, "start_outside" end
  local legs = nil
  if not g:is_passable(si, sj) then
    -- a start the raster refuses (in a door frame's clearance, or next to
    -- another person) leaves by legs the walker itself allows, so the
    -- route never cuts a wall, a door frame or a person
    local ni, nj
    ni, nj, legs = escape(room, g, d, query, k, si, sj, snap or 2 * k)
    if not ni then return nil, "start_blocked" end
    si, sj = ni, nj
    su, sv = si + 0.5, sj + 0.5
  end
  local gu, gv = (gx - ox) * k + 0.5, (gy - oy) * k + 0.5
  -- a room plan either reaches its goal or fails: no rewriting, no escape
  local opts = { smooth = true, rewrite_goal = false, escape = false }
  local near = query.mode == "near"
  local stay = false
  if near then
    local hn = query.near * k
    opts.goal = { shape = "square", half_width = hn, half_height = hn }
    local cx, cy = ox + (su - 0.5) / k, oy + (sv - 0.5) / k
    if max(math.abs(cx - gx), math.abs(cy - gy)) <= query.near then
      -- a start already in the square walks out to its boundary, as the
      -- rectangle planner's does (people waiting near a door step out of
      -- its way): to the passable navcell of the square's outermost ring
      -- nearest to it (ties: lower row, then lower column); with none, or
      -- none reachable, the start itself is the route
      local i0, i1 = ceil((gx - query.near - ox) * k), floor((gx + query.near - ox) * k)
      local j0, j1 = ceil((gy - query.near - oy) * k), floor((gy + query.near - oy) * k)
      if i0 < 0 then i0 = 0 end
      if j0 < 0 then j0 = 0 end
      if i1 > nx - 1 then i1 = nx - 1 end
      if j1 > ny - 1 then j1 = ny - 1 end
      local best, bi, bj = nil, nil, nil
      local ri0 = ceil((gx - query.near - ox) * k)
      local ri1 = floor((gx + query.near - ox) * k)
      local rj0 = ceil((gy - query.near - oy) * k)
      local rj1 = floor((gy + query.near - oy) * k)
      for j = j0, j1 do
        local edge = j == rj0 or j == rj1
        local step = edge and 1 or max(1, ri1 - ri0)
        for i = ri0, ri1, step do
          if i >= i0 and i <= i1 and g:is_passable(i, j) then
            local du, dv = i + 0.5 - su, j + 0.5 - sv
            local d2 = du * du + dv * dv
            if not best or d2 < best then best, bi, bj = d2, i, j end
          end
        end
      end
      if best then
        opts.goal = nil
        gu, gv = bi + 0.5, bj + 0.5
      else
        stay = true
      end
    end
  else
    local gi, gj = floor(gu), floor(gv)
    if gi < 0 or gj < 0 or gi >= nx or gj >= ny then return nil, "goal_outside" end
    if not g:is_passable(gi, gj) then
      -- the raster is conservative: aim at the navcells around the goal and
      -- end on the exact point, which the walk itself tests exactly
      opts.goal = { shape = "circle", radius = c + 1.5 }
    end
  end
  local path, info = { { x = su, y = sv } }, { expanded = 0 }
  if not stay then
    local why
    path, why, info = g:find_path(su, sv, gu, gv, opts)
    if not path then
      if not (near and not opts.goal) then return nil, why end
      -- the boundary is out of reach from inside the square: stay
      path, info = { { x = su, y = sv } }, { expanded = info and info.expanded or 0 }
    end
  end
  local points = { { sx, sy } }
  local function add(x, y)
    local last = points[#points]
    if last[1] ~= x or last[2] ~= y then points[#points + 1] = { x, y } end
  end
  if legs then
    for _, p in ipairs(legs) do add(p[1], p[2]) end
  end
  local from = #points
  for n = 2, #path do add(ox + path[n].x / k, oy + path[n].y / k) end
  if not near then add(gx, gy) end
  -- the raster is exact for walls and furniture, so a smoothed leg may
  -- cut up to half a navcell into a wall's or a box's margin: each leg
  -- is tested by the walker's own rule, and where one fails the grid path
  -- is string-pulled again under that rule
  local half = query.width / 2
  local solids = d.furniture
  if #path > 1 and not legs_clear(room, points, from, half, solids) then
    local raw = g:find_path(su, sv, gu, gv, { smooth = false, rewrite_goal = false,
      escape = false, goal = opts.goal })
    if raw then
      local keep = {}
      for n = 1, from do keep[n] = points[n] end
      points = keep
      local p0 = points[from]
      for _, p in ipairs(pull(room, d, raw, p0[1], p0[2], half, solids)) do add(p[1], p[2]) end
      if not near then add(gx, gy) end
    end
  end
  return points, { expanded = info.expanded, cells = nx * ny }
end

-- Adds the other people of the room as obstructions of d's grid for one
-- query; returns the ids added.
local function add_people(room, query, d, cells, margin)
  local g, ox, oy = d.grid, d.ox, d.oy
  local bx1, by1 = ox + (d.nx - 1) / cells, oy + (d.ny - 1) / cells
  local ignore = query.ignore_people_within
  local gx, gy = query.goal[1], query.goal[2]
  local added = {}
  -- the person entries of a description keep their tables (the boxes move)
  for _, o in ipairs(cache_of(room).people) do
    if o.id ~= query.start_object
        and o.x1 > ox and o.x0 < bx1 and o.y1 > oy and o.y0 < by1 then
      local cx, cy = (o.x0 + o.x1) / 2, (o.y0 + o.y1) / 2
      local skip = false
      if ignore then
        local dx, dy = cx - gx, cy - gy
        skip = dx * dx + dy * dy <= ignore * ignore
      end
      if not skip then
        local ok, id = pcall(g.add_obstruction, g, {
          x = (cx - ox) * cells + 0.5, y = (cy - oy) * cells + 0.5,
          half_width = (o.x1 - o.x0) / 2 * cells + margin,
          half_height = (o.y1 - o.y0) / 2 * cells + margin,
        })
        if not ok then return added, id end
        added[#added + 1] = id
      end
    end
  end
  return added
end

--- planner(room, query) -> points, info | nil, reason (the contract).
-- The people added to the cached grid for this query are always taken out
-- again, whatever happens, so a failed plan leaves nothing behind.
function M.plan(room, query)
  local checked, cells, snap = pcall(check_query, query)
  if not checked then error(cells, 2) end
  local ok_room, cache = pcall(cache_of, room)
  if not ok_room then error(cache, 2) end
  local W, H = room.width, room.height
  local sx, sy = query.start[1], query.start[2]
  local tx, ty = floor(sx), floor(sy)
  if tx < 0 or ty < 0 or tx >= W or ty >= H then return nil, "start_outside" end
  local rid = room.rooms[ty * W + tx + 1]
  -- the person's half size in navcells, and the class clearance: one
  -- navcell less than it, rounded up (the raster's own blocking gives the
  -- rest, see build)
  local h = query.width * cells / 2
  local c = max(0, ceil(h) - 1)
  if not cache.boxes[rid] then return nil, "start_outside" end
  local built, d = pcall(room_data, room, rid, cells, c, h)
  if not built then error(d, 2) end
  -- other people keep the margin they had with a clearance of ceil(h):
  -- their centres are refused within half a navcell more than the
  -- walker's rule, which covers a smoothed leg's cut across a navcell
  local added, err = add_people(room, query, d, cells, 1 + ceil(h) - c)
  local ok, points, info = true, nil, nil
  if not err then ok, points, info = pcall(search, room, d, query, cells, c, snap) end
  for n = #added, 1, -1 do d.grid:remove_obstruction(added[n]) end
  if err then error(FNAME .. ": " .. tostring(err), 2) end
  if not ok then error(points, 0) end
  return points, info
end

return M
