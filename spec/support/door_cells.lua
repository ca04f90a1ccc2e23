--- The navcells of a room nearest a one-navcell door in its right wall,
-- in one fixed order: the door scenes of the crowd specs
-- (spec/support/avoid_run.lua), the crowd comparison (bench/peers/crowd.lua)
-- and the unit player's crowd scene (tools/unit-player/record.lua) pack
-- their crowds by it.
local M = {}

-- The n navcells {x, y} with x0 <= x <= door_x - 2 and y0 <= y <= y1
-- nearest the navcell before the door (door_x - 1, door_y), by squared
-- distance, then x, then y.
function M.nearest(n, door_x, door_y, x0, y0, y1)
  local cells = {}
  for x = x0, door_x - 2 do
    for y = y0, y1 do
      cells[#cells + 1] = { x, y, (door_x - 1 - x) ^ 2 + (door_y - y) ^ 2 }
    end
  end
  table.sort(cells, function(p, q)
    if p[3] ~= q[3] then return p[3] < q[3] end
    if p[1] ~= q[1] then return p[1] < q[1] end
    return p[2] < q[2]
  end)
  local out = {}
  for i = 1, n do out[i] = { cells[i][1], cells[i][2] } end
  return out
end

return M
