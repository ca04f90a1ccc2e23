-- The RTS units scene of the LÖVE example: a few hundred units of
-- wayfinder.units in four squads on a map with walls, gaps and rotated
-- obstruction squares, ordered by mouse clicks. It draws what the
-- simulation holds, read through the public API only: each unit's square
-- (units:info radius), its path (units:info waypoints, from the one it
-- walks to), and the edges the vertex pathfinder sees round the unit
-- nearest the mouse and round units waiting behind others
-- (units:vertex_edges), with that unit's vertex path towards its squad's
-- goal (units:short_path).
--
-- Keys (main.lua passes them on): 1-4 pick a squad, P paths, S squares,
-- E vertex pathfinder edges. Left click: the squad goes there; right
-- click: an obstruction square drops there (units under it escape).
local M = {}

local W, H = 96, 54          -- navcells
local CELL = 10              -- pixels per navcell
local X0, Y0 = 32, 64        -- where the map is drawn
local SQUADS = 4
local PER_SQUAD = 80         -- 320 units in all
local RADIUS = 0.35
local COLOURS = { { 1, 0.35, 0.3 }, { 0.35, 0.65, 1 }, { 0.45, 1, 0.45 }, { 1, 0.82, 0.25 } }
local STARTS = { { 12, 12 }, { 12, 42 }, { 84, 12 }, { 84, 42 } }
local FOCUS_RANGE = 5        -- the vertex pathfinder's box round the focus unit

