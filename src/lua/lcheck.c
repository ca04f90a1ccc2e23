/* lcheck.c - what every file of the binding shares: argument checks (types,
 * NaN/inf, ranges, unknown option keys, each reported with the function and
 * parameter), status errors, fixed point conversions, and the path requests
 * and outcomes that grid:find_path and the queue have in common. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lcheck.h"

/* ------------------------------------------------------------ lifetime -- */

static const char LIFE_KEY = 'L';     /* its address marks life metatables */

void wfl_life_init(wfl_life *lf, void (*release)(void *))
{
    lf->busy = 0;
    lf->closed = 0;
    lf->release = release;
}

void wfl_life_close(wfl_life *lf)
{
    lf->closed = 1;
    if (lf->busy == 0)
        lf->release(lf);
}

/* The wfl_life of the userdata at idx, or NULL. Allocates nothing. */
static wfl_life *life_of(lua_State *L, int idx)
{
    wfl_life *lf = NULL;
    if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx))
        return NULL;
    if (lua_rawgetp(L, -1, &LIFE_KEY) == LUA_TBOOLEAN)
        lf = lua_touserdata(L, idx);
    lua_pop(L, 2);
    return lf;
}

#define MAX_PINNED 16

typedef struct pins {
    wfl_life *lf[MAX_PINNED];
    int n;
} pins;

static void pin(lua_State *L, int idx, pins *p, int depth)
{
    if (lua_type(L, idx) != LUA_TUSERDATA || p->n == MAX_PINNED)
        return;
    wfl_life *lf = life_of(L, idx);
    if (lf) {
        lf->busy++;
        p->lf[p->n++] = lf;
    }
    if (depth > 0) {
        lua_getiuservalue(L, idx, 1);   /* LUA_TNONE when it has none */
        pin(L, lua_gettop(L), p, depth - 1);
        lua_pop(L, 1);
    }
}

static void unpin(pins *p)
{
    for (int k = p->n - 1; k >= 0; k--) {
        wfl_life *lf = p->lf[k];
        if (--lf->busy == 0 && lf->closed)
            lf->release(lf);
    }
}

/* Every registered function runs here: upvalue 1 is the real function.
 * The arguments stay on this frame, so the pinned objects stay alive. */
static int guarded_call(lua_State *L)
{
    int n = lua_gettop(L);
    pins p;
    p.n = 0;
    for (int i = 1; i <= n; i++)
        pin(L, i, &p, 2);
    if (p.n == 0)
        return lua_tocfunction(L, lua_upvalueindex(1))(L);
    luaL_checkstack(L, n + 2, NULL);
    lua_pushvalue(L, lua_upvalueindex(1));
    for (int i = 1; i <= n; i++)
        lua_pushvalue(L, i);
    int rc = lua_pcall(L, n, LUA_MULTRET, 0);
    unpin(&p);
    if (rc != LUA_OK)
        return lua_error(L);
    return lua_gettop(L) - n;
}

void wfl_setfuncs(lua_State *L, const luaL_Reg *l)
{
    for (; l->name; l++) {
        lua_pushcfunction(L, l->func);
        lua_pushcclosure(L, guarded_call, 1);
        lua_setfield(L, -2, l->name);
    }
}

/* The position of the caller of the binding's function: level 1, or level
 * 2 when level 1 is the wrapper above. */
static void push_where(lua_State *L)
{
    lua_Debug ar;
    int level = 1;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "f", &ar)) {
        if (lua_tocfunction(L, -1) == guarded_call)
            level = 2;
        lua_pop(L, 1);
    }
    luaL_where(L, level);
}

int wfl_error(lua_State *L, const char *fname, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    push_where(L);
    lua_pushfstring(L, "%s: %s", fname, msg);
    lua_concat(L, 2);
    return lua_error(L);
}

int wfl_raise_status(lua_State *L, const char *fname, wf_status st)
{
    if (st == WF_ERR_NOMEM)
        return wfl_error(L, fname, "out of memory");
    return wfl_error(L, fname, "%s", wf_status_name(st));
}

void *wfl_check_self(lua_State *L, const char *mt, const char *fname,
                     const char *what, const char *call)
{
    char buf[64];
    void *u = luaL_testudata(L, 1, mt);
    if (!u)
        wfl_error(L, fname, "self must be %s, got %s%s%s%s", what,
                  wfl_describe(L, 1, buf), call ? " (call it as " : "",
                  call ? call : "", call ? ")" : "");
    return u;
}

