/* lgrid.c - the "wayfinder.Grid" userdata: grid construction, terrain,
 * obstructions, find_path and the region queries. The path outcome and
 * option helpers it shares with the queue are in lcheck.c;
 * luaopen_wayfinder_core is in lcore.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcheck.h"

#define GRID_MT "wayfinder.Grid"

typedef struct lgrid {
    wfl_life life;       /* first: see lcheck.h */
    wf_grid *g;          /* NULL once released */
    wf_search *s;        /* created on the first find_path */
    int in_batch;
    wf_hier *h;          /* region labels, created on the first use */
    int chunk;           /* their chunk size */
} lgrid;

static lgrid *check_grid(lua_State *L, const char *fname)
{
    lgrid *u = wfl_check_self(L, GRID_MT, fname, "a wayfinder.Grid",
                              "grid:method(...)");
    if (!u->g || u->life.closed)
        wfl_error(L, fname, "the grid is closed");
    return u;
}

/* After an edit: lets the region labels keep up with the grid's change log
 * (a failure only marks them stale; the next query relabels). */
static void note_edit(lgrid *u)
{
    if (u->h)
        (void)wf_hier_note(u->h, u->g);
}

/* The region labels of u, created on first use and synced. */
static wf_hier *grid_hier(lua_State *L, lgrid *u, const char *fname)
{
    wf_status st = WF_OK;
    if (!u->h)
        st = wf_hier_create(&u->h, u->g, u->chunk);
    else
        st = wf_hier_sync(u->h, u->g);
    if (st != WF_OK)
        wfl_raise_status(L, fname, st);
    return u->h;
}

/* --------------------------------------------------------- options -- */

static const char *const GRID_KEYS[] = {"classes", "border", "border_shape",
                                        NULL};
static const char *const CLASS_KEYS[] = {"name", "clearance", "max_slope",
                                         "min_water_depth", "max_water_depth",
                                         "clearance_shape", NULL};

/* largest max_slope, min_water_depth and max_water_depth a class takes */
#define TERRAIN_LIMIT 32767.0

/* The terrain limits and clearance shape of the class table at c. */
static void read_class_terrain(lua_State *L, int c, const char *fname,
                               const char *arg, wf_class_def *def)
{
    static const char *const keys[] = {"max_slope", "min_water_depth",
                                       "max_water_depth"};
    static const unsigned bits[] = {WF_LIMIT_SLOPE, WF_LIMIT_MIN_DEPTH,
                                    WF_LIMIT_MAX_DEPTH};
    wf_fix *fields[] = {&def->max_slope, &def->min_depth, &def->max_depth};
    char sub[112];
    for (int i = 0; i < 3; i++) {
        snprintf(sub, sizeof sub, "%s.%s", arg, keys[i]);
        if (wfl_field(L, c, keys[i]) != LUA_TNIL) {
            *fields[i] = wfl_check_fix(L, -1, fname, sub, 0, TERRAIN_LIMIT);
            def->limits |= bits[i];
        }
        lua_pop(L, 1);
    }
    if ((def->limits & WF_LIMIT_MIN_DEPTH) && (def->limits & WF_LIMIT_MAX_DEPTH)
        && def->min_depth > def->max_depth)
        wfl_error(L, fname, "%s.min_water_depth must not exceed "
                  "max_water_depth, got %g > %g", arg,
                  (double)wfl_from_fix(def->min_depth),
                  (double)wfl_from_fix(def->max_depth));
    snprintf(sub, sizeof sub, "%s.clearance_shape", arg);
    if (wfl_field(L, c, "clearance_shape") != LUA_TNIL) {
        const char *shape = wfl_check_string(L, -1, fname, sub);
        if (strcmp(shape, "square") == 0)
            def->clearance_shape = WF_CLEARANCE_SQUARE;
        else if (strcmp(shape, "circle") == 0)
            def->clearance_shape = WF_CLEARANCE_CIRCLE;
        else
            wfl_error(L, fname, "%s must be 'square' or 'circle', got '%s'",
                      sub, shape);
    }
    lua_pop(L, 1);
}

