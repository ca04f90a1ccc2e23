-- wayfinder.world.load and wayfinder.world.from_ascii on malformed input:
-- every refusal names the function and what in the input is wrong, at the
-- caller's line, and whatever loads also runs.
local world = require("wayfinder.world")
local crowd = require("support.house_crowd")
local unpack = require("wayfinder.compat").unpack

local function saved_crowd()
  local w = crowd.build(6)
  w:tick(40)
  return w:save()
end

local function copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = copy(x) end
  return t
end

local function first_person(saved)
  for _, o in ipairs(saved.objects) do
    if o.kind == "person" then return o end
  end
end

local function first_door(saved)
  for _, o in ipairs(saved.objects) do
    if o.kind == "door" then return o end
  end
end

local function load_error(saved)
  local ok, err = pcall(function()
    local w = world.load(saved, crowd.trees())
    return w
  end)
  assert.is_false(ok, "the save loaded")
  return err
end

describe("wayfinder.world.load refuses a malformed save, saying what is wrong", function()
  local saved = saved_crowd()
  local cases = {
    { "a tick that is not a number", function(s) s.tick = "soon" end,
      "tick must be an integer in [0, 2^52], got 'soon'" },
    { "statistics that are not a table", function(s) first_person(s).stats = 5 end,
      "stats must be a table, got 5" },
    { "a statistics count that is not a number", function(s)
      first_person(s).stats.routes = true end,
      "stats.routes must be an integer in [0, 2^52], got a boolean" },
    { "door scores that are not a table", function(s) first_door(s).scores = 3 end,
      "scores must be a table, got 3" },
    { "a speed the walker cannot take", function(s) first_person(s).speed = 2 ^ 40 end,
      "speed must be an integer in [1, 65536], got 1099511627776" },
    { "a person off the world", function(s) first_person(s).x = 2 ^ 40 end,
      "x must be an integer in" },
    { "a route index past the route", function(s)
      local p = first_person(s)
      p.route, p.index = { p.x, p.y, p.x + 65536, p.y }, 5
    end, "index must be an integer in [0, 2], got 5" },
    { "a route owner that is no person", function(s) s.route_owner[1] = 999999 end,
      "route_owner[1] must be 0 or the id of a person, got 999999" },
    { "a frame that is not a table", function(s) first_person(s).frames[1] = 4 end,
      "frame 1 is malformed" },
    { "an unknown object kind", function(s) s.objects[1].kind = "ghost" end,
      "objects[1]: kind must be 'person', 'door' or 'thing', got 'ghost'" },
    { "objects that are not a table", function(s) s.objects = 12 end,
      "objects must be a table, got 12" },
    { "a failure reason that is not a string", function(s)
      first_person(s).fail_reason = {} end, "fail_reason must be a string or nil" },
  }
  for _, case in ipairs(cases) do
    it("with " .. case[1], function()
      local s = copy(saved)
      case[2](s)
      local err = load_error(s)
      assert.matches("^spec/world_load_spec%.lua:%d+: wayfinder%.world%.load: ", err)
      assert.matches(case[3], err, 1, true)
    end)
  end

  it("and every field of the save, replaced by a hostile value, loads and runs or is refused",
    function()
      local hostile = { 0 / 0, 1 / 0, -1, 2 ^ 40, 1.5, "soon", "", true, {}, { 1, 2 } }
      local paths = {}
      local function walk(t, path, depth)
        local keys = {}
        for k in pairs(t) do keys[#keys + 1] = k end
        table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
        for _, k in ipairs(keys) do
          local p = { unpack(path) }
          p[#p + 1] = k
          paths[#paths + 1] = p
          if type(t[k]) == "table" and depth < 4 then walk(t[k], p, depth + 1) end
        end
      end
      walk(saved, {}, 0)
      local refused, ran = 0, 0
      for n, path in ipairs(paths) do
        if n % 29 == 0 then           -- a spread of one field in 29 keeps it quick
          for _, v in ipairs(hostile) do
            local s = copy(saved)
            local t = s
            for i = 1, #path - 1 do t = t[path[i]] end
            t[path[#path]] = v
            local ok, w = pcall(world.load, s, crowd.trees())
            if ok then
              local ticked, err = pcall(w.tick, w, 3)
              assert(ticked, ("a save with %s = %s loaded but then raised: %s"):format(
                table.concat(path, "."), tostring(v), tostring(err)))
              ran = ran + 1
            else
              assert(tostring(w):find("wayfinder.world.load: ", 1, true),
                ("%s = %s: %s"):format(table.concat(path, "."), tostring(v), tostring(w)))
              refused = refused + 1
            end
          end
        end
      end
      assert.is_true(refused > 0 and ran > 0)
    end)
end)

describe("wayfinder.world.from_ascii refuses a layout its calls refuse", function()
  it("naming the character, where it stands and why, at the caller's line", function()
    local ok, err = pcall(function()
      local w = world.from_ascii("+-+-+\n|.A.|\n+ + +\n|. .|\n+-+-+\n",
        { legend = { A = { type = "door" } } })
      return w
    end)
    assert.is_false(ok)
    local where, msg = err:match("^([^:]+:%d+): (.*)$")
    assert.are.equal("spec/world_load_spec.lua", where:match("^[^:]+"))
    assert.are.equal("wayfinder.world.from_ascii: 'A' at line 2, column 3: the door's tiles "
      .. "(0, 0) and (1, 0) lie in the same room", msg)
  end)
end)