-- wayfinder: the module; rand(n): the example's generator, 1..n;
-- flags: the shared toggles (flags.paths, flags.squares, flags.edges).
function M.new(wayfinder, rand, flags)
  local s = { name = "units", X0 = X0, Y0 = Y0, CELL = CELL }
  local U = wayfinder.units

  local function px(x) return X0 + x * CELL end
  local function py(y) return Y0 + y * CELL end

  function s.load()
    local g = wayfinder.grid.new(W, H)
    s.grid = g
    -- two walls across the map, each with three gaps, and a few blocks
    for y = 0, H - 1 do
      local gap1 = (y >= 8 and y <= 10) or (y >= 26 and y <= 28) or (y >= 44 and y <= 45)
      local gap2 = (y >= 16 and y <= 17) or (y >= 33 and y <= 36) or y >= 50
      if not gap1 then g:set_passable(32, y, false) end
      if not gap2 then g:set_passable(64, y, false) end
    end
    for _, b in ipairs({ { 44, 6, 8, 3 }, { 44, 44, 10, 3 }, { 74, 24, 3, 8 }, { 18, 25, 5, 4 } }) do
      for y = b[2], b[2] + b[4] - 1 do
        for x = b[1], b[1] + b[3] - 1 do g:set_passable(x, y, false) end
      end
    end
    for _ = 1, 8 do
      g:add_obstruction { x = 36 + rand(24), y = 14 + rand(26), half_width = 0.5 + rand(3),
        half_height = 0.5 + rand(2) / 2, angle = rand(314) / 100 }
    end
    -- a detour looks 2 navcells round: past the units in the way, not round
    -- the whole crowd (a box of 4 costs ten times as much in a dense squad)
    s.units = U.new(g, { capacity = 1024, budget = 40000, short_range = 2 })
    s.squad_of, s.ids = {}, {}
    for k = 1, SQUADS do
      s.ids[k] = {}
      local cx, cy = STARTS[k][1], STARTS[k][2]
      local n, ring = 0, 0
      -- a lattice round the start, one navcell apart, until the squad is full
      while n < PER_SQUAD and ring < 20 do
        for dy = -ring, ring do
          for dx = -ring, ring do
            if n < PER_SQUAD and (math.abs(dx) == ring or math.abs(dy) == ring) then
              local id = s.units:add { x = cx + 1.5 * dx + 0.5, y = cy + 1.5 * dy + 0.5, radius = RADIUS,
                speed = 0.18 + rand(8) / 100 }
              if id then
                n = n + 1
                s.ids[k][n] = id
                s.squad_of[id] = k
              end
            end
          end
        end
        ring = ring + 1
      end
    end
    s.squad = 1
    s.goals = {}
    s.stats = { orders = 0, arrived = 0, failed = 0, blocked = 0, paths = 0, edges = 0,
      vertex_paths = 0, ms = 0, ticks = 0, ms_total = 0, ms_max = 0 }
    s.cells = nil
  end

  -- The squad goes to a circle round (gx, gy) big enough to hold it.
  function s.order(gx, gy)
    local ids = s.ids[s.squad]
    local r = 1.5 * math.sqrt(#ids / math.pi) + 1
    s.goals[s.squad] = { gx, gy, r }
    for _, id in ipairs(ids) do
      s.units:move(id, gx, gy, { goal = { shape = "circle", radius = r } })
    end
    s.stats.orders = s.stats.orders + 1
  end

  function s.block(x, y)
    s.grid:add_obstruction { x = x, y = y, half_width = 2, half_height = 1,
      angle = rand(314) / 100 }
    s.cells = nil   -- passability changed: draw the navcells again
  end

  function s.update()
    local t0 = love.timer.getTime()
    local events = s.units:tick()
    s.stats.ms = (love.timer.getTime() - t0) * 1000
    s.stats.ticks = s.stats.ticks + 1
    s.stats.ms_total = s.stats.ms_total + s.stats.ms
    if s.stats.ms > s.stats.ms_max then s.stats.ms_max = s.stats.ms end
    for _, e in ipairs(events) do
      if e.event == "arrived" then s.stats.arrived = s.stats.arrived + 1
      elseif e.event == "failed" then s.stats.failed = s.stats.failed + 1
      else s.stats.blocked = s.stats.blocked + 1 end
    end
  end

  function s.mousepressed(x, y, button)
    local gx, gy = (x - X0) / CELL, (y - Y0) / CELL
    if gx < 0 or gy < 0 or gx >= W or gy >= H then return end
    if button == 1 then s.order(gx, gy) else s.block(gx, gy) end
  end

  function s.keypressed(key)
    local n = tonumber(key)
    if n and n >= 1 and n <= SQUADS then s.squad = n end
  end

  -- The unit nearest the mouse when it is over the map (s.mouse, set by the
  -- scripted run, stands in for it); else the selected squad's first unit.
  local function focus_unit(list)
    local mx, my
    if s.mouse then mx, my = s.mouse[1], s.mouse[2] else mx, my = love.mouse.getPosition() end
    local gx, gy = (mx - X0) / CELL, (my - Y0) / CELL
    if gx < 0 or gy < 0 or gx >= W or gy >= H then return s.ids[s.squad][1] end
    local best, bd
    for _, info in ipairs(list) do
      local d = (info.x - gx) ^ 2 + (info.y - gy) ^ 2
      if not bd or d < bd then best, bd = info.id, d end
    end
    return best
  end

  -- Appends point p (world units) to a line's pixel list unless it repeats
  -- the last one: a segment of length 0 draws as a spike in LÖVE.
  local function add_point(pts, p)
    local x, y = px(p[1]), py(p[2])
    if not pts[1] or math.abs(pts[#pts - 1] - x) + math.abs(pts[#pts] - y) >= 0.5 then
      pts[#pts + 1] = x
      pts[#pts + 1] = y
    end
  end

  -- range nil: the box a detour of the unit uses (short_range)
  local function draw_edges(lg, id, alpha, range)
    local edges = s.units:vertex_edges(id, range)
    lg.setColor(1, 0.3, 1, alpha)
    for _, e in ipairs(edges) do lg.line(px(e[1]), py(e[2]), px(e[3]), py(e[4])) end
    s.stats.edges = s.stats.edges + #edges
    return #edges
  end

  function s.draw()
    local lg = love.graphics
    local g, units = s.grid, s.units
    lg.setColor(0.15, 0.19, 0.15)
    lg.rectangle("fill", X0, Y0, W * CELL, H * CELL)
    if not s.cells then   -- the blocked navcells, asked again only after a change
      s.cells = {}
      for y = 0, H - 1 do
        for x = 0, W - 1 do
          if not g:is_passable(x, y) then s.cells[#s.cells + 1] = { x, y } end
        end
      end
    end
    lg.setColor(0.45, 0.42, 0.38)
    for _, c in ipairs(s.cells) do lg.rectangle("fill", px(c[1]), py(c[2]), CELL, CELL) end
    lg.setColor(0.9, 0.8, 0.3)
    for _, oid in ipairs(g:obstructions()) do
      local o = g:obstruction(oid)
      local pts = {}
      for _, c in ipairs({ { 1, 1 }, { -1, 1 }, { -1, -1 }, { 1, -1 } }) do
        local ax, ay = c[1] * o.half_width, c[2] * o.half_height
        pts[#pts + 1] = px(o.x + ax * o.u[1] - ay * o.u[2])
        pts[#pts + 1] = py(o.y + ax * o.u[2] + ay * o.u[1])
      end
      lg.polygon("line", pts)
    end

    local infos, list, waiting = {}, {}, {}
    for k, id in ipairs(units:ids()) do
      local info = units:info(id)
      infos[id], list[k] = info, info
      if info.state == "waiting" then waiting[#waiting + 1] = id end
    end
    s.moving, s.waiting = 0, #waiting
    -- paths: from the unit through the waypoints still ahead of it
    for _, info in ipairs(list) do
      local id = info.id
      if info.state == "moving" or info.state == "waiting" or info.state == "escaping" then
        s.moving = s.moving + 1
      end
      local way = info.waypoints
      if flags.paths and info.state ~= "idle" and way[info.next] then
        local c = COLOURS[s.squad_of[id]]
        local pts = { px(info.x), py(info.y) }
        for k = info.next, #way do add_point(pts, way[k]) end
        lg.setColor(c[1], c[2], c[3], s.squad_of[id] == s.squad and 0.5 or 0.18)
        if #pts >= 4 then
          lg.line(pts)
          s.stats.paths = s.stats.paths + 1
        end
      end
    end
    -- the units: their squares, or dots
    for _, info in ipairs(list) do
      local c = COLOURS[s.squad_of[info.id]]
      local r = info.radius
      if flags.squares then
        lg.setColor(c[1], c[2], c[3], 0.45)
        lg.rectangle("fill", px(info.x - r), py(info.y - r), 2 * r * CELL, 2 * r * CELL)
        if info.state == "waiting" then lg.setColor(1, 1, 1) else lg.setColor(c) end
        lg.rectangle("line", px(info.x - r), py(info.y - r), 2 * r * CELL, 2 * r * CELL)
      else
        lg.setColor(c)
        lg.circle("fill", px(info.x), py(info.y), r * CELL)
      end
    end
    -- the vertex pathfinder: what it sees round the focus unit (and round a
    -- few units waiting behind others), its box, and its path from there
    local focus = focus_unit(list)
    s.focus = focus
    if flags.edges and focus then
      for k = 1, math.min(#waiting, 6) do
        if waiting[k] ~= focus then draw_edges(lg, waiting[k], 0.35) end
      end
      draw_edges(lg, focus, 0.9, FOCUS_RANGE)
      local f = infos[focus]
      local range = FOCUS_RANGE
      lg.setColor(1, 0.3, 1, 0.5)
      lg.rectangle("line", px(f.x - range), py(f.y - range), 2 * range * CELL,
        2 * range * CELL)
      local goal = s.goals[s.squad_of[focus]]
      if goal then
        local path = units:short_path(focus, goal[1], goal[2],
          { goal = { shape = "circle", radius = goal[3] }, range = FOCUS_RANGE })
        if path then
          local pts = {}
          for _, p in ipairs(path) do add_point(pts, p) end
          if #pts >= 4 then
            lg.setColor(1, 1, 1, 0.9)
            lg.setLineWidth(2)
            lg.line(pts)
            lg.setLineWidth(1)
            s.stats.vertex_paths = s.stats.vertex_paths + 1
          end
        end
      end
      lg.setColor(1, 1, 1)
      lg.circle("line", px(f.x), py(f.y), 8)
    end
    for k = 1, SQUADS do
      local goal = s.goals[k]
      if goal then
        lg.setColor(COLOURS[k])
        lg.circle("line", px(goal[1]), py(goal[2]), goal[3] * CELL)
      end
    end

    local function on(v) return v and "on" or "off" end
    lg.setColor(1, 1, 1)
    lg.print(("RTS units (wayfinder.units): %d units in 4 squads, squad %d selected (keys 1-4). "
      .. "Left click: the squad goes there; right click: drop an obstruction."):format(
      units:count(), s.squad), X0, 14)
    lg.print(("P paths %s   S squares %s   E vertex pathfinder edges %s (round the ringed unit "
      .. "nearest the mouse, box of 5, and units waiting)"):format(on(flags.paths), on(flags.squares),
      on(flags.edges)), X0, 34)
    lg.print(("tick %.1f ms: %d moving, %d waiting, %d arrived"):format(s.stats.ms, s.moving,
      s.waiting, s.stats.arrived), X0 + 600, love.graphics.getHeight() - 24)
  end

  -- One line for the scripted run's log (tools/love-check.sh reads it).
  function s.summary()
    return ("units scene: %d units, %d orders, %d moving, %d waiting, %d arrived, "
      .. "%d paths drawn, %d vertex edges drawn, %d vertex paths drawn, "
      .. "%d ticks of %.2f ms on average, %.2f ms at most"):format(
      s.units:count(), s.stats.orders, s.moving or 0, s.waiting or 0, s.stats.arrived,
      s.stats.paths, s.stats.edges, s.stats.vertex_paths, s.stats.ticks,
      s.stats.ms_total / math.max(1, s.stats.ticks), s.stats.ms_max)
  end

  return s
end

return M