int wfl_is_finite(lua_Number v)
{
    /* IEEE binary64 (or binary32): all-ones exponent is NaN or inf */
    if (sizeof v == sizeof(uint64_t)) {
        uint64_t b;
        memcpy(&b, &v, sizeof b);
        return ((b >> 52) & 0x7ff) != 0x7ff;
    } else {
        uint32_t b;
        memcpy(&b, &v, sizeof b);
        return ((b >> 23) & 0xff) != 0xff;
    }
}

/* ------------------------------------------------------- fixed point -- */

wf_fix wfl_to_fix(lua_Number v)
{
    return (wf_fix)lround((double)v * 65536.0);
}

lua_Number wfl_from_fix(int64_t v)
{
    return (lua_Number)v / 65536.0;
}

void wfl_push_fix(lua_State *L, int64_t v)
{
    lua_pushnumber(L, wfl_from_fix(v));
}

int wfl_floor_cell(wf_fix v)
{
    return (int)(v >= 0 ? v / WF_FIX_ONE
                        : -((-(int64_t)v + WF_FIX_ONE - 1) / WF_FIX_ONE));
}

const char *wfl_describe(lua_State *L, int idx, char *buf)
{
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) {
            snprintf(buf, 64, "%lld", (long long)lua_tointeger(L, idx));
        } else {
            lua_Number v = lua_tonumber(L, idx);
            if (!wfl_is_finite(v) && !(v > 0) && !(v < 0))
                snprintf(buf, 64, "nan");
            else if (!wfl_is_finite(v))
                snprintf(buf, 64, "%sinf", v < 0 ? "-" : "");
            else
                snprintf(buf, 64, "%.14g", (double)v);
        }
        return buf;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        snprintf(buf, 64, "'%.40s%s'", s, n > 40 ? "..." : "");
        return buf;
    }
    case LUA_TNONE:
        return "no value";
    case LUA_TNIL:
        return "nil";
    case LUA_TBOOLEAN:
        return lua_toboolean(L, idx) ? "true" : "false";
    default:
        snprintf(buf, 64, "a %s", luaL_typename(L, idx));
        return buf;
    }
}

/* Messages are formatted only on failure: these checks run on every call. */
static int range_error(lua_State *L, int idx, const char *fname,
                       const char *arg, int integer, lua_Number lo,
                       lua_Number hi)
{
    char buf[64];
    if (integer)
        return wfl_error(L, fname, "%s must be an integer in [%lld, %lld], got %s",
                         arg, (long long)lo, (long long)hi,
                         wfl_describe(L, idx, buf));
    return wfl_error(L, fname, "%s must be a number in [%g, %g], got %s", arg,
                     (double)lo, (double)hi, wfl_describe(L, idx, buf));
}

lua_Integer wfl_check_int(lua_State *L, int idx, const char *fname,
                          const char *arg, lua_Integer lo, lua_Integer hi)
{
    lua_Integer v;
    if (lua_isinteger(L, idx)) {
        v = lua_tointeger(L, idx);
    } else {
        if (lua_type(L, idx) != LUA_TNUMBER)
            range_error(L, idx, fname, arg, 1, (lua_Number)lo, (lua_Number)hi);
        lua_Number n = lua_tonumber(L, idx);
        if (!wfl_is_finite(n) || n != floor(n) || n < (lua_Number)lo
            || n > (lua_Number)hi)
            range_error(L, idx, fname, arg, 1, (lua_Number)lo, (lua_Number)hi);
        v = (lua_Integer)n;
    }
    if (v < lo || v > hi)
        range_error(L, idx, fname, arg, 1, (lua_Number)lo, (lua_Number)hi);
    return v;
}

lua_Number wfl_check_number(lua_State *L, int idx, const char *fname,
                            const char *arg)
{
    char buf[64];
    if (lua_type(L, idx) != LUA_TNUMBER || !wfl_is_finite(lua_tonumber(L, idx)))
        wfl_error(L, fname, "%s must be a finite number, got %s", arg,
                  wfl_describe(L, idx, buf));
    return lua_tonumber(L, idx);
}

lua_Number wfl_check_range(lua_State *L, int idx, const char *fname,
                           const char *arg, lua_Number lo, lua_Number hi)
{
    if (lua_type(L, idx) != LUA_TNUMBER)
        range_error(L, idx, fname, arg, 0, lo, hi);
    lua_Number v = lua_tonumber(L, idx);
    if (!wfl_is_finite(v) || !(v >= lo && v <= hi))
        range_error(L, idx, fname, arg, 0, lo, hi);
    return v;
}

