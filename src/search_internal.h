/* search_internal.h - the search scratch (node records, open lists, the
 * state of one run) shared by A*, JPS, smoothing, flow fields and the
 * queue; not part of the API. Nothing outside the search needs it. */
#ifndef WF_SEARCH_INTERNAL_H
#define WF_SEARCH_INTERNAL_H

#include "grid_internal.h"

/* The jump mask planes of a class (jplanes.c), in scan direction. */
enum { WF_JM_EAST, WF_JM_WEST, WF_JM_SOUTH, WF_JM_NORTH };

/* The diagonal directions: 0 (1, 1), 1 (1, -1), 2 (-1, 1), 3 (-1, -1). */
static inline int wf_diag_dir(int dx, int dy)
{
    return (dx < 0) * 2 + (dy < 0);
}

static inline int wf_diag_dx(int d) { return d < 2 ? 1 : -1; }
static inline int wf_diag_dy(int d) { return (d & 1) ? -1 : 1; }

/* The line of a diagonal stop plane (jplanes.c) holding navcell (x, y) in
 * direction (dx, dy), on a grid h navcells high: the diagonals
 * x - y = constant serve (1, 1) and (-1, -1), the diagonals x + y =
 * constant the other two. */
static inline int wf_diag_index(int h, int x, int y, int dx, int dy)
{
    return dx == dy ? x - y + h - 1 : x + y;
}
/* Search scratch, one record per navcell, valid for the current search when
 * stamp is gen (open) or gen + 1 (closed). */
typedef struct wf_node {
    int64_t g;
    uint32_t parent;
    uint32_t stamp;
    int32_t hpos;       /* A*: index in the heap while open; JPS: the
                           direction of the last move (DIR in jps.c);
                           field.c: a bucket-list link */
    uint32_t xy;        /* x | y << 16, saves divisions when expanding;
                           field.c uses it as a bucket-list link */
} wf_node;

typedef struct wf_heap_item {
    int64_t f, g;
    uint32_t node;
    uint32_t pad;
} wf_heap_item;

/* Heap item a comes before b: lower f, then higher g, then lower navcell
 * index (the order of A*'s heap and of JPS's small open list). */
static inline int wf_heap_item_before(const wf_heap_item *a,
                                      const wf_heap_item *b)
{
    if (a->f != b->f)
        return a->f < b->f;
    if (a->g != b->g)
        return a->g > b->g;
    return a->node < b->node;
}

/* JPS's open list (open.c): entries in one bucket per f value. */
typedef struct wf_open_entry {
    int64_t g;
    uint32_t node;
    uint32_t next;      /* next entry of its bucket, or WF_NIL */
} wf_open_entry;

typedef struct wf_open_bucket {
    int64_t f;
    uint32_t head;      /* first entry, unsorted until the bucket is lowest */
    uint32_t pad;
} wf_open_bucket;

#define WF_NIL UINT32_MAX
#define WF_OPEN_CACHE 1024 /* f -> bucket slot hints, a power of two */
#define WF_OPEN_SMALL 64   /* entries a JPS open list holds before buckets */

