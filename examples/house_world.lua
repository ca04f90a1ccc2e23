--- The house of examples/house.lua and of the LÖVE example's house scene
-- (examples/love/main.lua), built once here: five rooms, six doors A-F
-- and five things, drawn as an ASCII layout for wayfinder.world.from_ascii.
-- Door B (hall | bedroom) is locked; door D (hall | living room) sticks:
-- its portal tree walks up, finds it jammed and reports it through the
-- failure protocol, so whoever tries it goes to the next best door. Every
-- other door runs the standard portal tree, and each door tells the
-- caller who crossed it or gave up there.
--
--   local house = require("house_world").build(wayfinder, note)
--
-- note(ctx, what) is called with what = "crossed", "gave up at" or "found
-- jammed" (ctx:stack_object() is the door) and must return true. Returns
-- {world =, door = {A =, ...}, things = {fridge, wardrobe, bed, sofa,
-- tub}, thing = {fridge =, ...}}.
local M = {}

M.LAYOUT = [[
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
|. . . . . .|. . . . . . .|. . . . . . .|
+ + + + + + + + + + + + + + + + + + + + +
|. f . . . .A. . . . . . .B. . . . w b .|
+ + + + + + + + + + + + + + + + + + + + +
|. . . . . .|. . . . . . .|. . . . . . .|
+-+C+-+-+-+-+-+-+D+-+-+-+-+-+-+-+-+-+F+-+
|. . . . . . . . . . . . .|. . . . . . .|
+ + + + + + + + + + + + + + + + + + + + +
|. . s . . . . . . . . . .E. . . . t . .|
+ + + + + + + + + + + + + + + + + + + + +
|. . . . . . . . . . . . .|. . . . . . .|
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
]]

--- The rooms in room id order.
M.ROOMS = { "kitchen", "hall", "bedroom", "living room", "bathroom" }

--- The doors: the rooms each joins.
M.DOORS = {
  A = "kitchen | hall", B = "hall | bedroom (locked)", C = "kitchen | living room",
  D = "hall | living room (sticks)", E = "living room | bathroom", F = "bedroom | bathroom",
}

local LEGEND = {
  A = { type = "door" }, B = { type = "door" }, C = { type = "door" },
  D = { type = "door" }, E = { type = "door" }, F = { type = "door" },
  f = { type = "fridge", facing = "south" }, w = { type = "wardrobe", facing = "south" },
  b = { type = "bed", facing = "south" }, s = { type = "sofa", facing = "north" },
  t = { type = "tub", facing = "west" },
}

function M.build(wayfinder, note)
  local bt = wayfinder.bt
  local w, made = wayfinder.world.from_ascii(M.LAYOUT, { legend = LEGEND, order = "ABCDEFfwbst" })
  local house = { world = w, door = {}, things = {}, thing = {} }
  for _, ch in ipairs({ "A", "B", "C", "D", "E", "F" }) do house.door[ch] = made[ch][1] end
  for _, ch in ipairs({ "f", "w", "b", "s", "t" }) do
    local o = made[ch][1]
    house.things[#house.things + 1] = o
    house.thing[o.type] = o
  end
  -- the locked door: the door scores leave it out
  w:set_locked(house.door.B.id, true)
  -- every door tells who crossed it or failed at it, around the standard tree
  w:add_tree("logged_door", bt.selector {
    bt.sequence {
      bt.subtree("wayfinder.door"),
      bt.action(function(ctx) return note(ctx, "crossed") end),
    },
    bt.fail(bt.action(function(ctx) return note(ctx, "gave up at") end)),
  })
  -- the door that sticks: walk up, find it jammed, report it
  w:add_tree("sticky_door", bt.selector {
    bt.sequence {
      bt.goto_relative { side = "portal", max_tries = 8 },
      bt.condition(function() return false end, "jammed"),
    },
    bt.sequence {
      bt.action(function(ctx) return note(ctx, "found jammed") end),
      bt.fail_portal(),
    },
  })
  for _, d in ipairs(w:doors()) do w:set_portal_tree(d.id, "logged_door") end
  w:set_portal_tree(house.door.D.id, "sticky_door")
  return house
end

return M