wf_fix wfl_check_fix(lua_State *L, int idx, const char *fname, const char *arg,
                     lua_Number lo, lua_Number hi)
{
    return wfl_to_fix(wfl_check_range(L, idx, fname, arg, lo, hi));
}

int wfl_check_boolean(lua_State *L, int idx, const char *fname, const char *arg)
{
    char buf[64];
    if (lua_type(L, idx) != LUA_TBOOLEAN)
        wfl_error(L, fname, "%s must be a boolean, got %s", arg,
                  wfl_describe(L, idx, buf));
    return lua_toboolean(L, idx);
}

const char *wfl_check_string(lua_State *L, int idx, const char *fname,
                             const char *arg)
{
    char buf[64];
    size_t len;
    if (lua_type(L, idx) != LUA_TSTRING)
        wfl_error(L, fname, "%s must be a string, got %s", arg,
                  wfl_describe(L, idx, buf));
    const char *s = lua_tolstring(L, idx, &len);
    if (strlen(s) != len)
        wfl_error(L, fname, "%s must not contain a NUL byte", arg);
    return s;
}

const char *wfl_check_name(lua_State *L, int idx, const char *fname,
                           const char *arg)
{
    char buf[64];
    size_t len;
    if (lua_type(L, idx) != LUA_TSTRING)
        wfl_error(L, fname, "%s must be a string, got %s", arg,
                  wfl_describe(L, idx, buf));
    const char *s = lua_tolstring(L, idx, &len);
    return strlen(s) == len ? s : NULL;
}

int wfl_opt_table(lua_State *L, int idx, const char *fname, const char *arg)
{
    char buf[64];
    int t = lua_type(L, idx);
    if (t == LUA_TNONE || t == LUA_TNIL)
        return 0;
    if (t != LUA_TTABLE)
        wfl_error(L, fname, "%s must be a table, got %s", arg,
                  wfl_describe(L, idx, buf));
    return 1;
}

void wfl_check_keys(lua_State *L, int idx, const char *fname, const char *arg,
                    const char *const *allowed)
{
    char buf[64];
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            wfl_error(L, fname, "%s has a non-string key %s", arg,
                      wfl_describe(L, -1, buf));
        size_t len;
        const char *k = lua_tolstring(L, -1, &len);
        int ok = 0;
        for (const char *const *a = allowed; *a && strlen(k) == len; a++)
            if (strcmp(*a, k) == 0) {
                ok = 1;
                break;
            }
        if (!ok)
            wfl_error(L, fname, "unknown %s key %s", arg,
                      wfl_describe(L, -1, buf));
    }
}

int wfl_field(lua_State *L, int idx, const char *key)
{
    return lua_getfield(L, idx, key);
}

void wfl_new_type(lua_State *L, const char *name, const luaL_Reg *methods,
                  lua_CFunction closer, lua_CFunction tostring)
{
    if (!luaL_newmetatable(L, name))
        return;
    lua_newtable(L);
    wfl_setfuncs(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, closer);   /* one value: 5.1 makes a new one per push */
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "__gc");
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, tostring);
    lua_setfield(L, -2, "__tostring");
}

void wfl_new_life_type(lua_State *L, const char *name,
                       const luaL_Reg *methods, lua_CFunction closer,
                       lua_CFunction tostring)
{
    wfl_new_type(L, name, methods, closer, tostring);
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &LIFE_KEY);
}

/* ------------------------------------------------- shapes and goals -- */

