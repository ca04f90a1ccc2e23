/* lsweep.c - wayfinder.sweep: the swept collision test of sweep.c for
 * scripts and specs (a move against a unit's square, against the grid). */
#include <string.h>

#include "lunits.h"

int wfl_check_class_name(lua_State *L, int idx, const char *fname,
                         const char *arg, const wf_grid *g)
{
    if (lua_isnoneornil(L, idx))
        return 0;
    const char *name = wfl_check_string(L, idx, fname, arg);
    int k = strlen(name) == lua_rawlen(L, idx) ? wf_grid_class_index(g, name)
                                                : -1;
    if (k < 0)
        wfl_error(L, fname, "%s must name a class of the grid, got '%s'", arg,
                  name);
    return k;
}

/* The move's four coordinates from idx on; the step within its limit. */
static void move_args(lua_State *L, int idx, const char *fname, wf_fix *m)
{
    static const char *const names[4] = {"ax", "ay", "bx", "by"};
    for (int k = 0; k < 4; k++)
        m[k] = wfl_check_fix(L, idx + k, fname, names[k], -WFL_UNIT_LIMIT,
                             WFL_UNIT_LIMIT);
    int64_t dx = (int64_t)m[2] - m[0], dy = (int64_t)m[3] - m[1];
    if (dx > WF_SWEEP_MAX_STEP || -dx > WF_SWEEP_MAX_STEP
        || dy > WF_SWEEP_MAX_STEP || -dy > WF_SWEEP_MAX_STEP)
        wfl_error(L, fname, "the move from (ax, ay) to (bx, by) must be at "
                  "most %d along each axis", WF_SWEEP_MAX_STEP / WF_FIX_ONE);
}

static int l_square(lua_State *L)
{
    const char *fname = "wayfinder.sweep.square";
    wf_fix m[4];
    move_args(L, 1, fname, m);
    wf_fix cx = wfl_check_fix(L, 5, fname, "cx", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT);
    wf_fix cy = wfl_check_fix(L, 6, fname, "cy", -WFL_UNIT_LIMIT, WFL_UNIT_LIMIT);
    wf_fix h = wfl_check_fix(L, 7, fname, "half", 0,
                             WF_SWEEP_MAX_HALF / WF_FIX_ONE);
    int hit;
    if (wf_sweep_square(m[0], m[1], m[2], m[3], cx, cy, h, &hit) != WF_OK)
        return wfl_error(L, fname, "(cx, cy) must lie within %d of (ax, ay)",
                         (int)(((1 << 30) - WF_SWEEP_MAX_HALF) / WF_FIX_ONE));
    lua_pushboolean(L, hit);
    return 1;
}

static int l_box(lua_State *L)
{
    const char *fname = "wayfinder.sweep.box";
    static const char *const names[4] = {"x0", "y0", "x1", "y1"};
    wf_fix m[4], b[4];
    move_args(L, 1, fname, m);
    for (int k = 0; k < 4; k++)
        b[k] = wfl_check_fix(L, 5 + k, fname, names[k], -WFL_UNIT_LIMIT,
                             WFL_UNIT_LIMIT);
    if (b[0] > b[2] || b[1] > b[3])
        return wfl_error(L, fname, "the box must have x0 <= x1 and y0 <= y1");
    for (int k = 0; k < 4; k++) {
        int64_t d = (int64_t)b[k] - m[k % 2];
        if (d > ((int64_t)1 << 30) || -d > ((int64_t)1 << 30))
            return wfl_error(L, fname, "the box must lie within %d of (ax, ay)",
                             (int)(((int64_t)1 << 30) / WF_FIX_ONE));
    }
    lua_pushboolean(L, wf_sweep_box(m[0], m[1], m[2], m[3], b[0], b[1], b[2],
                                    b[3]));
    return 1;
}

static int l_grid(lua_State *L)
{
    const char *fname = "wayfinder.sweep.grid";
    wf_grid *g = wfl_check_grid_arg(L, 1, fname, "grid");
    wf_fix m[4];
    move_args(L, 2, fname, m);
    int cls = wfl_check_class_name(L, 6, fname, "class", g);
    int hit, hx = 0, hy = 0;
    if (wf_sweep_grid(g, cls, m[0], m[1], m[2], m[3], &hit, &hx, &hy) != WF_OK)
        return wfl_error(L, fname, "bad move");
    lua_pushboolean(L, hit);
    if (!hit)
        return 1;
    lua_pushinteger(L, hx);
    lua_pushinteger(L, hy);
    return 3;
}

void wfl_register_sweep(lua_State *L)
{
    lua_pushcfunction(L, l_square);
    lua_setfield(L, -2, "sweep_square");
    lua_pushcfunction(L, l_box);
    lua_setfield(L, -2, "sweep_box");
    lua_pushcfunction(L, l_grid);
    lua_setfield(L, -2, "sweep_grid");
    lua_pushinteger(L, WF_SWEEP_MAX_STEP / WF_FIX_ONE);
    lua_setfield(L, -2, "SWEEP_MAX_STEP");
}
