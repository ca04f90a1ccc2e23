-- Frames: each person's stack of running trees, pushing with and without
-- interrupt, popping back to the frame below, halting, errors, and the
-- person's routing state.
local world = require("wayfinder.world")
local bt = require("wayfinder.bt")

local function logger(log, name, results)
  local n = 0
  return bt.action(function()
    n = n + 1
    log[#log + 1] = name
    return results[math.min(n, #results)]
  end)
end

describe("frames", function()
  it("pushed with interrupt pause the frame below, which resumes where it was", function()
    local log = {}
    local w = world.new { width = 4, height = 4, trees = {
      chores = bt.sequence { logger(log, "sweep", { "running", "running", true }),
        logger(log, "dust", { true }) },
      phone = bt.sequence { logger(log, "answer", { "running", true }) },
    } }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("chores")
    w:tick()
    p:push("phone")
    assert.are.same({ "chores", "phone" }, p:state().frames)
    w:tick(2)
    assert.are.same({ "sweep", "answer", "answer", "sweep" }, log)
    w:tick(2)
    assert.are.same({ "sweep", "answer", "answer", "sweep", "sweep", "dust" }, log)
    assert.are.same({}, p:state().frames)
  end)

  it("pushed without interrupt wait below the whole stack", function()
    local log = {}
    local w = world.new { width = 4, height = 4, trees = {
      now = logger(log, "now", { "running", true }),
      later = logger(log, "later", { true }),
    } }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:push("now")
    p:push("later", nil, { interrupt = false })
    assert.are.same({ "later", "now" }, p:state().frames)
    w:tick(2)
    assert.are.same({ "now", "now", "later" }, log)
  end)

  it("pause a walk under an interrupt and plan it again afterwards", function()
    local w = world.new { width = 8, height = 2, trees = { rest = bt.wait(3) } }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:route_to(7.5, 0.5)
    w:tick(3)
    local x = p:position()
    p:push("rest")
    assert.is_false(p:walking())
    w:tick(3)
    assert.are.equal(x, (p:position()))
    w:tick(40)
    assert.are.same({ 7.5, 0.5 }, { p:position() })
    assert.are.equal("success", p:state().last_result)
    assert.are.equal(4, p:state().route_counter) -- the pause did not use a try
  end)

  it("reject unknown tree names, bad ids and bad options", function()
    local w = world.new { width = 4, height = 4 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    local lamp = w:add_object { type = "lamp", x = 3, y = 3 }
    assert.has_error(function() p:push("dance") end, "person:push: unknown tree name 'dance'")
    assert.has_error(function() p:push(5) end, "person:push: unknown tree name 5")
    assert.has_error(function() p:push("wayfinder.route_to", 77) end,
      "person:push: id 77 names no object")
    assert.has_error(function() p:push("wayfinder.route_to", nil, { urgent = true }) end,
      "person:push: unknown options key 'urgent'")
    assert.has_error(function() lamp:push("wayfinder.route_to") end,
      "person:push: object 2 is a 'lamp', not a person")
    w:remove_object(p.id)
    assert.has_error(function() p:halt() end, "person:halt: person 1 was removed")
  end)
end)

describe("a person's state", function()
  it("shows route id, route counter, trap count, failure and frames while routing", function()
    local w = world.new { width = 8, height = 4 }
    w:add_wall(4, 0, 4, 4)
    local d = w:add_object { type = "door", x = 3, y = 1, w = 2, h = 1 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:route_to(7.5, 3.5, { max_tries = 3 })
    w:tick()
    local st = p:state()
    -- the counter is the one of the Goto Relative running now: the door
    -- tree's approach, which allows 8 tries and has used one
    assert.are.same({ 1, 7, 0, nil, { "wayfinder.route_to", "wayfinder.door" }, true },
      { st.route_id, st.route_counter, st.trap_count, st.failed_portal, st.frames, st.walking })
    assert.are.same({ routes = 0, failures = {}, portals = 1, portal_failures = 0, waits = 0,
      errors = 0 }, st.stats)
    w:tick(80)
    st = p:state()
    assert.are.same({ nil, "success", {} }, { st.route_id, st.last_result, st.frames })
    -- the door tree's own walks count as routes too
    assert.are.equal(3, st.stats.routes)
    assert.is_nil(w:reservation(d.id))
  end)

  it("keeps people's data tables for their scripts", function()
    local w = world.new { width = 4, height = 4, trees = {
      count = bt.action(function(ctx)
        ctx.data.n = (ctx.data.n or 0) + 1
        return ctx.data.n >= 3 or "running"
      end) } }
    local p = w:add_person { x = 0.5, y = 0.5, data = { n = 0 } }
    p:push("count")
    w:tick(5)
    assert.are.same({ n = 3 }, p.data)
  end)
end)

describe("world:tick", function()
  it("runs behaviors in object-list order after everybody has moved", function()
    local order = {}
    local w = world.new { width = 6, height = 6, trees = {
      note = bt.action(function(ctx)
        order[#order + 1] = ctx.person.id
        return true
      end) } }
    local a = w:add_person { x = 0.5, y = 0.5 }
    w:add_object { type = "plant", x = 5, y = 5 }
    local c = w:add_person { x = 2.5, y = 2.5 }
    c:push("note")
    a:push("note")
    w:tick()
    assert.are.same({ a.id, c.id }, order)
    assert.are.equal(1, w:now())
    w:tick(4)
    assert.are.equal(5, w:now())
    assert.has_error(function() w:tick(-1) end,
      "world:tick: n must be an integer in [0, 1000000000], got -1")
  end)

  it("lets a behavior remove people, itself included, during the tick", function()
    local w = world.new { width = 6, height = 6, trees = {
      vanish = bt.action(function(ctx)
        for _, q in ipairs(ctx.world:people()) do ctx.world:remove_object(q.id) end
        return true
      end),
      idle = bt.wait(5) } }
    local a = w:add_person { x = 0.5, y = 0.5 }
    local b = w:add_person { x = 2.5, y = 2.5 }
    a:push("vanish")
    b:push("idle")
    w:tick(2)
    assert.are.same({}, w:people())
    assert.is_true(a.removed and b.removed)
  end)
end)
