/* lgraph.c - the binding of the sector/portal graph core: compiling flat
 * arrays into a wf_graph, locating points, the sliced solver and the grid
 * to boxes builder. lua/wayfinder/graph/init.lua is the public face; these are
 * core.graph_* functions, checked here again because they are reachable. */
#include <math.h>
#include <string.h>

#include "lcheck.h"
#include "lgraph.h"

#define GRAPH_MT  "wayfinder.GraphCore"
#define SEARCH_MT "wayfinder.GraphSearch"

#define SECTOR_FIELDS 6
#define PORTAL_FIELDS 16

typedef struct lgraph { wf_graph *g; } lgraph;
typedef struct lsearch { wf_graph_search *s; } lsearch;

static int graph_gc(lua_State *L)
{
    lgraph *u = luaL_checkudata(L, 1, GRAPH_MT);
    wf_graph_destroy(u->g);
    u->g = NULL;
    return 0;
}

static int search_gc(lua_State *L)
{
    lsearch *u = luaL_checkudata(L, 1, SEARCH_MT);
    wf_graph_search_destroy(u->s);
    u->s = NULL;
    return 0;
}

static wf_graph *check_graph(lua_State *L, int idx, const char *fname)
{
    lgraph *u = luaL_testudata(L, idx, GRAPH_MT);
    if (!u || !u->g) wfl_error(L, fname, "argument %d must be a compiled graph", idx);
    return u->g;
}

/* t[k] of the table at idx as a number in [lo, hi]. */
static lua_Number num_at(lua_State *L, int idx, lua_Integer k, const char *fname,
                         lua_Number lo, lua_Number hi)
{
    lua_geti(L, idx, k);
    lua_Number v = wfl_check_range(L, -1, fname, "array item", lo, hi);
    lua_pop(L, 1);
    return v;
}

static wf_fix fix_at(lua_State *L, int idx, lua_Integer k, const char *fname)
{
    lua_Number lim = (lua_Number)WF_GRAPH_LIMIT / 65536.0;
    return (wf_fix)lround((double)num_at(L, idx, k, fname, -lim, lim) * 65536.0);
}

static int64_t cost_at(lua_State *L, int idx, lua_Integer k, const char *fname)
{
    lua_Number hi = (lua_Number)WF_GRAPH_MAX_COST / 65536.0;
    return (int64_t)llround((double)num_at(L, idx, k, fname, 0, hi) * 65536.0);
}

/* Argument idx as a cost: a number of navcells in [0, 2^30], in 1/65536. */
static int64_t cost_at_arg(lua_State *L, int idx, const char *fname)
{
    lua_Number hi = (lua_Number)WF_GRAPH_MAX_COST / 65536.0;
    return (int64_t)llround((double)wfl_check_range(L, idx, fname, "time", 0, hi) * 65536.0);
}

static lua_Integer int_at(lua_State *L, int idx, lua_Integer k, const char *fname,
                          lua_Integer lo, lua_Integer hi)
{
    lua_geti(L, idx, k);
    lua_Integer v = wfl_check_int(L, -1, fname, "array item", lo, hi);
    lua_pop(L, 1);
    return v;
}

static const char *const FAULTS[] = { "none", "box", "surface", "danger", "overlap",
                                      "nowhere", "cost", "span", "walk" };

/* graph_compile(sectors, portals) -> graph | nil, fault, i, j (1-based) */
/* Reads n sectors (SECTOR_FIELDS numbers each) from the array at idx. */
static void read_sectors(lua_State *L, int idx, int n, wf_graph_sector *sec, const char *fn)
{
    for (int i = 0; i < n; i++) {
        lua_Integer b = (lua_Integer)i * SECTOR_FIELDS;
        sec[i].x0 = fix_at(L, idx, b + 1, fn);
        sec[i].y0 = fix_at(L, idx, b + 2, fn);
        sec[i].x1 = fix_at(L, idx, b + 3, fn);
        sec[i].y1 = fix_at(L, idx, b + 4, fn);
        sec[i].surface = (int)int_at(L, idx, b + 5, fn, 0, WF_GRAPH_MAX_SURFACES - 1);
        sec[i].danger = cost_at(L, idx, b + 6, fn);
    }
}

