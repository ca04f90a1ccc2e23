/* wayfinder.h - the C core of wayfinder: navcell grids and optimal search.
 *
 * WHAT IT DOES
 *   A grid of width x height navcells. Navcell (i, j) covers i <= x < i+1,
 *   j <= y < j+1 in world units; indices are 0-based. Each grid has 1 to 16
 *   passability classes, each with a name and an integer clearance c. A
 *   navcell is passable for a class when:
 *     - no navcell in the (2c+1) x (2c+1) square centred on it (or, for a
 *       class with the circle shape, within dx^2 + dy^2 <= c (c + 1)) is
 *       blocked by terrain for that class (outside the grid, the forced map
 *       border, and navcells whose heightmap slope or water depth break
 *       the class's limits count as terrain-blocked), and
 *     - no static obstruction blocks it for that class: a rotated rectangle
 *       blocks a navcell when all four corners of the navcell lie inside the
 *       rectangle or within distance max(c, (3 - min(w, h)) / 2) of it.
 *   Search finds optimal 8-connected paths: orthogonal step 1, diagonal
 *   sqrt(2), each multiplied by the mean terrain cost of the two navcells;
 *   a diagonal step needs both orthogonally adjacent navcells passable (no
 *   corner cutting). A* works for any costs; jump point search (JPS) for
 *   grids whose costs are all 1, with the same optimal lengths.
 *
 * HOW TO USE IT
 *   wf_grid_config cfg; wf_grid_config_init(&cfg, 512, 512);
 *   wf_grid *g; if (wf_grid_create(&g, &cfg) != WF_OK) ...
 *   wf_grid_set_passable(g, 10, 10, -1, 0);        (block for all classes)
 *   wf_search *s; wf_search_create(&s, g);
 *   wf_query q; wf_query_init(&q); q.sx = 1; q.sy = 1;
 *   wf_goal_point(&q.goal, WF_FIX(400) + WF_FIX_HALF, WF_FIX(300) + WF_FIX_HALF);
 *   wf_path p; if (wf_search_run(s, g, &q, &p) == WF_OK) use p.x[i], p.y[i]
 *   wf_search_destroy(s); wf_grid_destroy(g);
 *
 * NUMBERS
 *   World positions and lengths are fixed point Q16.16 in int32_t (wf_fix).
 *   Path costs are int64_t in units of 1/(2*WF_COST_SCALE) of a navcell, so
 *   an orthogonal step on cost-1 ground costs 2*WF_COST_SCALE and a diagonal
 *   one 2*WF_COST_DIAG. No decision depends on floating point.
 *
 * MEMORY
 *   Grid: 3 bits per navcell per class (the terrain source bits, the derived
 *   passability bits and their transposed copy, padded to 64-bit words),
 *   plus 1 byte per navcell once any cost other than 1 is set, plus 8 bytes
 *   per row.
 *   Search scratch: about 69 bytes per navcell (a 24-byte node record,
 *   a 24-byte open-list slot, and for JPS a 16-byte bucket slot, a 1-byte
 *   mark and a 4-byte record slot), reserved once per wf_search and reused
 *   with generation counters (never cleared per query); pages a search
 *   never touches are never committed by the operating system. JPS adds
 *   its jump planes, about 2.5 bytes per navcell for each class it has
 *   searched (see wf_search_create).
 *   Smoothing adds about 125 bytes per navcell of room, doubled until the
 *   longest path it has smoothed fits (up to twice that path).
 *
 * ERRORS
 *   Every function returns a wf_status; nothing aborts, prints or leaves a
 *   structure half-changed. Argument checks at this level guard the core;
 *   friendlier messages belong to the caller (the Lua binding).
 */
#ifndef WAYFINDER_H
#define WAYFINDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t wf_fix;                       /* Q16.16 world units */
#define WF_FIX_ONE   ((wf_fix)65536)
#define WF_FIX_HALF  ((wf_fix)32768)
#define WF_FIX(n)    ((wf_fix)((n) * 65536))  /* whole number -> wf_fix */

#define WF_MAX_CLASSES    16
#define WF_MAX_CLEARANCE  255   /* [navcells] largest class clearance */
#define WF_MAX_SIDE       16384 /* [navcells] largest width or height */
#define WF_MAX_CELLS      ((int64_t)1 << 26) /* largest width*height */
#define WF_MAX_COST       255   /* terrain cost range [1, WF_MAX_COST] */
#define WF_NAME_MAX       32    /* class name buffer, including the NUL */

/* Cost scale: orthogonal step = WF_COST_SCALE, diagonal = round(sqrt2*scale).
 * 2^24 keeps the diagonal error under 3e-8 per step. */
#define WF_COST_SCALE ((int64_t)16777216)
#define WF_COST_DIAG  ((int64_t)23726566)

typedef enum wf_status {
    WF_OK = 0,
    /* programming or resource errors */
    WF_ERR_ARG,        /* an argument is out of its documented range */
    WF_ERR_NOMEM,      /* allocation failed; nothing was changed */
    WF_ERR_NOTFOUND,   /* no such obstruction id / class */
    WF_ERR_FULL,       /* id space or table exhausted */
    WF_ERR_PARSE,      /* malformed map text (see wf_parse_error) */
    WF_ERR_COST,       /* JPS asked for on a grid with non-unit costs */
    /* expected search outcomes that are not a path */
    WF_NO_PATH,        /* start and goal are not connected */
    WF_START_OUTSIDE,  /* start navcell is off the grid */
    WF_START_BLOCKED,  /* start navcell is not passable for the class */
    WF_GOAL_OUTSIDE,   /* no navcell of the goal lies on the grid */
    WF_GOAL_BLOCKED    /* point goal on a navcell not passable for the class */
} wf_status;

/* A short stable name for a status ("ok", "unreachable", "start_blocked"...).
 * Returns a static string. */
const char *wf_status_name(wf_status st);

/* 1 when st says the call failed (a WF_ERR_* error: bad argument, out of
 * memory, ...; there is no result), 0 for WF_OK and for the expected search
 * outcomes (WF_NO_PATH, WF_START_*, WF_GOAL_*), which are answers, not
 * failures. Tell the groups apart with this, never by the enum's order. */
int wf_status_failed(wf_status st);

/* ---------------------------------------------------------------- grid -- */

typedef struct wf_grid wf_grid;

typedef enum wf_border_shape {
    WF_BORDER_SQUARE = 0,
    WF_BORDER_CIRCLE = 1
} wf_border_shape;

/* Which terrain limits of a class apply (wf_class_def.limits). */
#define WF_LIMIT_SLOPE      1u   /* slope <= max_slope */
#define WF_LIMIT_MIN_DEPTH  2u   /* depth >= min_depth */
#define WF_LIMIT_MAX_DEPTH  4u   /* depth <= max_depth */

typedef enum wf_clearance_shape {
    WF_CLEARANCE_SQUARE = 0,  /* (2c + 1) x (2c + 1) square filter */
    WF_CLEARANCE_CIRCLE = 1   /* navcells with dx^2 + dy^2 <= c (c + 1) */
} wf_clearance_shape;

/* A zeroed class (as wf_grid_config_init leaves classes 1..15) has no
 * terrain limits and the square clearance filter. */
typedef struct wf_class_def {
    char name[WF_NAME_MAX];   /* unique, non-empty, NUL-terminated */
    int clearance;            /* [navcells] [0, WF_MAX_CLEARANCE] */
    unsigned limits;          /* WF_LIMIT_* bits: which fields below apply */
    wf_fix max_slope;         /* [Q16.16 height per navcell] >= 0 */
    wf_fix min_depth;         /* [Q16.16] >= 0, water depth (terrain.c) */
    wf_fix max_depth;         /* [Q16.16] >= min_depth when both apply */
    wf_clearance_shape clearance_shape;
} wf_class_def;

typedef struct wf_grid_config {
    int width, height;        /* [navcells] [1, WF_MAX_SIDE], w*h <= WF_MAX_CELLS */
    int nclasses;             /* [1, WF_MAX_CLASSES] */
    wf_class_def classes[WF_MAX_CLASSES];
    int border;               /* [navcells] forced impassable border, >= 0 */
    wf_border_shape border_shape;
} wf_grid_config;

/* Fills cfg with one class "default" of clearance 0 and no border. */
void wf_grid_config_init(wf_grid_config *cfg, int width, int height);

/* Creates a grid with every navcell terrain-passable and cost 1.
 * On success *out owns the grid (free with wf_grid_destroy). */
wf_status wf_grid_create(wf_grid **out, const wf_grid_config *cfg);
void wf_grid_destroy(wf_grid *g);                  /* NULL is fine */

int wf_grid_width(const wf_grid *g);
int wf_grid_height(const wf_grid *g);
int wf_grid_class_count(const wf_grid *g);
const char *wf_grid_class_name(const wf_grid *g, int cls);   /* [0, n) */
int wf_grid_class_clearance(const wf_grid *g, int cls);
int wf_grid_border(const wf_grid *g);
wf_border_shape wf_grid_border_shape(const wf_grid *g);
/* The definition of class cls (name, clearance, limits, shape); NULL when
 * cls is out of range. */
const wf_class_def *wf_grid_class_def(const wf_grid *g, int cls);
/* Index of the class called name, or -1. */
int wf_grid_class_index(const wf_grid *g, const char *name);
/* Bytes owned by the grid (bit planes, costs, obstructions). */
size_t wf_grid_memory(const wf_grid *g);
/* Counter bumped by every change to passability or cost; lets callers cache. */
uint64_t wf_grid_version(const wf_grid *g);

/* What changed since a version: the union of the navcell rectangles whose
 * passability (any class) was recomputed after version `since`. Returns 0
 * when nothing changed, 1 with *x0..*y1 set to the inclusive union, or 2
 * when the log no longer reaches back that far (treat the whole grid as
 * changed). Cost changes are not passability changes. */
int wf_grid_changed_since(const wf_grid *g, uint64_t since, int *x0, int *y0,
                          int *x1, int *y1);

/* Terrain. cls is a class index, or -1 for every class. passable is 0/1.
 * x in [0, width), y in [0, height). */
wf_status wf_grid_set_passable(wf_grid *g, int x, int y, int cls, int passable);
/* 1 when the terrain (before clearance, border and obstructions) is
 * passable for cls at (x, y); 0 otherwise or off the grid. */
int wf_grid_terrain_passable(const wf_grid *g, int x, int y, int cls);
/* 1 when the navcell is passable for cls after clearance, border and
 * obstructions; 0 otherwise or off the grid. */
int wf_grid_is_passable(const wf_grid *g, int x, int y, int cls);

/* Heightmap terrain (terrain.c, docs/grid.md "Heightmap terrain"). The map
 * is cut into tiles of `tile` x `tile` navcells, tw = ceil(width / tile)
 * across and th = ceil(height / tile) down; heights are given per tile
 * corner, (tw + 1) * (th + 1) of them, row-major, Q16.16 in
 * [-WF_MAX_HEIGHT, WF_MAX_HEIGHT], as is the water level. Each navcell's
 * height, slope and water depth are the bilinear interpolation at its
 * centre (integer arithmetic only); a class with WF_LIMIT_* bits finds a
 * navcell terrain-blocked when it violates a limit. A grid without a
 * heightmap is flat and dry (height, slope and depth 0). Edits recompute
 * only the navcells they touch, grown by the largest clearance. */
#define WF_MAX_TILE    256     /* [navcells] largest tile side */
#define WF_MAX_HEIGHT  16384   /* largest |height| and |water level| */
/* Sets (or, with heights NULL, removes) the heightmap. WF_ERR_ARG when tile,
 * tw, th or a value is out of range; nothing changes on an error. */
wf_status wf_grid_set_heightmap(wf_grid *g, int tile, int tw, int th,
                                const wf_fix *heights, wf_fix water);
/* One corner (cx in [0, tw], cy in [0, th]); WF_ERR_ARG without heightmap. */
wf_status wf_grid_set_height(wf_grid *g, int cx, int cy, wf_fix height);
wf_status wf_grid_set_water(wf_grid *g, wf_fix water);
/* 1 and the heightmap's shape when there is one, 0 otherwise. */
int wf_grid_heightmap(const wf_grid *g, int *tile, int *tw, int *th,
                      wf_fix *water);
/* The height of corner (cx, cy); 0 when there is none. */
wf_fix wf_grid_corner_height(const wf_grid *g, int cx, int cy);
/* Height, slope and depth (all Q16.16) of navcell (x, y) on the grid. */
void wf_grid_terrain_at(const wf_grid *g, int x, int y, int64_t *height,
                        int64_t *slope, int64_t *depth);

/* Terrain cost [1, WF_MAX_COST] of a navcell (all classes share it). */
wf_status wf_grid_set_cost(wf_grid *g, int x, int y, int cost);
int wf_grid_cost(const wf_grid *g, int x, int y);   /* 0 when off the grid */
/* 1 when every navcell costs 1 (JPS applies). */
int wf_grid_uniform_cost(const wf_grid *g);

