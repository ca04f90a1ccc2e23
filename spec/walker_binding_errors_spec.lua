-- The walker binding's checks the other specs leave out: each bad call
-- raises a message naming the method and the argument, and the walker
-- answers as before.
local core = require("wayfinder.core")

local F = 65536

local function err(want, f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok)
  e = tostring(e):gsub("^[^\n]-:%d+: ", "")
  assert.are.equal(want, e:sub(1, #want))
end

local function walker()
  local w = core.walker_new(6, 4)
  w:add_person(1, F + F / 2, F + F / 2, F / 4, F / 8, 0)
  return w
end

describe("walker binding checks", function()
  it("set_box refuses a box whose y1 is above y0, and keeps no box", function()
    local w = walker()
    err("walker:set_box: the box must have x0 <= x1 and y0 <= y1", w.set_box, w, 1, 0,
      2 * F, F, F)
    err("walker:remove_box: id 1 names no box", w.remove_box, w, 1)
    assert.is_true((w:square_free(F / 2, 3 * F, F / 4, 0)))
  end)

  it("refuses positions past the world's far edges on either axis", function()
    local w = walker()
    err("walker:add_person: position (", w.add_person, w, 2, F, 4 * F, F / 4, F / 8, 0)
    err("walker:add_person: position (", w.add_person, w, 2, 6 * F, F, F / 4, F / 8, 0)
    err("walker:add_person: position (", w.add_person, w, 2, -1, F, F / 4, F / 8, 0)
    err("walker:place: position (", w.place, w, 1, F, 4 * F, 0)
    err("walker:set_route: position (", w.set_route, w, 1, { F, F, F, 4 * F }, 0)
    local x, y, _, walking = w:person(1)
    assert.are.same({ F + F / 2, F + F / 2, false }, { x, y, walking })
    local t = {}
    assert.are.equal(1, w:positions(t))
  end)

  it("refuses a route longer than the walker holds", function()
    local w = walker()
    if #setmetatable({}, { __len = function() return 1 end }) == 1 then
      local huge = setmetatable({}, { __len = function() return 2 * 65536 + 2 end })
      err("walker:set_route: points must hold 1 to 65536 x, y pairs, got 131074 values",
        w.set_route, w, 1, huge, 0)
    end
    err("walker:set_route: points must hold 1 to 65536 x, y pairs, got 0 values",
      w.set_route, w, 1, {}, 0)
    assert.are.same({}, w:route(1))
  end)

  it("set_avoidance names the modes and what it got", function()
    local w = walker()
    err("walker:set_avoidance: mode must be 'none' or 'sidestep', got number",
      w.set_avoidance, w, 5)
    err("walker:set_avoidance: mode must be 'none' or 'sidestep', got no value",
      w.set_avoidance, w)
    err("walker:set_avoidance: mode must be 'none' or 'sidestep', got shove",
      w.set_avoidance, w, "shove")
    assert.are.equal("none", w:avoidance())
    w:set_avoidance("sidestep")
    assert.are.equal("sidestep", w:avoidance())
    w:set_avoidance("none")
    assert.are.equal("none", w:avoidance())
  end)

  it("says its size and people, and that it is closed", function()
    local w = walker()
    assert.are.equal("wayfinder.Walker (6x4, 1 people)", tostring(w))
    w:close()
    w:close()
    assert.are.equal("wayfinder.Walker (closed)", tostring(w))
    err("walker:avoidance: the walker is closed", w.avoidance, w)
    err("walker:set_wall: self must be a wayfinder.Walker", w.set_wall, {}, true, 1, 1, true)
  end)
end)