void wfl_read_axis(lua_State *L, int idx, const char *fname,
                   const char *what, wf_fix *ux, wf_fix *uy)
{
    char arg[64];
    int has_angle = wfl_field(L, idx, "angle") != LUA_TNIL;
    int has_u = wfl_field(L, idx, "u") != LUA_TNIL;
    if (has_angle && has_u)
        wfl_error(L, fname, "%s: give angle or u, not both", what);
    if (has_u) {
        char buf[64];
        snprintf(arg, sizeof arg, "%s.u", what);
        if (!lua_istable(L, -1))
            wfl_error(L, fname, "%s must be a table {x, y}, got %s", arg,
                      wfl_describe(L, -1, buf));
        int t = lua_gettop(L);
        lua_rawgeti(L, t, 1);
        snprintf(arg, sizeof arg, "%s.u[1]", what);
        lua_Number a = wfl_check_range(L, -1, fname, arg, -1.0, 1.0);
        lua_rawgeti(L, t, 2);
        snprintf(arg, sizeof arg, "%s.u[2]", what);
        lua_Number b = wfl_check_range(L, -1, fname, arg, -1.0, 1.0);
        lua_pop(L, 2);
        lua_Number len = sqrt(a * a + b * b);
        if (fabs(len - 1.0) > 1e-3)
            wfl_error(L, fname, "%s.u must be a unit vector, its length is %g",
                      what, (double)len);
        *ux = wfl_to_fix(a);
        *uy = wfl_to_fix(b);
    } else if (has_angle) {
        snprintf(arg, sizeof arg, "%s.angle", what);
        lua_Number a = wfl_check_range(L, -2, fname, arg, -1e6, 1e6);
        /* a * 2^40 is exact; the rest is integer arithmetic (trig.c) */
        wf_fix_sincos((int64_t)llround(a * (lua_Number)WF_ANGLE_ONE), ux, uy);
    } else {
        *ux = WF_FIX_ONE;
        *uy = 0;
    }
    lua_pop(L, 2);
}

wf_fix wfl_field_fix(lua_State *L, int idx, const char *fname,
                     const char *table, const char *key, lua_Number lo,
                     lua_Number hi)
{
    char arg[64];
    snprintf(arg, sizeof arg, "%s.%s", table, key);
    lua_getfield(L, idx, key);
    wf_fix v = wfl_check_fix(L, -1, fname, arg, lo, hi);
    lua_pop(L, 1);
    return v;
}

static const char *const GOAL_KEYS[] = {"shape", "radius", "half_width",
                                        "half_height", "angle", "u", NULL};
static const char *const POINT_KEYS[] = {"shape", NULL};
static const char *const CIRCLE_KEYS[] = {"shape", "radius", NULL};
static const char *const SQUARE_KEYS[] = {"shape", "half_width", "half_height",
                                          "angle", "u", NULL};

static void read_goal(lua_State *L, int idx, const char *fname,
                      const char *arg, wf_fix gx, wf_fix gy, wf_goal *goal)
{
    char buf[64], sub[80];
    wf_goal_point(goal, gx, gy);
    if (!lua_istable(L, idx))
        wfl_error(L, fname, "%s must be a table, got %s", arg,
                  wfl_describe(L, idx, buf));
    wfl_check_keys(L, idx, fname, arg, GOAL_KEYS);
    lua_getfield(L, idx, "shape");
    snprintf(sub, sizeof sub, "%s.shape", arg);
    const char *shape = lua_isnil(L, -1) ? "point"
                        : wfl_check_string(L, -1, fname, sub);
    if (strcmp(shape, "point") == 0) {
        snprintf(sub, sizeof sub, "%s (point)", arg);
        wfl_check_keys(L, idx, fname, sub, POINT_KEYS);
        lua_pop(L, 1);
        return;
    }
    if (strcmp(shape, "circle") == 0) {
        snprintf(sub, sizeof sub, "%s (circle)", arg);
        wfl_check_keys(L, idx, fname, sub, CIRCLE_KEYS);
        wf_fix r = wfl_field_fix(L, idx, fname, arg, "radius", 0, WF_MAX_SIDE);
        wf_goal_circle(goal, gx, gy, r);
    } else if (strcmp(shape, "square") == 0) {
        snprintf(sub, sizeof sub, "%s (square)", arg);
        wfl_check_keys(L, idx, fname, sub, SQUARE_KEYS);
        wf_fix hw = wfl_field_fix(L, idx, fname, arg, "half_width", 0,
                                 WF_MAX_SIDE);
        wf_fix hh = wfl_field_fix(L, idx, fname, arg, "half_height", 0,
                                 WF_MAX_SIDE);
        wf_fix ux, uy;
        wfl_read_axis(L, idx, fname, arg, &ux, &uy);
        wf_goal_square(goal, gx, gy, hw, hh, ux, uy);
    } else {
        wfl_error(L, fname, "%s must be 'point', 'circle' or 'square', got "
                  "'%s'", sub, shape);
    }
    lua_pop(L, 1);
}

void wfl_read_goal(lua_State *L, int idx, const char *fname, const char *arg,
                   wf_fix gx, wf_fix gy, wf_goal *goal)
{
    read_goal(L, lua_absindex(L, idx), fname, arg, gx, gy, goal);
}

/* ----------------------------------------------------- path outcomes -- */


static const char *algo_name(wf_algorithm a)
{
    return a == WF_ALGO_JPS ? "jps" : "astar";
}

