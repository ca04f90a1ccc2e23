--- A fixed batch of mixed grid work whose every result is folded into a
-- 64-bit FNV-1a hash. Two builds or two runs that agree bit for bit give
-- the same hash. Used by spec/determinism_spec.lua and spec/support/trace.lua.
local M = {}

local FNV_OFFSET <const> = 0xcbf29ce484222325
local FNV_PRIME <const> = 0x100000001b3

local function fold(h, s)
  for i = 1, #s do h = (h ~ s:byte(i)) * FNV_PRIME end
  return h
end

local CLASSES = {
  { name = "small", clearance = 0 },
  { name = "medium", clearance = 1 },
  { name = "large", clearance = 2 },
}

--- Builds the batch's two grids (one with uniform costs, one with terrain
-- costs) from a fixed seed. Returns them and the hash of their passability.
function M.build(wayfinder)
  math.randomseed(0x5eed)
  local w, h = 96, 80
  local grids = {}
  for n = 1, 2 do
    local g = wayfinder.grid.new(w, h, { classes = CLASSES, border = 1,
      border_shape = n == 1 and "square" or "circle" })
    g:batch(function()
      for y = 0, h - 1 do
        for x = 0, w - 1 do
          local r = math.random()
          if r < 0.025 then
            g:set_passable(x, y, false)
          elseif r < 0.035 then
            g:set_passable(x, y, false, CLASSES[math.random(3)].name)
          end
        end
      end
    end)
    local ids = {}
    for k = 1, 14 do
      ids[k] = g:add_obstruction({
        x = math.random() * w, y = math.random() * h,
        half_width = math.random() * 4, half_height = math.random() * 1.5,
        angle = math.random() * 2 * math.pi,
      })
    end
    for k = 1, 14, 3 do g:remove_obstruction(ids[k]) end
    if n == 2 then
      for _ = 1, 900 do
        g:set_cost(math.random(0, w - 1), math.random(0, h - 1), math.random(1, 20))
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
  math.randomseed(0xbeef)
  hash = hash or FNV_OFFSET
  local found = 0
  for q = 1, 400 do
    local g = grids[q % 2 + 1]
    local w, h = g:width(), g:height()
    local opts = { class = CLASSES[math.random(3)].name, smooth = math.random() < 0.3 }
    if g:uniform_cost() then
      opts.algorithm = ({ "astar", "jps", "auto" })[math.random(3)]
    end
    local r = math.random()
    if r < 0.25 then
      opts.goal = { shape = "circle", radius = math.random() * 6 }
    elseif r < 0.45 then
      opts.goal = { shape = "square", half_width = math.random() * 4,
        half_height = math.random() * 4,
        angle = math.random() * 6.3 }
    end
    -- most starts on passable ground, so most queries search
    local sx, sy
    for _ = 1, 8 do
      sx, sy = math.random() * w, math.random() * h
      if g:is_passable(math.floor(sx), math.floor(sy), opts.class) then break end
    end
    local gx, gy = math.random() * w, math.random() * h
    local path, len, info = g:find_path(sx, sy, gx, gy, opts)
    local parts = { tostring(q), info.algorithm, ("%d"):format(info.expanded) }
    if path then
      found = found + 1
      parts[#parts + 1] = ("%d|%.17g|%.17g"):format(info.cost_units, len, info.cost)
      for _, p in ipairs(path) do parts[#parts + 1] = ("%d,%d"):format(p[1], p[2]) end
    else
      parts[#parts + 1] = len
    end
    hash = fold(hash, table.concat(parts, ";") .. "\n")
  end
  return ("%016x"):format(hash), found
end

--- Builds and runs the batch once.
function M.trace(wayfinder)
  local grids, hash = M.build(wayfinder)
  local digest, found = M.run(grids, hash)
  for _, g in ipairs(grids) do g:close() end
  return digest, found
end

return M
