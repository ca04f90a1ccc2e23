/* lunits.c - the "wayfinder.Units" userdata: a unit simulation over a grid
 * (units.c). The simulation keeps its grid alive (user value 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lunits.h"

#define UNITS_MT "wayfinder.Units"
#define FIXF 65536.0
#define MAX_TICKS_PER_CALL 1000000

typedef struct lunits {
    wf_units *u;          /* NULL once closed */
    wf_unit_event *ev;    /* one tick's events, capacity slots */
} lunits;

static lunits *check_units(lua_State *L, const char *fname)
{
    char buf[64];
    lunits *s = luaL_testudata(L, 1, UNITS_MT);
    if (!s)
        wfl_error(L, fname, "self must be a wayfinder.Units, got %s "
                  "(call it as units:method(...))", wfl_describe(L, 1, buf));
    if (!s->u)
        wfl_error(L, fname, "the units are closed");
    return s;
}

/* The simulation's grid (user value 1), open; popped before returning. */
static wf_grid *units_grid(lua_State *L, const char *fname)
{
    lua_getiuservalue(L, 1, 1);
    wf_grid *g = wfl_check_grid_arg(L, lua_gettop(L), fname, "the units' grid");
    lua_pop(L, 1);
    return g;
}

/* After reading argument tables (whose metamethods may have closed the
 * simulation or its grid): the simulation and its grid, checked again. */
static wf_grid *recheck(lua_State *L, const char *fname, lunits **s)
{
    *s = check_units(L, fname);
    return units_grid(L, fname);
}

static int raise_status(lua_State *L, const char *fname, wf_status st)
{
    if (st == WF_ERR_NOMEM)
        return wfl_error(L, fname, "out of memory");
    if (st == WF_ERR_FULL)
        return wfl_error(L, fname, "the simulation is full (options.capacity)");
    return wfl_error(L, fname, "%s", wf_status_name(st));
}

static uint32_t check_id(lua_State *L, lunits *s, int idx, const char *fname)
{
    lua_Integer id = wfl_check_int(L, idx, fname, "id", 1, UINT32_MAX - 1);
    wf_unit_info info;
    if (wf_units_get(s->u, (uint32_t)id, &info) != WF_OK)
        wfl_error(L, fname, "id must be the id of a unit, got %lld",
                  (long long)id);
    return (uint32_t)id;
}

/* ---------------------------------------------------------------- new -- */

static const char *const OPTION_KEYS[] = {"capacity", "budget", "max_wait",
                                          "max_order_ticks", "bucket", "brute",
                                          "short_range", "avoidance", "accel",
                                          "turn_rate", "arrive_radius",
                                          "lookahead", "corner_radius", NULL};

static void read_config(lua_State *L, int idx, const char *fname,
                        wf_units_config *cfg)
{
    wf_units_config_init(cfg);
    if (!wfl_opt_table(L, idx, fname, "options"))
        return;
    wfl_check_keys(L, idx, fname, "options", OPTION_KEYS);
    if (wfl_field(L, idx, "capacity") != LUA_TNIL)
        cfg->capacity = (uint32_t)wfl_check_int(L, -1, fname, "options.capacity",
                                                1, WF_UNITS_MAX);
    lua_pop(L, 1);
    if (wfl_field(L, idx, "budget") != LUA_TNIL)
        cfg->budget = (uint64_t)wfl_check_int(L, -1, fname, "options.budget", 1,
                                              WFL_MAX_BUDGET);
    lua_pop(L, 1);
    if (wfl_field(L, idx, "max_wait") != LUA_TNIL)
        cfg->max_wait = (int)wfl_check_int(L, -1, fname, "options.max_wait", 0,
                                           1000000);
    lua_pop(L, 1);
    if (wfl_field(L, idx, "max_order_ticks") != LUA_TNIL)
        cfg->max_order_ticks = (int)wfl_check_int(L, -1, fname,
                                                  "options.max_order_ticks", 1,
                                                  100000000);
    lua_pop(L, 1);
    if (wfl_field(L, idx, "bucket") != LUA_TNIL)
        cfg->bucket = (int)wfl_check_int(L, -1, fname, "options.bucket", 1, 256);
    lua_pop(L, 1);
    if (wfl_field(L, idx, "brute") != LUA_TNIL)
        cfg->brute = wfl_check_boolean(L, -1, fname, "options.brute");
    lua_pop(L, 1);
    if (wfl_field(L, idx, "short_range") != LUA_TNIL)
        cfg->short_range = (int)wfl_check_int(L, -1, fname, "options.short_range",
                                              0, 64);
    lua_pop(L, 1);
    if (wfl_field(L, idx, "avoidance") != LUA_TNIL) {
        char buf[64];
        const char *a = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        size_t len = lua_type(L, -1) == LUA_TSTRING ? lua_rawlen(L, -1) : 0;
        if (len == 4 && strcmp(a, "none") == 0)
            cfg->avoidance = WF_AVOID_NONE;
        else if (len == 8 && strcmp(a, "velocity") == 0)
            cfg->avoidance = WF_AVOID_VELOCITY;
        else if (len == 4 && strcmp(a, "orca") == 0)
            cfg->avoidance = WF_AVOID_ORCA;
        else
            wfl_error(L, fname, "options.avoidance must be 'none', 'velocity' or 'orca', "
                      "got %s", wfl_describe(L, -1, buf));
    }
    lua_pop(L, 1);
    if (wfl_field(L, idx, "accel") != LUA_TNIL) {
        cfg->accel = wfl_check_fix(L, -1, fname, "options.accel", 0, 16);
        if (cfg->accel <= 0) {
            char buf[64];
            wfl_error(L, fname, "options.accel must be a number in (0, 16], got %s",
                      wfl_describe(L, -1, buf));
        }
    }
    lua_pop(L, 1);
    if (wfl_field(L, idx, "turn_rate") != LUA_TNIL) {
        lua_Number a = wfl_check_range(L, -1, fname, "options.turn_rate", 0,
                                       3.141592653589793);
        cfg->turn_rate = (int64_t)llround(a * (lua_Number)WF_ANGLE_ONE);
        if (cfg->turn_rate <= 0)
            wfl_error(L, fname, "options.turn_rate must be a number in (0, pi], "
                      "got %g", (double)a);
    }
    lua_pop(L, 1);
    if (wfl_field(L, idx, "arrive_radius") != LUA_TNIL)
        cfg->arrive_radius = wfl_check_fix(L, -1, fname, "options.arrive_radius",
                                           0, 1024);
    lua_pop(L, 1);
    if (wfl_field(L, idx, "lookahead") != LUA_TNIL)
        cfg->lookahead = wfl_check_boolean(L, -1, fname, "options.lookahead");
    lua_pop(L, 1);
    if (wfl_field(L, idx, "corner_radius") != LUA_TNIL)
        cfg->corner_radius = wfl_check_fix(L, -1, fname, "options.corner_radius",
                                           0, 16);
    lua_pop(L, 1);
}