/* Reads n portals (PORTAL_FIELDS numbers each) from the array at idx. */
static void read_portals(lua_State *L, int idx, int n, wf_graph_portal *por, const char *fn)
{
    for (int i = 0; i < n; i++) {
        lua_Integer b = (lua_Integer)i * PORTAL_FIELDS;
        wf_graph_portal *p = &por[i];
        p->a = (int)int_at(L, idx, b + 1, fn, -1, WF_GRAPH_MAX_SECTORS);
        p->b = (int)int_at(L, idx, b + 2, fn, -1, WF_GRAPH_MAX_SECTORS);
        p->ax0 = fix_at(L, idx, b + 3, fn);
        p->ay0 = fix_at(L, idx, b + 4, fn);
        p->ax1 = fix_at(L, idx, b + 5, fn);
        p->ay1 = fix_at(L, idx, b + 6, fn);
        p->bx0 = fix_at(L, idx, b + 7, fn);
        p->by0 = fix_at(L, idx, b + 8, fn);
        p->bx1 = fix_at(L, idx, b + 9, fn);
        p->by1 = fix_at(L, idx, b + 10, fn);
        p->cost = cost_at(L, idx, b + 11, fn);
        p->classes = (uint32_t)int_at(L, idx, b + 12, fn, 0, UINT32_MAX);
        p->needs = (uint32_t)int_at(L, idx, b + 13, fn, 0, UINT32_MAX);
        p->flags = (unsigned)int_at(L, idx, b + 14, fn, 0, 3);
        p->period = cost_at(L, idx, b + 15, fn);
        p->offset = cost_at(L, idx, b + 16, fn);
    }
}

/* The result of wf_graph_create or wf_graph_patch: the userdata at the
 * top, or nil, fault, i, j (1-based) */
static int created(lua_State *L, wf_status st, const wf_graph_error *err, const char *fn)
{
    if (st == WF_ERR_NOMEM) return wfl_error(L, fn, "out of memory");
    if (st != WF_OK && err->fault == WF_GF_NONE) return wfl_error(L, fn, "bad patch indices");
    if (st != WF_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, FAULTS[err->fault]);
        lua_pushinteger(L, err->i + 1);
        lua_pushinteger(L, err->j + 1);
        return 4;
    }
    return 1;
}

static int l_compile(lua_State *L)
{
    const char *fn = "graph_compile";
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_Integer ls = luaL_len(L, 1), lp = luaL_len(L, 2);
    if (ls % SECTOR_FIELDS || lp % PORTAL_FIELDS ||
        ls / SECTOR_FIELDS > WF_GRAPH_MAX_SECTORS || lp / PORTAL_FIELDS > WF_GRAPH_MAX_PORTALS)
        return wfl_error(L, fn, "bad array sizes %lld, %lld", (long long)ls, (long long)lp);
    int ns = (int)(ls / SECTOR_FIELDS), np = (int)(lp / PORTAL_FIELDS);
    lgraph *u = lua_newuserdatauv(L, sizeof *u, 0);   /* closed first */
    u->g = NULL;
    luaL_setmetatable(L, GRAPH_MT);
    wf_graph_sector *sec = lua_newuserdatauv(L, sizeof *sec * (size_t)(ns ? ns : 1), 0);
    wf_graph_portal *por = lua_newuserdatauv(L, sizeof *por * (size_t)(np ? np : 1), 0);
    read_sectors(L, 1, ns, sec, fn);
    read_portals(L, 2, np, por, fn);
    wf_graph_error err;
    wf_status st = wf_graph_create(&u->g, sec, ns, por, np, &err);
    lua_pop(L, 2);
    return created(L, st, &err, fn);
}

/* Reads the list of n integers at idx, each in [lo, hi], less `shift`. */
static int *read_ints(lua_State *L, int idx, lua_Integer n, lua_Integer lo, lua_Integer hi,
                      int shift, const char *fn)
{
    int *v = lua_newuserdatauv(L, sizeof(int) * (size_t)(n ? n : 1), 0);
    for (lua_Integer k = 0; k < n; k++)
        v[k] = (int)(int_at(L, idx, k + 1, fn, lo, hi) - shift);
    return v;
}

