--- The reference runs whose trace hashes are committed in
-- spec/data/reference_traces.lua (spec/reference_traces_spec.lua compares
-- them on every Lua version and build; tools/reference-hash.lua prints
-- them and, with --update, writes them). Every random choice comes from
-- spec/support/prng.lua, so a run is the same on every Lua version.
local prng = require("support.prng")

local M = {}

--- The house world: spec/support/house_crowd.lua's 4x4-room house with 24
-- wanderers, 200 ticks, every person's position, facing and routing state
-- hashed after each tick. Returns the hash as eight hex digits.
function M.house()
  local crowd = require("support.house_crowd")
  local w = crowd.build(24)
  return prng.hex(crowd.trace(w, 200))
end

--- The units: a 40x32 map with 12 % blocked navcells, up to 40 units of two
-- classes, random orders (points, circles, squares, ranges, inverted
-- goals) and stops for 150 ticks; every event and every unit's exact
-- position, state and wait hashed. Returns the hash and the arrivals.
function M.units(wayfinder)
  local units_run = require("support.units_run")
  local rng = prng.new(1801)
  local W, H = 40, 32
  local g = wayfinder.grid.new(W, H, { classes = { { name = "small" },
    { name = "big", clearance = 1 } } })
  for y = 0, H - 1 do
    for x = 0, W - 1 do
      if x == 0 or y == 0 or x == W - 1 or y == H - 1 or rng.float() < 0.12 then
        g:set_passable(x, y, false)
      end
    end
  end
  local u = wayfinder.units.new(g, { max_order_ticks = 120, budget = 500, max_wait = 8 })
  local function coord(n) return rng.int(0, n * 16 - 1) / 16 end
  local ids = {}
  for _ = 1, 2000 do
    if #ids >= 40 then break end
    local id = u:add { x = coord(W), y = coord(H), class = rng.int(10) <= 7 and "small" or "big",
      radius = rng.int(2, 14) / 16, speed = rng.int(4, 32) / 16 }
    if id then ids[#ids + 1] = id end
  end
  local lines, arrived = {}, 0
  for t = 1, 150 do
    for _ = 1, rng.int(0, 3) do
      local id, kind, o = ids[rng.int(#ids)], rng.int(5), nil
      if kind == 2 then o = { goal = { shape = "circle", radius = rng.int(0, 3) } }
      elseif kind == 3 then
        o = { goal = { shape = "square", half_width = rng.int(0, 2), half_height = rng.int(0, 2) } }
      elseif kind == 4 then o = { range = rng.int(1, 4) / 2 }
      elseif kind == 5 then
        o = { goal = { shape = "circle", radius = rng.int(4, 40) / 8 }, inverted = true }
      end
      u:move(id, coord(W), coord(H), o)
    end
    if rng.int(50) == 1 then u:stop(ids[rng.int(#ids)]) end
    for _, e in ipairs(u:tick()) do
      lines[#lines + 1] = ("%d %d %s %s"):format(e.tick, e.id, e.event, e.reason or "")
      if e.event == "arrived" then arrived = arrived + 1 end
    end
    lines[#lines + 1] = units_run.trace_line(t, units_run.snapshot(u))
  end
  u:close()
  g:close()
  return prng.hex(units_run.hash(lines)), arrived
end

return M
