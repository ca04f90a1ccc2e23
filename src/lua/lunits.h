/* lunits.h - registration of the unit simulation's binding (lsweep.c,
 * lunits.c) and the argument helpers they share. */
#ifndef WF_LUNITS_H
#define WF_LUNITS_H

#include "lcheck.h"

#define WFL_UNIT_LIMIT 16384.0    /* |coordinate| a unit call accepts, world units */

void wfl_register_sweep(lua_State *L);
void wfl_register_units(lua_State *L);

/* The class named by the string at idx on grid g (the first class when
 * the value is nil or none); an error naming arg otherwise. */
int wfl_check_class_name(lua_State *L, int idx, const char *fname,
                         const char *arg, const wf_grid *g);

#endif