/* graph_patch(old, drop_sectors, add_sectors, drop_portals, moved, add_portals)
 *   -> a new core graph, or nil, fault, i, j as graph_compile. drop_*:
 *   1-based old indices; moved: flat (1-based old portal, 0-based new a,
 *   new b) triples; add_*: as graph_compile's arrays (new indices). */
static int l_patch(lua_State *L)
{
    const char *fn = "graph_patch";
    wf_graph *old = check_graph(L, 1, fn);
    for (int i = 2; i <= 6; i++) luaL_checktype(L, i, LUA_TTABLE);
    lua_Integer nds = luaL_len(L, 2), las = luaL_len(L, 3), ndp = luaL_len(L, 4);
    lua_Integer lm = luaL_len(L, 5), lap = luaL_len(L, 6);
    int ons = wf_graph_sector_count(old), onp = wf_graph_portal_count(old);
    if (nds > ons || ndp > onp || las % SECTOR_FIELDS || lap % PORTAL_FIELDS || lm % 3 ||
        las / SECTOR_FIELDS > WF_GRAPH_MAX_SECTORS || lap / PORTAL_FIELDS > WF_GRAPH_MAX_PORTALS ||
        lm / 3 > onp)
        return wfl_error(L, fn, "bad array sizes");
    int nas = (int)(las / SECTOR_FIELDS), nap = (int)(lap / PORTAL_FIELDS);
    lgraph *u = lua_newuserdatauv(L, sizeof *u, 0);   /* closed first */
    u->g = NULL;
    luaL_setmetatable(L, GRAPH_MT);
    int *ds = read_ints(L, 2, nds, 1, ons, 1, fn);
    int *dp = read_ints(L, 4, ndp, 1, onp, 1, fn);
    int *mv = read_ints(L, 5, lm, -1, (lua_Integer)INT32_MAX - 1, 0, fn);
    for (lua_Integer k = 0; k < lm; k += 3) mv[k] -= 1;   /* old portal: 1-based */
    wf_graph_sector *sec = lua_newuserdatauv(L, sizeof *sec * (size_t)(nas ? nas : 1), 0);
    wf_graph_portal *por = lua_newuserdatauv(L, sizeof *por * (size_t)(nap ? nap : 1), 0);
    read_sectors(L, 3, nas, sec, fn);
    read_portals(L, 6, nap, por, fn);
    wf_graph_error err;
    wf_status st = wf_graph_patch(&u->g, old, ds, (int)nds, sec, nas, dp, (int)ndp, mv,
                                  (int)(lm / 3), por, nap, &err);
    lua_pop(L, 5);
    return created(L, st, &err, fn);
}

static int l_locate(lua_State *L)
{
    const char *fn = "graph_locate";
    wf_graph *g = check_graph(L, 1, fn);
    lua_Number lim = (lua_Number)WF_GRAPH_LIMIT / 65536.0;
    wf_fix x = wfl_check_fix(L, 2, fn, "x", -lim, lim);
    wf_fix y = wfl_check_fix(L, 3, fn, "y", -lim, lim);
    lua_pushinteger(L, wf_graph_locate(g, x, y) + 1);
    return 1;
}

static int l_set_danger(lua_State *L)
{
    const char *fn = "graph_set_danger";
    wf_graph *g = check_graph(L, 1, fn);
    int s = (int)wfl_check_int(L, 2, fn, "sector", 1, wf_graph_sector_count(g));
    lua_Number hi = (lua_Number)WF_GRAPH_MAX_COST / 65536.0;
    lua_Number d = wfl_check_range(L, 3, fn, "danger", 0, hi);
    wf_graph_set_danger(g, s - 1, (int64_t)llround((double)d * 65536.0));
    return 0;
}

static int l_memory(lua_State *L)
{
    wf_graph *g = check_graph(L, 1, "graph_memory");
    lua_pushinteger(L, (lua_Integer)wf_graph_memory(g));
    return 1;
}