struct wf_search {
    size_t ncells;
    wf_node *nodes;
    wf_heap_item *heap;       /* A*'s open list; JPS's entries share it */
    size_t hn;
    /* JPS's open list: the entries of the lowest f, sorted (higher g
     * first, then lower index), and a 4-ary heap of the other buckets */
    wf_open_entry *ent;       /* the same memory as heap */
    uint32_t ent_cap, nent, ent_free;
    uint32_t cur;             /* the sorted entries of f == curf */
    int64_t curf;
    wf_open_bucket *bkt;
    size_t nbkt;
    uint32_t bcache[WF_OPEN_CACHE];
    /* until it outgrows WF_OPEN_SMALL entries, JPS's open list is a small
     * sorted array instead, the best entry last (most searches never need
     * the buckets) */
    wf_heap_item small[WF_OPEN_SMALL];
    int nsmall;
    int bucketed;
    uint8_t *mark;            /* JPS: mgen open, mgen + 1 closed */
    uint8_t mgen;
    uint32_t gen;
    uint32_t *chain;          /* node indices of the last path */
    size_t chain_cap;
    int32_t *px, *py;         /* waypoints handed out in wf_path */
    size_t pcap;
    struct wf_slice *slice;   /* state of a sliced search (wf_search_begin) */
    struct wf_smooth *smooth; /* string-pulling scratch (smooth.c), made on
                                 first use and grown to the longest path */
    /* JPS keeps its node records in `nodes` too, but in the order it
     * opens them: navcell v's record is nodes[jslot[v]] while mark[v] says
     * v is open or closed in this search, and jn records are in use. The
     * few records a search makes then share a few pages of memory. */
    uint32_t *jslot;
    uint32_t jn;
    /* JPS's jump planes (jplanes.c), one set per class, made when JPS
     * first searches that class and kept up to date with the grid they
     * were last brought up to date with */
    struct wf_jplanes *jp[WF_MAX_CLASSES];
};

/* Everything one run needs, on the caller's stack. */
typedef struct wf_run {
    wf_search *s;
    const wf_grid *g;
    int cls, w, h;
    const uint64_t *plane;    /* row -1 of the class's passability plane */
    int words;
    const uint64_t *tplane;   /* column -1 of the transposed plane */
    int twords;
    wf_goal goal;
    int gx0, gy0, gx1, gy1;   /* goal box clipped to the grid */
    int64_t hscale;           /* 2 * lowest cost on the grid */
    uint64_t expanded;
    /* slicing: wf_pop refuses to expand past `limit` and sets `stopped`, so
     * the A* and JPS loops return as if the open list were dry and can be
     * called again later to resume exactly where they left off */
    uint64_t limit;
    int stopped;
    /* partial results: the expanded node nearest the goal (lowest h, then
     * lowest g, then lowest index), tracked when `track` is set */
    int track;
    uint32_t best;
    int64_t best_h, best_g;
    /* JPS: the point goal's node (UINT32_MAX for other goals), and whether
     * the expansion under way has offered it at the expanded node's f (its
     * result is then final) */
    uint32_t goal_node;
    int settled;
    /* JPS: the class's jump masks and diagonal stops (s->jp[cls], see
     * jplanes.c) */
    const uint64_t *jmask;
    const uint64_t *dstop;
    size_t dplane_words;
} wf_run;

static inline int wf_run_pass(const wf_run *r, int x, int y)
{
    return wf_bit(r->plane + (size_t)(y + 1) * (size_t)r->words, x);
}

static inline int wf_run_in_goal(const wf_run *r, int x, int y)
{
    if (x < r->gx0 || x > r->gx1 || y < r->gy0 || y > r->gy1)
        return 0;
    return r->goal.type == WF_GOAL_POINT || wf_goal_contains(&r->goal, x, y);
}

static inline int wf_node_x(const wf_node *n) { return (int)(n->xy & 0xffffu); }
static inline int wf_node_y(const wf_node *n) { return (int)(n->xy >> 16); }

/* The octile distance from (x, y) to the goal box, times r->hscale: the
 * heuristic of both searches. */
static inline int64_t wf_octile_h(const wf_run *r, int x, int y)
{
    int64_t dx = x < r->gx0 ? r->gx0 - x : (x > r->gx1 ? x - r->gx1 : 0);
    int64_t dy = y < r->gy0 ? r->gy0 - y : (y > r->gy1 ? y - r->gy1 : 0);
    int64_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return r->hscale * ((hi - lo) * WF_COST_SCALE + lo * WF_COST_DIAG);
}

/* search.c: shared by A* and JPS */
/* Keeps u (at f, g) as the best node so far for a partial path when it is
 * nearer the goal: lower h = f - g, then lower g, then lower index. */
