/* lqueue.c - the "wayfinder.Queue" and "wayfinder.Request" userdata: a
 * time-sliced path request queue on a grid, and the handles of its
 * requests. A queue keeps its grid alive; a handle keeps its queue alive. */
#include <stdio.h>
#include <string.h>

#include "lcheck.h"

#define QUEUE_MT "wayfinder.Queue"
#define REQ_MT "wayfinder.Request"
#define DEFAULT_FIELDS 16

typedef struct lqueue {
    wfl_life life;        /* first: see lcheck.h */
    wf_queue *q;          /* NULL once released */
} lqueue;

static void queue_release(void *obj)
{
    lqueue *u = obj;
    wf_queue_destroy(u->q);
    u->q = NULL;
}

/* The queue of user value 1 of the value at idx when it is open, or NULL. */
static lqueue *open_queue_of(lua_State *L, int idx)
{
    lua_getiuservalue(L, idx, 1);
    lqueue *u = luaL_testudata(L, -1, QUEUE_MT);
    lua_pop(L, 1);
    return u && u->q && !u->life.closed ? u : NULL;
}

typedef struct lreq {
    uint64_t id;
    int smooth;           /* how the length is measured */
    int released;
} lreq;

static lqueue *check_queue(lua_State *L, const char *fname)
{
    lqueue *u = wfl_check_self(L, QUEUE_MT, fname, "a wayfinder.Queue",
                               "queue:method(...)");
    if (!u->q || u->life.closed)
        wfl_error(L, fname, "the queue is closed");
    return u;
}

/* The queue's grid (user value 1) with its regions; errors when closed. */
static wf_grid *queue_grid(lua_State *L, const char *fname, wf_hier **h,
                           int searching)
{
    lua_getiuservalue(L, 1, 1);
    wf_grid *g = wfl_check_grid_regions(L, lua_gettop(L), fname,
                                        "the queue's grid", h, searching);
    lua_pop(L, 1);
    return g;
}

/* ---------------------------------------------------------------- new -- */

static const char *const QUEUE_KEYS[] = {"max_fields", NULL};

