-- A small town as a navigation graph: a road for cars, pavements and a
-- park for people, a lava pit for nobody, a tower whose roof is reached by
-- elevator, a ladder up to a ledge, a one-way drop from the roof, a
-- teleport pad, one-way car lanes drawn as innate waypaths, and a jump a
-- player made. Run it from the repository root:
--   lua5.4 examples/town.lua            prints routes, writes build/town.svg
-- The specs load it with loadfile("examples/town.lua")("module").
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local wayfinder = require("wayfinder")

local M = {}

-- Upper floors are drawn beside the ground floor (x >= 50): the graph is
-- flat, and links say how the levels join.
function M.build()
  local g = wayfinder.graph.new {
    surfaces = { "pavement", "road", "grass", "floor", "lava" },
    classes = {
      { name = "person", surfaces = { pavement = 1, grass = 2, floor = 1, road = 4 } },
      { name = "car", surfaces = { road = 1 } },
    },
    abilities = { "climb", "jump" },
    temporary_links = 4,
  }
  local s = {}
  s.north = g:add_sector { x0 = 0, y0 = 10, x1 = 40, y1 = 12, surface = "pavement",
    name = "north pavement" }
  s.road = g:add_sector { x0 = 0, y0 = 12, x1 = 40, y1 = 16, surface = "road", name = "road" }
  s.south = g:add_sector { x0 = 0, y0 = 16, x1 = 40, y1 = 18, surface = "pavement",
    name = "south pavement" }
  s.plaza = g:add_sector { x0 = 0, y0 = 0, x1 = 20, y1 = 10, surface = "grass", name = "plaza" }
  s.tower = g:add_sector { x0 = 20, y0 = 0, x1 = 30, y1 = 10, surface = "floor", name = "tower" }
  s.lava = g:add_sector { x0 = 30, y0 = 0, x1 = 40, y1 = 10, surface = "lava", name = "lava pit" }
  s.park = g:add_sector { x0 = 0, y0 = 18, x1 = 40, y1 = 30, surface = "grass", name = "park" }
  s.roof = g:add_sector { x0 = 50, y0 = 0, x1 = 60, y1 = 10, surface = "floor", name = "roof" }
  s.ledge = g:add_sector { x0 = 50, y0 = 20, x1 = 60, y1 = 30, surface = "floor", name = "ledge" }
  local p = {}
  p.crossing = g:add_portal { a = s.north, b = s.road, span = { 18, 12, 22, 12 } }
  p.crossing2 = g:add_portal { a = s.road, b = s.south, span = { 18, 16, 22, 16 } }
  p.road_w = g:add_portal { a = s.north, b = s.road, span = { 0, 12, 2, 12 }, classes = { "car" } }
  g:add_portal { a = s.plaza, b = s.north }
  g:add_portal { a = s.tower, b = s.north, span = { 24, 10, 26, 10 }, action = "open_tower_door" }
  g:add_portal { a = s.lava, b = s.north }
  g:add_portal { a = s.plaza, b = s.tower }
  g:add_portal { a = s.south, b = s.park }
  p.elevator = g:add_link { kind = "elevator", from = { 28, 2 }, to = { 52, 2 }, cost = 2,
    wait = 6, action = "ride_elevator" }
  p.ladder = g:add_link { kind = "ladder", from = { 38, 28 }, to = { 52, 28 }, cost = 8,
    needs = { "climb" },
    action = "climb_ladder" }
  p.drop = g:add_link { kind = "drop", from = { 58, 9 }, to = { 38, 19 }, cost = 1 }
  p.pad = g:add_link { kind = "teleport", from = { 58, 28 }, to = { 2, 2 }, cost = 1,
    action = "step_on_pad" }
  p.pad2 = g:add_link { kind = "teleport", from = { 2, 28 }, exit = p.pad }
  local lanes = {}
  lanes.east = g:add_waypath { points = { { 0.5, 14.5 }, { 20, 14.5 }, { 39.5, 14.5 } },
    one_way = true, classes = { "car" } }
  lanes.west = g:add_waypath { points = { { 39.5, 13 }, { 20, 13 }, { 0.5, 13 } },
    one_way = true, classes = { "car" } }
  return g, s, p, lanes
end

