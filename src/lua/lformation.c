/* lformation.c - wayfinder.formation: slot shapes, minimum-travel
 * assignment, and the "wayfinder.Formation" userdata (formation.c).
 * Members and slots are numbered from 1 here, from 0 in the core. */
#include <stdio.h>
#include <string.h>

#include "lunits.h"
#include "lformation.h"
#include "../formation.h"

#define FORMATION_MT "wayfinder.Formation"

typedef struct lformation {
    wfl_life life;        /* first: see lcheck.h */
    wf_formation *f;      /* NULL once released */
} lformation;

static void formation_release(void *obj)
{
    lformation *u = obj;
    wf_formation_destroy(u->f);
    u->f = NULL;
}

static const char *const SHAPES[WF_FORM_COUNT + 1] = {"line", "column", "box",
                                                      "wedge", NULL};

static int check_shape(lua_State *L, int idx, const char *fname,
                       const char *arg)
{
    const char *name = wfl_check_string(L, idx, fname, arg);
    for (int k = 0; k < WF_FORM_COUNT; k++)
        if (strcmp(name, SHAPES[k]) == 0)   /* no NUL inside: checked */
            return k;
    return wfl_error(L, fname, "%s must be one of line, column, box, wedge, "
                     "got '%s'", arg, name);
}

/* A scratch array that Lua frees (errors cannot leak it); pushed. Every
 * caller asks for a positive size (n and np are at least 1). */
static void *scratch(lua_State *L, size_t bytes)
{
    return lua_newuserdatauv(L, bytes, 0);
}

/* The list at idx: its length in [1, max], every entry a table whose
 * fields x and y are numbers within lim (and speed in (0, 8] when sp is
 * not NULL), into xs, ys. */
static int list_len(lua_State *L, int idx, const char *fname, const char *arg,
                    int max)
{
    char buf[64];
    if (lua_type(L, idx) != LUA_TTABLE)
        wfl_error(L, fname, "%s must be a list of points, got %s", arg,
                  wfl_describe(L, idx, buf));
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    if (n < 1 || n > max)
        wfl_error(L, fname, "%s must hold 1 to %d points, got %d", arg, max,
                  (int)n);
    return (int)n;
}

static void read_points(lua_State *L, int idx, const char *fname,
                        const char *arg, int n, double lim, wf_fix *xs,
                        wf_fix *ys, wf_fix *sp)
{
    char buf[64], name[80];
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, idx, i + 1);
        int t = lua_gettop(L);
        if (lua_type(L, t) != LUA_TTABLE)
            wfl_error(L, fname, "%s[%d] must be a table {x =, y =}, got %s",
                      arg, i + 1, wfl_describe(L, t, buf));
        snprintf(name, sizeof name, "%s[%d]", arg, i + 1);
        xs[i] = wfl_field_fix(L, t, fname, name, "x", -lim, lim);
        ys[i] = wfl_field_fix(L, t, fname, name, "y", -lim, lim);
        if (sp) {
            lua_getfield(L, t, "speed");
            if (lua_isnil(L, -1)) {
                sp[i] = 0;
            } else {
                char a2[96];
                snprintf(a2, sizeof a2, "%s.speed", name);
                double v = wfl_check_range(L, -1, fname, a2, 0, 8);
                sp[i] = wfl_to_fix(v);
                if (sp[i] <= 0)
                    wfl_error(L, fname, "%s must be in (0, 8], got %g", a2, v);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

static void push_points(lua_State *L, int n, const wf_fix *xs,
                        const wf_fix *ys)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 0, 2);
        wfl_push_fix(L, xs[i]);
        lua_setfield(L, -2, "x");
        wfl_push_fix(L, ys[i]);
        lua_setfield(L, -2, "y");
        lua_rawseti(L, -2, i + 1);
    }
}

static wf_fix opt_len(lua_State *L, int t, const char *fname, const char *key,
                      wf_fix def, double hi)
{
    char arg[64];
    snprintf(arg, sizeof arg, "options.%s", key);
    lua_getfield(L, t, key);
    wf_fix v = def;
    if (!lua_isnil(L, -1)) {
        double x = wfl_check_range(L, -1, fname, arg, 0, hi);
        v = wfl_to_fix(x);
        if (v <= 0)
            wfl_error(L, fname, "%s must be in (0, %g], got %g", arg, hi, x);
    }
    lua_pop(L, 1);
    return v;
}

