/* lcompat.h - the Lua 5.4 C API the binding uses, on Lua 5.1 (and
 * LuaJIT 2.1), 5.2 and 5.3. The binding is written against 5.4; this one
 * header maps the newer calls onto older versions so the binding's files
 * carry no version tests of their own. Included by lcheck.h after lua.h
 * and lauxlib.h; on 5.4 it defines nothing but WFL_READ_CHUNK.
 *
 * Numbers: before 5.3 every Lua number is a double, so an "integer" is a
 * number with an integral value. lua_isinteger below accepts exactly the
 * integral numbers with |n| < 2^53 (the range in which a double holds every
 * integer exactly); the binding's integer checks test the number itself,
 * never rely on truncation by lua_tointeger. Within that range values
 * round-trip identically on every version; Q16.16 fixed-point values are
 * int32 and always inside it.
 *
 * Uservalues: 5.4 gives a userdata n numbered user values. Before 5.4 the
 * emulation keeps them in one table set as the userdata's user value
 * (5.2, 5.3) or environment (5.1), made when n > 0.
 *
 * Adding a call: when the binding starts using another 5.2+ call, give it a
 * definition in the matching section here (never an #if in a binding
 * file). The same header serves any new binding file. */
#ifndef WF_LCOMPAT_H
#define WF_LCOMPAT_H

#include <math.h>
#include <lua.h>
#include <lauxlib.h>

/* largest read per luaL_prepbuffsize (5.1's buffer has a fixed size) */
#if LUA_VERSION_NUM >= 502
#define WFL_READ_CHUNK 65536
#else
#define WFL_READ_CHUNK ((size_t)LUAL_BUFFERSIZE)
#endif

/* 2^53: integers below it in magnitude are exact in a double */
#define WFL_EXACT_LIMIT 9007199254740992.0

#if LUA_VERSION_NUM < 504
/* ------------------------------------------------ 5.1, 5.2 and 5.3 -- */

#define luaL_pushfail(L) lua_pushnil(L)

static inline void *wflc_newuserdatauv(lua_State *L, size_t sz, int n)
{
    void *p = lua_newuserdata(L, sz);
    if (n > 0) {
        lua_createtable(L, n, 0);
#if LUA_VERSION_NUM == 501
        lua_setfenv(L, -2);
#else
        lua_setuservalue(L, -2);
#endif
    }
    return p;
}
#define lua_newuserdatauv(L, sz, n) wflc_newuserdatauv((L), (sz), (n))

/* pushes the table of user values of the userdata at idx, or nil */
static inline int wflc_uvtable(lua_State *L, int idx)
{
#if LUA_VERSION_NUM == 501
    lua_getfenv(L, idx);
#else
    lua_getuservalue(L, idx);
#endif
    return lua_type(L, -1) == LUA_TTABLE;
}

static inline int wflc_getiuservalue(lua_State *L, int idx, int n)
{
    if (!wflc_uvtable(L, idx)) {
        lua_pop(L, 1);
        lua_pushnil(L);
        return LUA_TNONE;
    }
    lua_rawgeti(L, -1, n);
    lua_remove(L, -2);
    return lua_type(L, -1);
}
#define lua_getiuservalue(L, idx, n) wflc_getiuservalue((L), (idx), (n))

static inline int wflc_setiuservalue(lua_State *L, int idx, int n)
{
    idx = idx > 0 || idx <= LUA_REGISTRYINDEX ? idx : lua_gettop(L) + idx + 1;
    if (!wflc_uvtable(L, idx)) {
        lua_pop(L, 2);
        return 0;
    }
    lua_insert(L, -2);
    lua_rawseti(L, -2, n);
    lua_pop(L, 1);
    return 1;
}
#define lua_setiuservalue(L, idx, n) wflc_setiuservalue((L), (idx), (n))

#endif /* < 5.4 */

#if LUA_VERSION_NUM < 503
/* ------------------------------------------------------- 5.1 and 5.2 -- */

/* the getters return the type pushed, as from 5.3 on */
#define lua_getfield(L, i, k) (lua_getfield((L), (i), (k)), lua_type((L), -1))
#define lua_rawgeti(L, i, n) (lua_rawgeti((L), (i), (n)), lua_type((L), -1))
#define lua_rawget(L, i) (lua_rawget((L), (i)), lua_type((L), -1))
#define lua_gettable(L, i) (lua_gettable((L), (i)), lua_type((L), -1))
#if LUA_VERSION_NUM == 502
#define lua_rawgetp(L, i, p) (lua_rawgetp((L), (i), (p)), lua_type((L), -1))

/* 5.2's luaL_len returns an int, so a __len past 2^31 wrapped (to a
 * negative or a wrong size) before the binding's size checks saw it; as
 * from 5.3 on, the length is read whole */
static inline lua_Integer wflc_len(lua_State *L, int idx)
{
    int isnum = 0;
    lua_len(L, idx);
    lua_Number n = lua_tonumberx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || n != floor(n) || !(n > -WFL_EXACT_LIMIT && n < WFL_EXACT_LIMIT))
        luaL_error(L, "object length is not an integer");
    return (lua_Integer)n;
}
#define luaL_len(L, i) wflc_len((L), (i))
#endif

/* 5.2's lua_Unsigned has 32 bits; the binding compares lengths with it */
typedef unsigned long long wflc_unsigned;
#define lua_Unsigned wflc_unsigned

/* an integral number in the exact range (see the top of this file) */
static inline int wflc_isinteger(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TNUMBER)
        return 0;
    lua_Number n = lua_tonumber(L, idx);
    return n > -WFL_EXACT_LIMIT && n < WFL_EXACT_LIMIT && n == floor(n);
}
#define lua_isinteger(L, idx) wflc_isinteger((L), (idx))

