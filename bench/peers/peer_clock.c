/* peer_clock.c - a Lua module for the peer comparison only: the same
 * CLOCK_MONOTONIC the C harnesses use, as integer nanoseconds, because Lua's
 * os.clock measures processor time and os.time whole seconds. */
#define _POSIX_C_SOURCE 199309L
#include <lauxlib.h>
#include <lua.h>
#include <time.h>

int luaopen_peer_clock(lua_State *L);

static int l_now_ns(lua_State *L)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    lua_pushinteger(L, (lua_Integer)ts.tv_sec * 1000000000 + ts.tv_nsec);
    return 1;
}

int luaopen_peer_clock(lua_State *L)
{
    lua_newtable(L);
    lua_pushcfunction(L, l_now_ns);
    lua_setfield(L, -2, "now_ns");
    return 1;
}