static int l_offsets(lua_State *L)
{
    const char *fname = "wayfinder.formation.offsets";
    lua_settop(L, 3);
    int shape = check_shape(L, 1, fname, "shape");
    int n = (int)wfl_check_int(L, 2, fname, "n", 1, WF_FORM_MAX_MEMBERS);
    wf_fix sp = WF_FIX_ONE;
    if (!lua_isnoneornil(L, 3)) {
        double v = wfl_check_range(L, 3, fname, "spacing", 0, 64);
        sp = wfl_to_fix(v);
        if (sp <= 0)
            return wfl_error(L, fname, "spacing must be in (0, 64], got %g", v);
    }
    wf_fix *ox = scratch(L, 2 * (size_t)n * sizeof *ox), *oy = ox + n;
    wf_formation_offsets(shape, n, sp, ox, oy);
    push_points(L, n, ox, oy);
    return 1;
}

static int l_assign(lua_State *L)
{
    const char *fname = "wayfinder.formation.assign";
    lua_settop(L, 2);
    int n = list_len(L, 1, fname, "members", WF_FORM_MAX_MEMBERS);
    int ns = list_len(L, 2, fname, "slots", WF_FORM_MAX_MEMBERS);
    if (ns != n)
        return wfl_error(L, fname, "slots must hold as many points as members "
                         "(%d), got %d", n, ns);
    wf_fix *p = scratch(L, 4 * (size_t)n * sizeof *p);
    read_points(L, 1, fname, "members", n, 8192, p, p + n, NULL);
    read_points(L, 2, fname, "slots", n, 8192, p + 2 * n, p + 3 * n, NULL);
    int *slot = scratch(L, (size_t)n * sizeof *slot);
    int64_t total;
    wf_status st = wf_assign_points(n, p, p + n, p + 2 * n, p + 3 * n, slot,
                                    &total);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_createtable(L, n, 0);
    for (int m = 0; m < n; m++) {
        lua_pushinteger(L, slot[m] + 1);
        lua_rawseti(L, -2, m + 1);
    }
    wfl_push_fix(L, total);
    return 2;
}

static const char *const OPTION_KEYS[] = {"shape", "slots", "spacing", "pace",
                                          "slack", "reform", NULL};

static int l_new(lua_State *L)
{
    const char *fname = "wayfinder.formation.new";
    lua_settop(L, 3);   /* scratch arrays go above the arguments */
    int np = list_len(L, 1, fname, "path", WF_FORM_MAX_POINTS);
    int n = list_len(L, 2, fname, "members", WF_FORM_MAX_MEMBERS);
    wf_formation_config c;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.npoints = np;
    c.spacing = WF_FIX_ONE;
    c.pace = 3 * WF_FIX_ONE / 4;
    c.slack = 0;
    c.reform = 10;
    int shape = WF_FORM_BOX, custom = 0;
    wf_fix *m = scratch(L, 5 * (size_t)n * sizeof *m);
    wf_fix *path = scratch(L, 2 * (size_t)np * sizeof *path);
    read_points(L, 1, fname, "path", np, 8192, path, path + np, NULL);
    read_points(L, 2, fname, "members", n, 8192, m, m + n, m + 2 * n);
    for (int i = 0; i < n; i++)
        if (m[2 * n + i] == 0)
            m[2 * n + i] = WF_FIX_ONE / 4;
    if (wfl_opt_table(L, 3, fname, "options")) {
        wfl_check_keys(L, 3, fname, "options", OPTION_KEYS);
        lua_getfield(L, 3, "shape");
        if (!lua_isnil(L, -1))
            shape = check_shape(L, lua_gettop(L), fname, "options.shape");
        lua_pop(L, 1);
        c.spacing = opt_len(L, 3, fname, "spacing", c.spacing, 64);
        c.pace = opt_len(L, 3, fname, "pace", c.pace, 1);
        c.slack = opt_len(L, 3, fname, "slack", c.slack, 1024);
        lua_getfield(L, 3, "reform");
        if (!lua_isnil(L, -1))
            c.reform = (int)wfl_check_int(L, -1, fname, "options.reform", 1,
                                          10000);
        lua_pop(L, 1);
        lua_getfield(L, 3, "slots");
        if (!lua_isnil(L, -1)) {
            int t = lua_gettop(L);
            int ns = list_len(L, t, fname, "options.slots", WF_FORM_MAX_MEMBERS);
            if (ns != n)
                return wfl_error(L, fname, "options.slots must hold as many "
                                 "points as members (%d), got %d", n, ns);
            read_points(L, t, fname, "options.slots", n, 256, m + 3 * n,
                        m + 4 * n, NULL);
            custom = 1;
        }
        lua_pop(L, 1);
    }
    if (c.slack == 0)
        c.slack = 3 * c.spacing;
    if (!custom)
        wf_formation_offsets(shape, n, c.spacing, m + 3 * n, m + 4 * n);
    c.x = m;
    c.y = m + n;
    c.speed = m + 2 * n;
    c.ox = m + 3 * n;
    c.oy = m + 4 * n;
    c.px = path;
    c.py = path + np;
    lformation *u = lua_newuserdatauv(L, sizeof *u, 0);
    wfl_life_init(&u->life, formation_release);
    u->f = NULL;
    luaL_setmetatable(L, FORMATION_MT);
    wf_status st = wf_formation_create(&u->f, &c);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 1;
}

