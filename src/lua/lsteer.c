/* lsteer.c - the "wayfinder.Group" userdata: a steering group (steer.c).
 * Agents are numbered from 1 here, from 0 in the core. */
#include <stdio.h>
#include <string.h>

#include "lunits.h"
#include "lsteer.h"
#include "../steer.h"

#define GROUP_MT "wayfinder.Group"

typedef struct lgroup {
    wfl_life life;        /* first: see lcheck.h */
    wf_steer *s;          /* NULL once released */
} lgroup;

static void group_release(void *obj)
{
    lgroup *g = obj;
    wf_steer_destroy(g->s);
    g->s = NULL;
}

static const char *const KIND_NAMES[WF_STEER_COUNT + 1] = {
    "seek", "flee", "arrive", "pursue", "evade", "wander", "separation",
    "alignment", "cohesion", NULL};

static lgroup *check_group(lua_State *L, const char *fname)
{
    lgroup *g = wfl_check_self(L, GROUP_MT, fname, "a wayfinder.Group",
                               "group:method(...)");
    if (!g->s || g->life.closed)
        wfl_error(L, fname, "the group is closed");
    return g;
}

static int check_agent(lua_State *L, lgroup *g, int idx, const char *fname,
                       const char *arg)
{
    int n = wf_steer_count(g->s);
    char buf[64];
    if (n == 0 || !lua_isnumber(L, idx))
        wfl_error(L, fname, "%s must be an agent of the group (1 to %d), got %s",
                  arg, n, wfl_describe(L, idx, buf));
    return (int)wfl_check_int(L, idx, fname, arg, 1, n) - 1;
}

/* A length option: a number in (0, hi], Q16.16 at least 1/65536. */
static wf_fix opt_len(lua_State *L, int t, const char *fname, const char *key,
                      wf_fix def, double hi, int zero_ok)
{
    char arg[64];
    snprintf(arg, sizeof arg, "options.%s", key);
    lua_getfield(L, t, key);
    wf_fix v = def;
    if (!lua_isnil(L, -1)) {
        double x = wfl_check_range(L, -1, fname, arg, 0, hi);
        v = wfl_to_fix(x);
        if (v == 0 && !zero_ok)
            wfl_error(L, fname, "%s must be in (0, %g], got %g", arg, hi, x);
    }
    lua_pop(L, 1);
    return v;
}

static const char *const OPTION_KEYS[] = {
    "max_speed", "max_accel", "slow_radius", "neighbour_radius",
    "separation_radius", "lookahead", "wander_distance", "wander_radius",
    "wander_jitter", "radius", "seed", "capacity", NULL};

