-- wayfinder.json, the route files' codec: what it writes, what it reads
-- back, and that malformed text always ends in an error (a decoder that
-- stopped advancing once hung on a DEL byte inside a string).
local compat = require("wayfinder.compat")
local json = require("wayfinder.json")

-- Runs f(...) with an instruction budget: a loop that stops advancing
-- raises instead of hanging (a step bound, not a time bound).
local BUDGET = 10000000
local function bounded(f, ...)
  debug.sethook(function()
    debug.sethook()
    error("did not finish within " .. BUDGET .. " instructions", 0)
  end, "", BUDGET)
  local r = compat.pack(pcall(f, ...))
  debug.sethook()
  assert(r[1], r[2])
  return compat.unpack(r, 2, r.n)
end

describe("wayfinder.json", function()
  it("writes keys in the given order, then sorted, and arrays flat when they can be", function()
    local text = json.encode({ b = 1, a = { 1, 2 }, z = { { x = true } }, c = "s" }, { "z", "c" })
    assert.equal('{\n "z": [\n  {\n   "x": true\n  }\n ],\n "c": "s",\n "a": [1,2],\n "b": 1\n}\n',
      text)
  end)

  it("writes numbers so they read back equal, integers as integers", function()
    for _, v in ipairs({ 0, -7, 1099511627776, 0.1, 1 / 3, -2.5e-300, 1e300 }) do
      local back = json.decode(json.encode({ v }))[1]
      assert.equal(v, back)
      assert.equal(compat.type(v), compat.type(back))
    end
  end)

  it("refuses what JSON cannot hold", function()
    local ok, err = pcall(json.encode, { 0 / 0 })
    assert.is_false(ok)
    assert.matches("^cannot encode the number %-?nan in JSON$", err)
    assert.has_error(function() json.encode({ math.huge }) end,
      "cannot encode the number inf in JSON")
    assert.has_error(function() json.encode({ [true] = 1 }) end,
      "cannot encode a table key of type boolean in JSON")
    assert.has_error(function() json.encode({ print }) end, "cannot encode a function in JSON")
  end)

  it("reads back every byte 0..255 it wrote inside a string", function()
    for b = 0, 255 do
      local s = "a" .. string.char(b) .. "b"
      local text = json.encode({ s = s })
      local written = assert(text:match('"s": (".*")'))
      assert.is_nil(written:find("[" .. compat.NUL .. "\1-\31]"), "raw control byte written for " .. b)
      local v, err = bounded(json.decode, text)
      assert.is_nil(err)
      assert.equal(s, v.s)
    end
  end)

  it("reads every raw byte 0..255 inside a string, or names why not", function()
    for b = 0, 255 do
      local text = '{"s": "a' .. string.char(b) .. 'b"}'
      local v, err = bounded(json.decode, text)
      if b < 32 then
        assert.is_nil(v)
        assert.equal("line 1, column 9: control character in string", err)
      elseif b == 34 then         -- '"' ends the string early
        assert.is_nil(v)
        assert.equal("line 1, column 10: expected ',' or '}'", err)
      elseif b == 92 then         -- '\' with the 'b' after it is the escape \b
        assert.is_nil(err)
        assert.equal("a\b", v.s)
      else                        -- DEL (127) and bytes >= 128 are plain bytes
        assert.is_nil(err, "byte " .. b)
        assert.equal("a" .. string.char(b) .. "b", v.s)
      end
    end
  end)

  it("fails on every truncation of a document, naming line and column", function()
    -- a route file in small: objects, arrays, escapes, every kind of number
    local text = '{"format": "wayfinder.route", "version": 1, "room": {"width": 3,'
      .. ' "doors": [4], "walls": [], "objects": [{"id": "sofa", "x0": 0.5, "walk_over": false}]},'
      .. ' "query": {"start": [1.25, -2], "goal": [2e1, 3E-1], "mode": "n\\u00e9ar\\t\\"x\\""},'
      .. ' "result": {"status": "done", "points": [[1, 2], [3.5, 4]], "ok": true}}'
    assert.is_table(json.decode(text))
    for n = 0, #text - 1 do
      local v, err = bounded(json.decode, text:sub(1, n))
      assert.is_nil(v, "prefix of " .. n .. " bytes")
      assert.matches("^line %d+, column %d+: ", err)
    end
  end)

  it("decodes the document null to nil with no message, and refuses null in an array", function()
    local v, err = json.decode(" null ")
    assert.is_nil(v)
    assert.is_nil(err)
    assert.same({ nil, "line 1, column 9: null inside an array" }, { json.decode("[1, null]") })
  end)
end)
