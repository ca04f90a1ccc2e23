/* lrectplan.c - the rectangle planner's binding: reads a room description and
 * a query into the core's structures (every field checked), and the
 * "wayfinder.RectPlan" userdata with its step-by-step methods. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcheck.h"

#define PLANNER_MT "wayfinder.RectPlan"
#define PREPARED_MT "wayfinder.PreparedRoom"
#define COORD_LIMIT 8192.0
#define MAX_OBJECTS 1000000

typedef struct lplanner {
    wfl_life life;                /* first: see lcheck.h */
    wf_rectplan *p;               /* NULL once released */
    int fixed;                    /* query.fixed: the path in Q16.16 integers */
} lplanner;

static void planner_release(void *obj)
{
    lplanner *u = obj;
    wf_rectplan_destroy(u->p);
    u->p = NULL;
}

/* A room description read once (wayfinder.rectplan.prepare): the room with
 * its buffers, and which objects are people, whose boxes and rooms are
 * read again from the description at every call. User values: 1 the
 * anchor table holding the buffers, the object ids ("ids") and the string
 * room ids ("intern"); 2 the description table. */
typedef struct lprepared {
    wf_room room;
    const size_t *people;      /* indices into room.objects */
    size_t npeople;
} lprepared;

/* Everything read from (room, query); buffers live in Lua userdata kept in
 * the anchor table, so an error at any point frees them. */
typedef struct input {
    const char *fname;
    wf_room room;
    wf_room_scan scan;
    wf_rectplan_config cfg;
    wf_area *terrain;
    size_t nterrain;
    int anchor;                /* stack index of the anchor table */
    int start_obj, dest_obj;   /* 1 when given */
    lua_Number width, near, ignore;
    int has_ignore;
    int fixed;                 /* query.fixed: coordinates are Q16.16 integers */
    const char *mode;
} input;

static const char *const ROOM_KEYS[] = {"width", "height", "rooms", "doors",
                                        "walls", "objects", NULL};
static const char *const OBJECT_KEYS[] = {"id", "x0", "y0", "x1", "y1", "room",
                                          "contained", "walk_over", "person",
                                          "penalty", NULL};
static const char *const QUERY_KEYS[] = {"start", "goal", "start_object",
                                         "dest_object", "mode", "near", "width",
                                         "ignore_people_within", "tuning",
                                         "terrain", "room", "fixed", NULL};
static const char *const TUNING_KEYS[] = {"max_node_size", "seed", "step",
                                          "min_step", "max_nodes", "edge_points",
                                          "escape", NULL};
static const char *const TERRAIN_KEYS[] = {"x0", "y0", "x1", "y1", "penalty",
                                           NULL};

/* ------------------------------------------------------------ helpers -- */

static void *anchored_buffer(lua_State *L, input *in, size_t bytes)
{
    void *b = lua_newuserdatauv(L, bytes ? bytes : 1, 0);
    lua_rawseti(L, in->anchor, (lua_Integer)luaL_len(L, in->anchor) + 1);
    return b;
}

/* Room ids: an integer in [ROOM_ID_MIN, ROOM_ID_MAX] stands for itself; a
 * string is interned, through the anchor's intern table, to an id above
 * ROOM_ID_MAX, so the two kinds never meet. */
#define ROOM_ID_MIN (-1073741824)
#define ROOM_ID_MAX 1073741823

static int32_t room_id(lua_State *L, input *in, int idx, const char *what)
{
    char buf[64];
    int isint;
    lua_Integer v = lua_tointegerx(L, idx, &isint);
    if (isint && lua_type(L, idx) == LUA_TNUMBER) {
        if (v < ROOM_ID_MIN || v > ROOM_ID_MAX)
            wfl_error(L, in->fname, "%s must be an integer in [%ld, %ld] or a "
                      "string, got %s", what, (long)ROOM_ID_MIN,
                      (long)ROOM_ID_MAX, wfl_describe(L, idx, buf));
        return (int32_t)v;
    }
    if (lua_type(L, idx) != LUA_TSTRING)
        wfl_error(L, in->fname, "%s must be an integer in [%ld, %ld] or a string, "
                  "got %s", what, (long)ROOM_ID_MIN, (long)ROOM_ID_MAX,
                  wfl_describe(L, idx, buf));
    idx = lua_absindex(L, idx);
    lua_getfield(L, in->anchor, "intern");
    lua_pushvalue(L, idx);
    if (lua_rawget(L, -2) == LUA_TNUMBER) {
        int32_t id = (int32_t)lua_tointeger(L, -1);
        lua_pop(L, 2);
        return id;
    }
    lua_pop(L, 1);
    lua_Integer next = (lua_Integer)luaL_len(L, -1) + 1;
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, next);
    lua_pushvalue(L, idx);
    lua_pushinteger(L, ROOM_ID_MAX + next);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    return (int32_t)(ROOM_ID_MAX + next);
}

/* Checks below format argument names only on failure: they run for every
 * object of every planning call. */
static lua_Number field_number(lua_State *L, input *in, int t, const char *key,
                               const char *arg, lua_Number lo, lua_Number hi)
{
    lua_getfield(L, t, key);
    lua_Number v = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !(v >= lo && v <= hi)) {
        char name[96];
        snprintf(name, sizeof name, "%s.%s", arg, key);
        wfl_check_range(L, -1, in->fname, name, lo, hi);
    }
    lua_pop(L, 1);
    return v;
}

static int field_bool(lua_State *L, input *in, int t, const char *key,
                      const char *arg)
{
    int v = 0, ty = lua_getfield(L, t, key);
    if (ty == LUA_TBOOLEAN) {
        v = lua_toboolean(L, -1);
    } else if (ty != LUA_TNIL) {
        char name[96];
        snprintf(name, sizeof name, "%s.%s", arg, key);
        wfl_check_boolean(L, -1, in->fname, name);
    }
    lua_pop(L, 1);
    return v;
}

/* 1 when every key of the table at idx is a string in allowed. */
static int keys_ok(lua_State *L, int idx, const char *const *allowed)
{
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        int ok = 0;
        if (lua_type(L, -1) == LUA_TSTRING) {
            size_t len;
            const char *k = lua_tolstring(L, -1, &len);
            for (const char *const *a = allowed; *a && !ok && strlen(k) == len;
                 a++)
                ok = strcmp(*a, k) == 0;
        }
        if (!ok) {
            lua_pop(L, 1);
            return 0;
        }
    }
    return 1;
}

/* A penalty at idx: a number in [0, 10000], "impassable" or +inf. */
static uint32_t penalty_arg(lua_State *L, input *in, int idx, const char *arg)
{
    char buf[64];
    int t = lua_type(L, idx);
    lua_Number v = lua_tonumber(L, idx);
    size_t len = 0;
    const char *s = t == LUA_TSTRING ? lua_tolstring(L, idx, &len) : NULL;
    if (s && len == 10 && strcmp(s, "impassable") == 0)
        return WF_IMPASSABLE;
    if (t == LUA_TNUMBER && isinf(v) && v > 0)
        return WF_IMPASSABLE;
    if (t != LUA_TNUMBER || !(v >= 0 && v <= WF_PENALTY_MAX / WF_PENALTY_ONE))
        wfl_error(L, in->fname, "%s must be a number in [0, %u] or 'impassable', "
                  "got %s", arg, WF_PENALTY_MAX / WF_PENALTY_ONE,
                  wfl_describe(L, idx, buf));
    return (uint32_t)lround((double)v * WF_PENALTY_ONE);
}