static int l_search_new(lua_State *L)
{
    lsearch *u = lua_newuserdatauv(L, sizeof *u, 1);
    u->s = NULL;
    luaL_setmetatable(L, SEARCH_MT);
    if (wf_graph_search_create(&u->s) != WF_OK)
        return wfl_error(L, "graph_search", "out of memory");
    return 1;
}

static wf_graph_search *check_search(lua_State *L, int idx, const char *fn)
{
    lsearch *u = luaL_testudata(L, idx, SEARCH_MT);
    if (!u || !u->s) wfl_error(L, fn, "argument %d must be a graph search", idx);
    return u->s;
}

/* graph_begin(search, graph, sx, sy, gx, gy, class_bit, abilities, mults,
 *             wnum, wden, rnum, rden [, time]) -> true | nil, reason */
static int l_begin(lua_State *L)
{
    const char *fn = "graph_begin";
    wf_graph_search *s = check_search(L, 1, fn);
    wf_graph *g = check_graph(L, 2, fn);
    lua_Number lim = (lua_Number)WF_GRAPH_LIMIT / 65536.0;
    wf_graph_query q;
    wf_graph_query_init(&q);
    q.sx = wfl_check_fix(L, 3, fn, "sx", -lim, lim);
    q.sy = wfl_check_fix(L, 4, fn, "sy", -lim, lim);
    q.gx = wfl_check_fix(L, 5, fn, "gx", -lim, lim);
    q.gy = wfl_check_fix(L, 6, fn, "gy", -lim, lim);
    q.class_bit = (uint32_t)wfl_check_int(L, 7, fn, "class_bit", 0, UINT32_MAX);
    q.abilities = (uint32_t)wfl_check_int(L, 8, fn, "abilities", 0, UINT32_MAX);
    luaL_checktype(L, 9, LUA_TTABLE);
    for (int i = 0; i < WF_GRAPH_MAX_SURFACES; i++) {
        lua_geti(L, 9, i + 1);
        q.mult[i] = lua_isnil(L, -1) ? 0
                  : (int64_t)wfl_check_int(L, -1, fn, "mult", 0, WF_GRAPH_MAX_MULT);
        lua_pop(L, 1);
    }
    q.wnum = wfl_check_int(L, 10, fn, "wnum", 1, 1000);
    q.wden = wfl_check_int(L, 11, fn, "wden", 1, 1000);
    q.rnum = wfl_check_int(L, 12, fn, "rnum", 1, 1000);
    q.rden = wfl_check_int(L, 13, fn, "rden", 1, 1000);
    if (q.wnum < q.wden) return wfl_error(L, fn, "weight below 1");
    if (!lua_isnoneornil(L, 14)) q.time = cost_at_arg(L, 14, fn);
    wf_status st = wf_graph_search_begin(s, g, &q);
    if (st == WF_OK) {
        lua_pushvalue(L, 2);
        lua_setiuservalue(L, 1, 1);     /* keep the graph alive */
        lua_pushboolean(L, 1);
        return 1;
    }
    if (st == WF_ERR_NOMEM) return wfl_error(L, fn, "out of memory");
    if (st == WF_ERR_ARG) return wfl_error(L, fn, "bad query");
    luaL_pushfail(L);
    lua_pushstring(L, wf_status_name(st));
    return 2;
}

static int l_step(lua_State *L)
{
    const char *fn = "graph_step";
    wf_graph_search *s = check_search(L, 1, fn);
    uint64_t budget = (uint64_t)wfl_check_int(L, 2, fn, "budget", 0, WFL_MAX_BUDGET);
    uint64_t used;
    int finished;
    if (wf_graph_search_step(s, budget, &used, &finished) != WF_OK) {
        luaL_pushfail(L);
        lua_pushliteral(L, "graph_changed");
        return 2;
    }
    lua_pushboolean(L, finished);
    lua_pushinteger(L, (lua_Integer)used);
    return 2;
}