/* as 5.3: the metatable records its name in __name */
static inline int wflc_newmetatable(lua_State *L, const char *tname)
{
    if (!luaL_newmetatable(L, tname))
        return 0;
    lua_pushstring(L, tname);
    lua_setfield(L, -2, "__name");
    return 1;
}
#define luaL_newmetatable(L, tname) wflc_newmetatable((L), (tname))

/* as 5.3: *isnum only when the value (a number or a numeric string) is
 * integral and exact; no truncation */
static inline lua_Integer wflc_tointegerx(lua_State *L, int idx, int *isnum)
{
    int ok = 0;
    lua_Integer v = 0;
    if (lua_isnumber(L, idx)) {
        lua_Number n = lua_tonumber(L, idx);
        if (n > -WFL_EXACT_LIMIT && n < WFL_EXACT_LIMIT && n == floor(n)) {
            v = (lua_Integer)n;
            ok = 1;
        }
    }
    if (isnum)
        *isnum = ok;
    return v;
}
#define lua_tointegerx(L, idx, isnum) wflc_tointegerx((L), (idx), (isnum))

/* t[n] pushed with its metamethods, returning its type (5.3's lua_geti). */
/* idx made absolute (lua_absindex is defined further down for 5.1). */
static inline int wflc_abs(lua_State *L, int idx)
{
    return (idx < 0 && idx > LUA_REGISTRYINDEX) ? lua_gettop(L) + idx + 1 : idx;
}

static inline int wflc_geti(lua_State *L, int idx, lua_Integer n)
{
    idx = wflc_abs(L, idx);
    lua_pushnumber(L, (lua_Number)n);
    lua_gettable(L, idx);
    return lua_type(L, -1);
}
#define lua_geti(L, idx, n) wflc_geti((L), (idx), (n))

/* 5.3's lua_rotate for the two uses the binding makes: n = 1 (the top goes
 * to idx, the others move up, as lua_insert) and n = -1 (idx goes to the
 * top, as lua_remove then push). */
static inline void wflc_rotate(lua_State *L, int idx, int n)
{
    idx = wflc_abs(L, idx);
    while (n > 0) { lua_insert(L, idx); n--; }
    while (n < 0) {
        lua_pushvalue(L, idx);
        lua_remove(L, idx);
        n++;
    }
}
#define lua_rotate(L, idx, n) wflc_rotate((L), (idx), (n))

#endif /* < 5.3 */

#if LUA_VERSION_NUM < 502
/* ------------------------------------------------- 5.1 and LuaJIT 2.1 -- */

#ifndef LUA_OK
#define LUA_OK 0
#endif

#define lua_rawlen(L, i) lua_objlen((L), (i))
#define luaL_len(L, i) ((lua_Integer)lua_objlen((L), (i)))
#define luaL_prepbuffsize(B, sz) luaL_prepbuffer(B)

static inline int wflc_absindex(lua_State *L, int idx)
{
    return idx > 0 || idx <= LUA_REGISTRYINDEX ? idx : lua_gettop(L) + idx + 1;
}
#define lua_absindex(L, idx) wflc_absindex((L), (idx))

/* LuaJIT has the next three; the same definitions serve both */
static inline void wflc_setfuncs(lua_State *L, const luaL_Reg *l, int nup)
{
    for (; l->name; l++) {
        int i;
        for (i = 0; i < nup; i++)
            lua_pushvalue(L, -nup);
        lua_pushcclosure(L, l->func, nup);
        lua_setfield(L, -(nup + 2), l->name);
    }
    lua_pop(L, nup);
}
#define luaL_setfuncs(L, l, nup) wflc_setfuncs((L), (l), (nup))

static inline void *wflc_testudata(lua_State *L, int idx, const char *tname)
{
    void *p = lua_touserdata(L, idx);
    if (p == NULL || !lua_getmetatable(L, idx))
        return NULL;
    luaL_getmetatable(L, tname);
    if (!lua_rawequal(L, -1, -2))
        p = NULL;
    lua_pop(L, 2);
    return p;
}
#define luaL_testudata(L, idx, tname) wflc_testudata((L), (idx), (tname))

static inline void wflc_setmetatable(lua_State *L, const char *tname)
{
    luaL_getmetatable(L, tname);
    lua_setmetatable(L, -2);
}
#define luaL_setmetatable(L, tname) wflc_setmetatable((L), (tname))

/* t[p] for a light userdata key p (5.2's lua_rawgetp / lua_rawsetp). */
static inline int wflc_rawgetp(lua_State *L, int idx, const void *p)
{
    idx = lua_absindex(L, idx);
    lua_pushlightuserdata(L, (void *)p);
    lua_rawget(L, idx);
    return lua_type(L, -1);
}
#define lua_rawgetp(L, idx, p) wflc_rawgetp((L), (idx), (p))
static inline void wflc_rawsetp(lua_State *L, int idx, const void *p)
{
    idx = lua_absindex(L, idx);
    lua_pushlightuserdata(L, (void *)p);
    lua_insert(L, -2);
    lua_rawset(L, idx);
}
#define lua_rawsetp(L, idx, p) wflc_rawsetp((L), (idx), (p))

#ifndef luaL_newlib
#define luaL_newlibtable(L, l) lua_createtable((L), 0, sizeof(l) / sizeof((l)[0]) - 1)
#define luaL_newlib(L, l) (luaL_newlibtable((L), (l)), luaL_setfuncs((L), (l), 0))
#endif

#endif /* < 5.2 */

#endif
