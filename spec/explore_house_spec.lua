-- luacheck: max line length 130
-- The house world's Explore and Goto Known primitives: a person learns the
-- parts of the house it has seen (ctx.data.known_parts), never crosses a
-- door into a part it had not seen when it chose the door, and Goto Known
-- takes only routes over seen parts.
local wayfinder = require("wayfinder")
local bt = wayfinder.bt

local HOUSE = [[
+-+-+-+-+-+-+-+-+
|. . . .|. . . .|
+ + + + + + + + +
|. . . .A. . . .|
+-+-+B+-+-+-+C+-+
|. . . .|. . . .|
+ + + + + + + + +
|. . . .D. . t .|
+-+-+-+-+-+-+-+-+
]]

local function house()
  return wayfinder.world.from_ascii(HOUSE, { legend = { A = { type = "door" }, B = { type = "door" },
    C = { type = "door" }, D = { type = "door" }, t = { type = "table" } } })
end

local function part_of(w, p)
  local x, y = p:position()
  return w:part_at(x, y)
end

-- Ticks until the person's frames are done; checks after every tick that
-- the person stands in a part it had seen before the tick.
local function run(w, p, ticks)
  local seen = {}
  for _, v in ipairs(p.data.known_parts or {}) do seen[v] = true end
  local here = part_of(w, p)
  for _ = 1, ticks do
    w:tick()
    local now = part_of(w, p)
    if now and now ~= here then
      assert(seen[now], "walked into part " .. now .. " before seeing it")
      here = now
    end
    seen = {}
    for _, v in ipairs(p.data.known_parts or {}) do seen[v] = true end
    if p:state().last_result and #p:state().frames == 0 then break end
  end
  return p:state().last_result
end

describe("bt.explore", function()
  it("sees every part it can reach and then succeeds", function()
    local w = house()
    w:add_tree("explore", bt.explore())
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("explore")
    assert.equals("success", run(w, p, 400))
    local parts = {}
    for _, d in ipairs(w:doors()) do
      if d.part_a then parts[d.part_a] = true end
      if d.part_b then parts[d.part_b] = true end
    end
    local all = {}
    for v in pairs(parts) do all[#all + 1] = v end
    table.sort(all)
    assert.same(all, p.data.known_parts)
    assert.is_true(p:state().stats.portals >= 1)
  end)

  it("behind a locked door, explores the rest and stops", function()
    local w = house()
    w:doors()[3].locked = true
    w:add_tree("explore", bt.explore())
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("explore")
    assert.equals("success", run(w, p, 400))
    assert.is_true(#p.data.known_parts >= 3)
  end)

  it("rejects bad options", function()
    assert.has_error(function() bt.explore { max_tries = 0 } end,
      "wayfinder.bt.explore: max_tries must be an integer in [1, 1000], got 0")
    assert.has_error(function() bt.explore { speed = 1 } end, "wayfinder.bt.explore: unknown options key 'speed'")
    assert.has_error(function() bt.goto_known { side = "up" } end)
  end)
end)

describe("bt.goto_known", function()
  it("fails with unknown for a goal in a part never seen, and gets there once explored", function()
    local w = house()
    local tbl
    for _, o in ipairs(w:objects()) do
      if o.type == "table" then tbl = o end
    end
    w:add_tree("explore", bt.explore())
    w:add_tree("go", bt.goto_known { side = "near", distance = 0.25 })
    -- top left: the top right and bottom left rooms are seen through
    -- doors A and B; the table's room is not
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("go", tbl.id)
    assert.equals("failure", run(w, p, 50))
    assert.equals("unknown", p:state().reason)
    assert.equals(3, #p.data.known_parts)
    p:push("explore")
    assert.equals("success", run(w, p, 600))
    assert.equals(4, #p.data.known_parts)
    p:push("go", tbl.id)
    assert.equals("success", run(w, p, 600))
    local x, y = p:position()
    assert.is_true(x > 4 and y > 2, "ends at the table")
  end)

  it("saves what a person has seen with the world", function()
    local w = house()
    w:add_tree("explore", bt.explore())
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("explore")
    run(w, p, 600)
    local saved = w:save()
    local w2 = wayfinder.world.load(saved, { explore = bt.explore() })
    local p2
    for _, o in ipairs(w2:objects()) do
      if o.person then p2 = o end
    end
    assert.same(p.data.known_parts, p2.data.known_parts)
  end)
end)
