-- Route files: planner:save_route, wayfinder.rectplan.load_route and
-- decode_route; a loaded route plans again to the same points.
local rectplan = require("wayfinder.rectplan")
local H = require("rectplan_helper")

local function tmpname()
  local p = os.tmpname()
  return p
end

local function furnished()
  local room = H.box_room(9, 7, { objects = {
    { id = "table", x0 = 3.1, y0 = 2.3, x1 = 5.7, y1 = 4.9, room = 1 },
    { id = 'odd "name"\\\n\tx', x0 = 6.2, y0 = 1.1, x1 = 6.9, y1 = 1.6, room = 1 },
    { id = 12, x0 = 7, y0 = 5, x1 = 8, y1 = 6, room = 1, person = true },
    { id = 13.5, x0 = 2, y0 = 6, x1 = 3, y1 = 7, room = 1, walk_over = true, penalty = 0.5 },
    { id = "lamp", x0 = 3.5, y0 = 2.5, x1 = 3.75, y1 = 2.75, room = 1, contained = true },
  }, walls = { { 6, 3, 6, 6 } } })
  room.doors[5] = true
  return room
end

local function query()
  return { start = { 1.3, 1.7 }, goal = { 8.9, 6.1 }, width = 0.45, start_object = 13.5,
    ignore_people_within = 0.1, terrain = { { x0 = 1, y0 = 4, x1 = 3, y1 = 6, penalty = 2 } },
    tuning = { step = 0.3, max_node_size = 3.3 } }
end