static void push_int_array(lua_State *L, const int *v, int n, int add)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, v[i] + add);
        lua_rawseti(L, -2, i + 1);
    }
}

static int l_finish(lua_State *L)
{
    const char *fn = "graph_finish";
    wf_graph_search *s = check_search(L, 1, fn);
    wf_graph_result r;
    wf_status st = wf_graph_search_finish(s, &r);
    if (st == WF_ERR_NOMEM) return wfl_error(L, fn, "out of memory");
    if (st == WF_ERR_ARG) {
        luaL_pushfail(L);
        lua_pushliteral(L, "graph_changed");
        return 2;
    }
    lua_createtable(L, 0, 8);
    lua_pushinteger(L, (lua_Integer)r.expanded);
    lua_setfield(L, -2, "expanded");
    if (st != WF_OK) {
        luaL_pushfail(L);
        lua_pushliteral(L, "unreachable");
        lua_rotate(L, -3, 2);
        return 3;
    }
    lua_pushinteger(L, (lua_Integer)r.cost);
    lua_setfield(L, -2, "cost_units");
    lua_pushnumber(L, (lua_Number)r.cost / 65536.0);
    lua_setfield(L, -2, "cost");
    push_int_array(L, r.portal, r.nsteps, 1);
    lua_setfield(L, -2, "portals");
    push_int_array(L, r.dir, r.nsteps, 0);
    lua_setfield(L, -2, "dirs");
    push_int_array(L, r.sector, r.nsteps + 1, 1);
    lua_setfield(L, -2, "sectors");
    lua_createtable(L, r.npoints, 0);
    for (int i = 0; i < r.npoints; i++) {
        lua_createtable(L, 2, 0);
        lua_pushnumber(L, (lua_Number)r.x[i] / 65536.0);
        lua_rawseti(L, -2, 1);
        lua_pushnumber(L, (lua_Number)r.y[i] / 65536.0);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "points");
    push_int_array(L, r.via, r.npoints, 1);
    lua_setfield(L, -2, "via");
    return 1;
}

static int l_cancel(lua_State *L)
{
    wf_graph_search_cancel(check_search(L, 1, "graph_cancel"));
    return 0;
}

/* graph_boxes(grid, class, surface_bytes|nil, max_span, quadtree, max_box)
 *   -> boxes (flat, 5 per box), regions, portals (flat, 6 per), nregions */
static int l_boxes(lua_State *L)
{
    const char *fn = "graph_boxes";
    wf_grid *g = wfl_check_grid_arg(L, 1, fn, "grid");
    int cls = (int)wfl_check_int(L, 2, fn, "class", 1, wf_grid_class_count(g)) - 1;
    const uint8_t *surface = NULL;
    if (!lua_isnoneornil(L, 3)) {
        size_t len;
        surface = (const uint8_t *)luaL_checklstring(L, 3, &len);
        if (len != (size_t)wf_grid_width(g) * (size_t)wf_grid_height(g))
            return wfl_error(L, fn, "surface must have width*height bytes");
    }
    int span = (int)wfl_check_int(L, 4, fn, "max_span", 1, WF_MAX_SIDE);
    int quadtree = lua_toboolean(L, 5);
    int box = (int)wfl_check_int(L, 6, fn, "max_box", 1, WF_MAX_SIDE);
    wf_graph_boxes b;
    wf_status st = quadtree ? wf_graph_quadtree_from_grid(g, cls, surface, span, box, &b)
                            : wf_graph_boxes_from_grid(g, cls, surface, span, box, &b);
    if (st == WF_ERR_NOMEM) return wfl_error(L, fn, "out of memory");
    if (st != WF_OK) return wfl_error(L, fn, "bad surface codes");
    push_int_array(L, b.box, 5 * b.nboxes, 0);
    push_int_array(L, b.region, b.nboxes, 1);
    push_int_array(L, b.portal, 6 * b.nportals, 0);
    lua_pushinteger(L, b.nregions);
    wf_graph_boxes_free(&b);
    return 4;
}