/* Batching: between begin and end, passability is not recomputed; end
 * recomputes the union of the touched regions once. Nests. Queries made
 * inside a batch see stale passability. */
void wf_grid_begin_batch(wf_grid *g);
wf_status wf_grid_end_batch(wf_grid *g);

/* Recomputes all derived passability from scratch (terrain, clearance,
 * border, every obstruction). Incremental updates give the same bits. */
wf_status wf_grid_rebuild(wf_grid *g);

/* -------------------------------------------------------- obstructions -- */

/* A rotated rectangle: centre (cx, cy), half sizes hw along u and hh along
 * v, u and v unit vectors (Q16.16; u perpendicular to v). */
typedef struct wf_shape {
    wf_fix cx, cy;
    wf_fix hw, hh;        /* >= 0 */
    wf_fix ux, uy, vx, vy;
} wf_shape;

/* Builds a shape from a centre, half sizes and unit vector u; v is u turned
 * a quarter anticlockwise. */
void wf_shape_init(wf_shape *s, wf_fix cx, wf_fix cy, wf_fix hw, wf_fix hh,
                   wf_fix ux, wf_fix uy);

/* Adds a static obstruction and re-rasterizes only the region it touches.
 * *id receives a positive id, never reused by this grid. */
wf_status wf_grid_add_obstruction(wf_grid *g, const wf_shape *s, uint32_t *id);
/* Removes obstruction id; WF_ERR_NOTFOUND if there is none. */
wf_status wf_grid_remove_obstruction(wf_grid *g, uint32_t id);
/* Copies obstruction id's shape into *s; WF_ERR_NOTFOUND if there is none. */
wf_status wf_grid_get_obstruction(const wf_grid *g, uint32_t id, wf_shape *s);
size_t wf_grid_obstruction_count(const wf_grid *g);
/* The id of the k-th obstruction in id order, k in [0, count). */
uint32_t wf_grid_obstruction_id(const wf_grid *g, size_t k);

/* ------------------------------------------------------------- loaders -- */

typedef struct wf_parse_error {
    int line;            /* 1-based line of the problem, 0 if none */
    char message[128];
} wf_parse_error;

/* Builds a grid from Moving AI ".map" text: '.', 'G', 'S' passable; '@', 'O',
 * 'T', 'W' blocked; LF or CRLF line ends. cfg supplies classes and border
 * (its width/height are ignored); NULL for the default single class. */
wf_status wf_grid_from_movingai(wf_grid **out, const char *text, size_t len,
                                const wf_grid_config *cfg, wf_parse_error *err);
/* Builds a grid from rows of '.' (passable) and '@' or '#' (blocked), all of
 * the same length, separated by LF or CRLF; a final line end is optional. */
wf_status wf_grid_from_ascii(wf_grid **out, const char *text, size_t len,
                             const wf_grid_config *cfg, wf_parse_error *err);

/* --------------------------------------------------------------- goals -- */

typedef enum wf_goal_type {
    WF_GOAL_POINT = 0,    /* the navcell containing (x, y) */
    WF_GOAL_SQUARE = 1,   /* any navcell touching the rotated rectangle */
    WF_GOAL_CIRCLE = 2    /* any navcell touching the disc of radius r */
} wf_goal_type;

typedef struct wf_goal {
    wf_goal_type type;
    wf_fix x, y;          /* centre */
    wf_fix hw, hh;        /* square half sizes, >= 0 */
    wf_fix ux, uy, vx, vy;/* square axes, unit vectors */
    wf_fix r;             /* circle radius, >= 0 */
    int inverted;         /* 1: the outside of the circle or square (a
                             minimum range); 0 for a point */
} wf_goal;

void wf_goal_point(wf_goal *g, wf_fix x, wf_fix y);
void wf_goal_circle(wf_goal *g, wf_fix x, wf_fix y, wf_fix r);
void wf_goal_square(wf_goal *g, wf_fix x, wf_fix y, wf_fix hw, wf_fix hh,
                    wf_fix ux, wf_fix uy);
/* 1 when navcell (i, j) is inside the goal: for a point, the navcell
 * containing it; for a shape, any point of the closed navcell square lies in
 * the closed shape. */
int wf_goal_contains(const wf_goal *goal, int i, int j);
/* 1 when any navcell of [i0, i1] x [j0, j1] is inside the goal. */
int wf_goal_touches(const wf_goal *goal, int i0, int j0, int i1, int j1);
/* Inclusive navcell bounding box of the goal, before clipping to a grid. */
void wf_goal_bounds(const wf_goal *goal, int *x0, int *y0, int *x1, int *y1);
/* Turns a circle or square goal into its inverse: the navcells with some
 * point of their closed square outside the open shape (on its boundary or
 * beyond), the minimum-range case. Its bounds are every navcell. Returns
 * WF_ERR_ARG for a point goal. Inverted goals are meant for the vertex
 * pathfinder (the reference: minimum ranges are short); the grid search
 * accepts them with a zero heuristic inside their unbounded box. */
wf_status wf_goal_invert(wf_goal *g);

/* -------------------------------------------------------------- search -- */

typedef enum wf_algorithm {
    WF_ALGO_AUTO = 0,     /* JPS on uniform-cost grids, A* otherwise */
    WF_ALGO_ASTAR = 1,
    WF_ALGO_JPS = 2
} wf_algorithm;

typedef struct wf_query {
    int sx, sy;           /* [navcells] start navcell */
    wf_goal goal;
    int cls;              /* class index */
    wf_algorithm algorithm;
    int smooth;           /* 1: string-pull (see wf_search_run) */
} wf_query;

void wf_query_init(wf_query *q);   /* class 0, auto, no smoothing, goal 0,0 */

typedef struct wf_path {
    int n;                /* waypoint count, >= 1 */
    const int32_t *x;     /* [navcells] waypoints, start first; owned by the */
    const int32_t *y;     /* wf_search, valid until its next run/destroy */
    int64_t cost;         /* integer cost of the grid path (see NUMBERS) */
    uint64_t expanded;    /* nodes taken off the open list */
    wf_algorithm algorithm; /* the one actually used */
} wf_path;

typedef struct wf_search wf_search;

/* Scratch for searches on grids of g's size (about 69 bytes per navcell).
 * A search may be used with any grid of the same or smaller cell count.
 * JPS keeps its jump planes here, per class (about 2.5 bytes per navcell
 * each, allocated by the class's first JPS search, WF_ERR_NOMEM when that
 * fails), tied to a grid's serial number and version: the next JPS search
 * after an edit brings them up to date from the grid's change log, or
 * makes them again when the log does not reach back or the grid is another
 * one, so no search ever reads planes of another grid state. */
wf_status wf_search_create(wf_search **out, const wf_grid *g);
void wf_search_destroy(wf_search *s);            /* NULL is fine */
size_t wf_search_memory(const wf_search *s);

/* Finds an optimal path. Returns WF_OK and fills *out, or an expected
 * outcome (WF_NO_PATH, WF_START_*, WF_GOAL_*), or an error. On WF_NO_PATH
 * out->expanded still tells the work done. Waypoints are the navcells where
 * the direction changes; a path whose start is in the goal has one waypoint.
 * With smoothing (q->smooth), the waypoints are the fewest navcells of the
 * grid path, in its order, from its first to its last, each seeing the next
 * (wf_grid_line_of_sight); among such chains the one of least
 * wf_polyline_length, and among those the one whose second waypoint comes
 * first along the path, then the third, and so on. Only this path's
 * navcells are candidates, and terrain costs are ignored. The work grows
 * with the path's navcell count n: a few line-of-sight and shadow tests
 * per navcell on the benchmark maps, n^2 / 2 lines of sight at worst
 * (smooth.c, docs/grid.md). Its scratch, about 125 bytes per navcell of
 * room, doubled until the longest path smoothed so far fits, stays with
 * s; WF_ERR_NOMEM when it cannot grow. */
wf_status wf_search_run(wf_search *s, const wf_grid *g, const wf_query *q,
                        wf_path *out);

/* 1 when a straight segment between the centres of navcells a and b crosses
 * only passable navcells for cls and cuts no blocked corner: every navcell
 * whose closed square meets the closed segment is passable, a and b
 * included. 0 for a bad class. Reads a row or column of bits at a time. */
int wf_grid_line_of_sight(const wf_grid *g, int cls, int ax, int ay,
                          int bx, int by);

/* Euclidean length of a waypoint list in Q16.16, summed per segment with an
 * integer square root (deterministic). */
int64_t wf_polyline_length(const int32_t *x, const int32_t *y, int n);

/* ===================================================== rectangle planner ==
 * Routing inside one room of a tile world (rectplan_room.c, rectplan.c,
 * rectplan_smooth.c).
 *
 * WHAT IT DOES
 *   A tile world (1 tile = 1 world unit; y grows downward, rows are scanned
 *   top to bottom) gives each tile a room id. wf_room_obstacles turns the
 *   room of the start into a list of axis-aligned areas: four one-tile
 *   boundary rectangles around the room box, rectangles over the tiles of
 *   the box that are not routable (not the room, not a door), thin walls
 *   between two routable tiles, and the objects that pass the seven object
 *   rules. The planner inflates every obstacle by the person's width (each
 *   side moves out by width/2, so a person is a square of side `width`
 *   centred on the routed point) and runs A* whose nodes are free
 *   rectangles: the first is grown around the start, and a node's
 *   successors are made when it is expanded by growing seeds along each of
 *   its sides as far as the obstacles, the existing nodes, the penalty
 *   areas' edges, the planning box and the maximum node size allow. The
 *   set of nodes is the "rectangular cover", built only where the search
 *   goes.
 *
 *   The search graph: the start, the goal, and points on every shared
 *   edge ("portal") of two touching nodes: the point of the edge nearest
 *   the straight line from start to goal and (edge_points 3) the edge's two
 *   ends, where shortest routes bend. Two points are joined when they lie
 *   on the same node; the edge costs the Euclidean length (rounded up)
 *   times the node's cost factor. A* with the straight-line distance
 *   (rounded down) is optimal over the cover it built. Smoothing then moves
 *   each point along its shared edge by a step in both directions, keeping
 *   moves that lower the route's cost, until nothing improves, then halves
 *   the step (perturbation).
 *
 *   Penalties: every area has a penalty; WF_IMPASSABLE is an obstacle, any
 *   other value is extra cost in 1/WF_PENALTY_ONE (256 = twice as costly).
 *   Penalty areas bound the nodes (no node straddles their edges) and a
 *   node costs WF_PENALTY_ONE + the largest penalty of the areas holding it.
 *
 * NUMBERS
 *   Coordinates Q16.16 (wf_fix); costs int64 in 1/65536 world units times
 *   the factor / WF_PENALTY_ONE. Obstacles are open sets (a route may run
 *   along their edges), nodes are closed, and two nodes touch when they
 *   share an edge of positive length. No floating point; every tie is
 *   broken by a documented rule, so results are bit-identical everywhere.
 *
 * HOW TO USE IT
 *   wf_room room = {...}; wf_room_scan scan = {...};
 *   size_t cap = wf_room_obstacles_cap(&room, &scan), n;
 *   wf_area *areas = malloc(cap * sizeof *areas); wf_rect box;
 *   wf_room_obstacles(&room, &scan, areas, cap, &n, &box, NULL);
 *   wf_rectplan_config cfg; wf_rectplan_config_init(&cfg);
 *   cfg.bounds = box; cfg.areas = areas; cfg.nareas = n; cfg.margin = ...;
 *   cfg.sx = ...; (start, goal, mode)
 *   wf_rectplan *p; wf_rectplan_create(&p, &cfg);
 *   if (wf_rectplan_run(p) == WF_OK) { wf_rectplan_path r; wf_rectplan_result(p, &r); }
 *   wf_rectplan_destroy(p);
 *
 * MEMORY
 *   The planner allocates its node pool (max_nodes), portals (3 per node),
 *   points (3 per portal), heap and chain buffers once, at creation: about
 *   1.3 KB per node of the pool with edge_points 3, 0.5 KB with 1. The
 *   search loop never allocates. Smoothing allocates its stage record once, after the
 *   search.
 */

#define WF_ROOM_MAX_SIDE   4096             /* [tiles] largest world side */
#define WF_ROOM_MAX_TILES  ((int64_t)1 << 22) /* largest width*height */
#define WF_RECTPLAN_LIMIT     WF_FIX(8192)     /* |coordinate| accepted */
#define WF_RECTPLAN_MAX_WIDTH WF_FIX(256)      /* largest person width */
#define WF_PENALTY_ONE     256u             /* penalty of +100% cost */
#define WF_PENALTY_MAX     (256u * 10000u)  /* largest finite penalty */
#define WF_IMPASSABLE      UINT32_MAX       /* penalty of an obstacle */
#define WF_RECTPLAN_MAX_NODES 1000000          /* largest node pool */

