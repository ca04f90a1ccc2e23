/* lwalker.c - the "wayfinder.Walker" userdata: the walker, the
 * route-following core of a house world. The Lua world
 * (lua/wayfinder/world/) owns one and talks to it in fixed point
 * (Q16.16 integers); scripts use the world, not this. */
#include <stdlib.h>
#include <string.h>

#include "lcheck.h"

#define WALKER_MT "wayfinder.Walker"
#define FIX_LIMIT ((lua_Integer)WF_WALKER_MAX_SIDE * 65536)

typedef struct lwalker {
    wfl_life life;           /* first: see lcheck.h */
    wf_walker *wk;           /* NULL once released */
    wf_move_event *events;  /* one per person */
    size_t events_cap;
} lwalker;

static lwalker *check_walker(lua_State *L, const char *fname)
{
    lwalker *u = wfl_check_self(L, WALKER_MT, fname, "a wayfinder.Walker",
                                NULL);
    if (!u->wk || u->life.closed)
        wfl_error(L, fname, "the walker is closed");
    return u;
}

static void walker_release(void *obj)
{
    lwalker *u = obj;
    wf_walker_destroy(u->wk);
    u->wk = NULL;
    free(u->events);
    u->events = NULL;
    u->events_cap = 0;
}

static wf_fix fix_arg(lua_State *L, int idx, const char *fname, const char *arg)
{
    return (wf_fix)wfl_check_int(L, idx, fname, arg, -FIX_LIMIT, FIX_LIMIT);
}

static uint32_t id_arg(lua_State *L, int idx, const char *fname,
                       const char *arg)
{
    return (uint32_t)wfl_check_int(L, idx, fname, arg, 1, 0x7fffffff);
}

static void edge_args(lua_State *L, lwalker *u, const char *fname, int *v,
                      int *x, int *y)
{
    *v = wfl_check_boolean(L, 2, fname, "vertical");
    int w = wf_walker_width(u->wk), h = wf_walker_height(u->wk);
    *x = (int)wfl_check_int(L, 3, fname, "x", 0, *v ? w : w - 1);
    *y = (int)wfl_check_int(L, 4, fname, "y", 0, *v ? h - 1 : h);
}

static int l_walker_new(lua_State *L)
{
    const char *fname = "wayfinder.core.walker_new";
    lua_Integer w = wfl_check_int(L, 1, fname, "width", 1, WF_WALKER_MAX_SIDE);
    lua_Integer h = wfl_check_int(L, 2, fname, "height", 1, WF_WALKER_MAX_SIDE);
    if ((int64_t)w * h > WF_WALKER_MAX_TILES)
        wfl_error(L, fname, "width*height must be at most %lld tiles, got %lld",
                  (long long)WF_WALKER_MAX_TILES, (long long)(w * h));
    lwalker *u = lua_newuserdatauv(L, sizeof *u, 0);
    wfl_life_init(&u->life, walker_release);
    u->wk = NULL;
    u->events = NULL;
    u->events_cap = 0;
    luaL_setmetatable(L, WALKER_MT);
    wf_status st = wf_walker_create(&u->wk, (int)w, (int)h);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 1;
}

