--- A fixed batch of mixed grid work whose every result is folded into a
-- 32-bit FNV-1a hash (exact on every Lua version, spec/support/prng.lua). Two builds or two runs that agree bit for bit give
-- the same hash. Used by spec/determinism_spec.lua and spec/support/trace.lua.
local prng = require("support.prng")
local rand = prng.new(1)  -- each run below reseeds it
local M = {}

local FNV_OFFSET = prng.FNV_OFFSET
local fold = prng.fnv32

local CLASSES = {
  { name = "small", clearance = 0 },
  { name = "medium", clearance = 1 },
  { name = "large", clearance = 2 },
}

--- Builds the batch's two grids (one with uniform costs, one with terrain
-- costs) from a fixed seed. Returns them and the hash of their passability.
function M.build(wayfinder)
  rand = prng.new(0x5eed)
  local w, h = 96, 80
  local grids = {}
  for n = 1, 2 do
    local g = wayfinder.grid.new(w, h, { classes = CLASSES, border = 1,
      border_shape = n == 1 and "square" or "circle" })
    g:batch(function()
      for y = 0, h - 1 do
        for x = 0, w - 1 do
          local r = rand.float()
          if r < 0.025 then
            g:set_passable(x, y, false)
          elseif r < 0.035 then
            g:set_passable(x, y, false, CLASSES[rand.int(3)].name)
          end
        end
      end
    end)
    local ids = {}
    for k = 1, 14 do
      ids[k] = g:add_obstruction({
        x = rand.float() * w, y = rand.float() * h,
        half_width = rand.float() * 4, half_height = rand.float() * 1.5,
        angle = rand.float() * 2 * math.pi,
      })
    end
    for k = 1, 14, 3 do g:remove_obstruction(ids[k]) end
    if n == 2 then
      for _ = 1, 900 do
        g:set_cost(rand.int(0, w - 1), rand.int(0, h - 1), rand.int(1, 20))
      end
    end
    grids[n] = g
  end
  local hash = FNV_OFFSET
  for _, g in ipairs(grids) do
    for _, c in ipairs(CLASSES) do hash = fold(hash, g:to_ascii(c.name)) end
  end
  return grids, hash
end

--- Runs the fixed queries on grids from M.build, hashing waypoints, costs,
-- lengths, expansions, algorithms and reasons. Returns the hash as 16 hex
-- digits and the number of paths found.
function M.run(grids, hash)
  rand = prng.new(0xbeef)
  hash = hash or FNV_OFFSET
  local found = 0
  for q = 1, 400 do
    local g = grids[q % 2 + 1]
    local w, h = g:width(), g:height()
    local opts = { class = CLASSES[rand.int(3)].name, smooth = rand.float() < 0.3 }
    if g:uniform_cost() then
      opts.algorithm = ({ "astar", "jps", "auto" })[rand.int(3)]
    end
    local r = rand.float()
    if r < 0.25 then
      opts.goal = { shape = "circle", radius = rand.float() * 6 }
    elseif r < 0.45 then
      opts.goal = { shape = "square", half_width = rand.float() * 4,
        half_height = rand.float() * 4,
        angle = rand.float() * 6.3 }
    end
    -- most starts on passable ground, so most queries search
    local sx, sy
    for _ = 1, 8 do
      sx, sy = rand.float() * w, rand.float() * h
      if g:is_passable(math.floor(sx), math.floor(sy), opts.class) then break end
    end
    local gx, gy = rand.float() * w, rand.float() * h
    local path, len, info = g:find_path(sx, sy, gx, gy, opts)
    local parts = { tostring(q), info.algorithm, ("%d"):format(info.expanded) }
    if path then
      found = found + 1
      parts[#parts + 1] = ("%d|%s|%s"):format(info.cost_units, prng.exact(len),
        prng.exact(info.cost))
      for _, p in ipairs(path) do parts[#parts + 1] = ("%d,%d"):format(p[1], p[2]) end
    else
      parts[#parts + 1] = len
    end
    hash = fold(hash, table.concat(parts, ";") .. "\n")
  end
  return prng.hex(hash), found
end

--- Builds and runs the batch once.
function M.trace(wayfinder)
  local grids, hash = M.build(wayfinder)
  local digest, found = M.run(grids, hash)
  for _, g in ipairs(grids) do g:close() end
  return digest, found
end

return M