/* Axis-aligned rectangle, x0 <= x1 and y0 <= y1 [fixed Q16.16]. */
typedef struct wf_rect {
    wf_fix x0, y0, x1, y1;
} wf_rect;

typedef enum wf_area_kind {
    WF_AREA_BOUNDARY = 0,  /* one of the four rectangles around the room */
    WF_AREA_WALL = 1,      /* non-routable tiles or a thin wall */
    WF_AREA_OBJECT = 2,    /* an object's footprint */
    WF_AREA_TERRAIN = 3,   /* a penalty area given by the caller */
    WF_AREA_PERSON = 4     /* a person's footprint */
} wf_area_kind;

typedef struct wf_area {
    wf_rect r;
    uint32_t penalty;      /* WF_IMPASSABLE or [0, WF_PENALTY_MAX] */
    wf_area_kind kind;
    int32_t object;        /* index in wf_room.objects, or -1 */
} wf_area;

/* Object flags (wf_room_object.flags). */
#define WF_OBJ_CONTAINED  1u   /* inside another object */
#define WF_OBJ_WALK_OVER  2u   /* can be walked over */
#define WF_OBJ_PERSON     4u   /* a person */
#define WF_OBJ_START      8u   /* the object the route starts from */
#define WF_OBJ_DEST       16u  /* the object the route goes to */

typedef struct wf_room_object {
    wf_rect box;           /* footprint [fixed] */
    int32_t room;          /* room id */
    unsigned flags;        /* WF_OBJ_* */
    uint32_t penalty;      /* WF_IMPASSABLE for an ordinary obstacle */
} wf_room_object;

typedef struct wf_room {
    int width, height;             /* [tiles] [1, WF_ROOM_MAX_SIDE] */
    const int32_t *rooms;          /* width*height room ids, row-major */
    const uint8_t *doors;          /* width*height, nonzero = door [opt] */
    const int32_t *walls;          /* nwalls x {x0, y0, x1, y1} [tiles] */
    size_t nwalls;                 /* on tile edges, axis-aligned */
    const wf_room_object *objects;
    size_t nobjects;
} wf_room;

/* Why the object scan dropped an object (the reference's rule numbers). */
typedef enum wf_skip {
    WF_SKIP_ADDED = 0,       /* rule 7: it is an obstacle */
    WF_SKIP_START = 1,       /* rule 1: the start object */
    WF_SKIP_DEST = 2,        /* rule 2: the destination, routing near it */
    WF_SKIP_OTHER_ROOM = 3,  /* rule 3: in another room */
    WF_SKIP_CONTAINED = 4,   /* rule 4: inside another object */
    WF_SKIP_WALK_OVER = 5,   /* rule 5: can be walked over */
    WF_SKIP_PERSON = 6,      /* rule 6: a person within the ignore distance
                                of the goal */
    WF_SKIP_OVERLAP = 7      /* a person the routing person overlaps at the
                                start (route following lets them part) */
} wf_skip;

typedef struct wf_room_scan {
    int32_t room;          /* the starting room id */
    wf_fix sx, sy;         /* start point [fixed] */
    wf_fix gx, gy;         /* goal point (near: the square's centre), for
                              rule 6 [fixed] */
    wf_fix margin;         /* [fixed] >= 0, half the routing person's
                              width: a person whose box grown by it holds
                              the start strictly inside is skipped */
    int near;              /* 1 when routing near the destination (rule 2) */
    wf_fix ignore_people;  /* [fixed] rule 6 distance; negative: rule off */
} wf_room_scan;

/* The most areas wf_room_obstacles can write for this scan: over the room
 * box of scan->room (its tiles and the door tiles next to them), 4
 * boundary rectangles, one wall rectangle per tile, one thin wall per tile
 * edge, and one area per object; 0 when no tile has that room. */
size_t wf_room_obstacles_cap(const wf_room *room, const wf_room_scan *scan);

/* Builds the obstacle list of the room scan->room, in this order: the four
 * boundary rectangles (top, bottom, left, right) of the room box grown by
 * one tile; the wall scan (tiles of the box that are neither the room nor
 * a door, top to bottom then left to right, each grown right then down
 * over uncovered non-routable tiles); thin walls separating two routable
 * tiles (horizontal ones by row, then vertical ones by column, consecutive
 * tile edges merged; zero thickness, like the edges route following
 * stops at); then objects in list order under the seven rules (first rule
 * that applies wins; a person the routing person already overlaps at the
 * start is skipped after rule 6, WF_SKIP_OVERLAP). The
 * room box holds the room's tiles and the door tiles next to them.
 * *bounds receives the room box grown by one tile (the planning box).
 * skips [opt] receives one wf_skip per object. Returns WF_ERR_ARG for a
 * malformed room, WF_ERR_NOTFOUND when no tile has room scan->room,
 * WF_ERR_FULL when cap is too small, WF_ERR_NOMEM. */
wf_status wf_room_obstacles(const wf_room *room, const wf_room_scan *scan,
                            wf_area *out, size_t cap, size_t *n,
                            wf_rect *bounds, uint8_t *skips);

/* The area as the planner sees it for a person of width 2 * margin: every
 * area but a finite-penalty terrain area grows by margin on every side; a
 * wall that is still of zero thickness then (margin 0) grows by one unit
 * (1/65536) across, so that even a point cannot cross it. */
wf_area wf_area_inflate(wf_area a, wf_fix margin);

typedef enum wf_rectplan_dest {
    WF_RECTPLAN_DEST_POINT = 0,    /* end on the goal point */
    WF_RECTPLAN_DEST_NEAR = 1      /* end anywhere within the square of half
                              size `near` centred on the goal: the route
                              ends on its boundary where it first enters
                              it; a start in it (closed) is the route
                              when no stretch of the boundary is free */
} wf_rectplan_dest;

typedef struct wf_rectplan_config {
    wf_rect bounds;            /* planning box; nodes stay inside */
    const wf_area *areas;      /* obstacles and penalty areas, before
                                  inflation; copied at creation */
    size_t nareas;
    wf_fix margin;             /* [fixed] [0, WF_RECTPLAN_MAX_WIDTH/2] inflation
                                  per side of every area but terrain */
    wf_fix sx, sy;             /* start point */
    wf_fix gx, gy;             /* goal point or centre of the near square */
    wf_rectplan_dest mode;
    wf_fix near;               /* [fixed] >= 0, half size for WF_RECTPLAN_DEST_NEAR */
    wf_fix max_node_size;      /* [fixed] largest node side; 0: unbounded */
    wf_fix seed;               /* [fixed] longest seed along a side; 0: the
                                  whole uncovered stretch */
    wf_fix step, min_step;     /* [fixed] first and last smoothing step,
                                  0 < min_step <= step */
    int max_nodes;             /* [0, WF_RECTPLAN_MAX_NODES] node pool; 0 sizes
                                  it from the input (wf_rectplan_max_nodes) */
    int edge_points;           /* points per shared edge: 1 (the point
                                  nearest the start-goal line) or 3 (also
                                  both ends of the edge) */
    wf_fix escape;             /* [fixed] [0, WF_RECTPLAN_LIMIT] how far a
                                  start inside an obstacle, or a point goal
                                  inside obstacles none of which is a
                                  person, may move to the nearest free
                                  point; 0: never */
} wf_rectplan_config;

/* Defaults: max_node_size 0, seed 0, step 1/2 tile, min_step 1/1024 tile,
 * max_nodes 0, edge_points 3, escape 1/2 tile, point mode, everything else
 * 0. */
void wf_rectplan_config_init(wf_rectplan_config *cfg);

typedef struct wf_rectplan wf_rectplan;

typedef enum wf_rectplan_state {
    WF_RECTPLAN_RUNNING = 0,
    WF_RECTPLAN_DONE = 1,
    WF_RECTPLAN_FAILED = 2
} wf_rectplan_state;

/* Checks cfg, copies and inflates the areas, allocates every buffer, grows
 * the start node and opens the start. A start inside an obstacle first
 * escapes: the search begins from the nearest point within cfg.escape
 * that lies in the planning box, outside every obstacle, with room to
 * grow a node and reached by a straight leg the walker allows (it cuts
 * into no obstacle the start is not in; nearest by Euclidean distance;
 * ties: lower y, then lower x); the route still begins at the start. A point goal inside obstacles
 * of which none is a person moves the same way. A start or goal that
 * stays blocked gives a planner already failed (see wf_rectplan_status), not
 * an error. Returns WF_ERR_ARG for a bad config, WF_ERR_NOMEM. */
wf_status wf_rectplan_create(wf_rectplan **out, const wf_rectplan_config *cfg);
void wf_rectplan_destroy(wf_rectplan *p);                 /* NULL is fine */

/* One A* step: pops the best point, expands the nodes it lies on (growing
 * their neighbours) and relaxes its successors. Popping the goal smooths
 * the route and ends the search. */
wf_rectplan_state wf_rectplan_advance(wf_rectplan *p);
/* Advances until done or failed; returns wf_rectplan_status. */
wf_status wf_rectplan_run(wf_rectplan *p);
wf_rectplan_state wf_rectplan_get_state(const wf_rectplan *p);
/* WF_OK while running or done; once failed: WF_START_BLOCKED (start inside
 * an obstacle with no free point within cfg.escape, or without free room
 * around it), WF_GOAL_BLOCKED (goal, or
 * the whole near boundary, inside obstacles or outside the planning box),
 * WF_NO_PATH (the open list ran dry), WF_ERR_FULL (node pool exhausted). */
wf_status wf_rectplan_status(const wf_rectplan *p);
int wf_rectplan_steps(const wf_rectplan *p);   /* points popped so far */
/* The node pool's size: cfg.max_nodes, or when that is 0, 64 + 16 per
 * obstacle or penalty area, + 4 per cell of a max_node_size grid and of a
 * seed grid over the planning box when those are set (capped at
 * WF_RECTPLAN_MAX_NODES). */
int wf_rectplan_max_nodes(const wf_rectplan *p);

/* Inspection. The inflated areas in input order: */
size_t wf_rectplan_area_count(const wf_rectplan *p);
const wf_area *wf_rectplan_area(const wf_rectplan *p, size_t i);

typedef struct wf_rectplan_node_info {
    wf_rect r;
    uint32_t penalty;      /* largest penalty of the areas holding it */
    int created;           /* step that grew it (0: before the first) */
    int expanded;          /* step that grew its neighbours, or -1 */
} wf_rectplan_node_info;
int wf_rectplan_node_count(const wf_rectplan *p);
void wf_rectplan_node(const wf_rectplan *p, int i, wf_rectplan_node_info *out);

/* Points of the search graph: 0 is the start, 1 the goal (in near mode
 * its position is the best boundary point found so far), then the points
 * of each shared edge (portal) in creation order. */
typedef struct wf_rectplan_vertex_info {
    wf_fix x, y;
    int node_a, node_b;    /* nodes it lies on: portal ends; the start has
                              node_a = 0, node_b = -1; the goal -1, -1 */
    int64_t g, h;          /* cost so far and heuristic (valid once opened) */
    int parent, via;       /* best predecessor and the node crossed, or -1 */
    int opened, closed;    /* step first opened / popped, or -1 */
    int edge_end;          /* 1 for an end of its shared edge, 0 for the
                              point nearest the start-goal line (or the
                              start or goal) */
} wf_rectplan_vertex_info;
int wf_rectplan_vertex_count(const wf_rectplan *p);
void wf_rectplan_vertex(const wf_rectplan *p, int i, wf_rectplan_vertex_info *out);
/* Open points in pop order (lowest f, then lowest h, then lowest index);
 * writes at most cap indices and returns how many are open. */
int wf_rectplan_open(const wf_rectplan *p, int *out, int cap);
int wf_rectplan_current(const wf_rectplan *p);   /* last popped point, or -1 */

typedef struct wf_rectplan_path {
    int n;                 /* points: start, bends, end (>= 1) */
    const wf_fix *x, *y;   /* owned by the planner, valid until destroy */
    int64_t length;        /* [fixed] Euclidean length, rounded down per leg */
    int64_t cost;          /* length with each leg times its node's factor */
    int nchain;            /* start, one point per shared edge, end */
    const wf_fix *cx, *cy; /* the chain after smoothing */
    const wf_fix *ax, *ay; /* the chain as A* found it (before smoothing) */
    const int *nodes;      /* nchain - 1 nodes, the one each leg crosses */
    int64_t chain_length;  /* [fixed] length of the A* chain */
    int escaped;           /* 1 when the start lay inside an obstacle: x[0],
                              y[0] is the start and x[1], y[1] the free
                              point the search began from (the chain
                              starts there) */
    int goal_moved;        /* 1 when a blocked point goal was moved */
    wf_fix gx, gy;         /* the goal planned to (moved or not) */
} wf_rectplan_path;
/* The route once done (WF_OK), else the status. Points: the smoothed chain
 * without repeated points and without points where it runs straight. */
wf_status wf_rectplan_result(const wf_rectplan *p, wf_rectplan_path *out);