/* A box from fields x0, y0, x1, y1 of the table at t. */
static wf_rect box_fields(lua_State *L, input *in, int t, const char *arg)
{
    lua_Number x0 = field_number(L, in, t, "x0", arg, -COORD_LIMIT, COORD_LIMIT);
    lua_Number y0 = field_number(L, in, t, "y0", arg, -COORD_LIMIT, COORD_LIMIT);
    lua_Number x1 = field_number(L, in, t, "x1", arg, -COORD_LIMIT, COORD_LIMIT);
    lua_Number y1 = field_number(L, in, t, "y1", arg, -COORD_LIMIT, COORD_LIMIT);
    if (x1 < x0)
        wfl_error(L, in->fname, "%s has a negative width (x1 %g < x0 %g)", arg,
                  (double)x1, (double)x0);
    if (y1 < y0)
        wfl_error(L, in->fname, "%s has a negative height (y1 %g < y0 %g)", arg,
                  (double)y1, (double)y0);
    wf_rect r = {wfl_to_fix(x0), wfl_to_fix(y0), wfl_to_fix(x1), wfl_to_fix(y1)};
    return r;
}

/* A query number at idx in world units, [lo, hi]; with query.fixed, a
 * Q16.16 integer in [lo, hi] * 65536, read exactly (from_fix of an int32
 * is exact), so the caller's to_fix gives it back unchanged. */
static lua_Number query_number(lua_State *L, input *in, int idx, const char *arg,
                               lua_Number lo, lua_Number hi)
{
    if (!in->fixed)
        return wfl_check_range(L, idx, in->fname, arg, lo, hi);
    return wfl_from_fix(wfl_check_int(L, idx, in->fname, arg, (lua_Integer)(lo * 65536.0),
                                  (lua_Integer)(hi * 65536.0)));
}

/* A point {x, y} (or {x =, y =}) at idx. */
static void point_arg(lua_State *L, input *in, int idx, const char *arg,
                      lua_Number *x, lua_Number *y)
{
    char buf[64], name[64];
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx))
        wfl_error(L, in->fname, "%s must be a point {x, y}, got %s", arg,
                  wfl_describe(L, idx, buf));
    int named = lua_getfield(L, idx, "x") != LUA_TNIL;
    lua_pop(L, 1);
    if (named) {
        lua_getfield(L, idx, "x");
        lua_getfield(L, idx, "y");
    } else {
        lua_rawgeti(L, idx, 1);
        lua_rawgeti(L, idx, 2);
    }
    snprintf(name, sizeof name, "%s.x", arg);
    *x = query_number(L, in, -2, name, -COORD_LIMIT, COORD_LIMIT);
    snprintf(name, sizeof name, "%s.y", arg);
    *y = query_number(L, in, -1, name, -COORD_LIMIT, COORD_LIMIT);
    lua_pop(L, 2);
}

/* --------------------------------------------------------------- room -- */

static void read_tiles(lua_State *L, input *in, int t)
{
    char buf[64];
    int w = in->room.width, h = in->room.height;
    size_t n = (size_t)w * (size_t)h;
    if (lua_getfield(L, t, "rooms") != LUA_TTABLE)
        wfl_error(L, in->fname, "room.rooms must be a table of width*height "
                  "room ids, got %s", wfl_describe(L, -1, buf));
    int rt = lua_gettop(L);
    lua_Unsigned len = lua_rawlen(L, rt);
    if (len != n)
        wfl_error(L, in->fname, "room.rooms must hold width*height = %lu room "
                  "ids, got %lu", (unsigned long)n, (unsigned long)len);
    int32_t *ids = anchored_buffer(L, in, n * sizeof *ids);
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, rt, (lua_Integer)i + 1);
        int isint;
        lua_Integer v = lua_tointegerx(L, -1, &isint);
        if (isint && lua_type(L, -1) == LUA_TNUMBER && v >= ROOM_ID_MIN
            && v <= ROOM_ID_MAX) {
            ids[i] = (int32_t)v;
        } else {
            char what[64];
            snprintf(what, sizeof what, "room.rooms[%lu]", (unsigned long)i + 1);
            ids[i] = room_id(L, in, -1, what);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    in->room.rooms = ids;

    int dt = lua_getfield(L, t, "doors");
    if (dt != LUA_TNIL) {
        if (dt != LUA_TTABLE)
            wfl_error(L, in->fname, "room.doors must be a table {[tile index] "
                      "= true}, got %s", wfl_describe(L, -1, buf));
        uint8_t *doors = anchored_buffer(L, in, n);
        memset(doors, 0, n);
        int d = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, d)) {
            int isint;
            lua_Integer k = lua_tointegerx(L, -2, &isint);
            if (!isint || lua_type(L, -2) != LUA_TNUMBER || k < 1
                || (lua_Unsigned)k > n)
                wfl_error(L, in->fname, "room.doors keys must be tile indices "
                          "in [1, %lu], got %s", (unsigned long)n,
                          wfl_describe(L, -2, buf));
            if (lua_type(L, -1) != LUA_TBOOLEAN)
                wfl_error(L, in->fname, "room.doors[%lld] must be a boolean, "
                          "got %s", (long long)k, wfl_describe(L, -1, buf));
            doors[k - 1] = (uint8_t)lua_toboolean(L, -1);
            lua_pop(L, 1);
        }
        in->room.doors = doors;
    }
    lua_pop(L, 1);
}

