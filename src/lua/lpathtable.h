/* lpathtable.h - the binding of the grid path tables' build (cpd.c). */
#ifndef WFL_PATHTABLE_H
#define WFL_PATHTABLE_H

#include <lua.h>

/* Adds cpd_build and cpd_hash to the core table at the top of the stack. */
void wfl_register_pathtable(lua_State *L);

#endif