/* Smoothing stages: the chain after each step size, largest step first. */
int wf_rectplan_stage_count(const wf_rectplan *p);
/* Stage k's step and points (nchain of each); pointers live until destroy. */
void wf_rectplan_stage(const wf_rectplan *p, int k, wf_fix *step, const wf_fix **x,
                    const wf_fix **y);

/* ======================================================================
 * SCALE: sliced searches, hierarchical regions, shared goals, a request
 * queue. Everything below serves many agents on large maps:
 *
 *   - A search can run in slices: wf_search_begin, then wf_search_step with
 *     a budget of node expansions as often as needed, then
 *     wf_search_finish. The expansions happen in the same order whatever
 *     the slicing, so the result never depends on how the work was split.
 *     A search may carry its own expansion cap and, when it stops without
 *     reaching the goal, return the path to the expanded node nearest the
 *     goal (a partial result: lowest heuristic, then lowest cost so far,
 *     then lowest navcell index).
 *   - wf_hier labels the connected regions of each chunk (a square of
 *     chunk x chunk navcells) per class and links them across chunk borders
 *     into components. Reachability is then one table lookup; the nearest
 *     passable navcell and the nearest reachable navcell to a point scan
 *     chunks ring by ring around it, skipping whole chunks that cannot
 *     hold an answer. After a grid edit only the chunks of the changed
 *     rectangles are relabelled (the grid's change log says which).
 *   - wf_field is a distance field from one goal over its whole component,
 *     computed once (in slices), from which any agent reads an optimal path
 *     without searching.
 *   - wf_queue serves path requests in FIFO order under a per-call budget of
 *     node expansions, with shared goals, partial paths and cancellation.
 *
 * MEMORY (per navcell): regions 2 bytes per class for the labels plus about
 * 8/chunk bytes per class for the border links; a field 1 byte; a queue
 * one wf_search (about 69 bytes, see wf_search_create).
 * ====================================================================== */

/* ------------------------------------------------------ sliced search -- */

/* Detail bits of a finished sliced search. */
#define WF_DETAIL_PARTIAL 1u  /* the path ends at the expanded node nearest the
                                 goal, not in the goal */
#define WF_DETAIL_CAPPED  2u  /* the search stopped at its expansion cap */

/* Starts a search for q without expanding anything. max_expansions is the
 * search's own cap (0: none); partial 1 makes a search that stops without
 * reaching the goal (cap hit or open list exhausted) end with the path to
 * the expanded node nearest the goal. Returns WF_OK when the search is
 * running, otherwise the same early outcome or error wf_search_run would
 * give (nothing is running then). The grid must not change until
 * wf_search_finish or wf_search_cancel; s runs one search at a time. */
wf_status wf_search_begin(wf_search *s, const wf_grid *g, const wf_query *q,
                          uint64_t max_expansions, int partial);
/* Expands at most budget more nodes. *used receives the expansions done;
 * *finished becomes 1 once the search has ended (goal reached, cap hit or
 * open list exhausted). Returns WF_ERR_ARG when no search is running, and
 * WF_ERR_NOMEM when JPS's jump planes cannot be made (nothing expanded; the
 * search stays running, to be stepped again or cancelled). */
wf_status wf_search_step(wf_search *s, uint64_t budget, uint64_t *used,
                         int *finished);
/* After wf_search_step reported finished: WF_OK with the path in *out (and
 * WF_DETAIL_* bits in *details, NULL allowed), or WF_NO_PATH (details say
 * WF_DETAIL_CAPPED when the cap, not the map, ended it). out->expanded is
 * the search's total. The search is then idle. */
wf_status wf_search_finish(wf_search *s, wf_path *out, unsigned *details);
/* Abandons a running search (no-op when idle). */
void wf_search_cancel(wf_search *s);
/* wf_search_run with an expansion cap and partial results in one call
 * (begin, one unlimited step, finish); details as wf_search_finish. */
wf_status wf_search_run_ex(wf_search *s, const wf_grid *g, const wf_query *q,
                           uint64_t max_expansions, int partial,
                           wf_path *out, unsigned *details);

/* ------------------------------------------------ hierarchical regions -- */

typedef struct wf_hier wf_hier;

#define WF_HIER_CHUNK_DEFAULT 32  /* [navcells] see docs/scale.md for why */
#define WF_HIER_CHUNK_MIN     4
#define WF_HIER_CHUNK_MAX     256

/* Labels every class of g with chunks of chunk x chunk navcells
 * ([WF_HIER_CHUNK_MIN, WF_HIER_CHUNK_MAX]). *out owns the labels; they
 * follow g's later edits through wf_hier_sync. */
wf_status wf_hier_create(wf_hier **out, const wf_grid *g, int chunk);
void wf_hier_destroy(wf_hier *h);                  /* NULL is fine */
/* Brings the labels up to date with g: relabels the chunks that meet the
 * rectangles g recomputed since the last sync (all of them when g's change
 * log no longer reaches back) and relinks the components. Cheap when g has
 * not changed. On failure the labels are marked stale and the next sync
 * relabels everything. Every query below syncs first. */
wf_status wf_hier_sync(wf_hier *h, const wf_grid *g);
/* Call after editing g: syncs now when g's change log would otherwise
 * forget changes h has not seen (which would force a full relabel). */
wf_status wf_hier_note(wf_hier *h, const wf_grid *g);
/* Labels everything again from scratch. */
wf_status wf_hier_relabel(wf_hier *h, const wf_grid *g);
int wf_hier_chunk(const wf_hier *h);
size_t wf_hier_memory(const wf_hier *h);       /* bytes owned */

typedef struct wf_hier_stats {
    int chunk;            /* [navcells] chunk side */
    int chunks;           /* chunks across the grid */
    uint32_t regions;     /* regions of the class, all chunks */
    uint32_t components;  /* connected components of the class */
} wf_hier_stats;
wf_status wf_hier_stats_of(wf_hier *h, const wf_grid *g, int cls,
                           wf_hier_stats *out);

/* Component of navcell (x, y) for cls in *id: 0 when the navcell is not
 * passable, otherwise an id >= 1 shared by exactly the navcells connected
 * to it. Ids are canonical for a given grid state (the same after an
 * incremental update as after a full relabel) but change with edits. */
wf_status wf_hier_component(wf_hier *h, const wf_grid *g, int cls, int x,
                            int y, uint32_t *id);
/* *out = 1 when both navcells are passable for cls and connected. */
wf_status wf_hier_reachable(wf_hier *h, const wf_grid *g, int cls, int ax,
                            int ay, int bx, int by, int *out);

/* "Nearest" below always means: the smallest squared Euclidean distance
 * from the navcell's centre (i + 1/2, j + 1/2) to a target point, computed
 * exactly in Q16.16; ties go to the lower row j, then the lower column i. */

/* The passable navcell (for cls) nearest the centre of navcell (x, y),
 * which is (x, y) itself when passable. WF_NO_PATH when cls has no
 * passable navcell at all. */
wf_status wf_hier_nearest_passable(wf_hier *h, const wf_grid *g, int cls,
                                   int x, int y, int *ox, int *oy);
/* From passable start (sx, sy): when some navcell of the goal (clipped to
 * the grid) is reachable, the reachable goal navcell nearest the start's
 * centre with *inside = 1; otherwise the reachable navcell nearest the
 * goal's centre (goal->x, goal->y) with *inside = 0. WF_START_OUTSIDE or
 * WF_START_BLOCKED when the start is off the grid or not passable. */
wf_status wf_hier_nearest_reachable(wf_hier *h, const wf_grid *g, int cls,
                                    int sx, int sy, const wf_goal *goal,
                                    int *ox, int *oy, int *inside);

/* Preparing a query: what find_path and the queue do before searching. */
#define WF_PREP_ESCAPE  1u  /* a start on an impassable navcell first moves
                               straight to the nearest passable navcell */
#define WF_PREP_REWRITE 2u  /* an unreachable goal becomes a point goal on
                               the reachable navcell nearest its centre */
typedef struct wf_prepared {
    int escaped;          /* 1: q's start was moved to (ex, ey) */
    int ex, ey;
    int ox, oy;           /* the original start navcell */
    int rewritten;        /* 1: q's goal was replaced by navcell (rx, ry) */
    int rx, ry;
} wf_prepared;
/* Applies the flags to q in place and reports what it did. Returns WF_OK,
 * or an expected outcome that makes searching pointless: WF_START_OUTSIDE,
 * WF_START_BLOCKED (start impassable and escape off, or no passable
 * navcell at all). Goal problems are left to the search when rewriting is
 * off. */
wf_status wf_hier_prepare(wf_hier *h, const wf_grid *g, wf_query *q,
                          unsigned flags, wf_prepared *out);

/* ------------------------------------------------ shared-goal fields -- */

typedef struct wf_field wf_field;

/* A field for grids of g's size: 1 byte per navcell. */
wf_status wf_field_create(wf_field **out, const wf_grid *g);
void wf_field_destroy(wf_field *f);                /* NULL is fine */
size_t wf_field_memory(const wf_field *f);
/* Starts computing the distance field of goal for cls: a Dijkstra search
 * from every passable goal navcell at once, using s's scratch (s runs one
 * search or field at a time). WF_GOAL_OUTSIDE when no goal navcell is on
 * the grid; a goal with no passable navcell gives an empty field. */
wf_status wf_field_begin(wf_field *f, wf_search *s, const wf_grid *g, int cls,
                         const wf_goal *goal);
/* Settles at most budget more navcells; *finished = 1 once the whole
 * component(s) of the goal are settled (the field is then complete and no
 * longer needs s). */
wf_status wf_field_step(wf_field *f, uint64_t budget, uint64_t *used,
                        int *finished);
/* 1 when the field is complete for grid version `version`. */
int wf_field_ready(const wf_field *f, uint64_t version);
/* An optimal path from (sx, sy) to the goal read from a complete field, into
 * s's path buffers (valid until s's next use). WF_NO_PATH when (sx, sy) is
 * not connected to the goal. out->expanded is 0. */
wf_status wf_field_path(const wf_field *f, wf_search *s, const wf_grid *g,
                        int sx, int sy, int smooth, wf_path *out);

/* ------------------------------------------------------ request queue -- */

typedef struct wf_queue wf_queue;

#define WF_REQ_PARTIAL 4u   /* with WF_PREP_*: return partial paths */
#define WF_REQ_SHARED  8u   /* serve from the goal's shared field */

typedef struct wf_request {
    wf_query q;               /* start navcell, goal, class, algorithm, smooth */
    uint64_t max_expansions;  /* 0: none; the search's own cap */
    unsigned flags;           /* WF_PREP_ESCAPE | WF_PREP_REWRITE |
                                 WF_REQ_PARTIAL | WF_REQ_SHARED */
} wf_request;

typedef enum wf_req_state {
    WF_REQ_PENDING = 0,
    WF_REQ_DONE = 1,
    WF_REQ_FAILED = 2,
    WF_REQ_CANCELLED = 3
} wf_req_state;

typedef struct wf_result {
    wf_status status;         /* WF_OK, or why it failed */
    unsigned details;         /* WF_DETAIL_* */
    int n;                    /* waypoints, the original start first */
    const int32_t *x, *y;     /* owned by the queue until the release */
    int64_t cost;             /* grid cost of the searched part */
    int64_t escape_length;    /* [Q16.16] straight escape, 0 if none */
    uint64_t expanded;        /* expansions this request paid for */
    wf_algorithm algorithm;   /* search used (AUTO when served by a field) */
    int shared;               /* 1: read from a shared field */
    wf_prepared prep;
} wf_result;

/* A queue for grids of g's size (it owns one wf_search). max_fields
 * [1, 1024] shared fields are kept, least recently used dropped first. */
wf_status wf_queue_create(wf_queue **out, const wf_grid *g, int max_fields);
void wf_queue_destroy(wf_queue *q);                /* NULL is fine */
size_t wf_queue_memory(const wf_queue *q);
/* Appends a request; *handle identifies it (a stale handle is detected). */
wf_status wf_queue_submit(wf_queue *q, const wf_request *rq, uint64_t *handle);
/* Serves requests in submission order, resuming the one in progress, until
 * budget expansions are spent or nothing is pending. Work that needs no
 * expansion (preparing, reading a ready field) is free. When g changed
 * since the request in progress started, it starts over. *used receives
 * the expansions spent, *served the requests that finished. */
wf_status wf_queue_run(wf_queue *q, const wf_grid *g, wf_hier *h,
                       uint64_t budget, uint64_t *used, uint32_t *served);
/* State of a request; WF_ERR_NOTFOUND for an unknown or released handle. */
wf_status wf_queue_state(const wf_queue *q, uint64_t handle,
                         wf_req_state *state);
/* The outcome of a done or failed request (valid until it is released). */
wf_status wf_queue_result(const wf_queue *q, uint64_t handle,
                          wf_result *out);
