/* wayfinder.h - the C core of wayfinder: navcell grids and optimal search.
 *
 * WHAT IT DOES
 *   A grid of width x height navcells. Navcell (i, j) covers i <= x < i+1,
 *   j <= y < j+1 in world units; indices are 0-based. Each grid has 1 to 16
 *   passability classes, each with a name and an integer clearance c. A
 *   navcell is passable for a class when:
 *     - no navcell in the (2c+1) x (2c+1) square centred on it is blocked by
 *       terrain for that class (outside the grid and the forced map border
 *       count as terrain-blocked), and
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
 *   Search scratch: 48 bytes per navcell (a 24-byte node record and a
 *   24-byte heap slot), reserved once per wf_search and reused with a
 *   generation counter (never cleared per query); pages a search never
 *   touches are never committed by the operating system.
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

/* ---------------------------------------------------------------- grid -- */

typedef struct wf_grid wf_grid;

typedef enum wf_border_shape {
    WF_BORDER_SQUARE = 0,
    WF_BORDER_CIRCLE = 1
} wf_border_shape;

typedef struct wf_class_def {
    char name[WF_NAME_MAX];   /* unique, non-empty, NUL-terminated */
    int clearance;            /* [navcells] [0, WF_MAX_CLEARANCE] */
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

/* Row access for fast scanners: bit (x + 1) of the returned row words is 1
 * when navcell (x, y) is passable for cls. Rows -1 and height exist and are
 * all zero, as are the padding bits, so neighbours off the grid read as
 * blocked. Valid until the grid is changed or destroyed. */
const uint64_t *wf_grid_row_bits(const wf_grid *g, int cls, int y);
int wf_grid_row_words(const wf_grid *g);

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

/* Scratch for searches on grids of g's size (48 bytes per navcell). A search
 * may be used with any grid of the same or smaller cell count. */
wf_status wf_search_create(wf_search **out, const wf_grid *g);
void wf_search_destroy(wf_search *s);            /* NULL is fine */
size_t wf_search_memory(const wf_search *s);

/* Finds an optimal path. Returns WF_OK and fills *out, or an expected
 * outcome (WF_NO_PATH, WF_START_*, WF_GOAL_*), or an error. On WF_NO_PATH
 * out->expanded still tells the work done. Waypoints are the navcells where
 * the direction changes; a path whose start is in the goal has one waypoint.
 * With smoothing, waypoints are navcells of the grid path joined by
 * segments with line of sight (wf_grid_line_of_sight): a greedy pass keeps
 * the last navcell visible from the previous waypoint, then any waypoint
 * whose two neighbours see each other is dropped until none is left, so no
 * single waypoint can be removed. */
wf_status wf_search_run(wf_search *s, const wf_grid *g, const wf_query *q,
                        wf_path *out);

/* 1 when a straight segment between the centres of navcells a and b crosses
 * only passable navcells for cls and cuts no blocked corner. */
int wf_grid_line_of_sight(const wf_grid *g, int cls, int ax, int ay,
                          int bx, int by);

/* Euclidean length of a waypoint list in Q16.16, summed per segment with an
 * integer square root (deterministic). */
int64_t wf_polyline_length(const int32_t *x, const int32_t *y, int n);

#ifdef __cplusplus
}
#endif

#endif
