--- escort.lua: the company behaviour nodes in a two-room house, in ASCII.
--
--   lua5.4 examples/escort.lua [ticks]
--
-- The boss (B) walks to the far room. The guard (G) escorts it on its
-- left with bt.escort, the dog (D) follows it with bt.follow, the cat (C)
-- flees the dog with bt.flee_from, and two pages (p) hold a column behind
-- the guard with bt.hold_formation for all but the last ten ticks. The
-- house is drawn every ten ticks; at the end, each person's last result.

local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local root = here .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")
local bt = wayfinder.bt

local MAP = [[
+-+-+-+-+-+-+-+-+-+-+-+-+
|. . . . . .|. . . . . .|
+ + + + + + + + + + + + +
|. . . . . .|. . . . . .|
+ + + + + + + + + + + + +
|. . . . . .A. . . . . .|
+ + + + + + + + + + + + +
|. . . . . .|. . t . . .|
+ + + + + + + + + + + + +
|. . . . . .|. . . . . .|
+-+-+-+-+-+-+-+-+-+-+-+-+
]]

local ticks = tonumber(arg and arg[1]) or 120

local w = wayfinder.world.from_ascii(MAP, { legend = {
  A = { type = "door" }, t = { type = "table" } } })
local boss = w:add_person { x = 1.5, y = 2.5, speed = 0.25 }
local guard = w:add_person { x = 0.5, y = 0.5, speed = 0.5 }
local dog = w:add_person { x = 0.5, y = 4.5, speed = 0.5 }
local cat = w:add_person { x = 3.5, y = 3.5, speed = 0.5 }
local pages = { w:add_person { x = 4.5, y = 0.5, speed = 0.5 },
  w:add_person { x = 5.5, y = 0.5, speed = 0.5 } }
local page_ids = { pages[1].id, pages[2].id }

w:add_tree("escort", bt.escort(boss.id, { distance = 2, side = "left" }))
w:add_tree("follow", bt.follow(boss.id, { distance = 1.5 }))
w:add_tree("flee", bt.flee_from(dog.id, { distance = 3 }))
w:add_tree("pages", bt.hold_formation(guard.id, {
  members = function() return page_ids end, shape = "column",
  ticks = math.max(1, ticks - 10) }))

boss:route_to(10.5, 2.5)
guard:push("escort")
dog:push("follow")
cat:push("flee")
for _, p in ipairs(pages) do p:push("pages") end

local marks = { { boss, "B" }, { guard, "G" }, { dog, "D" }, { cat, "C" },
  { pages[1], "p" }, { pages[2], "p" } }

local function draw(t)
  local rows = {}
  for line in MAP:gmatch("[^\n]+") do rows[#rows + 1] = line end
  for _, m in ipairs(marks) do
    local x, y = m[1]:position()
    local r, c = 2 * math.floor(y) + 2, 2 * math.floor(x) + 2
    rows[r] = rows[r]:sub(1, c - 1) .. m[2] .. rows[r]:sub(c + 1)
  end
  print(("tick %d"):format(t))
  print(table.concat(rows, "\n"))
end

draw(0)
for t = 1, ticks do
  w:tick()
  if t % 10 == 0 then draw(t) end
end
for _, m in ipairs(marks) do
  local s = m[1]:state()
  print(("%s %-8s %s"):format(m[2], tostring(s.last_result or s.frames[#s.frames]),
    tostring(s.reason or "")))
end