/* Cancels a pending request (*was_pending = 1) or does nothing. */
wf_status wf_queue_cancel(wf_queue *q, uint64_t handle, int *was_pending);
/* Forgets a request (cancelling it if pending) and frees its result. */
wf_status wf_queue_release(wf_queue *q, uint64_t handle);
/* Requests still pending. */
uint32_t wf_queue_pending(const wf_queue *q);

/* Quick then full: splicing a full path into a quick one where the agent
 * stands. Both paths are waypoint lists from the same start navcell whose
 * segments are straight or diagonal (unsmoothed search paths). The agent
 * stands on navcell (ax, ay) of the quick path (its first occurrence
 * counts). Among the quick path's navcells at or before the agent that lie
 * on the full path, the splice takes the one that makes the rest cheapest
 * (walking back along the quick path to it, then the full path on from its
 * first occurrence there; ties to the navcell nearest the agent). The
 * result lists every navcell from the agent to the full path's end;
 * back is the number of steps walked back (0: the agent stands on the full
 * path and the rest is the full path's own tail), cost_units the rest's
 * cost (2^25 a straight step, 47453132 a diagonal). WF_ERR_ARG when a
 * segment is neither straight nor diagonal, the starts differ, a path is
 * empty or longer than 2^26 navcells, or the agent is not on the quick
 * path. Free the result with wf_splice_free. */
typedef struct wf_splice {
    int32_t *x, *y;
    int n;
    int back;
    int joint;          /* wf_path_join only: index of the joint in x, y */
    int64_t cost_units;
} wf_splice;
wf_status wf_path_splice(const int32_t *qx, const int32_t *qy, int qn,
                         const int32_t *fx, const int32_t *fy, int fn,
                         int32_t ax, int32_t ay, wf_splice *out);
void wf_splice_free(wf_splice *s);                 /* NULL is fine */

/* Joins a quick path and its continuation (quick then full, continued from
 * the quick path's end): both are waypoint lists with straight or diagonal
 * segments, and the continuation (cx, cy, cn) starts on the quick path's
 * last navcell. For an agent on navcell (ax, ay) of the quick path (its
 * first occurrence counts) the result lists every navcell from the agent
 * along the quick path to its end, then the continuation from its second
 * navcell on: the joint navcell appears once, at index joint. back is 0,
 * cost_units the cost of all the steps (same units as wf_path_splice):
 * the rest of the quick path plus the continuation. Valid wherever both
 * inputs are; not promised optimal. WF_ERR_ARG when a segment is neither
 * straight nor diagonal, a path is empty or longer than 2^26 navcells (or
 * the result would be), the continuation does not start at the quick
 * path's end, or the agent is not on the quick path. Free the result with
 * wf_splice_free. */
wf_status wf_path_join(const int32_t *qx, const int32_t *qy, int qn,
                       const int32_t *cx, const int32_t *cy, int cn,
                       int32_t ax, int32_t ay, wf_splice *out);


/* -------------------------------------------------------------- walker -- */
/* The walker: route following for house worlds (walker.c).
 *
 * A walker holds a width x height grid of tiles (1 tile = 1 world unit) with
 * thin walls on tile edges, doors over some wall edges, static boxes
 * (furniture that cannot be walked over) and people. Each person is a square
 * of half size `half` centred on its position, with a speed in world units
 * per tick and, while walking, a route: a list of points and the index of
 * the current sub-goal. wf_walker_step moves every walking person once, in
 * increasing id order (the object-list order of the Lua world):
 *   - the person steps toward its sub-goal by its speed; when the sub-goal
 *     is within one step it is placed on it and the index advances (at most
 *     one sub-goal per tick); after the last point the route is done;
 *   - the step is refused (the person stays, the route is dropped and a
 *     WF_MOVE_BLOCKED event names the blocker) when the centre's segment
 *     crosses a wall edge that is not an open door, the square newly leaves
 *     the world, or the step meets a stopping wall edge, a box or another
 *     person by the swept rule of the units (wf_sweep_box): each thing is
 *     grown by the mover's half size less 2^-16; a step starting inside or
 *     on it never collides (people placed touching or overlapping can
 *     always separate), one ending inside or on it does, otherwise the
 *     segment is tested exactly. The 2^-16 makes overlap that of open
 *     interiors on the fixed-point lattice, so squares that only touch do
 *     not collide.
 *   - with motion options (wf_walker_set_motion), before the step: the
 *     look-ahead skip, the corner curve, the bounded turn and the speed
 *     ramps of motion.h (docs/world.md, "Motion options"); the step is
 *     then that tick's length instead of the speed;
 *   - among several blockers the wall (or world border) wins, reported as
 *     blocker 0, or as the door's id when the edge holds a closed door;
 *     otherwise the lowest id among boxes and people.
 * People are tested against the positions others hold at that moment, so
 * earlier ids move first and later ones see where they went.
 *
 * Edges: vertical edge (x, y), x in [0, width], y in [0, height), is the unit
 * segment from (x, y) to (x, y + 1); horizontal edge (x, y), x in
 * [0, width), y in [0, height], runs from (x, y) to (x + 1, y). The world's
 * border always blocks. Facings are 0..7: east (+x), south-east, south (+y),
 * south-west, west, north-west, north (-y), north-east.
 *
 * Memory: 1 byte per edge, 4 bytes per tile for the box index, about 60
 * bytes per person plus 8 bytes per route point.
 */

#define WF_WALKER_MAX_SIDE   4096          /* [tiles] largest width or height */
#define WF_WALKER_MAX_TILES  ((int64_t)1 << 22)  /* largest width*height */
#define WF_WALKER_MAX_POINTS 65536         /* points in one route */
#define WF_WALKER_MAX_HALF   WF_FIX_HALF   /* [fixed] largest person half size */

typedef struct wf_walker wf_walker;

typedef enum wf_move_kind {
    WF_MOVE_ARRIVED = 1,   /* the last point of the route was reached */
    WF_MOVE_BLOCKED = 2    /* a step was refused; the route is dropped */
} wf_move_kind;

typedef struct wf_move_event {
    uint32_t id;           /* the person */
    int kind;              /* wf_move_kind */
    uint32_t blocker;      /* object id, 0 for a wall or the world border */
} wf_move_event;

typedef struct wf_person_state {
    wf_fix x, y;           /* [fixed] position (centre) */
    wf_fix half;           /* [fixed] half size of the square, (0, 0.5] */
    wf_fix speed;          /* [fixed] world units per tick, (0, 1] */
    int facing;            /* [0, 8) */
    int walking;           /* 1 while a route is being followed */
    int index;             /* current sub-goal, [1, npoints) while walking */
    int npoints;           /* points of the route (0 when none) */
} wf_person_state;

/* A person's route-following options (docs/world.md, "Motion options"),
 * the same concepts as the unit options of the same names; all 0 (the
 * default of a new person) gives the walk described above. */
typedef struct wf_walker_motion {
    wf_fix accel;          /* [fixed per tick] most the step length changes
                              in a tick, (0, 1]; 0: full speed at once */
    int64_t turn_rate;     /* [2^-40 rad per tick] most the heading turns in
                              a tick, (0, pi]; 0: facing snaps to the step */
    wf_fix arrive_radius;  /* [fixed] slows inside this length of the end of
                              the route, [0, 4096]; 0: none */
    int lookahead;         /* 1: skip a sub-goal when the next is in sight */
    wf_fix corner_radius;  /* [fixed] rounds corners by a curve that fits,
                              [0, WF_CORNER_MAX_RADIUS = 16]; 0: sharp */
} wf_walker_motion;

/* A person's motion state: what a save must carry to resume exactly. */
typedef struct wf_walker_motion_state {
    wf_fix cur;            /* [fixed per tick] step length now, [0, speed] */
    wf_fix hx, hy;         /* heading, a Q16.16 unit vector */
    int bend;              /* last route point of the corner curve being
                              followed, -1 (none) to npoints */
} wf_walker_motion_state;

/* Creates an empty walker: no walls, boxes or people. Sides in
 * [1, WF_WALKER_MAX_SIDE], width*height <= WF_WALKER_MAX_TILES. */
wf_status wf_walker_create(wf_walker **out, int width, int height);
void wf_walker_destroy(wf_walker *wk);                 /* NULL is fine */
int wf_walker_width(const wf_walker *wk);
int wf_walker_height(const wf_walker *wk);

/* Sets or clears the wall on an edge (vertical 1 or 0). */
wf_status wf_walker_set_wall(wf_walker *wk, int vertical, int x, int y,
                             int wall);
/* 1 when the edge holds a wall (the border is not reported). */
int wf_walker_wall(const wf_walker *wk, int vertical, int x, int y);
/* Puts door `door` (> 0) over an edge, open (1, crossable even with a wall)
 * or closed (0, blocks and is reported as the blocker); door 0 removes the
 * door from the edge. */
wf_status wf_walker_set_door(wf_walker *wk, int vertical, int x, int y,
                             uint32_t door, int open);

/* Adds or moves the static box `id` (> 0): [x0, x1] x [y0, y1], fixed. */
wf_status wf_walker_set_box(wf_walker *wk, uint32_t id, wf_fix x0, wf_fix y0,
                            wf_fix x1, wf_fix y1);
/* WF_ERR_NOTFOUND when there is no such box. */
wf_status wf_walker_remove_box(wf_walker *wk, uint32_t id);

/* Adds person `id` (> 0, not yet used by a person) standing at (x, y),
 * which must lie inside the world. half in (0, WF_WALKER_MAX_HALF], speed in
 * (0, WF_FIX_ONE], facing in [0, 8). */
wf_status wf_walker_add_person(wf_walker *wk, uint32_t id, wf_fix x, wf_fix y,
                               wf_fix half, wf_fix speed, int facing);
wf_status wf_walker_remove_person(wf_walker *wk, uint32_t id);
/* Moves a person without any test and drops its route. */
wf_status wf_walker_place_person(wf_walker *wk, uint32_t id, wf_fix x, wf_fix y,
                                 int facing);
wf_status wf_walker_set_speed(wf_walker *wk, uint32_t id, wf_fix speed);
/* Gives a person a route of n points (xy: x0, y0, x1, y1, ... fixed, copied)
 * and the index of the first sub-goal, index in [0, n]; n in
 * [1, WF_WALKER_MAX_POINTS], every point inside the world. The person walks
 * from the next step on; index == n means the route is done at the next
 * step. */
wf_status wf_walker_set_route(wf_walker *wk, uint32_t id, const wf_fix *xy,
                              int n, int index);
/* Sets a person's motion options (WF_ERR_ARG for one out of range, and
 * nothing changes). Turning turn_rate on starts the heading from the
 * facing. */
wf_status wf_walker_set_motion(wf_walker *wk, uint32_t id,
                               const wf_walker_motion *m);
/* Reads a person's motion options and state (either may be NULL). */
wf_status wf_walker_motion_of(const wf_walker *wk, uint32_t id,
                              wf_walker_motion *m, wf_walker_motion_state *st);
/* Restores a person's motion state (after its route): WF_ERR_ARG when cur
 * is outside [0, speed], the heading is zero or a component exceeds 1, or
 * bend is outside [-1, npoints]. */
wf_status wf_walker_set_motion_state(wf_walker *wk, uint32_t id,
                                     const wf_walker_motion_state *st);
/* Drops the route: the person stands still (no event). */
wf_status wf_walker_stop(wf_walker *wk, uint32_t id);
wf_status wf_walker_person(const wf_walker *wk, uint32_t id,
                           wf_person_state *out);
/* The current route's points (x, y pairs), owned by the walker and valid
 * until the person's route or the walker changes; *n is 0 when none. */
wf_status wf_walker_route(const wf_walker *wk, uint32_t id, const wf_fix **xy,
                          int *n);
/* Local avoidance of wf_walker_step (docs/world.md, "Crowds"): NONE drops
 * a walk at its first refused step; SIDESTEP first tries the sidestep fan
 * (the step turned 22.5, 45, 67.5 degrees right, then left, only when it
 * brings the person strictly nearer its sub-goal) and shoves a standing
 * person aside. */
#define WF_WALKER_AVOID_NONE 0
#define WF_WALKER_AVOID_SIDESTEP 1
wf_status wf_walker_set_avoidance(wf_walker *wk, int mode);
int wf_walker_avoidance(const wf_walker *wk);
size_t wf_walker_person_count(const wf_walker *wk);
/* The id of the k-th person in id order, k in [0, count). */
uint32_t wf_walker_person_id(const wf_walker *wk, size_t k);

/* One tick for every walking person (see above). Writes at most one event
 * per person into events (capacity cap; WF_ERR_ARG when cap is below the
 * number of walking people) and sets *count. */
wf_status wf_walker_step(wf_walker *wk, wf_move_event *events, size_t cap,
                         size_t *count);