static int l_queue_new(lua_State *L)
{
    const char *fname = "wayfinder.queue.new";
    wf_grid *g = wfl_check_grid_arg(L, 1, fname, "grid");
    int max_fields = DEFAULT_FIELDS;
    if (wfl_opt_table(L, 2, fname, "options")) {
        wfl_check_keys(L, 2, fname, "options", QUEUE_KEYS);
        if (wfl_field(L, 2, "max_fields") != LUA_TNIL)
            max_fields = (int)wfl_check_int(L, -1, fname, "options.max_fields",
                                            1, 1024);
        lua_pop(L, 1);
    }
    lqueue *u = lua_newuserdatauv(L, sizeof *u, 1);
    wfl_life_init(&u->life, queue_release);
    u->q = NULL;
    luaL_setmetatable(L, QUEUE_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    wf_status st = wf_queue_create(&u->q, g, max_fields);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 1;
}

/* ------------------------------------------------------------- submit -- */

static const char *const REQ_KEYS[] = {"sx", "sy", "gx", "gy", "class", "goal",
                                       "algorithm", "smooth", "max_expansions",
                                       "partial", "shared", "rewrite_goal",
                                       "escape", NULL};

static int l_submit(lua_State *L)
{
    const char *fname = "queue:submit";
    lqueue *u = check_queue(L, fname);
    char buf[64];
    if (!lua_istable(L, 2))
        wfl_error(L, fname, "request must be a table {sx =, sy =, gx =, gy =, "
                  "...}, got %s", wfl_describe(L, 2, buf));
    wfl_check_keys(L, 2, fname, "request", REQ_KEYS);
    wf_hier *h;
    wf_grid *g = queue_grid(L, fname, &h, 0);
    wf_request rq;
    memset(&rq, 0, sizeof rq);
    wf_query_init(&rq.q);
    wf_fix sx = wfl_field_fix(L, 2, fname, "request", "sx",
                              -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix sy = wfl_field_fix(L, 2, fname, "request", "sy",
                              -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix gx = wfl_field_fix(L, 2, fname, "request", "gx",
                              -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix gy = wfl_field_fix(L, 2, fname, "request", "gy",
                              -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    rq.q.sx = wfl_floor_cell(sx);
    rq.q.sy = wfl_floor_cell(sy);
    wf_goal_point(&rq.q.goal, gx, gy);
    if (wfl_field(L, 2, "goal") != LUA_TNIL)
        wfl_read_goal(L, -1, fname, "request.goal", gx, gy, &rq.q.goal);
    lua_pop(L, 1);
    if (wfl_field(L, 2, "class") != LUA_TNIL) {
        const char *name = wfl_check_name(L, -1, fname, "request.class");
        rq.q.cls = name ? wf_grid_class_index(g, name) : -1;
        name = lua_tostring(L, -1);
        if (rq.q.cls < 0)
            wfl_error(L, fname, "request.class must name a class of the "
                      "queue's grid, got '%s'", name);
    }
    lua_pop(L, 1);
    if (wfl_field(L, 2, "algorithm") != LUA_TNIL) {
        const char *a = wfl_check_string(L, -1, fname, "request.algorithm");
        if (strcmp(a, "astar") == 0)
            rq.q.algorithm = WF_ALGO_ASTAR;
        else if (strcmp(a, "jps") == 0)
            rq.q.algorithm = WF_ALGO_JPS;
        else if (strcmp(a, "auto") == 0)
            rq.q.algorithm = WF_ALGO_AUTO;
        else
            wfl_error(L, fname, "request.algorithm must be 'astar', 'jps' or "
                      "'auto', got '%s'", a);
        if (rq.q.algorithm == WF_ALGO_JPS && !wf_grid_uniform_cost(g))
            wfl_error(L, fname, "request.algorithm 'jps' needs a grid whose "
                      "costs are all 1; use 'astar'");
    }
    lua_pop(L, 1);
    if (wfl_field(L, 2, "smooth") != LUA_TNIL)
        rq.q.smooth = wfl_check_boolean(L, -1, fname, "request.smooth");
    lua_pop(L, 1);
    int shared = 0;
    if (wfl_field(L, 2, "shared") != LUA_TNIL)
        shared = wfl_check_boolean(L, -1, fname, "request.shared");
    lua_pop(L, 1);
    wfl_scale_opts so;
    wfl_read_scale_options(L, 2, fname, "request", &so);
    if (shared && (so.cap || so.partial))
        wfl_error(L, fname, "a shared request takes no max_expansions or "
                  "partial (its path is read from a complete field)");
    lua_settop(L, 2);
    rq.max_expansions = so.cap;
    rq.flags = (so.escape ? WF_PREP_ESCAPE : 0u)
               | (so.rewrite ? WF_PREP_REWRITE : 0u)
               | (so.partial ? WF_REQ_PARTIAL : 0u)
               | (shared ? WF_REQ_SHARED : 0u);
    /* the handle exists (released) before the request does, so an error
     * in between leaves nothing behind */
    lreq *r = lua_newuserdatauv(L, sizeof *r, 1);
    r->id = 0;
    r->smooth = rq.q.smooth;
    r->released = 1;
    luaL_setmetatable(L, REQ_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    wf_status st = wf_queue_submit(u->q, &rq, &r->id);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    r->released = 0;
    return 1;
}

/* ---------------------------------------------------------------- run -- */

static int l_run(lua_State *L)
{
    const char *fname = "queue:run";
    lqueue *u = check_queue(L, fname);
    uint64_t budget = UINT64_MAX;
    if (!lua_isnoneornil(L, 2))
        budget = (uint64_t)wfl_check_int(L, 2, fname, "budget", 0,
                                         WFL_MAX_BUDGET);
    wf_hier *h;
    wf_grid *g = queue_grid(L, fname, &h, 1);
    uint64_t used;
    uint32_t served;
    wf_status st = wf_queue_run(u->q, g, h, budget, &used, &served);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_pushinteger(L, (lua_Integer)used);
    lua_pushinteger(L, (lua_Integer)served);
    return 2;
}

static int l_pending(lua_State *L)
{
    lqueue *u = check_queue(L, "queue:pending");
    lua_pushinteger(L, (lua_Integer)wf_queue_pending(u->q));
    return 1;
}

static int l_queue_memory(lua_State *L)
{
    lqueue *u = check_queue(L, "queue:memory");
    lua_pushinteger(L, (lua_Integer)wf_queue_memory(u->q));
    return 1;
}

static lqueue *any_queue(lua_State *L, const char *fname)
{
    return wfl_check_self(L, QUEUE_MT, fname, "a wayfinder.Queue",
                          "queue:method(...)");
}

static int l_queue_close(lua_State *L)
{
    lqueue *u = any_queue(L, "queue:close");
    wfl_life_close(&u->life);
    return 0;
}

static int l_queue_is_closed(lua_State *L)
{
    lqueue *u = any_queue(L, "queue:is_closed");
    lua_pushboolean(L, u->q == NULL || u->life.closed);
    return 1;
}

/* queue:grid() -> the grid the queue serves (user value 1). */
static int l_queue_grid(lua_State *L)
{
    check_queue(L, "queue:grid");
    lua_getiuservalue(L, 1, 1);
    return 1;
}

static int l_queue_tostring(lua_State *L)
{
    lqueue *u = any_queue(L, "queue:__tostring");
    if (!u->q || u->life.closed)
        lua_pushstring(L, "wayfinder.Queue (closed)");
    else
        lua_pushfstring(L, "wayfinder.Queue (%d pending)",
                        (int)wf_queue_pending(u->q));
    return 1;
}

/* ------------------------------------------------------------ handles -- */

/* The handle at 1 and its open queue; *q is NULL when the queue is closed
 * or the handle released (then the error is raised unless quiet). */
static lreq *check_req(lua_State *L, const char *fname, wf_queue **q)
{
    char buf[64];
    lreq *r = luaL_testudata(L, 1, REQ_MT);
    if (!r)
        wfl_error(L, fname, "self must be a wayfinder.Request, got %s "
                  "(call it as handle:method(...))", wfl_describe(L, 1, buf));
    lqueue *u = open_queue_of(L, 1);
    if (!u)
        wfl_error(L, fname, "the queue is closed");
    if (r->released)
        wfl_error(L, fname, "the request was released");
    *q = u->q;
    return r;
}

static const char *state_name(wf_req_state s)
{
    switch (s) {
    case WF_REQ_PENDING: return "pending";
    case WF_REQ_DONE: return "done";
    case WF_REQ_FAILED: return "failed";
    case WF_REQ_CANCELLED: return "cancelled";
    }
    return "unknown";
}

static int l_status(lua_State *L)
{
    const char *fname = "handle:status";
    wf_queue *q;
    lreq *r = check_req(L, fname, &q);
    wf_req_state s;
    wf_status st = wf_queue_state(q, r->id, &s);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_pushstring(L, state_name(s));
    return 1;
}

static int l_result(lua_State *L)
{
    const char *fname = "handle:result";
    wf_queue *q;
    lreq *r = check_req(L, fname, &q);
    wf_req_state s;
    wf_status st = wf_queue_state(q, r->id, &s);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    if (s == WF_REQ_PENDING || s == WF_REQ_CANCELLED) {
        luaL_pushfail(L);
        lua_pushstring(L, state_name(s));
        return 2;
    }
    wf_result res;
    st = wf_queue_result(q, r->id, &res);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return wfl_push_outcome(L, &res, r->smooth);
}

static int l_cancel(lua_State *L)
{
    const char *fname = "handle:cancel";
    wf_queue *q;
    lreq *r = check_req(L, fname, &q);
    int was;
    wf_status st = wf_queue_cancel(q, r->id, &was);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_pushboolean(L, was);
    return 1;
}

/* __gc and __close: forget the request (cancelling it when pending). Never
 * raises: the queue may already be closed or collected. */
static int l_req_gc(lua_State *L)
{
    lreq *r = luaL_testudata(L, 1, REQ_MT);
    if (!r || r->released)
        return 0;
    lqueue *u = open_queue_of(L, 1);
    if (u)
        (void)wf_queue_release(u->q, r->id);
    r->released = 1;
    return 0;
}

static int l_req_tostring(lua_State *L)
{
    char buf[64];
    lreq *r = luaL_testudata(L, 1, REQ_MT);
    if (!r)
        return wfl_error(L, "handle:__tostring", "self must be a "
                         "wayfinder.Request, got %s", wfl_describe(L, 1, buf));
    lqueue *u = open_queue_of(L, 1);
    wf_req_state s;
    if (r->released || !u || wf_queue_state(u->q, r->id, &s) != WF_OK)
        lua_pushstring(L, "wayfinder.Request (released)");
    else
        lua_pushfstring(L, "wayfinder.Request (%s)", state_name(s));
    return 1;
}

static const luaL_Reg queue_methods[] = {
    {"submit", l_submit},
    {"run", l_run},
    {"pending", l_pending},
    {"memory", l_queue_memory},
    {"close", l_queue_close},
    {"is_closed", l_queue_is_closed},
    {"grid", l_queue_grid},
    {NULL, NULL}
};

static const luaL_Reg req_methods[] = {
    {"status", l_status},
    {"result", l_result},
    {"cancel", l_cancel},
    {NULL, NULL}
};

/* ------------------------------------------------------------ splicing -- */

#define SPLICE_MAX_POINTS (1 << 26)

/* The waypoints of path table idx ({x =, y =} each, whole numbers) into
 * two int32 arrays held by a userdata pushed on the stack. */
static int read_points(lua_State *L, int idx, const char *fname,
                       const char *what, int32_t **x, int32_t **y)
{
    char buf[64];
    if (!lua_istable(L, idx))
        wfl_error(L, fname, "%s must be a path (a table of waypoints), got %s",
                  what, wfl_describe(L, idx, buf));
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    if (n < 1 || n > SPLICE_MAX_POINTS)
        wfl_error(L, fname, "%s must hold 1 to %d waypoints, got %d", what,
                  SPLICE_MAX_POINTS, (int)n);
    int32_t *buf32 = lua_newuserdatauv(L, 2 * (size_t)n * sizeof(int32_t), 0);
    *x = buf32;
    *y = buf32 + n;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, i);
        if (!lua_istable(L, -1))
            wfl_error(L, fname, "%s[%d] must be a waypoint {x =, y =}, got %s",
                      what, (int)i, wfl_describe(L, -1, buf));
        const char *keys[2] = {"x", "y"};
        for (int c = 0; c < 2; c++) {
            lua_getfield(L, -1, keys[c]);
            if (lua_type(L, -1) != LUA_TNUMBER)
                wfl_error(L, fname, "%s[%d].%s must be a whole number in "
                          "[-32768, 32767], got %s", what, (int)i, keys[c],
                          wfl_describe(L, -1, buf));
            lua_Number v = lua_tonumber(L, -1);
            if (!(v >= -32768 && v <= 32767) || v != (lua_Number)(lua_Integer)v)
                wfl_error(L, fname, "%s[%d].%s must be a whole number in "
                          "[-32768, 32767], got %s", what, (int)i, keys[c],
                          wfl_describe(L, -1, buf));
            (c == 0 ? *x : *y)[i - 1] = (int32_t)v;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    return (int)n;
}

/* Raises when a segment of either path is neither straight nor diagonal. */
static void check_segments(lua_State *L, const char *fname,
                           const int32_t *ax, const int32_t *ay, int an,
                           const int32_t *bx, const int32_t *by, int bn)
{
    for (int p = 0; p < 2; p++) {
        const int32_t *x = p ? bx : ax, *y = p ? by : ay;
        int n = p ? bn : an;
        for (int i = 0; i + 1 < n; i++) {
            int32_t dx = x[i + 1] - x[i], dy = y[i + 1] - y[i];
            int32_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
            if (adx != 0 && ady != 0 && adx != ady)
                wfl_error(L, fname, "the paths must have straight or "
                          "diagonal segments (search with smooth = false)");
        }
    }
}

/* Pushes the navcells of sp as a path: {x, y, x =, y =} each. */
static void push_cells(lua_State *L, const wf_splice *sp)
{
    lua_createtable(L, sp->n, 0);
    for (int i = 0; i < sp->n; i++) {
        lua_createtable(L, 2, 2);
        lua_pushinteger(L, sp->x[i]);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, 1);
        lua_setfield(L, -2, "x");
        lua_pushinteger(L, sp->y[i]);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, 2);
        lua_setfield(L, -2, "y");
        lua_rawseti(L, -2, i + 1);
    }
}

/* core.queue_splice(quick, full, x, y) -> path, info | nil, reason */
static int l_splice(lua_State *L)
{
    const char *fname = "wayfinder.queue.splice";
    int32_t *qx, *qy, *fx, *fy;
    int qn = read_points(L, 1, fname, "quick", &qx, &qy);
    int fn = read_points(L, 2, fname, "full", &fx, &fy);
    int32_t ax = (int32_t)wfl_check_int(L, 3, fname, "x", -32768, 32767);
    int32_t ay = (int32_t)wfl_check_int(L, 4, fname, "y", -32768, 32767);
    if (qx[0] != fx[0] || qy[0] != fy[0])
        wfl_error(L, fname, "quick and full must start at the same navcell");
    wf_splice sp;
    wf_status st = wf_path_splice(qx, qy, qn, fx, fy, fn, ax, ay, &sp);
    if (st == WF_ERR_NOMEM)
        return wfl_raise_status(L, fname, st);
    if (st != WF_OK) {
        /* a segment neither straight nor diagonal, or (x, y) off the path */
        check_segments(L, fname, qx, qy, qn, fx, fy, fn);
        luaL_pushfail(L);
        lua_pushstring(L, "off_path");
        return 2;
    }
    push_cells(L, &sp);
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, sp.back);
    lua_setfield(L, -2, "back");
    lua_pushinteger(L, (lua_Integer)sp.cost_units);
    lua_setfield(L, -2, "cost_units");
    lua_pushboolean(L, sp.back == 0);
    lua_setfield(L, -2, "on_full");
    wf_splice_free(&sp);
    return 2;
}

/* core.queue_join(quick, rest, x, y) -> path, info | nil, reason */
static int l_join(lua_State *L)
{
    const char *fname = "wayfinder.queue.join";
    int32_t *qx, *qy, *cx, *cy;
    int qn = read_points(L, 1, fname, "quick", &qx, &qy);
    int cn = read_points(L, 2, fname, "rest", &cx, &cy);
    int32_t ax = (int32_t)wfl_check_int(L, 3, fname, "x", -32768, 32767);
    int32_t ay = (int32_t)wfl_check_int(L, 4, fname, "y", -32768, 32767);
    check_segments(L, fname, qx, qy, qn, cx, cy, cn);
    if (cx[0] != qx[qn - 1] || cy[0] != qy[qn - 1])
        wfl_error(L, fname, "rest must start at the last navcell of quick");
    wf_splice sp;
    wf_status st = wf_path_join(qx, qy, qn, cx, cy, cn, ax, ay, &sp);
    if (st == WF_ERR_NOMEM)
        return wfl_raise_status(L, fname, st);
    if (st != WF_OK) {
        /* (x, y) off the quick path (or a result over 2^26 navcells) */
        luaL_pushfail(L);
        lua_pushstring(L, "off_path");
        return 2;
    }
    push_cells(L, &sp);
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, (lua_Integer)sp.cost_units);
    lua_setfield(L, -2, "cost_units");
    lua_pushinteger(L, sp.joint + 1);
    lua_setfield(L, -2, "joint");
    wf_splice_free(&sp);
    return 2;
}

void wfl_register_queue(lua_State *L)
{
    wfl_new_life_type(L, QUEUE_MT, queue_methods, l_queue_close,
                      l_queue_tostring);
    lua_pop(L, 1);
    wfl_new_type(L, REQ_MT, req_methods, l_req_gc, l_req_tostring);
    lua_pop(L, 1);
    static const luaL_Reg functions[] = {{"queue_new", l_queue_new},
                                         {"queue_splice", l_splice},
                                         {"queue_join", l_join},
                                         {NULL, NULL}};
    wfl_setfuncs(L, functions);
}