/* Pushes a closed userdata tied to the grid at gidx, then opens it. */
static lunits *push_units(lua_State *L, int gidx, const wf_grid *g,
                          const wf_units_config *cfg, const char *fname)
{
    lunits *s = lua_newuserdatauv(L, sizeof *s, 1);
    s->u = NULL;
    s->ev = NULL;
    luaL_setmetatable(L, UNITS_MT);
    lua_pushvalue(L, gidx);
    lua_setiuservalue(L, -2, 1);
    s->ev = malloc(cfg->capacity * sizeof *s->ev);
    if (!s->ev)
        raise_status(L, fname, WF_ERR_NOMEM);
    wf_status st = wf_units_create(&s->u, g, cfg);
    if (st != WF_OK)
        raise_status(L, fname, st);
    return s;
}

static int l_new(lua_State *L)
{
    const char *fname = "wayfinder.units.new";
    wf_grid *g = wfl_check_grid_arg(L, 1, fname, "grid");
    wf_units_config cfg;
    read_config(L, 2, fname, &cfg);
    /* the options' metamethods may have closed the grid */
    g = wfl_check_grid_arg(L, 1, fname, "grid");
    push_units(L, 1, g, &cfg, fname);
    return 1;
}

/* ---------------------------------------------------------------- add -- */

static const char *const ADD_KEYS[] = {"x", "y", "class", "radius", "speed", NULL};

static wf_fix spec_fix(lua_State *L, int t, const char *fname, const char *key,
                       lua_Number lo, lua_Number hi, int lo_open)
{
    char arg[64];
    snprintf(arg, sizeof arg, "unit.%s", key);
    lua_getfield(L, t, key);
    wf_fix v = wfl_check_fix(L, -1, fname, arg, lo, hi);
    if (lo_open && v <= 0) {
        char buf[64];
        wfl_error(L, fname, "%s must be a number in (%g, %g], got %s", arg,
                  (double)lo, (double)hi, wfl_describe(L, -1, buf));
    }
    lua_pop(L, 1);
    return v;
}

static int push_reason(lua_State *L, wf_unit_reason why)
{
    luaL_pushfail(L);
    lua_pushstring(L, wf_unit_reason_name(why));
    return 2;
}

static int l_add(lua_State *L)
{
    const char *fname = "units:add";
    lunits *s = check_units(L, fname);
    char buf[64];
    if (!lua_istable(L, 2))
        wfl_error(L, fname, "unit must be a table {x =, y =, class =, radius =, "
                  "speed =}, got %s", wfl_describe(L, 2, buf));
    wfl_check_keys(L, 2, fname, "unit", ADD_KEYS);
    wf_grid *g = units_grid(L, fname);
    wf_fix x = spec_fix(L, 2, fname, "x", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT, 0);
    wf_fix y = spec_fix(L, 2, fname, "y", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT, 0);
    lua_getfield(L, 2, "class");
    g = units_grid(L, fname);                 /* after the metamethods */
    int cls = wfl_check_class_name(L, lua_gettop(L), fname, "unit.class", g);
    lua_pop(L, 1);
    wf_fix r = spec_fix(L, 2, fname, "radius", 0, 8, 1);
    wf_fix speed = spec_fix(L, 2, fname, "speed", 0, 16, 1);
    uint32_t id;
    wf_unit_reason why;
    g = recheck(L, fname, &s);
    wf_status st = wf_units_add(s->u, g, x, y, cls, r, speed, &id, &why);
    if (st != WF_OK)
        return raise_status(L, fname, st);
    if (!id)
        return push_reason(L, why);
    lua_pushinteger(L, id);
    return 1;
}

static int l_check_placement(lua_State *L)
{
    const char *fname = "units:check_placement";
    lunits *s = check_units(L, fname);
    wf_grid *g = units_grid(L, fname);
    wf_fix x = wfl_check_fix(L, 2, fname, "x", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT);
    wf_fix y = wfl_check_fix(L, 3, fname, "y", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT);
    int cls = wfl_check_class_name(L, 4, fname, "class", g);
    wf_fix r = wfl_check_fix(L, 5, fname, "radius", 0, 8);
    if (r <= 0)
        wfl_error(L, fname, "radius must be a number in (0, 8], got %g",
                  (double)lua_tonumber(L, 5));
    wf_unit_reason why;
    wf_status st = wf_units_check_placement(s->u, g, x, y, cls, r, 0, &why);
    if (st != WF_OK)
        return raise_status(L, fname, st);
    if (why != WF_UNIT_FINE)
        return push_reason(L, why);
    lua_pushboolean(L, 1);
    return 1;
}

/* --------------------------------------------------------------- move -- */

static const char *const MOVE_KEYS[] = {"goal", "range", "inverted", NULL};

/* options.inverted of the table at idx applied to goal. */
static void read_inverted(lua_State *L, int idx, const char *fname, wf_goal *goal)
{
    if (wfl_field(L, idx, "inverted") != LUA_TNIL
        && wfl_check_boolean(L, -1, fname, "options.inverted")
        && wf_goal_invert(goal) != WF_OK)
        wfl_error(L, fname, "options.inverted needs a circle or square goal");
    lua_pop(L, 1);
}