static lformation *check_formation(lua_State *L, const char *fname)
{
    lformation *u = wfl_check_self(L, FORMATION_MT, fname,
                                   "a wayfinder.Formation",
                                   "formation:method(...)");
    if (!u->f || u->life.closed)
        wfl_error(L, fname, "the formation is closed");
    return u;
}

static int l_step(lua_State *L)
{
    const char *fname = "formation:step";
    lformation *u = check_formation(L, fname);
    wf_grid *g = wfl_check_grid_arg(L, 2, fname, "grid");
    int cls = wfl_check_class_name(L, 3, fname, "class", g);
    int n = wf_formation_count(u->f);
    for (int i = 0; i < n; i++) {
        wf_formation_member mb;
        wf_formation_member_get(u->f, i, &mb);
        if (!wf_sweep_point_clear(g, cls, mb.x, mb.y))
            return wfl_error(L, fname, "member %d at (%g, %g) stands on ground "
                             "not passable for the class", i + 1,
                             (double)wfl_from_fix(mb.x),
                             (double)wfl_from_fix(mb.y));
    }
    int arrived = 0;
    wf_status st = wf_formation_step(u->f, g, cls, &arrived);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_pushboolean(L, arrived);
    return 1;
}

static int l_get(lua_State *L)
{
    const char *fname = "formation:get";
    lformation *u = check_formation(L, fname);
    int n = wf_formation_count(u->f);
    int i = (int)wfl_check_int(L, 2, fname, "i", 1, n) - 1;
    wf_formation_member mb;
    wf_formation_member_get(u->f, i, &mb);
    wfl_push_fix(L, mb.x);
    wfl_push_fix(L, mb.y);
    wfl_push_fix(L, mb.sx);
    wfl_push_fix(L, mb.sy);
    lua_pushinteger(L, mb.slot + 1);
    return 5;
}

static int l_squeezed(lua_State *L)
{
    lformation *u = check_formation(L, "formation:squeezed");
    lua_pushboolean(L, wf_formation_squeezed(u->f));
    return 1;
}

static int l_anchor(lua_State *L)
{
    lformation *u = check_formation(L, "formation:anchor");
    wf_fix x, y, sp;
    wf_formation_anchor(u->f, &x, &y, &sp);
    wfl_push_fix(L, x);
    wfl_push_fix(L, y);
    wfl_push_fix(L, sp);
    return 3;
}

static int l_count(lua_State *L)
{
    lformation *u = check_formation(L, "formation:count");
    lua_pushinteger(L, wf_formation_count(u->f));
    return 1;
}

static int l_ticks(lua_State *L)
{
    lformation *u = check_formation(L, "formation:ticks");
    lua_pushinteger(L, (lua_Integer)wf_formation_ticks(u->f));
    return 1;
}

static int l_close(lua_State *L)
{
    lformation *u = wfl_check_self(L, FORMATION_MT, "formation:close",
                                   "a wayfinder.Formation", "formation:close()");
    wfl_life_close(&u->life);
    return 0;
}

static int l_tostring(lua_State *L)
{
    lformation *u = wfl_check_self(L, FORMATION_MT, "formation:__tostring",
                                   "a wayfinder.Formation", NULL);
    if (u->f && !u->life.closed)
        lua_pushfstring(L, "wayfinder.Formation (%d members)",
                        wf_formation_count(u->f));
    else
        lua_pushliteral(L, "wayfinder.Formation (closed)");
    return 1;
}

static const luaL_Reg METHODS[] = {
    {"step", l_step},   {"get", l_get},     {"squeezed", l_squeezed},
    {"anchor", l_anchor}, {"count", l_count}, {"ticks", l_ticks},
    {"close", l_close}, {NULL, NULL}};

void wfl_register_formation(lua_State *L)
{
    static const luaL_Reg functions[] = {
        {"formation_new", l_new}, {"formation_offsets", l_offsets},
        {"formation_assign", l_assign}, {NULL, NULL}};
    wfl_new_life_type(L, FORMATION_MT, METHODS, l_close, l_tostring);
    lua_pop(L, 1);
    wfl_setfuncs(L, functions);
}