local COLOURS <const> = { pavement = "#d8d2c4", road = "#6b6b6b", grass = "#9bd17f",
  floor = "#d9b48f", lava = "#e0502a" }

--- An SVG picture of the graph and some paths (scale: 16 px per navcell).
function M.svg(g, paths)
  local k = 16
  local out = { ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
    .. 'font-family="sans-serif" font-size="11">'):format(62 * k, 32 * k),
    '<rect width="100%" height="100%" fill="#f7f7f2"/>' }
  for i = 1, g:sector_count() do
    local s = g:sector(i)
    out[#out + 1] = ('<rect x="%g" y="%g" width="%g" height="%g" fill="%s" stroke="#444"/>')
      :format(s.x0 * k, s.y0 * k, (s.x1 - s.x0) * k, (s.y1 - s.y0) * k, COLOURS[s.surface])
    out[#out + 1] = ('<text x="%g" y="%g">%s</text>'):format(s.x0 * k + 4, s.y0 * k + 13,
      s.name or s.surface)
  end
  for _, id in ipairs(g:portals()) do
    local p = g:portal(id)
    if p.span then
      out[#out + 1] = ('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#1f6fd1" stroke-width="4"/>')
        :format(p.span[1] * k, p.span[2] * k, p.span[3] * k, p.span[4] * k)
    elseif p.kind ~= "waypath" then
      out[#out + 1] = ('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#7a1fd1" stroke-width="2" '
        .. 'stroke-dasharray="6 4"/>'):format(p.from[1] * k, p.from[2] * k, p.to[1] * k,
        p.to[2] * k)
      out[#out + 1] = ('<text x="%g" y="%g" fill="#7a1fd1">%s</text>'):format(
        (p.from[1] + p.to[1]) / 2 * k, (p.from[2] + p.to[2]) / 2 * k - 4, p.kind)
    else
      out[#out + 1] = ('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#f2d02a" stroke-width="2"/>')
        :format(p.from[1] * k, p.from[2] * k, p.to[1] * k, p.to[2] * k)
    end
  end
  local tints = { "#c0142b", "#0f7b3a", "#1b3fa0", "#a05a00" }
  for i, path in ipairs(paths or {}) do
    local pts = {}
    for _, q in ipairs(path.points) do pts[#pts + 1] = ("%g,%g"):format(q[1] * k, q[2] * k) end
    out[#out + 1] = ('<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5"/>')
      :format(table.concat(pts, " "), tints[(i - 1) % #tints + 1])
  end
  out[#out + 1] = "</svg>"
  return table.concat(out, "\n") .. "\n"
end

local function describe_route(name, r, reason)
  if not r then
    print(("%-28s no route: %s"):format(name, reason))
    return
  end
  local kinds = {}
  for _, c in ipairs(r.corridor) do
    if c.kind ~= "walk" or c.action then kinds[#kinds + 1] = c.action or c.kind end
  end
  print(("%-28s cost %.2f, %d points, via %s"):format(name, r.cost, #r.points,
    #kinds > 0 and table.concat(kinds, ", ") or "walking"))
end

function M.main()
  local g = M.build()
  local routes = {}
  local function route(name, sx, sy, gx, gy, opts)
    local r, reason = g:find_path(sx, sy, gx, gy, opts)
    describe_route(name, r, reason)
    if r then routes[#routes + 1] = r end
  end
  route("person: plaza to roof", 5, 5, 55, 5, { class = "person" })
  route("person: roof to park", 55, 5, 30, 25, { class = "person" })
  route("person: park to ledge", 30, 25, 55, 25, { class = "person", abilities = { "climb" } })
  route("car: west to east", 1, 14, 39, 14, { class = "car" })
  route("car: to the plaza", 1, 14, 5, 5, { class = "car" })
  -- the player jumps from the roof onto the north pavement; agents follow
  g:add_temporary_link { kind = "jump", from = { 51, 9 }, to = { 36, 11 },
    data = { heading = 200, speed = 9 } }
  route("person who jumps: roof out", 55, 5, 36, 11, { class = "person", abilities = { "jump" } })
  os.execute("mkdir -p build")
  local f = assert(io.open("build/town.svg", "w"))
  f:write(M.svg(g, routes))
  f:close()
  print("wrote build/town.svg")
end

if ... ~= "module" then M.main() end
return M
