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

/* The argument checks reject NaN and infinities; -ffast-math lets the
 * compiler assume there are none and drop those checks. */
#ifdef __FAST_MATH__
#error "wayfinder must not be built with -ffast-math (it removes NaN checks)"
#endif

/* Whether v is finite (not NaN, not an infinity), decided on the bits of
 * its representation, so no floating-point optimisation can remove it. */
int wfl_is_finite(lua_Number v);

/* ------------------------------------------------------------ lifetime --
 * Lua code can run in the middle of a call: a metamethod of an argument
 * table, or a finalizer the collector runs during an allocation. Either can
 * close the very object the call is using. Every function the binding
 * registers (wfl_setfuncs, wfl_new_type) therefore runs through one
 * wrapper that marks its userdata arguments (and the objects they keep in
 * user value 1, two levels deep) busy for the length of the call; closing
 * a busy object only marks it closed, and the wrapper releases it when the
 * last call using it returns, normally or by an error. An object with a
 * lifetime has a wfl_life as its first member and its metatable is made
 * with wfl_new_type(..., release) != NULL. */
typedef struct wfl_life {
    int busy;                  /* calls in progress that use the object */
    int closed;                /* closed by the caller: methods refuse it */
    void (*release)(void *);   /* frees what the object owns; idempotent */
} wfl_life;

/* Initialises lf (first member of a new object) with its release function. */
void wfl_life_init(wfl_life *lf, void (*release)(void *));
/* close, __close and __gc: marks the object closed and releases it now
 * unless a call is using it (then the last such call releases it). */
void wfl_life_close(wfl_life *lf);
/* Registers the functions of l into the table on the top, each through the
 * wrapper described above (as luaL_setfuncs with no upvalues). */
void wfl_setfuncs(lua_State *L, const luaL_Reg *l);

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
/* A string at idx without NUL bytes (a NUL would make C read a prefix). */
const char *wfl_check_string(lua_State *L, int idx, const char *fname,
                             const char *arg);
/* A string at idx naming something to look up (a class): NULL when it
 * holds a NUL byte, so that it matches no name. */
const char *wfl_check_name(lua_State *L, int idx, const char *fname,
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
/* As wfl_new_type, for a type whose objects start with a wfl_life. */
void wfl_new_life_type(lua_State *L, const char *name,
                       const luaL_Reg *methods, lua_CFunction closer,
                       lua_CFunction tostring);

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
