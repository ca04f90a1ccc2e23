/* peer_clock.c - a Lua module for the peer comparison only: the clocks the
 * C harnesses use (CLOCK_MONOTONIC and the thread's processor time) as
 * integer nanoseconds, which os.clock and os.time cannot give. */
#define _POSIX_C_SOURCE 199309L
#include <lauxlib.h>
#include <lua.h>
#include <time.h>

int luaopen_peer_clock(lua_State *L);

static int push_clock(lua_State *L, clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    lua_pushinteger(L, (lua_Integer)ts.tv_sec * 1000000000 + ts.tv_nsec);
    return 1;
}

static int l_now_ns(lua_State *L)
{
    return push_clock(L, CLOCK_MONOTONIC);
}

static int l_cpu_ns(lua_State *L)
{
    return push_clock(L, CLOCK_THREAD_CPUTIME_ID);
}

int luaopen_peer_clock(lua_State *L)
{
    lua_newtable(L);
    lua_pushcfunction(L, l_now_ns);
    lua_setfield(L, -2, "now_ns");
    lua_pushcfunction(L, l_cpu_ns);
    lua_setfield(L, -2, "cpu_ns");
    return 1;
}
