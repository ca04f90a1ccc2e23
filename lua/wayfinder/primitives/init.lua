--- wayfinder.primitives: the movement primitives behind the behavior nodes
-- bt.goto_relative, bt.delta_move, bt.reserve_portal, bt.fail_portal,
-- bt.explore, bt.goto_known, bt.follow, bt.escort, bt.flee_from and
-- bt.hold_formation.
-- Each keeps its whole progress in the plain table ctx.state (saved with
-- the world); the world moves people in C and wakes a primitive when its
-- walk ends or is blocked. Primitives reach the world only through the
-- frame context's methods (ctx:position, ctx:plan, ctx:walk, ctx:doors,
-- ...; see docs/behaviors.md) and read their timing from the world's
-- options (goto_stall, crowd_stall, delta_stall, portal_turn).
--
-- One file a primitive: goto_relative, delta_move and portal (reserve_portal
-- and fail_portal), explore (explore and goto_known), follow (follow,
-- escort, flee_from, hold_formation, on the helpers of chase); options holds their option checks, which wayfinder.bt
-- runs when a tree is built.
local options = require("wayfinder.primitives.options")
local portal = require("wayfinder.primitives.portal")

local M = {}

M.SIDES = options.SIDES
M.SPECIAL_SIDES = options.SPECIAL_SIDES
M.DEFAULT_TRIES = options.DEFAULT_TRIES
M.MAX_TRIES = options.MAX_TRIES
M.MAX_DISTANCE = options.MAX_DISTANCE
M.check_goto = options.check_goto
M.check_delta = options.check_delta
M.check_reserve = options.check_reserve

M.goto_relative = require("wayfinder.primitives.goto_relative")
M.destination = M.goto_relative.destination
M.delta_move = require("wayfinder.primitives.delta_move")
M.reserve_portal = portal.reserve_portal
M.fail_portal = portal.fail_portal

local explore = require("wayfinder.primitives.explore")
M.explore = explore.explore
M.goto_known = explore.goto_known
M.check_explore = explore.check_explore

local follow = require("wayfinder.primitives.follow")
M.follow = follow.follow
M.escort = follow.escort
M.flee_from = follow.flee_from
M.hold_formation = follow.hold_formation
M.check_follow = follow.check_follow
M.check_escort = follow.check_escort
M.check_flee = follow.check_flee
M.check_formation = follow.check_formation

return M
