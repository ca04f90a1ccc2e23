/* lcheck.h - what the binding's files share: argument checks (every error
 * names the function, the parameter and the bad value), status errors,
 * fixed point conversions, and path requests and outcomes. One copy each;
 * a helper two files need goes here, never into both. */
#ifndef WF_LCHECK_H
#define WF_LCHECK_H

#include <lua.h>
#include <lauxlib.h>

#include "lcompat.h"

#include "../wayfinder.h"

/* Raises "fname: what" at the caller's line. Never returns. */
int wfl_error(lua_State *L, const char *fname, const char *fmt, ...);
/* Raises the error for a failed core call: "fname: out of memory" for
 * WF_ERR_NOMEM, else "fname: <wf_status_name(st)>". Never returns. */
int wfl_raise_status(lua_State *L, const char *fname, wf_status st);
/* The userdata of metatable mt at index 1 (self), or an error "self must
 * be <what>, got <value>" followed by " (call it as <call>)" when call is
 * not NULL. Whether the object is closed is the caller's check. */
void *wfl_check_self(lua_State *L, const char *mt, const char *fname,
                     const char *what, const char *call);

/* |world coordinate| accepted by the grid and the queue (Q16.16 range). */
#define WFL_WORLD_LIMIT 32767.0

/* A number to Q16.16, rounded to nearest (the caller checked its range). */
wf_fix wfl_to_fix(lua_Number v);
/* Q16.16 (or a wider fixed-point sum) to a Lua number. */
lua_Number wfl_from_fix(int64_t v);
void wfl_push_fix(lua_State *L, int64_t v);
/* The navcell index holding fixed-point coordinate v (floor(v)). */
int wfl_floor_cell(wf_fix v);

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

/* Pushes the metatable of userdata type `name` ("wayfinder.X"), making it
 * on the first call: methods as __index, `closer` as __gc and __close (one
 * idempotent function), `tostring` as __tostring; luaL_newmetatable sets
 * __name. Safe to call again when the module is loaded twice. */
void wfl_new_type(lua_State *L, const char *name, const luaL_Reg *methods,
                  lua_CFunction closer, lua_CFunction tostring);

/* A short description of the value at idx for messages ("600", "nan",
 * "a string"). Pushes nothing; the buffer must hold 64 bytes. */
const char *wfl_describe(lua_State *L, int idx, char *buf);

/* Registration of each userdata type into the core table on the stack top
 * (lcore.c calls them all). */
void wfl_register_grid(lua_State *L);
void wfl_register_rectplan(lua_State *L);
void wfl_register_walker(lua_State *L);

/* The grid at idx, or an error naming arg when it is not an open grid. */
wf_grid *wfl_check_grid_arg(lua_State *L, int idx, const char *fname,
                            const char *arg);

/* ------------------------------------------------------------ scale -- */

#define WFL_MAX_BUDGET ((lua_Integer)1 << 53)   /* largest budget or cap */

/* Options shared by grid:find_path and queue requests. */
typedef struct wfl_scale_opts {
    int rewrite;          /* rewrite_goal, default true */
    int escape;           /* escape, default true */
    int partial;          /* partial, default false */
    uint64_t cap;         /* max_expansions, 0: none */
} wfl_scale_opts;

/* t[key] of the table at idx as a world coordinate in [lo, hi], converted
 * to Q16.16; errors name it "table.key". */
wf_fix wfl_field_fix(lua_State *L, int idx, const char *fname,
                     const char *table, const char *key, lua_Number lo,
                     lua_Number hi);
/* Reads angle = radians or u = {ux, uy} (a unit vector) from the table at
 * idx into a Q16.16 unit vector, (1, 0) when neither is given; what names
 * the table in errors. */
void wfl_read_axis(lua_State *L, int idx, const char *fname, const char *what,
                   wf_fix *ux, wf_fix *uy);

/* Reads rewrite_goal, escape, partial and max_expansions from the table at
 * idx (nothing when it is not a table); arg names the table in errors. */
void wfl_read_scale_options(lua_State *L, int idx, const char *fname,
                            const char *arg, wfl_scale_opts *so);
/* Reads the goal table at idx ({shape =, radius =, ...}, as find_path's
 * options.goal) centred on (gx, gy); arg names the table in errors. */
void wfl_read_goal(lua_State *L, int idx, const char *fname, const char *arg,
                   wf_fix gx, wf_fix gy, wf_goal *goal);
/* Pushes a path outcome as find_path returns it: path, length, info or
 * nil, reason, info. Returns 3. */
int wfl_push_outcome(lua_State *L, const wf_result *r, int smooth);
/* The open grid at idx and its synced region labels; with searching set,
 * refuses inside grid:batch. */
wf_grid *wfl_check_grid_regions(lua_State *L, int idx, const char *fname,
                                const char *arg, wf_hier **h, int searching);
void wfl_register_queue(lua_State *L);

#endif