/* Reads grid options at idx (a table or nil) into cfg. */
static void read_grid_options(lua_State *L, int idx, const char *fname,
                              wf_grid_config *cfg)
{
    if (!wfl_opt_table(L, idx, fname, "options"))
        return;
    wfl_check_keys(L, idx, fname, "options", GRID_KEYS);
    if (wfl_field(L, idx, "classes") != LUA_TNIL) {
        char buf[64];
        if (!lua_istable(L, -1))
            wfl_error(L, fname, "options.classes must be a sequence of "
                      "{name =, clearance =} tables, got %s",
                      wfl_describe(L, -1, buf));
        int t = lua_gettop(L);
        lua_Integer n = luaL_len(L, t);
        if (n < 1 || n > WF_MAX_CLASSES)
            wfl_error(L, fname, "options.classes must hold 1 to %d classes, "
                      "got %lld", WF_MAX_CLASSES, (long long)n);
        cfg->nclasses = (int)n;
        for (int k = 0; k < (int)n; k++) {
            char arg[64];
            lua_rawgeti(L, t, k + 1);
            snprintf(arg, sizeof arg, "options.classes[%d]", k + 1);
            if (!lua_istable(L, -1))
                wfl_error(L, fname, "%s must be a table, got %s", arg,
                          wfl_describe(L, -1, buf));
            int c = lua_gettop(L);
            wfl_check_keys(L, c, fname, arg, CLASS_KEYS);
            char sub[96];
            lua_getfield(L, c, "name");
            snprintf(sub, sizeof sub, "%s.name", arg);
            size_t len;
            wfl_check_string(L, -1, fname, sub);
            const char *name = lua_tolstring(L, -1, &len);
            if (len == 0 || len >= WF_NAME_MAX)
                wfl_error(L, fname, "%s must be 1 to %d characters, got '%s'",
                          sub, WF_NAME_MAX - 1, name);
            if (strlen(name) != len)
                wfl_error(L, fname, "%s must not contain a NUL byte", sub);
            for (int m = 0; m < k; m++)
                if (strcmp(cfg->classes[m].name, name) == 0)
                    wfl_error(L, fname, "%s '%s' is a duplicate class name",
                              sub, name);
            memset(&cfg->classes[k], 0, sizeof cfg->classes[k]);
            memcpy(cfg->classes[k].name, name, len);
            lua_pop(L, 1);
            snprintf(sub, sizeof sub, "%s.clearance", arg);
            if (lua_getfield(L, c, "clearance") == LUA_TNIL)
                cfg->classes[k].clearance = 0;
            else
                cfg->classes[k].clearance = (int)wfl_check_int(
                    L, -1, fname, sub, 0, WF_MAX_CLEARANCE);
            lua_pop(L, 1);
            read_class_terrain(L, c, fname, arg, &cfg->classes[k]);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    if (wfl_field(L, idx, "border") != LUA_TNIL)
        cfg->border = (int)wfl_check_int(L, -1, fname, "options.border", 0,
                                         WF_MAX_SIDE);
    lua_pop(L, 1);
    if (wfl_field(L, idx, "border_shape") != LUA_TNIL) {
        const char *s = wfl_check_string(L, -1, fname, "options.border_shape");
        if (strcmp(s, "square") == 0)
            cfg->border_shape = WF_BORDER_SQUARE;
        else if (strcmp(s, "circle") == 0)
            cfg->border_shape = WF_BORDER_CIRCLE;
        else
            wfl_error(L, fname, "options.border_shape must be 'square' or "
                      "'circle', got '%s'", s);
    }
    lua_pop(L, 1);
}

static void grid_release(void *obj)
{
    lgrid *u = obj;
    wf_search_destroy(u->s);
    u->s = NULL;
    wf_hier_destroy(u->h);
    u->h = NULL;
    wf_grid_destroy(u->g);
    u->g = NULL;
}

/* A closed userdata first, so an error halfway leaves a safe object. */
static lgrid *push_closed_grid(lua_State *L)
{
    lgrid *u = lua_newuserdatauv(L, sizeof *u, 0);
    wfl_life_init(&u->life, grid_release);
    u->g = NULL;
    u->s = NULL;
    u->in_batch = 0;
    u->h = NULL;
    u->chunk = WF_HIER_CHUNK_DEFAULT;
    luaL_setmetatable(L, GRID_MT);
    return u;
}

static int l_grid_new(lua_State *L)
{
    const char *fname = "wayfinder.grid.new";
    lua_Integer w = wfl_check_int(L, 1, fname, "width", 1, WF_MAX_SIDE);
    lua_Integer h = wfl_check_int(L, 2, fname, "height", 1, WF_MAX_SIDE);
    if ((int64_t)w * h > WF_MAX_CELLS)
        wfl_error(L, fname, "width*height must be at most %lld navcells, "
                  "got %lld", (long long)WF_MAX_CELLS, (long long)(w * h));
    wf_grid_config cfg;
    wf_grid_config_init(&cfg, (int)w, (int)h);
    read_grid_options(L, 3, fname, &cfg);
    lgrid *u = push_closed_grid(L);
    wf_status st = wf_grid_create(&u->g, &cfg);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 1;
}

static int load_text(lua_State *L, const char *fname, const char *text,
                     size_t len, int optidx, int movingai, const char *source)
{
    wf_grid_config cfg;
    wf_grid_config_init(&cfg, 1, 1);
    read_grid_options(L, optidx, fname, &cfg);
    lgrid *u = push_closed_grid(L);
    wf_parse_error err;
    wf_status st = movingai ? wf_grid_from_movingai(&u->g, text, len, &cfg, &err)
                            : wf_grid_from_ascii(&u->g, text, len, &cfg, &err);
    if (st == WF_ERR_PARSE)
        return wfl_error(L, fname, "%s:%d: %s", source, err.line, err.message);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 1;
}

static int l_grid_from_ascii(lua_State *L)
{
    const char *fname = "wayfinder.grid.from_ascii";
    wfl_check_string(L, 1, fname, "text");
    size_t len;
    const char *text = lua_tolstring(L, 1, &len);
    return load_text(L, fname, text, len, 2, 0, "text");
}

static int l_grid_load_movingai(lua_State *L)
{
    const char *fname = "wayfinder.grid.load_movingai";
    const char *path = wfl_check_string(L, 1, fname, "path");
    if (strlen(path) != lua_rawlen(L, 1))
        wfl_error(L, fname, "path must not contain a NUL byte");
    wf_grid_config probe;   /* options are checked before the file is read */
    wf_grid_config_init(&probe, 1, 1);
    read_grid_options(L, 2, fname, &probe);
    lua_settop(L, 2);   /* the read buffer must not land on index 2 */
    FILE *f = fopen(path, "rb");
    if (!f) {
        luaL_pushfail(L);
        lua_pushfstring(L, "cannot open '%s'", path);
        return 2;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    size_t n;
    do {
        char *p = luaL_prepbuffsize(&b, WFL_READ_CHUNK);
        n = fread(p, 1, WFL_READ_CHUNK, f);
        luaL_addsize(&b, n);
    } while (n == WFL_READ_CHUNK);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        luaL_pushfail(L);
        lua_pushfstring(L, "cannot read '%s'", path);
        return 2;
    }
    luaL_pushresult(&b);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    return load_text(L, fname, text, len, 2, 1, path);
}

/* --------------------------------------------------------- methods -- */

static int class_arg(lua_State *L, lgrid *u, int idx, const char *fname,
                     int dflt)
{
    if (lua_isnoneornil(L, idx))
        return dflt;
    const char *name = wfl_check_name(L, idx, fname, "class");
    int k = name ? wf_grid_class_index(u->g, name) : -1;
    name = lua_tostring(L, idx);
    if (k < 0)
        wfl_error(L, fname, "class must name a class of this grid, got '%s'",
                  name);
    return k;
}

static void xy_args(lua_State *L, lgrid *u, int idx, const char *fname,
                    int *x, int *y)
{
    *x = (int)wfl_check_int(L, idx, fname, "x", 0, wf_grid_width(u->g) - 1);
    *y = (int)wfl_check_int(L, idx + 1, fname, "y", 0, wf_grid_height(u->g) - 1);
}

static int l_width(lua_State *L)
{
    lua_pushinteger(L, wf_grid_width(check_grid(L, "grid:width")->g));
    return 1;
}

static int l_height(lua_State *L)
{
    lua_pushinteger(L, wf_grid_height(check_grid(L, "grid:height")->g));
    return 1;
}

static int l_classes(lua_State *L)
{
    lgrid *u = check_grid(L, "grid:classes");
    int n = wf_grid_class_count(u->g);
    lua_createtable(L, n, 0);
    for (int k = 0; k < n; k++) {
        lua_createtable(L, 0, 2);
        lua_pushstring(L, wf_grid_class_name(u->g, k));
        lua_setfield(L, -2, "name");
        lua_pushinteger(L, wf_grid_class_clearance(u->g, k));
        lua_setfield(L, -2, "clearance");
        /* the terrain keys only when set, so plain classes read as before */
        const wf_class_def *d = wf_grid_class_def(u->g, k);
        if (d->limits & WF_LIMIT_SLOPE) {
            wfl_push_fix(L, d->max_slope);
            lua_setfield(L, -2, "max_slope");
        }
        if (d->limits & WF_LIMIT_MIN_DEPTH) {
            wfl_push_fix(L, d->min_depth);
            lua_setfield(L, -2, "min_water_depth");
        }
        if (d->limits & WF_LIMIT_MAX_DEPTH) {
            wfl_push_fix(L, d->max_depth);
            lua_setfield(L, -2, "max_water_depth");
        }
        if (d->clearance_shape == WF_CLEARANCE_CIRCLE) {
            lua_pushliteral(L, "circle");
            lua_setfield(L, -2, "clearance_shape");
        }
        lua_rawseti(L, -2, k + 1);
    }
    return 1;
}

static int l_border(lua_State *L)
{
    lgrid *u = check_grid(L, "grid:border");
    lua_pushinteger(L, wf_grid_border(u->g));
    lua_pushstring(L, wf_grid_border_shape(u->g) == WF_BORDER_CIRCLE ? "circle"
                                                                     : "square");
    return 2;
}

static int l_set_passable(lua_State *L)
{
    const char *fname = "grid:set_passable";
    lgrid *u = check_grid(L, fname);
    int x, y;
    xy_args(L, u, 2, fname, &x, &y);
    int p = wfl_check_boolean(L, 4, fname, "passable");
    int k = class_arg(L, u, 5, fname, -1);
    wf_status st = wf_grid_set_passable(u->g, x, y, k, p);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    note_edit(u);
    return 0;
}

static int l_is_passable(lua_State *L)
{
    const char *fname = "grid:is_passable";
    lgrid *u = check_grid(L, fname);
    int x, y;
    xy_args(L, u, 2, fname, &x, &y);
    int k = class_arg(L, u, 4, fname, 0);
    lua_pushboolean(L, wf_grid_is_passable(u->g, x, y, k));
    return 1;
}

static int l_terrain_passable(lua_State *L)
{
    const char *fname = "grid:terrain_passable";
    lgrid *u = check_grid(L, fname);
    int x, y;
    xy_args(L, u, 2, fname, &x, &y);
    int k = class_arg(L, u, 4, fname, 0);
    lua_pushboolean(L, wf_grid_terrain_passable(u->g, x, y, k));
    return 1;
}

static int l_set_cost(lua_State *L)
{
    const char *fname = "grid:set_cost";
    lgrid *u = check_grid(L, fname);
    int x, y;
    xy_args(L, u, 2, fname, &x, &y);
    int c = (int)wfl_check_int(L, 4, fname, "cost", 1, WF_MAX_COST);
    wf_status st = wf_grid_set_cost(u->g, x, y, c);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

static int l_cost(lua_State *L)
{
    const char *fname = "grid:cost";
    lgrid *u = check_grid(L, fname);
    int x, y;
    xy_args(L, u, 2, fname, &x, &y);
    lua_pushinteger(L, wf_grid_cost(u->g, x, y));
    return 1;
}

/* ------------------------------------------------------- heightmap -- */

static const char *const HEIGHTMAP_KEYS[] = {"tile", "width", "height",
                                             "heights", "water", NULL};

static int l_set_heightmap(lua_State *L)
{
    const char *fname = "grid:set_heightmap";
    lgrid *u = check_grid(L, fname);
    char buf[64];
    if (lua_isnoneornil(L, 2)) {
        wf_status st = wf_grid_set_heightmap(u->g, 0, 0, 0, NULL, 0);
        if (st != WF_OK)
            return wfl_raise_status(L, fname, st);
        note_edit(u);
        return 0;
    }
    if (!lua_istable(L, 2))
        wfl_error(L, fname, "map must be a table {tile =, width =, height =, "
                  "heights =, water =} or nil, got %s", wfl_describe(L, 2, buf));
    wfl_check_keys(L, 2, fname, "map", HEIGHTMAP_KEYS);
    int gw = wf_grid_width(u->g), gh = wf_grid_height(u->g);
    int tile = 4;
    if (wfl_field(L, 2, "tile") != LUA_TNIL)
        tile = (int)wfl_check_int(L, -1, fname, "map.tile", 1, WF_MAX_TILE);
    lua_pop(L, 1);
    int tw = (gw + tile - 1) / tile, th = (gh + tile - 1) / tile;
    wfl_field(L, 2, "width");
    lua_Integer w = wfl_check_int(L, -1, fname, "map.width", 1, WF_MAX_SIDE);
    if (w != tw)
        wfl_error(L, fname, "map.width must be %d tiles (ceil(%d / %d)), got "
                  "%lld", tw, gw, tile, (long long)w);
    lua_pop(L, 1);
    wfl_field(L, 2, "height");
    lua_Integer h = wfl_check_int(L, -1, fname, "map.height", 1, WF_MAX_SIDE);
    if (h != th)
        wfl_error(L, fname, "map.height must be %d tiles (ceil(%d / %d)), got "
                  "%lld", th, gh, tile, (long long)h);
    lua_pop(L, 1);
    wf_fix water = 0;
    if (wfl_field(L, 2, "water") != LUA_TNIL)
        water = wfl_check_fix(L, -1, fname, "map.water", -WF_MAX_HEIGHT,
                              WF_MAX_HEIGHT);
    lua_pop(L, 1);
    if (wfl_field(L, 2, "heights") != LUA_TTABLE)
        wfl_error(L, fname, "map.heights must be a sequence of (width + 1) * "
                  "(height + 1) numbers, got %s", wfl_describe(L, -1, buf));
    int t = lua_gettop(L);
    size_t n = (size_t)(tw + 1) * (size_t)(th + 1);
    lua_Integer len = (lua_Integer)lua_rawlen(L, t);
    if (len != (lua_Integer)n)
        wfl_error(L, fname, "map.heights must hold (%d + 1) * (%d + 1) = %lld "
                  "numbers, got %lld", tw, th, (long long)n, (long long)len);
    /* a userdata buffer: an error while reading leaks nothing */
    wf_fix *hs = lua_newuserdatauv(L, n * sizeof(wf_fix), 0);
    for (size_t i = 0; i < n; i++) {
        char arg[48];
        snprintf(arg, sizeof arg, "map.heights[%lu]", (unsigned long)i + 1);
        lua_rawgeti(L, t, (lua_Integer)i + 1);
        hs[i] = wfl_check_fix(L, -1, fname, arg, -WF_MAX_HEIGHT, WF_MAX_HEIGHT);
        lua_pop(L, 1);
    }
    wf_status st = wf_grid_set_heightmap(u->g, tile, tw, th, hs, water);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    note_edit(u);
    return 0;
}

static void need_heightmap(lua_State *L, lgrid *u, const char *fname, int *tw,
                           int *th)
{
    int tile;
    wf_fix water;
    if (!wf_grid_heightmap(u->g, &tile, tw, th, &water))
        wfl_error(L, fname, "the grid has no heightmap (call "
                  "grid:set_heightmap first)");
}

static int l_set_height(lua_State *L)
{
    const char *fname = "grid:set_height";
    lgrid *u = check_grid(L, fname);
    int tw, th;
    need_heightmap(L, u, fname, &tw, &th);
    int cx = (int)wfl_check_int(L, 2, fname, "tx", 0, tw);
    int cy = (int)wfl_check_int(L, 3, fname, "ty", 0, th);
    wf_fix v = wfl_check_fix(L, 4, fname, "height", -WF_MAX_HEIGHT,
                             WF_MAX_HEIGHT);
    wf_status st = wf_grid_set_height(u->g, cx, cy, v);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    note_edit(u);
    return 0;
}

static int l_set_water(lua_State *L)
{
    const char *fname = "grid:set_water";
    lgrid *u = check_grid(L, fname);
    int tw, th;
    need_heightmap(L, u, fname, &tw, &th);
    wf_fix v = wfl_check_fix(L, 2, fname, "level", -WF_MAX_HEIGHT,
                             WF_MAX_HEIGHT);
    wf_status st = wf_grid_set_water(u->g, v);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    note_edit(u);
    return 0;
}

static int l_heightmap(lua_State *L)
{
    lgrid *u = check_grid(L, "grid:heightmap");
    int tile, tw, th;
    wf_fix water;
    if (!wf_grid_heightmap(u->g, &tile, &tw, &th, &water)) {
        luaL_pushfail(L);
        lua_pushliteral(L, "no_heightmap");
        return 2;
    }
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, tile);
    lua_setfield(L, -2, "tile");
    lua_pushinteger(L, tw);
    lua_setfield(L, -2, "width");
    lua_pushinteger(L, th);
    lua_setfield(L, -2, "height");
    wfl_push_fix(L, water);
    lua_setfield(L, -2, "water");
    lua_createtable(L, (tw + 1) * (th + 1), 0);
    lua_Integer i = 1;
    for (int y = 0; y <= th; y++)
        for (int x = 0; x <= tw; x++) {
            wfl_push_fix(L, wf_grid_corner_height(u->g, x, y));
            lua_rawseti(L, -2, i++);
        }
    lua_setfield(L, -2, "heights");
    return 1;
}

static int l_terrain(lua_State *L)
{
    const char *fname = "grid:terrain";
    lgrid *u = check_grid(L, fname);
    int x, y;
    xy_args(L, u, 2, fname, &x, &y);
    int64_t h, s, d;
    wf_grid_terrain_at(u->g, x, y, &h, &s, &d);
    wfl_push_fix(L, h);
    wfl_push_fix(L, s);
    wfl_push_fix(L, d);
    return 3;
}

static int l_uniform_cost(lua_State *L)
{
    lua_pushboolean(L, wf_grid_uniform_cost(check_grid(L, "grid:uniform_cost")->g));
    return 1;
}

static const char *const OBS_KEYS[] = {"x", "y", "half_width", "half_height",
                                       "angle", "u", NULL};

static int l_add_obstruction(lua_State *L)
{
    const char *fname = "grid:add_obstruction";
    lgrid *u = check_grid(L, fname);
    char buf[64];
    if (!lua_istable(L, 2))
        wfl_error(L, fname, "shape must be a table {x =, y =, half_width =, "
                  "half_height =, angle =}, got %s", wfl_describe(L, 2, buf));
    wfl_check_keys(L, 2, fname, "shape", OBS_KEYS);
    wf_fix x = wfl_field_fix(L, 2, fname, "shape", "x", -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix y = wfl_field_fix(L, 2, fname, "shape", "y", -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix hw = wfl_field_fix(L, 2, fname, "shape", "half_width", 0, WF_MAX_SIDE);
    wf_fix hh = wfl_field_fix(L, 2, fname, "shape", "half_height", 0, WF_MAX_SIDE);
    wf_fix ux, uy;
    wfl_read_axis(L, 2, fname, "shape", &ux, &uy);
    wf_shape s;
    wf_shape_init(&s, x, y, hw, hh, ux, uy);
    uint32_t id;
    wf_status st = wf_grid_add_obstruction(u->g, &s, &id);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    note_edit(u);
    lua_pushinteger(L, (lua_Integer)id);
    return 1;
}

static uint32_t id_arg(lua_State *L, lgrid *u, const char *fname)
{
    lua_Integer id = wfl_check_int(L, 2, fname, "id", 1, 0x7fffffff);
    wf_shape s;
    if (wf_grid_get_obstruction(u->g, (uint32_t)id, &s) != WF_OK)
        wfl_error(L, fname, "id %lld names no obstruction of this grid",
                  (long long)id);
    return (uint32_t)id;
}

static int l_remove_obstruction(lua_State *L)
{
    const char *fname = "grid:remove_obstruction";
    lgrid *u = check_grid(L, fname);
    uint32_t id = id_arg(L, u, fname);
    wf_status st = wf_grid_remove_obstruction(u->g, id);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    note_edit(u);
    return 0;
}

static int l_obstruction(lua_State *L)
{
    const char *fname = "grid:obstruction";
    lgrid *u = check_grid(L, fname);
    uint32_t id = id_arg(L, u, fname);
    wf_shape s;
    wf_grid_get_obstruction(u->g, id, &s);
    lua_createtable(L, 0, 6);
    wfl_push_fix(L, s.cx);
    lua_setfield(L, -2, "x");
    wfl_push_fix(L, s.cy);
    lua_setfield(L, -2, "y");
    wfl_push_fix(L, s.hw);
    lua_setfield(L, -2, "half_width");
    wfl_push_fix(L, s.hh);
    lua_setfield(L, -2, "half_height");
    lua_createtable(L, 2, 0);
    wfl_push_fix(L, s.ux);
    lua_rawseti(L, -2, 1);
    wfl_push_fix(L, s.uy);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "u");
    /* for display only: nothing in the core reads it back */
    lua_pushnumber(L, atan2((double)s.uy, (double)s.ux));
    lua_setfield(L, -2, "angle");
    return 1;
}

static int l_obstructions(lua_State *L)
{
    lgrid *u = check_grid(L, "grid:obstructions");
    size_t n = wf_grid_obstruction_count(u->g);
    lua_createtable(L, (int)n, 0);
    for (size_t k = 0; k < n; k++) {
        lua_pushinteger(L, (lua_Integer)wf_grid_obstruction_id(u->g, k));
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    return 1;
}

static int l_batch(lua_State *L)
{
    const char *fname = "grid:batch";
    lgrid *u = check_grid(L, fname);
    char buf[64];
    if (lua_type(L, 2) != LUA_TFUNCTION)
        wfl_error(L, fname, "fn must be a function, got %s",
                  wfl_describe(L, 2, buf));
    wf_grid_begin_batch(u->g);
    u->in_batch++;
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 1);
    int rc = lua_pcall(L, 1, 0, 0);
    u->in_batch--;
    int open = u->g && !u->life.closed;
    wf_status st = open ? wf_grid_end_batch(u->g) : WF_OK;
    if (open && st == WF_OK)
        note_edit(u);
    if (rc != LUA_OK)
        return lua_error(L);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    return 0;
}

static int l_rebuild(lua_State *L)
{
    const char *fname = "grid:rebuild";
    lgrid *u = check_grid(L, fname);
    wf_status st = wf_grid_rebuild(u->g);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    note_edit(u);
    return 0;
}

static int l_memory(lua_State *L)
{
    lgrid *u = check_grid(L, "grid:memory");
    lua_pushinteger(L, (lua_Integer)wf_grid_memory(u->g));
    lua_pushinteger(L, u->s ? (lua_Integer)wf_search_memory(u->s) : 0);
    lua_pushinteger(L, u->h ? (lua_Integer)wf_hier_memory(u->h) : 0);
    return 3;
}

static int l_version(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)wf_grid_version(check_grid(L, "grid:version")->g));
    return 1;
}

static int l_to_ascii(lua_State *L)
{
    const char *fname = "grid:to_ascii";
    lgrid *u = check_grid(L, fname);
    int k = class_arg(L, u, 2, fname, 0);
    int w = wf_grid_width(u->g), h = wf_grid_height(u->g);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            luaL_addchar(&b, wf_grid_is_passable(u->g, x, y, k) ? '.' : '@');
        luaL_addchar(&b, '\n');
    }
    luaL_pushresult(&b);
    return 1;
}