static int l_group(lua_State *L)
{
    const char *fname = "wayfinder.steer.group";
    wf_steer_config c;
    wf_steer_config_default(&c);
    if (wfl_opt_table(L, 1, fname, "options")) {
        wfl_check_keys(L, 1, fname, "options", OPTION_KEYS);
        c.max_speed = opt_len(L, 1, fname, "max_speed", c.max_speed, 8, 0);
        c.max_accel = opt_len(L, 1, fname, "max_accel", c.max_accel, 8, 0);
        c.slow_radius = opt_len(L, 1, fname, "slow_radius", c.slow_radius,
                                1024, 0);
        c.neighbour_radius = opt_len(L, 1, fname, "neighbour_radius",
                                     c.neighbour_radius, 64, 0);
        lua_getfield(L, 1, "separation_radius");
        int sep_given = !lua_isnil(L, -1);
        lua_pop(L, 1);
        if (!sep_given && c.separation_radius > c.neighbour_radius)
            c.separation_radius = c.neighbour_radius;
        c.separation_radius = opt_len(L, 1, fname, "separation_radius",
                                      c.separation_radius, 64, 0);
        if (c.separation_radius > c.neighbour_radius)
            wfl_error(L, fname, "options.separation_radius must be at most "
                      "options.neighbour_radius (%g), got %g",
                      (double)wfl_from_fix(c.neighbour_radius),
                      (double)wfl_from_fix(c.separation_radius));
        lua_getfield(L, 1, "lookahead");
        if (!lua_isnil(L, -1))
            c.lookahead = (int)wfl_check_int(L, -1, fname, "options.lookahead",
                                             0, WF_STEER_MAX_LOOKAHEAD);
        lua_pop(L, 1);
        c.wander_distance = opt_len(L, 1, fname, "wander_distance",
                                    c.wander_distance, 64, 1);
        c.wander_radius = opt_len(L, 1, fname, "wander_radius",
                                  c.wander_radius, 64, 1);
        lua_getfield(L, 1, "wander_jitter");
        if (!lua_isnil(L, -1)) {
            double j = wfl_check_range(L, -1, fname, "options.wander_jitter",
                                       0, 4);
            c.wander_jitter = (int64_t)(j * (double)WF_ANGLE_ONE + 0.5);
        }
        lua_pop(L, 1);
        c.radius = opt_len(L, 1, fname, "radius", c.radius, 8, 1);
        lua_getfield(L, 1, "seed");
        if (!lua_isnil(L, -1))
            c.seed = (uint32_t)wfl_check_int(L, -1, fname, "options.seed", 0,
                                             4294967295.0);
        lua_pop(L, 1);
        lua_getfield(L, 1, "capacity");
        if (!lua_isnil(L, -1))
            c.capacity = (int)wfl_check_int(L, -1, fname, "options.capacity",
                                            1, WF_STEER_MAX_AGENTS);
        lua_pop(L, 1);
        if (c.radius > 0 && (int64_t)c.neighbour_radius
                < 2 * (int64_t)c.radius + 2 * (int64_t)c.max_speed)
            wfl_error(L, fname, "options.neighbour_radius must be at least "
                      "2 * radius + 2 * max_speed (%g), got %g",
                      (double)wfl_from_fix(2 * (int64_t)c.radius
                                           + 2 * (int64_t)c.max_speed),
                      (double)wfl_from_fix(c.neighbour_radius));
    }
    lgroup *g = lua_newuserdatauv(L, sizeof *g, 0);
    wfl_life_init(&g->life, group_release);
    g->s = NULL;
    luaL_setmetatable(L, GROUP_MT);
    wf_status st = wf_steer_create(&g->s, &c);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 1;
}

/* x, y, vx, vy at idx.. (vx, vy optional: 0). */
static void read_state(lua_State *L, lgroup *g, int idx, const char *fname,
                       wf_fix *v)
{
    double lim = (double)WF_STEER_POS_LIMIT / WF_FIX_ONE;
    v[0] = wfl_check_fix(L, idx, fname, "x", -lim, lim);
    v[1] = wfl_check_fix(L, idx + 1, fname, "y", -lim, lim);
    v[2] = lua_isnoneornil(L, idx + 2) ? 0
         : wfl_check_fix(L, idx + 2, fname, "vx", -8, 8);
    v[3] = lua_isnoneornil(L, idx + 3) ? 0
         : wfl_check_fix(L, idx + 3, fname, "vy", -8, 8);
    wf_fix ms = wf_steer_get_config(g->s)->max_speed;
    int64_t sq = (int64_t)v[2] * v[2] + (int64_t)v[3] * v[3];
    if (sq > (int64_t)ms * ms)
        wfl_error(L, fname, "the speed |(vx, vy)| must be at most max_speed "
                  "(%g)", (double)wfl_from_fix(ms));
}

static int l_add(lua_State *L)
{
    const char *fname = "group:add";
    lgroup *g = check_group(L, fname);
    wf_fix v[4];
    read_state(L, g, 2, fname, v);
    int i;
    wf_status st = wf_steer_add(g->s, v[0], v[1], v[2], v[3], &i);
    if (st == WF_ERR_FULL)
        return wfl_error(L, fname, "the group is full (options.capacity)");
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_pushinteger(L, i + 1);
    return 1;
}

