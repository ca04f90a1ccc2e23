-- wayfinder in LÖVE: a house world with people running errands through
-- doors (portal trees, a locked door, a door that sticks and fails), an
-- RTS map whose squads path to where you click through a shared request
-- queue, and a few hundred RTS units (wayfinder.units) ordered by clicks,
-- drawn with their paths, squares and the vertex pathfinder's edges.
-- Driven by the module's public API only (wayfinder.world, wayfinder.bt,
-- wayfinder.grid, wayfinder.queue, wayfinder.units).
--
--   make versions && love examples/love      (from the repository root)
--
-- Keys: Tab next scene, Space pause, P paths on/off; on the two RTS maps
-- 1-4 pick a squad, a left click sends it there, a right click drops a
-- rotated obstruction square; in the units scene S squares on/off and E
-- the vertex pathfinder's edges on/off (round the unit nearest the mouse).
--
-- Scripted run (make love-check): WAYFINDER_LOVE_SCRIPT=<dir> plays a fixed
-- list of keys and clicks, saves screenshots into <dir>, prints the ticks,
-- the colours and what the units scene drew, and quits; any Lua error
-- quits with status 1.

-- ------------------------------------------------------------ module --
-- The module's Lua files and its compiled core: from the repository when
-- run from it, or from beside the game (docs/engines.md, shipping).
local source = love.filesystem.getSource()
local root = source .. "/../../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. root .. "examples/?.lua;"
  .. package.path
package.cpath = (os.getenv("WAYFINDER_LOVE_CPATH") or (root .. "build/luajit/?.so")) .. ";"
  .. love.filesystem.getSourceBaseDirectory() .. "/?.so;" .. package.cpath

local wayfinder = require("wayfinder")
local bt = wayfinder.bt

local SCRIPT = os.getenv("WAYFINDER_LOVE_SCRIPT")

-- a small generator of our own, the same on every run (no love.math seed games)
local seed = 12345
local function rand(n)
  seed = (seed * 1664525 + 1013904223) % 4294967296
  return 1 + math.floor(seed / 4294967296 * n)
end

local scenes   -- filled below, once every scene is defined
local current = 1
local paused = false
-- what the scenes draw, toggled by keys: paths (P), squares and the vertex
-- pathfinder's edges (S, E: the units scene)
local flags = { paths = true, squares = true, edges = true }
local ticks = 0

-- ------------------------------------------------------------- house --
local house = {}

local ROOM_COLOURS = { { 0.93, 0.87, 0.75 }, { 0.82, 0.88, 0.93 }, { 0.88, 0.82, 0.93 },
  { 0.84, 0.93, 0.82 }, { 0.93, 0.82, 0.84 } }
local PERSON_COLOURS = { { 0.85, 0.2, 0.2 }, { 0.2, 0.45, 0.85 }, { 0.15, 0.6, 0.25 },
  { 0.75, 0.45, 0.1 }, { 0.55, 0.2, 0.7 }, { 0.1, 0.6, 0.65 } }

