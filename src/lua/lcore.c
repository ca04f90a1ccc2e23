/* lcore.c - luaopen_wayfinder_core: builds the core table and registers
 * every userdata type. Safe to run twice (metatables are made once). */
#include "lcheck.h"
#include "lunits.h"
#include "lgraph.h"
#include "lpathtable.h"
#include "lsteer.h"
#include "lformation.h"

int luaopen_wayfinder_core(lua_State *L);

int luaopen_wayfinder_core(lua_State *L)
{
    lua_newtable(L);
    lua_pushliteral(L, "0.1.0");
    lua_setfield(L, -2, "version");
    wfl_register_grid(L);
    wfl_register_rectplan(L);
    wfl_register_queue(L);
    wfl_register_walker(L);
    wfl_register_sweep(L);
    wfl_register_units(L);
    wfl_register_graph(L);
    wfl_register_pathtable(L);
    wfl_register_steer(L);
    wfl_register_formation(L);
    return 1;
}