static int l_set(lua_State *L)
{
    const char *fname = "group:set";
    lgroup *g = check_group(L, fname);
    int i = check_agent(L, g, 2, fname, "i");
    wf_fix v[4];
    read_state(L, g, 3, fname, v);
    wf_status st = wf_steer_set_state(g->s, i, v[0], v[1], v[2], v[3]);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

static int l_get(lua_State *L)
{
    const char *fname = "group:get";
    lgroup *g = check_group(L, fname);
    int i = check_agent(L, g, 2, fname, "i");
    wf_fix x, y, vx, vy;
    wf_steer_get_state(g->s, i, &x, &y, &vx, &vy);
    wfl_push_fix(L, x);
    wfl_push_fix(L, y);
    wfl_push_fix(L, vx);
    wfl_push_fix(L, vy);
    return 4;
}

static int l_behave(lua_State *L)
{
    const char *fname = "group:behave";
    lgroup *g = check_group(L, fname);
    int i = check_agent(L, g, 2, fname, "i");
    char buf[64];
    if (lua_type(L, 3) != LUA_TTABLE)
        return wfl_error(L, fname, "weights must be a table, got %s",
                         wfl_describe(L, 3, buf));
    wfl_check_keys(L, 3, fname, "weights", KIND_NAMES);
    int w[WF_STEER_COUNT];
    for (int k = 0; k < WF_STEER_COUNT; k++) {
        char arg[64];
        snprintf(arg, sizeof arg, "weights.%s", KIND_NAMES[k]);
        lua_getfield(L, 3, KIND_NAMES[k]);
        w[k] = lua_isnil(L, -1) ? 0
             : (int)wfl_check_int(L, -1, fname, arg, 0, WF_STEER_MAX_WEIGHT);
        lua_pop(L, 1);
    }
    g = check_group(L, fname);   /* a metamethod may have closed it */
    i = check_agent(L, g, 2, fname, "i");
    wf_steer_set_weights(g->s, i, w);
    return 0;
}

static int l_speed(lua_State *L)
{
    const char *fname = "group:speed";
    lgroup *g = check_group(L, fname);
    int i = check_agent(L, g, 2, fname, "i");
    if (lua_isnoneornil(L, 3)) {
        wfl_push_fix(L, wf_steer_get_speed(g->s, i));
        return 1;
    }
    wf_fix ms = wf_steer_get_config(g->s)->max_speed;
    double hi = (double)wfl_from_fix(ms);
    double v = wfl_check_range(L, 3, fname, "max_speed", 0, hi);
    wf_fix f = wfl_to_fix(v);
    if (f <= 0 || f > ms)
        return wfl_error(L, fname, "max_speed must be in (0, %g], got %g", hi, v);
    wf_steer_set_speed(g->s, i, f);
    wfl_push_fix(L, f);
    return 1;
}

static int l_target(lua_State *L)
{
    const char *fname = "group:target";
    lgroup *g = check_group(L, fname);
    int i = check_agent(L, g, 2, fname, "i");
    double lim = (double)WF_STEER_POS_LIMIT / WF_FIX_ONE;
    wf_fix tx = wfl_check_fix(L, 3, fname, "x", -lim, lim);
    wf_fix ty = wfl_check_fix(L, 4, fname, "y", -lim, lim);
    wf_steer_set_point(g->s, i, tx, ty);
    return 0;
}

static int l_chase(lua_State *L)
{
    const char *fname = "group:chase";
    lgroup *g = check_group(L, fname);
    int i = check_agent(L, g, 2, fname, "i");
    int j = -1;
    if (!lua_isnoneornil(L, 3)) {
        j = check_agent(L, g, 3, fname, "j");
        if (j == i)
            return wfl_error(L, fname, "j must differ from i, got %d", j + 1);
    }
    wf_steer_set_quarry(g->s, i, j);
    return 0;
}

static int check_kind(lua_State *L, int idx, const char *fname)
{
    const char *name = wfl_check_string(L, idx, fname, "behaviour");
    for (int k = 0; k < WF_STEER_COUNT; k++)
        if (strcmp(name, KIND_NAMES[k]) == 0)   /* no NUL inside: checked */
            return k;
    return wfl_error(L, fname, "behaviour must be one of seek, flee, arrive, "
                     "pursue, evade, wander, separation, alignment, "
                     "cohesion, got '%s'", name);
}

static int l_force(lua_State *L)
{
    const char *fname = "group:force";
    lgroup *g = check_group(L, fname);
    int i = check_agent(L, g, 2, fname, "i");
    int k = check_kind(L, 3, fname);
    wf_fix ax, ay;
    wf_steer_force(g->s, i, k, &ax, &ay);
    wfl_push_fix(L, ax);
    wfl_push_fix(L, ay);
    return 2;
}

static int l_predict(lua_State *L)
{
    const char *fname = "group:predict";
    lgroup *g = check_group(L, fname);
    int i = check_agent(L, g, 2, fname, "i");
    wf_fix x, y;
    if (wf_steer_predict(g->s, i, &x, &y) != WF_OK) {
        lua_pushnil(L);
        lua_pushliteral(L, "no_quarry");
        return 2;
    }
    wfl_push_fix(L, x);
    wfl_push_fix(L, y);
    return 2;
}

static int l_wander(lua_State *L)
{
    const char *fname = "group:wander";
    lgroup *g = check_group(L, fname);
    int i = check_agent(L, g, 2, fname, "i");
    int64_t a;
    uint32_t r;
    wf_steer_get_wander(g->s, i, &a, &r);
    lua_pushnumber(L, (lua_Number)a / (lua_Number)WF_ANGLE_ONE);
    lua_pushinteger(L, (lua_Integer)r);
    return 2;
}

static int l_step(lua_State *L)
{
    const char *fname = "group:step";
    lgroup *g = check_group(L, fname);
    wf_grid *grid = NULL;
    int cls = 0;
    if (!lua_isnoneornil(L, 2)) {
        grid = wfl_check_grid_arg(L, 2, fname, "grid");
        cls = wfl_check_class_name(L, 3, fname, "class", grid);
        int n = wf_steer_count(g->s);
        for (int i = 0; i < n; i++) {
            wf_fix x, y, vx, vy;
            wf_steer_get_state(g->s, i, &x, &y, &vx, &vy);
            if (!wf_sweep_point_clear(grid, cls, x, y))
                return wfl_error(L, fname, "agent %d at (%g, %g) stands on "
                                 "ground not passable for the class", i + 1,
                                 (double)wfl_from_fix(x),
                                 (double)wfl_from_fix(y));
        }
    }
    int nb = 0;
    wf_status st = wf_steer_step(g->s, grid, cls, &nb);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_pushinteger(L, nb);
    return 1;
}

static int l_count(lua_State *L)
{
    lgroup *g = check_group(L, "group:count");
    lua_pushinteger(L, wf_steer_count(g->s));
    return 1;
}

static int l_ticks(lua_State *L)
{
    lgroup *g = check_group(L, "group:ticks");
    lua_pushinteger(L, (lua_Integer)wf_steer_ticks(g->s));
    return 1;
}

static int l_close(lua_State *L)
{
    lgroup *g = wfl_check_self(L, GROUP_MT, "group:close", "a wayfinder.Group",
                               "group:close()");
    wfl_life_close(&g->life);
    return 0;
}

static int l_tostring(lua_State *L)
{
    lgroup *g = wfl_check_self(L, GROUP_MT, "group:__tostring",
                               "a wayfinder.Group", NULL);
    if (g->s && !g->life.closed)
        lua_pushfstring(L, "wayfinder.Group (%d agents)", wf_steer_count(g->s));
    else
        lua_pushliteral(L, "wayfinder.Group (closed)");
    return 1;
}

static const luaL_Reg METHODS[] = {
    {"add", l_add},         {"set", l_set},         {"get", l_get},
    {"behave", l_behave},   {"target", l_target},   {"chase", l_chase},
    {"force", l_force},     {"predict", l_predict}, {"wander", l_wander},
    {"speed", l_speed},     {"step", l_step},       {"count", l_count},     {"ticks", l_ticks},
    {"close", l_close},     {NULL, NULL}};

void wfl_register_steer(lua_State *L)
{
    static const luaL_Reg functions[] = {{"steer_group", l_group},
                                         {NULL, NULL}};
    wfl_new_life_type(L, GROUP_MT, METHODS, l_close, l_tostring);
    lua_pop(L, 1);
    wfl_setfuncs(L, functions);
}
