-- Writes the sample route files in spec/data/routes/ (run from the
-- repository root after `make build`):  lua5.4 tools/route-tester/make-samples.lua
-- The specs check that planning each file again gives the points it holds.
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = (os.getenv("WAYFINDER_CPATH") or "build/?.so") .. ";" .. package.cpath
local rectplan = require("wayfinder.rectplan")

-- A 16 x 12 living room (room 1) with a closet (room 2) in the top right
-- corner, a door in the top wall, a thin wall partly splitting the room,
-- furniture, a person and a rug.
local function living_room()
  local W, H = 18, 14
  local ids = {}
  for y = 0, H - 1 do
    for x = 0, W - 1 do
      local border = x == 0 or y == 0 or x == W - 1 or y == H - 1
      local closet = x >= 13 and y <= 3 and not border
      ids[y * W + x + 1] = border and 0 or closet and 2 or 1
    end
  end
  return {
    width = W, height = H, rooms = ids,
    doors = { [0 * W + 5 + 1] = true },
    walls = { { 9, 6, 9, 13 }, { 9, 6, 11, 6 } },
    objects = {
      { id = "sofa", x0 = 2, y0 = 9, x1 = 6, y1 = 10.5, room = 1 },
      { id = "table", x0 = 3, y0 = 4, x1 = 6.5, y1 = 6, room = 1 },
      { id = "vase", x0 = 4, y0 = 4.5, x1 = 4.5, y1 = 5, room = 1, contained = true },
      { id = "chair", x0 = 7, y0 = 4.25, x1 = 7.75, y1 = 5.25, room = 1 },
      { id = "rug", x0 = 2, y0 = 7, x1 = 7, y1 = 8.5, room = 1, walk_over = true },
      { id = "shelf", x0 = 11.5, y0 = 7, x1 = 16, y1 = 7.75, room = 1 },
      { id = "plant", x0 = 12, y0 = 10, x1 = 12.75, y1 = 10.75, room = 1 },
      { id = "bob", x0 = 14, y0 = 9, x1 = 14.5, y1 = 9.5, room = 1, person = true },
      { id = "coat", x0 = 14, y0 = 2, x1 = 15, y1 = 3, room = 2 },
      { id = "me", x0 = 1.75, y0 = 2.25, x1 = 2.25, y1 = 2.75, room = 1, person = true },
    },
  }
end

local function save(name, room, query)
  local p = rectplan.planner(room, query)
  p:run()
  local path = "spec/data/routes/" .. name
  assert(p:save_route(path))
  local pts, info = p:result()
  print(("%s: %s, %d points, %d rectangles, %d steps"):format(path,
    pts and ("length %.4f"):format(info.length) or "failed", pts and #pts or 0,
    (pts and info or select(3, p:result())).nodes, p:state().step))
end

save("sample.route.json", living_room(), {
  start = { 2, 2.5 }, goal = { 15.5, 11.5 }, width = 0.5, start_object = "me",
})
save("near.route.json", living_room(), {
  start = { 2, 2.5 }, goal = { 5.5, 9.75 }, width = 0.5, start_object = "me",
  mode = "near", near = 1.5, dest_object = "sofa", ignore_people_within = 3,
  terrain = { { x0 = 1, y0 = 6.5, x1 = 8, y1 = 8.75, penalty = 0.5 } },
  tuning = { max_node_size = 4, step = 0.25 },
})