static int l_move(lua_State *L)
{
    const char *fname = "units:move";
    lunits *s = check_units(L, fname);
    uint32_t id = check_id(L, s, 2, fname);
    wf_fix gx = wfl_check_fix(L, 3, fname, "x", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT);
    wf_fix gy = wfl_check_fix(L, 4, fname, "y", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT);
    wf_goal goal;
    wf_goal_point(&goal, gx, gy);
    wf_fix range = 0;
    if (wfl_opt_table(L, 5, fname, "options")) {
        wfl_check_keys(L, 5, fname, "options", MOVE_KEYS);
        if (wfl_field(L, 5, "goal") != LUA_TNIL)
            wfl_read_goal(L, -1, fname, "options.goal", gx, gy, &goal);
        lua_pop(L, 1);
        if (wfl_field(L, 5, "range") != LUA_TNIL)
            range = wfl_check_fix(L, -1, fname, "options.range", 0, WF_MAX_SIDE);
        lua_pop(L, 1);
    }
    if (lua_istable(L, 5))
        read_inverted(L, 5, fname, &goal);
    if (range > 0) {
        if (goal.type == WF_GOAL_POINT)
            wf_goal_circle(&goal, gx, gy, range);
        else if (goal.type == WF_GOAL_CIRCLE)
            goal.r += range;
        else {
            goal.hw += range;
            goal.hh += range;
        }
    }
    recheck(L, fname, &s);
    id = check_id(L, s, 2, fname);
    wf_status st = wf_units_move(s->u, id, &goal);
    if (st != WF_OK)
        return raise_status(L, fname, st);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_stop(lua_State *L)
{
    const char *fname = "units:stop";
    lunits *s = check_units(L, fname);
    wf_units_stop(s->u, check_id(L, s, 2, fname));
    lua_pushboolean(L, 1);
    return 1;
}

static int l_remove(lua_State *L)
{
    const char *fname = "units:remove";
    lunits *s = check_units(L, fname);
    wf_units_remove(s->u, check_id(L, s, 2, fname));
    lua_pushboolean(L, 1);
    return 1;
}

/* --------------------------------------------------------------- tick -- */

static const char *event_name(wf_unit_event_kind k)
{
    return k == WF_UNIT_ARRIVED ? "arrived" : k == WF_UNIT_FAILED ? "failed"
                                                                 : "blocked";
}

static int l_tick(lua_State *L)
{
    const char *fname = "units:tick";
    lunits *s = check_units(L, fname);
    lua_Integer n = lua_isnoneornil(L, 2) ? 1
                    : wfl_check_int(L, 2, fname, "n", 1, MAX_TICKS_PER_CALL);
    lua_getiuservalue(L, 1, 1);
    wf_hier *h;
    wf_grid *g = wfl_check_grid_regions(L, lua_gettop(L), fname,
                                        "the units' grid", &h, 1);
    lua_pop(L, 1);
    wf_units_config cfg;
    wf_units_config_of(s->u, &cfg);
    lua_newtable(L);
    lua_Integer k = 0;
    for (lua_Integer t = 0; t < n; t++) {
        size_t count;
        wf_status st = wf_units_tick(s->u, g, h, s->ev,
                                     cfg.capacity, &count);
        if (st != WF_OK)
            return raise_status(L, fname, st);
        lua_Integer tick = (lua_Integer)wf_units_ticks(s->u);
        for (size_t e = 0; e < count; e++) {
            lua_createtable(L, 0, 4);
            lua_pushinteger(L, tick);
            lua_setfield(L, -2, "tick");
            lua_pushinteger(L, s->ev[e].id);
            lua_setfield(L, -2, "id");
            lua_pushstring(L, event_name(s->ev[e].kind));
            lua_setfield(L, -2, "event");
            if (s->ev[e].kind != WF_UNIT_ARRIVED
                || s->ev[e].reason != WF_UNIT_FINE) {
                lua_pushstring(L, wf_unit_reason_name(s->ev[e].reason));
                lua_setfield(L, -2, "reason");
            }
            lua_rawseti(L, -2, ++k);
        }
    }
    return 1;
}

/* ---------------------------------------------------------- short path -- */

static const char *const SHORT_KEYS[] = {"goal", "range", "brute", "inverted",
                                         NULL};

static int push_points(lua_State *L, const wf_fix *xy, int n)
{
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) {
        lua_createtable(L, 2, 0);
        lua_pushnumber(L, xy[2 * k] / FIXF);
        lua_rawseti(L, -2, 1);
        lua_pushnumber(L, xy[2 * k + 1] / FIXF);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

static int l_short_path(lua_State *L)
{
    const char *fname = "units:short_path";
    lunits *s = check_units(L, fname);
    uint32_t id = check_id(L, s, 2, fname);
    wf_fix gx = wfl_check_fix(L, 3, fname, "x", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT);
    wf_fix gy = wfl_check_fix(L, 4, fname, "y", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT);
    wf_goal goal;
    wf_goal_point(&goal, gx, gy);
    wf_units_config cfg;
    wf_units_config_of(s->u, &cfg);
    wf_fix range = WF_FIX(cfg.short_range > 0 ? cfg.short_range : 8);
    int brute = 0;
    if (wfl_opt_table(L, 5, fname, "options")) {
        wfl_check_keys(L, 5, fname, "options", SHORT_KEYS);
        if (wfl_field(L, 5, "goal") != LUA_TNIL)
            wfl_read_goal(L, -1, fname, "options.goal", gx, gy, &goal);
        lua_pop(L, 1);
        if (wfl_field(L, 5, "range") != LUA_TNIL) {
            range = wfl_check_fix(L, -1, fname, "options.range", 0, 64);
            if (range <= 0)
                wfl_error(L, fname, "options.range must be a number in (0, 64], "
                          "got %g", (double)lua_tonumber(L, -1));
        }
        lua_pop(L, 1);
        if (wfl_field(L, 5, "brute") != LUA_TNIL)
            brute = wfl_check_boolean(L, -1, fname, "options.brute");
        lua_pop(L, 1);
        read_inverted(L, 5, fname, &goal);
    }
    wf_grid *g = units_grid(L, fname);
    const wf_fix *xy;
    int n, reached;
    wf_vertex_stats stats;
    g = recheck(L, fname, &s);
    id = check_id(L, s, 2, fname);
    wf_status st = wf_units_short_path(s->u, g, id, &goal, range, brute, &xy, &n,
                                       &reached, &stats);
    if (st == WF_NO_PATH) {
        luaL_pushfail(L);
        lua_pushliteral(L, "no_path");
        return 2;
    }
    if (st == WF_START_BLOCKED) {
        luaL_pushfail(L);
        lua_pushliteral(L, "start_blocked");
        return 2;
    }
    if (st != WF_OK)
        return raise_status(L, fname, st);
    push_points(L, xy, n);
    lua_pushboolean(L, reached);
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, stats.vertices);
    lua_setfield(L, -2, "vertices");
    lua_pushinteger(L, stats.expanded);
    lua_setfield(L, -2, "expanded");
    lua_pushinteger(L, (lua_Integer)stats.tests);
    lua_setfield(L, -2, "tests");
    lua_pushinteger(L, stats.edges);
    lua_setfield(L, -2, "edges");
    return 3;
}

/* The edges the vertex pathfinder sees, for drawing: a list of
 * {x0, y0, x1, y1}. */
typedef struct edge_list {
    lua_State *L;
    lua_Integer n;
} edge_list;

static void push_edge(void *p, wf_fix x0, wf_fix y0, wf_fix x1, wf_fix y1)
{
    edge_list *e = p;
    lua_State *L = e->L;
    lua_createtable(L, 4, 0);
    lua_pushnumber(L, x0 / FIXF);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, y0 / FIXF);
    lua_rawseti(L, -2, 2);
    lua_pushnumber(L, x1 / FIXF);
    lua_rawseti(L, -2, 3);
    lua_pushnumber(L, y1 / FIXF);
    lua_rawseti(L, -2, 4);
    lua_rawseti(L, -2, ++e->n);
}

