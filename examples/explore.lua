--- explore.lua: an explorer mapping an unknown level, drawn in ASCII.
--
--   lua5.4 examples/explore.lua [range]
--
-- The explorer (@) starts knowing only the navcell it stands on. It sees
-- what the grid's line of sight shows within `range` navcells (default 5),
-- walks to the nearest seen navcell that still has an unseen neighbour,
-- and plans only over what it has seen. The level is drawn every few steps:
-- seen floor '.', walls next to seen floor '#', the unknown blank, the
-- explorer's trail 'o'. At the end its route table is compared, entry for
-- entry, with one built at once over the whole level. Then a house: a
-- person explores the rooms with bt.explore.

local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local root = here .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")

local LEVEL = [[
..........#..........#......
.########.#.########.#.####.
.#......#.#.#......#.#....#.
.#.####.#...#.####.#.####.#.
.#.#..#.#####.#..#.#....#.#.
...#..#.......#..#...##.#...
####..#########..#####..####
..........................#.
.#######.###########.####.#.
.........#..................]]

local range = tonumber(arg and arg[1]) or 5
local grid = wayfinder.grid.from_ascii(LEVEL)
local W, H = grid:width(), grid:height()
local agent = wayfinder.explore.from_grid(grid, 0, 0, { range = range })

local trail = {}

local function draw(title)
  print(title)
  local rows = {}
  for y = 0, H - 1 do
    local row = {}
    for x = 0, W - 1 do
      local v = agent:node_at(x, y)
      local c = " "
      if v and agent:known(v) then
        c = trail[v] and "o" or "."
        if v == agent:position() then c = "@" end
      elseif not v then
        -- a wall is drawn once a seen navcell touches it
        for dy = -1, 1 do
          for dx = -1, 1 do
            local nx, ny = x + dx, y + dy
            if nx >= 0 and ny >= 0 and nx < W and ny < H then
              local u = agent:node_at(nx, ny)
              if u and agent:known(u) then c = "#" end
            end
          end
        end
      end
      row[#row + 1] = c
    end
    rows[#rows + 1] = "|" .. table.concat(row) .. "|"
  end
  print("+" .. string.rep("-", W) .. "+")
  print(table.concat(rows, "\n"))
  print("+" .. string.rep("-", W) .. "+")
end

draw(string.format("start: %d of %d navcells seen", agent:known_count(), agent:node_count()))
local steps = 0
while true do
  trail[agent:position()] = true
  local node, why = agent:step()
  if not node then
    print("stopped: " .. why)
    break
  end
  steps = steps + 1
  if steps % 25 == 0 then
    draw(string.format("step %d: %d of %d navcells seen", steps, agent:known_count(), agent:node_count()))
  end
end
draw(string.format("done after %d steps: %d of %d navcells seen", steps, agent:known_count(),
  agent:node_count()))

local full = wayfinder.pathtable.new(agent:graph())
-- the navcells it saw are its connected piece of the level (closed boxes
-- and the far corner cannot be reached); between them, every entry of its
-- table is the whole level's
local t, seen, differ = agent:table(), agent:known_nodes(), 0
for _, a in ipairs(seen) do
  for _, b in ipairs(seen) do
    if t:next_hop(a, b) ~= full:next_hop(a, b) or t:distance(a, b) ~= full:distance(a, b) then
      differ = differ + 1
    end
  end
end
local st = agent:stats()
print(string.format("route table: %d of %d entries between seen navcells differ from the whole level's",
  differ, #seen * #seen))
print(string.format("growing it searched %d rows again (a build at once searches %d, over the whole graph)",
  st.rows_searched, agent:node_count()))

-- A house: the person knows only the room it starts in and what it sees
-- through that room's doors.
local bt = wayfinder.bt
local w = wayfinder.world.from_ascii([[
+-+-+-+-+-+-+-+-+-+-+
|. . . .|. . . . . .|
+ + + + + + +-+A+-+-+
|. . . .A. .|. . . .|
+-+-+B+-+-+-+-+C+-+-+
|. . . .|. . . . . .|
+ + + + + + + + + + +
|. . . .D. . . . . .|
+-+-+-+-+-+-+-+-+-+-+
]], { legend = { A = { type = "door" }, B = { type = "door" }, C = { type = "door" },
  D = { type = "door" } } })
w:add_tree("explore", bt.explore())
local p = w:add_person { x = 0.5, y = 0.5 }
p:push("explore")
local last = ""
for tick = 1, 600 do
  w:tick()
  local parts = table.concat(p.data.known_parts or {}, " ")
  if parts ~= last then
    print(string.format("tick %3d: parts seen %s", tick, parts))
    last = parts
  end
  if p:state().last_result then break end
end
print("house: " .. tostring(p:state().last_result) .. ", doors crossed " .. p:state().stats.portals)
print(w:draw())