/* Sets *is_free to 1 when a square of half size `half` at (x, y) overlaps
 * no wall edge, border, box or person other than `ignore`; otherwise to 0
 * with *blocker set as for a blocked step (blocker may be NULL; 0 when
 * free). Rebuilds the box index when boxes changed: WF_ERR_NOMEM when that
 * allocation fails (nothing is answered then), WF_ERR_ARG for a NULL h or
 * is_free, else WF_OK. */
wf_status wf_walker_square_free(wf_walker *wk, wf_fix x, wf_fix y, wf_fix half,
                                uint32_t ignore, int *is_free,
                                uint32_t *blocker);

/* ------------------------------------------- fixed-point trigonometry -- */
/* Angles cross into the core as integers so that no result depends on a C
 * library's sin or cos. */

#define WF_ANGLE_ONE ((int64_t)1 << 40)  /* one radian in angle units */
#define WF_ANGLE_MAX ((int64_t)1000000 << 40) /* |angle| <= 10^6 radians */

/* The unit vector (cos a, sin a) in Q16.16 for an angle a in units of
 * 2^-40 radian, |a| <= WF_ANGLE_MAX (WF_ERR_ARG otherwise). Integer
 * arithmetic only: a quadrant reduction by pi/2 rounded to 2^-40 and Taylor
 * series in Q30; each component is within 0.51/65536 of the exact value
 * (at most 1 from lround(cos(a) * 65536)). */
wf_status wf_fix_sincos(int64_t angle, wf_fix *ux, wf_fix *uy);


/* ---------------------------------------------------- swept collision -- */
/* One collision rule for everything that moves (sweep.c): a move is the
 * closed segment from its start A to its end B, in Q16.16.
 *
 * Against a unit: the other unit's axis-aligned square, grown by the
 * mover's own radius, is the closed square of half size h round (cx, cy).
 * A move that starts inside or on that square never collides with it (so
 * overlapping units can always separate); one that ends inside or on it
 * always does; otherwise it collides when the segment meets the square.
 * Every test is exact integer arithmetic with 64-bit intermediates.
 *
 * Against the grid: a move collides when any navcell whose closed square
 * meets the closed segment is not passable for the class (navcells off
 * the grid are not passable). A segment through a navcell corner meets all
 * four navcells round it, so a diagonal move needs both orthogonal
 * neighbours passable: the search's diagonal rule, and the rule of
 * wf_grid_line_of_sight. The work is one column test per navcell column
 * the segment spans plus one test per navcell it meets. */

#define WF_SWEEP_MAX_STEP  WF_FIX(256)   /* [fixed] largest |bx-ax|, |by-ay| */
#define WF_SWEEP_MAX_HALF  WF_FIX(256)   /* [fixed] largest square half size */

/* *hit = 1 when the move A -> B collides with the closed square of half
 * size h centred on (cx, cy) by the rule above, else 0. WF_ERR_ARG when
 * |bx - ax| or |by - ay| exceeds WF_SWEEP_MAX_STEP, h is outside
 * [0, WF_SWEEP_MAX_HALF], or |cx - ax|, |cy - ay| exceed 2^30. */
wf_status wf_sweep_square(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by,
                          wf_fix cx, wf_fix cy, wf_fix h, int *hit);

/* 1 when the closed segment A -> B and the closed axis-aligned box
 * [x0, x1] x [y0, y1] share a point (no start or end rule); same limits on
 * the step, and the box must lie within 2^30 of A and have x0 <= x1,
 * y0 <= y1 (0 otherwise). The primitive under wf_sweep_square. */
int wf_segment_meets_box(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by,
                         wf_fix x0, wf_fix y0, wf_fix x1, wf_fix y1);

/* The same rule against the closed box [x0, x1] x [y0, y1] (a wall or a
 * piece of furniture grown by the mover's half size): 0 when A lies inside
 * or on it, 1 when B does, else wf_segment_meets_box. 0 for an empty box
 * (x0 > x1 or y0 > y1); same limits as wf_segment_meets_box. */
int wf_sweep_box(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by, wf_fix x0,
                 wf_fix y0, wf_fix x1, wf_fix y1);

/* *hit = 1 when the move A -> B meets a navcell not passable for cls (see
 * above); then (*hx, *hy) is the first such navcell met, columns taken
 * from A's side, and in a column rows from A's side (hx, hy may be NULL).
 * WF_ERR_ARG for a bad class or a step longer than WF_SWEEP_MAX_STEP. */
wf_status wf_sweep_grid(const wf_grid *g, int cls, wf_fix ax, wf_fix ay,
                        wf_fix bx, wf_fix by, int *hit, int *hx, int *hy);

/* 1 when every navcell whose closed square holds (x, y) is passable for
 * cls (one to four navcells): where a mover may stand, since any move
 * from a point touching a blocked navcell meets it. 0 for a bad class. */
int wf_sweep_point_clear(const wf_grid *g, int cls, wf_fix x, wf_fix y);

/* ------------------------------------------------- building placement -- */
/* Building placement (placement.c): an over-estimate of the footprint, so a
 * building never hangs over a cliff or the water the class refuses and
 * keeps a margin from other obstructions. Every navcell that touches the
 * closed footprint grown by margin on each side must be passable for cls
 * (which already holds terrain, clearance and rasterized obstructions).
 * *ok = 1 when so; otherwise *ok = 0 and (*bx, *by) is the first navcell
 * that fails, row by row from the lowest, then column by column (off the
 * grid counts as failing). WF_ERR_ARG for a bad class or margin
 * (outside [0, WF_FIX(64)]). */
wf_status wf_grid_check_building(const wf_grid *g, const wf_shape *footprint,
                                 int cls, wf_fix margin, int *ok, int *bx,
                                 int *by);

/* ----------------------------------------------- vertex pathfinder -- */
/* A short-range points-of-visibility pathfinder (vertex.c), for going
 * round nearby units and small gaps in the grid. It works in a box of
 * half size `range` round the start and sees the world as
 *   - the navcells of the grid not passable for the class (their outline
 *     edges: every navcell edge between a blocked and a passable navcell,
 *     navcells off the grid blocked), and
 *   - axis-aligned squares (other units' squares, already grown by the
 *     mover's radius) whose edges are single-sided: a segment that starts
 *     inside or on a square may leave it, one that ends inside or on it is
 *     blocked (the swept rule of wf_sweep_square).
 * Vertices are the start, the convex corners of the blocked navcells
 * (corners where exactly one of the four navcells round them is blocked)
 * and the corners of the squares, each moved WF_VERTEX_DELTA outward along
 * the diagonal so that paths pass corners without touching them, and
 * points on the goal. Two vertices see each other when the segment
 * between them passes the swept tests (wf_sweep_grid, wf_sweep_square):
 * one exact rule shared with every walker. A* over the vertices (costs
 * are integer Euclidean lengths in Q16.16, ties to the lower vertex
 * index) finds the shortest such polyline to the goal: a point goal is
 * one vertex; a circle or square goal is reached at any vertex inside it
 * or, from each vertex expanded, at the nearest point of the shape.
 *
 * Speed: a visibility test reads only the navcells the segment crosses and
 * the squares in the buckets of WF_VERTEX_BUCKET navcells it crosses (a
 * square is listed in every bucket it meets), so its cost grows with the
 * segment's length and the squares near it, not with the number of
 * edges. A* tests each expanded vertex against the vertices still open:
 * O(expanded x vertices) visibility tests at worst, which is what a goal
 * that cannot be reached costs (every vertex is expanded); max_expanded
 * bounds it. The brute mode gathers every edge in the box
 * and tests each segment against all of them (the reference's approach,
 * kept as the benchmark's baseline); both modes give the same answers. */

#define WF_VERTEX_DELTA      (WF_FIX_ONE / 16)  /* [fixed] corner offset */
#define WF_VERTEX_MAX_RANGE  WF_FIX(64)         /* [fixed] box half size */
#define WF_VERTEX_BUCKET     2                  /* [navcells] square buckets */

typedef struct wf_vertex wf_vertex;

typedef struct wf_vertex_square {
    wf_fix x, y, half;    /* centre and half size, grown by the mover */
} wf_vertex_square;

typedef struct wf_vertex_query {
    int cls;              /* class index */
    wf_fix x, y;          /* start; must touch only passable navcells */
    wf_goal goal;         /* point, circle or square */
    wf_fix range;         /* [fixed] box half size (0, WF_VERTEX_MAX_RANGE] */
    int brute;            /* 1: test every edge (the baseline) */
    int max_expanded;     /* stop after this many vertices expanded (the
                             path then ends at the nearest expanded one);
                             0: no limit */
} wf_vertex_query;

typedef struct wf_vertex_stats {
    int vertices;         /* vertices made */
    int expanded;         /* vertices taken off the open list */
    uint64_t tests;       /* visibility tests */
    int edges;            /* edges gathered (brute mode only) */
} wf_vertex_stats;

/* 1 when the point (x, y) is in the goal: equal to a point goal, in the
 * closed circle or square, or for an inverted one outside the open shape.
 * Exact. */
int wf_goal_point_inside(const wf_goal *goal, wf_fix x, wf_fix y);

/* Scratch for up to max_vertices vertices [16, 65536]. */
wf_status wf_vertex_create(wf_vertex **out, int max_vertices);
void wf_vertex_destroy(wf_vertex *v);               /* NULL is fine */
size_t wf_vertex_memory(const wf_vertex *v);

/* Finds the shortest path. WF_OK with *n >= 1 points in *xy (x, y pairs,
 * the start first, owned by v until its next use) and *reached = 1 when
 * the path ends in the goal; *reached = 0 when the goal cannot be reached
 * inside the box (or out of vertices: corners are kept in scan order, row
 * by row, then the squares' in input order) and the path ends instead at
 * the expanded vertex nearest the goal (least heuristic, then lower
 * index). WF_NO_PATH when that vertex is the start itself;
 * WF_START_BLOCKED when the start touches a blocked navcell; WF_ERR_ARG
 * for a bad class, range or square (half size outside
 * [0, WF_SWEEP_MAX_HALF], centre farther than 4 * WF_VERTEX_MAX_RANGE);
 * WF_ERR_NOMEM. */
wf_status wf_vertex_find(wf_vertex *v, const wf_grid *g,
                         const wf_vertex_query *q, const wf_vertex_square *sq,
                         int nsq, const wf_fix **xy, int *n, int *reached,
                         wf_vertex_stats *stats);

/* The edges a query sees, for drawing and checking: visit(ctx, x0, y0,
 * x1, y1) [fixed] for each, first the outline of the navcells not
 * passable for q->cls that meet the box grown by one navcell (every
 * navcell edge between a blocked and a passable navcell, navcells off the
 * grid blocked; row by row, each navcell's bottom, top, left, right side),
 * then the four sides of each square in input order: exactly the edges
 * the brute mode gathers (wf_vertex_stats.edges counts them). Needs no
 * scratch. WF_ERR_ARG as wf_vertex_find, or for a NULL visit. */
typedef void (*wf_vertex_edge_fn)(void *ctx, wf_fix x0, wf_fix y0, wf_fix x1,
                                  wf_fix y1);
wf_status wf_vertex_edges(const wf_grid *g, const wf_vertex_query *q,
                          const wf_vertex_square *sq, int nsq,
                          wf_vertex_edge_fn visit, void *ctx);

/* --------------------------------------------------------------- units -- */
/* A unit simulation over a grid (units.c): RTS units with a position, a
 * class of the grid, a radius (their axis-aligned square's half size) and
 * a speed, ordered to goals and moved tick by tick with the swept rule
 * above.
 *
 * ONE TICK (wf_units_tick)
 *   1. The request queue serves path requests, oldest first, for at most
 *      the configured budget of node expansions.
 *   2. Every unit, in increasing id order, then:
 *      - escapes when its position touches a navcell not passable for its
 *        class: it walks straight (ignoring the grid, never into a unit)
 *        to the centre of the nearest passable navcell, then plans again;
 *      - takes its path when its request is done (or fails with the
 *        request's reason);
 *      - moves up to its speed along its waypoints. Each stretch is swept
 *        against the grid and against every other unit's square grown by
 *        its radius (found through a uniform bucket grid, so the cost is
 *        the units nearby, not all of them). A unit blocked by a unit
 *        before moving at all asks the vertex pathfinder (wf_vertex_find,
 *        box of short_range navcells, the other units' squares grown by
 *        its radius) for a way round to its next waypoint, puts that
 *        detour in front of its waypoints and tries once more; still
 *        blocked, it stays where it is and waits; after max_wait ticks in
 *        a row it fails "blocked".
 *   Later units see earlier units' new positions: id order is the
 *   documented tie-break. An order also fails ("timeout") when it has
 *   lasted max_order_ticks ticks, so every order ends within that bound.
 *
 * A unit starts (wf_units_add) on a passable navcell, apart from every
 * other unit's square grown by its radius + 1/8 (WF_UNIT_GAP); the swept
 * rule then keeps every two units apart: |dx| > r1 + r2 or |dy| > r1 + r2.
 * Waypoints are navcell centres of a smoothed grid path (they see each
 * other under the grid rule), ending at the exact goal point for a point
 * goal. Memory: about 170 bytes per unit of capacity, 4 bytes per bucket,
 * 8 bytes per waypoint held, and the queue (one wf_search). */