static int l_line_of_sight(lua_State *L)
{
    const char *fname = "grid:line_of_sight";
    lgrid *u = check_grid(L, fname);
    int w = wf_grid_width(u->g), h = wf_grid_height(u->g);
    int ax = (int)wfl_check_int(L, 2, fname, "ax", 0, w - 1);
    int ay = (int)wfl_check_int(L, 3, fname, "ay", 0, h - 1);
    int bx = (int)wfl_check_int(L, 4, fname, "bx", 0, w - 1);
    int by = (int)wfl_check_int(L, 5, fname, "by", 0, h - 1);
    int k = class_arg(L, u, 6, fname, 0);
    lua_pushboolean(L, wf_grid_line_of_sight(u->g, k, ax, ay, bx, by));
    return 1;
}

/* ------------------------------------------------------- find_path -- */

static const char *const PATH_KEYS[] = {"algorithm", "class", "goal", "smooth",
                                        "rewrite_goal", "escape",
                                        "max_expansions", "partial", NULL};
static void read_path_options(lua_State *L, lgrid *u, int idx,
                              const char *fname, wf_query *q)
{
    if (!wfl_opt_table(L, idx, fname, "options"))
        return;
    wfl_check_keys(L, idx, fname, "options", PATH_KEYS);
    if (wfl_field(L, idx, "algorithm") != LUA_TNIL) {
        const char *a = wfl_check_string(L, -1, fname, "options.algorithm");
        if (strcmp(a, "astar") == 0)
            q->algorithm = WF_ALGO_ASTAR;
        else if (strcmp(a, "jps") == 0)
            q->algorithm = WF_ALGO_JPS;
        else if (strcmp(a, "auto") == 0)
            q->algorithm = WF_ALGO_AUTO;
        else
            wfl_error(L, fname, "options.algorithm must be 'astar', 'jps' or "
                      "'auto', got '%s'", a);
    }
    lua_pop(L, 1);
    if (wfl_field(L, idx, "class") != LUA_TNIL) {
        const char *name = wfl_check_name(L, -1, fname, "options.class");
        q->cls = name ? wf_grid_class_index(u->g, name) : -1;
        name = lua_tostring(L, -1);
        if (q->cls < 0)
            wfl_error(L, fname, "options.class must name a class of this grid, "
                      "got '%s'", name);
    }
    lua_pop(L, 1);
    if (wfl_field(L, idx, "smooth") != LUA_TNIL)
        q->smooth = wfl_check_boolean(L, -1, fname, "options.smooth");
    lua_pop(L, 1);
    if (wfl_field(L, idx, "goal") != LUA_TNIL)
        wfl_read_goal(L, lua_gettop(L), fname, "options.goal", q->goal.x, q->goal.y,
                  &q->goal);
    lua_pop(L, 1);
}

