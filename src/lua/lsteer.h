/* lsteer.h - registration of the steering group's binding (lsteer.c). */
#ifndef WF_LSTEER_H
#define WF_LSTEER_H

#include "lcheck.h"

void wfl_register_steer(lua_State *L);

#endif