typedef struct wf_units wf_units;

#define WF_UNITS_MAX        (1u << 20)      /* largest capacity */
#define WF_UNIT_MAX_RADIUS  WF_FIX(8)       /* [fixed] radius in (0, 8] */
#define WF_UNIT_MAX_SPEED   WF_FIX(16)      /* [fixed] speed in (0, 16] */
#define WF_UNIT_GAP         (WF_FIX_ONE / 8)/* [fixed] spacing when placed */

typedef struct wf_units_config {
    uint32_t capacity;    /* most units at once [1, WF_UNITS_MAX] */
    uint64_t budget;      /* node expansions per tick for paths [1, 2^53] */
    int max_wait;         /* [ticks] a blocked unit waits [0, 1000000] */
    int max_order_ticks;  /* [ticks] an order's lifetime [1, 100000000] */
    int bucket;           /* [navcells] spatial index bucket side [1, 256] */
    int brute;            /* 1: test every unit (the benchmark's baseline) */
    int short_range;      /* [navcells] vertex pathfinder box half size when
                             blocked [0, 64]; 0: never, just wait */
    /* Options that change motion; their defaults (all 0) keep it as above. */
    int avoidance;        /* WF_AVOID_NONE, _VELOCITY (avoid.h) or _ORCA (orca.h) */
    wf_fix accel;         /* [fixed per tick] most a unit's speed changes in
                             a tick, (0, 16]; 0: none (full speed at once) */
    int64_t turn_rate;    /* [2^-40 rad per tick] most a unit's heading
                             turns in a tick, (0, pi]; 0: none */
    wf_fix arrive_radius; /* [fixed] slows down inside this distance of the
                             end of its path, [0, 1024]; 0: none */
    int lookahead;        /* 1: skip a waypoint the next one is in sight */
    wf_fix corner_radius; /* [fixed] rounds corners of the way by a curve
                             that fits the grid, [0, 16]; 0: sharp */
} wf_units_config;

#define WF_AVOID_NONE 0
#define WF_AVOID_VELOCITY 1     /* the sampled velocity obstacle of avoid.c */
#define WF_AVOID_ORCA 2         /* reciprocal half-planes of orca.c */
#define WF_UNIT_STALL_TICKS 8   /* ticks without progress that make a stall */

/* capacity 4096, budget 20000, max_wait 20, max_order_ticks 100000,
 * bucket 8, brute 0, short_range 8; avoidance, accel, turn_rate,
 * arrive_radius, lookahead and corner_radius 0. */
void wf_units_config_init(wf_units_config *cfg);

/* A simulation for grids of g's size (it keeps no pointer to g: pass the
 * same grid to every call). *out owns it. */
wf_status wf_units_create(wf_units **out, const wf_grid *g,
                          const wf_units_config *cfg);
void wf_units_destroy(wf_units *u);                 /* NULL is fine */
void wf_units_config_of(const wf_units *u, wf_units_config *cfg);
size_t wf_units_memory(const wf_units *u);

typedef enum wf_unit_reason {
    WF_UNIT_FINE = 0,
    WF_UNIT_IMPASSABLE,   /* "impassable": the navcell is not passable */
    WF_UNIT_OVERLAP,      /* "overlap": too near another unit */
    WF_UNIT_OUTSIDE,      /* "outside": off the grid */
    WF_UNIT_UNREACHABLE,  /* "unreachable": got as near as it could */
    WF_UNIT_BLOCKED,      /* "blocked": waited max_wait ticks */
    WF_UNIT_STUCK,        /* "stuck": no passable navcell to escape to */
    WF_UNIT_TIMEOUT,      /* "timeout": the order lasted max_order_ticks */
    WF_UNIT_GOAL_OUTSIDE, /* "goal_outside": no navcell of the goal on the grid */
    WF_UNIT_STOPPED,      /* "stopped": replaced or stopped (not an event) */
    WF_UNIT_GOAL_TAKEN    /* "goal_taken": arrived beside a goal an idle
                           * unit stands on (avoidance only) */
} wf_unit_reason;
/* Its stable name (above); a static string. */
const char *wf_unit_reason_name(wf_unit_reason r);

typedef enum wf_unit_state {
    WF_UNIT_IDLE = 0,     /* "idle": no order */
    WF_UNIT_PLANNING,     /* "planning": waiting for its path */
    WF_UNIT_MOVING,       /* "moving": walking its waypoints */
    WF_UNIT_WAITING,      /* "waiting": blocked by a unit, waiting */
    WF_UNIT_ESCAPING      /* "escaping": leaving an impassable navcell */
} wf_unit_state;
const char *wf_unit_state_name(wf_unit_state s);

/* Whether a unit of cls and radius may stand at (x, y): WF_UNIT_FINE, or
 * why not (off the grid, a navcell not passable for cls touched by the
 * point, or inside another unit's square grown by radius + WF_UNIT_GAP;
 * ignore is a unit id to leave out, 0 for none). WF_ERR_ARG for a bad
 * class or radius. */
wf_status wf_units_check_placement(const wf_units *u, const wf_grid *g,
                                   wf_fix x, wf_fix y, int cls, wf_fix radius,
                                   uint32_t ignore, wf_unit_reason *why);
/* Adds an idle unit when the placement is fine: *id gets its id (ids
 * count up from 1 and are never reused). Otherwise WF_OK with *id = 0 and
 * *why set. WF_ERR_ARG for a bad class, radius or speed; WF_ERR_FULL at
 * capacity or when ids run out. */
wf_status wf_units_add(wf_units *u, const wf_grid *g, wf_fix x, wf_fix y,
                       int cls, wf_fix radius, wf_fix speed, uint32_t *id,
                       wf_unit_reason *why);
/* Orders a unit to a goal (replacing any order): it plans at the next
 * tick, through the queue, or for an inverted goal (wf_goal_invert: a
 * minimum range) with the vertex pathfinder in a box of short_range
 * navcells. WF_ERR_NOTFOUND for an unknown id, WF_ERR_ARG for a bad goal. */
wf_status wf_units_move(wf_units *u, uint32_t id, const wf_goal *goal);
/* The reference's range rules, so a goal shape round a target is wholly
 * reachable: against a structure MaxRange = range + clearance + 1/8
 * (clearance: the mover's class clearance, whole navcells), against a
 * unit MaxRange = range + r1 + r2 + 1/8. Exact in Q16.16 (saturating). */
wf_fix wf_max_range_structure(wf_fix range, int clearance);
wf_fix wf_max_range_unit(wf_fix range, wf_fix r1, wf_fix r2);

/* Drops the unit's order; it stays where it is. */
wf_status wf_units_stop(wf_units *u, uint32_t id);
wf_status wf_units_remove(wf_units *u, uint32_t id);

typedef struct wf_unit_info {
    uint32_t id;
    int cls;
    wf_fix x, y, radius, speed;
    wf_unit_state state;
    int has_order;        /* 1 while an order runs */
    wf_goal goal;         /* the order's goal (when has_order) */
    int wait;             /* [ticks] blocked in a row */
    int order_ticks;      /* [ticks] the order's age */
    int unreachable;      /* 1: the path ends short of the goal */
    int nway, next;       /* waypoints held, the next one's index */
    uint64_t plan_seq;    /* submission number of its pending request, 0 */
    wf_fix ex, ey;        /* escape target (when escaping) */
    /* motion state (read by avoidance and the motion options) */
    wf_fix vx, vy;        /* [fixed per tick] its last tick's displacement */
    wf_fix cur;           /* [fixed per tick] current speed, [0, speed] */
    wf_fix hx, hy;        /* heading, a Q16.16 unit vector ((1, 0) at first) */
    wf_fix best;          /* [fixed] nearest it came to its next waypoint */
    int stall;            /* [ticks] without progress in a row */
    int yield;            /* [ticks] left to give way after a stall */
    int bend;             /* index of the last waypoint of the corner curve
                             it follows, -1 (none) to nway - 1 */
} wf_unit_info;

size_t wf_units_count(const wf_units *u);
/* The k-th unit's id in id order, k in [0, count). */
uint32_t wf_units_id(const wf_units *u, size_t k);
wf_status wf_units_get(const wf_units *u, uint32_t id, wf_unit_info *out);
/* The unit's waypoints as x, y pairs (*xy valid until its next change). */
wf_status wf_units_waypoints(const wf_units *u, uint32_t id,
                             const wf_fix **xy, int *n);

typedef enum wf_unit_event_kind {
    WF_UNIT_ARRIVED = 0,  /* "arrived" */
    WF_UNIT_FAILED,       /* "failed", with a reason */
    WF_UNIT_BLOCKED_EV    /* "blocked": the first tick a unit waits */
} wf_unit_event_kind;
typedef struct wf_unit_event {
    uint32_t id;
    wf_unit_event_kind kind;
    wf_unit_reason reason;
} wf_unit_event;

/* One tick (see above), with h the grid's region labels. At most one event
 * per unit, in id order, into events (capacity cap; WF_ERR_ARG when cap is
 * below wf_units_count). */
wf_status wf_units_tick(wf_units *u, const wf_grid *g, wf_hier *h,
                        wf_unit_event *events, size_t cap, size_t *count);
uint64_t wf_units_ticks(const wf_units *u);     /* ticks run so far */

/* Spawning (the reference's PickSpawnPoint): up to n positions round the
 * footprint shape, each one where wf_units_check_placement finds it fine
 * for cls and radius and apart from the positions picked before it (as if
 * a unit stood there). Candidates lie on rings round the footprint, ring k
 * at distance radius + 1/8 + k * (2 * radius + 1/4) outside it, k in
 * [0, 8), spaced 2 * radius + 1/4 along the ring; on each ring the middle
 * of the +v side comes first (v is u turned a quarter anticlockwise: +y
 * for an unrotated footprint), then the candidates alternately on the +u
 * and the -u side of it, nearer ones first. *count gets how many were
 * found (fewer than n when the rings run out); xy receives x, y pairs
 * (capacity n). WF_ERR_ARG for a bad class, radius or shape. */
wf_status wf_units_spawn_points(const wf_units *u, const wf_grid *g,
                                const wf_shape *footprint, int cls,
                                wf_fix radius, int n, wf_fix *xy, int *count);

/* Foundation dispersal: every unit but `builder` (0: none) whose position
 * lies in the footprint grown by its class clearance + 1/2 is ordered to
 * the inverted square of the footprint grown by its clearance + 3/2 (it
 * walks out, the vertex pathfinder planning). ids receives the ids
 * ordered, in id order (capacity cap: WF_ERR_ARG when cap is below the
 * unit count), *count their number. WF_ERR_NOTFOUND for an unknown
 * builder. */
wf_status wf_units_disperse(wf_units *u, const wf_grid *g,
                            const wf_shape *footprint, uint32_t builder,
                            uint32_t *ids, size_t cap, size_t *count);

/* The vertex pathfinder from unit id's position to goal, in a box of half
 * size range, round every other unit's square grown by the unit's radius
 * (wf_vertex_find's results; brute selects its baseline). The points stay
 * valid until the simulation's next call. WF_ERR_NOTFOUND for an unknown
 * id. */
wf_status wf_units_short_path(wf_units *u, const wf_grid *g, uint32_t id,
                              const wf_goal *goal, wf_fix range, int brute,
                              const wf_fix **xy, int *n, int *reached,
                              wf_vertex_stats *stats);

/* The edges the vertex pathfinder sees round unit id in a box of half
 * size range (wf_vertex_edges of the query wf_units_short_path makes):
 * the blocked navcells' outline for the unit's class, then the sides of
 * every other unit's square in the box, grown by the unit's radius. For
 * drawing; the simulation is not changed. WF_ERR_NOTFOUND for an unknown
 * id, WF_ERR_ARG for a range outside (0, WF_VERTEX_MAX_RANGE]. */
wf_status wf_units_vertex_edges(wf_units *u, const wf_grid *g, uint32_t id,
                                wf_fix range, wf_vertex_edge_fn visit,
                                void *ctx);

/* Saving and loading. The state is every unit's wf_unit_info with its
 * waypoints, plus wf_units_clock: the next id, ticks run, the next
 * request number and the expansions already spent on the oldest pending
 * request. Restoring the units into a new simulation (in any order) and
 * then the clock gives the identical continuation: pending requests are
 * submitted again in their original order, and the first tick spends the
 * spent expansions again on top of its budget. */
typedef struct wf_units_clock {
    uint32_t next_id;
    uint64_t ticks;
    uint64_t next_seq;
    uint64_t head_spent;
} wf_units_clock;
void wf_units_get_clock(const wf_units *u, wf_units_clock *out);
/* Adds a unit exactly as described (no placement check). WF_ERR_ARG for
 * any field out of range, a duplicate id, or an id >= the clock's next id
 * once set; WF_ERR_FULL at capacity. */