static int l_vertex_edges(lua_State *L)
{
    const char *fname = "units:vertex_edges";
    lunits *s = check_units(L, fname);
    uint32_t id = check_id(L, s, 2, fname);
    wf_units_config cfg;
    wf_units_config_of(s->u, &cfg);
    wf_fix range = WF_FIX(cfg.short_range > 0 ? cfg.short_range : 8);
    if (!lua_isnoneornil(L, 3)) {
        range = wfl_check_fix(L, 3, fname, "range", 0, 64);
        if (range <= 0)
            wfl_error(L, fname, "range must be a number in (0, 64], got %g",
                      (double)lua_tonumber(L, 3));
    }
    wf_grid *g = units_grid(L, fname);
    lua_newtable(L);
    edge_list e = {L, 0};
    wf_status st = wf_units_vertex_edges(s->u, g, id, range, push_edge, &e);
    if (st != WF_OK)
        return raise_status(L, fname, st);
    return 1;
}

/* ------------------------------------------------------------ reading -- */

static int l_position(lua_State *L)
{
    const char *fname = "units:position";
    lunits *s = check_units(L, fname);
    wf_unit_info info;
    wf_units_get(s->u, check_id(L, s, 2, fname), &info);
    lua_pushnumber(L, info.x / FIXF);
    lua_pushnumber(L, info.y / FIXF);
    return 2;
}

static int l_state(lua_State *L)
{
    const char *fname = "units:state";
    lunits *s = check_units(L, fname);
    wf_unit_info info;
    wf_units_get(s->u, check_id(L, s, 2, fname), &info);
    lua_pushstring(L, wf_unit_state_name(info.state));
    return 1;
}

static int l_info(lua_State *L)
{
    const char *fname = "units:info";
    lunits *s = check_units(L, fname);
    wf_grid *g = units_grid(L, fname);
    wf_unit_info info;
    wf_units_get(s->u, check_id(L, s, 2, fname), &info);
    lua_createtable(L, 0, 10);
    lua_pushinteger(L, info.id);
    lua_setfield(L, -2, "id");
    lua_pushstring(L, wf_grid_class_name(g, info.cls));
    lua_setfield(L, -2, "class");
    lua_pushnumber(L, info.x / FIXF);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, info.y / FIXF);
    lua_setfield(L, -2, "y");
    lua_pushnumber(L, info.radius / FIXF);
    lua_setfield(L, -2, "radius");
    lua_pushnumber(L, info.speed / FIXF);
    lua_setfield(L, -2, "speed");
    lua_pushstring(L, wf_unit_state_name(info.state));
    lua_setfield(L, -2, "state");
    lua_pushinteger(L, info.wait);
    lua_setfield(L, -2, "wait");
    lua_pushinteger(L, info.order_ticks);
    lua_setfield(L, -2, "order_ticks");
    const wf_fix *xy;
    int n;
    wf_units_waypoints(s->u, info.id, &xy, &n);
    lua_pushinteger(L, info.next + 1);
    lua_setfield(L, -2, "next");
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) {
        lua_createtable(L, 2, 0);
        lua_pushnumber(L, xy[2 * k] / FIXF);
        lua_rawseti(L, -2, 1);
        lua_pushnumber(L, xy[2 * k + 1] / FIXF);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "waypoints");
    lua_pushnumber(L, info.vx / FIXF);
    lua_setfield(L, -2, "vx");
    lua_pushnumber(L, info.vy / FIXF);
    lua_setfield(L, -2, "vy");
    lua_pushnumber(L, info.cur / FIXF);
    lua_setfield(L, -2, "current_speed");
    lua_pushnumber(L, info.hx / FIXF);
    lua_setfield(L, -2, "hx");
    lua_pushnumber(L, info.hy / FIXF);
    lua_setfield(L, -2, "hy");
    lua_pushinteger(L, info.stall);
    lua_setfield(L, -2, "stall");
    return 1;
}

static int l_ids(lua_State *L)
{
    lunits *s = check_units(L, "units:ids");
    size_t n = wf_units_count(s->u);
    lua_createtable(L, (int)n, 0);
    for (size_t k = 0; k < n; k++) {
        lua_pushinteger(L, wf_units_id(s->u, k));
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    return 1;
}

static int l_count(lua_State *L)
{
    lunits *s = check_units(L, "units:count");
    lua_pushinteger(L, (lua_Integer)wf_units_count(s->u));
    return 1;
}

static int l_memory(lua_State *L)
{
    lunits *s = check_units(L, "units:memory");
    lua_pushinteger(L, (lua_Integer)wf_units_memory(s->u));
    return 1;
}

/* ------------------------------------------------------- save / load -- */

static void set_int(lua_State *L, const char *key, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, key);
}