static void read_walls(lua_State *L, input *in, int t)
{
    char buf[64], arg[64];
    int wt = lua_getfield(L, t, "walls");
    if (wt != LUA_TNIL) {
        if (wt != LUA_TTABLE)
            wfl_error(L, in->fname, "room.walls must be a sequence of {x0, y0, "
                      "x1, y1}, got %s", wfl_describe(L, -1, buf));
        int s = lua_gettop(L);
        size_t n = (size_t)lua_rawlen(L, s);
        if (n > (size_t)4 * (size_t)WF_ROOM_MAX_TILES)
            wfl_error(L, in->fname, "room.walls holds too many walls (%lu)",
                      (unsigned long)n);
        int32_t *walls = anchored_buffer(L, in, 4 * n * sizeof *walls);
        for (size_t k = 0; k < n; k++) {
            snprintf(arg, sizeof arg, "room.walls[%lu]", (unsigned long)k + 1);
            if (lua_rawgeti(L, s, (lua_Integer)k + 1) != LUA_TTABLE)
                wfl_error(L, in->fname, "%s must be a table {x0, y0, x1, y1}, "
                          "got %s", arg, wfl_describe(L, -1, buf));
            for (int c = 0; c < 4; c++) {
                lua_Integer hi = c % 2 ? in->room.height : in->room.width;
                lua_rawgeti(L, -1, c + 1);
                lua_Integer v = lua_tointeger(L, -1);
                if (!lua_isinteger(L, -1) || v < 0 || v > hi) {
                    char name[80];
                    static const char *const cn[] = {"x0", "y0", "x1", "y1"};
                    snprintf(name, sizeof name, "%s[%d] (%s)", arg, c + 1, cn[c]);
                    v = wfl_check_int(L, -1, in->fname, name, 0, hi);
                }
                walls[4 * k + (size_t)c] = (int32_t)v;
                lua_pop(L, 1);
            }
            int32_t *w = walls + 4 * k;
            if (w[0] != w[2] && w[1] != w[3])
                wfl_error(L, in->fname, "%s must be horizontal or vertical, got "
                          "(%d, %d)-(%d, %d)", arg, w[0], w[1], w[2], w[3]);
            if (w[0] == w[2] && w[1] == w[3])
                wfl_error(L, in->fname, "%s has zero length at (%d, %d)", arg,
                          w[0], w[1]);
            lua_pop(L, 1);
        }
        in->room.walls = walls;
        in->room.nwalls = n;
    }
    lua_pop(L, 1);
}

/* Marks objects whose id equals the value at idx with flag; returns how
 * many matched. */
static int mark_objects(lua_State *L, input *in, int ids, int idx,
                        unsigned flag)
{
    int hits = 0;
    wf_room_object *o = (wf_room_object *)in->room.objects;
    for (size_t k = 0; k < in->room.nobjects; k++) {
        lua_rawgeti(L, ids, (lua_Integer)k + 1);
        if (lua_rawequal(L, -1, idx)) {
            o[k].flags |= flag;
            hits++;
        }
        lua_pop(L, 1);
    }
    return hits;
}

/* The room of object k (its table at index o); the argument's name is
 * formatted only when it is needed. */
static int32_t object_room(lua_State *L, input *in, int o, size_t k)
{
    int32_t id;
    int rt = lua_getfield(L, o, "room");
    lua_Integer rv = lua_tointeger(L, -1);
    if (rt == LUA_TNUMBER && lua_isinteger(L, -1) && rv >= ROOM_ID_MIN
        && rv <= ROOM_ID_MAX) {
        id = (int32_t)rv;
    } else {
        char what[80];
        snprintf(what, sizeof what, "room.objects[%lu].room", (unsigned long)k + 1);
        if (rt == LUA_TNIL)
            wfl_error(L, in->fname, "%s is missing", what);
        id = room_id(L, in, -1, what);
    }
    lua_pop(L, 1);
    return id;
}

static void read_objects(lua_State *L, input *in, int t)
{
    char buf[64], arg[64];
    lua_newtable(L);                       /* ids, by object index */
    lua_pushvalue(L, -1);
    lua_setfield(L, in->anchor, "ids");
    int ids = lua_gettop(L);
    int ot = lua_getfield(L, t, "objects");
    if (ot != LUA_TNIL) {
        if (ot != LUA_TTABLE)
            wfl_error(L, in->fname, "room.objects must be a sequence of "
                      "tables, got %s", wfl_describe(L, -1, buf));
        int s = lua_gettop(L);
        size_t n = (size_t)lua_rawlen(L, s);
        if (n > MAX_OBJECTS)
            wfl_error(L, in->fname, "room.objects holds too many objects (%lu)",
                      (unsigned long)n);
        wf_room_object *obj = anchored_buffer(L, in, n * sizeof *obj);
        for (size_t k = 0; k < n; k++) {
            snprintf(arg, sizeof arg, "room.objects[%lu]", (unsigned long)k + 1);
            if (lua_rawgeti(L, s, (lua_Integer)k + 1) != LUA_TTABLE)
                wfl_error(L, in->fname, "%s must be a table, got %s", arg,
                          wfl_describe(L, -1, buf));
            int o = lua_gettop(L);
            if (!keys_ok(L, o, OBJECT_KEYS))
                wfl_check_keys(L, o, in->fname, arg, OBJECT_KEYS);
            int idt = lua_getfield(L, o, "id");
            if (idt != LUA_TNUMBER && idt != LUA_TSTRING)
                wfl_error(L, in->fname, "%s.id must be a number or a string, "
                          "got %s", arg, wfl_describe(L, -1, buf));
            if (idt == LUA_TNUMBER && lua_tonumber(L, -1) != lua_tonumber(L, -1))
                wfl_error(L, in->fname, "%s.id must not be nan", arg);
            lua_rawseti(L, ids, (lua_Integer)k + 1);
            obj[k].box = box_fields(L, in, o, arg);
            obj[k].room = object_room(L, in, o, k);
            char what[80];
            obj[k].flags = 0;
            if (field_bool(L, in, o, "contained", arg))
                obj[k].flags |= WF_OBJ_CONTAINED;
            if (field_bool(L, in, o, "walk_over", arg))
                obj[k].flags |= WF_OBJ_WALK_OVER;
            if (field_bool(L, in, o, "person", arg))
                obj[k].flags |= WF_OBJ_PERSON;
            obj[k].penalty = WF_IMPASSABLE;
            if (lua_getfield(L, o, "penalty") != LUA_TNIL) {
                snprintf(what, sizeof what, "%s.penalty", arg);
                obj[k].penalty = penalty_arg(L, in, -1, what);
            }
            lua_pop(L, 2);
        }
        in->room.objects = obj;
        in->room.nobjects = n;
    }
    lua_pop(L, 2);
}

static void read_room(lua_State *L, input *in, int t)
{
    char buf[64];
    if (!lua_istable(L, t))
        wfl_error(L, in->fname, "room must be a table, got %s",
                  wfl_describe(L, t, buf));
    wfl_check_keys(L, t, in->fname, "room", ROOM_KEYS);
    lua_getfield(L, t, "width");
    in->room.width = (int)wfl_check_int(L, -1, in->fname, "room.width", 1,
                                        WF_ROOM_MAX_SIDE);
    lua_getfield(L, t, "height");
    in->room.height = (int)wfl_check_int(L, -1, in->fname, "room.height", 1,
                                         WF_ROOM_MAX_SIDE);
    lua_pop(L, 2);
    if ((int64_t)in->room.width * in->room.height > WF_ROOM_MAX_TILES)
        wfl_error(L, in->fname, "room.width*room.height must be at most %lld "
                  "tiles, got %lld", (long long)WF_ROOM_MAX_TILES,
                  (long long)in->room.width * in->room.height);
    read_tiles(L, in, t);
    read_walls(L, in, t);
    read_objects(L, in, t);
}

/* -------------------------------------------------------------- query -- */

