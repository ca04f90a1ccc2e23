/* lcheck.c - argument checks for the binding: types, NaN/inf, ranges and
 * unknown option keys, each reported with the function and parameter. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lcheck.h"

int wfl_error(lua_State *L, const char *fname, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return luaL_error(L, "%s: %s", fname, msg);
}

const char *wfl_describe(lua_State *L, int idx, char *buf)
{
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) {
            snprintf(buf, 64, "%lld", (long long)lua_tointeger(L, idx));
        } else {
            lua_Number v = lua_tonumber(L, idx);
            if (isnan(v))
                snprintf(buf, 64, "nan");
            else if (isinf(v))
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
        if (!isfinite(n) || n != floor(n) || n < (lua_Number)lo
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
    if (lua_type(L, idx) != LUA_TNUMBER || !isfinite(lua_tonumber(L, idx)))
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
    if (!(v >= lo && v <= hi))      /* also false for NaN */
        range_error(L, idx, fname, arg, 0, lo, hi);
    return v;
}

wf_fix wfl_check_fix(lua_State *L, int idx, const char *fname, const char *arg,
                     lua_Number lo, lua_Number hi)
{
    lua_Number v = wfl_check_range(L, idx, fname, arg, lo, hi);
    return (wf_fix)lround((double)v * 65536.0);
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
    if (lua_type(L, idx) != LUA_TSTRING)
        wfl_error(L, fname, "%s must be a string, got %s", arg,
                  wfl_describe(L, idx, buf));
    return lua_tostring(L, idx);
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
        const char *k = lua_tostring(L, -1);
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(*a, k) == 0) {
                ok = 1;
                break;
            }
        if (!ok)
            wfl_error(L, fname, "unknown %s key '%s'", arg, k);
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
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, closer);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, closer);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, tostring);
    lua_setfield(L, -2, "__tostring");
}
