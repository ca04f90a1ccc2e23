--- The house of the reference's worked example of door scoring (11.1.1.2):
-- four rooms, doors A to E added in that order, goal in room 1 and start
-- in room 3. With MAXSCORE 100 the final scores are A 90, B 90, C 81, D 81,
-- E 85, and C wins the tie with D by object order.
--
--   room 1: y < 12 (the goal at (6.5, 1.5))
--   room 2: x < 6, 12 <= y < 20        room 4: x >= 6, 12 <= y < 20,
--   room 3: x < 7, y >= 20 (start)             and x >= 7, y >= 20
--   A (4.5, 12) room 1 | room 2      B (7.5, 12) room 1 | room 4
--   E (6, 16.5) room 2 | room 4      C (3.5, 20) room 2 | room 3
--   D (7, 20.5) room 3 | room 4
local world = require("wayfinder.world")

local M = {}

M.GOAL = { 6.5, 1.5 }
M.START = { 4.5, 23.5 }

function M.build(options)
  local opts = { width = 12, height = 25, max_score = 100 }
  for k, v in pairs(options or {}) do opts[k] = v end
  local w = world.new(opts)
  w:add_wall(0, 12, 12, 12)
  w:add_wall(6, 12, 6, 20)
  w:add_wall(0, 20, 7, 20)
  w:add_wall(7, 20, 7, 25)
  local d = {}
  d.A = w:add_object { type = "door", x = 4, y = 11, w = 1, h = 2, label = "A" }
  d.B = w:add_object { type = "door", x = 7, y = 11, w = 1, h = 2, label = "B" }
  d.C = w:add_object { type = "door", x = 3, y = 19, w = 1, h = 2, label = "C" }
  d.D = w:add_object { type = "door", x = 6, y = 20, w = 2, h = 1, label = "D" }
  d.E = w:add_object { type = "door", x = 5, y = 16, w = 2, h = 1, label = "E" }
  return w, d
end

return M