wf_status wf_units_restore(wf_units *u, const wf_grid *g,
                           const wf_unit_info *info, const wf_fix *xy, int n);
/* Sets the clock and submits the restored pending requests in order. */
wf_status wf_units_set_clock(wf_units *u, const wf_units_clock *c);


/* =============================================================== graph ==
 * Navigation graphs: sectors (axis-aligned boxes) joined by portals.
 *
 * A sector is a box [x0, x1) x [y0, y1) in world units (Q16.16) with a
 * surface type and an additive danger. A portal joins sector a to sector b:
 * a walk portal is a span (segment) on the shared boundary of both boxes;
 * any other portal (a link: teleport, ladder, jump, ...) has its own span
 * in a and its own span in b. Portals are two-way unless WF_PORTAL_ONE_WAY.
 *
 * THE COST MODEL (what the solver minimises, exactly, in integers)
 *   Costs are int64 in units of 1/65536 navcell. Each portal has an anchor
 *   per side, the midpoint of its span (rounded down). A route is start ->
 *   anchors -> goal; walking from point p to q inside sector s costs
 *   ceil(|pq|) * mult[surface(s)]; crossing portal p costs p.cost (a walk
 *   portal's two anchors coincide) plus the danger of the sector entered.
 *   A sector whose surface has mult 0 cannot be entered. The solver is A*
 *   over states "arrived at portal p on side a or b" with the heuristic
 *   min(H(x, goal), C): H = floor(floor(|xg|) * r), r the smallest cost
 *   rate a class can see (its cheapest allowed surface, or the waypath
 *   bias when lower), and C the least H from the exit of any usable portal
 *   cheaper than walking (a teleport) to the goal. It is consistent, so the
 *   first time the goal is popped its cost is optimal; with a weight wn/wd
 *   the cost is at most wn/wd times the optimum.
 *   Ties: lower f, then lower h, then lower state number (2p for a->b, 2p+1
 *   for b->a, start and goal last), so equal inputs give equal outputs.
 *
 * THE PATH
 *   The corridor is the portals crossed. Runs of walk portals are string
 *   pulled (a funnel over the spans, integer cross products), so the points
 *   turn only at span ends; a link's two anchors are both kept.
 * ====================================================================== */

#define WF_GRAPH_LIMIT        WF_FIX(8192)   /* |coordinate| accepted */
#define WF_GRAPH_MAX_SECTORS  (1 << 22)
#define WF_GRAPH_MAX_PORTALS  (1 << 23)
#define WF_GRAPH_MAX_SURFACES 64
#define WF_GRAPH_MAX_MULT     1000          /* surface cost multiplier range */
#define WF_GRAPH_MAX_COST     ((int64_t)1 << 46) /* portal cost and danger */

#define WF_PORTAL_ONE_WAY 1u   /* only a -> b */
#define WF_PORTAL_WALK    2u   /* a span on the shared boundary; string pulled */

typedef struct wf_graph_sector {
    wf_fix x0, y0, x1, y1;    /* box, x0 < x1, y0 < y1, within the limit */
    int surface;              /* [0, WF_GRAPH_MAX_SURFACES) */
    int64_t danger;           /* [0, WF_GRAPH_MAX_COST] added on entering */
} wf_graph_sector;

typedef struct wf_graph_portal {
    int a, b;                 /* sector indices */
    wf_fix ax0, ay0, ax1, ay1;   /* span on a's side (a point when equal) */
    wf_fix bx0, by0, bx1, by1;   /* span on b's side (= a's for walk) */
    int64_t cost;             /* [0, WF_GRAPH_MAX_COST] */
    uint32_t classes;         /* classes allowed (bit per class index) */
    uint32_t needs;           /* abilities required (all of them) */
    unsigned flags;           /* WF_PORTAL_* */
    /* A schedule (elevators): when period > 0 an agent reaching the entry
     * at time t (the query's start time plus its cost so far) first waits
     * (offset - t) mod period, the wait to the next departure; period in
     * [0, WF_GRAPH_MAX_COST], offset in [0, period) (0 without period). */
    int64_t period, offset;
} wf_graph_portal;

/* Why wf_graph_create refused its input: code and the items concerned. */
typedef enum wf_graph_fault {
    WF_GF_NONE = 0,
    WF_GF_BOX,         /* sector i: empty box or outside the limit */
    WF_GF_SURFACE,     /* sector i: surface out of range */
    WF_GF_DANGER,      /* sector i: danger out of range */
    WF_GF_OVERLAP,     /* sectors i and j overlap */
    WF_GF_NOWHERE,     /* portal i: sector a or b does not exist */
    WF_GF_COST,        /* portal i: cost out of range */
    WF_GF_SPAN,        /* portal i: a span lies outside sector j's box */
    WF_GF_WALK         /* portal i: walk portal spans differ or a == b */
} wf_graph_fault;

typedef struct wf_graph_error {
    wf_graph_fault fault;
    int i, j;
} wf_graph_error;

typedef struct wf_graph wf_graph;

/* Builds a graph from copies of the arrays (the caller keeps its own).
 * Validates everything first; on failure returns WF_ERR_ARG with *err
 * filled (err may be NULL) and creates nothing. */
wf_status wf_graph_create(wf_graph **out, const wf_graph_sector *sectors,
                          int nsectors, const wf_graph_portal *portals,
                          int nportals, wf_graph_error *err);
/* A new graph made from old (left unchanged) after an incremental update,
 * without the caller handing every item over again: the old sectors but
 * the drop_sec ones [old indices], in order, then add_sec; the old portals
 * but the drop_por ones [old indices], in order, each with its sectors'
 * new indices (or, for the nmoved triples moved[3k..3k+2] = old portal,
 * new a, new b [new indices], those), then add_por [new sector indices].
 * The result is the graph wf_graph_create makes from those arrays, checked
 * the same way (a kept portal left on a dropped sector is a WF_GF_NOWHERE
 * fault). WF_ERR_ARG also for an index out of range or given twice. */
wf_status wf_graph_patch(wf_graph **out, const wf_graph *old, const int *drop_sec,
                         int ndrop_sec, const wf_graph_sector *add_sec, int nadd_sec,
                         const int *drop_por, int ndrop_por, const int *moved,
                         int nmoved, const wf_graph_portal *add_por, int nadd_por,
                         wf_graph_error *err);
void wf_graph_destroy(wf_graph *g);                /* NULL is fine */
int wf_graph_sector_count(const wf_graph *g);
int wf_graph_portal_count(const wf_graph *g);
size_t wf_graph_memory(const wf_graph *g);         /* bytes owned */
/* The sector whose box holds (x, y), or -1. A bucket grid over the bounds
 * holds each sector in the buckets it overlaps, so a lookup scans one
 * bucket. */
int wf_graph_locate(const wf_graph *g, wf_fix x, wf_fix y);
/* Replaces sector s's danger; running searches see a changed version and
 * fail (WF_ERR_ARG on step). */
wf_status wf_graph_set_danger(wf_graph *g, int s, int64_t danger);
uint64_t wf_graph_version(const wf_graph *g);

typedef struct wf_graph_query {
    wf_fix sx, sy, gx, gy;    /* within the limit */
    int ssector, gsector;     /* sectors holding them, or -1 to locate */
    uint32_t class_bit;       /* the agent's class bit */
    uint32_t abilities;       /* the agent's ability bits */
    int64_t mult[WF_GRAPH_MAX_SURFACES];  /* [0, WF_GRAPH_MAX_MULT], 0 forbids */
    int64_t wnum, wden;       /* weight wnum/wden >= 1, each in [1, 1000] */
    int64_t rnum, rden;       /* extra rate bound (waypath bias), [1, 1000] */
    int64_t time;             /* time at the start for schedules, [0, WF_GRAPH_MAX_COST] */
} wf_graph_query;

/* class bit 1, all abilities, every mult 1, weight 1/1, rate 1/1. */
void wf_graph_query_init(wf_graph_query *q);

typedef struct wf_graph_search wf_graph_search;
wf_status wf_graph_search_create(wf_graph_search **out);
void wf_graph_search_destroy(wf_graph_search *s);  /* NULL is fine */
size_t wf_graph_search_memory(const wf_graph_search *s);
/* Starts a search on g (which must outlive it). Returns WF_OK when running;
 * WF_START_OUTSIDE / WF_GOAL_OUTSIDE when a point is in no sector,
 * WF_START_BLOCKED / WF_GOAL_BLOCKED when its sector's surface is
 * forbidden; WF_ERR_ARG for a bad query; WF_ERR_NOMEM. */
wf_status wf_graph_search_begin(wf_graph_search *s, const wf_graph *g,
                                const wf_graph_query *q);
/* Expands at most budget states; *finished becomes 1 when done. WF_ERR_ARG
 * when idle or when the graph changed since begin (the search is then
 * cancelled). */
wf_status wf_graph_search_step(wf_graph_search *s, uint64_t budget,
                               uint64_t *used, int *finished);

typedef struct wf_graph_result {
    int64_t cost;             /* in the cost model above */
    int nsteps;               /* corridor: portals crossed */
    const int *portal;        /* [nsteps] portal index */
    const int *dir;           /* [nsteps] 0: a -> b, 1: b -> a */
    const int *sector;        /* [nsteps + 1] sectors, start first */
    int npoints;              /* the path, start first, goal last */
    const wf_fix *x, *y;
    const int *via;           /* [npoints] the link crossed to reach point
                                 i from point i - 1, or -1 when walked */
    uint64_t expanded;
} wf_graph_result;

/* After finished: WF_OK with *out pointing into s (valid until the next
 * begin or destroy), or WF_NO_PATH. The search is then idle. */
wf_status wf_graph_search_finish(wf_graph_search *s, wf_graph_result *out);
void wf_graph_search_cancel(wf_graph_search *s);

/* Grid to boxes: flood fill the passable navcells of class cls into
 * 4-connected regions, then cover each with boxes greedily: the first
 * uncovered navcell in row order starts a box that grows right along its
 * row while navcells are passable, uncovered and of the same surface, then
 * down while the whole row segment is, neither side growing past max_box
 * navcells (long boxes make the midpoint cost model crude). Portals are
 * the runs of a box's
 * right and bottom edges shared with one neighbour box, cut into pieces of
 * at most max_span navcells. surface is NULL or width*height bytes (row
 * major, values < WF_GRAPH_MAX_SURFACES). The output arrays are malloc'd
 * and owned by *out until wf_graph_boxes_free. */
typedef struct wf_graph_boxes {
    int nboxes, nportals, nregions;
    int *box;         /* [5 * nboxes]: x0, y0, x1, y1, surface (navcells) */
    int *region;      /* [nboxes] */
    int *portal;      /* [6 * nportals]: a, b, x0, y0, x1, y1 (navcells) */
} wf_graph_boxes;
wf_status wf_graph_boxes_from_grid(const wf_grid *g, int cls,
                                   const uint8_t *surface, int max_span,
                                   int max_box, wf_graph_boxes *out);
/* The same output from a region quadtree instead of greedy boxes: the
 * smallest power-of-two square holding the grid is split into four while
 * its navcells (clipped to the grid) are not all passable with one surface
 * or all impassable, or is larger than max_box; passable leaves are the
 * boxes, in depth-first order
 * (north-west, north-east, south-west, south-east). Neighbour links are
 * the leaves' shared edges, found as for boxes. */
wf_status wf_graph_quadtree_from_grid(const wf_grid *g, int cls,
                                      const uint8_t *surface, int max_span,
                                      int max_box, wf_graph_boxes *out);
/* Greedy boxes (as wf_graph_boxes_from_grid) over only the passable
 * navcells inside the union of nrects rectangles rects[4k..4k+3] = x0, y0,
 * x1, y1 (exclusive ends, within the grid): what an incremental update
 * re-covers. Fills box and nboxes only (no regions, no portals).
 * WF_ERR_ARG for a bad rectangle or surface code, WF_ERR_NOMEM. */
wf_status wf_graph_boxes_in_rects(const wf_grid *g, int cls, const uint8_t *surface,
                                  int max_box, const int *rects, int nrects,
                                  wf_graph_boxes *out);
/* The leaves of the region quadtree wf_graph_quadtree_from_grid builds
 * (the same leaves, in the same order) that meet the union of the nrects
 * rectangles rects[4k..4k+3] = x0, y0, x1, y1 (exclusive ends, within the
 * grid); squares meeting none are not visited. Fills box and nboxes only
 * (no regions, no portals). WF_ERR_ARG for a bad rectangle or surface
 * code, WF_ERR_NOMEM. */
wf_status wf_graph_quadtree_in_rects(const wf_grid *g, int cls, const uint8_t *surface,
                                     int max_box, const int *rects, int nrects,
                                     wf_graph_boxes *out);
void wf_graph_boxes_free(wf_graph_boxes *b);

#ifdef __cplusplus
}
#endif

#endif
