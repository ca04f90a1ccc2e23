-- Every behavior node type, run by a person in a world, and the node
-- constructors' argument checks.
local world = require("wayfinder.world")
local bt = require("wayfinder.bt")

-- A world with one person running `tree`; returns the world, the person
-- and the log the scripted actions write to.
local function setup(tree, extra)
  local log = {}
  local w = world.new { width = 6, height = 6, trees = extra }
  w:add_tree("t", tree)
  local p = w:add_person { x = 0.5, y = 0.5 }
  p:push("t")
  return w, p, log
end

-- An action that logs `name` and returns the next of `results` each call
-- (the last one repeats).
local function act(log, name, results)
  local n = 0
  return bt.action(function()
    n = n + 1
    log[#log + 1] = name
    return results[math.min(n, #results)]
  end, { name = name })
end

-- Ticks until the person's stack is empty (at most `limit` ticks);
-- returns the number of ticks and the final result.
local function finish(w, p, limit)
  for t = 1, limit do
    w:tick()
    if #p:frame_stack() == 0 then return t, p:state().last_result end
  end
  return nil, "still running"
end

describe("composite nodes", function()
  it("sequence: runs children in order and succeeds when all do", function()
    local log = {}
    local w, p = setup(bt.sequence { act(log, "a", { true }), act(log, "b", { "success" }) })
    assert.are.same({ 1, "success" }, { finish(w, p, 5) })
    assert.are.same({ "a", "b" }, log)
  end)

  it("sequence: stops at the first failure", function()
    local log = {}
    local w, p = setup(bt.sequence { act(log, "a", { false }), act(log, "b", { true }) })
    assert.are.same({ 1, "failure" }, { finish(w, p, 5) })
    assert.are.same({ "a" }, log)
  end)

  it("sequence: resumes at the running child, not from the start", function()
    local log = {}
    local w, p = setup(bt.sequence {
      act(log, "a", { true }), act(log, "b", { "running", "running", true }),
      act(log, "c", { true }),
    })
    assert.are.same({ 3, "success" }, { finish(w, p, 5) })
    assert.are.same({ "a", "b", "b", "b", "c" }, log)
  end)

  it("selector: stops at the first success and fails when all fail", function()
    local log = {}
    local w, p = setup(bt.selector { act(log, "a", { false }), act(log, "b", { true }),
      act(log, "c", { true }) })
    assert.are.same({ 1, "success" }, { finish(w, p, 5) })
    assert.are.same({ "a", "b" }, log)
    local log2 = {}
    local w2, p2 = setup(bt.selector { act(log2, "a", { false }), act(log2, "b", { false }) })
    assert.are.same({ 1, "failure" }, { finish(w2, p2, 5) })
    assert.are.same({ "a", "b" }, log2)
  end)

  it("fallback: is the selector under another name, resuming a running child", function()
    local log = {}
    local w, p = setup(bt.fallback { act(log, "a", { false }), act(log, "b", { "running", false }),
      act(log, "c", { true }) })
    assert.are.same({ 2, "success" }, { finish(w, p, 5) })
    assert.are.same({ "a", "b", "b", "c" }, log)
  end)

  it("invert, succeed and fail: change finished results, pass running through", function()
    local cases = {
      { bt.invert, true, "failure" }, { bt.invert, false, "success" },
      { bt.succeed, false, "success" }, { bt.succeed, true, "success" },
      { bt.fail, true, "failure" }, { bt.fail, false, "failure" },
    }
    for _, c in ipairs(cases) do
      local log = {}
      local w, p = setup(c[1](act(log, "x", { "running", c[2] })))
      assert.are.same({ 2, c[3] }, { finish(w, p, 5) })
    end
  end)

  it("retry: runs the child again after failures, at most n runs", function()
    local log = {}
    local w, p = setup(bt.retry(3, act(log, "x", { false, false, true })))
    assert.are.same({ 1, "success" }, { finish(w, p, 5) })
    assert.are.same({ "x", "x", "x" }, log)
    local log2 = {}
    local w2, p2 = setup(bt.retry(2, act(log2, "y", { false })))
    assert.are.same({ 1, "failure" }, { finish(w2, p2, 5) })
    assert.are.same({ "y", "y" }, log2)
  end)

  it("loop: starts the child once per tick and succeeds after `times` completions", function()
    local log = {}
    local w, p = setup(bt.loop(act(log, "x", { true, false, true }), 3))
    assert.are.same({ 3, "success" }, { finish(w, p, 10) })
    assert.are.same({ "x", "x", "x" }, log)
    local log2 = {}
    local w2, p2 = setup(bt.loop(act(log2, "y", { true })))
    assert.are.same({ nil, "still running" }, { finish(w2, p2, 4) })
    assert.are.equal(4, #log2)
  end)
end)

describe("leaf nodes", function()
  it("action: gets the world, person, stack object, node state and frame memory", function()
    local seen = {}
    local tree = bt.sequence {
      bt.action(function(ctx)
        ctx.state.n = (ctx.state.n or 0) + 1
        ctx.memory.calls = (ctx.memory.calls or 0) + 1
        seen[#seen + 1] = { ctx.state.n, ctx.memory.calls, ctx.object, ctx:stack_object() ~= nil,
          ctx.person.id, ctx.world:now() }
        if ctx.state.n < 3 then return "running" end
        return true
      end),
      bt.action(function(ctx)
        ctx.memory.calls = ctx.memory.calls + 1
        ctx.data.done = ctx.memory.calls
        return true
      end),
    }
    local w = world.new { width = 4, height = 4 }
    w:add_tree("t", tree)
    local lamp = w:add_object { type = "lamp", x = 3, y = 3 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("t", lamp.id)
    w:tick(4)
    assert.are.same({ { 1, 1, 1, true, 2, 1 }, { 2, 2, 1, true, 2, 2 }, { 3, 3, 1, true, 2, 3 } },
      seen)
    assert.are.equal(4, p.data.done)
  end)

  it("action: a result other than success/failure/running/boolean is an error", function()
    local w, p = setup(bt.action(function() return 42 end, { name = "answer" }))
    w:tick()
    assert.are.equal("action 'answer' returned 42; expected 'success', 'failure', 'running' "
      .. "or a boolean", p:state().last_error)
    assert.are.equal("failure", p:state().last_result)
  end)

  it("action: its halt runs once when a running action is abandoned", function()
    local halts = 0
    local w, p = setup(bt.action(function() return "running" end,
      { halt = function() halts = halts + 1 end }))
    w:tick(3)
    p:halt()
    assert.are.equal(1, halts)
    assert.are.same({}, p:state().frames)
    p:halt()
    assert.are.equal(1, halts)
  end)

  it("condition: succeeds on a true value; on failure names its reason", function()
    local w, p = setup(bt.sequence {
      bt.condition(function() return 1 end),
      bt.condition(function() return nil end, "too_dark"),
    })
    assert.are.same({ 1, "failure" }, { finish(w, p, 3) })
    assert.are.equal("too_dark", p:last_failure())
  end)

  it("wait: runs for `ticks` ticks, then succeeds", function()
    local w, p = setup(bt.wait(3))
    assert.are.same({ 4, "success" }, { finish(w, p, 10) })
    local w0, p0 = setup(bt.wait(0))
    assert.are.same({ 1, "success" }, { finish(w0, p0, 10) })
  end)

  it("subtree: pushes a registered tree with interrupt and returns its result", function()
    local log = {}
    local inner = bt.sequence { act(log, "inner", { "running", true }) }
    local outer = bt.sequence {
      act(log, "before", { true }),
      bt.subtree("inner", function(ctx) return ctx.data.pick end),
      act(log, "after", { true }),
    }
    local w = world.new { width = 4, height = 4, trees = { inner = inner, outer = outer } }
    local box = w:add_object { type = "box", x = 3, y = 3 }
    local p = w:add_person { x = 0.5, y = 0.5, data = { pick = box.id } }
    p:push("outer")
    w:tick()
    assert.are.same({ "outer", "inner" }, p:state().frames)
    assert.are.equal(box.id, p.frames[2].object)
    w:tick()
    assert.are.same({ "before", "inner", "inner", "after" }, log)
    assert.are.equal("success", p:state().last_result)
  end)

  it("subtree: a failing tree fails the node; an unknown name is an error of the frame", function()
    local w = world.new { width = 4, height = 4, trees = {
      no = bt.condition(function() return false end, "nope"),
      ask = bt.subtree("no"),
      bad = bt.subtree("missing"),
    } }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("ask")
    w:tick()
    assert.are.equal("failure", p:state().last_result)
    assert.are.equal("nope", p:last_failure())
    p:push("bad")
    w:tick()
    assert.are.equal("ctx:push: unknown tree name 'missing'", p:state().last_error)
  end)

  it("goto_relative: walks to a side of the stack object and takes the final facing", function()
    local w = world.new { width = 8, height = 5, trees = {
      sit = bt.goto_relative { side = "front", distance = 0.25, facing = "toward" },
    } }
    local sofa = w:add_object { type = "sofa", x = 5, y = 1, w = 2, h = 1, facing = "south" }
    local p = w:add_person { x = 0.5, y = 4.5, speed = 0.5 }
    p:push("sit", sofa.id)
    w:tick(30)
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ 6, 2.5 }, { p:position() })
    assert.are.equal("north", p:facing_name())
  end)

  it("goto_relative: every side lands beside the object by the distance and half width", function()
    local expect = {
      front = { 3.5 + 1.25, 2.5 }, back = { 3.5 - 1.25, 2.5 }, left = { 3.5, 2.5 - 1.25 },
      right = { 3.5, 2.5 + 1.25 }, front_left = { 4.75, 1.25 }, front_right = { 4.75, 3.75 },
      back_left = { 2.25, 1.25 }, back_right = { 2.25, 3.75 },
    }
    for side, xy in pairs(expect) do
      local w = world.new { width = 8, height = 5, trees = {
        go = bt.goto_relative { side = side, distance = 0.5, facing = "west" } } }
      local lamp = w:add_object { type = "lamp", x = 3, y = 2 }
      local p = w:add_person { x = 0.5, y = 0.5, speed = 0.5 }
      p:push("go", lamp.id)
      w:tick(40)
      assert.are.equal("success", p:state().last_result, side)
      assert.are.same(xy, { p:position() }, side)
      assert.are.equal("west", p:facing_name())
    end
  end)

  it("goto_relative: near stops within the distance of the object", function()
    local w = world.new { width = 10, height = 3, trees = {
      near = bt.goto_relative { side = "near", distance = 1 } } }
    local tv = w:add_object { type = "tv", x = 8, y = 1 }
    local p = w:add_person { x = 0.5, y = 1.5, speed = 0.5 }
    p:push("near", tv.id)
    w:tick(30)
    assert.are.equal("success", p:state().last_result)
    local x = p:position()
    assert.is_true(x >= 8.5 - 1.75 - 0.125 and x <= 8.5 - 1.75 + 0.125)
  end)

  it("goto_relative: a removed stack object fails the walk with reason removed", function()
    local w = world.new { width = 10, height = 3, trees = {
      go = bt.goto_relative { side = "back" } } }
    local tv = w:add_object { type = "tv", x = 8, y = 1 }
    local p = w:add_person { x = 0.5, y = 1.5 }
    p:push("go", tv.id)
    w:tick(3)
    w:remove_object(tv.id)
    w:tick()
    assert.are.equal("removed", p:last_failure())
    assert.is_false(p:walking())
  end)

  it("fail_portal: sets trap count and failed_portal to the door and fails", function()
    local w = world.new { width = 4, height = 2, trees = { give_up = bt.fail_portal() } }
    w:add_wall(2, 0, 2, 2)
    local d = w:add_object { type = "door", x = 1, y = 0, w = 2, h = 1 }
    local p = w:add_person { x = 0.5, y = 1.5 }
    p:push("give_up", d.id)
    w:tick()
    assert.are.same({ -d.id, d.id, "failure" },
      { p:state().trap_count, p:state().failed_portal, p:state().last_result })
    local chair = w:add_object { type = "chair", x = 0, y = 0 }
    p:push("give_up", chair.id)
    w:tick()
    assert.are.equal("fail_portal: stack object 3 is a 'chair', not a door", p:state().last_error)
  end)
end)

describe("node constructors", function()
  local node = bt.wait(1)
  it("reject bad arguments naming the constructor, the argument and the value", function()
    local cases = {
      { function() bt.sequence {} end,
        "wayfinder.bt.sequence: children must hold at least one node" },
      { function() bt.sequence(node) end,
        "wayfinder.bt.sequence: children must be a sequence of nodes, got a table" },
      { function() bt.selector("x") end,
        "wayfinder.bt.selector: children must be a sequence of nodes, got 'x'" },
      { function() bt.fallback { node, 5 } end,
        "wayfinder.bt.fallback: children[2] must be a node, got 5" },
      { function() bt.sequence { node, nil, node } end,
        "wayfinder.bt.sequence: children must be a sequence, children[2] is nil" },
      { function() bt.invert() end, "wayfinder.bt.invert: child must be a node, got nil" },
      { function() bt.succeed({}) end, "wayfinder.bt.succeed: child must be a node, got a table" },
      { function() bt.retry(0, node) end,
        "wayfinder.bt.retry: n must be an integer in [1, 1000000000], got 0" },
      { function() bt.retry(1.5, node) end,
        "wayfinder.bt.retry: n must be an integer >= 1, got 1.5" },
      { function() bt.loop(node, -2) end,
        "wayfinder.bt.loop: times must be an integer in [1, 1000000000], got -2" },
      { function() bt.action(nil) end, "wayfinder.bt.action: fn must be a function, got nil" },
      { function() bt.action(print, { stop = print }) end,
        "wayfinder.bt.action: unknown options key 'stop'" },
      { function() bt.condition(print, "") end,
        "wayfinder.bt.condition: reason must be a non-empty string, got ''" },
      { function() bt.wait(-1) end,
        "wayfinder.bt.wait: ticks must be an integer in [0, 1000000000], got -1" },
      { function() bt.subtree("") end,
        "wayfinder.bt.subtree: name must be a non-empty string, got ''" },
      { function() bt.goto_relative { side = "upstairs" } end,
        "wayfinder.bt.goto_relative: side must be one of back, back_left, back_right, front, "
        .. "front_left, front_right, left, near, portal, right, got 'upstairs'" },
      { function() bt.goto_relative { distance = -1 } end,
        "wayfinder.bt.goto_relative: distance must be in [0, 1024], got -1" },
      { function() bt.goto_relative { distance = 0 / 0 } end,
        "wayfinder.bt.goto_relative: distance must be a finite number, got nan" },
      { function() bt.goto_relative { max_tries = 0 } end,
        "wayfinder.bt.goto_relative: max_tries must be an integer in [1, 1000], got 0" },
      { function() bt.goto_relative { max_tries = -3 } end,
        "wayfinder.bt.goto_relative: max_tries must be an integer in [1, 1000], got -3" },
      { function() bt.goto_relative { facing = "up" } end,
        "wayfinder.bt.goto_relative: facing must be 'toward', 'away', 'same' or a direction "
        .. "('east', 'southeast', ...), got 'up'" },
      { function() bt.goto_relative { speed = 1 } end,
        "wayfinder.bt.goto_relative: unknown options key 'speed'" },
      { function() bt.delta_move() end,
        "wayfinder.bt.delta_move: options must be a table {distance =}, got nil" },
      { function() bt.delta_move {} end,
        "wayfinder.bt.delta_move: distance must be a finite number, got nil" },
      { function() bt.delta_move { distance = -1 } end,
        "wayfinder.bt.delta_move: distance must be in (0, 1024], got -1" },
      { function() bt.delta_move { distance = 0 } end,
        "wayfinder.bt.delta_move: distance must be in (0, 1024], got 0" },
      { function() bt.reserve_portal { ticks = -1 } end,
        "wayfinder.bt.reserve_portal: ticks must be an integer in [0, 1000000], got -1" },
    }
    for _, c in ipairs(cases) do assert.has_error(c[1], c[2]) end
  end)

  it("make nodes that are immutable data shared between trees", function()
    local children = { bt.wait(1), bt.wait(2) }
    local s = bt.sequence(children)
    children[3] = bt.wait(3)
    assert.are.equal(2, #bt.fields(s.children))
    assert.is_true(bt.is_node(s))
    assert.is_false(bt.is_node({ kind = "sequence" }))
    local w = world.new { width = 2, height = 2, trees = { a = s, b = bt.invert(s) } }
    assert.is_true(w:has_tree("a") and w:has_tree("b"))
  end)

  describe("are frozen once made", function()
    local function f() return true end
    local leaf = bt.wait(1)
    -- one node of every kind, with what it reads back and how errors name it
    local kinds = {
      { bt.sequence { leaf }, "sequence", { kind = "sequence" } },
      { bt.selector { leaf }, "selector", { kind = "selector" } },
      { bt.fallback { leaf }, "selector", { kind = "selector" } },
      { bt.invert(leaf), "invert", { kind = "invert" } },
      { bt.succeed(leaf), "succeed", { kind = "succeed" } },
      { bt.fail(leaf), "fail", { kind = "fail" } },
      { bt.retry(3, leaf), "retry", { kind = "retry", n = 3 } },
      { bt.loop(leaf, 2), "loop", { kind = "loop", times = 2 } },
      { bt.action(f, { name = "walk", halt = f }), "action 'walk'",
        { kind = "action", fn = f, halt = f, name = "walk" } },
      { bt.action(f), "action", { kind = "action", fn = f } },
      { bt.condition(f, "why"), "condition", { kind = "condition", fn = f, reason = "why" } },
      { bt.wait(4), "wait", { kind = "wait", ticks = 4 } },
      { bt.subtree("door", f), "subtree 'door'",
        { kind = "subtree", name = "door", object_fn = f } },
      { bt.goto_relative { side = "front" }, "goto_relative",
        { kind = "primitive", primitive = "goto_relative" } },
      { bt.delta_move { distance = 1 }, "delta_move",
        { kind = "primitive", primitive = "delta_move" } },
      { bt.reserve_portal { ticks = 5 }, "reserve_portal",
        { kind = "primitive", primitive = "reserve_portal" } },
      { bt.fail_portal(), "fail_portal", { kind = "primitive", primitive = "fail_portal" } },
    }

    local function refused(fn, node_name, what)
      local ok, err = pcall(fn)
      assert.is_false(ok, node_name .. " accepted a write to " .. what)
      assert.equal(("spec/bt_nodes_spec.lua:%d: behavior tree node (%s): cannot set %s: "
        .. "behavior tree definitions are immutable"):format(
        debug.getinfo(fn, "S").linedefined, node_name, what), err)
    end

    it("reads every field as it was made", function()
      for _, c in ipairs(kinds) do
        local n, _, fields = c[1], c[2], c[3]
        assert.is_true(bt.is_node(n))
        for k, v in pairs(fields) do assert.equal(v, n[k], c[2] .. "." .. k) end
        assert.equal("wayfinder.bt node (" .. fields.kind .. ")", tostring(n))
        local seen = {}
        for k in pairs(bt.fields(n)) do seen[k] = true end
        for k in pairs(fields) do assert.is_true(seen[k], c[2] .. " lists " .. k) end
      end
      assert.equal(leaf, kinds[1][1].children[1])
      assert.equal(1, #bt.fields(kinds[1][1].children))
      assert.equal("front", kinds[14][1].options.side)
    end)

    it("raise, naming the node, on a write to a field, new or not", function()
      for _, c in ipairs(kinds) do
        local n, name = c[1], c[2]
        refused(function() n.kind = "x" end, name, "field 'kind'")
        refused(function() n.extra = 1 end, name, "field 'extra'")
        assert.equal(c[3].kind, n.kind)
        assert.is_nil(n.extra)
        if n.children then
          refused(function() n.children[1] = leaf end, name, "children[1]")
          refused(function() n.children[2] = leaf end, name, "children[2]")
          assert.equal(1, #bt.fields(n.children))
        end
        if n.options then
          refused(function() n.options.side = "back" end, name, "options key 'side'")
        end
      end
      local ok, err = pcall(setmetatable, kinds[1][1], {})
      assert.is_false(ok)
      assert.matches("protected metatable", err)
      assert.equal("wayfinder.bt.node", getmetatable(kinds[1][1]))
    end)

    it("read through bt.fields as plain copies on every Lua version", function()
      for _, c in ipairs(kinds) do
        local n, fields = c[1], c[3]
        local copy = bt.fields(n)
        for k, v in pairs(fields) do assert.equal(v, copy[k], c[2] .. "." .. k) end
        copy.kind, copy.extra = "x", 1     -- the copy is the caller's
        assert.equal(fields.kind, n.kind)
        assert.is_nil(n.extra)
        assert.are_not.equal(copy, bt.fields(n))
        if n.children then
          local list = bt.fields(n.children)
          assert.equal(1, #list)
          assert.equal(leaf, list[1])
          list[2] = leaf
          assert.is_nil(n.children[2])
        end
        if n.options then
          local o = bt.fields(n.options)
          for k, v in pairs(o) do assert.equal(v, n.options[k], c[2] .. ".options." .. k) end
        end
      end
      local s = bt.sequence { leaf, bt.wait(2), leaf }
      local list = bt.fields(s.children)
      assert.equal(3, #list)
      assert.equal(2, list[2].ticks)
      assert.equal("front", bt.fields(kinds[14][1].options).side)
      for _, bad in ipairs({ {}, 3, "sequence" }) do
        assert.has_error(function() bt.fields(bad) end, ("wayfinder.bt.fields: value must "
          .. "be a behavior tree node, or its children or options, got %s"):format(
          type(bad) == "string" and "'sequence'" or type(bad) == "table" and "a table"
          or tostring(bad)))
      end
    end)

    it("still run after a refused write", function()
      local log = {}
      local seq = bt.sequence { act(log, "a", { true }), act(log, "b", { true }) }
      pcall(function() seq.children[1] = act(log, "x", { true }) end)
      local w, p = setup(seq)
      assert.are.same({ 1, "success" }, { finish(w, p, 5) })
      assert.are.same({ "a", "b" }, log)
    end)
  end)
end)
