/* lgraph.h - registration of the graph binding (lgraph.c). */
#ifndef WF_LGRAPH_H
#define WF_LGRAPH_H

#include <lua.h>

/* Adds the graph_* functions to the core table on the stack top. */
void wfl_register_graph(lua_State *L);

#endif