function house.load()
  house.events = {}
  house.failed_at = {}   -- door id -> tick of the last failure there
  local function note(ctx, what)
    local d = ctx:stack_object()
    local line = ("tick %d: %s %s door %s"):format(ctx.world:now(), ctx.person.label, what,
      d and d.label or "?")
    table.insert(house.events, 1, line)
    if #house.events > 14 then house.events[15] = nil end
    if d and what ~= "crossed" then house.failed_at[d.id] = ctx.world:now() end
    return true
  end
  -- the house of examples/house.lua (examples/house_world.lua)
  local built = require("house_world").build(wayfinder, note)
  local w = built.world
  house.w = w
  house.door = built.door
  house.things = built.things
  house.locked = { [house.door.B.id] = true }
  house.sticky = { [house.door.D.id] = true }

  w:add_tree("visit", bt.sequence {
    bt.goto_relative { side = "front", distance = 0.25, facing = "toward", max_tries = 8 },
    bt.wait(6),
  })
  -- errands for ever: when the list is done, a new one is drawn
  w:add_tree("errands", bt.loop(bt.sequence {
    bt.condition(function(ctx)
      if ctx.data.next > #ctx.data.errands then
        ctx.data.errands = { house.things[rand(#house.things)].id,
          house.things[rand(#house.things)].id }
        ctx.data.next = 1
      end
      return true
    end),
    bt.succeed(bt.subtree("visit", function(ctx)
      local id = ctx.data.errands[ctx.data.next]
      ctx.data.next = ctx.data.next + 1
      return id
    end)),
  }))
  local starts = { { 3.5, 0.5 }, { 8.5, 1.5 }, { 15.5, 1.5 }, { 10.5, 4.5 }, { 2.5, 5.5 },
    { 15.5, 5.5 } }   -- off the things: one started on the tub and never got out
  house.people = {}
  for k, s in ipairs(starts) do
    local p = w:add_person { x = s[1], y = s[2], label = tostring(k), speed = 0.25,
      data = { errands = { house.things[rand(#house.things)].id }, next = 1 } }
    p:push("errands")
    house.people[k] = p
  end
end

local TILE = 40
local OX, OY = 24, 64

function house.update()
  house.w:tick()
end

function house.draw()
  local w = house.w
  local lg = love.graphics
  if not house.rooms then   -- the rooms do not change: asked once
    house.rooms = {}
    for y = 0, 5 do
      for x = 0, 19 do house.rooms[y * 20 + x] = w:room_at(x + 0.5, y + 0.5) or 1 end
    end
  end
  for y = 0, 5 do
    for x = 0, 19 do
      local r = house.rooms[y * 20 + x]
      local c = ROOM_COLOURS[(r - 1) % #ROOM_COLOURS + 1]
      lg.setColor(c)
      lg.rectangle("fill", OX + x * TILE, OY + y * TILE, TILE, TILE)
    end
  end
  lg.setColor(0.2, 0.2, 0.2)
  lg.setLineWidth(4)
  for _, r in ipairs(w:walls()) do
    lg.line(OX + r[1] * TILE, OY + r[2] * TILE, OX + r[3] * TILE, OY + r[4] * TILE)
  end
  lg.setLineWidth(1)
  for _, o in ipairs(w:objects()) do
    local x, y = o:position()
    if o.type == "door" then
      local failed = house.failed_at[o.id] and w:now() - house.failed_at[o.id] < 40
      if house.locked[o.id] then lg.setColor(0.8, 0.1, 0.1)
      elseif failed then lg.setColor(1, 0.55, 0)
      else lg.setColor(0.55, 0.35, 0.15) end
      lg.circle("fill", OX + x * TILE, OY + y * TILE, 9)
      lg.setColor(0, 0, 0)
      lg.print(o.label or "", OX + x * TILE - 4, OY + y * TILE - 7)
    elseif o.type ~= "person" then
      lg.setColor(0.35, 0.3, 0.25)
      lg.rectangle("fill", OX + x * TILE - 12, OY + y * TILE - 12, 24, 24)
      lg.setColor(1, 1, 1)
      lg.print(o.type:sub(1, 1), OX + x * TILE - 4, OY + y * TILE - 7)
    end
  end
  for k, p in ipairs(house.people) do
    local c = PERSON_COLOURS[(k - 1) % #PERSON_COLOURS + 1]
    local x, y = p:position()
    if flags.paths then
      local pts = { OX + x * TILE, OY + y * TILE }
      for _, q in ipairs(p:route()) do
        pts[#pts + 1] = OX + q[1] * TILE
        pts[#pts + 1] = OY + q[2] * TILE
      end
      if #pts >= 4 then
        lg.setColor(c[1], c[2], c[3], 0.6)
        lg.setLineWidth(2)
        lg.line(pts)
        lg.setLineWidth(1)
      end
    end
    lg.setColor(c)
    lg.circle("fill", OX + x * TILE, OY + y * TILE, 10)
    lg.setColor(1, 1, 1)
    lg.print(p.label, OX + x * TILE - 4, OY + y * TILE - 7)
  end
  lg.setColor(0.92, 0.92, 0.92)
  lg.print("House world: doors A-F (B locked, red; D sticks: its portal tree fails, orange "
    .. "while failed). Tick " .. w:now(), OX, 16)
  lg.print("Portal trees and failures:", OX, OY + 6 * TILE + 16)
  for i, e in ipairs(house.events) do
    lg.print(e, OX + ((i - 1) >= 7 and 420 or 0), OY + 6 * TILE + 16 + (((i - 1) % 7) + 1) * 16)
  end
end

-- --------------------------------------------------------------- rts --
local rts = {}
local W, H = 96, 56
local CELL = 10
local RX, RY = 32, 60
local SQUADS = 4
local UNITS = 240

function rts.load()
  local g = wayfinder.grid.new(W, H)
  rts.grid = g
  -- walls with gaps and rotated obstruction squares
  for y = 0, H - 1 do
    if y % 14 ~= 7 then g:set_passable(30, y, false) end
    if (y + 7) % 14 ~= 7 then g:set_passable(64, y, false) end
  end
  rts.squares = {}
  for _ = 1, 18 do
    local id = g:add_obstruction { x = 4 + rand(W - 8), y = 4 + rand(H - 8),
      half_width = 1 + rand(4), half_height = 0.5 + rand(2), angle = rand(314) / 100 }
    rts.squares[#rts.squares + 1] = id
  end
  rts.queue = wayfinder.queue.new(g, { max_fields = 8 })
  rts.units = {}
  for i = 1, UNITS do
    local x, y
    repeat x, y = rand(W) - 1, rand(H) - 1 until g:is_passable(x, y)
    rts.units[i] = { x = x + 0.5, y = y + 0.5, squad = (i - 1) % SQUADS + 1 }
  end
  rts.squad = 1
  rts.goals = {}
end

function rts.order(gx, gy)
  local squad = rts.squad
  rts.goals[squad] = { gx, gy }
  for _, u in ipairs(rts.units) do
    if u.squad == squad then
      if u.handle then u.handle:cancel() end
      u.handle = rts.queue:submit { sx = u.x, sy = u.y, gx = gx, gy = gy, shared = true }
      u.path, u.at = nil, nil
    end
  end
end

function rts.block(x, y)
  local id = rts.grid:add_obstruction { x = x, y = y, half_width = 2, half_height = 1,
    angle = rand(314) / 100 }
  rts.squares[#rts.squares + 1] = id
end

function rts.update()
  rts.queue:run(4000)   -- this frame's share of pathfinding
  for _, u in ipairs(rts.units) do
    if u.handle and u.handle:status() ~= "pending" then
      local path = u.handle:result()
      u.handle = nil
      if path then u.path, u.at = path, 2 end
    end
    if u.path and u.path[u.at] then
      local p = u.path[u.at]
      local tx, ty = p[1] + 0.5, p[2] + 0.5
      local dx, dy = tx - u.x, ty - u.y
      local d = math.sqrt(dx * dx + dy * dy)
      if d <= 0.2 then
        u.x, u.y, u.at = tx, ty, u.at + 1
      else
        u.x, u.y = u.x + dx / d * 0.2, u.y + dy / d * 0.2
      end
    end
  end
end

function rts.draw()
  local lg = love.graphics
  local g = rts.grid
  lg.setColor(0.16, 0.2, 0.16)
  lg.rectangle("fill", RX, RY, W * CELL, H * CELL)
  lg.setColor(0.45, 0.42, 0.38)
  for y = 0, H - 1 do
    for x = 0, W - 1 do
      if not g:is_passable(x, y) then lg.rectangle("fill", RX + x * CELL, RY + y * CELL, CELL, CELL) end
    end
  end
  -- the obstruction squares as stored
  lg.setColor(0.9, 0.8, 0.3)
  for _, id in ipairs(g:obstructions()) do
    local s = g:obstruction(id)
    local ux, uy = s.u[1], s.u[2]
    local pts = {}
    for _, c in ipairs({ { 1, 1 }, { -1, 1 }, { -1, -1 }, { 1, -1 } }) do
      local ax, ay = c[1] * s.half_width, c[2] * s.half_height
      pts[#pts + 1] = RX + (s.x + ax * ux - ay * uy) * CELL
      pts[#pts + 1] = RY + (s.y + ax * uy + ay * ux) * CELL
    end
    lg.polygon("line", pts)
  end
  local colours = { { 1, 0.3, 0.3 }, { 0.3, 0.6, 1 }, { 0.4, 1, 0.4 }, { 1, 0.8, 0.2 } }
  for _, u in ipairs(rts.units) do
    local c = colours[u.squad]
    if flags.paths and u.path and u.path[u.at] and u.squad == rts.squad then
      local pts = { RX + u.x * CELL, RY + u.y * CELL }
      for k = u.at, #u.path do
        pts[#pts + 1] = RX + (u.path[k][1] + 0.5) * CELL
        pts[#pts + 1] = RY + (u.path[k][2] + 0.5) * CELL
      end
      if #pts >= 4 then
        lg.setColor(c[1], c[2], c[3], 0.25)
        lg.line(pts)
      end
    end
    lg.setColor(c)
    lg.circle("fill", RX + u.x * CELL, RY + u.y * CELL, 3)
  end
  for s, goal in pairs(rts.goals) do
    lg.setColor(colours[s])
    lg.circle("line", RX + goal[1] * CELL, RY + goal[2] * CELL, 8)
  end
  lg.setColor(1, 1, 1)
  lg.print(("RTS map: %d units, squad %d selected (1-4). Left click: move there; right click: "
    .. "drop an obstruction. Pending requests: %d"):format(#rts.units, rts.squad,
    rts.queue:pending()), RX, 20)
end

function rts.mousepressed(x, y, button)
  local gx, gy = (x - RX) / CELL, (y - RY) / CELL
  if gx < 0 or gy < 0 or gx >= W or gy >= H then return end
  if button == 1 then rts.order(gx, gy) else rts.block(gx, gy) end
end

function rts.keypressed(key)
  local n = tonumber(key)
  if n and n >= 1 and n <= SQUADS then rts.squad = n end
end

-- ------------------------------------------------------------- units --
-- wayfinder.units: a few hundred units ordered by clicks, with their
-- paths, squares and the vertex pathfinder's edges (units_scene.lua).
local units_scene = require("units_scene").new(wayfinder, rand, flags)

-- -------------------------------------------------------------- love --
scenes = { house, rts, units_scene }

local UX, UY, UCELL = units_scene.X0, units_scene.Y0, units_scene.CELL
local script = {
  -- frame, action
  { 60, "shot", "house.png" },
  { 61, "key", "tab" },
  { 62, "click", RX + 80 * CELL, RY + 10 * CELL, 1 },
  { 63, "key", "2" },
  { 64, "click", RX + 10 * CELL, RY + 45 * CELL, 1 },
  { 65, "key", "3" },
  { 66, "click", RX + 50 * CELL, RY + 30 * CELL, 1 },
  { 67, "click", RX + 40 * CELL, RY + 20 * CELL, 2 },
  { 68, "key", "4" },
  { 69, "click", RX + 85 * CELL, RY + 50 * CELL, 1 },
  { 70, "key", "1" },
  { 150, "shot", "rts.png" },
  -- the units scene: four squads sent across each other through the gaps
  { 151, "key", "tab" },
  { 152, "click", UX + 50 * UCELL, UY + 27 * UCELL, 1 },
  { 153, "key", "2" },
  { 154, "click", UX + 80 * UCELL, UY + 46 * UCELL, 1 },
  { 155, "key", "3" },
  { 156, "click", UX + 20 * UCELL, UY + 40 * UCELL, 1 },
  { 157, "key", "4" },
  { 158, "click", UX + 46 * UCELL, UY + 22 * UCELL, 1 },
  { 159, "click", UX + 56 * UCELL, UY + 30 * UCELL, 2 },
  { 160, "key", "1" },
  { 161, "mouse", UX + 33 * UCELL, UY + 27 * UCELL },
  { 200, "key", "e" },   -- the toggles: off and on again
  { 201, "key", "s" },
  { 202, "key", "p" },
  { 204, "key", "e" },
  { 205, "key", "s" },
  { 206, "key", "p" },
  { 300, "shot", "units.png" },
  { 302, "quit" },
}
local frame = 0

if SCRIPT then
  function love.errorhandler(msg)
    io.stdout:write("LUA ERROR: ", tostring(msg), "\n", debug.traceback(), "\n")
    io.stdout:flush()
    os.exit(1)
  end
end

function love.load()
  for _, s in ipairs(scenes) do s.load() end
end

function love.update()
  if not paused then
    scenes[current].update()
    ticks = ticks + 1
  end
end

local function distinct_colours(data)
  local seen, n = {}, 0
  local w, h = data:getDimensions()
  for y = 0, h - 1, 7 do
    for x = 0, w - 1, 7 do
      local r, g, b = data:getPixel(x, y)
      local key = math.floor(r * 31) * 1024 + math.floor(g * 31) * 32 + math.floor(b * 31)
      if not seen[key] then seen[key], n = true, n + 1 end
    end
  end
  return n
end

local function run_script()
  frame = frame + 1
  for _, step in ipairs(script) do
    if step[1] == frame then
      if step[2] == "key" then love.keypressed(step[3])
      elseif step[2] == "click" then love.mousepressed(step[3], step[4], step[5])
      elseif step[2] == "mouse" then units_scene.mouse = { step[3], step[4] }
      elseif step[2] == "shot" then
        local name = step[3]
        love.graphics.captureScreenshot(function(data)
          local file = data:encode("png")
          local f = assert(io.open(SCRIPT .. "/" .. name, "wb"))
          f:write(file:getString())
          f:close()
          print(("screenshot %s: %dx%d, %d colours, scene %d, ticks %d"):format(name,
            data:getWidth(), data:getHeight(), distinct_colours(data), current, ticks))
        end)
      elseif step[2] == "quit" then
        print(("ticks %d, house world tick %d, units moving %d"):format(ticks, house.w:now(),
          (function()
            local n = 0
            for _, u in ipairs(rts.units) do if u.path then n = n + 1 end end
            return n
          end)()))
        print(units_scene.summary() .. (", %d fps"):format(love.timer.getFPS()))
        io.stdout:flush()
        love.event.quit(0)
      end
    end
  end
end

function love.draw()
  love.graphics.clear(0.12, 0.12, 0.14)
  love.graphics.setLineJoin("none")   -- a path that doubles back draws no join spike
  scenes[current].draw()
  love.graphics.setColor(0.8, 0.8, 0.8)
  love.graphics.print(("Tab: scene %d/%d   Space: pause   P: paths   %d fps"):format(current,
    #scenes, love.timer.getFPS()), 24, love.graphics.getHeight() - 24)
  if SCRIPT then run_script() end
end

function love.keypressed(key)
  if key == "tab" then current = current % #scenes + 1
  elseif key == "space" then paused = not paused
  elseif key == "p" then flags.paths = not flags.paths
  elseif key == "s" then flags.squares = not flags.squares
  elseif key == "e" then flags.edges = not flags.edges
  elseif key == "escape" then love.event.quit()
  elseif scenes[current].keypressed then scenes[current].keypressed(key) end
end

function love.mousepressed(x, y, button)
  if scenes[current].mousepressed then scenes[current].mousepressed(x, y, button) end
end
