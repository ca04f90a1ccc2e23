/* lformation.h - registration of the formation binding (lformation.c). */
#ifndef WF_LFORMATION_H
#define WF_LFORMATION_H

#include "lcheck.h"

void wfl_register_formation(lua_State *L);

#endif
