-- Bad input for every public function and method: each is refused with an
-- error naming the function, the argument and the bad value, and leaves the
-- grid exactly as it was.
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")

local grid = wayfinder.grid
local NAN, INF = 0 / 0, math.huge

-- The error message without the "file:line: " position prefix.
local function message_of(fn, ...)
  local ok, err = pcall(fn, ...)
  assert.is_false(ok, "expected an error")
  assert.are.equal("string", type(err))
  return (err:gsub("^[^\n]-:%d+: ", "", 1))
end

-- The grid every method case runs against: 10 x 5, two classes, a cost and
-- an obstruction.
local function fixture()
  local g = grid.new(10, 5, { classes = { { name = "a" }, { name = "b", clearance = 1 } } })
  g:set_passable(3, 2, false)
  g:set_cost(6, 1, 4)
  g:add_obstruction({ x = 7, y = 3, half_width = 1, half_height = 0.5 })
  g:find_path(0.5, 0.5, 9.5, 4.5, { class = "a" })
  return g
end

local function state(g)
  local parts = { tostring(g), tostring(g:version()), tostring(g:uniform_cost()),
    table.concat(g:obstructions(), ","), g:to_ascii("a"), g:to_ascii("b") }
  for y = 0, g:height() - 1 do
    for x = 0, g:width() - 1 do
      parts[#parts + 1] = tostring(g:cost(x, y)) .. (g:terrain_passable(x, y, "a") and "+" or "-")
        .. (g:terrain_passable(x, y, "b") and "+" or "-")
    end
  end
  return table.concat(parts, "|")
end

-- Every case: a call on the fixture grid g and the exact message.
local function method_cases()
  local xy = {
    { 10, "10" }, { -1, "-1" }, { 1.5, "1.5" }, { NAN, "nan" }, { INF, "inf" }, { -INF, "-inf" },
    { nil, "nil" }, { "1", "'1'" }, { true, "true" }, { {}, "a table" },
    { 2 ^ 63, "9.2233720368548e+18" },
  }
  -- 64-bit integers exist from 5.3 on
  if math.maxinteger then xy[#xy + 1] = { math.maxinteger, "9223372036854775807" } end
  local cases = {}
  local function add(call, msg) cases[#cases + 1] = { call = call, msg = msg } end

  for _, m in ipairs({ "set_passable", "is_passable", "terrain_passable", "set_cost", "cost" }) do
    local rest = ({ set_passable = { false }, set_cost = { 2 } })[m] or {}
    for _, bad in ipairs(xy) do
      add(function(g) return g[m](g, bad[1], 0, compat.unpack(rest)) end,
        ("grid:%s: x must be an integer in [0, 9], got %s"):format(m, bad[2]))
      add(function(g) return g[m](g, 0, bad[1], compat.unpack(rest)) end,
        ("grid:%s: y must be an integer in [0, 4], got %s"):format(m, bad[2]))
    end
    add(function(g) return g[m](g, 0, 5, compat.unpack(rest)) end,
      ("grid:%s: y must be an integer in [0, 4], got 5"):format(m))
  end
  -- set_passable
  for _, bad in ipairs({ { nil, "nil" }, { 1, "1" }, { 0, "0" }, { "false", "'false'" } }) do
    add(function(g) g:set_passable(1, 1, bad[1]) end,
      "grid:set_passable: passable must be a boolean, got " .. bad[2])
  end
  for _, m in ipairs({ "set_passable", "is_passable", "terrain_passable" }) do
    local pre = m == "set_passable" and { 1, 1, false } or { 1, 1 }
    add(function(g) local a = { compat.unpack(pre) }; a[#a + 1] = "zz"; g[m](g, compat.unpack(a)) end,
      ("grid:%s: class must name a class of this grid, got 'zz'"):format(m))
    add(function(g) local a = { compat.unpack(pre) }; a[#a + 1] = 1; g[m](g, compat.unpack(a)) end,
      ("grid:%s: class must be a string, got 1"):format(m))
    add(function(g) local a = { compat.unpack(pre) }; a[#a + 1] = "A"; g[m](g, compat.unpack(a)) end,
      ("grid:%s: class must name a class of this grid, got 'A'"):format(m))
  end
  -- set_cost
  for _, bad in ipairs({ { 0, "0" }, { 256, "256" }, { -3, "-3" }, { 1.5, "1.5" }, { NAN, "nan" },
    { INF, "inf" }, { nil, "nil" }, { "2", "'2'" } }) do
    add(function(g) g:set_cost(1, 1, bad[1]) end,
      "grid:set_cost: cost must be an integer in [1, 255], got " .. bad[2])
  end
  -- to_ascii
  add(function(g) g:to_ascii("zz") end,
    "grid:to_ascii: class must name a class of this grid, got 'zz'")
  add(function(g) g:to_ascii(3) end, "grid:to_ascii: class must be a string, got 3")
  -- line_of_sight
  for i, arg in ipairs({ "ax", "ay", "bx", "by" }) do
    local hi = (i % 2 == 1) and 9 or 4
    for _, bad in ipairs({ { hi + 1, tostring(hi + 1) }, { -1, "-1" }, { 0.5, "0.5" },
      { NAN, "nan" }, { nil, "nil" } }) do
      add(function(g)
        local a = { 0, 0, 1, 1 }
        a[i] = bad[1]
        g:line_of_sight(a[1], a[2], a[3], a[4])
      end, ("grid:line_of_sight: %s must be an integer in [0, %d], got %s"):format(arg, hi, bad[2]))
    end
  end
  add(function(g) g:line_of_sight(0, 0, 1, 1, "zz") end,
    "grid:line_of_sight: class must name a class of this grid, got 'zz'")
  -- add_obstruction
  local shape_msg = "grid:add_obstruction: shape must be a table {x =, y =, half_width =, "
    .. "half_height =, angle =}, got "
  add(function(g) g:add_obstruction() end, shape_msg .. "no value")
  add(function(g) g:add_obstruction(nil) end, shape_msg .. "nil")
  add(function(g) g:add_obstruction(5) end, shape_msg .. "5")
  add(function(g) g:add_obstruction("x") end, shape_msg .. "'x'")
  local function shape(over)
    local s = { x = 2, y = 2, half_width = 1, half_height = 1 }
    for k, v in pairs(over) do s[k] = v end
    return s
  end
  for _, key in ipairs({ "x", "y" }) do
    for _, bad in ipairs({ { NAN, "nan" }, { INF, "inf" }, { -INF, "-inf" }, { 32768, "32768" },
      { -40000, "-40000" }, { "1", "'1'" } }) do
      add(function(g) g:add_obstruction(shape({ [key] = bad[1] })) end,
        ("grid:add_obstruction: shape.%s must be a number in [-32767, 32767], got %s")
          :format(key, bad[2]))
    end
    add(function(g) local s = shape({}); s[key] = nil; g:add_obstruction(s) end,
      ("grid:add_obstruction: shape.%s must be a number in [-32767, 32767], got nil"):format(key))
  end
  for _, key in ipairs({ "half_width", "half_height" }) do
    for _, bad in ipairs({ { NAN, "nan" }, { INF, "inf" }, { -1, "-1" }, { -0.5, "-0.5" },
      { 16385, "16385" }, { false, "false" } }) do
      add(function(g) g:add_obstruction(shape({ [key] = bad[1] })) end,
        ("grid:add_obstruction: shape.%s must be a number in [0, 16384], got %s")
          :format(key, bad[2]))
    end
    add(function(g) local s = shape({}); s[key] = nil; g:add_obstruction(s) end,
      ("grid:add_obstruction: shape.%s must be a number in [0, 16384], got nil"):format(key))
  end
  for _, bad in ipairs({ { NAN, "nan" }, { INF, "inf" }, { 2e6, "2000000" }, { "0", "'0'" } }) do
    add(function(g) g:add_obstruction(shape({ angle = bad[1] })) end,
      "grid:add_obstruction: shape.angle must be a number in [-1e+06, 1e+06], got " .. bad[2])
  end
  add(function(g) g:add_obstruction(shape({ angle = 0, u = { 1, 0 } })) end,
    "grid:add_obstruction: shape: give angle or u, not both")
  add(function(g) g:add_obstruction(shape({ u = 5 })) end,
    "grid:add_obstruction: shape.u must be a table {x, y}, got 5")
  add(function(g) g:add_obstruction(shape({ u = { 2, 0 } })) end,
    "grid:add_obstruction: shape.u[1] must be a number in [-1, 1], got 2")
  add(function(g) g:add_obstruction(shape({ u = { 1 } })) end,
    "grid:add_obstruction: shape.u[2] must be a number in [-1, 1], got nil")
  add(function(g) g:add_obstruction(shape({ u = { NAN, 0 } })) end,
    "grid:add_obstruction: shape.u[1] must be a number in [-1, 1], got nan")
  add(function(g) g:add_obstruction(shape({ u = { 0.5, 0.5 } })) end,
    "grid:add_obstruction: shape.u must be a unit vector, its length is 0.707107")
  add(function(g) g:add_obstruction(shape({ u = { 0, 0 } })) end,
    "grid:add_obstruction: shape.u must be a unit vector, its length is 0")
  add(function(g) g:add_obstruction(shape({ width = 2 })) end,
    "grid:add_obstruction: unknown shape key 'width'")
  add(function(g) g:add_obstruction(shape({ [1] = 2 })) end,
    "grid:add_obstruction: shape has a non-string key 1")
  -- remove_obstruction and obstruction
  for _, m in ipairs({ "remove_obstruction", "obstruction" }) do
    for _, bad in ipairs({ { nil, "nil" }, { 0, "0" }, { -1, "-1" }, { 1.5, "1.5" },
      { NAN, "nan" }, { INF, "inf" }, { 2 ^ 31, "2147483648" }, { "1", "'1'" } }) do
      add(function(g) g[m](g, bad[1]) end,
        ("grid:%s: id must be an integer in [1, 2147483647], got %s"):format(m, bad[2]))
    end
    add(function(g) g[m](g, 999) end,
      ("grid:%s: id 999 names no obstruction of this grid"):format(m))
    add(function(g) g[m](g, 2147483647) end,
      ("grid:%s: id 2147483647 names no obstruction of this grid"):format(m))
  end
  -- find_path
  for i, arg in ipairs({ "sx", "sy", "gx", "gy" }) do
    for _, bad in ipairs({ { nil, "nil" }, { NAN, "nan" }, { INF, "inf" }, { -INF, "-inf" },
      { 32767.5, "32767.5" }, { -1e9, "-1000000000" }, { "1", "'1'" }, { {}, "a table" } }) do
      add(function(g)
        local a = { 0.5, 0.5, 5.5, 2.5 }
        a[i] = bad[1]
        g:find_path(a[1], a[2], a[3], a[4])
      end, ("grid:find_path: %s must be a number in [-32767, 32767], got %s"):format(arg, bad[2]))
    end
  end
  local function fp(opts) return function(g) g:find_path(0.5, 0.5, 5.5, 2.5, opts) end end
  local F = "grid:find_path: "
  add(fp(5), F .. "options must be a table, got 5")
  add(fp("astar"), F .. "options must be a table, got 'astar'")
  add(fp({ bogus = 1 }), F .. "unknown options key 'bogus'")
  add(fp({ "astar" }), F .. "options has a non-string key 1")
  add(fp({ algorithm = "dijkstra" }),
    F .. "options.algorithm must be 'astar', 'jps' or 'auto', got 'dijkstra'")
  add(fp({ algorithm = "JPS" }),
    F .. "options.algorithm must be 'astar', 'jps' or 'auto', got 'JPS'")
  add(fp({ algorithm = 2 }), F .. "options.algorithm must be a string, got 2")
  add(fp({ class = "zz" }), F .. "options.class must name a class of this grid, got 'zz'")
  add(fp({ class = 1 }), F .. "options.class must be a string, got 1")
  add(fp({ smooth = "yes" }), F .. "options.smooth must be a boolean, got 'yes'")
  add(fp({ smooth = 1 }), F .. "options.smooth must be a boolean, got 1")
  add(fp({ goal = 5 }), F .. "options.goal must be a table, got 5")
  add(fp({ goal = "circle" }), F .. "options.goal must be a table, got 'circle'")
  add(fp({ goal = { shape = "hexagon" } }),
    F .. "options.goal.shape must be 'point', 'circle' or 'square', got 'hexagon'")
  add(fp({ goal = { shape = 3 } }), F .. "options.goal.shape must be a string, got 3")
  add(fp({ goal = { shape = "circle" } }),
    F .. "options.goal.radius must be a number in [0, 16384], got nil")
  for _, bad in ipairs({ { -1, "-1" }, { NAN, "nan" }, { INF, "inf" }, { 16385, "16385" },
    { "2", "'2'" } }) do
    add(fp({ goal = { shape = "circle", radius = bad[1] } }),
      F .. "options.goal.radius must be a number in [0, 16384], got " .. bad[2])
  end
  add(fp({ goal = { shape = "square", half_height = 1 } }),
    F .. "options.goal.half_width must be a number in [0, 16384], got nil")
  add(fp({ goal = { shape = "square", half_width = 1 } }),
    F .. "options.goal.half_height must be a number in [0, 16384], got nil")
  add(fp({ goal = { shape = "square", half_width = -2, half_height = 1 } }),
    F .. "options.goal.half_width must be a number in [0, 16384], got -2")
  add(fp({ goal = { shape = "square", half_width = 1, half_height = NAN } }),
    F .. "options.goal.half_height must be a number in [0, 16384], got nan")
  add(fp({ goal = { shape = "square", half_width = 1, half_height = 1, angle = NAN } }),
    F .. "options.goal.angle must be a number in [-1e+06, 1e+06], got nan")
  add(fp({ goal = { shape = "square", half_width = 1, half_height = 1, angle = 1, u = { 1, 0 } } }),
    F .. "options.goal: give angle or u, not both")
  add(fp({ goal = { shape = "square", half_width = 1, half_height = 1, u = { 0.6, 0.6 } } }),
    F .. "options.goal.u must be a unit vector, its length is 0.848528")
  add(fp({ goal = { shape = "square", half_width = 1, half_height = 1, u = "east" } }),
    F .. "options.goal.u must be a table {x, y}, got 'east'")
  add(fp({ goal = { shape = "circle", radius = 1, size = 2 } }),
    F .. "unknown options.goal key 'size'")
  add(fp({ goal = { shape = "circle", radius = 1, half_width = 2 } }),
    F .. "unknown options.goal (circle) key 'half_width'")
  add(fp({ goal = { shape = "square", half_width = 1, half_height = 1, radius = 2 } }),
    F .. "unknown options.goal (square) key 'radius'")
  add(fp({ goal = { shape = "point", radius = 1 } }),
    F .. "unknown options.goal (point) key 'radius'")
  add(fp({ goal = { angle = 1 } }), F .. "unknown options.goal (point) key 'angle'")
  add(fp({ goal = { shape = "circle", radius = 1, [1] = 2 } }),
    F .. "options.goal has a non-string key 1")
  -- batch
  add(function(g) g:batch(function(b) b:find_path(0.5, 0.5, 1.5, 1.5) end) end,
    F .. "cannot search inside grid:batch")
  add(function(g) g:batch(function(b) b:set_passable(10, 0, false) end) end,
    "grid:set_passable: x must be an integer in [0, 9], got 10")
  return cases
end

describe("bad input", function()
  describe("to grid methods is refused and leaves the grid unchanged", function()
    local cases = method_cases()
    it(("(%d cases)"):format(#cases), function()
      local g = fixture()
      local before = state(g)
      for k, case in ipairs(cases) do
        local msg = message_of(case.call, g)
        assert.are.equal(case.msg, msg, ("case %d"):format(k))
        assert.are.equal(before, state(g), ("case %d changed the grid: %s"):format(k, case.msg))
      end
      -- the grid still works, search scratch included
      local path, len = g:find_path(0.5, 0.5, 9.5, 0.5, { class = "a" })
      assert.are.same({ 0, 0 }, { path[1][1], path[1][2] })
      assert.is_true(len >= 9)
    end)
  end)

  it("grid:batch wants a function and leaves the grid unchanged", function()
    local g = fixture()
    local before = state(g)
    for _, bad in ipairs({ { 5, "5" }, { "f", "'f'" }, { {}, "a table" }, { false, "false" },
      { nil, "nil" } }) do
      assert.are.equal("grid:batch: fn must be a function, got " .. bad[2],
        message_of(g.batch, g, bad[1]))
      assert.are.equal(before, state(g))
    end
    assert.are.equal("grid:batch: fn must be a function, got no value", message_of(g.batch, g))
    assert.are.equal(before, state(g))
    -- no batch was left open
    g:set_passable(0, 4, false)
    assert.is_false(g:is_passable(0, 4, "a"))
  end)

  it("methods called without a grid as self", function()
    local g = grid.new(3, 3)
    local names = {}
    for name in pairs(getmetatable(g).__index) do names[#names + 1] = name end
    table.sort(names)
    assert.is_true(#names >= 20)
    local others = { { nil, "nil" }, { 5, "5" }, { "grid", "'grid'" }, { {}, "a table" },
      { io.stdout, "a userdata" } }
    for _, name in ipairs(names) do
      local fn = getmetatable(g).__index[name]
      for _, other in ipairs(others) do
        local msg = message_of(fn, other[1], 0, 0, 1, 1)
        if name == "close" or name == "is_closed" then
          -- these also accept a closed grid, so they give no calling hint
          local want = "grid:%s: self must be a wayfinder.Grid, got %s"
          assert.are.equal(want:format(name, other[2]), msg)
        else
          local want = "grid:%s: self must be a wayfinder.Grid, got %s "
            .. "(call it as grid:method(...))"
          assert.are.equal(want:format(name, other[2]), msg)
        end
      end
    end
    -- the dot call the brief names
    assert.are.equal("grid:find_path: self must be a wayfinder.Grid, got nil "
      .. "(call it as grid:method(...))", message_of(grid.new(2, 2).find_path, nil, 0, 0, 1, 1))
  end)

  describe("to wayfinder.grid.new", function()
    local N = "wayfinder.grid.new: "
    local cases = {
      { {}, "width must be an integer in [1, 16384], got no value" },
      { { nil, 5 }, "width must be an integer in [1, 16384], got nil" },
      { { "10", 5 }, "width must be an integer in [1, 16384], got '10'" },
      { { 0, 5 }, "width must be an integer in [1, 16384], got 0" },
      { { -1, 5 }, "width must be an integer in [1, 16384], got -1" },
      { { 16385, 5 }, "width must be an integer in [1, 16384], got 16385" },
      { { 10.5, 5 }, "width must be an integer in [1, 16384], got 10.5" },
      { { NAN, 5 }, "width must be an integer in [1, 16384], got nan" },
      { { INF, 5 }, "width must be an integer in [1, 16384], got inf" },
      { { -INF, 5 }, "width must be an integer in [1, 16384], got -inf" },
      math.mininteger and { { math.mininteger, 5 },   -- 64-bit integers: 5.3 on
        "width must be an integer in [1, 16384], got -9223372036854775808" }
        or { { -2 ^ 63, 5 }, "width must be an integer in [1, 16384], got -9.2233720368548e+18" },
      { { 2 ^ 40, 2 ^ 40 }, "width must be an integer in [1, 16384], got 1099511627776" },
      { { 10 }, "height must be an integer in [1, 16384], got no value" },
      { { 10, 0 }, "height must be an integer in [1, 16384], got 0" },
      { { 10, 4.25 }, "height must be an integer in [1, 16384], got 4.25" },
      { { 10, true }, "height must be an integer in [1, 16384], got true" },
      { { 16384, 16384 }, "width*height must be at most 67108864 navcells, got 268435456" },
      { { 16384, 4097 }, "width*height must be at most 67108864 navcells, got 67125248" },
      { { 10, 5, 5 }, "options must be a table, got 5" },
      { { 10, 5, "opts" }, "options must be a table, got 'opts'" },
      { { 10, 5, { bogus = 1 } }, "unknown options key 'bogus'" },
      { { 10, 5, { 1 } }, "options has a non-string key 1" },
      { { 10, 5, { classes = 5 } },
        "options.classes must be a sequence of {name =, clearance =} tables, got 5" },
      { { 10, 5, { classes = "a" } },
        "options.classes must be a sequence of {name =, clearance =} tables, got 'a'" },
      { { 10, 5, { classes = {} } }, "options.classes must hold 1 to 16 classes, got 0" },
      { { 10, 5, { classes = { a = { name = "a" } } } },
        "options.classes must hold 1 to 16 classes, got 0" },
      { { 10, 5, { classes = { 5 } } }, "options.classes[1] must be a table, got 5" },
      { { 10, 5, { classes = { { name = "a" }, "b" } } },
        "options.classes[2] must be a table, got 'b'" },
      { { 10, 5, { classes = { {} } } }, "options.classes[1].name must be a string, got nil" },
      { { 10, 5, { classes = { { name = 7 } } } },
        "options.classes[1].name must be a string, got 7" },
      { { 10, 5, { classes = { { name = "" } } } },
        "options.classes[1].name must be 1 to 31 characters, got ''" },
      { { 10, 5, { classes = { { name = ("n"):rep(32) } } } },
        "options.classes[1].name must be 1 to 31 characters, got '" .. ("n"):rep(32) .. "'" },
      { { 10, 5, { classes = { { name = "a" }, { name = "b" }, { name = "a" } } } },
        "options.classes[3].name 'a' is a duplicate class name" },
      { { 10, 5, { classes = { { name = "a", clearance = -1 } } } },
        "options.classes[1].clearance must be an integer in [0, 255], got -1" },
      { { 10, 5, { classes = { { name = "a", clearance = 256 } } } },
        "options.classes[1].clearance must be an integer in [0, 255], got 256" },
      { { 10, 5, { classes = { { name = "a", clearance = 1.5 } } } },
        "options.classes[1].clearance must be an integer in [0, 255], got 1.5" },
      { { 10, 5, { classes = { { name = "a", clearance = NAN } } } },
        "options.classes[1].clearance must be an integer in [0, 255], got nan" },
      { { 10, 5, { classes = { { name = "a", clearance = "1" } } } },
        "options.classes[1].clearance must be an integer in [0, 255], got '1'" },
      { { 10, 5, { classes = { { name = "a", speed = 2 } } } },
        "unknown options.classes[1] key 'speed'" },
      { { 10, 5, { border = -1 } }, "options.border must be an integer in [0, 16384], got -1" },
      { { 10, 5, { border = 1.5 } }, "options.border must be an integer in [0, 16384], got 1.5" },
      { { 10, 5, { border = "2" } }, "options.border must be an integer in [0, 16384], got '2'" },
      { { 10, 5, { border = INF } }, "options.border must be an integer in [0, 16384], got inf" },
      { { 10, 5, { border = 16385 } },
        "options.border must be an integer in [0, 16384], got 16385" },
      { { 10, 5, { border_shape = "hex" } },
        "options.border_shape must be 'square' or 'circle', got 'hex'" },
      { { 10, 5, { border_shape = 1 } }, "options.border_shape must be a string, got 1" },
    }
    local seventeen = {}
    for k = 1, 17 do seventeen[k] = { name = "c" .. k } end
    cases[#cases + 1] = { { 10, 5, { classes = seventeen } },
      "options.classes must hold 1 to 16 classes, got 17" }

    it(("(%d cases)"):format(#cases), function()
      for k, case in ipairs(cases) do
        local args, n = case[1], 0
        for key in pairs(args) do n = math.max(n, key) end
        assert.are.equal(N .. case[2], message_of(grid.new, compat.unpack(args, 1, n)),
          ("case %d"):format(k))
      end
    end)
  end)

  describe("to wayfinder.grid.from_ascii and wayfinder.grid.load_movingai", function()
    it("wrong types and options", function()
      local A = "wayfinder.grid.from_ascii: "
      assert.are.equal(A .. "text must be a string, got no value", message_of(grid.from_ascii))
      assert.are.equal(A .. "text must be a string, got nil", message_of(grid.from_ascii, nil))
      assert.are.equal(A .. "text must be a string, got 5", message_of(grid.from_ascii, 5))
      assert.are.equal(A .. "text must be a string, got a table", message_of(grid.from_ascii, {}))
      assert.are.equal(A .. "options must be a table, got 5", message_of(grid.from_ascii, "..", 5))
      assert.are.equal(A .. "unknown options key 'width'",
        message_of(grid.from_ascii, "..", { width = 2 }))
      assert.are.equal(A .. "options.classes must hold 1 to 16 classes, got 0",
        message_of(grid.from_ascii, "..", { classes = {} }))
      local M = "wayfinder.grid.load_movingai: "
      local map = "spec/data/maps/arena.map"
      assert.are.equal(M .. "path must be a string, got no value", message_of(grid.load_movingai))
      assert.are.equal(M .. "path must be a string, got nil", message_of(grid.load_movingai, nil))
      assert.are.equal(M .. "path must be a string, got true",
        message_of(grid.load_movingai, true))
      assert.are.equal(M .. "options must be a table, got 'x'",
        message_of(grid.load_movingai, map, "x"))
      assert.are.equal(M .. "unknown options key 'scale'",
        message_of(grid.load_movingai, map, { scale = 2 }))
      assert.are.equal(M .. "options.border_shape must be 'square' or 'circle', got 'oval'",
        message_of(grid.load_movingai, map, { border_shape = "oval" }))
    end)
  end)

  describe("to wayfinder.movingai", function()
    it("wrong types", function()
      assert.are.equal("wayfinder.movingai.parse_scenarios: text must be a string, got number",
        message_of(wayfinder.movingai.parse_scenarios, 5))
      assert.are.equal("wayfinder.movingai.load_scenarios: path must be a string, got nil",
        message_of(wayfinder.movingai.load_scenarios, nil))
      assert.are.equal("wayfinder.movingai.load_scenarios: path must be a string, got table",
        message_of(wayfinder.movingai.load_scenarios, {}))
      assert.are.equal("wayfinder.movingai.parse_scenarios: source must be a string, got number",
        message_of(wayfinder.movingai.parse_scenarios, "version 1\n", 5))
      local T = "wayfinder.movingai.tolerance: text must be a printed number, got "
      assert.are.equal(T .. "nil", message_of(wayfinder.movingai.tolerance, nil))
      assert.are.equal(T .. "nil", message_of(wayfinder.movingai.tolerance))
      assert.are.equal(T .. "5", message_of(wayfinder.movingai.tolerance, 5))
      assert.are.equal(T .. "'abc'", message_of(wayfinder.movingai.tolerance, "abc"))
      assert.are.equal(T .. "''", message_of(wayfinder.movingai.tolerance, ""))
      assert.are.equal(T .. "'1e3'", message_of(wayfinder.movingai.tolerance, "1e3"))
    end)
  end)
end)