static int l_find_path(lua_State *L)
{
    const char *fname = "grid:find_path";
    lgrid *u = check_grid(L, fname);
    if (u->in_batch)
        wfl_error(L, fname, "cannot search inside grid:batch");
    wf_fix sx = wfl_check_fix(L, 2, fname, "sx", -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix sy = wfl_check_fix(L, 3, fname, "sy", -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix gx = wfl_check_fix(L, 4, fname, "gx", -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix gy = wfl_check_fix(L, 5, fname, "gy", -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_query q;
    wf_query_init(&q);
    q.sx = wfl_floor_cell(sx);
    q.sy = wfl_floor_cell(sy);
    wf_goal_point(&q.goal, gx, gy);
    read_path_options(L, u, 6, fname, &q);
    wfl_scale_opts so;
    wfl_read_scale_options(L, 6, fname, "options", &so);
    if (!u->s) {
        wf_status st = wf_search_create(&u->s, u->g);
        if (st != WF_OK)
            return wfl_raise_status(L, fname, st);
    }
    wf_result res;
    memset(&res, 0, sizeof res);
    unsigned flags = (so.escape ? WF_PREP_ESCAPE : 0u)
                     | (so.rewrite ? WF_PREP_REWRITE : 0u);
    wf_status st = WF_OK;
    /* the start is checked before the regions are built, so an off-grid
     * start costs nothing */
    int on_grid = q.sx >= 0 && q.sy >= 0 && q.sx < wf_grid_width(u->g)
                  && q.sy < wf_grid_height(u->g);
    if (flags && on_grid && q.cls >= 0) {
        wf_hier *h = grid_hier(L, u, fname);
        st = wf_hier_prepare(h, u->g, &q, flags, &res.prep);
        if (wf_status_failed(st))
            return wfl_raise_status(L, fname, st);
    }
    wf_path p;
    memset(&p, 0, sizeof p);
    if (st == WF_OK)
        st = wf_search_run_ex(u->s, u->g, &q, so.cap, so.partial, &p,
                              &res.details);
    if (st == WF_ERR_COST)
        return wfl_error(L, fname, "options.algorithm 'jps' needs a grid whose "
                         "costs are all 1; use 'astar'");
    if (wf_status_failed(st))
        return wfl_raise_status(L, fname, st);
    res.status = st;
    res.expanded = p.expanded;
    res.algorithm = p.algorithm;
    if (st != WF_OK)
        return wfl_push_outcome(L, &res, q.smooth);
    /* an escape adds the original start and a straight segment */
    int extra = res.prep.escaped ? 1 : 0;
    int32_t *xs = lua_newuserdatauv(L, sizeof(int32_t) * 2 * (size_t)(p.n + extra), 0);
    int32_t *ys = xs + p.n + extra;
    if (extra) {
        int32_t ex[2] = {res.prep.ox, res.prep.ex}, ey[2] = {res.prep.oy, res.prep.ey};
        xs[0] = res.prep.ox;
        ys[0] = res.prep.oy;
        res.escape_length = wf_polyline_length(ex, ey, 2);
    }
    memcpy(xs + extra, p.x, sizeof(int32_t) * (size_t)p.n);
    memcpy(ys + extra, p.y, sizeof(int32_t) * (size_t)p.n);
    res.n = p.n + extra;
    res.x = xs;
    res.y = ys;
    res.cost = p.cost;
    return wfl_push_outcome(L, &res, q.smooth);
}

/* ------------------------------------------------------------ regions -- */

static void cell_args(lua_State *L, lgrid *u, int idx, const char *fname,
                      const char *xn, const char *yn, int *x, int *y)
{
    *x = (int)wfl_check_int(L, idx, fname, xn, 0, wf_grid_width(u->g) - 1);
    *y = (int)wfl_check_int(L, idx + 1, fname, yn, 0, wf_grid_height(u->g) - 1);
}

static int l_is_reachable(lua_State *L)
{
    const char *fname = "grid:is_reachable";
    lgrid *u = check_grid(L, fname);
    int ax, ay, bx, by;
    cell_args(L, u, 2, fname, "ax", "ay", &ax, &ay);
    cell_args(L, u, 4, fname, "bx", "by", &bx, &by);
    int k = class_arg(L, u, 6, fname, 0);
    wf_hier *h = grid_hier(L, u, fname);
    int ok;
    wf_status st = wf_hier_reachable(h, u->g, k, ax, ay, bx, by, &ok);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_pushboolean(L, ok);
    return 1;
}

static int l_component(lua_State *L)
{
    const char *fname = "grid:component";
    lgrid *u = check_grid(L, fname);
    int x, y;
    cell_args(L, u, 2, fname, "x", "y", &x, &y);
    int k = class_arg(L, u, 4, fname, 0);
    wf_hier *h = grid_hier(L, u, fname);
    uint32_t id;
    wf_status st = wf_hier_component(h, u->g, k, x, y, &id);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    if (!id) {
        luaL_pushfail(L);
        lua_pushliteral(L, "not_passable");
        return 2;
    }
    lua_pushinteger(L, (lua_Integer)id);
    return 1;
}

static int l_nearest_passable(lua_State *L)
{
    const char *fname = "grid:nearest_passable";
    lgrid *u = check_grid(L, fname);
    int x, y;
    cell_args(L, u, 2, fname, "x", "y", &x, &y);
    int k = class_arg(L, u, 4, fname, 0);
    wf_hier *h = grid_hier(L, u, fname);
    int ox, oy;
    wf_status st = wf_hier_nearest_passable(h, u->g, k, x, y, &ox, &oy);
    if (st == WF_NO_PATH) {
        luaL_pushfail(L);
        lua_pushliteral(L, "no_passable");
        return 2;
    }
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_pushinteger(L, ox);
    lua_pushinteger(L, oy);
    return 2;
}

static const char *const NEAR_KEYS[] = {"class", "goal", NULL};

static int l_nearest_reachable(lua_State *L)
{
    const char *fname = "grid:nearest_reachable";
    lgrid *u = check_grid(L, fname);
    wf_fix sx = wfl_check_fix(L, 2, fname, "sx", -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix sy = wfl_check_fix(L, 3, fname, "sy", -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix gx = wfl_check_fix(L, 4, fname, "gx", -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_fix gy = wfl_check_fix(L, 5, fname, "gy", -WFL_WORLD_LIMIT, WFL_WORLD_LIMIT);
    wf_goal goal;
    wf_goal_point(&goal, gx, gy);
    int k = 0;
    if (wfl_opt_table(L, 6, fname, "options")) {
        wfl_check_keys(L, 6, fname, "options", NEAR_KEYS);
        if (wfl_field(L, 6, "class") != LUA_TNIL) {
            const char *name = wfl_check_name(L, -1, fname, "options.class");
            k = name ? wf_grid_class_index(u->g, name) : -1;
            name = lua_tostring(L, -1);
            if (k < 0)
                wfl_error(L, fname, "options.class must name a class of this "
                          "grid, got '%s'", name);
        }
        lua_pop(L, 1);
        if (wfl_field(L, 6, "goal") != LUA_TNIL)
            wfl_read_goal(L, lua_gettop(L), fname, "options.goal", gx, gy, &goal);
        lua_pop(L, 1);
    }
    int cx = wfl_floor_cell(sx), cy = wfl_floor_cell(sy);
    if (cx < 0 || cy < 0 || cx >= wf_grid_width(u->g)
        || cy >= wf_grid_height(u->g)) {
        luaL_pushfail(L);
        lua_pushstring(L, wf_status_name(WF_START_OUTSIDE));
        return 2;
    }
    wf_hier *h = grid_hier(L, u, fname);
    int ox, oy, inside;
    wf_status st = wf_hier_nearest_reachable(h, u->g, k, cx, cy, &goal, &ox,
                                             &oy, &inside);
    if (wf_status_failed(st))
        return wfl_raise_status(L, fname, st);
    if (st != WF_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, wf_status_name(st));
        return 2;
    }
    lua_pushinteger(L, ox);
    lua_pushinteger(L, oy);
    lua_pushboolean(L, inside);
    return 3;
}

static int l_regions(lua_State *L)
{
    const char *fname = "grid:regions";
    lgrid *u = check_grid(L, fname);
    int k = class_arg(L, u, 2, fname, 0);
    wf_hier *h = grid_hier(L, u, fname);
    wf_hier_stats hs;
    wf_status st = wf_hier_stats_of(h, u->g, k, &hs);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, hs.chunk);
    lua_setfield(L, -2, "chunk_size");
    lua_pushinteger(L, hs.chunks);
    lua_setfield(L, -2, "chunks");
    lua_pushinteger(L, (lua_Integer)hs.regions);
    lua_setfield(L, -2, "regions");
    lua_pushinteger(L, (lua_Integer)hs.components);
    lua_setfield(L, -2, "components");
    lua_pushinteger(L, (lua_Integer)wf_hier_memory(h));
    lua_setfield(L, -2, "memory");
    return 1;
}

static int l_set_chunk_size(lua_State *L)
{
    const char *fname = "grid:set_chunk_size";
    lgrid *u = check_grid(L, fname);
    int c = (int)wfl_check_int(L, 2, fname, "size", WF_HIER_CHUNK_MIN,
                               WF_HIER_CHUNK_MAX);
    wf_hier *nh;
    wf_status st = wf_hier_create(&nh, u->g, c);
    if (st != WF_OK)
        return wfl_raise_status(L, fname, st);
    wf_hier_destroy(u->h);
    u->h = nh;
    u->chunk = c;
    return 0;
}

/* ------------------------------------------------------- lifecycle -- */

/* close, __close and __gc: one idempotent function. Closing inside
 * grid:batch is allowed; the batch then has nothing left to finish. */
/* self for the lifecycle methods, which also accept a closed grid */
static lgrid *check_any_grid(lua_State *L, const char *fname)
{
    return wfl_check_self(L, GRID_MT, fname, "a wayfinder.Grid", NULL);
}

static int l_close(lua_State *L)
{
    lgrid *u = check_any_grid(L, "grid:close");
    wfl_life_close(&u->life);
    return 0;
}

static int l_is_closed(lua_State *L)
{
    lgrid *u = check_any_grid(L, "grid:is_closed");
    lua_pushboolean(L, u->g == NULL || u->life.closed);
    return 1;
}

static int l_tostring(lua_State *L)
{
    lgrid *u = check_any_grid(L, "grid:__tostring");
    if (!u->g || u->life.closed)
        lua_pushstring(L, "wayfinder.Grid (closed)");
    else
        lua_pushfstring(L, "wayfinder.Grid (%dx%d, %d class%s)",
                        wf_grid_width(u->g), wf_grid_height(u->g),
                        wf_grid_class_count(u->g),
                        wf_grid_class_count(u->g) == 1 ? "" : "es");
    return 1;
}

static const luaL_Reg grid_methods[] = {
    {"width", l_width},
    {"height", l_height},
    {"classes", l_classes},
    {"border", l_border},
    {"set_passable", l_set_passable},
    {"is_passable", l_is_passable},
    {"terrain_passable", l_terrain_passable},
    {"set_cost", l_set_cost},
    {"cost", l_cost},
    {"uniform_cost", l_uniform_cost},
    {"set_heightmap", l_set_heightmap},
    {"set_height", l_set_height},
    {"set_water", l_set_water},
    {"heightmap", l_heightmap},
    {"terrain", l_terrain},
    {"add_obstruction", l_add_obstruction},
    {"remove_obstruction", l_remove_obstruction},
    {"obstruction", l_obstruction},
    {"obstructions", l_obstructions},
    {"batch", l_batch},
    {"rebuild", l_rebuild},
    {"memory", l_memory},
    {"version", l_version},
    {"to_ascii", l_to_ascii},
    {"line_of_sight", l_line_of_sight},
    {"find_path", l_find_path},
    {"is_reachable", l_is_reachable},
    {"component", l_component},
    {"nearest_passable", l_nearest_passable},
    {"nearest_reachable", l_nearest_reachable},
    {"regions", l_regions},
    {"set_chunk_size", l_set_chunk_size},
    {"close", l_close},
    {"is_closed", l_is_closed},
    {NULL, NULL}
};

static const luaL_Reg grid_functions[] = {
    {"grid_new", l_grid_new},
    {"grid_from_ascii", l_grid_from_ascii},
    {"grid_load_movingai", l_grid_load_movingai},
    {NULL, NULL}
};

void wfl_register_grid(lua_State *L)
{
    wfl_new_life_type(L, GRID_MT, grid_methods, l_close, l_tostring);
    lua_pop(L, 1);
    wfl_setfuncs(L, grid_functions);
    lua_pushinteger(L, WF_MAX_SIDE);
    lua_setfield(L, -2, "MAX_SIDE");
    lua_pushinteger(L, (lua_Integer)WF_MAX_CELLS);
    lua_setfield(L, -2, "MAX_CELLS");
}

static lgrid *grid_arg(lua_State *L, int idx, const char *fname,
                       const char *arg)
{
    char buf[64];
    lgrid *u = luaL_testudata(L, idx, GRID_MT);
    if (!u)
        wfl_error(L, fname, "%s must be a wayfinder.Grid, got %s", arg,
                  wfl_describe(L, idx, buf));
    if (!u->g || u->life.closed)
        wfl_error(L, fname, "%s is a closed grid", arg);
    return u;
}

wf_grid *wfl_check_grid_arg(lua_State *L, int idx, const char *fname,
                            const char *arg)
{
    return grid_arg(L, idx, fname, arg)->g;
}

/* The grid at idx with its region labels (created and synced), for the
 * queue binding. Errors like the grid's own methods. */
wf_grid *wfl_check_grid_regions(lua_State *L, int idx, const char *fname,
                                const char *arg, wf_hier **h, int searching)
{
    lgrid *u = grid_arg(L, idx, fname, arg);
    if (searching && u->in_batch)
        wfl_error(L, fname, "cannot search inside grid:batch");
    *h = grid_hier(L, u, fname);
    return u->g;
}
