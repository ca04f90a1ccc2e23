-- grid:find_path with the scale options: goal rewriting, escaping from an
-- impassable start, expansion caps and partial paths.
local wayfinder = require("wayfinder")
local H = require("scale_helpers")

local ROOM, cells, close = H.ROOM, H.cells, H.close

local function two(a, b)
  return { a, b }
end

describe("grid:find_path goal rewriting", function()
  it("rewrites an unreachable point goal to the nearest reachable navcell", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local path, len, info = g:find_path(0.5, 0.5, 4.5, 2.5, { algorithm = "astar" })
    assert.is_true(info.goal_rewritten)
    assert.are.same({ x = 4, y = 0, 4, 0 }, info.goal)
    assert.are.same({ { 0, 0 }, { 4, 0 } }, cells(path))
    assert.are.equal(4, len)
    assert.is_false(info.escaped)
    assert.is_false(info.partial)
  end)

  it("keeps a reachable goal and says so", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local path, _, info = g:find_path(0.5, 0.5, 9.5, 5.5)
    assert.is_false(info.goal_rewritten)
    assert.is_nil(info.goal)
    assert.are.same({ 9, 5 }, cells(path)[#path])
  end)

  it("rewrites blocked and off-grid goals too", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local path, _, info = g:find_path(0.5, 0.5, 2.5, 1.5)
    assert.is_true(info.goal_rewritten)
    -- (2, 1) is blocked: (2, 0) and (1, 1) are at distance 1; lower row wins
    assert.are.same({ x = 2, y = 0, 2, 0 }, info.goal)
    assert.are.same({ 2, 0 }, cells(path)[#path])
    path, _, info = g:find_path(0.5, 0.5, 30.25, 5.75)
    assert.is_true(info.goal_rewritten)
    assert.are.same({ 9, 5 }, { info.goal.x, info.goal.y })
    assert.are.same({ 9, 5 }, cells(path)[#path])
  end)

  it("rewrites a shape goal with no reachable navcell", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local _, _, info = g:find_path(0.5, 0.5, 4.5, 2.5,
      { goal = { shape = "circle", radius = 0.5 } })
    assert.is_true(info.goal_rewritten)
    assert.are.same({ 4, 0 }, { info.goal.x, info.goal.y })
    -- a larger circle reaches (3..5, 0) outside the room: no rewriting
    local path
    path, _, info = g:find_path(0.5, 0.5, 4.5, 2.5,
      { goal = { shape = "circle", radius = 2 } })
    assert.is_false(info.goal_rewritten)
    assert.are.same({ 3, 0 }, cells(path)[#path])
  end)

  it("keeps the old reasons with rewrite_goal = false", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local p, why, info = g:find_path(0.5, 0.5, 4.5, 2.5, { rewrite_goal = false })
    assert.is_nil(p)
    assert.are.equal("unreachable", why)
    assert.is_false(info.goal_rewritten)
    assert.is_true(info.expanded > 0)
    assert.are.same({ nil, "goal_blocked" },
      two(g:find_path(0.5, 0.5, 2.5, 1.5, { rewrite_goal = false })))
    assert.are.same({ nil, "goal_outside" },
      two(g:find_path(0.5, 0.5, 30, 3, { rewrite_goal = false })))
    assert.are.same({ nil, "start_outside" }, two(g:find_path(-1, 0, 3, 3)))
  end)

  for _, seed in ipairs({ 6, 13, 27 }) do
    it(("paths to rewritten goals are optimal, seed %d"):format(seed), function()
      local r = H.rng(seed)
      local w, h = r.int(12, 30), r.int(12, 30)
      local g = wayfinder.grid.from_ascii(H.random_ascii(r, w, h, 42))
      local tried = 0
      for _ = 1, 200 do
        local sx, sy = r.int(0, w - 1), r.int(0, h - 1)
        local gx, gy = r.int(0, w - 1), r.int(0, h - 1)
        if g:is_passable(sx, sy) then
          local path, len, info = g:find_path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5)
          assert.is_table(path)
          local ex, ey, inside = g:nearest_reachable(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5)
          assert.are.equal(not inside, info.goal_rewritten)
          assert.are.same({ ex, ey }, cells(path)[#path])
          local _, len2 = g:find_path(sx + 0.5, sy + 0.5, ex + 0.5, ey + 0.5,
            { rewrite_goal = false, algorithm = "astar" })
          assert.is_true(close(len, len2))
          assert.is_true(close(len, H.walk(g, path)))
          tried = tried + 1
        end
      end
      assert.is_true(tried > 50)
    end)
  end
end)

describe("grid:find_path escape", function()
  it("first walks straight to the nearest passable navcell", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local path, len, info = g:find_path(2.5, 1.5, 9.5, 5.5)
    assert.is_true(info.escaped)
    assert.are.same({ x = 2, y = 0, 2, 0 }, info.escape)
    assert.are.equal(1, info.escape_length)
    assert.are.same({ 2, 1 }, cells(path)[1])
    assert.are.same({ 2, 0 }, cells(path)[2])
    local _, rest = g:find_path(2.5, 0.5, 9.5, 5.5)
    assert.is_true(close(len, 1 + rest))
    assert.is_true(close(info.cost, rest))
  end)

  it("escapes diagonally when that is nearest", function()
    local g = wayfinder.grid.from_ascii(table.concat({
      "@@@.",
      "@@@@",
      "@@@@",
    }, "\n"))
    local path, len, info = g:find_path(1.5, 2.5, 3.5, 0.5)
    assert.is_true(info.escaped)
    assert.are.same({ { 1, 2 }, { 3, 0 } }, cells(path))
    -- lengths in Q16.16: within 2^-16 of the real distance
    assert.is_true(math.abs(info.escape_length - math.sqrt(8)) < 2 ^ -16)
    assert.is_true(math.abs(len - math.sqrt(8)) < 2 ^ -16)
  end)

  it("fails as before with escape = false or nowhere to go", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    assert.are.same({ nil, "start_blocked" },
      two(g:find_path(2.5, 1.5, 9.5, 5.5, { escape = false })))
    local solid = wayfinder.grid.from_ascii("@@\n@@")
    local p, why, info = solid:find_path(0.5, 0.5, 1.5, 1.5)
    assert.is_nil(p)
    assert.are.equal("start_blocked", why)
    assert.is_false(info.escaped)
  end)

  it("combines escape and rewriting", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local path, len, info = g:find_path(2.5, 2.5, 4.5, 2.5)
    -- (2, 2) is wall: (1, 2) and (3, 2) are at distance 1, the lower column
    -- wins, so the unit escapes to the outside and the goal in the room is
    -- rewritten to (4, 0); the wall at (2, 1) forbids the diagonal short cut
    assert.is_true(info.escaped)
    assert.are.same({ 1, 2 }, { info.escape.x, info.escape.y })
    assert.is_true(info.goal_rewritten)
    assert.are.same({ { 2, 2 }, { 1, 2 }, { 1, 0 }, { 4, 0 } }, cells(path))
    assert.are.equal(6, len)
  end)
end)

describe("grid:find_path expansion caps and partial paths", function()
  -- a long corridor: the search needs one expansion per navcell
  local CORRIDOR = table.concat({
    "@@@@@@@@@@@@",
    "@..........@",
    "@@@@@@@@@@@@",
  }, "\n")

  it("stops at max_expansions with expansion_limit", function()
    local g = wayfinder.grid.from_ascii(CORRIDOR)
    local p, why, info = g:find_path(1.5, 1.5, 10.5, 1.5,
      { algorithm = "astar", max_expansions = 4 })
    assert.is_nil(p)
    assert.are.equal("expansion_limit", why)
    assert.are.equal(4, info.expanded)
    local path = g:find_path(1.5, 1.5, 10.5, 1.5, { algorithm = "astar", max_expansions = 10 })
    assert.are.same({ { 1, 1 }, { 10, 1 } }, cells(path))
  end)

  it("returns the path to the expanded node nearest the goal when partial", function()
    local g = wayfinder.grid.from_ascii(CORRIDOR)
    local path, len, info = g:find_path(1.5, 1.5, 10.5, 1.5,
      { algorithm = "astar", max_expansions = 4, partial = true })
    assert.is_true(info.partial)
    assert.are.equal("expansion_limit", info.partial_reason)
    assert.are.same({ { 1, 1 }, { 4, 1 } }, cells(path))
    assert.are.equal(3, len)
    assert.are.equal(4, info.expanded)
  end)

  it("marks a partial path when the goal cannot be reached at all", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local path, len, info = g:find_path(0.5, 0.5, 4.5, 2.5,
      { rewrite_goal = false, partial = true, algorithm = "astar" })
    assert.is_true(info.partial)
    assert.are.equal("unreachable", info.partial_reason)
    -- every reachable navcell was expanded; (4, 0) and (4, 5) have the
    -- lowest octile distance to (4, 2): (4, 0) costs less
    assert.are.same({ 4, 0 }, cells(path)[#path])
    assert.are.equal(4, len)
  end)

  for _, seed in ipairs({ 1, 7, 15 }) do
    it(("a partial A* path ends where brute force says, seed %d"):format(seed), function()
      local r = H.rng(seed)
      local w, h = r.int(10, 24), r.int(10, 24)
      local g = wayfinder.grid.from_ascii(H.random_ascii(r, w, h, 45))
      local checked = 0
      for _ = 1, 60 do
        local sx, sy = r.int(0, w - 1), r.int(0, h - 1)
        local gx, gy = r.int(0, w - 1), r.int(0, h - 1)
        if g:is_passable(sx, sy) and g:is_passable(gx, gy)
            and not g:is_reachable(sx, sy, gx, gy) then
          local path, len, info = g:find_path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5,
            { rewrite_goal = false, partial = true, algorithm = "astar" })
          assert.is_true(info.partial)
          -- exhausted: every reachable navcell was expanded, so the end is the
          -- one with the lowest octile distance to the goal, then the lowest
          -- path length, then the lowest index
          local best
          for y = 0, h - 1 do
            for x = 0, w - 1 do
              if g:is_reachable(sx, sy, x, y) then
                local dx, dy = math.abs(x - gx), math.abs(y - gy)
                local hh = math.max(dx, dy) + (math.sqrt(2) - 1) * math.min(dx, dy)
                local _, d = g:find_path(sx + 0.5, sy + 0.5, x + 0.5, y + 0.5,
                  { rewrite_goal = false, algorithm = "astar" })
                local key = { hh, d, y * w + x }
                local better = not best
                if best then
                  for k = 1, 3 do
                    if math.abs(key[k] - best[k]) > 1e-9 then
                      better = key[k] < best[k]
                      break
                    end
                  end
                end
                if better then best = key end
              end
            end
          end
          local last = path[#path]
          assert.are.equal(best[3], last.y * w + last.x)
          assert.is_true(close(len, best[2]))
          assert.is_true(close(len, H.walk(g, path)))
          checked = checked + 1
        end
      end
      assert.is_true(checked > 5)
    end)
  end

  it("gives JPS partial paths that stay on passable navcells", function()
    local g = wayfinder.grid.from_ascii(ROOM)
    local path, len, info = g:find_path(0.5, 0.5, 4.5, 2.5,
      { rewrite_goal = false, partial = true, algorithm = "jps" })
    assert.is_true(info.partial)
    assert.are.equal("jps", info.algorithm)
    assert.is_true(close(len, H.walk(g, path)))
  end)

  it("rejects bad options", function()
    local g = wayfinder.grid.new(6, 6)
    assert.has_error(function() g:find_path(0, 0, 1, 1, { max_expansions = 0 }) end,
      "grid:find_path: options.max_expansions must be an integer in [1, 9007199254740992], got 0")
    assert.has_error(function() g:find_path(0, 0, 1, 1, { max_expansions = 2.5 }) end,
      "grid:find_path: options.max_expansions must be an integer in [1, 9007199254740992], got 2.5")
    assert.has_error(function() g:find_path(0, 0, 1, 1, { partial = 1 }) end,
      "grid:find_path: options.partial must be a boolean, got 1")
    assert.has_error(function() g:find_path(0, 0, 1, 1, { rewrite_goal = "yes" }) end,
      "grid:find_path: options.rewrite_goal must be a boolean, got 'yes'")
    assert.has_error(function() g:find_path(0, 0, 1, 1, { escape = {} }) end,
      "grid:find_path: options.escape must be a boolean, got a table")
    assert.has_error(function() g:find_path(0, 0, 1, 1, { escpae = true }) end,
      "grid:find_path: unknown options key 'escpae'")
  end)
end)
