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


/* --------------------------------------------------------- house world -- */
/* Route following for house worlds (follow.c).
 *
 * A house is a width x height grid of tiles (1 tile = 1 world unit) with
 * thin walls on tile edges, doors over some wall edges, static boxes
 * (furniture that cannot be walked over) and people. Each person is a square
 * of half size `half` centred on its position, with a speed in world units
 * per tick and, while walking, a route: a list of points and the index of
 * the current sub-goal. wf_house_step moves every walking person once, in
 * increasing id order (the object-list order of the Lua world):
 *   - the person steps toward its sub-goal by its speed; when the sub-goal
 *     is within one step it is placed on it and the index advances (at most
 *     one sub-goal per tick); after the last point the route is done;
 *   - the step is refused (the person stays, the route is dropped and a
 *     WF_MOVE_BLOCKED event names the blocker) when the centre's segment
 *     crosses a wall edge that is not an open door, or the square at the new
 *     position newly overlaps a wall edge, the world's border, a box or
 *     another person. "Newly" means: something the square already overlaps
 *     at the old position never blocks, so people who were placed touching
 *     or overlapping can always separate. Overlap is of open interiors, so
 *     squares that only touch do not collide.
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

#define WF_HOUSE_MAX_SIDE   4096          /* [tiles] largest width or height */
#define WF_HOUSE_MAX_TILES  ((int64_t)1 << 22)  /* largest width*height */
#define WF_HOUSE_MAX_POINTS 65536         /* points in one route */
#define WF_HOUSE_MAX_HALF   WF_FIX_HALF   /* [fixed] largest person half size */

typedef struct wf_house wf_house;

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

/* Creates an empty house: no walls, boxes or people. Sides in
 * [1, WF_HOUSE_MAX_SIDE], width*height <= WF_HOUSE_MAX_TILES. */
wf_status wf_house_create(wf_house **out, int width, int height);
void wf_house_destroy(wf_house *h);                 /* NULL is fine */
int wf_house_width(const wf_house *h);
int wf_house_height(const wf_house *h);

/* Sets or clears the wall on an edge (vertical 1 or 0). */
wf_status wf_house_set_wall(wf_house *h, int vertical, int x, int y, int wall);
/* 1 when the edge holds a wall (the border is not reported). */
int wf_house_wall(const wf_house *h, int vertical, int x, int y);
/* Puts door `door` (> 0) over an edge, open (1, crossable even with a wall)
 * or closed (0, blocks and is reported as the blocker); door 0 removes the
 * door from the edge. */
wf_status wf_house_set_door(wf_house *h, int vertical, int x, int y,
                            uint32_t door, int open);

/* Adds or moves the static box `id` (> 0): [x0, x1] x [y0, y1], fixed. */
wf_status wf_house_set_box(wf_house *h, uint32_t id, wf_fix x0, wf_fix y0,
                           wf_fix x1, wf_fix y1);
/* WF_ERR_NOTFOUND when there is no such box. */
wf_status wf_house_remove_box(wf_house *h, uint32_t id);

/* Adds person `id` (> 0, not yet used by a person) standing at (x, y),
 * which must lie inside the world. half in (0, WF_HOUSE_MAX_HALF], speed in
 * (0, WF_FIX_ONE], facing in [0, 8). */
wf_status wf_house_add_person(wf_house *h, uint32_t id, wf_fix x, wf_fix y,
                              wf_fix half, wf_fix speed, int facing);
wf_status wf_house_remove_person(wf_house *h, uint32_t id);
/* Moves a person without any test and drops its route. */
wf_status wf_house_place_person(wf_house *h, uint32_t id, wf_fix x, wf_fix y,
                                int facing);
wf_status wf_house_set_speed(wf_house *h, uint32_t id, wf_fix speed);
/* Gives a person a route of n points (xy: x0, y0, x1, y1, ... fixed, copied)
 * and the index of the first sub-goal, index in [0, n]; n in
 * [1, WF_HOUSE_MAX_POINTS], every point inside the world. The person walks
 * from the next step on; index == n means the route is done at the next
 * step. */
wf_status wf_house_set_route(wf_house *h, uint32_t id, const wf_fix *xy,
                             int n, int index);
/* Drops the route: the person stands still (no event). */
wf_status wf_house_stop(wf_house *h, uint32_t id);
wf_status wf_house_person(const wf_house *h, uint32_t id,
                          wf_person_state *out);
/* The current route's points (x, y pairs), owned by the house and valid
 * until the person's route or the house changes; *n is 0 when none. */
wf_status wf_house_route(const wf_house *h, uint32_t id, const wf_fix **xy,
                         int *n);
size_t wf_house_person_count(const wf_house *h);
/* The id of the k-th person in id order, k in [0, count). */
uint32_t wf_house_person_id(const wf_house *h, size_t k);

/* One tick for every walking person (see above). Writes at most one event
 * per person into events (capacity cap; WF_ERR_ARG when cap is below the
 * number of walking people) and sets *count. */
wf_status wf_house_step(wf_house *h, wf_move_event *events, size_t cap,
                        size_t *count);

/* 1 when a square of half size `half` at (x, y) overlaps no wall edge,
 * border, box or person other than `ignore`; otherwise 0 and *blocker is
 * set as for a blocked step (blocker may be NULL). Rebuilds the box index
 * when boxes changed (0 when that allocation fails). */
int wf_house_square_free(wf_house *h, wf_fix x, wf_fix y, wf_fix half,
                         uint32_t ignore, uint32_t *blocker);

#ifdef __cplusplus
}
#endif

#endif
