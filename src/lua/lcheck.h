/* lcheck.h - argument checking shared by the binding's files. Every error
 * names the function, the parameter and the bad value. */
#ifndef WF_LCHECK_H
#define WF_LCHECK_H

#include <lua.h>
#include <lauxlib.h>

#include "../wayfinder.h"

/* Raises "fname: what" at the caller's line. Never returns. */
int wfl_error(lua_State *L, const char *fname, const char *fmt, ...);

/* A whole number in [lo, hi] at stack index idx (a float with an integral
 * value is accepted). */
lua_Integer wfl_check_int(lua_State *L, int idx, const char *fname,
                          const char *arg, lua_Integer lo, lua_Integer hi);
/* A finite number at idx. */
lua_Number wfl_check_number(lua_State *L, int idx, const char *fname,
                            const char *arg);
/* A finite number in [lo, hi]. */
lua_Number wfl_check_range(lua_State *L, int idx, const char *fname,
                           const char *arg, lua_Number lo, lua_Number hi);
/* A world coordinate, converted to Q16.16 (rounded to nearest). */
wf_fix wfl_check_fix(lua_State *L, int idx, const char *fname, const char *arg,
                     lua_Number lo, lua_Number hi);
int wfl_check_boolean(lua_State *L, int idx, const char *fname, const char *arg);
const char *wfl_check_string(lua_State *L, int idx, const char *fname,
                             const char *arg);
/* The value at idx is a table or nil/none (returns 0 then). */
int wfl_opt_table(lua_State *L, int idx, const char *fname, const char *arg);
/* Raises an error for any string key of the table at idx that is not in the
 * NULL-terminated list, or any non-string key. */
void wfl_check_keys(lua_State *L, int idx, const char *fname, const char *arg,
                    const char *const *allowed);
/* Pushes t[key] of the table at idx; returns its type. */
int wfl_field(lua_State *L, int idx, const char *key);

/* A short description of the value at idx for messages ("600", "nan",
 * "a string"). Pushes nothing; the buffer must hold 64 bytes. */
const char *wfl_describe(lua_State *L, int idx, char *buf);

/* Registration of each userdata type into the core table on the stack top
 * (lcore.c calls them all). */
void wfl_register_grid(lua_State *L);
void wfl_register_world(lua_State *L);

/* The grid at idx, or an error naming arg when it is not an open grid. */
wf_grid *wfl_check_grid_arg(lua_State *L, int idx, const char *fname,
                            const char *arg);

#endif
