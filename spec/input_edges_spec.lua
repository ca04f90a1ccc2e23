-- Edge cases of input that once slipped through: NUL bytes in names and
-- paths, options checked before any file is read, strict scenario syntax,
-- and line numbers in parse errors.
local wayfinder = require("wayfinder")

local function message_of(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return (tostring(err):gsub("^[^:]*:%d+: ", ""))
end

describe("NUL bytes", function()
  it("are refused in class names", function()
    assert.are.equal("wayfinder.grid.new: options.classes[1].name must not contain a NUL byte",
      message_of(wayfinder.grid.new, 4, 4, { classes = { { name = "a\0b" } } }))
  end)

  it("never match a class when given as a class argument", function()
    local g = wayfinder.grid.new(4, 4, { classes = { { name = "a" } } })
    assert.are.equal("grid:is_passable: class must name a class of this grid, got 'a'",
      message_of(g.is_passable, g, 0, 0, "a\0zzz"))
    assert.are.equal("grid:find_path: options.class must name a class of this grid, got 'a'",
      message_of(g.find_path, g, 0, 0, 1, 1, { class = "a\0zzz" }))
    assert.is_true(g:is_passable(0, 0, "a"))
  end)

  it("are refused in map paths", function()
    assert.are.equal("wayfinder.grid.load_movingai: path must not contain a NUL byte",
      message_of(wayfinder.grid.load_movingai, "spec/data/maps/arena.map\0junk"))
  end)
end)

describe("wayfinder.grid.load_movingai options", function()
  it("are checked before the file is opened", function()
    assert.are.equal("wayfinder.grid.load_movingai: unknown options key 'bogus'",
      message_of(wayfinder.grid.load_movingai, "missing.map", { bogus = 1 }))
    local g, err = wayfinder.grid.load_movingai("missing.map", { border = 1 })
    assert.is_nil(g)
    assert.are.equal("cannot open 'missing.map'", err)
  end)
end)

describe("parse error line numbers", function()
  local function write_temp(text)
    local path = os.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
    return path
  end

  it("name line 1 for an empty map file", function()
    local path = write_temp("")
    local msg = message_of(wayfinder.grid.load_movingai, path)
    os.remove(path)
    assert.are.equal("wayfinder.grid.load_movingai: " .. path
      .. ":1: expected 'type octile' on the first line", msg)
  end)

  it("name a real line for ASCII text that is too wide", function()
    assert.are.equal("wayfinder.grid.from_ascii: text:1: map size out of range",
      message_of(wayfinder.grid.from_ascii, ("."):rep(16385)))
  end)
end)

describe("scenario syntax", function()
  local parse = wayfinder.movingai.parse_scenarios
  local P = "wayfinder.movingai.parse_scenarios: text:"

  it("accepts exactly 'version 1' and 'version 1.0'", function()
    assert.are.same({}, parse("version 1\n"))
    assert.are.same({}, parse("version 1.0\r\n"))
    assert.are.equal(P .. "1: expected 'version 1' header", message_of(parse, "version 10\n"))
    assert.are.equal(P .. "1: expected 'version 1' header", message_of(parse, "version 1.5\n"))
  end)

  it("accepts only decimal digits in number fields", function()
    local head = "version 1\n"
    assert.are.equal(P .. "2: field 5 must be a whole number, got '0x1'",
      message_of(parse, head .. "0 m 4 4 0x1 0 3 3 4.24\n"))
    assert.are.equal(P .. "2: field 6 must be a whole number, got '1e0'",
      message_of(parse, head .. "0 m 4 4 1 1e0 3 3 4.24\n"))
    assert.are.equal(P .. "2: optimal length must be a number, got '4e0'",
      message_of(parse, head .. "0 m 4 4 1 1 3 3 4e0\n"))
    assert.are.equal(P .. "2: optimal length must be a number, got '-1'",
      message_of(parse, head .. "0 m 4 4 1 1 3 3 -1\n"))
    assert.are.equal(4.24, parse(head .. "0 m 4 4 1 1 3 3 4.24\n")[1].length)
  end)
end)
