-- A small house: five rooms, six doors, four people running errands to
-- objects in other rooms. The door between the hall and the bedroom is
-- locked, so routes to the bedroom go round; the door from the hall to the
-- living room sticks (its portal tree fails), and the failure protocol
-- sends whoever tries it to the next best door. The house is drawn every
-- few ticks with people (1-4) and their routes (*), then a summary.
--
--   lua5.4 examples/house.lua      (from the repository root, after make build)

local root = (arg and arg[0] or ""):match("^(.-)[^/\\]*$") .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. root .. "examples/?.lua;"
  .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")
local bt = wayfinder.bt

local house_world = require("house_world")   -- the house, shared with examples/love

-- Every door logs who crossed it or failed at it.
local events = {}
local function note(ctx, what)
  local d = ctx:stack_object()
  local why = what == "gave up at" and (" (" .. tostring(ctx.person:last_failure()) .. ")")
    or ""
  events[#events + 1] = ("tick %3d: person %s %s door %s%s"):format(ctx.world:now(),
    ctx.person.label, what, d and d.label or "?", why)
  local log = ctx.data.doors
  log[#log + 1] = (d and d.label or "?") .. (what == "crossed" and "" or "!")
  return true
end
local house = house_world.build(wayfinder, note)
local w, thing, names = house.world, house.thing, house_world.ROOMS

-- An errand list: walk up to each object in turn, stay a moment.
w:add_tree("visit", bt.sequence {
  bt.goto_relative { side = "front", distance = 0.25, facing = "toward", max_tries = 8 },
  bt.wait(4),
})
w:add_tree("errands", bt.loop(bt.sequence {
  bt.condition(function(ctx) return ctx.data.next <= #ctx.data.errands end),
  bt.succeed(bt.subtree("visit", function(ctx)
    local id = ctx.data.errands[ctx.data.next]
    ctx.data.next = ctx.data.next + 1
    return id
  end)),
}))

local people = {}
local plans = {
  { x = 3.5, y = 0.5, errands = { "bed", "fridge" } },       -- kitchen
  { x = 8.5, y = 1.5, errands = { "sofa", "tub" } },         -- hall
  { x = 15.5, y = 1.5, errands = { "fridge", "wardrobe" } }, -- bedroom
  { x = 10.5, y = 4.5, errands = { "wardrobe", "sofa" } },   -- living room
}
for k, plan in ipairs(plans) do
  local ids = {}
  for i, name in ipairs(plan.errands) do ids[i] = thing[name].id end
  -- motion options (docs/world.md, "Motion options"): turn at most 0.8
  -- radians a tick, skip a point already in sight, round corners where a
  -- curve fits (accel and arrive_radius slow people down at the doors, so
  -- that who meets whom there changes; this crowded house does without)
  local p = w:add_person { x = plan.x, y = plan.y, label = tostring(k), speed = 0.3,
    turn_rate = 0.8, corner_radius = 0.5, lookahead = true,
    data = { errands = ids, next = 1, doors = {}, plan = plan.errands } }
  p:push("errands")
  people[k] = p
end

local function busy()
  for _, p in ipairs(people) do
    if p.data.next <= #p.data.errands or #p:frame_stack() > 1 then return true end
  end
  return false
end

for _, d in ipairs({ "A", "B", "C", "D", "E", "F" }) do
  print(("door %s: %s"):format(d, house_world.DOORS[d]))
end
print()
print(("tick %d"):format(w:now()))
io.write(w:draw())
local shown = 0
while busy() and w:now() < 600 do
  w:tick()
  if w:now() % 30 == 0 then
    for k = shown + 1, #events do print(events[k]) end
    shown = #events
    print()
    print(("tick %d"):format(w:now()))
    io.write(w:draw())
  end
end
for k = shown + 1, #events do print(events[k]) end
print()
print(("tick %d: all errands done"):format(w:now()))
io.write(w:draw { routes = false })
print()
print("person  errands              doors (! = failed there)   walks  portal failures  ends in")
for k, p in ipairs(people) do
  local x, y = p:position()
  print(("%-7d %-20s %-26s %5d  %15d  %s (%.2f, %.2f)"):format(k,
    table.concat(p.data.plan, ", "), table.concat(p.data.doors, " "), p:state().stats.routes,
    p:state().stats.portal_failures, names[w:room_at(x, y)] or "?", x, y))
end
