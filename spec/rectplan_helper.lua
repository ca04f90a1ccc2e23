-- spec/rectplan_helper.lua: tools shared by the rectangle planner specs
-- (spec/rectplan_*_spec.lua). Geometry here is exact: coordinates are turned
-- into Q16.16 integers and compared with integer arithmetic.
local H = {}

local ONE <const> = 65536

--- A room from rows of characters: '.' room 1, '#' room 0, 'D' a door
-- tile of room 0, a digit that room id. Row 1 is y = 0.
function H.room(rows, extra)
  local W, Ht = #rows[1], #rows
  local ids, doors = {}, {}
  for y, row in ipairs(rows) do
    assert(#row == W, "rows must have the same length")
    for x = 1, W do
      local c, i = row:sub(x, x), (y - 1) * W + x
      if c == "." then
        ids[i] = 1
      elseif c == "#" then
        ids[i] = 0
      elseif c == "D" then
        ids[i], doors[i] = 0, true
      else
        ids[i] = assert(math.tointeger(tonumber(c)), "unknown tile " .. c)
      end
    end
  end
  local r = { width = W, height = Ht, rooms = ids, doors = doors }
  for k, v in pairs(extra or {}) do r[k] = v end
  return r
end

--- An open n x n room (room 1) inside a one-tile border (room 0).
--- A deep copy of plain data (a room description that nothing prepared).
function H.copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, e in pairs(v) do t[k] = H.copy(e) end
  return t
end

function H.box_room(w, h, extra)
  local rows = {}
  for y = 0, h + 1 do
    local row = {}
    for x = 0, w + 1 do
      row[#row + 1] = (x == 0 or y == 0 or x == w + 1 or y == h + 1) and "#" or "."
    end
    rows[#rows + 1] = table.concat(row)
  end
  return H.room(rows, extra)
end

--- Areas as plain comparable lists: {x0, y0, x1, y1, kind, id, penalty}.
function H.plain(list)
  local out = {}
  for i, a in ipairs(list) do
    out[i] = { a[1], a[2], a[3], a[4], a.kind, a.id, a.penalty }
  end
  return out
end

--- A number given by the planner (always k / 65536) as its Q16.16 integer.
function H.fix(v)
  local f = math.tointeger(v * ONE)
  assert(f, "not a Q16.16 value: " .. tostring(v))
  return f
end

function H.fix_rect(r)
  return { H.fix(r[1]), H.fix(r[2]), H.fix(r[3]), H.fix(r[4]) }
end

--- floor(sqrt(n)) for a non-negative integer, exact.
H.isqrt = require("support.brute").isqrt

function H.len_floor(ax, ay, bx, by)
  return H.isqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay))
end

function H.len_ceil(ax, ay, bx, by)
  local d2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay)
  local r = H.isqrt(d2)
  return r * r < d2 and r + 1 or r
end

--- Sum of per-leg floor lengths of a list of {x, y} points, Q16.16.
function H.poly_len(pts)
  local t = 0
  for i = 2, #pts do
    local a, b = pts[i - 1], pts[i]
    local ax, ay, bx, by = H.fix(a[1]), H.fix(a[2]), H.fix(b[1]), H.fix(b[2])
    t = t + H.isqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay))
  end
  return t
end

--- Does the closed segment a-b (integers) meet the open rectangle r?
function H.segment_hits(r, ax, ay, bx, by)
  local n0, d0, n1, d1 = 0, 1, 1, 1          -- t in [n0/d0, n1/d1]
  local function clip(p, dp, lo, hi)
    if dp == 0 then return lo < p and p < hi end
    local en, ex, d = lo - p, hi - p, dp
    if d < 0 then en, ex, d = p - hi, p - lo, -d end
    if en * d0 > n0 * d then n0, d0 = en, d end
    if ex * d1 < n1 * d then n1, d1 = ex, d end
    return true
  end
  if not clip(ax, bx - ax, r[1], r[3]) then return false end
  if not clip(ay, by - ay, r[2], r[4]) then return false end
  return n0 * d1 < n1 * d0
end

