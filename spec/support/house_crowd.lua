--- A seeded house with wandering people, shared by the save/load and
-- determinism specs and runnable as a script that prints a trace hash:
--   lua5.4 spec/support/house_crowd.lua [ticks]
local compat = require("wayfinder.compat")
local prng = require("support.prng")
local house = require("support.house_gen")
local bt = require("wayfinder.bt")

local M = {}

-- Each person walks to a furniture piece picked by its own generator
-- (plain data in person.data, so saves carry it), waits, and goes on.
local function pick(ctx)
  local f = ctx.world:objects()
  local things = {}
  for _, o in ipairs(f) do
    if o.type == "furniture" then things[#things + 1] = o.id end
  end
  local s = ctx.data.seed
  -- s * 1103515245 mod 2^31 with the multiplier split (16838 * 2^16 +
  -- 20077): the same numbers, every product exact below 2^53
  s = ((s * 16838) % 32768 * 65536 + s * 20077 + 12345) % 2147483648
  ctx.data.seed = s
  ctx.data.target = things[s % #things + 1]
  return true
end

function M.trees()
  return {
    visit = bt.sequence {
      bt.goto_relative { side = "near", distance = 0.25 },
      bt.wait(2),
    },
    wander = bt.loop(bt.sequence {
      bt.action(pick, { name = "pick" }),
      bt.succeed(bt.subtree("visit", function(ctx) return ctx.data.target end)),
    }),
  }
end

--- A 4x4-room house with `people` wanderers (default 24).
function M.build(people, world_options)
  local wopts = { route_ids = 32, trees = M.trees() }
  for k, v in pairs(world_options or {}) do wopts[k] = v end
  local w, info = house.generate { rooms_x = 4, rooms_y = 4, room_w = 6, room_h = 6,
    seed = 11, furniture = 2, extra_doors = 40, world = wopts }
  local rng = house.rng(5)
  local placed = 0
  while placed < (people or 24) do
    local r = info.rooms[rng(#info.rooms)]
    local x, y = r[1] + rng(6) - 0.5, r[2] + rng(6) - 0.5
    if w.walker:square_free(math.floor(x * 65536), math.floor(y * 65536), 16384, 0) then
      placed = placed + 1
      local p = w:add_person { x = x, y = y, speed = 0.2, data = { seed = placed * 7919 } }
      p:push("wander")
    end
  end
  return w, info
end

--- A hash of every person's position, facing and routing state.
function M.state_hash(w, h)
  h = h or 2166136261
  local function mix(v)
    local s = type(v) == "number" and compat.number_string(v) or tostring(v)
    h = prng.fnv32(h, s .. ",")
  end
  for _, p in ipairs(w:people()) do
    local x, y, f, walking, index = w.walker:person(p.id)
    mix(p.id); mix(x); mix(y); mix(f); mix(walking); mix(index)
    local st = p:state()
    mix(#st.frames); mix(st.route_id); mix(st.route_counter); mix(st.trap_count)
    mix(st.reason); mix(st.stats.routes)
  end
  return h
end

--- Runs `ticks` ticks, hashing the state after each.
function M.trace(w, ticks)
  local h = 2166136261
  for _ = 1, ticks do
    w:tick()
    h = M.state_hash(w, h)
  end
  return h
end

if arg and arg[0] and arg[0]:match("house_crowd%.lua$") then
  local w = M.build()
  print(("%08x"):format(M.trace(w, tonumber(arg[1]) or 200)))
end

return M