static int l_set_wall(lua_State *L)
{
    const char *fname = "walker:set_wall";
    lwalker *u = check_walker(L, fname);
    int v, x, y;
    edge_args(L, u, fname, &v, &x, &y);
    int wall = wfl_check_boolean(L, 5, fname, "wall");
    wf_status st = wf_walker_set_wall(u->wk, v, x, y, wall);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

static int l_wall(lua_State *L)
{
    const char *fname = "walker:wall";
    lwalker *u = check_walker(L, fname);
    int v, x, y;
    edge_args(L, u, fname, &v, &x, &y);
    lua_pushboolean(L, wf_walker_wall(u->wk, v, x, y));
    return 1;
}

static int l_set_door(lua_State *L)
{
    const char *fname = "walker:set_door";
    lwalker *u = check_walker(L, fname);
    int v, x, y;
    edge_args(L, u, fname, &v, &x, &y);
    uint32_t id = (uint32_t)wfl_check_int(L, 5, fname, "door", 0, 0x7fffffff);
    int open = wfl_check_boolean(L, 6, fname, "open");
    wf_status st = wf_walker_set_door(u->wk, v, x, y, id, open);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

static int l_set_box(lua_State *L)
{
    const char *fname = "walker:set_box";
    lwalker *u = check_walker(L, fname);
    uint32_t id = id_arg(L, 2, fname, "id");
    wf_fix x0 = fix_arg(L, 3, fname, "x0"), y0 = fix_arg(L, 4, fname, "y0");
    wf_fix x1 = fix_arg(L, 5, fname, "x1"), y1 = fix_arg(L, 6, fname, "y1");
    if (x1 < x0 || y1 < y0)
        wfl_error(L, fname, "the box must have x0 <= x1 and y0 <= y1");
    wf_status st = wf_walker_set_box(u->wk, id, x0, y0, x1, y1);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

static int l_remove_box(lua_State *L)
{
    const char *fname = "walker:remove_box";
    lwalker *u = check_walker(L, fname);
    uint32_t id = id_arg(L, 2, fname, "id");
    wf_status st = wf_walker_remove_box(u->wk, id);
    if (st == WF_ERR_NOTFOUND)
        wfl_error(L, fname, "id %d names no box", (int)id);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

static void check_xy(lua_State *L, lwalker *u, const char *fname, wf_fix x,
                     wf_fix y)
{
    if (x < 0 || y < 0 || (int64_t)x >= (int64_t)wf_walker_width(u->wk) * 65536
        || (int64_t)y >= (int64_t)wf_walker_height(u->wk) * 65536)
        wfl_error(L, fname, "position (%d, %d) lies outside the world",
                  (int)x, (int)y);
}

static int l_add_person(lua_State *L)
{
    const char *fname = "walker:add_person";
    lwalker *u = check_walker(L, fname);
    uint32_t id = id_arg(L, 2, fname, "id");
    wf_fix x = fix_arg(L, 3, fname, "x"), y = fix_arg(L, 4, fname, "y");
    wf_fix half = (wf_fix)wfl_check_int(L, 5, fname, "half", 1,
                                        WF_WALKER_MAX_HALF);
    wf_fix speed = (wf_fix)wfl_check_int(L, 6, fname, "speed", 1, WF_FIX_ONE);
    int facing = (int)wfl_check_int(L, 7, fname, "facing", 0, 7);
    check_xy(L, u, fname, x, y);
    wf_person_state ps;
    if (wf_walker_person(u->wk, id, &ps) == WF_OK)
        wfl_error(L, fname, "id %d is already a person", (int)id);
    size_t need = wf_walker_person_count(u->wk) + 1;
    if (need > u->events_cap) {
        size_t cap = u->events_cap ? u->events_cap * 2 : 16;
        wf_move_event *e = realloc(u->events, cap * sizeof *e);
        if (!e)
            return wfl_raise_status(L, fname, WF_ERR_NOMEM);
        u->events = e;
        u->events_cap = cap;
    }
    wf_status st = wf_walker_add_person(u->wk, id, x, y, half, speed, facing);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

static uint32_t person_arg(lua_State *L, lwalker *u, const char *fname)
{
    uint32_t id = id_arg(L, 2, fname, "id");
    wf_person_state ps;
    if (wf_walker_person(u->wk, id, &ps) != WF_OK)
        wfl_error(L, fname, "id %d names no person", (int)id);
    return id;
}

static int l_remove_person(lua_State *L)
{
    const char *fname = "walker:remove_person";
    lwalker *u = check_walker(L, fname);
    uint32_t id = person_arg(L, u, fname);
    wf_status st = wf_walker_remove_person(u->wk, id);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

static int l_place(lua_State *L)
{
    const char *fname = "walker:place";
    lwalker *u = check_walker(L, fname);
    uint32_t id = person_arg(L, u, fname);
    wf_fix x = fix_arg(L, 3, fname, "x"), y = fix_arg(L, 4, fname, "y");
    int facing = (int)wfl_check_int(L, 5, fname, "facing", 0, 7);
    check_xy(L, u, fname, x, y);
    wf_status st = wf_walker_place_person(u->wk, id, x, y, facing);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

static int l_set_speed(lua_State *L)
{
    const char *fname = "walker:set_speed";
    lwalker *u = check_walker(L, fname);
    uint32_t id = person_arg(L, u, fname);
    wf_fix speed = (wf_fix)wfl_check_int(L, 3, fname, "speed", 1, WF_FIX_ONE);
    wf_status st = wf_walker_set_speed(u->wk, id, speed);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

/* set_route(id, {x1, y1, x2, y2, ...}, index0): index0 is 0-based. */
static int l_set_route(lua_State *L)
{
    const char *fname = "walker:set_route";
    lwalker *u = check_walker(L, fname);
    uint32_t id = person_arg(L, u, fname);
    char buf[64];
    if (!lua_istable(L, 3))
        wfl_error(L, fname, "points must be a table of fixed point x, y "
                  "pairs, got %s", wfl_describe(L, 3, buf));
    lua_Integer len = luaL_len(L, 3);
    if (len < 2 || len % 2 != 0 || len > 2 * (lua_Integer)WF_WALKER_MAX_POINTS)
        wfl_error(L, fname, "points must hold 1 to %d x, y pairs, got %lld "
                  "values", WF_WALKER_MAX_POINTS, (long long)len);
    int n = (int)(len / 2);
    int index = (int)wfl_check_int(L, 4, fname, "index", 0, n);
    wf_fix *xy = lua_newuserdatauv(L, (size_t)len * sizeof *xy, 0);
    for (lua_Integer k = 0; k < len; k++) {
        lua_rawgeti(L, 3, k + 1);
        xy[k] = fix_arg(L, -1, fname, k % 2 ? "points y" : "points x");
        lua_pop(L, 1);
    }
    for (int k = 0; k < n; k++)
        check_xy(L, u, fname, xy[2 * k], xy[2 * k + 1]);
    wf_status st = wf_walker_set_route(u->wk, id, xy, n, index);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

/* set_motion(id, accel, turn_rate, arrive_radius, lookahead,
 * corner_radius): fixed point integers (turn_rate in 2^-40 radian), 0 for
 * an option that is off; the world checks them for scripts. */
static int l_set_motion(lua_State *L)
{
    const char *fname = "walker:set_motion";
    lwalker *u = check_walker(L, fname);
    uint32_t id = person_arg(L, u, fname);
    wf_walker_motion m;
    m.accel = (wf_fix)wfl_check_int(L, 3, fname, "accel", 0, WF_FIX_ONE);
    m.turn_rate = (int64_t)wfl_check_int(L, 4, fname, "turn_rate", 0,
                                         3454217652358LL);
    m.arrive_radius = (wf_fix)wfl_check_int(L, 5, fname, "arrive_radius", 0,
                                            FIX_LIMIT);
    m.lookahead = wfl_check_boolean(L, 6, fname, "lookahead");
    m.corner_radius = (wf_fix)wfl_check_int(L, 7, fname, "corner_radius", 0,
                                            16 * 65536);
    wf_status st = wf_walker_set_motion(u->wk, id, &m);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

/* motion(id) -> accel, turn_rate, arrive_radius, lookahead, corner_radius,
 * cur, hx, hy, bend (integers as set_motion takes them; bend 0-based) */
static int l_motion(lua_State *L)
{
    const char *fname = "walker:motion";
    lwalker *u = check_walker(L, fname);
    uint32_t id = person_arg(L, u, fname);
    wf_walker_motion m;
    wf_walker_motion_state ms;
    wf_walker_motion_of(u->wk, id, &m, &ms);
    lua_pushinteger(L, m.accel);
    lua_pushinteger(L, (lua_Integer)m.turn_rate);
    lua_pushinteger(L, m.arrive_radius);
    lua_pushboolean(L, m.lookahead);
    lua_pushinteger(L, m.corner_radius);
    lua_pushinteger(L, ms.cur);
    lua_pushinteger(L, ms.hx);
    lua_pushinteger(L, ms.hy);
    lua_pushinteger(L, ms.bend);
    return 9;
}

/* set_motion_state(id, cur, hx, hy, bend): restores what motion(id) read */
static int l_set_motion_state(lua_State *L)
{
    const char *fname = "walker:set_motion_state";
    lwalker *u = check_walker(L, fname);
    uint32_t id = person_arg(L, u, fname);
    wf_walker_motion_state ms;
    ms.cur = (wf_fix)wfl_check_int(L, 3, fname, "cur", 0, WF_FIX_ONE);
    ms.hx = (wf_fix)wfl_check_int(L, 4, fname, "hx", -WF_FIX_ONE, WF_FIX_ONE);
    ms.hy = (wf_fix)wfl_check_int(L, 5, fname, "hy", -WF_FIX_ONE, WF_FIX_ONE);
    ms.bend = (int)wfl_check_int(L, 6, fname, "bend", -1, WF_WALKER_MAX_POINTS);
    wf_status st = wf_walker_set_motion_state(u->wk, id, &ms);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

/* set_avoidance(mode): "none" or "sidestep"; avoidance() -> the mode. */
static const char *const AVOID_NAMES[] = {"none", "sidestep", NULL};

static int l_set_avoidance(lua_State *L)
{
    const char *fname = "walker:set_avoidance";
    lwalker *u = check_walker(L, fname);
    const char *mode = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    for (int k = 0; mode && AVOID_NAMES[k]; k++)
        if (strcmp(mode, AVOID_NAMES[k]) == 0) {
            wf_walker_set_avoidance(u->wk, k);
            return 0;
        }
    return wfl_error(L, fname, "mode must be 'none' or 'sidestep', got %s",
                     mode ? mode : luaL_typename(L, 2));
}

static int l_avoidance(lua_State *L)
{
    lwalker *u = check_walker(L, "walker:avoidance");
    lua_pushstring(L, AVOID_NAMES[wf_walker_avoidance(u->wk)]);
    return 1;
}

static int l_stop(lua_State *L)
{
    const char *fname = "walker:stop";
    lwalker *u = check_walker(L, fname);
    wf_walker_stop(u->wk, person_arg(L, u, fname));
    return 0;
}

/* person(id) -> x, y, facing, walking, index, npoints, half, speed */
static int l_person(lua_State *L)
{
    const char *fname = "walker:person";
    lwalker *u = check_walker(L, fname);
    uint32_t id = person_arg(L, u, fname);
    wf_person_state ps;
    wf_walker_person(u->wk, id, &ps);
    lua_pushinteger(L, ps.x);
    lua_pushinteger(L, ps.y);
    lua_pushinteger(L, ps.facing);
    lua_pushboolean(L, ps.walking);
    lua_pushinteger(L, ps.index);
    lua_pushinteger(L, ps.npoints);
    lua_pushinteger(L, ps.half);
    lua_pushinteger(L, ps.speed);
    return 8;
}

static int l_route(lua_State *L)
{
    const char *fname = "walker:route";
    lwalker *u = check_walker(L, fname);
    uint32_t id = person_arg(L, u, fname);
    const wf_fix *xy;
    int n;
    wf_walker_route(u->wk, id, &xy, &n);
    lua_createtable(L, 2 * n, 0);
    for (int k = 0; k < 2 * n; k++) {
        lua_pushinteger(L, xy[k]);
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

/* positions(t) fills t with id, x, y, facing per person in id order and
 * returns the person count. */
static int l_positions(lua_State *L)
{
    const char *fname = "walker:positions";
    lwalker *u = check_walker(L, fname);
    char buf[64];
    if (lua_type(L, 2) != LUA_TTABLE)
        wfl_error(L, fname, "t must be a table, got %s",
                  wfl_describe(L, 2, buf));
    size_t n = wf_walker_person_count(u->wk);
    for (size_t k = 0; k < n; k++) {
        uint32_t id = wf_walker_person_id(u->wk, k);
        wf_person_state ps;
        wf_walker_person(u->wk, id, &ps);
        lua_pushinteger(L, (lua_Integer)id);
        lua_rawseti(L, 2, (lua_Integer)(4 * k + 1));
        lua_pushinteger(L, ps.x);
        lua_rawseti(L, 2, (lua_Integer)(4 * k + 2));
        lua_pushinteger(L, ps.y);
        lua_rawseti(L, 2, (lua_Integer)(4 * k + 3));
        lua_pushinteger(L, ps.facing);
        lua_rawseti(L, 2, (lua_Integer)(4 * k + 4));
    }
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}

/* step() -> {id, kind, blocker, id, kind, blocker, ...} */
static int l_step(lua_State *L)
{
    const char *fname = "walker:step";
    lwalker *u = check_walker(L, fname);
    size_t count = 0;
    wf_status st = wf_walker_step(u->wk, u->events, u->events_cap, &count);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_createtable(L, (int)(3 * count), 0);
    for (size_t k = 0; k < count; k++) {
        lua_pushinteger(L, (lua_Integer)u->events[k].id);
        lua_rawseti(L, -2, (lua_Integer)(3 * k + 1));
        lua_pushinteger(L, u->events[k].kind);
        lua_rawseti(L, -2, (lua_Integer)(3 * k + 2));
        lua_pushinteger(L, (lua_Integer)u->events[k].blocker);
        lua_rawseti(L, -2, (lua_Integer)(3 * k + 3));
    }
    return 1;
}

/* square_free(x, y, half, ignore) -> true | false, blocker */
static int l_square_free(lua_State *L)
{
    const char *fname = "walker:square_free";
    lwalker *u = check_walker(L, fname);
    wf_fix x = fix_arg(L, 2, fname, "x"), y = fix_arg(L, 3, fname, "y");
    wf_fix half = (wf_fix)wfl_check_int(L, 4, fname, "half", 1,
                                        WF_WALKER_MAX_HALF);
    uint32_t ignore = (uint32_t)wfl_check_int(L, 5, fname, "ignore", 0,
                                              0x7fffffff);
    uint32_t blk = 0;
    int ok = 0;
    wf_status st = wf_walker_square_free(u->wk, x, y, half, ignore, &ok, &blk);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_pushboolean(L, ok);
    lua_pushinteger(L, (lua_Integer)blk);
    return 2;
}

static int l_close(lua_State *L)
{
    lwalker *u = wfl_check_self(L, WALKER_MT, "walker:close",
                                "a wayfinder.Walker", NULL);
    wfl_life_close(&u->life);
    return 0;
}

static int l_tostring(lua_State *L)
{
    lwalker *u = wfl_check_self(L, WALKER_MT, "walker:__tostring",
                                "a wayfinder.Walker", NULL);
    if (!u->wk || u->life.closed)
        lua_pushstring(L, "wayfinder.Walker (closed)");
    else
        lua_pushfstring(L, "wayfinder.Walker (%dx%d, %d people)",
                        wf_walker_width(u->wk), wf_walker_height(u->wk),
                        (int)wf_walker_person_count(u->wk));
    return 1;
}

static const luaL_Reg walker_methods[] = {
    {"set_wall", l_set_wall},
    {"wall", l_wall},
    {"set_door", l_set_door},
    {"set_box", l_set_box},
    {"remove_box", l_remove_box},
    {"add_person", l_add_person},
    {"remove_person", l_remove_person},
    {"place", l_place},
    {"set_speed", l_set_speed},
    {"set_route", l_set_route},
    {"stop", l_stop},
    {"set_motion", l_set_motion},
    {"motion", l_motion},
    {"set_motion_state", l_set_motion_state},
    {"set_avoidance", l_set_avoidance},
    {"avoidance", l_avoidance},
    {"person", l_person},
    {"route", l_route},
    {"positions", l_positions},
    {"step", l_step},
    {"square_free", l_square_free},
    {"close", l_close},
    {NULL, NULL}
};

void wfl_register_walker(lua_State *L)
{
    static const luaL_Reg functions[] = {{"walker_new", l_walker_new},
                                         {NULL, NULL}};
    wfl_new_life_type(L, WALKER_MT, walker_methods, l_close, l_tostring);
    lua_pop(L, 1);
    wfl_setfuncs(L, functions);
}
