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
 *   wf_path p; if (wf_search_run(s, &q, &p) == WF_OK) use p.x[i], p.y[i]
 *   wf_search_destroy(s); wf_grid_destroy(g);
 *
 * NUMBERS
 *   World positions and lengths are fixed point Q16.16 in int32_t (wf_fix).
 *   Path costs are int64_t in units of 1/(2*WF_COST_SCALE) of a navcell, so
 *   an orthogonal step on cost-1 ground costs 2*WF_COST_SCALE and a diagonal
 *   one 2*WF_COST_DIAG. No decision depends on floating point.
 *
 * MEMORY
 *   Grid: 2 bits per navcell per class (the terrain source bits and the
 *   derived passability bits, row-padded to 64-bit words), plus 1 byte per
 *   navcell once any cost other than 1 is set, plus 8 bytes per row.
 *   Search scratch: 24 bytes per navcell, allocated once per wf_search and
 *   reused with a generation counter (never cleared per query).
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
    int smooth;           /* 1: string-pull to the fewest visible waypoints */
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

/* Scratch for searches on grids of g's size (24 bytes per navcell). A search
 * may be used with any grid of the same or smaller cell count. */
wf_status wf_search_create(wf_search **out, const wf_grid *g);
void wf_search_destroy(wf_search *s);            /* NULL is fine */
size_t wf_search_memory(const wf_search *s);

/* Finds an optimal path. Returns WF_OK and fills *out, or an expected
 * outcome (WF_NO_PATH, WF_START_*, WF_GOAL_*), or an error. On WF_NO_PATH
 * out->expanded still tells the work done. Waypoints are the navcells where
 * the direction changes (or, with smoothing, where the string-pulled path
 * bends); a path whose start is in the goal has one waypoint. */
wf_status wf_search_run(wf_search *s, const wf_grid *g, const wf_query *q,
                        wf_path *out);

/* 1 when a straight segment between the centres of navcells a and b crosses
 * only passable navcells for cls and cuts no blocked corner. */
int wf_grid_line_of_sight(const wf_grid *g, int cls, int ax, int ay,
                          int bx, int by);

/* Euclidean length of a waypoint list in Q16.16, summed per segment with an
 * integer square root (deterministic). */
int64_t wf_polyline_length(const int32_t *x, const int32_t *y, int n);

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
 * one wf_search (a node record and a heap slot, 48 bytes).
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
 * open list exhausted). Returns WF_ERR_ARG when no search is running. */
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

#ifdef __cplusplus
}
#endif

#endif