--- The impassable inflated areas of positive size, as Q16.16 rectangles.
function H.blockers(inflated)
  local out = {}
  for _, a in ipairs(inflated) do
    if a.penalty == nil and a[3] > a[1] and a[4] > a[2] then
      out[#out + 1] = H.fix_rect(a)
    end
  end
  return out
end

--- First obstacle a polyline of {x, y} points crosses, or nil.
function H.crossing(blockers, pts)
  for i = 2, #pts do
    local ax, ay = H.fix(pts[i - 1][1]), H.fix(pts[i - 1][2])
    local bx, by = H.fix(pts[i][1]), H.fix(pts[i][2])
    for _, r in ipairs(blockers) do
      if H.segment_hits(r, ax, ay, bx, by) then return i, r end
    end
  end
  return nil
end

--- The shared edge of two Q16.16 rectangles, {x0, y0, x1, y1}, or nil.
function H.contact(m, n)
  for axis = 0, 1 do
    local lo, hi = axis == 0 and 1 or 2, axis == 0 and 3 or 4
    local plo, phi = axis == 0 and 2 or 1, axis == 0 and 4 or 3
    local c
    if m[hi] == n[lo] then c = m[hi] elseif m[lo] == n[hi] then c = m[lo] end
    if c then
      local a, b = math.max(m[plo], n[plo]), math.min(m[phi], n[phi])
      if a < b then
        local seg = {}
        seg[lo], seg[hi], seg[plo], seg[phi] = c, c, a, b
        return seg
      end
    end
  end
  return nil
end

local function holds(r, x, y)
  return r[1] <= x and x <= r[3] and r[2] <= y and y <= r[4]
end
H.holds = holds

--- Dijkstra over the search graph of a finished planner's state, rebuilt
-- from its rectangles: the start joins the first node's points, the goal
-- joins every point on a node holding it, two points on one node are
-- joined at ceil(length) * factor / 256 (rounded up). Point mode only.
-- Returns the cost in the planner's units.
function H.cover_cost(state, gx, gy)
  local nodes, factor = {}, {}
  for i, n in ipairs(state.nodes) do
    nodes[i] = H.fix_rect(n)
    factor[i] = 256 + math.tointeger((n.penalty or 0) * 256)
  end
  local on = {}                  -- node -> vertices lying on it
  for i = 1, #nodes do on[i] = {} end
  local pos = {}
  for v, vert in ipairs(state.vertices) do
    pos[v] = { H.fix(vert[1]), H.fix(vert[2]) }
    if vert.kind == "edge" or vert.kind == "end" then
      for _, k in ipairs(vert.nodes) do table.insert(on[k], v) end
    end
  end
  table.insert(on[1], 1)
  pos[2] = { gx, gy }
  for k = 1, #nodes do
    if holds(nodes[k], gx, gy) then table.insert(on[k], 2) end
  end
  local member = {}              -- vertex -> its nodes
  for k, list in ipairs(on) do
    for _, v in ipairs(list) do
      member[v] = member[v] or {}
      table.insert(member[v], k)
    end
  end
  local dist, done = { [1] = 0 }, {}
  while true do
    local u, best = nil, math.huge
    for v, d in pairs(dist) do
      if not done[v] and (d < best or (d == best and v < u)) then u, best = v, d end
    end
    if not u then return nil end
    if u == 2 then return best end
    done[u] = true
    for _, k in ipairs(member[u] or {}) do
      for _, v in ipairs(on[k]) do
        if v ~= u and not done[v] then
          local len = H.len_ceil(pos[u][1], pos[u][2], pos[v][1], pos[v][2])
          local c = (len * factor[k] + 255) // 256
          if dist[v] == nil or best + c < dist[v] then dist[v] = best + c end
        end
      end
    end
  end
end

--- A random furnished room of n x n tiles (room 1) in a border of room 0,
-- with stray thin walls, a closet of room 2 and objects; deterministic for
-- a seed. Returns the room and a function giving random start/goal points.
function H.random_room(seed, n, nobj)
  math.randomseed(seed)
  local room = H.box_room(n, n)
  local W = room.width
  if n >= 8 and math.random() < 0.5 then
    for y = 1, 2 do for x = n - 1, n do room.rooms[y * W + x + 1] = 2 end end
  end
  room.walls = {}
  for _ = 1, math.random(0, 2) do
    local x, y = math.random(2, n - 1), math.random(2, n - 1)
    if math.random() < 0.5 then
      room.walls[#room.walls + 1] = { x, y, math.min(n + 1, x + math.random(1, 3)), y }
    else
      room.walls[#room.walls + 1] = { x, y, x, math.min(n + 1, y + math.random(1, 3)) }
    end
  end
  room.objects = {}
  for i = 1, nobj do
    local w, h = math.random(1, 8) / 4, math.random(1, 8) / 4
    local x0 = 1 + math.random(0, (n - 1) * 4) / 4
    local y0 = 1 + math.random(0, (n - 1) * 4) / 4
    room.objects[i] = { id = i, x0 = x0, y0 = y0, x1 = x0 + w, y1 = y0 + h, room = 1 }
  end
  -- a point clear of every object and wall by width/2 (width optional)
  local function point(width)
    local m = (width or 0) / 2
    local x, y
    for _ = 1, 200 do
      x = 1 + m + math.random(0, math.floor((n - 2 * m) * 1024) - 1) / 1024
      y = 1 + m + math.random(0, math.floor((n - 2 * m) * 1024) - 1) / 1024
      local ok = room.rooms[math.floor(y) * W + math.floor(x) + 1] == 1
      for _, o in ipairs(room.objects) do
        if o.x0 - m <= x and x <= o.x1 + m and o.y0 - m <= y and y <= o.y1 + m then
          ok = false
        end
      end
      if ok then return { x, y } end
    end
    return { x, y }
  end
  return room, point
end

return H