static int l_save(lua_State *L)
{
    const char *fname = "units:save";
    lunits *s = check_units(L, fname);
    wf_grid *g = units_grid(L, fname);
    wf_units_config cfg;
    wf_units_config_of(s->u, &cfg);
    wf_units_clock c;
    wf_units_get_clock(s->u, &c);
    lua_createtable(L, 0, 4);
    set_int(L, "version", 1);
    lua_createtable(L, 0, 6);
    set_int(L, "capacity", cfg.capacity);
    set_int(L, "budget", (lua_Integer)cfg.budget);
    set_int(L, "max_wait", cfg.max_wait);
    set_int(L, "max_order_ticks", cfg.max_order_ticks);
    set_int(L, "bucket", cfg.bucket);
    set_int(L, "short_range", cfg.short_range);
    lua_pushboolean(L, cfg.brute);
    lua_setfield(L, -2, "brute");
    lua_pushstring(L, cfg.avoidance == WF_AVOID_VELOCITY ? "velocity"
                      : cfg.avoidance == WF_AVOID_ORCA ? "orca" : "none");
    lua_setfield(L, -2, "avoidance");
    if (cfg.accel) {
        lua_pushnumber(L, cfg.accel / FIXF);
        lua_setfield(L, -2, "accel");
    }
    if (cfg.turn_rate) {
        lua_pushnumber(L, (lua_Number)cfg.turn_rate / (lua_Number)WF_ANGLE_ONE);
        lua_setfield(L, -2, "turn_rate");
    }
    lua_pushnumber(L, cfg.arrive_radius / FIXF);
    lua_setfield(L, -2, "arrive_radius");
    lua_pushboolean(L, cfg.lookahead);
    lua_setfield(L, -2, "lookahead");
    lua_pushnumber(L, cfg.corner_radius / FIXF);
    lua_setfield(L, -2, "corner_radius");
    lua_setfield(L, -2, "options");
    lua_createtable(L, 0, 4);
    set_int(L, "next_id", c.next_id);
    set_int(L, "ticks", (lua_Integer)c.ticks);
    set_int(L, "next_seq", (lua_Integer)c.next_seq);
    set_int(L, "head_spent", (lua_Integer)c.head_spent);
    lua_setfield(L, -2, "clock");
    size_t n = wf_units_count(s->u);
    lua_createtable(L, (int)n, 0);
    for (size_t k = 0; k < n; k++) {
        wf_unit_info i;
        wf_units_get(s->u, wf_units_id(s->u, k), &i);
        lua_createtable(L, 0, 24);
        set_int(L, "id", i.id);
        lua_pushstring(L, wf_grid_class_name(g, i.cls));
        lua_setfield(L, -2, "class");
        set_int(L, "x", i.x);
        set_int(L, "y", i.y);
        set_int(L, "radius", i.radius);
        set_int(L, "speed", i.speed);
        lua_pushstring(L, wf_unit_state_name(i.state));
        lua_setfield(L, -2, "state");
        set_int(L, "wait", i.wait);
        set_int(L, "order_ticks", i.order_ticks);
        set_int(L, "unreachable", i.unreachable);
        set_int(L, "next", i.next);
        set_int(L, "plan_seq", (lua_Integer)i.plan_seq);
        set_int(L, "ex", i.ex);
        set_int(L, "ey", i.ey);
        set_int(L, "vx", i.vx);
        set_int(L, "vy", i.vy);
        set_int(L, "cur", i.cur);
        set_int(L, "hx", i.hx);
        set_int(L, "hy", i.hy);
        set_int(L, "best", i.best);
        set_int(L, "stall", i.stall);
        set_int(L, "yield", i.yield);
        set_int(L, "bend", i.bend);
        /* the grid closed over it since the last tick: it escapes on the
           next one, and the load must take it (see blocked_ok) */
        if (i.state != WF_UNIT_ESCAPING && !wf_sweep_point_clear(g, i.cls, i.x, i.y)) {
            lua_pushboolean(L, 1);
            lua_setfield(L, -2, "blocked");
        }
        if (i.has_order) {
            lua_createtable(L, 0, 10);
            set_int(L, "type", i.goal.type);
            set_int(L, "x", i.goal.x);
            set_int(L, "y", i.goal.y);
            set_int(L, "hw", i.goal.hw);
            set_int(L, "hh", i.goal.hh);
            set_int(L, "ux", i.goal.ux);
            set_int(L, "uy", i.goal.uy);
            set_int(L, "r", i.goal.r);
            set_int(L, "inverted", i.goal.inverted);
            lua_setfield(L, -2, "goal");
        }
        const wf_fix *xy;
        int nw;
        wf_units_waypoints(s->u, i.id, &xy, &nw);
        lua_createtable(L, 2 * nw, 0);
        for (int w = 0; w < 2 * nw; w++) {
            lua_pushinteger(L, xy[w]);
            lua_rawseti(L, -2, w + 1);
        }
        lua_setfield(L, -2, "waypoints");
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_setfield(L, -2, "units");
    return 1;
}

/* An integer field t[key] in [lo, hi]; path names t in errors. */
static lua_Integer get_int(lua_State *L, int t, const char *fname,
                           const char *path, const char *key, lua_Integer lo,
                           lua_Integer hi)
{
    char arg[200];
    snprintf(arg, sizeof arg, "%s.%s", path, key);
    lua_getfield(L, t, key);
    lua_Integer v = wfl_check_int(L, -1, fname, arg, lo, hi);
    lua_pop(L, 1);
    return v;
}

static int state_of(const char *name)
{
    for (int k = WF_UNIT_IDLE; k <= WF_UNIT_ESCAPING; k++)
        if (strcmp(name, wf_unit_state_name((wf_unit_state)k)) == 0)
            return k;
    return -1;
}

static void read_unit(lua_State *L, int t, const char *fname, const char *path,
                      const wf_grid *g, wf_unit_info *i, wf_fix **xy, int *n)
{
    char buf[64], arg[160];
    const lua_Integer FMAX = INT32_MAX, FMIN = INT32_MIN;
    memset(i, 0, sizeof *i);
    i->id = (uint32_t)get_int(L, t, fname, path, "id", 1, UINT32_MAX - 1);
    lua_getfield(L, t, "class");
    snprintf(arg, sizeof arg, "%s.class", path);
    if (lua_isnil(L, -1))
        wfl_error(L, fname, "%s must be a string, got nil", arg);
    g = wfl_check_grid_arg(L, 1, fname, "grid");    /* after the metamethods */
    i->cls = wfl_check_class_name(L, lua_gettop(L), fname, arg, g);
    lua_pop(L, 1);
    i->x = (wf_fix)get_int(L, t, fname, path, "x", FMIN, FMAX);
    i->y = (wf_fix)get_int(L, t, fname, path, "y", FMIN, FMAX);
    i->radius = (wf_fix)get_int(L, t, fname, path, "radius", 1, WF_UNIT_MAX_RADIUS);
    i->speed = (wf_fix)get_int(L, t, fname, path, "speed", 1, WF_UNIT_MAX_SPEED);
    lua_getfield(L, t, "state");
    snprintf(arg, sizeof arg, "%s.state", path);
    int st = state_of(wfl_check_string(L, -1, fname, arg));
    if (st < 0)
        wfl_error(L, fname, "%s must be a unit state, got %s", arg,
                  wfl_describe(L, -1, buf));
    lua_pop(L, 1);
    i->state = (wf_unit_state)st;
    i->wait = (int)get_int(L, t, fname, path, "wait", 0, INT32_MAX);
    i->order_ticks = (int)get_int(L, t, fname, path, "order_ticks", 0, INT32_MAX);
    i->unreachable = (int)get_int(L, t, fname, path, "unreachable", 0, 1);
    i->next = (int)get_int(L, t, fname, path, "next", 0, INT32_MAX);
    i->plan_seq = (uint64_t)get_int(L, t, fname, path, "plan_seq", 0,
                                    (lua_Integer)1 << 44);
    i->ex = (wf_fix)get_int(L, t, fname, path, "ex", FMIN, FMAX);
    i->ey = (wf_fix)get_int(L, t, fname, path, "ey", FMIN, FMAX);
    /* the motion state (absent from saves made before it existed) */
    i->hx = WF_FIX_ONE;
    i->bend = -1;
    static const char *const MOTION[] = {"vx", "vy", "cur", "hx", "hy", "best",
                                         "stall", "yield", "bend"};
    for (int k = 0; k < 9; k++) {
        lua_getfield(L, t, MOTION[k]);
        int absent = lua_isnil(L, -1);
        lua_pop(L, 1);
        if (absent)
            continue;
        lua_Integer v = get_int(L, t, fname, path, MOTION[k], FMIN, FMAX);
        switch (k) {
        case 0: i->vx = (wf_fix)v; break;
        case 1: i->vy = (wf_fix)v; break;
        case 2: i->cur = (wf_fix)v; break;
        case 3: i->hx = (wf_fix)v; break;
        case 4: i->hy = (wf_fix)v; break;
        case 5: i->best = (wf_fix)v; break;
        case 6: i->stall = (int)v; break;
        case 7: i->yield = (int)v; break;
        default: i->bend = (int)v; break;
        }
    }
    lua_getfield(L, t, "goal");
    if (!lua_isnil(L, -1)) {
        snprintf(arg, sizeof arg, "%s.goal", path);
        if (!lua_istable(L, -1))
            wfl_error(L, fname, "%s must be a table, got %s", arg,
                      wfl_describe(L, -1, buf));
        int gt = lua_gettop(L);
        i->has_order = 1;
        i->goal.type = (wf_goal_type)get_int(L, gt, fname, arg, "type", 0, 2);
        i->goal.x = (wf_fix)get_int(L, gt, fname, arg, "x", FMIN, FMAX);
        i->goal.y = (wf_fix)get_int(L, gt, fname, arg, "y", FMIN, FMAX);
        i->goal.hw = (wf_fix)get_int(L, gt, fname, arg, "hw", 0, FMAX);
        i->goal.hh = (wf_fix)get_int(L, gt, fname, arg, "hh", 0, FMAX);
        i->goal.ux = (wf_fix)get_int(L, gt, fname, arg, "ux", -WF_FIX_ONE, WF_FIX_ONE);
        i->goal.uy = (wf_fix)get_int(L, gt, fname, arg, "uy", -WF_FIX_ONE, WF_FIX_ONE);
        i->goal.vx = -i->goal.uy;
        i->goal.vy = i->goal.ux;
        i->goal.r = (wf_fix)get_int(L, gt, fname, arg, "r", 0, FMAX);
        i->goal.inverted = (int)get_int(L, gt, fname, arg, "inverted", 0, 1);
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "waypoints");
    snprintf(arg, sizeof arg, "%s.waypoints", path);
    if (!lua_istable(L, -1))
        wfl_error(L, fname, "%s must be a table, got %s", arg,
                  wfl_describe(L, -1, buf));
    lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
    if (len % 2 || len > 2 * (lua_Integer)WF_MAX_CELLS)
        wfl_error(L, fname, "%s must hold x, y pairs", arg);
    *n = (int)(len / 2);
    i->nway = *n;
    /* a userdata buffer, so an error below frees it with the rest */
    *xy = lua_newuserdatauv(L, (size_t)(len ? len : 1) * sizeof **xy, 0);
    lua_insert(L, -2);
    for (lua_Integer k = 1; k <= len; k++) {
        lua_rawgeti(L, -1, k);
        snprintf(arg, sizeof arg, "%s.waypoints[%lld]", path, (long long)k);
        (*xy)[k - 1] = (wf_fix)wfl_check_int(L, -1, fname, arg, FMIN, FMAX);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);   /* the waypoints; the buffer stays on the stack */
}

/* A saved unit may stand where its class cannot (touching a navcell
   blocked for it) only when it is escaping, or when the save says the grid
   closed over it since the last tick (saved "blocked = true"; it escapes
   on the next tick, as the original would). Anything else is a save that
   does not belong to this grid. Positions outside the grid are left to
   wf_units_restore. */
static void check_standing(lua_State *L, int marked, const char *fname,
                           const char *path, const wf_grid *g,
                           const wf_unit_info *i)
{
    int64_t wx = (int64_t)wf_grid_width(g) * 65536;
    int64_t wy = (int64_t)wf_grid_height(g) * 65536;
    if (i->state == WF_UNIT_ESCAPING || i->x < 0 || i->y < 0 || i->x >= wx
        || i->y >= wy || wf_sweep_point_clear(g, i->cls, i->x, i->y))
        return;
    if (!marked)
        wfl_error(L, fname, "%s (unit %lu) stands at (%g, %g), on a navcell "
                  "blocked for class '%s' in this grid", path,
                  (unsigned long)i->id, i->x / FIXF, i->y / FIXF,
                  wf_grid_class_name(g, i->cls));
}

static int l_load(lua_State *L)
{
    const char *fname = "wayfinder.units.load";
    wf_grid *g = wfl_check_grid_arg(L, 1, fname, "grid");
    char buf[64], path[64];
    if (!lua_istable(L, 2))
        wfl_error(L, fname, "saved must be a table from units:save(), got %s",
                  wfl_describe(L, 2, buf));
    get_int(L, 2, fname, "saved", "version", 1, 1);
    lua_getfield(L, 2, "options");
    if (!lua_istable(L, -1))
        wfl_error(L, fname, "saved.options must be a table, got %s",
                  wfl_describe(L, -1, buf));
    wf_units_config cfg;
    read_config(L, lua_gettop(L), fname, &cfg);
    lua_pop(L, 1);
    wf_units_clock c;
    lua_getfield(L, 2, "clock");
    if (!lua_istable(L, -1))
        wfl_error(L, fname, "saved.clock must be a table, got %s",
                  wfl_describe(L, -1, buf));
    int ct = lua_gettop(L);
    c.next_id = (uint32_t)get_int(L, ct, fname, "saved.clock", "next_id", 1,
                                  UINT32_MAX);
    c.ticks = (uint64_t)get_int(L, ct, fname, "saved.clock", "ticks", 0,
                                (lua_Integer)WFL_EXACT_LIMIT - 1);
    c.next_seq = (uint64_t)get_int(L, ct, fname, "saved.clock", "next_seq", 1,
                                   (lua_Integer)1 << 44);
    c.head_spent = (uint64_t)get_int(L, ct, fname, "saved.clock", "head_spent",
                                     0, WFL_MAX_BUDGET);
    lua_pop(L, 1);
    lua_getfield(L, 2, "units");
    if (!lua_istable(L, -1))
        wfl_error(L, fname, "saved.units must be a table, got %s",
                  wfl_describe(L, -1, buf));
    int ut = lua_gettop(L);
    lua_Integer n = (lua_Integer)lua_rawlen(L, ut);
    if (n > (lua_Integer)cfg.capacity)
        wfl_error(L, fname, "saved.units holds more units than options.capacity");
    /* the tables read so far may have closed the grid (metamethods) */
    g = wfl_check_grid_arg(L, 1, fname, "grid");
    lunits *s = push_units(L, 1, g, &cfg, fname);
    int top = lua_gettop(L);
    for (lua_Integer k = 1; k <= n; k++) {
        lua_rawgeti(L, ut, k);
        snprintf(path, sizeof path, "saved.units[%lld]", (long long)k);
        if (!lua_istable(L, -1))
            wfl_error(L, fname, "%s must be a table, got %s", path,
                      wfl_describe(L, -1, buf));
        wf_unit_info i;
        wf_fix *xy;
        int nw;
        int unit_t = lua_gettop(L);
        read_unit(L, unit_t, fname, path, g, &i, &xy, &nw);
        lua_getfield(L, unit_t, "blocked");
        int marked = lua_toboolean(L, -1);
        lua_pop(L, 1);
        g = wfl_check_grid_arg(L, 1, fname, "grid");
        check_standing(L, marked, fname, path, g, &i);
        wf_status st = wf_units_restore(s->u, g, &i, xy, nw);
        if (st == WF_ERR_ARG)
            wfl_error(L, fname, "%s is not a consistent unit for this grid", path);
        if (st != WF_OK)
            raise_status(L, fname, st);
        lua_settop(L, top);
    }
    wf_status st = wf_units_set_clock(s->u, &c);
    if (st == WF_ERR_ARG)
        wfl_error(L, fname, "saved.clock does not agree with saved.units");
    if (st != WF_OK)
        raise_status(L, fname, st);
    return 1;
}

/* ----------------------------------------------- spawning, placement -- */

static const char *const SHAPE_KEYS[] = {"x", "y", "half_width", "half_height",
                                         "angle", NULL};

/* A footprint {x, y, half_width, half_height [, angle]} at idx. */
static void read_shape(lua_State *L, int idx, const char *fname, wf_shape *f)
{
    char buf[64];
    if (!lua_istable(L, idx))
        wfl_error(L, fname, "shape must be a table {x =, y =, half_width =, "
                  "half_height = [, angle =]}, got %s", wfl_describe(L, idx, buf));
    wfl_check_keys(L, idx, fname, "shape", SHAPE_KEYS);
    lua_getfield(L, idx, "x");
    wf_fix x = wfl_check_fix(L, -1, fname, "shape.x", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT);
    lua_getfield(L, idx, "y");
    wf_fix y = wfl_check_fix(L, -1, fname, "shape.y", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT);
    lua_getfield(L, idx, "half_width");
    wf_fix hw = wfl_check_fix(L, -1, fname, "shape.half_width", 0, 4096);
    lua_getfield(L, idx, "half_height");
    wf_fix hh = wfl_check_fix(L, -1, fname, "shape.half_height", 0, 4096);
    wf_fix ux = WF_FIX_ONE, uy = 0;
    if (lua_getfield(L, idx, "angle") != LUA_TNIL) {
        lua_Number a = wfl_check_range(L, -1, fname, "shape.angle", -1e6, 1e6);
        ux = (wf_fix)lround(cos(a) * 65536.0);
        uy = (wf_fix)lround(sin(a) * 65536.0);
    }
    lua_pop(L, 5);
    wf_shape_init(f, x, y, hw, hh, ux, uy);
}

static int l_spawn_points(lua_State *L)
{
    const char *fname = "units:spawn_points";
    lunits *s = check_units(L, fname);
    wf_shape f;
    read_shape(L, 2, fname, &f);
    wf_grid *g = units_grid(L, fname);
    int cls = wfl_check_class_name(L, 3, fname, "class", g);
    wf_fix r = wfl_check_fix(L, 4, fname, "radius", 0, 8);
    if (r <= 0)
        wfl_error(L, fname, "radius must be a number in (0, 8], got %g",
                  (double)lua_tonumber(L, 4));
    int n = (int)wfl_check_int(L, 5, fname, "n", 0, 4096);
    wf_fix *xy = lua_newuserdatauv(L, (size_t)(n ? n : 1) * 2 * sizeof *xy, 0);
    int count;
    g = recheck(L, fname, &s);
    wf_status st = wf_units_spawn_points(s->u, g, &f, cls, r, n, xy, &count);
    if (st != WF_OK)
        return raise_status(L, fname, st);
    return push_points(L, xy, count);
}

static int l_disperse(lua_State *L)
{
    const char *fname = "units:disperse";
    lunits *s = check_units(L, fname);
    wf_shape f;
    read_shape(L, 2, fname, &f);
    recheck(L, fname, &s);
    uint32_t builder = lua_isnoneornil(L, 3) ? 0 : check_id(L, s, 3, fname);
    size_t n = wf_units_count(s->u);
    uint32_t *ids = lua_newuserdatauv(L, (n ? n : 1) * sizeof *ids, 0);
    wf_grid *g = recheck(L, fname, &s);      /* the allocation may collect */
    size_t count;
    wf_status st = wf_units_disperse(s->u, g, &f, builder, ids, n, &count);
    if (st != WF_OK)
        return raise_status(L, fname, st);
    lua_createtable(L, (int)count, 0);
    for (size_t k = 0; k < count; k++) {
        lua_pushinteger(L, ids[k]);
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    return 1;
}

/* The grid at index 1, open, with the grid methods' own messages. */
static wf_grid *check_self_grid(lua_State *L, const char *fname)
{
    char buf[64];
    if (!luaL_testudata(L, 1, "wayfinder.Grid"))
        wfl_error(L, fname, "self must be a wayfinder.Grid, got %s "
                  "(call it as grid:method(...))", wfl_describe(L, 1, buf));
    /* the grid's own is_closed, so the message matches its methods' */
    lua_getfield(L, 1, "is_closed");
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    if (lua_toboolean(L, -1))
        wfl_error(L, fname, "the grid is closed");
    lua_pop(L, 1);
    return wfl_check_grid_arg(L, 1, fname, "self");
}

static int l_check_building(lua_State *L)
{
    const char *fname = "grid:check_building";
    check_self_grid(L, fname);
    wf_shape f;
    read_shape(L, 2, fname, &f);
    wf_grid *g = check_self_grid(L, fname);   /* again: after the table */
    int cls = wfl_check_class_name(L, 3, fname, "class", g);
    wf_fix margin = WF_FIX_ONE;
    if (!lua_isnoneornil(L, 4))
        margin = wfl_check_fix(L, 4, fname, "margin", 0, 64);
    int ok, bx = 0, by = 0;
    wf_status st = wf_grid_check_building(g, &f, cls, margin, &ok, &bx, &by);
    if (st != WF_OK)
        return raise_status(L, fname, st);
    if (ok) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, 0);
    lua_pushstring(L, bx >= 0 && by >= 0 && bx < wf_grid_width(g)
                      && by < wf_grid_height(g) ? "blocked" : "outside");
    lua_pushinteger(L, bx);
    lua_pushinteger(L, by);
    return 4;
}

/* ------------------------------------------------------------- ranges -- */

static int l_max_range_structure(lua_State *L)
{
    const char *fname = "wayfinder.units.max_range_structure";
    wf_fix range = wfl_check_fix(L, 1, fname, "range", 0, WF_MAX_SIDE);
    int c = (int)wfl_check_int(L, 2, fname, "clearance", 0, WF_MAX_CLEARANCE);
    lua_pushnumber(L, wf_max_range_structure(range, c) / FIXF);
    return 1;
}

static int l_max_range_unit(lua_State *L)
{
    const char *fname = "wayfinder.units.max_range_unit";
    wf_fix range = wfl_check_fix(L, 1, fname, "range", 0, WF_MAX_SIDE);
    wf_fix r1 = wfl_check_fix(L, 2, fname, "r1", 0, 8);
    wf_fix r2 = wfl_check_fix(L, 3, fname, "r2", 0, 8);
    lua_pushnumber(L, wf_max_range_unit(range, r1, r2) / FIXF);
    return 1;
}

/* -------------------------------------------------------------- close -- */

static int l_close(lua_State *L)
{
    char buf[64];
    lunits *s = luaL_testudata(L, 1, UNITS_MT);
    if (!s)
        return wfl_error(L, "units:close", "self must be a wayfinder.Units, got %s "
                         "(call it as units:close())", wfl_describe(L, 1, buf));
    wf_units_destroy(s->u);
    s->u = NULL;
    free(s->ev);
    s->ev = NULL;
    return 0;
}

static int l_tostring(lua_State *L)
{
    lunits *s = luaL_checkudata(L, 1, UNITS_MT);
    if (!s->u)
        lua_pushliteral(L, "wayfinder.Units (closed)");
    else
        lua_pushfstring(L, "wayfinder.Units (%d units)",
                        (int)wf_units_count(s->u));
    return 1;
}

static const luaL_Reg METHODS[] = {
    {"add", l_add},
    {"check_placement", l_check_placement},
    {"short_path", l_short_path},
    {"vertex_edges", l_vertex_edges},
    {"spawn_points", l_spawn_points},
    {"disperse", l_disperse},
    {"move", l_move},
    {"stop", l_stop},
    {"remove", l_remove},
    {"tick", l_tick},
    {"position", l_position},
    {"state", l_state},
    {"info", l_info},
    {"ids", l_ids},
    {"count", l_count},
    {"memory", l_memory},
    {"save", l_save},
    {"close", l_close},
    {NULL, NULL}
};

void wfl_register_units(lua_State *L)
{
    wfl_new_type(L, UNITS_MT, METHODS, l_close, l_tostring);
    lua_pop(L, 1);
    /* grid:check_building joins the grid's methods (made by lgrid.c) */
    int top = lua_gettop(L);
    if (luaL_getmetatable(L, "wayfinder.Grid") == LUA_TTABLE
        && lua_getfield(L, -1, "__index") == LUA_TTABLE) {
        lua_pushcfunction(L, l_check_building);
        lua_setfield(L, -2, "check_building");
    }
    lua_settop(L, top);
    lua_pushcfunction(L, l_new);
    lua_setfield(L, -2, "units_new");
    lua_pushcfunction(L, l_load);
    lua_setfield(L, -2, "units_load");
    lua_pushcfunction(L, l_max_range_structure);
    lua_setfield(L, -2, "units_max_range_structure");
    lua_pushcfunction(L, l_max_range_unit);
    lua_setfield(L, -2, "units_max_range_unit");
}