/* graph_boxes_in(grid, class, surface_bytes|nil, max_box, rects_flat [, quadtree])
 *   -> boxes (flat, 5 per box): greedy boxes covering the rectangles, or
 *   with quadtree the region quadtree's leaves that meet them */
static int l_boxes_in(lua_State *L)
{
    const char *fn = "graph_boxes_in";
    wf_grid *g = wfl_check_grid_arg(L, 1, fn, "grid");
    int cls = (int)wfl_check_int(L, 2, fn, "class", 1, wf_grid_class_count(g)) - 1;
    const uint8_t *surface = NULL;
    if (!lua_isnoneornil(L, 3)) {
        size_t len;
        surface = (const uint8_t *)luaL_checklstring(L, 3, &len);
        if (len != (size_t)wf_grid_width(g) * (size_t)wf_grid_height(g))
            return wfl_error(L, fn, "surface must have width*height bytes");
    }
    int box = (int)wfl_check_int(L, 4, fn, "max_box", 1, WF_MAX_SIDE);
    luaL_checktype(L, 5, LUA_TTABLE);
    int quadtree = lua_toboolean(L, 6);   /* before the push below takes slot 6 */
    lua_Integer n = luaL_len(L, 5);
    if (n % 4 || n / 4 > WF_GRAPH_MAX_SECTORS) return wfl_error(L, fn, "bad rectangle list");
    int *rects = lua_newuserdatauv(L, sizeof(int) * (size_t)(n ? n : 1), 0);
    for (lua_Integer k = 0; k < n; k++)
        rects[k] = (int)int_at(L, 5, k + 1, fn, 0, WF_MAX_SIDE);
    wf_graph_boxes b;
    wf_status st = quadtree
        ? wf_graph_quadtree_in_rects(g, cls, surface, box, rects, (int)(n / 4), &b)
        : wf_graph_boxes_in_rects(g, cls, surface, box, rects, (int)(n / 4), &b);
    if (st == WF_ERR_NOMEM) return wfl_error(L, fn, "out of memory");
    if (st != WF_OK) return wfl_error(L, fn, "bad rectangles or surface codes");
    push_int_array(L, b.box, 5 * b.nboxes, 0);
    wf_graph_boxes_free(&b);
    return 1;
}

/* graph_grid_changed(grid, since) -> x0, y0, x1, y1 (inclusive) | false | "all" */
static int l_grid_changed(lua_State *L)
{
    const char *fn = "graph_grid_changed";
    wf_grid *g = wfl_check_grid_arg(L, 1, fn, "grid");
    uint64_t since = (uint64_t)wfl_check_int(L, 2, fn, "since", 0,
                                             (lua_Integer)WFL_EXACT_LIMIT - 1);
    int x0, y0, x1, y1;
    int r = wf_grid_changed_since(g, since, &x0, &y0, &x1, &y1);
    if (r == 0) {
        lua_pushboolean(L, 0);
        return 1;
    }
    if (r == 2) {
        lua_pushliteral(L, "all");
        return 1;
    }
    lua_pushinteger(L, x0);
    lua_pushinteger(L, y0);
    lua_pushinteger(L, x1);
    lua_pushinteger(L, y1);
    return 4;
}

static const luaL_Reg FUNCS[] = {
    { "graph_boxes_in", l_boxes_in },
    { "graph_grid_changed", l_grid_changed },
    { "graph_compile", l_compile },
    { "graph_patch", l_patch },
    { "graph_locate", l_locate },
    { "graph_set_danger", l_set_danger },
    { "graph_memory", l_memory },
    { "graph_search", l_search_new },
    { "graph_begin", l_begin },
    { "graph_step", l_step },
    { "graph_finish", l_finish },
    { "graph_cancel", l_cancel },
    { "graph_boxes", l_boxes },
    { NULL, NULL }
};

void wfl_register_graph(lua_State *L)
{
    /* no __index: these objects are used through the functions above */
    if (luaL_newmetatable(L, GRAPH_MT)) {
        lua_pushcfunction(L, graph_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    if (luaL_newmetatable(L, SEARCH_MT)) {
        lua_pushcfunction(L, search_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    luaL_setfuncs(L, FUNCS, 0);
}
