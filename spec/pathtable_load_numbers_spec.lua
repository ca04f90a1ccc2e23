-- wayfinder.pathtable.load_grid refuses a header number too long to be
-- one (a float past the integer range) as a corrupt file with nil and a
-- reason, instead of raising from inside the loader.
local wayfinder = require("wayfinder")
local pathtable = wayfinder.pathtable

local MAP = "......\n.@@...\n......\n"

local function saved_text()
  local g = wayfinder.grid.from_ascii(MAP)
  local name = os.tmpname()
  assert(pathtable.build_grid(g):save(name))
  local f = assert(io.open(name, "rb"))
  local text = f:read("*a")
  f:close()
  return g, name, text
end

local function load_text(g, name, text)
  local f = assert(io.open(name, "wb"))
  f:write(text)
  f:close()
  return pathtable.load_grid(name, g)
end

describe("wayfinder.pathtable.load_grid and huge header numbers", function()
  local g, name, text
  before_each(function() g, name, text = saved_text() end)
  after_each(function() os.remove(name) end)

  local HUGE = "99999999999999999999"
  local lines = {
    { "version", "\nversion %d+\n", "\nversion " .. HUGE .. "\n", "the version is not a number" },
    { "width", "\nsize %d+ ", "\nsize " .. HUGE .. " ", "a header number has more than 15 digits" },
    { "height", "(\nsize %d+) %d+\n", "%1 " .. HUGE .. "\n", "a header number has more than 15 digits" },
    { "hash", "\nhash %d+\n", "\nhash " .. HUGE .. "\n", "a header number has more than 15 digits" },
    { "row bytes", "(\nrows %d+) %d+\n", "%1 " .. HUGE .. "\n", "a header number has more than 15 digits" },
  }
  for _, c in ipairs(lines) do
    it("refuses a " .. c[1] .. " of 20 digits as corrupt", function()
      local bad, n = text:gsub(c[2], c[3], 1)
      assert.equals(1, n)
      local t, reason, msg = load_text(g, name, bad)
      assert.is_nil(t)
      assert.equals("corrupt", reason)
      assert.equals(c[4], msg)
    end)
  end

  it("still loads the file as saved", function()
    local t = assert(load_text(g, name, text))
    assert.is_true(t:matches(g))
    assert.truthy(t:find_path(0, 0, 5, 2))
  end)
end)
