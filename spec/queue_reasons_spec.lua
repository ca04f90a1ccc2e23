-- The queue and grid:find_path give the same outcome, and the same reason,
-- for the same request, whatever fails first (start outside, goal outside,
-- start blocked, goal blocked) and whatever the options.
local wayfinder = require("wayfinder")

describe("queue and find_path reasons", function()
  it("agree for every combination of start, goal and options", function()
    local g = wayfinder.grid.from_ascii("@.......\n..@.....\n........\n")
    local q = wayfinder.queue.new(g)
    local points = { { 0.5, 0.5 }, { 2.5, 1.5 }, { 4.5, 2.5 }, { -3, 0.5 }, { 20.5, 1.5 },
      { 3.5, -2 } }
    local goals = { nil, { shape = "circle", radius = 1 }, { shape = "square",
      half_width = 0.5, half_height = 0.5 } }
    local options = { {}, { escape = false }, { rewrite_goal = false },
      { escape = false, rewrite_goal = false } }
    local compared, failures = 0, {}
    for _, s in ipairs(points) do
      for _, t in ipairs(points) do
        for gi = 1, 3 do
          for _, o in ipairs(options) do
            local goal = goals[gi]
            local p1, r1 = g:find_path(s[1], s[2], t[1], t[2],
              { escape = o.escape, rewrite_goal = o.rewrite_goal, goal = goal })
            local h = q:submit({ sx = s[1], sy = s[2], gx = t[1], gy = t[2], goal = goal,
              escape = o.escape, rewrite_goal = o.rewrite_goal })
            q:run()
            local p2, r2 = h:result()
            compared = compared + 1
            local a, b = p1 and "path" or r1, p2 and "path" or r2
            if a ~= b then
              failures[#failures + 1] = ("(%g,%g)->(%g,%g) goal %d escape %s rewrite %s: "
                .. "find_path %s, queue %s"):format(s[1], s[2], t[1], t[2], gi,
                tostring(o.escape), tostring(o.rewrite_goal), a, b)
            end
          end
        end
      end
    end
    assert.are.same({}, failures)
    assert.is_true(compared > 0)
  end)

  it("a blocked start with the goal off the grid is goal_outside in both", function()
    local g = wayfinder.grid.from_ascii("@.......\n........\n")
    local q = wayfinder.queue.new(g)
    local plain = { escape = false, rewrite_goal = false }
    local _, r1 = g:find_path(0.5, 0.5, 20.5, 0.5, plain)
    local h = q:submit({ sx = 0.5, sy = 0.5, gx = 20.5, gy = 0.5, escape = false,
      rewrite_goal = false })
    q:run()
    local _, r2 = h:result()
    assert.are.equal("goal_outside", r1)
    assert.are.equal("goal_outside", r2)
  end)
end)