describe("route files", function()
  it("load back the room and query, and plan again to the same points", function()
    local room, q = furnished(), query()
    local p = rectplan.planner(room, q)
    local pts, info = p:run()
    assert.is_table(pts)
    local path = tmpname()
    assert.is_true(p:save_route(path))
    local room2, q2, result, doc = rectplan.load_route(path)
    os.remove(path)
    assert.same(room, room2)
    assert.same(q, q2)
    assert.same(pts, result.points)
    assert.equal(info.length, result.length)
    assert.equal("done", result.status)
    assert.same({ rectplan.plan(room, q) }, { rectplan.plan(room2, q2) })
    assert.equal(p:state().step, doc.trace.steps)
    assert.equal(#p:state().nodes, #doc.trace.nodes)
    assert.equal(#p:state().vertices, #doc.trace.vertices)
    assert.same(p:tuning(), doc.tuning)
  end)

  it("round-trip on random rooms, point and near mode", function()
    for seed = 1, 25 do
      local room, point = H.random_room(7000 + seed, 6 + seed % 9, 3 + seed % 15)
      local q = { start = point(0.5), goal = point(0.5), width = 0.5 }
      if seed % 2 == 0 then q.mode, q.near = "near", 0.7 end
      local p = rectplan.planner(room, q)
      local pts, why = p:run()
      local room2, q2, result = rectplan.decode_route(p:route_text())
      local pts2, why2 = rectplan.plan(room2, q2)
      assert.same(pts, pts2)
      assert.same(pts, result.points)
      if not pts then
        assert.equal(why, why2)
        assert.equal(why, result.reason)
        assert.equal("failed", result.status)
      end
    end
  end)

  it("write the same text for the same planning call", function()
    local a = rectplan.planner(furnished(), query())
    local b = rectplan.planner(furnished(), query())
    a:run()
    b:run()
    assert.equal(a:route_text(), b:route_text())
  end)

  it("hold the documented sections in a fixed order", function()
    local p = rectplan.planner(furnished(), query())
    p:run()
    local text = p:route_text()
    local keys = {}
    for k in text:gmatch('\n "([%w_]+)":') do keys[#keys + 1] = k end
    assert.same({ "format", "version", "room", "query", "tuning", "bounds", "obstacles",
      "inflated", "skipped", "result", "trace" }, keys)
    local _, _, _, doc = rectplan.decode_route(text)
    assert.equal("wayfinder.route", doc.format)
    assert.equal(1, doc.version)
    assert.same({ 5 }, doc.room.doors)
    assert.same({ box = { 0, -1, 11, 0 }, kind = "boundary" }, doc.obstacles[1])  -- the door
    assert.same({ id = 13.5, rule = "start_object", index = 4 }, doc.skipped[1])
    local v = doc.trace.vertices[1]           -- the start, rounded to Q16.16
    local function q16(x) return math.floor(x * 65536 + 0.5) / 65536 end
    assert.same({ q16(1.3), q16(1.7), 1, 0 }, { v[1], v[2], v[3], v[4] })
  end)

  it("replan the sample files to the points they hold", function()
    for _, name in ipairs({ "sample.route.json", "near.route.json" }) do
      local room, q, result = rectplan.load_route("spec/data/routes/" .. name)
      assert.equal("done", result.status)
      local pts = rectplan.plan(room, q)
      assert.same(result.points, pts)
    end
  end)

  it("give nil and a message for a file that cannot be read or written", function()
    local r, msg = rectplan.load_route("spec/data/routes/no-such-file.json")
    assert.is_nil(r)
    assert.matches("no%-such%-file%.json", msg)
    local p = rectplan.planner(furnished(), query())
    local ok, err = p:save_route("/nonexistent-dir/x.route.json")
    assert.is_nil(ok)
    assert.matches("nonexistent%-dir", err)
  end)

  describe("malformed text", function()
    local good = rectplan.planner(furnished(), query())
    good:run()
    local text = good:route_text()

    local function fails(t, msg)
      assert.has_error(function() rectplan.decode_route(t, "f.json") end,
        "wayfinder.rectplan.decode_route: f.json" .. msg)
    end

    it("names the line and column of a JSON error", function()
      fails("", ": line 1, column 1: unexpected end of text")
      fails("{", ": line 1, column 2: expected a string key")
      fails('{"a" 1}', ": line 1, column 6: expected ':'")
      fails('{"a": 1,}', ": line 1, column 9: expected a string key")
      fails('[1 2]', ": line 1, column 4: expected ',' or ']'")
      fails('{"a": 1}\n x', ": line 2, column 2: text after the value")
      fails('{"a": "b', ": line 1, column 9: unterminated string")
      fails('{"a": "\\q"}', ": line 1, column 8: bad escape '\\q'")
      fails('{"a": "\\u12"}', ": line 1, column 8: bad \\u escape")
      fails('{"a": 1, "a": 2}', ": line 1, column 16: duplicate key 'a'")
      fails('[1, null]', ": line 1, column 9: null inside an array")
      fails('{"a": tru}', ": line 1, column 7: unexpected 't'")
      fails(("["):rep(70), ": line 1, column 66: nesting too deep")
      fails('{"a": "x\ty"}', ": line 1, column 9: control character in string")
    end)

    it("names what is wrong with a well-formed document", function()
      fails("[1, 2]", ": format must be 'wayfinder.route', got nil")
      fails('{"format": "wayfinder.route", "version": 2}', ": version must be 1, got 2")
      fails('{"format": "wayfinder.route", "version": 1}', ": room must be an object")
      fails('{"format": "wayfinder.route", "version": 1, "room": {}}', ": query must be an object")
      fails(text:gsub('"width": 11', '"width": -3'),
        ": room.width must be an integer in [1, 4096], got -3")
      fails(text:gsub('"doors": %[5%]', '"doors": ["x"]'),
        ": room.doors[1] must be an integer tile index")
      fails(text:gsub('"x1": 5.7', '"x1": 2'),
        ": room.objects[1] has a negative width (x1 2 < x0 3.1)")
      fails(text:gsub('"start": %[1.3,1.7%]', '"modus": 1, "start": [1.3,1.7]'),
        ": unknown query key 'modus'")
      fails(text:gsub('"result": {', '"result": 5, "x": {'), ": result must be an object")
    end)

    it("end with an error on a DEL byte inside a string (the decoder once hung on it)", function()
      -- an instruction budget turns a hang into a failure (a step bound, not a time bound)
      local function bounded(f, ...)
        debug.sethook(function() debug.sethook(); error("did not finish", 0) end, "", 10000000)
        local ok, err = pcall(f, ...)
        debug.sethook()
        return ok, ok and err or (tostring(err):gsub("^[^:]*:%d+: ", ""))
      end
      local ok, err = bounded(rectplan.decode_route, '{"format": "a\127b"}')
      assert.is_false(ok)
      assert.equal("wayfinder.rectplan.decode_route: text: format must be 'wayfinder.route', "
        .. 'got "a\\127b"', err)
      local path = tmpname()
      local f = assert(io.open(path, "wb"))
      f:write('{"format": "a\127b"}')
      f:close()
      ok, err = bounded(rectplan.load_route, path)
      os.remove(path)
      assert.is_false(ok)
      assert.equal("wayfinder.rectplan.load_route: " .. path .. ": format must be "
        .. "'wayfinder.route', got \"a\\127b\"", err)
      -- the byte is kept as it is inside a string that is otherwise good
      local room
      ok, room = bounded(function()
        return rectplan.decode_route((text:gsub('"table"', '"ta\127ble"')))
      end)
      assert.is_true(ok)
      assert.equal("ta\127ble", room.objects[1].id)
    end)

    it("rejects arguments of the wrong type", function()
      assert.has_error(function() rectplan.decode_route(42) end,
        "wayfinder.rectplan.decode_route: text must be a string, got number")
      assert.has_error(function() rectplan.decode_route("{}", 42) end,
        "wayfinder.rectplan.decode_route: source must be a string, got number")
      assert.has_error(function() rectplan.load_route() end,
        "wayfinder.rectplan.load_route: path must be a string, got nil")
      assert.has_error(function() good:save_route(5) end,
        "planner:save_route: path must be a string, got number")
    end)

    it("names the file when a loaded file is malformed", function()
      local path = tmpname()
      local f = assert(io.open(path, "wb"))
      f:write("{\n  \"format\": 7\n}\n")
      f:close()
      assert.has_error(function() rectplan.load_route(path) end,
        "wayfinder.rectplan.load_route: " .. path .. ": format must be 'wayfinder.route', got 7")
      f = assert(io.open(path, "wb"))
      f:write("{\n  \"format\" 7\n}\n")
      f:close()
      assert.has_error(function() rectplan.load_route(path) end,
        "wayfinder.rectplan.load_route: " .. path .. ": line 2, column 12: expected ':'")
      os.remove(path)
    end)
  end)
end)
