-- Moving AI benchmark files: the .map loader, the .scen parser and its
-- tolerance rule, and every scenario of three benchmark maps solved to the
-- benchmark's optimal length with both algorithms.
--
-- All 1 940 scenarios of 8room_000 run with A* as well as JPS; A* takes
-- about 11 s of it (27 s under the sanitizers), which keeps the suite well
-- under two minutes.
local wayfinder = require("wayfinder")

local grid = wayfinder.grid
local movingai = wayfinder.movingai

local DATA = "spec/data/maps/"

local function write_temp(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end

-- Runs fn(path) on a temporary file holding text, removing it afterwards.
local function with_file(text, fn)
  local path = write_temp(text)
  local ok, err = pcall(fn, path)
  os.remove(path)
  if not ok then error(err, 0) end
end

local function error_of(fn, ...)
  local ok, err = pcall(fn, ...)
  assert.is_false(ok, "expected an error")
  return err
end

describe("Moving AI scenarios solve to the benchmark's optimal lengths", function()
  for _, name in ipairs({ "arena", "den011d", "8room_000" }) do
    describe(name, function()
      local g, queries

      setup(function()
        g = assert(grid.load_movingai(DATA .. name .. ".map"))
        queries = assert(movingai.load_scenarios(DATA .. name .. ".map.scen"))
      end)

      teardown(function() g:close() end)

      it("has the size its scenarios give", function()
        assert.is_true(#queries > 0)
        for _, q in ipairs(queries) do
          assert.are.equal(g:width(), q.width)
          assert.are.equal(g:height(), q.height)
        end
      end)

      local jps_costs = {}
      for _, algo in ipairs({ "jps", "astar" }) do
        it("every scenario with " .. algo, function()
          local bad = {}
          for k, q in ipairs(queries) do
            local path, len, info = g:find_path(q.sx + 0.5, q.sy + 0.5, q.gx + 0.5, q.gy + 0.5,
              { algorithm = algo })
            if not path then
              bad[#bad + 1] = ("line %d: %s"):format(q.line, tostring(len))
            else
              assert.are.equal(algo, info.algorithm)
              if math.abs(len - q.length) > q.tolerance then
                bad[#bad + 1] = ("line %d: got %.6f, optimal %.6f"):format(q.line, len, q.length)
              end
              if algo == "jps" then
                jps_costs[k] = info.cost_units
              elseif jps_costs[k] and jps_costs[k] ~= info.cost_units then
                bad[#bad + 1] = ("line %d: A* cost %d, JPS cost %d"):format(q.line,
                  info.cost_units, jps_costs[k])
              end
            end
          end
          assert.are.equal("", table.concat(bad, "\n"))
        end)
      end
    end)
  end
end)

describe("wayfinder.grid.load_movingai", function()
  local lf = "type octile\nheight 3\nwidth 4\nmap\n.@..\nT.GS\n.OW.\n"
  local want = ".@..\n@...\n.@@.\n"

  it("reads the cell characters: '.', 'G', 'S' passable, '@', 'O', 'T', 'W' blocked", function()
    with_file(lf, function(path)
      local g = grid.load_movingai(path)
      assert.are.equal("wayfinder.Grid (4x3, 1 class)", tostring(g))
      assert.are.equal(want, g:to_ascii())
    end)
  end)

  it("accepts CRLF line ends and a missing final line end", function()
    local crlf = lf:gsub("\n", "\r\n")
    for _, text in ipairs({ crlf, crlf:sub(1, -3), lf:sub(1, -2), lf .. "\n\n", crlf .. "\r\n" }) do
      with_file(text, function(path)
        assert.are.equal(want, grid.load_movingai(path):to_ascii())
      end)
    end
  end)

  it("accepts tabs between header words and header lines in either order", function()
    with_file("type octile\nwidth\t4\nheight  3\nmap\n.@..\nT.GS\n.OW.\n", function(path)
      assert.are.equal(want, grid.load_movingai(path):to_ascii())
    end)
  end)

  it("takes the grid options", function()
    with_file(lf, function(path)
      local g = grid.load_movingai(path,
        { classes = { { name = "a" }, { name = "b", clearance = 1 } }, border = 0 })
      assert.are.same({ { name = "a", clearance = 0 }, { name = "b", clearance = 1 } }, g:classes())
      assert.are.equal(want, g:to_ascii("a"))
      assert.are.equal("@@@@\n@@@@\n@@@@\n", g:to_ascii("b"))
    end)
  end)

  it("loads the benchmark maps with their sizes", function()
    local g = grid.load_movingai(DATA .. "arena.map")
    assert.are.equal(49, g:width())
    assert.are.equal(49, g:height())
    g = grid.load_movingai(DATA .. "den011d.map")
    assert.are.equal(247, g:width())
    assert.are.equal(167, g:height())
  end)

  it("returns nil and a message for a file it cannot read", function()
    local g, msg = grid.load_movingai("spec/data/maps/no-such-file.map")
    assert.is_nil(g)
    assert.are.equal("cannot open 'spec/data/maps/no-such-file.map'", msg)
    g, msg = grid.load_movingai("spec/data/maps")
    assert.is_nil(g)
    assert.are.equal("cannot read 'spec/data/maps'", msg)
  end)

  describe("refuses malformed files, naming the file and line", function()
    local cases = {
      { "no header", "height 2\nwidth 3\nmap\n...\n...\n", 1,
        "expected 'type octile' on the first line" },
      { "a bad header line", "type octile\nheight 2\nwide 3\nmap\n...\n...\n", 3,
        "expected 'height N', 'width N' or 'map'" },
      { "a header number with a sign", "type octile\nheight -2\nwidth 3\nmap\n...\n...\n", 2,
        "expected 'height N', 'width N' or 'map'" },
      { "no width", "type octile\nheight 2\nmap\n...\n...\n", 3, "header lacks width or height" },
      { "no map line", "type octile\nheight 2\nwidth 3\n", 3,
        "missing 'map' line before the rows" },
      { "a short row", "type octile\nheight 2\nwidth 3\nmap\n...\n..\n", 6,
        "map row 1 has 2 cells, expected 3" },
      { "a long row", "type octile\nheight 2\nwidth 3\nmap\n....\n...\n", 5,
        "map row 0 has 4 cells, expected 3" },
      { "too few rows", "type octile\nheight 3\nwidth 3\nmap\n...\n...\n", 6,
        "expected 3 map rows, found 2" },
      { "no rows", "type octile\nheight 3\nwidth 3\nmap", 4, "expected 3 map rows, found 0" },
      { "a bad character", "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n", 6,
        "unknown cell character 0x78 at column 1" },
      { "a NUL byte", "type octile\nheight 2\nwidth 3\nmap\n...\n..\0\n", 6,
        "unknown cell character 0x00 at column 2" },
      { "text after the rows", "type octile\nheight 2\nwidth 3\nmap\n...\n...\nxx\n", 7,
        "unexpected text after the last map row" },
      { "a zero size", "type octile\nheight 0\nwidth 3\nmap\n", 4, "map size out of range" },
      { "a side over the limit", "type octile\nheight 16385\nwidth 3\nmap\n", 4,
        "map size out of range" },
      { "too many navcells", "type octile\nheight 16384\nwidth 16384\nmap\n", 4,
        "map size out of range" },
      { "an absurd size", "type octile\nheight 5000000\nwidth 5000000\nmap\n", 4,
        "map size out of range" },
    }
    for _, case in ipairs(cases) do
      it(case[1], function()
        with_file(case[2], function(path)
          local err = error_of(grid.load_movingai, path)
          local expected = ("wayfinder.grid.load_movingai: %s:%d: %s")
            :format(path, case[3], case[4])
          assert.are.equal(expected, err)
        end)
      end)
    end

    it("an empty file", function()
      with_file("", function(path)
        local err = error_of(grid.load_movingai, path)
        local prefix = "wayfinder.grid.load_movingai: " .. path .. ":"
        assert.are.equal(prefix, err:sub(1, #prefix))
        assert.is_truthy(err:find(": expected 'type octile' on the first line$"))
      end)
    end)
  end)
end)

describe("wayfinder.grid.from_ascii", function()
  it("reads '.' as passable and '@' or '#' as blocked", function()
    local g = grid.from_ascii("..@\n#.#\n")
    assert.are.equal("..@\n@.@\n", g:to_ascii())
    assert.is_false(g:terrain_passable(0, 1))
  end)

  it("accepts CRLF and a missing final line end", function()
    for _, text in ipairs({ "..@\r\n#.#\r\n", "..@\r\n#.#", "..@\n#.#" }) do
      assert.are.equal("..@\n@.@\n", grid.from_ascii(text):to_ascii())
    end
  end)

  it("takes the grid options", function()
    local g = grid.from_ascii(".....\n.....\n.....\n",
      { classes = { { name = "x", clearance = 1 } }, border = 0 })
    assert.are.equal("@@@@@\n@...@\n@@@@@\n", g:to_ascii("x"))
  end)

  it("refuses malformed text, naming the line", function()
    local cases = {
      { "", "text:1: empty map" },
      { "\n...\n", "text:1: empty map" },
      { "...\n..\n", "text:2: map row 1 has 2 cells, expected 3" },
      { "...\n.x.\n", "text:2: unknown cell character 0x78 at column 1" },
      { "...\n...\n\n", "text:3: map row 2 has 0 cells, expected 3" },
    }
    for _, case in ipairs(cases) do
      assert.are.equal("wayfinder.grid.from_ascii: " .. case[2], error_of(grid.from_ascii, case[1]))
    end
    -- sizes over the limit
    for _, text in ipairs({ ("."):rep(16385), (".\n"):rep(16385) }) do
      local err = error_of(grid.from_ascii, text)
      local pattern = "^wayfinder%.grid%.from_ascii: text:%d+: map size out of range$"
      assert.is_truthy(err:find(pattern), err)
    end
  end)
end)

describe("wayfinder.movingai.parse_scenarios", function()
  it("reads every field of every query", function()
    local text = "version 1\n"
      .. "0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n"
      .. "0\tmaps/dao/arena.map\t49\t49\t1\t13\t4\t12\t3.41421\n"
    assert.are.same({
      { bucket = 0, map = "maps/dao/arena.map", width = 49, height = 49,
        sx = 1, sy = 11, gx = 1, gy = 12,
        length = 1, tolerance = 1e-3, line = 2 },
      { bucket = 0, map = "maps/dao/arena.map", width = 49, height = 49,
        sx = 1, sy = 13, gx = 4, gy = 12,
        length = 3.41421, tolerance = 1e-3, line = 3 },
    }, movingai.parse_scenarios(text))
  end)

  it("accepts 'version 1.0', spaces, CRLF and blank lines anywhere", function()
    local text = "\nversion 1.0\r\n\r\n"
      .. "3 maps/bgmaps/AR0011SR.map 512 512 10 20 30 40 12.25\r\n"
      .. "   \r\n"
      .. "4   x.map  512\t512 1 2 3 4 16.5\n\n\n"
    local q = movingai.parse_scenarios(text)
    assert.are.equal(2, #q)
    assert.are.same({ bucket = 3, map = "maps/bgmaps/AR0011SR.map", width = 512, height = 512,
      sx = 10, sy = 20, gx = 30, gy = 40, length = 12.25, tolerance = 0.005, line = 4 }, q[1])
    assert.are.equal(6, q[2].line)
    assert.are.equal(0.05, q[2].tolerance)
    assert.are.equal("x.map", q[2].map)
  end)

  it("a header with no queries is an empty list", function()
    assert.are.same({}, movingai.parse_scenarios("version 1\n"))
  end)

  it("refuses malformed text, naming the source and line", function()
    local cases = {
      { "", "text:1: empty scenario file" },
      { "\n\n", "text:3: empty scenario file" },
      { "version 2\n", "text:1: expected 'version 1' header" },
      { "0 a.map 1 1 0 0 0 0 1\n", "text:1: expected 'version 1' header" },
      { "version 1\n0 a.map 1 1 0 0 0 0\n", "text:2: expected 9 fields, got 8" },
      { "version 1\n0 a.map 1 1 0 0 0 0 1 9\n", "text:2: expected 9 fields, got 10" },
      { "version 1\n0 a.map 1 1 x 0 0 0 1\n", "text:2: field 5 must be a whole number, got 'x'" },
      { "version 1\n0 a.map 1 1 0 -3 0 0 1\n", "text:2: field 6 must be a whole number, got '-3'" },
      { "version 1\n0 a.map 1 1 0 0 0 0.5 1\n",
        "text:2: field 8 must be a whole number, got '0.5'" },
      { "version 1\n\n0 a.map 1 1 0 0 0 0 long\n",
        "text:3: optimal length must be a number, got 'long'" },
      { "version 1\n0 a.map 1 1 0 0 0 0 -1\n",
        "text:2: optimal length must be a number, got '-1'" },
      { "version 1\n0 a.map 1 1 0 0 0 0 nan\n",
        "text:2: optimal length must be a number, got 'nan'" },
      { "version 1\n0 a.map 1 1 0 0 0 0 inf\n",
        "text:2: optimal length must be a number, got 'inf'" },
    }
    local inf = "version 1\n0 a.map 1 1 0 0 0 0 1" .. string.rep("0", 400) .. "\n"
    cases[#cases + 1] = { inf, "text:2: optimal length must be at most 1073741824, got '1"
      .. string.rep("0", 400) .. "'" }
    cases[#cases + 1] = { "version 1\n0 a.map 0 1 0 0 0 0 1\n",
      "text:2: map width must be in [1, 16384], got 0" }
    cases[#cases + 1] = { "version 1\n0 a.map 4 99999 0 0 0 0 1\n",
      "text:2: map height must be in [1, 16384], got 99999" }
    cases[#cases + 1] = { "version 1\n0 a.map 4 4 0 0 4 0 1\n",
      "text:2: goal x must be below the map's width 4, got 4" }
    cases[#cases + 1] = { "version 1\n0 a.map 4 4 0 7 0 0 1\n",
      "text:2: start y must be below the map's height 4, got 7" }
    for _, case in ipairs(cases) do
      assert.are.equal("wayfinder.movingai.parse_scenarios: " .. case[2],
        error_of(movingai.parse_scenarios, case[1]))
    end
    assert.are.equal("wayfinder.movingai.parse_scenarios: my.scen:2: expected 9 fields, got 3",
      error_of(movingai.parse_scenarios, "version 1\n1 2 3\n", "my.scen"))
  end)

  it("refuses text that is not a string", function()
    assert.are.equal("wayfinder.movingai.parse_scenarios: text must be a string, got nil",
      error_of(movingai.parse_scenarios, nil))
    assert.are.equal("wayfinder.movingai.parse_scenarios: text must be a string, got table",
      error_of(movingai.parse_scenarios, {}))
  end)
end)

describe("wayfinder.movingai.load_scenarios", function()
  it("loads a file", function()
    local q = movingai.load_scenarios(DATA .. "arena.map.scen")
    assert.are.equal(160, #q)
    assert.are.same({ bucket = 0, map = "maps/dao/arena.map", width = 49, height = 49,
      sx = 1, sy = 11, gx = 1, gy = 12, length = 1, tolerance = 1e-3, line = 2 }, q[1])
    -- den011d.map.scen ends with a blank line
    assert.are.equal(780, #movingai.load_scenarios(DATA .. "den011d.map.scen"))
    assert.are.equal(1940, #movingai.load_scenarios(DATA .. "8room_000.map.scen"))
  end)

  it("names the file and line in errors", function()
    with_file("version 1\n0 a.map 1 1 0 0 0 0 1\n0 a.map 1 1 0 0\n", function(path)
      local want = "wayfinder.movingai.load_scenarios: %s:3: expected 9 fields, got 6"
      assert.are.equal(want:format(path), error_of(movingai.load_scenarios, path))
    end)
  end)

  it("returns nil and a message for a file it cannot read", function()
    local q, msg = movingai.load_scenarios("spec/data/maps/no-such-file.scen")
    assert.is_nil(q)
    assert.are.equal("spec/data/maps/no-such-file.scen: No such file or directory", msg)
    q, msg = movingai.load_scenarios("spec/data/maps")
    assert.is_nil(q)
    assert.are.equal("cannot read 'spec/data/maps'", msg)
  end)

  it("refuses a path that is not a string", function()
    assert.are.equal("wayfinder.movingai.load_scenarios: path must be a string, got number",
      error_of(movingai.load_scenarios, 42))
  end)
end)

describe("wayfinder.movingai.tolerance", function()
  it("is half a unit of the last printed digit, never less than 1e-3", function()
    -- with a decimal point: half a unit of the last decimal; a whole number
    -- comes from a file printing 6 significant digits: half a unit of the
    -- 6th significant digit
    local cases = {
      { "3.41421", 1e-3 },        -- %g, 6 significant digits: 5e-6, raised to 1e-3
      { "1005.74", 0.005 },       -- %g with 4 whole digits: 2 decimals
      { "311.82", 0.005 },        -- 2-decimal files
      { "12.25", 0.005 },
      { "3.5", 0.05 },            -- one decimal printed
      { "62.1543", 1e-3 },
      { "779.985", 1e-3 },        -- 3 decimals: 5e-4, raised to 1e-3
      { "1539.80000000", 1e-3 },  -- 8-decimal city files
      { "7", 1e-3 },              -- 5e-6, raised to 1e-3
      { "4787", 0.005 },          -- 4 whole digits: 2 more significant ones
      { "12345", 0.05 },
      { "123456", 0.5 },
      { "0", 1e-3 },
      { "2.", 0.5 },              -- a point and no decimals: the units digit
    }
    for _, case in ipairs(cases) do
      assert.are.equal(case[2], movingai.tolerance(case[1]), case[1])
    end
  end)

  it("is what parse_scenarios attaches to each query", function()
    local q = movingai.parse_scenarios("version 1\n0 m 9 9 0 0 1 1 1.41421\n0 m 9 9 0 0 1 1 12.5\n")
    assert.are.equal(movingai.tolerance("1.41421"), q[1].tolerance)
    assert.are.equal(movingai.tolerance("12.5"), q[2].tolerance)
  end)
end)