void wf_run_track(wf_run *r, uint32_t u, int64_t f, int64_t g);
/* Offers node v with cost ng and parent u: opens, improves or ignores it. */
void wf_relax(wf_run *r, uint32_t v, uint32_t u, int64_t ng);
/* The same with v's coordinates known (v == y * w + x). */
void wf_relax_xy(wf_run *r, uint32_t v, int x, int y, uint32_t u, int64_t ng);
/* Pops the best open node into *u; 0 when the open list is empty. */
int wf_pop(wf_run *r, uint32_t *u);

/* The state a sliced search keeps between wf_search_step calls. */
typedef struct wf_slice {
    wf_run r;
    uint32_t start;
    uint32_t goal_node;       /* UINT32_MAX until the goal is expanded */
    wf_algorithm algo;
    int smooth;
    int partial;              /* end at the nearest node instead of failing */
    uint64_t cap;             /* the request's own expansion cap */
    int state;                /* 0 idle, 1 running, 2 finished */
    wf_status outcome;        /* once finished */
    unsigned details;         /* WF_DETAIL_* once finished */
} wf_slice;

/* The shared A* neighbour order: E, W, S, N, then SE, SW, NE, NW. */
extern const int wf_dir_dx[8];
extern const int wf_dir_dy[8];

/* Starts a new search generation on s (stamps of older searches become
 * stale) and empties the open list. */
void wf_search_new_generation(wf_search *s);
/* Reserves room for n navcell indices in s->chain. */
wf_status wf_chain_reserve(wf_search *s, size_t n);
/* Turns s->chain[0..n) (navcells, start first, consecutive entries joined by
 * straight 8-connected runs) into the waypoints s->px/s->py, string-pulled
 * when smooth is set; *out_n receives the waypoint count. */
wf_status wf_emit_path(wf_search *s, const wf_grid *g, int cls, size_t n,
                       int smooth, int *out_n);

/* smooth.c: on a line of a bit plane (a row, or a column of the
 * transposed plane; bit p + 1 is position p), the blocked position of
 * [a, b] (a <= b) nearest a (dir > 0) or nearest b (dir < 0), or -1 when
 * they are all free. */
int wf_line_first_blocked(const uint64_t *line, int a, int b, int dir);

/* smooth.c: the string-pulling scratch a wf_search keeps. */
typedef struct wf_smooth wf_smooth;
void wf_smooth_free(wf_smooth *m);                 /* NULL is fine */
size_t wf_smooth_memory(const wf_smooth *m);       /* bytes; 0 for NULL */
/* The fewest navcells of the path s->chain[0..n) (n > 2, as for
 * wf_emit_path) joined by segments with line of sight, the shortest such
 * chain among them (see smooth.c and docs/grid.md). *x, *y receive the
 * waypoints, *out_n their count; they live in s->smooth until its next
 * use. Returns WF_OK or WF_ERR_NOMEM. */
wf_status wf_smooth_chain(wf_search *s, const wf_grid *g, int cls, size_t n,
                          const int32_t **x, const int32_t **y, int *out_n);

/* open.c: JPS's open list, in the heap's order (lower f, then higher g,
 * then lower index). */
void wf_open_reset(wf_search *s);   /* the rest is in open.h */

/* jplanes.c: makes s's jump planes of class cls (s->jp[cls]) those of
 * grid g as it is now, making, updating or rebuilding them as needed, and
 * points r's jmask, dstop and dplane_words at them. WF_ERR_NOMEM leaves
 * them to be made again by the next call. */
wf_status wf_jplanes_bind(wf_search *s, const wf_grid *g, int cls, wf_run *r);
void wf_jplanes_free(struct wf_jplanes *p);             /* NULL is fine */
size_t wf_jplanes_memory(const struct wf_jplanes *p);   /* 0 for NULL */

/* JPS's record of navcell v, open or closed in the current search. */
static inline wf_node *wf_jps_rec(const wf_search *s, uint32_t v)
{
    return &s->nodes[s->jslot[v]];
}

/* jps.c: opens the start of a JPS search. */
void wf_jps_start(wf_run *r, int sx, int sy);
/* Runs JPS from the start already pushed; returns the goal node or
 * UINT32_MAX when the open list runs dry. */
uint32_t wf_jps_loop(wf_run *r);
#endif