void wfl_read_scale_options(lua_State *L, int idx, const char *fname,
                            const char *arg, wfl_scale_opts *so)
{
    char name[64];
    so->rewrite = 1;
    so->escape = 1;
    so->partial = 0;
    so->cap = 0;
    if (lua_type(L, idx) != LUA_TTABLE)
        return;
    snprintf(name, sizeof name, "%s.rewrite_goal", arg);
    if (wfl_field(L, idx, "rewrite_goal") != LUA_TNIL)
        so->rewrite = wfl_check_boolean(L, -1, fname, name);
    lua_pop(L, 1);
    snprintf(name, sizeof name, "%s.escape", arg);
    if (wfl_field(L, idx, "escape") != LUA_TNIL)
        so->escape = wfl_check_boolean(L, -1, fname, name);
    lua_pop(L, 1);
    snprintf(name, sizeof name, "%s.partial", arg);
    if (wfl_field(L, idx, "partial") != LUA_TNIL)
        so->partial = wfl_check_boolean(L, -1, fname, name);
    lua_pop(L, 1);
    snprintf(name, sizeof name, "%s.max_expansions", arg);
    if (wfl_field(L, idx, "max_expansions") != LUA_TNIL)
        so->cap = (uint64_t)wfl_check_int(L, -1, fname, name, 1,
                                          WFL_MAX_BUDGET);
    lua_pop(L, 1);
}

static void push_cell(lua_State *L, int x, int y)
{
    lua_createtable(L, 2, 2);
    lua_pushinteger(L, x);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, 1);
    lua_setfield(L, -2, "x");
    lua_pushinteger(L, y);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, 2);
    lua_setfield(L, -2, "y");
}

/* The info table of a path outcome (success or not). */
static void push_info(lua_State *L, const wf_result *r)
{
    lua_createtable(L, 0, 12);
    lua_pushinteger(L, (lua_Integer)r->expanded);
    lua_setfield(L, -2, "expanded");
    lua_pushstring(L, algo_name(r->algorithm));
    lua_setfield(L, -2, "algorithm");
    if (r->status == WF_OK) {
        lua_pushnumber(L, (double)r->cost / (double)(2 * WF_COST_SCALE));
        lua_setfield(L, -2, "cost");
        lua_pushinteger(L, r->cost);
        lua_setfield(L, -2, "cost_units");
    }
    lua_pushboolean(L, r->prep.rewritten);
    lua_setfield(L, -2, "goal_rewritten");
    if (r->prep.rewritten) {
        push_cell(L, r->prep.rx, r->prep.ry);
        lua_setfield(L, -2, "goal");
    }
    lua_pushboolean(L, r->prep.escaped);
    lua_setfield(L, -2, "escaped");
    if (r->prep.escaped) {
        push_cell(L, r->prep.ex, r->prep.ey);
        lua_setfield(L, -2, "escape");
        lua_pushnumber(L, (double)r->escape_length / 65536.0);
        lua_setfield(L, -2, "escape_length");
    }
    lua_pushboolean(L, (r->details & WF_DETAIL_PARTIAL) != 0);
    lua_setfield(L, -2, "partial");
    if (r->details & WF_DETAIL_PARTIAL) {
        lua_pushstring(L, r->details & WF_DETAIL_CAPPED ? "expansion_limit"
                                                        : "unreachable");
        lua_setfield(L, -2, "partial_reason");
    }
    lua_pushboolean(L, r->shared);
    lua_setfield(L, -2, "shared");
}

int wfl_push_outcome(lua_State *L, const wf_result *r, int smooth)
{
    if (r->status != WF_OK) {
        luaL_pushfail(L);
        if (r->status == WF_NO_PATH && (r->details & WF_DETAIL_CAPPED))
            lua_pushstring(L, "expansion_limit");
        else
            lua_pushstring(L, wf_status_name(r->status));
        push_info(L, r);
        return 3;
    }
    lua_createtable(L, r->n, 0);
    for (int i = 0; i < r->n; i++) {
        push_cell(L, r->x[i], r->y[i]);
        lua_rawseti(L, -2, i + 1);
    }
    if (smooth)
        lua_pushnumber(L, (double)wf_polyline_length(r->x, r->y, r->n) / 65536.0);
    else
        lua_pushnumber(L, (double)r->escape_length / 65536.0
                          + (double)r->cost / (double)(2 * WF_COST_SCALE));
    push_info(L, r);
    return 3;
}
