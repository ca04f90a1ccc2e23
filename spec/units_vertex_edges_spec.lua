-- units:vertex_edges: the edges the vertex pathfinder sees round a unit,
-- for drawing. Checked against a brute enumeration from the public API
-- (the blocked navcells' outline and the other units' grown squares in
-- the box), against the count the all-edges baseline of units:short_path
-- reports, and for leaving the simulation as it was.
local wayfinder = require("wayfinder")
local prng = require("support.prng")

local function key(e)
  return ("%.6f %.6f %.6f %.6f"):format(e[1], e[2], e[3], e[4])
end

-- What the docs promise, from grid:is_passable and units:info alone.
local function expected(g, units, id, range)
  local me = units:info(id)
  local w, h = g:width(), g:height()
  local function passable(i, j)
    return i >= 0 and j >= 0 and i < w and j < h and g:is_passable(i, j, me.class)
  end
  local out = {}
  local i0, i1 = math.floor(me.x - range) - 1, math.floor(me.x + range) + 1
  local j0, j1 = math.floor(me.y - range) - 1, math.floor(me.y + range) + 1
  for j = j0, j1 do
    for i = i0, i1 do
      if not passable(i, j) then
        if passable(i, j - 1) then out[#out + 1] = { i, j, i + 1, j } end
        if passable(i, j + 1) then out[#out + 1] = { i, j + 1, i + 1, j + 1 } end
        if passable(i - 1, j) then out[#out + 1] = { i, j, i, j + 1 } end
        if passable(i + 1, j) then out[#out + 1] = { i + 1, j, i + 1, j + 1 } end
      end
    end
  end
  for _, other in ipairs(units:ids()) do
    if other ~= id then
      local o = units:info(other)
      local r = o.radius + me.radius
      if o.x + r >= me.x - range and o.x - r <= me.x + range
        and o.y + r >= me.y - range and o.y - r <= me.y + range then
        out[#out + 1] = { o.x - r, o.y - r, o.x + r, o.y - r }
        out[#out + 1] = { o.x - r, o.y + r, o.x + r, o.y + r }
        out[#out + 1] = { o.x - r, o.y - r, o.x - r, o.y + r }
        out[#out + 1] = { o.x + r, o.y - r, o.x + r, o.y + r }
      end
    end
  end
  return out
end

local function sorted_keys(list)
  local keys = {}
  for k, e in ipairs(list) do keys[k] = key(e) end
  table.sort(keys)
  return keys
end

-- A random map with walls and a crowd of units, all drawn from seed.
local function scene(seed)
  local r = prng.new(seed)
  local w, h = r.int(12, 30), r.int(12, 30)
  local g = wayfinder.grid.new(w, h)
  for _ = 1, r.int(5, 40) do g:set_passable(r.int(0, w - 1), r.int(0, h - 1), false) end
  local units = wayfinder.units.new(g, { short_range = r.int(1, 8) })
  for _ = 1, r.int(2, 30) do
    local radius = r.int(1, 8) / 8
    units:add({ x = r.int(0, 8 * w) / 8, y = r.int(0, 8 * h) / 8, radius = radius,
      speed = 0.5 })
  end
  return g, units, r
end

describe("units:vertex_edges", function()
  it("gives the blocked navcells' outline and the other units' squares in the box", function()
    local checked, nonempty = 0, 0
    for seed = 1, 60 do
      local g, units, r = scene(seed)
      for _, id in ipairs(units:ids()) do
        local range = r.int(1, 64 * 4) / 16
        local edges = units:vertex_edges(id, range)
        local want = expected(g, units, id, range)
        assert.are.same(sorted_keys(want), sorted_keys(edges), "seed " .. seed .. " unit " .. id)
        for _, e in ipairs(edges) do
          assert.is_true(e[1] == e[3] or e[2] == e[4], "an edge is axis-aligned")
        end
        checked = checked + 1
        if #edges > 0 and #want > 0 then nonempty = nonempty + 1 end
      end
      units:close()
    end
    assert.is_true(checked > 100 and nonempty > 50)
  end)

  it("counts what the all-edges baseline of units:short_path gathers", function()
    local compared = 0
    for seed = 101, 140 do
      local g, units, r = scene(seed)
      for _, id in ipairs(units:ids()) do
        local range = r.int(1, 16)
        local _, _, info = units:short_path(id, r.int(0, g:width() - 1) + 0.5,
          r.int(0, g:height() - 1) + 0.5, { brute = true, range = range })
        if type(info) == "table" then
          assert.equal(info.edges, #units:vertex_edges(id, range))
          compared = compared + 1
        end
      end
    end
    assert.is_true(compared > 100, "compared " .. compared)
  end)

  it("defaults to the simulation's short_range (8 when 0) and changes nothing", function()
    local g = wayfinder.grid.from_ascii(("." .. ("."):rep(38) .. "\n"):rep(3)
      .. ("...." .. ("#"):rep(35) .. "\n") .. ("."):rep(39) .. "\n")
    for _, sr in ipairs({ 0, 2, 5 }) do
      local units = wayfinder.units.new(g, { short_range = sr })
      local a = units:add({ x = 20.5, y = 1.5, radius = 0.5, speed = 0.5 })
      units:add({ x = 23.5, y = 1.5, radius = 0.5, speed = 0.5 })
      units:move(a, 30.5, 1.5)
      units:tick(2)
      local before = units:save()
      local range = sr > 0 and sr or 8
      assert.are.same(sorted_keys(units:vertex_edges(a, range)),
        sorted_keys(units:vertex_edges(a)))
      assert.are.same(before, units:save())
      units:close()
    end
  end)

  it("rejects bad arguments, naming the function", function()
    local g = wayfinder.grid.new(8, 8)
    local units = wayfinder.units.new(g)
    local a = units:add({ x = 2.5, y = 2.5, radius = 0.5, speed = 1 })
    local cases = {
      { function() units:vertex_edges(7) end, "units:vertex_edges: id must be the id of a unit, got 7" },
      { function() units:vertex_edges(a, 0) end,
        "units:vertex_edges: range must be a number in (0, 64], got 0" },
      { function() units:vertex_edges(a, 65) end,
        "units:vertex_edges: range must be a number in [0, 64], got 65" },
      { function() units:vertex_edges(a, 0 / 0) end,
        "units:vertex_edges: range must be a number in [0, 64], got nan" },
      { function() units:vertex_edges(a, "4") end,
        "units:vertex_edges: range must be a number in [0, 64], got '4'" },
      { function() units.vertex_edges(g, a) end,
        "units:vertex_edges: self must be a wayfinder.Units, got a userdata "
        .. "(call it as units:method(...))" },
    }
    for _, c in ipairs(cases) do
      local ok, err = pcall(c[1])
      assert.is_false(ok)
      assert.equal(c[2], (tostring(err):gsub("^[^:]+:%d+: ", "")))
    end
    units:close()
    assert.has_error(function() units:vertex_edges(a) end,
      "units:vertex_edges: the units are closed")
  end)
end)
