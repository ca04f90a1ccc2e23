/* lpathtable.c - core.cpd_build and core.cpd_hash: the heavy half of the
 * grid path tables (wayfinder.pathtable_grid holds the rest in Lua). */
#include "lpathtable.h"
#include "lcheck.h"
#include "../cpd.h"

#include <stdlib.h>

/* core.cpd_build(pass, width, height) -> rows, runs
 * pass: width*height bytes, "\1" passable. rows[cell + 1] is the row of
 * each passable cell: 4 bytes per run (start as 3 bytes big-endian, then
 * the move), "" for blocked cells. runs: the total run count. */
static int l_cpd_build(lua_State *L)
{
    const char *fname = "core.cpd_build";
    size_t len;
    const unsigned char *pass;
    lua_Integer w, h, cells, i;
    wf_cpd *c;
    unsigned char *moves, *ms, *buf;
    int32_t *starts;
    lua_Integer total = 0;
    if (lua_type(L, 1) != LUA_TSTRING) return wfl_error(L, fname, "pass must be a string");
    pass = (const unsigned char *)lua_tolstring(L, 1, &len);
    w = wfl_check_int(L, 2, fname, "width", 1, WF_CPD_MAX_SIDE);
    h = wfl_check_int(L, 3, fname, "height", 1, WF_CPD_MAX_SIDE);
    cells = w * h;
    if ((lua_Integer)len != cells)
        return wfl_error(L, fname, "pass must hold width*height bytes");
    lua_createtable(L, (int)cells, 0);
    c = wf_cpd_new((int)w, (int)h);
    moves = (unsigned char *)malloc((size_t)cells);
    ms = (unsigned char *)malloc((size_t)cells);
    starts = (int32_t *)malloc((size_t)cells * sizeof *starts);
    buf = (unsigned char *)malloc((size_t)cells * 4);
    if (!c || !moves || !ms || !starts || !buf) {
        wf_cpd_free(c);
        free(moves);
        free(ms);
        free(starts);
        free(buf);
        return wfl_error(L, fname, "out of memory");
    }
    for (i = 0; i < cells; i++) {
        int32_t runs, k;
        if (!pass[i]) {
            lua_pushliteral(L, "");
        } else {
            wf_cpd_first_moves(c, pass, (int32_t)i, moves);
            runs = wf_cpd_runs(pass, moves, (int32_t)cells, starts, ms);
            for (k = 0; k < runs; k++) {
                buf[4 * k] = (unsigned char)((starts[k] >> 16) & 0xff);
                buf[4 * k + 1] = (unsigned char)((starts[k] >> 8) & 0xff);
                buf[4 * k + 2] = (unsigned char)(starts[k] & 0xff);
                buf[4 * k + 3] = ms[k];
            }
            total += runs;
            if (!lua_checkstack(L, 2)) break;   /* cannot happen: one slot used */
            lua_pushlstring(L, (const char *)buf, (size_t)runs * 4);
        }
        lua_rawseti(L, -2, i + 1);
    }
    wf_cpd_free(c);
    free(moves);
    free(ms);
    free(starts);
    free(buf);
    lua_pushinteger(L, total);
    return 2;
}

/* core.cpd_hash(s) -> a 32-bit FNV-1a hash of the string's bytes */
static int l_cpd_hash(lua_State *L)
{
    size_t len;
    const char *s;
    if (lua_type(L, 1) != LUA_TSTRING) return wfl_error(L, "core.cpd_hash", "s must be a string");
    s = lua_tolstring(L, 1, &len);
    lua_pushinteger(L, (lua_Integer)wf_cpd_hash((const unsigned char *)s, len));
    return 1;
}

void wfl_register_pathtable(lua_State *L)
{
    lua_pushcfunction(L, l_cpd_build);
    lua_setfield(L, -2, "cpd_build");
    lua_pushcfunction(L, l_cpd_hash);
    lua_setfield(L, -2, "cpd_hash");
}