static void read_tuning(lua_State *L, input *in, int t)
{
    char buf[64];
    wf_rectplan_config *c = &in->cfg;
    int tt = lua_getfield(L, t, "tuning");
    if (tt == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (tt != LUA_TTABLE)
        wfl_error(L, in->fname, "query.tuning must be a table, got %s",
                  wfl_describe(L, -1, buf));
    int u = lua_gettop(L);
    wfl_check_keys(L, u, in->fname, "query.tuning", TUNING_KEYS);
    if (lua_getfield(L, u, "max_node_size") != LUA_TNIL)
        c->max_node_size = wfl_to_fix(wfl_check_range(L, -1, in->fname,
                                                  "query.tuning.max_node_size", 0,
                                                  COORD_LIMIT));
    if (lua_getfield(L, u, "seed") != LUA_TNIL)
        c->seed = wfl_to_fix(wfl_check_range(L, -1, in->fname, "query.tuning.seed",
                                         0, COORD_LIMIT));
    lua_Number step = 0.5, min_step = 1.0 / 1024;
    if (lua_getfield(L, u, "step") != LUA_TNIL)
        step = wfl_check_range(L, -1, in->fname, "query.tuning.step", 1.0 / 65536,
                               COORD_LIMIT);
    if (lua_getfield(L, u, "min_step") != LUA_TNIL)
        min_step = wfl_check_range(L, -1, in->fname, "query.tuning.min_step",
                                   1.0 / 65536, COORD_LIMIT);
    if (lua_getfield(L, u, "max_nodes") != LUA_TNIL)
        c->max_nodes = (int)wfl_check_int(L, -1, in->fname,
                                          "query.tuning.max_nodes", 1,
                                          WF_RECTPLAN_MAX_NODES);
    if (lua_getfield(L, u, "edge_points") != LUA_TNIL) {
        lua_Integer e = lua_tointeger(L, -1);
        if (!lua_isinteger(L, -1) || (e != 1 && e != 3)) {
            char b2[64];
            wfl_error(L, in->fname, "query.tuning.edge_points must be 1 or 3, got %s",
                      wfl_describe(L, -1, b2));
        }
        c->edge_points = (int)e;
    }
    if (lua_getfield(L, u, "escape") != LUA_TNIL)
        c->escape = wfl_to_fix(wfl_check_range(L, -1, in->fname, "query.tuning.escape",
                                           0, COORD_LIMIT));
    if (min_step > step)
        wfl_error(L, in->fname, "query.tuning.min_step (%g) must not exceed "
                  "query.tuning.step (%g)", (double)min_step, (double)step);
    c->step = wfl_to_fix(step);
    c->min_step = wfl_to_fix(min_step);
    lua_pop(L, 8);
}

static void read_terrain(lua_State *L, input *in, int t)
{
    char buf[64], arg[64];
    int tt = lua_getfield(L, t, "terrain");
    if (tt != LUA_TNIL) {
        if (tt != LUA_TTABLE)
            wfl_error(L, in->fname, "query.terrain must be a sequence of "
                      "areas, got %s", wfl_describe(L, -1, buf));
        int s = lua_gettop(L);
        size_t n = (size_t)lua_rawlen(L, s);
        if (n > MAX_OBJECTS)
            wfl_error(L, in->fname, "query.terrain holds too many areas (%lu)",
                      (unsigned long)n);
        wf_area *a = anchored_buffer(L, in, n * sizeof *a);
        for (size_t k = 0; k < n; k++) {
            snprintf(arg, sizeof arg, "query.terrain[%lu]", (unsigned long)k + 1);
            if (lua_rawgeti(L, s, (lua_Integer)k + 1) != LUA_TTABLE)
                wfl_error(L, in->fname, "%s must be a table, got %s", arg,
                          wfl_describe(L, -1, buf));
            int o = lua_gettop(L);
            wfl_check_keys(L, o, in->fname, arg, TERRAIN_KEYS);
            a[k].r = box_fields(L, in, o, arg);
            char what[80];
            snprintf(what, sizeof what, "%s.penalty", arg);
            lua_getfield(L, o, "penalty");
            a[k].penalty = penalty_arg(L, in, -1, what);
            a[k].kind = WF_AREA_TERRAIN;
            a[k].object = -1;
            lua_pop(L, 2);
        }
        in->terrain = a;
        in->nterrain = n;
    }
    lua_pop(L, 1);
}

static void read_query(lua_State *L, input *in, int q)
{
    char buf[64];
    const char *f = in->fname;
    if (!lua_istable(L, q))
        wfl_error(L, f, "query must be a table, got %s", wfl_describe(L, q, buf));
    wfl_check_keys(L, q, f, "query", QUERY_KEYS);
    wf_rectplan_config *c = &in->cfg;
    wf_rectplan_config_init(c);
    in->fixed = 0;
    if (lua_getfield(L, q, "fixed") != LUA_TNIL)
        in->fixed = wfl_check_boolean(L, -1, f, "query.fixed");
    lua_pop(L, 1);
    lua_Number sx, sy, gx, gy;
    lua_getfield(L, q, "start");
    point_arg(L, in, -1, "query.start", &sx, &sy);
    lua_getfield(L, q, "goal");
    point_arg(L, in, -1, "query.goal", &gx, &gy);
    lua_pop(L, 2);
    c->sx = wfl_to_fix(sx);
    c->sy = wfl_to_fix(sy);
    c->gx = wfl_to_fix(gx);
    c->gy = wfl_to_fix(gy);

    in->mode = "point";
    if (lua_getfield(L, q, "mode") != LUA_TNIL) {
        in->mode = wfl_check_string(L, -1, f, "query.mode");
        if (strcmp(in->mode, "point") == 0)
            c->mode = WF_RECTPLAN_DEST_POINT;
        else if (strcmp(in->mode, "near") == 0)
            c->mode = WF_RECTPLAN_DEST_NEAR;
        else
            wfl_error(L, f, "query.mode must be 'point' or 'near', got '%s'",
                      in->mode);
        in->mode = c->mode == WF_RECTPLAN_DEST_NEAR ? "near" : "point";
    }
    lua_pop(L, 1);
    in->near = 0;
    if (lua_getfield(L, q, "near") != LUA_TNIL)
        in->near = query_number(L, in, -1, "query.near", 0, COORD_LIMIT);
    lua_pop(L, 1);
    c->near = wfl_to_fix(in->near);
    in->width = 0;
    if (lua_getfield(L, q, "width") != LUA_TNIL)
        in->width = query_number(L, in, -1, "query.width", 0,
                                 (lua_Number)WF_RECTPLAN_MAX_WIDTH / 65536.0);
    lua_pop(L, 1);
    c->margin = (wf_fix)lround((double)in->width * 32768.0);
    in->has_ignore = 0;
    in->scan.ignore_people = -1;
    if (lua_getfield(L, q, "ignore_people_within") != LUA_TNIL) {
        in->ignore = query_number(L, in, -1, "query.ignore_people_within", 0,
                                  COORD_LIMIT);
        in->has_ignore = 1;
        in->scan.ignore_people = wfl_to_fix(in->ignore);
    }
    lua_pop(L, 1);
    read_tuning(L, in, q);
    read_terrain(L, in, q);

    /* the starting room: query.room, else the room of the start tile */
    int w = in->room.width, h = in->room.height;
    if (lua_getfield(L, q, "room") != LUA_TNIL) {
        in->scan.room = room_id(L, in, -1, "query.room");
    } else {
        if (!(sx >= 0 && sx < w && sy >= 0 && sy < h))
            wfl_error(L, f, "query.start must lie on the world [0, %d) x [0, %d) "
                      "(or give query.room), got (%g, %g)", w, h, (double)sx,
                      (double)sy);
        size_t i = (size_t)floor((double)sy) * (size_t)w + (size_t)floor((double)sx);
        in->scan.room = in->room.rooms[i];
    }
    lua_pop(L, 1);
    in->scan.sx = c->sx;
    in->scan.sy = c->sy;
    in->scan.gx = c->gx;
    in->scan.gy = c->gy;
    in->scan.margin = c->margin;
    in->scan.near = c->mode == WF_RECTPLAN_DEST_NEAR;

    lua_getfield(L, in->anchor, "ids");
    int ids = lua_gettop(L);
    static const char *const which[2] = {"start_object", "dest_object"};
    for (int k = 0; k < 2; k++) {
        int t = lua_getfield(L, q, which[k]);
        if (t != LUA_TNIL) {
            if (t != LUA_TNUMBER && t != LUA_TSTRING)
                wfl_error(L, f, "query.%s must be an object id, got %s", which[k],
                          wfl_describe(L, -1, buf));
            if (!mark_objects(L, in, ids, lua_gettop(L),
                              k ? WF_OBJ_DEST : WF_OBJ_START))
                wfl_error(L, f, "query.%s: no object has id %s", which[k],
                          wfl_describe(L, -1, buf));
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* The room of a prepared description (userdata at index r): its tables
 * and ids, and a copy of its objects this call may mark. */
static void use_prepared(lua_State *L, input *in, const lprepared *pr, int r)
{
    in->room = pr->room;
    lua_getiuservalue(L, r, 1);
    lua_getfield(L, -1, "intern");
    lua_setfield(L, in->anchor, "intern");
    lua_getfield(L, -1, "ids");
    lua_setfield(L, in->anchor, "ids");
    lua_pop(L, 1);
    size_t n = pr->room.nobjects;
    wf_room_object *obj = anchored_buffer(L, in, n * sizeof *obj);
    if (n)
        memcpy(obj, pr->room.objects, n * sizeof *obj);
    in->room.objects = obj;
}

/* Reads the people of a prepared description again: each one's room, and
 * its box when it stands in the starting room (elsewhere rule 3 skips it
 * whatever its box). */
static void refresh_people(lua_State *L, input *in, const lprepared *pr, int r)
{
    char buf[64], arg[64];
    wf_room_object *obj = (wf_room_object *)in->room.objects;
    lua_getiuservalue(L, r, 2);
    if (lua_getfield(L, -1, "objects") != LUA_TTABLE)
        wfl_error(L, in->fname, "room.objects must be a sequence of tables, "
                  "got %s", wfl_describe(L, -1, buf));
    int s = lua_gettop(L);
    /* the argument's name is formatted only when something is wrong or a
     * string room id needs a name: this runs for every person every call */
    for (size_t i = 0; i < pr->npeople; i++) {
        size_t k = pr->people[i];
        if (lua_rawgeti(L, s, (lua_Integer)k + 1) != LUA_TTABLE) {
            snprintf(arg, sizeof arg, "room.objects[%lu]", (unsigned long)k + 1);
            wfl_error(L, in->fname, "%s must be a table, got %s", arg,
                      wfl_describe(L, -1, buf));
        }
        int o = lua_gettop(L);
        obj[k].room = object_room(L, in, o, k);
        if (obj[k].room == in->scan.room) {
            snprintf(arg, sizeof arg, "room.objects[%lu]", (unsigned long)k + 1);
            obj[k].box = box_fields(L, in, o, arg);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
}

/* Reads room (index r: a description, or a prepared one) and query (index
 * q); pushes the anchor table. */
static void read_input(lua_State *L, input *in, const char *fname, int r, int q)
{
    memset(in, 0, sizeof *in);
    in->fname = fname;
    lua_createtable(L, 6, 3);
    in->anchor = lua_gettop(L);
    const lprepared *pr = luaL_testudata(L, r, PREPARED_MT);
    if (pr) {
        use_prepared(L, in, pr, r);
        read_query(L, in, q);
        refresh_people(L, in, pr, r);
        return;
    }
    lua_newtable(L);
    lua_setfield(L, in->anchor, "intern");
    read_room(L, in, r);
    read_query(L, in, q);
}

/* Builds the areas (scan then terrain) into an anchored buffer. */
static wf_area *build_areas(lua_State *L, input *in, size_t *n, uint8_t **skips)
{
    size_t cap = wf_room_obstacles_cap(&in->room, &in->scan) + in->nterrain;
    wf_area *areas = anchored_buffer(L, in, cap * sizeof *areas);
    *skips = anchored_buffer(L, in, in->room.nobjects + 1);
    size_t m = 0;
    wf_status st = wf_room_obstacles(&in->room, &in->scan, areas, cap, &m,
                                     &in->cfg.bounds, *skips);
    if (st == WF_ERR_NOTFOUND) {
        lua_getfield(L, 2, "room");
        char buf[64];
        wfl_error(L, in->fname, "query.room: no tile has room id %s",
                  wfl_describe(L, -1, buf));
    }
    if (st == WF_ERR_NOMEM)
        wfl_raise_status(L, in->fname, WF_ERR_NOMEM);
    if (st != WF_OK)
        wfl_error(L, in->fname, "room rejected (%s)", wf_status_name(st));
    for (size_t k = 0; k < in->nterrain; k++)
        areas[m++] = in->terrain[k];
    *n = m;
    return areas;
}

/* ------------------------------------------------------------ results -- */

static const char *kind_name(wf_area_kind k)
{
    switch (k) {
    case WF_AREA_BOUNDARY: return "boundary";
    case WF_AREA_WALL: return "wall";
    case WF_AREA_OBJECT: return "object";
    case WF_AREA_TERRAIN: return "terrain";
    case WF_AREA_PERSON: return "person";
    }
    return "unknown";
}

static const char *skip_name(int s)
{
    static const char *const names[] = {"added", "start_object", "dest_object",
                                        "other_room", "contained", "walk_over",
                                        "person_near", "person_overlap"};
    return s >= 0 && s <= WF_SKIP_OVERLAP ? names[s] : "unknown";
}

static const char *reason_name(wf_status st)
{
    switch (st) {
    case WF_START_BLOCKED: return "start_blocked";
    case WF_GOAL_BLOCKED: return "goal_blocked";
    case WF_NO_PATH: return "no_path";
    case WF_ERR_FULL: return "out_of_nodes";
    default: return wf_status_name(st);
    }
}

static void set_num(lua_State *L, const char *k, lua_Number v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static void set_int(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void push_rect(lua_State *L, const wf_rect *r)
{
    lua_createtable(L, 4, 0);
    wfl_push_fix(L, r->x0);
    lua_rawseti(L, -2, 1);
    wfl_push_fix(L, r->y0);
    lua_rawseti(L, -2, 2);
    wfl_push_fix(L, r->x1);
    lua_rawseti(L, -2, 3);
    wfl_push_fix(L, r->y1);
    lua_rawseti(L, -2, 4);
}

static void push_area(lua_State *L, const wf_area *a, int ids)
{
    push_rect(L, &a->r);
    lua_pushstring(L, kind_name(a->kind));
    lua_setfield(L, -2, "kind");
    if (a->object >= 0) {
        lua_rawgeti(L, ids, a->object + 1);
        lua_setfield(L, -2, "id");
    }
    if (a->penalty != WF_IMPASSABLE)
        set_num(L, "penalty", (lua_Number)a->penalty / WF_PENALTY_ONE);
}

static void push_points(lua_State *L, const wf_fix *x, const wf_fix *y, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 2, 0);
        wfl_push_fix(L, x[i]);
        lua_rawseti(L, -2, 1);
        wfl_push_fix(L, y[i]);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, i + 1);
    }
}

/* Pushes the obstacles (before inflation), the inflated areas and the
 * skipped objects. raw/inflated: n areas; ids at stack index ids. */
static void push_obstacles(lua_State *L, const wf_area *raw, size_t n,
                           const wf_rectplan *p, const uint8_t *skips,
                           size_t nobjects, int ids)
{
    lua_createtable(L, (int)n, 0);
    for (size_t k = 0; k < n; k++) {
        push_area(L, raw + k, ids);
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_createtable(L, (int)n, 0);
    for (size_t k = 0; k < n; k++) {
        push_area(L, wf_rectplan_area(p, k), ids);
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_newtable(L);
    int m = 0;
    for (size_t k = 0; k < nobjects; k++) {
        if (skips[k] == WF_SKIP_ADDED)
            continue;
        lua_createtable(L, 0, 2);
        lua_rawgeti(L, ids, (lua_Integer)k + 1);
        lua_setfield(L, -2, "id");
        lua_pushstring(L, skip_name(skips[k]));
        lua_setfield(L, -2, "rule");
        set_int(L, "index", (lua_Integer)k + 1);
        lua_rawseti(L, -2, ++m);
    }
}

static void push_info(lua_State *L, const wf_rectplan *p)
{
    wf_rectplan_path r;
    lua_createtable(L, 0, 10);
    set_int(L, "nodes", wf_rectplan_node_count(p));
    set_int(L, "expanded", wf_rectplan_steps(p));
    set_int(L, "vertices", wf_rectplan_vertex_count(p));
    if (wf_rectplan_result(p, &r) != WF_OK)
        return;
    set_num(L, "length", wfl_from_fix(r.length));
    set_num(L, "cost", wfl_from_fix(r.cost));
    set_int(L, "length_units", r.length);
    set_num(L, "chain_length", wfl_from_fix(r.chain_length));
    set_num(L, "ratio", r.chain_length > 0 ? (lua_Number)r.length
                                                / (lua_Number)r.chain_length
                                          : 1.0);
    lua_pushboolean(L, r.escaped);
    lua_setfield(L, -2, "escaped");
    lua_pushboolean(L, r.goal_moved);
    lua_setfield(L, -2, "goal_moved");
    lua_createtable(L, 2, 0);
    wfl_push_fix(L, r.gx);
    lua_rawseti(L, -2, 1);
    wfl_push_fix(L, r.gy);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "goal");
    push_points(L, r.cx, r.cy, r.nchain);
    lua_setfield(L, -2, "chain");
    push_points(L, r.ax, r.ay, r.nchain);
    lua_setfield(L, -2, "astar");
    lua_createtable(L, r.nchain - 1, 0);
    for (int i = 0; i + 1 < r.nchain; i++) {
        lua_pushinteger(L, r.nodes[i] + 1);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "path_nodes");
}

/* points, info | nil, reason, info; with `fixed` the points are Q16.16
 * integers {{x, y}, ...} */
static int push_result(lua_State *L, const wf_rectplan *p, int fixed,
                       const char *fname)
{
    wf_rectplan_state s = wf_rectplan_get_state(p);
    if (s == WF_RECTPLAN_RUNNING) {
        luaL_pushfail(L);
        lua_pushliteral(L, "running");
        push_info(L, p);
        return 3;
    }
    if (s == WF_RECTPLAN_FAILED) {
        wf_status st = wf_rectplan_status(p);
        if (st == WF_ERR_NOMEM)
            return wfl_raise_status(L, fname, WF_ERR_NOMEM);
        luaL_pushfail(L);
        lua_pushstring(L, reason_name(st));
        push_info(L, p);
        return 3;
    }
    wf_rectplan_path r;
    wf_rectplan_result(p, &r);
    if (fixed) {
        lua_createtable(L, r.n, 0);
        for (int i = 0; i < r.n; i++) {
            lua_createtable(L, 2, 0);
            lua_pushinteger(L, r.x[i]);
            lua_rawseti(L, -2, 1);
            lua_pushinteger(L, r.y[i]);
            lua_rawseti(L, -2, 2);
            lua_rawseti(L, -2, i + 1);
        }
    } else {
        push_points(L, r.x, r.y, r.n);
    }
    push_info(L, p);
    return 2;
}

/* ------------------------------------------------------------ planner -- */

/* self, open or closed. */
static lplanner *any_planner(lua_State *L, const char *fname)
{
    char call[96];
    snprintf(call, sizeof call, "%s(...)", fname);
    return wfl_check_self(L, PLANNER_MT, fname,
                          "a planner from wayfinder.rectplan.planner", call);
}

static lplanner *check_planner(lua_State *L, const char *fname)
{
    lplanner *u = any_planner(L, fname);
    if (!u->p || u->life.closed)
        wfl_error(L, fname, "the planner is closed");
    return u;
}

/* Reads the input, builds the planner into a new closed-first userdata
 * whose user value keeps what the inspection methods need. */
static lplanner *make_planner(lua_State *L, const char *fname)
{
    input in;
    lua_settop(L, 2);
    read_input(L, &in, fname, 1, 2);                 /* anchor at 3 */
    size_t n;
    uint8_t *skips;
    wf_area *areas = build_areas(L, &in, &n, &skips);
    in.cfg.areas = areas;
    in.cfg.nareas = n;
    lplanner *u = lua_newuserdatauv(L, sizeof *u, 1);   /* at 4 */
    wfl_life_init(&u->life, planner_release);
    u->p = NULL;
    u->fixed = in.fixed;
    luaL_setmetatable(L, PLANNER_MT);
    /* user value: the anchor plus what obstacles() and tuning() report */
    lua_pushvalue(L, in.anchor);
    set_int(L, "nobjects", (lua_Integer)in.room.nobjects);
    lua_pushlightuserdata(L, areas);
    lua_setfield(L, -2, "areas_ptr");
    lua_pushlightuserdata(L, skips);
    lua_setfield(L, -2, "skips_ptr");
    wf_rect *bounds = lua_newuserdatauv(L, sizeof *bounds, 0);
    *bounds = in.cfg.bounds;
    lua_setfield(L, -2, "bounds");
    lua_createtable(L, 0, 8);
    set_num(L, "max_node_size", wfl_from_fix(in.cfg.max_node_size));
    set_num(L, "seed", wfl_from_fix(in.cfg.seed));
    set_num(L, "step", wfl_from_fix(in.cfg.step));
    set_num(L, "min_step", wfl_from_fix(in.cfg.min_step));
    set_num(L, "escape", wfl_from_fix(in.cfg.escape));
    wf_status st = wf_rectplan_create(&u->p, &in.cfg);
    if (st == WF_ERR_NOMEM)
        wfl_raise_status(L, fname, WF_ERR_NOMEM);
    if (st != WF_OK)
        wfl_error(L, fname, "planner rejected its input (%s)",
                  wf_status_name(st));
    set_int(L, "max_nodes", wf_rectplan_max_nodes(u->p));
    set_int(L, "edge_points", in.cfg.edge_points);
    lua_setfield(L, -2, "tuning");
    lua_setiuservalue(L, -2, 1);
    return u;
}

static int l_rectplan_planner(lua_State *L)
{
    make_planner(L, "wayfinder.rectplan.planner");
    return 1;
}

static int l_rectplan_plan(lua_State *L)
{
    const char *fname = "wayfinder.rectplan.plan";
    lplanner *u = make_planner(L, fname);
    wf_rectplan_run(u->p);
    int n = push_result(L, u->p, u->fixed, fname);
    wf_rectplan_destroy(u->p);
    u->p = NULL;
    return n;
}

static int l_rectplan_obstacles(lua_State *L)
{
    const char *fname = "wayfinder.rectplan.obstacles";
    input in;
    lua_settop(L, 2);
    read_input(L, &in, fname, 1, 2);
    size_t n;
    uint8_t *skips;
    wf_area *areas = build_areas(L, &in, &n, &skips);
    lua_getfield(L, in.anchor, "ids");
    int ids = lua_gettop(L);
    lua_createtable(L, (int)n, 0);
    for (size_t k = 0; k < n; k++) {
        push_area(L, areas + k, ids);
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_createtable(L, (int)n, 0);
    for (size_t k = 0; k < n; k++) {
        wf_area a = wf_area_inflate(areas[k], in.cfg.margin);
        push_area(L, &a, ids);
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_newtable(L);
    int m = 0;
    for (size_t k = 0; k < in.room.nobjects; k++) {
        if (skips[k] == WF_SKIP_ADDED)
            continue;
        lua_createtable(L, 0, 3);
        lua_rawgeti(L, ids, (lua_Integer)k + 1);
        lua_setfield(L, -2, "id");
        lua_pushstring(L, skip_name(skips[k]));
        lua_setfield(L, -2, "rule");
        set_int(L, "index", (lua_Integer)k + 1);
        lua_rawseti(L, -2, ++m);
    }
    push_rect(L, &in.cfg.bounds);
    return 4;
}

static int l_advance(lua_State *L)
{
    lplanner *u = check_planner(L, "planner:advance");
    wf_rectplan_state s = wf_rectplan_advance(u->p);
    if (s == WF_RECTPLAN_FAILED && wf_rectplan_status(u->p) == WF_ERR_NOMEM)
        return wfl_raise_status(L, "planner:advance", WF_ERR_NOMEM);
    lua_pushstring(L, s == WF_RECTPLAN_RUNNING ? "running"
                      : s == WF_RECTPLAN_DONE ? "done" : "failed");
    return 1;
}

static int l_run(lua_State *L)
{
    lplanner *u = check_planner(L, "planner:run");
    wf_rectplan_run(u->p);
    return push_result(L, u->p, u->fixed, "planner:run");
}

static int l_result(lua_State *L)
{
    lplanner *u = check_planner(L, "planner:result");
    return push_result(L, u->p, u->fixed, "planner:result");
}

static const char *state_name(wf_rectplan_state s)
{
    return s == WF_RECTPLAN_RUNNING ? "running" : s == WF_RECTPLAN_DONE ? "done"
                                                                   : "failed";
}

static int l_state(lua_State *L)
{
    lplanner *u = check_planner(L, "planner:state");
    const wf_rectplan *p = u->p;
    wf_rectplan_state s = wf_rectplan_get_state(p);
    lua_createtable(L, 0, 10);
    lua_pushstring(L, state_name(s));
    lua_setfield(L, -2, "status");
    if (s == WF_RECTPLAN_FAILED) {
        lua_pushstring(L, reason_name(wf_rectplan_status(p)));
        lua_setfield(L, -2, "reason");
    }
    set_int(L, "step", wf_rectplan_steps(p));
    if (wf_rectplan_current(p) >= 0)
        set_int(L, "current", wf_rectplan_current(p) + 1);
    int nn = wf_rectplan_node_count(p);
    lua_createtable(L, nn, 0);
    for (int i = 0; i < nn; i++) {
        wf_rectplan_node_info ni;
        wf_rectplan_node(p, i, &ni);
        push_rect(L, &ni.r);
        if (ni.penalty)
            set_num(L, "penalty", (lua_Number)ni.penalty / WF_PENALTY_ONE);
        set_int(L, "created", ni.created);
        if (ni.expanded >= 0)
            set_int(L, "expanded", ni.expanded);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "nodes");
    int nv = wf_rectplan_vertex_count(p);
    lua_createtable(L, nv, 0);
    for (int i = 0; i < nv; i++) {
        wf_rectplan_vertex_info vi;
        wf_rectplan_vertex(p, i, &vi);
        lua_createtable(L, 2, 10);
        wfl_push_fix(L, vi.x);
        lua_rawseti(L, -2, 1);
        wfl_push_fix(L, vi.y);
        lua_rawseti(L, -2, 2);
        lua_pushstring(L, i == 0 ? "start" : i == 1 ? "goal"
                          : vi.edge_end ? "end" : "edge");
        lua_setfield(L, -2, "kind");
        if (vi.node_a >= 0) {
            lua_createtable(L, 2, 0);
            lua_pushinteger(L, vi.node_a + 1);
            lua_rawseti(L, -2, 1);
            if (vi.node_b >= 0) {
                lua_pushinteger(L, vi.node_b + 1);
                lua_rawseti(L, -2, 2);
            }
            lua_setfield(L, -2, "nodes");
        }
        if (vi.opened >= 0) {
            set_num(L, "g", wfl_from_fix(vi.g));
            set_num(L, "h", wfl_from_fix(vi.h));
            set_int(L, "g_units", vi.g);
            set_int(L, "h_units", vi.h);
            set_int(L, "opened", vi.opened);
            if (vi.parent >= 0) {
                set_int(L, "parent", vi.parent + 1);
                set_int(L, "via", vi.via + 1);
            }
        }
        if (vi.closed >= 0)
            set_int(L, "closed", vi.closed);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "vertices");
    int no = wf_rectplan_open(p, NULL, 0);
    int *open = lua_newuserdatauv(L, (size_t)(no ? no : 1) * sizeof *open, 0);
    no = wf_rectplan_open(p, open, no);
    lua_createtable(L, no, 0);
    for (int i = 0; i < no; i++) {
        lua_pushinteger(L, open[i] + 1);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -3, "open");
    lua_pop(L, 1);
    /* the best route so far: the parents of the last popped point */
    int cur = wf_rectplan_current(p), len = 0;
    for (int v = cur; v >= 0; len++) {
        wf_rectplan_vertex_info vi;
        wf_rectplan_vertex(p, v, &vi);
        v = vi.parent;
    }
    lua_createtable(L, len, 0);
    lua_createtable(L, len, 0);
    for (int v = cur, i = len; v >= 0; i--) {
        wf_rectplan_vertex_info vi;
        wf_rectplan_vertex(p, v, &vi);
        lua_pushinteger(L, v + 1);
        lua_rawseti(L, -3, i);
        lua_createtable(L, 2, 0);
        wfl_push_fix(L, vi.x);
        lua_rawseti(L, -2, 1);
        wfl_push_fix(L, vi.y);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, i);
        v = vi.parent;
    }
    lua_setfield(L, -3, "best");
    lua_setfield(L, -2, "best_vertices");
    int ns = wf_rectplan_stage_count(p);
    wf_rectplan_path r;
    if (wf_rectplan_result(p, &r) == WF_OK) {
        lua_createtable(L, ns, 0);
        for (int k = 0; k < ns; k++) {
            wf_fix step;
            const wf_fix *x, *y;
            wf_rectplan_stage(p, k, &step, &x, &y);
            lua_createtable(L, 0, 2);
            set_num(L, "step", wfl_from_fix(step));
            push_points(L, x, y, r.nchain);
            lua_setfield(L, -2, "points");
            lua_rawseti(L, -2, k + 1);
        }
        lua_setfield(L, -2, "stages");
    }
    return 1;
}

static int l_obstacles(lua_State *L)
{
    lplanner *u = check_planner(L, "planner:obstacles");
    lua_getiuservalue(L, 1, 1);
    int uv = lua_gettop(L);
    lua_getfield(L, uv, "ids");
    int ids = lua_gettop(L);
    size_t n = wf_rectplan_area_count(u->p);
    lua_getfield(L, uv, "nobjects");
    size_t no = (size_t)lua_tointeger(L, -1);
    lua_getfield(L, uv, "areas_ptr");
    const wf_area *raw = lua_touserdata(L, -1);
    lua_getfield(L, uv, "skips_ptr");
    const uint8_t *skips = lua_touserdata(L, -1);
    lua_pop(L, 3);
    push_obstacles(L, raw, n, u->p, skips, no, ids);
    lua_getfield(L, uv, "bounds");
    push_rect(L, lua_touserdata(L, -1));
    lua_remove(L, -2);
    return 4;
}

static int l_tuning(lua_State *L)
{
    check_planner(L, "planner:tuning");
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, "tuning");
    /* a copy, so callers cannot change what the planner reports */
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
    return 1;
}

/* close, __close and __gc: one idempotent function. */
static int l_close(lua_State *L)
{
    lplanner *u = any_planner(L, "planner:close");
    wfl_life_close(&u->life);
    return 0;
}

static int l_is_closed(lua_State *L)
{
    lplanner *u = any_planner(L, "planner:is_closed");
    lua_pushboolean(L, u->p == NULL || u->life.closed);
    return 1;
}

static int l_tostring(lua_State *L)
{
    lplanner *u = any_planner(L, "planner:__tostring");
    if (!u->p || u->life.closed)
        lua_pushstring(L, PLANNER_MT " (closed)");
    else
        lua_pushfstring(L, PLANNER_MT " (%s, step %d, %d nodes)",
                        state_name(wf_rectplan_get_state(u->p)),
                        wf_rectplan_steps(u->p), wf_rectplan_node_count(u->p));
    return 1;
}

/* ----------------------------------------------------------- prepared -- */

static int l_rectplan_prepare(lua_State *L)
{
    input in;
    memset(&in, 0, sizeof in);
    in.fname = "wayfinder.rectplan.prepare";
    lua_settop(L, 1);
    lua_createtable(L, 6, 3);                      /* the anchor, at 2 */
    in.anchor = 2;
    lua_newtable(L);
    lua_setfield(L, in.anchor, "intern");
    read_room(L, &in, 1);
    size_t np = 0;
    for (size_t k = 0; k < in.room.nobjects; k++)
        np += (in.room.objects[k].flags & WF_OBJ_PERSON) != 0;
    size_t *people = anchored_buffer(L, &in, np * sizeof *people);
    np = 0;
    for (size_t k = 0; k < in.room.nobjects; k++)
        if (in.room.objects[k].flags & WF_OBJ_PERSON)
            people[np++] = k;
    lprepared *pr = lua_newuserdatauv(L, sizeof *pr, 2);
    pr->room = in.room;
    pr->people = people;
    pr->npeople = np;
    luaL_setmetatable(L, PREPARED_MT);
    lua_pushvalue(L, in.anchor);
    lua_setiuservalue(L, -2, 1);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 2);
    return 1;
}

/* A prepared room owns nothing but garbage-collected buffers. */
static int l_prepared_close(lua_State *L)
{
    (void)L;
    return 0;
}

static int l_prepared_tostring(lua_State *L)
{
    char buf[64];
    const lprepared *pr = luaL_testudata(L, 1, PREPARED_MT);
    if (!pr)
        return wfl_error(L, "prepared:__tostring", "self must be a prepared "
                         "room, got %s", wfl_describe(L, 1, buf));
    lua_pushfstring(L, PREPARED_MT " (%dx%d tiles, %d objects, %d people)",
                    pr->room.width, pr->room.height, (int)pr->room.nobjects,
                    (int)pr->npeople);
    return 1;
}

static const luaL_Reg no_methods[] = {{NULL, NULL}};

static const luaL_Reg planner_methods[] = {
    {"advance", l_advance},
    {"run", l_run},
    {"result", l_result},
    {"state", l_state},
    {"obstacles", l_obstacles},
    {"tuning", l_tuning},
    {"close", l_close},
    {"is_closed", l_is_closed},
    {NULL, NULL}
};

static const luaL_Reg room_functions[] = {
    {"rectplan_obstacles", l_rectplan_obstacles},
    {"rectplan_plan", l_rectplan_plan},
    {"rectplan_planner", l_rectplan_planner},
    {"rectplan_prepare", l_rectplan_prepare},
    {NULL, NULL}
};

void wfl_register_rectplan(lua_State *L)
{
    wfl_new_type(L, PREPARED_MT, no_methods, l_prepared_close, l_prepared_tostring);
    lua_pop(L, 1);
    wfl_new_life_type(L, PLANNER_MT, planner_methods, l_close, l_tostring);
    /* the method table, so wayfinder.rectplan can add the route file methods */
    lua_getfield(L, -1, "__index");
    lua_setfield(L, -3, "rectplan_methods");
    lua_pop(L, 1);
    wfl_setfuncs(L, room_functions);
}
