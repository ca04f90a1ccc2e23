/* walker.c - the walker: route following for house worlds. One call steps
 * every walking person toward its sub-goal and refuses steps into walls,
 * closed doors, boxes and other people (see the walker part of wayfinder.h). */
#include <stdlib.h>
#include <string.h>

#include "fixmath.h"
#include "motion.h"

#define EDGE_WALL 1u
#define EDGE_DOOR 2u
#define EDGE_OPEN 4u

/* tan(22.5 degrees) in Q16.16: the boundary between a straight and a
 * diagonal facing. */
#define TAN_22_5 ((int64_t)27146)

typedef struct door_edge {
    int vertical, x, y;
    uint32_t id;
} door_edge;

typedef struct box {
    uint32_t id;
    wf_fix x0, y0, x1, y1;
} box;

typedef struct person {
    uint32_t id;
    wf_fix x, y, half, speed;
    int facing;
    int walking, index, n, cap;
    wf_fix *route;          /* 2 * cap values */
    int cell;               /* tile of the centre */
    int next, prev;         /* neighbours in the tile's list, -1 at the ends */
    wf_walker_motion mo;    /* motion options, all 0 by default */
    wf_fix step;            /* this tick's step length (the speed without
                               motion options) */
    wf_fix cur, hx, hy;     /* motion state: see wf_walker_motion_state */
    int bend;
    int ended;              /* its walk ended in this step: others do not
                               move it before the next (its behaviour has
                               not yet seen where the walk left it) */
} person;

struct wf_walker {
    int w, h;
    uint8_t *vedge;         /* (w + 1) * h */
    uint8_t *hedge;         /* w * (h + 1) */
    door_edge *doors;       /* unordered; doors are few */
    size_t ndoors, doors_cap;
    box *boxes;             /* sorted by id */
    size_t nboxes, boxes_cap;
    int index_dirty;        /* the tile index of boxes must be rebuilt */
    uint32_t *tile_start;   /* w * h + 1 offsets into tile_items */
    uint32_t *tile_items;   /* box indices per tile */
    size_t items_cap;
    person *people;         /* sorted by id */
    size_t npeople, people_cap;
    int32_t *head;          /* first person index per tile, -1 when none */
    int avoid;              /* WF_WALKER_AVOID_* */
};

/* A square (or box) with open interior. */
typedef struct sq {
    wf_fix x0, y0, x1, y1;
} sq;

/* ------------------------------------------------------------ helpers -- */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static int octant(int64_t dx, int64_t dy)
{
    int64_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    if (ay * 65536 <= ax * TAN_22_5)
        return dx > 0 ? 0 : 4;
    if (ax * 65536 <= ay * TAN_22_5)
        return dy > 0 ? 2 : 6;
    if (dx > 0)
        return dy > 0 ? 1 : 7;
    return dy > 0 ? 3 : 5;
}

static int overlap(const sq *a, const sq *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static sq square_at(wf_fix x, wf_fix y, wf_fix half)
{
    sq s;
    s.x0 = x - half;
    s.x1 = x + half;
    s.y0 = y - half;
    s.y1 = y + half;
    return s;
}

static int inside_world(const wf_walker *wk, wf_fix x, wf_fix y)
{
    return x >= 0 && y >= 0 && (int64_t)x < (int64_t)wk->w * WF_FIX_ONE
           && (int64_t)y < (int64_t)wk->h * WF_FIX_ONE;
}

static int edge_in_range(const wf_walker *wk, int vertical, int x, int y)
{
    if (vertical)
        return x >= 0 && x <= wk->w && y >= 0 && y < wk->h;
    return x >= 0 && x < wk->w && y >= 0 && y <= wk->h;
}

static uint8_t *edge_ptr(const wf_walker *wk, int vertical, int x, int y)
{
    if (vertical)
        return &wk->vedge[(size_t)y * (size_t)(wk->w + 1) + (size_t)x];
    return &wk->hedge[(size_t)y * (size_t)wk->w + (size_t)x];
}

static uint32_t door_on(const wf_walker *wk, int vertical, int x, int y)
{
    for (size_t k = 0; k < wk->ndoors; k++) {
        const door_edge *d = &wk->doors[k];
        if (d->vertical == vertical && d->x == x && d->y == y)
            return d->id;
    }
    return 0;
}

/* 1 when the edge stops people; *door gets the closed door's id or 0. The
 * world's border always stops them. */
static int edge_blocks(const wf_walker *wk, int vertical, int x, int y,
                       uint32_t *door)
{
    *door = 0;
    if (vertical ? (x <= 0 || x >= wk->w) : (y <= 0 || y >= wk->h))
        return 1;
    uint8_t f = *edge_ptr(wk, vertical, x, y);
    if (f & EDGE_DOOR) {
        if (f & EDGE_OPEN)
            return 0;
        *door = door_on(wk, vertical, x, y);
        return 1;
    }
    return (f & EDGE_WALL) != 0;
}

/* Does the open square s overlap vertical edge (X, r) / horizontal (r, Y)? */
static int sq_hits_vedge(const sq *s, int X, int r)
{
    int64_t xe = (int64_t)X * WF_FIX_ONE, y0 = (int64_t)r * WF_FIX_ONE;
    return s->x0 < xe && xe < s->x1 && y0 < s->y1 && y0 + WF_FIX_ONE > s->y0;
}

static int sq_hits_hedge(const sq *s, int c, int Y)
{
    int64_t ye = (int64_t)Y * WF_FIX_ONE, x0 = (int64_t)c * WF_FIX_ONE;
    return s->y0 < ye && ye < s->y1 && x0 < s->x1 && x0 + WF_FIX_ONE > s->x0;
}

static int clampi(int64_t v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : (int)v;
}

/* 1 when square s overlaps a stopping edge (or leaves the world) that the
 * square `old` does not overlap already; *blk is the blocker id. */
static int square_hits_walls(const wf_walker *wk, const sq *s, const sq *old,
                             uint32_t *blk)
{
    int64_t W = (int64_t)wk->w * WF_FIX_ONE, H = (int64_t)wk->h * WF_FIX_ONE;
    int out = s->x0 < 0 || s->y0 < 0 || s->x1 > W || s->y1 > H;
    if (out) {
        int was = old && (old->x0 < 0 || old->y0 < 0 || old->x1 > W
                          || old->y1 > H);
        if (!was) {
            *blk = 0;
            return 1;
        }
    }
    /* vertical edges strictly inside the square's x range */
    int X0 = clampi(floor_div(s->x0, WF_FIX_ONE) + 1, 1, wk->w - 1);
    int X1 = clampi(floor_div((int64_t)s->x1 - 1, WF_FIX_ONE), 1, wk->w - 1);
    int r0 = clampi(floor_div(s->y0, WF_FIX_ONE), 0, wk->h - 1);
    int r1 = clampi(floor_div((int64_t)s->y1 - 1, WF_FIX_ONE), 0, wk->h - 1);
    for (int X = X0; X <= X1; X++)
        for (int r = r0; r <= r1; r++) {
            uint32_t door;
            if (!sq_hits_vedge(s, X, r) || !edge_blocks(wk, 1, X, r, &door))
                continue;
            if (old && sq_hits_vedge(old, X, r))
                continue;
            *blk = door;
            return 1;
        }
    int Y0 = clampi(floor_div(s->y0, WF_FIX_ONE) + 1, 1, wk->h - 1);
    int Y1 = clampi(floor_div((int64_t)s->y1 - 1, WF_FIX_ONE), 1, wk->h - 1);
    int c0 = clampi(floor_div(s->x0, WF_FIX_ONE), 0, wk->w - 1);
    int c1 = clampi(floor_div((int64_t)s->x1 - 1, WF_FIX_ONE), 0, wk->w - 1);
    for (int Y = Y0; Y <= Y1; Y++)
        for (int c = c0; c <= c1; c++) {
            uint32_t door;
            if (!sq_hits_hedge(s, c, Y) || !edge_blocks(wk, 0, c, Y, &door))
                continue;
            if (old && sq_hits_hedge(old, c, Y))
                continue;
            *blk = door;
            return 1;
        }
    return 0;
}

/* 1 when the centre's segment from (px, py) to (qx, qy) crosses a stopping
 * edge. A crossing exactly at a tile corner tests both edges there. */
static int segment_crosses_walls(const wf_walker *wk, wf_fix px, wf_fix py,
                                 wf_fix qx, wf_fix qy, uint32_t *blk)
{
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: vertical lines x = X; pass 1: horizontal lines y = Y */
        int64_t a0 = pass ? py : px, a1 = pass ? qy : qx;
        int64_t b0 = pass ? px : py, b1 = pass ? qx : qy;
        int64_t lo = a0 < a1 ? a0 : a1, hi = a0 < a1 ? a1 : a0;
        int64_t L0 = floor_div(lo, WF_FIX_ONE) + 1;
        int64_t L1 = floor_div(hi - 1, WF_FIX_ONE);
        int limit = pass ? wk->h : wk->w;
        for (int64_t L = L0; L <= L1; L++) {
            int64_t at = L * WF_FIX_ONE;
            if (at <= lo || at >= hi)
                continue;
            int64_t b = b0 + (b1 - b0) * (at - a0) / (a1 - a0);
            int64_t rlo = floor_div(b, WF_FIX_ONE), rhi = rlo;
            if (b % WF_FIX_ONE == 0)
                rlo--;
            for (int64_t r = rlo; r <= rhi; r++) {
                int blocks_border = L <= 0 || L >= limit;
                uint32_t door = 0;
                int bad;
                if (r < 0 || r >= (pass ? wk->w : wk->h))
                    continue;
                bad = blocks_border
                      || edge_blocks(wk, !pass, pass ? (int)r : (int)L,
                                     pass ? (int)L : (int)r, &door);
                if (bad) {
                    *blk = door;
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* --------------------------------------------------------- box index -- */

static void tile_range(const wf_walker *wk, const sq *s, int *x0, int *y0,
                       int *x1, int *y1)
{
    *x0 = clampi(floor_div(s->x0, WF_FIX_ONE), 0, wk->w - 1);
    *y0 = clampi(floor_div(s->y0, WF_FIX_ONE), 0, wk->h - 1);
    *x1 = clampi(floor_div((int64_t)s->x1 - 1, WF_FIX_ONE), 0, wk->w - 1);
    *y1 = clampi(floor_div((int64_t)s->y1 - 1, WF_FIX_ONE), 0, wk->h - 1);
}

static wf_status rebuild_index(wf_walker *wk)
{
    size_t ntiles = (size_t)wk->w * (size_t)wk->h;
    size_t total = 0;
    memset(wk->tile_start, 0, (ntiles + 1) * sizeof *wk->tile_start);
    for (size_t k = 0; k < wk->nboxes; k++) {
        const box *b = &wk->boxes[k];
        sq s = {b->x0, b->y0, b->x1, b->y1};
        int x0, y0, x1, y1;
        if (s.x1 <= s.x0 || s.y1 <= s.y0)
            continue;
        tile_range(wk, &s, &x0, &y0, &x1, &y1);
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                wk->tile_start[(size_t)y * (size_t)wk->w + (size_t)x + 1]++;
                total++;
            }
    }
    if (total > wk->items_cap) {
        uint32_t *p = realloc(wk->tile_items, total * sizeof *p);
        if (!p)
            return WF_ERR_NOMEM;
        wk->tile_items = p;
        wk->items_cap = total;
    }
    for (size_t t = 0; t < ntiles; t++)
        wk->tile_start[t + 1] += wk->tile_start[t];
    /* second pass: fill, using tile_start[t] as a cursor, then shift back */
    for (size_t k = 0; k < wk->nboxes; k++) {
        const box *b = &wk->boxes[k];
        sq s = {b->x0, b->y0, b->x1, b->y1};
        int x0, y0, x1, y1;
        if (s.x1 <= s.x0 || s.y1 <= s.y0)
            continue;
        tile_range(wk, &s, &x0, &y0, &x1, &y1);
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                size_t t = (size_t)y * (size_t)wk->w + (size_t)x;
                wk->tile_items[wk->tile_start[t]++] = (uint32_t)k;
            }
    }
    for (size_t t = ntiles; t > 0; t--)
        wk->tile_start[t] = wk->tile_start[t - 1];
    wk->tile_start[0] = 0;
    wk->index_dirty = 0;
    return WF_OK;
}

/* --------------------------------------------------------- spatial -- */

static int cell_of(const wf_walker *wk, wf_fix x, wf_fix y)
{
    return (int)(y >> 16) * wk->w + (int)(x >> 16);
}

static void unlink_person(wf_walker *wk, int i)
{
    person *p = &wk->people[i];
    if (p->prev >= 0)
        wk->people[p->prev].next = p->next;
    else
        wk->head[p->cell] = p->next;
    if (p->next >= 0)
        wk->people[p->next].prev = p->prev;
    p->next = p->prev = -1;
}

static void link_person(wf_walker *wk, int i)
{
    person *p = &wk->people[i];
    p->cell = cell_of(wk, p->x, p->y);
    p->prev = -1;
    p->next = wk->head[p->cell];
    if (p->next >= 0)
        wk->people[p->next].prev = i;
    wk->head[p->cell] = i;
}

/* Indices shift when people are inserted or removed: relink them all. */
static void relink_all(wf_walker *wk)
{
    size_t ntiles = (size_t)wk->w * (size_t)wk->h;
    for (size_t t = 0; t < ntiles; t++)
        wk->head[t] = -1;
    for (size_t i = 0; i < wk->npeople; i++)
        link_person(wk, (int)i);
}

static person *find_person(const wf_walker *wk, uint32_t id, size_t *at)
{
    size_t lo = 0, hi = wk->npeople;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (wk->people[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (at)
        *at = lo;
    if (lo < wk->npeople && wk->people[lo].id == id)
        return &wk->people[lo];
    return NULL;
}

static box *find_box(const wf_walker *wk, uint32_t id, size_t *at)
{
    size_t lo = 0, hi = wk->nboxes;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (wk->boxes[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (at)
        *at = lo;
    if (lo < wk->nboxes && wk->boxes[lo].id == id)
        return &wk->boxes[lo];
    return NULL;
}

/* ---------------------------------------------------------- blocking -- */

/* Lowest id among boxes and people (other than self) that square s
 * overlaps and square old (may be NULL) does not; 0 when none. */
static uint32_t solid_blocker(const wf_walker *wk, const sq *s, const sq *old,
                              uint32_t self)
{
    uint32_t best = 0;
    int x0, y0, x1, y1;
    tile_range(wk, s, &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            size_t t = (size_t)y * (size_t)wk->w + (size_t)x;
            for (uint32_t k = wk->tile_start[t]; k < wk->tile_start[t + 1];
                 k++) {
                const box *b = &wk->boxes[wk->tile_items[k]];
                sq bs = {b->x0, b->y0, b->x1, b->y1};
                if (b->id == self || (best && b->id >= best))
                    continue;
                if (overlap(s, &bs) && !(old && overlap(old, &bs)))
                    best = b->id;
            }
        }
    /* people: centres lie within one tile of each other when they overlap,
     * since no half size exceeds half a tile */
    int cx = (int)floor_div(((int64_t)s->x0 + s->x1) / 2, WF_FIX_ONE);
    int cy = (int)floor_div(((int64_t)s->y0 + s->y1) / 2, WF_FIX_ONE);
    for (int y = cy - 1; y <= cy + 1; y++) {
        if (y < 0 || y >= wk->h)
            continue;
        for (int x = cx - 1; x <= cx + 1; x++) {
            if (x < 0 || x >= wk->w)
                continue;
            for (int j = wk->head[(size_t)y * (size_t)wk->w + (size_t)x];
                 j >= 0; j = wk->people[j].next) {
                const person *o = &wk->people[j];
                if (o->id == self || (best && o->id >= best))
                    continue;
                sq os = square_at(o->x, o->y, o->half);
                if (overlap(s, &os) && !(old && overlap(old, &os)))
                    best = o->id;
            }
        }
    }
    return best;
}

/* ------------------------------------------------------ swept moves -- */
/* A step A -> B of a person of half size h is tested by the swept rule of
 * sweep.c (wf_sweep_box) against every wall edge, box and other person,
 * each grown by h - 2^-16: positions are lattice points, so the closed box
 * grown by h - 2^-16 holds exactly the centres whose open square overlaps
 * the thing; squares that only touch do not collide, and what the square
 * already overlaps at A never blocks. */

static wf_fix fix_floor_tile(int64_t v)
{
    return (wf_fix)floor_div(v, WF_FIX_ONE);
}

/* 1 when the step meets a stopping wall edge inside the world; *blk as for
 * square_hits_walls. */
static int sweep_walls(const wf_walker *wk, wf_fix ax, wf_fix ay, wf_fix bx,
                       wf_fix by, wf_fix half, uint32_t *blk)
{
    int64_t g = (int64_t)half - 1;
    int64_t minx = ax < bx ? ax : bx, maxx = ax < bx ? bx : ax;
    int64_t miny = ay < by ? ay : by, maxy = ay < by ? by : ay;
    int X0 = clampi(fix_floor_tile(minx - g) , 1, wk->w - 1);
    int X1 = clampi(fix_floor_tile(maxx + g) + 1, 1, wk->w - 1);
    int r0 = clampi(fix_floor_tile(miny - g) - 1, 0, wk->h - 1);
    int r1 = clampi(fix_floor_tile(maxy + g), 0, wk->h - 1);
    for (int X = X0; X <= X1; X++)
        for (int r = r0; r <= r1; r++) {
            uint32_t door;
            int64_t ex = (int64_t)X * WF_FIX_ONE, ey = (int64_t)r * WF_FIX_ONE;
            if (!edge_blocks(wk, 1, X, r, &door))
                continue;
            if (wf_sweep_box(ax, ay, bx, by, (wf_fix)(ex - g), (wf_fix)(ey - g),
                             (wf_fix)(ex + g), (wf_fix)(ey + WF_FIX_ONE + g))) {
                *blk = door;
                return 1;
            }
        }
    int Y0 = clampi(fix_floor_tile(miny - g), 1, wk->h - 1);
    int Y1 = clampi(fix_floor_tile(maxy + g) + 1, 1, wk->h - 1);
    int c0 = clampi(fix_floor_tile(minx - g) - 1, 0, wk->w - 1);
    int c1 = clampi(fix_floor_tile(maxx + g), 0, wk->w - 1);
    for (int Y = Y0; Y <= Y1; Y++)
        for (int c = c0; c <= c1; c++) {
            uint32_t door;
            int64_t ex = (int64_t)c * WF_FIX_ONE, ey = (int64_t)Y * WF_FIX_ONE;
            if (!edge_blocks(wk, 0, c, Y, &door))
                continue;
            if (wf_sweep_box(ax, ay, bx, by, (wf_fix)(ex - g), (wf_fix)(ey - g),
                             (wf_fix)(ex + WF_FIX_ONE + g), (wf_fix)(ey + g))) {
                *blk = door;
                return 1;
            }
        }
    return 0;
}

/* Lowest id among boxes and people (other than person p) that the step
 * of p to (bx, by) meets; 0 when none. */
static uint32_t sweep_solids(const wf_walker *wk, const person *p, wf_fix bx,
                             wf_fix by)
{
    uint32_t best = 0;
    wf_fix ax = p->x, ay = p->y;
    int64_t g = (int64_t)p->half - 1;
    int64_t minx = ax < bx ? ax : bx, maxx = ax < bx ? bx : ax;
    int64_t miny = ay < by ? ay : by, maxy = ay < by ? by : ay;
    sq reach = {(wf_fix)(minx - p->half), (wf_fix)(miny - p->half),
                (wf_fix)(maxx + p->half), (wf_fix)(maxy + p->half)};
    int x0, y0, x1, y1;
    tile_range(wk, &reach, &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            size_t t = (size_t)y * (size_t)wk->w + (size_t)x;
            for (uint32_t k = wk->tile_start[t]; k < wk->tile_start[t + 1];
                 k++) {
                const box *b = &wk->boxes[wk->tile_items[k]];
                if (b->id == p->id || (best && b->id >= best))
                    continue;
                if (wf_sweep_box(ax, ay, bx, by, (wf_fix)(b->x0 - g),
                                 (wf_fix)(b->y0 - g), (wf_fix)(b->x1 + g),
                                 (wf_fix)(b->y1 + g)))
                    best = b->id;
            }
        }
    /* people: a centre within half + half <= 1 tile of the segment lies in
     * a tile at most one away from the segment's bounding box */
    int tx0 = (int)fix_floor_tile(minx) - 1, tx1 = (int)fix_floor_tile(maxx) + 1;
    int ty0 = (int)fix_floor_tile(miny) - 1, ty1 = (int)fix_floor_tile(maxy) + 1;
    for (int y = ty0; y <= ty1; y++) {
        if (y < 0 || y >= wk->h)
            continue;
        for (int x = tx0; x <= tx1; x++) {
            if (x < 0 || x >= wk->w)
                continue;
            for (int j = wk->head[(size_t)y * (size_t)wk->w + (size_t)x];
                 j >= 0; j = wk->people[j].next) {
                const person *o = &wk->people[j];
                if (o->id == p->id || (best && o->id >= best))
                    continue;
                int64_t e = (int64_t)p->half + o->half - 1;
                if (wf_sweep_box(ax, ay, bx, by, (wf_fix)(o->x - e),
                                 (wf_fix)(o->y - e), (wf_fix)(o->x + e),
                                 (wf_fix)(o->y + e)))
                    best = o->id;
            }
        }
    }
    return best;
}

/* 1 when the end square leaves the world and the start square did not. */
static int leaves_world(const wf_walker *wk, const sq *now, const sq *next)
{
    int64_t W = (int64_t)wk->w * WF_FIX_ONE, H = (int64_t)wk->h * WF_FIX_ONE;
    int out = next->x0 < 0 || next->y0 < 0 || next->x1 > W || next->y1 > H;
    int was = now->x0 < 0 || now->y0 < 0 || now->x1 > W || now->y1 > H;
    return out && !was;
}

/* ----------------------------------------------------------- motion -- */
/* The motion options of one person (motion.c holds the arithmetic shared
 * with units): look-ahead, corner curves, bounded turning and speed
 * ramps. With every option 0 none of this changes anything. */

/* unit vectors of the facings, Q16.16 */
static const wf_fix FACING_X[8] = {65536, 46341, 0, -46341, -65536, -46341, 0, 46341};
static const wf_fix FACING_Y[8] = {0, 46341, 65536, 46341, 0, -46341, -65536, -46341};

static void motion_reset(person *p)
{
    p->cur = 0;
    p->hx = FACING_X[p->facing];
    p->hy = FACING_Y[p->facing];
    p->bend = -1;
}

static int motion_on(const wf_walker_motion *m)
{
    return m->accel || m->turn_rate || m->arrive_radius || m->lookahead
           || m->corner_radius;
}

typedef struct person_fit {
    const wf_walker *wk;
    const person *p;
} person_fit;

/* 1 when person p may move straight from A to B as far as walls, closed
 * doors, the world's border, boxes and people standing still go (walking
 * people are not looked at: they move on, and every step is still swept
 * against everybody). */
static int person_fits(void *ctx, wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by)
{
    const person_fit *c = ctx;
    const wf_walker *wk = c->wk;
    const person *p = c->p;
    uint32_t blk = 0;
    if (!inside_world(wk, bx, by) || segment_crosses_walls(wk, ax, ay, bx, by, &blk))
        return 0;
    sq now = square_at(ax, ay, p->half), next = square_at(bx, by, p->half);
    if (leaves_world(wk, &now, &next) || sweep_walls(wk, ax, ay, bx, by, p->half, &blk))
        return 0;
    int64_t g = (int64_t)p->half - 1;
    sq reach = {(wf_fix)((ax < bx ? ax : bx) - p->half),
                (wf_fix)((ay < by ? ay : by) - p->half),
                (wf_fix)((ax < bx ? bx : ax) + p->half),
                (wf_fix)((ay < by ? by : ay) + p->half)};
    int x0, y0, x1, y1;
    tile_range(wk, &reach, &x0, &y0, &x1, &y1);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            size_t t = (size_t)y * (size_t)wk->w + (size_t)x;
            for (uint32_t k = wk->tile_start[t]; k < wk->tile_start[t + 1]; k++) {
                const box *b = &wk->boxes[wk->tile_items[k]];
                if (wf_sweep_box(ax, ay, bx, by, (wf_fix)(b->x0 - g),
                                 (wf_fix)(b->y0 - g), (wf_fix)(b->x1 + g),
                                 (wf_fix)(b->y1 + g)))
                    return 0;
            }
        }
    /* people standing still, whom the planner routed round (a centre
     * within one tile of the segment lies in a tile at most one away from
     * its bounding box) */
    int tx0 = (int)fix_floor_tile(reach.x0 + p->half) - 1;
    int tx1 = (int)fix_floor_tile(reach.x1 - p->half) + 1;
    int ty0 = (int)fix_floor_tile(reach.y0 + p->half) - 1;
    int ty1 = (int)fix_floor_tile(reach.y1 - p->half) + 1;
    for (int y = ty0 < 0 ? 0 : ty0; y <= ty1 && y < wk->h; y++)
        for (int x = tx0 < 0 ? 0 : tx0; x <= tx1 && x < wk->w; x++)
            for (int j = wk->head[(size_t)y * (size_t)wk->w + (size_t)x]; j >= 0;
                 j = wk->people[j].next) {
                const person *o = &wk->people[j];
                if (o == p || o->walking)
                    continue;
                int64_t e = (int64_t)p->half + o->half - 1;
                if (wf_sweep_box(ax, ay, bx, by, (wf_fix)(o->x - e), (wf_fix)(o->y - e),
                                 (wf_fix)(o->x + e), (wf_fix)(o->y + e)))
                    return 0;
            }
    return 1;
}

/* corner_radius: once the person comes within corner_radius plus its
 * speed of a corner of its route (a point with one after it, not already
 * part of a curve), the corner is replaced by the points of the curve
 * wf_motion_corner finds (person_fits), or kept sharp when none fits;
 * either way it is not looked at again. */
static void motion_corner(wf_walker *wk, person *p)
{
    int k = p->index;
    if (!p->mo.corner_radius || k <= p->bend || k + 1 >= p->n)
        return;
    wf_fix cx = p->route[2 * k], cy = p->route[2 * k + 1];
    int64_t dx = (int64_t)cx - p->x, dy = (int64_t)cy - p->y;
    int64_t reach = (int64_t)p->mo.corner_radius + p->speed;
    if (dx * dx + dy * dy > reach * reach)
        return;
    p->bend = k;
    wf_fix pts[2 * WF_CORNER_POINTS];
    person_fit fc = {wk, p};
    int need = p->n + WF_CORNER_POINTS - 1;
    if (need > WF_WALKER_MAX_POINTS
        || !wf_motion_corner(p->x, p->y, cx, cy, p->route[2 * k + 2],
                             p->route[2 * k + 3], p->mo.corner_radius,
                             person_fits, &fc, pts))
        return;
    if (need > p->cap) {
        wf_fix *r = realloc(p->route, (size_t)need * 2 * sizeof *r);
        if (!r)
            return;                       /* no memory: the corner stays sharp */
        p->route = r;
        p->cap = need;
    }
    memmove(&p->route[2 * (k + WF_CORNER_POINTS)], &p->route[2 * (k + 1)],
            (size_t)(p->n - k - 1) * 2 * sizeof *p->route);
    memcpy(&p->route[2 * k], pts, sizeof pts);
    p->n = need;
    p->bend = k + WF_CORNER_POINTS - 1;
}

/* Before person i's step: sets p->step, the length of this tick's step. */
static void motion_on_curve(const wf_walker *wk, person *p);
static void motion_speed(person *p);

static void motion_prepare(wf_walker *wk, int i)
{
    person *p = &wk->people[i];
    const wf_walker_motion *o = &p->mo;
    p->step = p->speed;
    if (!motion_on(o) || p->index >= p->n)
        return;
    if (o->lookahead && p->index > p->bend) {
        person_fit fc = {wk, p};
        wf_motion_skip(p->route, p->n, &p->index, p->x, p->y, person_fits, &fc);
    }
    motion_corner(wk, p);
    if (o->accel || o->turn_rate || o->arrive_radius)
        motion_speed(p);
    motion_on_curve(wk, p);
}

/* On a corner curve a person would lose the rest of its step at every
 * point it reaches (at most one sub-goal a tick): while the point ahead
 * lies within this tick's step and the point after it is in sight, it
 * heads for that one instead, so a tick's step spans the curve's short
 * chords. */
static void motion_on_curve(const wf_walker *wk, person *p)
{
    person_fit fc = {wk, p};
    while (p->index <= p->bend && p->index + 1 < p->n) {
        int64_t dx = (int64_t)p->route[2 * p->index] - p->x;
        int64_t dy = (int64_t)p->route[2 * p->index + 1] - p->y;
        wf_fix tx = p->route[2 * p->index + 2], ty = p->route[2 * p->index + 3];
        if (dx * dx + dy * dy >= (int64_t)p->step * p->step
            || !person_fits(&fc, p->x, p->y, tx, ty))
            break;
        p->index++;
    }
}

/* The bounded turn and the speed ramps: sets p->cur and p->step. */
static void motion_speed(person *p)
{
    const wf_walker_motion *o = &p->mo;
    int turning = 0;
    int k = p->index;   /* the first point not where the person stands */
    while (k < p->n && p->route[2 * k] == p->x && p->route[2 * k + 1] == p->y)
        k++;
    if (k < p->n && o->turn_rate)
        turning = wf_motion_turn(&p->hx, &p->hy, (int64_t)p->route[2 * k] - p->x,
                                 (int64_t)p->route[2 * k + 1] - p->y, o->turn_rate);
    int64_t left = 0;
    if (o->accel || o->arrive_radius)
        left = wf_motion_left(p->route, p->n, p->index, p->x, p->y);
    p->cur = (wf_fix)wf_motion_speed(p->cur, p->speed, left, o->accel,
                                     o->arrive_radius, turning);
    p->step = p->cur;
}

/* After person i's step (ev its event, 0 while it walks on): with
 * turn_rate the facing is the heading's, whatever the step did; a walk
 * that ended leaves the person at rest. */
static void motion_after(wf_walker *wk, int i, int ev)
{
    person *p = &wk->people[i];
    if (p->mo.turn_rate)
        p->facing = octant(p->hx, p->hy);
    if (ev) {
        p->cur = 0;
        p->bend = -1;
    }
}

wf_status wf_walker_set_motion(wf_walker *wk, uint32_t id,
                               const wf_walker_motion *m)
{
    if (!wk || !m || m->accel < 0 || m->accel > WF_FIX_ONE || m->turn_rate < 0
        || m->turn_rate > 3454217652358LL || m->arrive_radius < 0
        || m->arrive_radius > WF_FIX(WF_WALKER_MAX_SIDE)
        || (m->lookahead != 0 && m->lookahead != 1) || m->corner_radius < 0
        || m->corner_radius > WF_CORNER_MAX_RADIUS)
        return WF_ERR_ARG;
    person *p = find_person(wk, id, NULL);
    if (!p)
        return WF_ERR_NOTFOUND;
    if (m->turn_rate && !p->mo.turn_rate) {
        p->hx = FACING_X[p->facing];
        p->hy = FACING_Y[p->facing];
    }
    p->mo = *m;
    return WF_OK;
}

wf_status wf_walker_motion_of(const wf_walker *wk, uint32_t id,
                              wf_walker_motion *m, wf_walker_motion_state *st)
{
    if (!wk)
        return WF_ERR_ARG;
    const person *p = find_person(wk, id, NULL);
    if (!p)
        return WF_ERR_NOTFOUND;
    if (m)
        *m = p->mo;
    if (st) {
        st->cur = p->cur;
        st->hx = p->hx;
        st->hy = p->hy;
        st->bend = p->bend;
    }
    return WF_OK;
}

wf_status wf_walker_set_motion_state(wf_walker *wk, uint32_t id,
                                     const wf_walker_motion_state *st)
{
    if (!wk || !st)
        return WF_ERR_ARG;
    person *p = find_person(wk, id, NULL);
    if (!p)
        return WF_ERR_NOTFOUND;
    if (st->cur < 0 || st->cur > p->speed || st->hx < -WF_FIX_ONE
        || st->hx > WF_FIX_ONE || st->hy < -WF_FIX_ONE || st->hy > WF_FIX_ONE
        || (st->hx == 0 && st->hy == 0) || st->bend < -1 || st->bend > p->n)
        return WF_ERR_ARG;
    p->cur = st->cur;
    p->hx = st->hx;
    p->hy = st->hy;
    p->bend = st->bend;
    return WF_OK;
}

/* ----------------------------------------------------------- public -- */

wf_status wf_walker_create(wf_walker **out, int width, int height)
{
    if (!out)
        return WF_ERR_ARG;
    *out = NULL;
    if (width < 1 || height < 1 || width > WF_WALKER_MAX_SIDE
        || height > WF_WALKER_MAX_SIDE
        || (int64_t)width * height > WF_WALKER_MAX_TILES)
        return WF_ERR_ARG;
    wf_walker *wk = calloc(1, sizeof *wk);
    if (!wk)
        return WF_ERR_NOMEM;
    size_t ntiles = (size_t)width * (size_t)height;
    wk->w = width;
    wk->h = height;
    wk->vedge = calloc((size_t)(width + 1) * (size_t)height, 1);
    wk->hedge = calloc((size_t)width * (size_t)(height + 1), 1);
    wk->tile_start = calloc(ntiles + 1, sizeof *wk->tile_start);
    wk->head = malloc(ntiles * sizeof *wk->head);
    if (!wk->vedge || !wk->hedge || !wk->tile_start || !wk->head) {
        wf_walker_destroy(wk);
        return WF_ERR_NOMEM;
    }
    for (size_t t = 0; t < ntiles; t++)
        wk->head[t] = -1;
    *out = wk;
    return WF_OK;
}

void wf_walker_destroy(wf_walker *wk)
{
    if (!wk)
        return;
    for (size_t i = 0; i < wk->npeople; i++)
        free(wk->people[i].route);
    free(wk->people);
    free(wk->vedge);
    free(wk->hedge);
    free(wk->doors);
    free(wk->boxes);
    free(wk->tile_start);
    free(wk->tile_items);
    free(wk->head);
    free(wk);
}

int wf_walker_width(const wf_walker *wk)
{
    return wk->w;
}

int wf_walker_height(const wf_walker *wk)
{
    return wk->h;
}

wf_status wf_walker_set_wall(wf_walker *wk, int vertical, int x, int y,
                             int wall)
{
    if (!wk || !edge_in_range(wk, vertical, x, y))
        return WF_ERR_ARG;
    uint8_t *e = edge_ptr(wk, vertical, x, y);
    *e = (uint8_t)(wall ? (*e | EDGE_WALL) : (*e & ~EDGE_WALL));
    return WF_OK;
}

int wf_walker_wall(const wf_walker *wk, int vertical, int x, int y)
{
    if (!wk || !edge_in_range(wk, vertical, x, y))
        return 0;
    return (*edge_ptr(wk, vertical, x, y) & EDGE_WALL) != 0;
}

wf_status wf_walker_set_door(wf_walker *wk, int vertical, int x, int y,
                             uint32_t door, int open)
{
    if (!wk || !edge_in_range(wk, vertical, x, y))
        return WF_ERR_ARG;
    uint8_t *e = edge_ptr(wk, vertical, x, y);
    size_t k;
    for (k = 0; k < wk->ndoors; k++)
        if (wk->doors[k].vertical == vertical && wk->doors[k].x == x
            && wk->doors[k].y == y)
            break;
    if (door == 0) {
        if (k < wk->ndoors)
            wk->doors[k] = wk->doors[--wk->ndoors];
        *e = (uint8_t)(*e & ~(EDGE_DOOR | EDGE_OPEN));
        return WF_OK;
    }
    if (k == wk->ndoors) {
        if (wk->ndoors == wk->doors_cap) {
            size_t cap = wk->doors_cap ? wk->doors_cap * 2 : 16;
            door_edge *p = realloc(wk->doors, cap * sizeof *p);
            if (!p)
                return WF_ERR_NOMEM;
            wk->doors = p;
            wk->doors_cap = cap;
        }
        wk->doors[k].vertical = vertical;
        wk->doors[k].x = x;
        wk->doors[k].y = y;
        wk->ndoors++;
    }
    wk->doors[k].id = door;
    *e = (uint8_t)((*e & ~EDGE_OPEN) | EDGE_DOOR | (open ? EDGE_OPEN : 0));
    return WF_OK;
}

wf_status wf_walker_set_box(wf_walker *wk, uint32_t id, wf_fix x0, wf_fix y0,
                            wf_fix x1, wf_fix y1)
{
    if (!wk || id == 0 || x1 < x0 || y1 < y0)
        return WF_ERR_ARG;
    size_t at;
    box *b = find_box(wk, id, &at);
    if (!b) {
        if (wk->nboxes == wk->boxes_cap) {
            size_t cap = wk->boxes_cap ? wk->boxes_cap * 2 : 16;
            box *p = realloc(wk->boxes, cap * sizeof *p);
            if (!p)
                return WF_ERR_NOMEM;
            wk->boxes = p;
            wk->boxes_cap = cap;
        }
        memmove(&wk->boxes[at + 1], &wk->boxes[at],
                (wk->nboxes - at) * sizeof *wk->boxes);
        wk->nboxes++;
        b = &wk->boxes[at];
        b->id = id;
    }
    b->x0 = x0;
    b->y0 = y0;
    b->x1 = x1;
    b->y1 = y1;
    wk->index_dirty = 1;
    return WF_OK;
}

wf_status wf_walker_remove_box(wf_walker *wk, uint32_t id)
{
    size_t at;
    if (!wk)
        return WF_ERR_ARG;
    if (!find_box(wk, id, &at))
        return WF_ERR_NOTFOUND;
    memmove(&wk->boxes[at], &wk->boxes[at + 1],
            (wk->nboxes - at - 1) * sizeof *wk->boxes);
    wk->nboxes--;
    wk->index_dirty = 1;
    return WF_OK;
}

static int valid_half(wf_fix half)
{
    return half > 0 && half <= WF_WALKER_MAX_HALF;
}

static int valid_speed(wf_fix speed)
{
    return speed > 0 && speed <= WF_FIX_ONE;
}

wf_status wf_walker_add_person(wf_walker *wk, uint32_t id, wf_fix x, wf_fix y,
                               wf_fix half, wf_fix speed, int facing)
{
    size_t at;
    if (!wk || id == 0 || !inside_world(wk, x, y) || !valid_half(half)
        || !valid_speed(speed) || facing < 0 || facing > 7)
        return WF_ERR_ARG;
    if (find_person(wk, id, &at))
        return WF_ERR_ARG;
    if (wk->npeople == wk->people_cap) {
        size_t cap = wk->people_cap ? wk->people_cap * 2 : 16;
        person *p = realloc(wk->people, cap * sizeof *p);
        if (!p)
            return WF_ERR_NOMEM;
        wk->people = p;
        wk->people_cap = cap;
    }
    memmove(&wk->people[at + 1], &wk->people[at],
            (wk->npeople - at) * sizeof *wk->people);
    wk->npeople++;
    person *p = &wk->people[at];
    memset(p, 0, sizeof *p);
    p->id = id;
    p->x = x;
    p->y = y;
    p->half = half;
    p->speed = speed;
    p->facing = facing;
    motion_reset(p);
    if (at + 1 == wk->npeople)
        link_person(wk, (int)at);
    else
        relink_all(wk);
    return WF_OK;
}

wf_status wf_walker_remove_person(wf_walker *wk, uint32_t id)
{
    size_t at;
    if (!wk)
        return WF_ERR_ARG;
    person *p = find_person(wk, id, &at);
    if (!p)
        return WF_ERR_NOTFOUND;
    unlink_person(wk, (int)at);
    free(p->route);
    memmove(&wk->people[at], &wk->people[at + 1],
            (wk->npeople - at - 1) * sizeof *wk->people);
    wk->npeople--;
    relink_all(wk);
    return WF_OK;
}

wf_status wf_walker_place_person(wf_walker *wk, uint32_t id, wf_fix x, wf_fix y,
                                 int facing)
{
    size_t at;
    if (!wk || !inside_world(wk, x, y) || facing < 0 || facing > 7)
        return WF_ERR_ARG;
    person *p = find_person(wk, id, &at);
    if (!p)
        return WF_ERR_NOTFOUND;
    unlink_person(wk, (int)at);
    p->x = x;
    p->y = y;
    p->facing = facing;
    p->walking = 0;
    p->n = 0;
    p->index = 0;
    motion_reset(p);
    link_person(wk, (int)at);
    return WF_OK;
}

wf_status wf_walker_set_speed(wf_walker *wk, uint32_t id, wf_fix speed)
{
    if (!wk || !valid_speed(speed))
        return WF_ERR_ARG;
    person *p = find_person(wk, id, NULL);
    if (!p)
        return WF_ERR_NOTFOUND;
    p->speed = speed;
    if (p->cur > speed)
        p->cur = speed;             /* the motion state stays within [0, speed] */
    return WF_OK;
}

wf_status wf_walker_set_route(wf_walker *wk, uint32_t id, const wf_fix *xy,
                              int n, int index)
{
    if (!wk || !xy || n < 1 || n > WF_WALKER_MAX_POINTS || index < 0
        || index > n)
        return WF_ERR_ARG;
    person *p = find_person(wk, id, NULL);
    if (!p)
        return WF_ERR_NOTFOUND;
    for (int k = 0; k < n; k++)
        if (!inside_world(wk, xy[2 * k], xy[2 * k + 1]))
            return WF_ERR_ARG;
    if (n > p->cap) {
        wf_fix *r = realloc(p->route, (size_t)n * 2 * sizeof *r);
        if (!r)
            return WF_ERR_NOMEM;
        p->route = r;
        p->cap = n;
    }
    memcpy(p->route, xy, (size_t)n * 2 * sizeof *xy);
    p->n = n;
    p->index = index;
    if (!p->walking)
        p->cur = 0;
    p->walking = 1;
    p->bend = -1;
    return WF_OK;
}

wf_status wf_walker_stop(wf_walker *wk, uint32_t id)
{
    if (!wk)
        return WF_ERR_ARG;
    person *p = find_person(wk, id, NULL);
    if (!p)
        return WF_ERR_NOTFOUND;
    p->walking = 0;
    p->n = 0;
    p->index = 0;
    p->cur = 0;
    p->bend = -1;
    return WF_OK;
}

wf_status wf_walker_person(const wf_walker *wk, uint32_t id,
                           wf_person_state *out)
{
    if (!wk || !out)
        return WF_ERR_ARG;
    const person *p = find_person(wk, id, NULL);
    if (!p)
        return WF_ERR_NOTFOUND;
    out->x = p->x;
    out->y = p->y;
    out->half = p->half;
    out->speed = p->speed;
    out->facing = p->facing;
    out->walking = p->walking;
    out->index = p->index;
    out->npoints = p->n;
    return WF_OK;
}

wf_status wf_walker_route(const wf_walker *wk, uint32_t id, const wf_fix **xy,
                          int *n)
{
    if (!wk || !xy || !n)
        return WF_ERR_ARG;
    const person *p = find_person(wk, id, NULL);
    if (!p)
        return WF_ERR_NOTFOUND;
    *xy = p->route;
    *n = p->n;
    return WF_OK;
}

wf_status wf_walker_set_avoidance(wf_walker *wk, int mode)
{
    if (!wk || mode < WF_WALKER_AVOID_NONE || mode > WF_WALKER_AVOID_SIDESTEP)
        return WF_ERR_ARG;
    wk->avoid = mode;
    return WF_OK;
}

int wf_walker_avoidance(const wf_walker *wk)
{
    return wk ? wk->avoid : WF_WALKER_AVOID_NONE;
}

size_t wf_walker_person_count(const wf_walker *wk)
{
    return wk ? wk->npeople : 0;
}

uint32_t wf_walker_person_id(const wf_walker *wk, size_t k)
{
    return (wk && k < wk->npeople) ? wk->people[k].id : 0;
}

wf_status wf_walker_square_free(wf_walker *wk, wf_fix x, wf_fix y, wf_fix half,
                                uint32_t ignore, int *is_free,
                                uint32_t *blocker)
{
    if (!wk || !is_free)
        return WF_ERR_ARG;
    uint32_t blk = 0;
    sq s = square_at(x, y, half);
    int ok = 1;
    if (wk->index_dirty) {
        wf_status st = rebuild_index(wk);
        if (st != WF_OK)
            return st;
    }
    if (square_hits_walls(wk, &s, NULL, &blk)) {
        ok = 0;
    } else {
        blk = solid_blocker(wk, &s, NULL, ignore);
        ok = blk == 0;
    }
    if (blocker)
        *blocker = ok ? 0 : blk;
    *is_free = ok;
    return WF_OK;
}

/* Moves person i to (qx, qy) when the swept rule allows that step (walls,
 * closed doors, the border, boxes and other people) and returns 1; else
 * returns 0 with *blk the blocker. The facing follows the move. */
static int try_move(wf_walker *wk, int i, wf_fix qx, wf_fix qy, uint32_t *blk)
{
    person *p = &wk->people[i];
    int64_t dx = (int64_t)qx - p->x, dy = (int64_t)qy - p->y;
    if (dx == 0 && dy == 0)
        return 1;
    sq now = square_at(p->x, p->y, p->half);
    sq next = square_at(qx, qy, p->half);
    *blk = 0;
    if (!inside_world(wk, qx, qy))
        return 0;
    if (segment_crosses_walls(wk, p->x, p->y, qx, qy, blk))
        return 0;
    if (leaves_world(wk, &now, &next)) {
        *blk = 0;
        return 0;
    }
    if (sweep_walls(wk, p->x, p->y, qx, qy, p->half, blk))
        return 0;
    *blk = sweep_solids(wk, p, qx, qy);
    if (*blk)
        return 0;
    p->facing = octant(dx, dy);
    int cell = cell_of(wk, qx, qy);
    if (cell != p->cell) {
        unlink_person(wk, i);
        p->x = qx;
        p->y = qy;
        link_person(wk, i);
    } else {
        p->x = qx;
        p->y = qy;
    }
    return 1;
}

/* v * num / den rounded half away from zero (den > 0). */
static int64_t mul_div_round(int64_t v, int64_t num, int64_t den)
{
    int64_t t = v * num;
    return t >= 0 ? (t + den / 2) / den : -((-t + den / 2) / den);
}

/* cos and sin of k * 22.5 degrees, k = 0..3, in Q16.16 */
static const int64_t FAN_COS[4] = {65536, 60547, 46341, 25080};
static const int64_t FAN_SIN[4] = {0, 25080, 46341, 60547};

/* (x, y) turned by the angle of cosine c and sine s (Q16.16; s > 0 turns
 * clockwise with y down) into (*rx, *ry) */
static void turn_step(int64_t x, int64_t y, int64_t c, int64_t s, int64_t *rx,
                      int64_t *ry)
{
    *rx = mul_div_round(x, c, 65536) - mul_div_round(y, s, 65536);
    *ry = mul_div_round(x, s, 65536) + mul_div_round(y, c, 65536);
}

/* The door edge, if any, that the centre's move from A to B crosses on
 * one axis (x for vertical edges, else y): 1 when the move changes tile on
 * that axis through an edge holding a door (open or not). */
static int door_crossed(const wf_walker *wk, int vertical, wf_fix ax,
                        wf_fix ay, wf_fix bx, wf_fix by)
{
    int tx0 = (int)(ax >> 16), ty0 = (int)(ay >> 16);
    int tx1 = (int)(bx >> 16), ty1 = (int)(by >> 16);
    if (vertical) {
        int X = tx0 > tx1 ? tx0 : tx1;
        return tx0 != tx1 && ((*edge_ptr(wk, 1, X, ty0) & EDGE_DOOR)
                              || (*edge_ptr(wk, 1, X, ty1) & EDGE_DOOR));
    }
    int Y = ty0 > ty1 ? ty0 : ty1;
    return ty0 != ty1 && ((*edge_ptr(wk, 0, tx0, Y) & EDGE_DOOR)
                          || (*edge_ptr(wk, 0, tx1, Y) & EDGE_DOOR));
}

/* 1 when the centre's move from A to B crosses a door edge (open or not)
 * while the sub-goal (gx, gy) lies on A's side of that edge: a step that
 * would take a person through a door its leg does not go through. */
static int door_away(const wf_walker *wk, wf_fix ax, wf_fix ay, wf_fix bx,
                     wf_fix by, wf_fix gx, wf_fix gy)
{
    int tx1 = (int)(bx >> 16), ty1 = (int)(by >> 16);
    int far_x = bx > ax ? (int)(gx >> 16) >= tx1 : (int)(gx >> 16) <= tx1;
    int far_y = by > ay ? (int)(gy >> 16) >= ty1 : (int)(gy >> 16) <= ty1;
    return (!far_x && door_crossed(wk, 1, ax, ay, bx, by))
           || (!far_y && door_crossed(wk, 0, ax, ay, bx, by));
}

/* The sidestep fan: the step (sx, sy) turned by 22.5, 45 and 67.5 degrees
 * to the person's right (clockwise with y down), then the same to its
 * left; the first one the swept rule allows, that brings the centre
 * strictly nearer the sub-goal (gx, gy) and that takes it through no door
 * its leg does not go through is taken. Returns 1 when one was. */
static int try_fan(wf_walker *wk, int i, int64_t sx, int64_t sy, wf_fix gx,
                   wf_fix gy)
{
    person *p = &wk->people[i];
    int64_t ox = (int64_t)gx - p->x, oy = (int64_t)gy - p->y;
    int64_t before = ox * ox + oy * oy;
    for (int side = 1; side >= -1; side -= 2)
        for (int k = 1; k <= 3; k++) {
            int64_t rx, ry;
            turn_step(sx, sy, FAN_COS[k], side * FAN_SIN[k], &rx, &ry);
            int64_t qx = p->x + rx, qy = p->y + ry;
            int64_t ax = (int64_t)gx - qx, ay = (int64_t)gy - qy;
            uint32_t blk;
            if ((rx == 0 && ry == 0) || ax * ax + ay * ay >= before)
                continue;
            if (qx < 0 || qy < 0 || qx > INT32_MAX || qy > INT32_MAX)
                continue;
            if (inside_world(wk, (wf_fix)qx, (wf_fix)qy)
                && door_away(wk, p->x, p->y, (wf_fix)qx, (wf_fix)qy, gx, gy))
                continue;
            if (try_move(wk, i, (wf_fix)qx, (wf_fix)qy, &blk))
                return 1;
        }
    return 0;
}

/* 1 when the centre's move from tile to tile crosses a door edge (open or
 * not): a shove never pushes anybody through a door. */
static int crosses_door(const wf_walker *wk, wf_fix ax, wf_fix ay, wf_fix bx,
                        wf_fix by)
{
    return door_crossed(wk, 1, ax, ay, bx, by)
           || door_crossed(wk, 0, ax, ay, bx, by);
}

/* The person at index `at` moved by (rx, ry) by someone else (a shove,
 * making way): inside the world, never across a door edge, by the swept
 * rule, and never in the step its walk ended (its behaviour has not yet
 * seen where the walk left it). Returns 1 when it moved. */
static int nudge(wf_walker *wk, size_t at, int64_t rx, int64_t ry)
{
    const person *o = &wk->people[at];
    int64_t qx = o->x + rx, qy = o->y + ry;
    uint32_t blk;
    if (o->ended)
        return 0;
    if (qx < 0 || qy < 0 || qx > INT32_MAX || qy > INT32_MAX)
        return 0;
    if (!inside_world(wk, (wf_fix)qx, (wf_fix)qy)
        || crosses_door(wk, o->x, o->y, (wf_fix)qx, (wf_fix)qy))
        return 0;
    return try_move(wk, (int)at, (wf_fix)qx, (wf_fix)qy, &blk);
}

/* The shove: person i walking along (dx, dy) is blocked by the person with
 * id `other`. When that person stands (not walking), it steps aside by its
 * own speed, away from i's line (to i's right when exactly on it), else
 * forward along i's direction, each step by the swept rule and never
 * through a door. Returns 1 when it moved. */
static int shove(wf_walker *wk, int i, int64_t dx, int64_t dy, uint32_t other)
{
    size_t at;
    person *o = find_person(wk, other, &at);
    const person *p = &wk->people[i];
    if (!o || o->walking)
        return 0;
    int64_t len = (int64_t)wf_isqrt64((uint64_t)(dx * dx + dy * dy));
    if (len == 0)
        return 0;
    int64_t cross = dx * ((int64_t)o->y - p->y) - dy * ((int64_t)o->x - p->x);
    int64_t ux = mul_div_round(dx, o->speed, len);
    int64_t uy = mul_div_round(dy, o->speed, len);
    int64_t dirs[3][2] = {{-uy, ux}, {uy, -ux}, {ux, uy}};
    if (cross < 0) {
        dirs[0][0] = uy;
        dirs[0][1] = -ux;
        dirs[1][0] = -uy;
        dirs[1][1] = ux;
    }
    /* the second side pushes toward i's line: only the first side and
     * forward are tried, so a shoved person never swings back and forth */
    for (int k = 0; k < 3; k += 2) {
        int facing = o->facing;
        if (nudge(wk, at, dirs[k][0], dirs[k][1])) {
            wk->people[at].facing = facing;
            return 1;
        }
    }
    return 0;
}

/* Person i steps by its speed (or less, to arrive) toward (cx, cy) when
 * the swept rule allows it; returns 1 when it moved. */
static int step_toward(wf_walker *wk, int i, int64_t cx, int64_t cy,
                       uint32_t *blk)
{
    person *p = &wk->people[i];
    int64_t dx = cx - p->x, dy = cy - p->y;
    int64_t len = (int64_t)wf_isqrt64((uint64_t)(dx * dx + dy * dy));
    if (len == 0)
        return 0;
    int64_t qx = p->x + dx, qy = p->y + dy;
    if (len > p->speed) {
        qx = p->x + mul_div_round(dx, p->speed, len);
        qy = p->y + mul_div_round(dy, p->speed, len);
    }
    *blk = 0;
    if (qx < 0 || qy < 0 || qx > INT32_MAX || qy > INT32_MAX)
        return 0;
    return try_move(wk, i, (wf_fix)qx, (wf_fix)qy, blk);
}

/* Who refused the way back and the slide, in a jam (see step_person): a
 * walking person of a higher id (up), any other person (other: one
 * standing that the shove could not move); 0 for none. */
typedef struct jam {
    uint32_t up, other;
} jam;

/* Back to the line: person i, whose straight step toward its sub-goal a
 * wall, a door frame or a piece of furniture refused, steps toward the
 * nearest point of its route's current leg, which the planner laid clear
 * of them (a sidestep is what takes people off it). Returns 1 when it
 * moved (the walk goes on). That point is the foot of the perpendicular
 * (or an end of the leg), so the step brings the person strictly nearer
 * the sub-goal, as every other step does: a walk cannot go on for ever.
 * When a person refuses the step, it is shoved out of the way when it
 * stands (as for the straight step), and the walker waits this tick when
 * it walks and has a lower id (as in giving way); *waited is then 1.
 * Others who refused it are noted in *j for the jam of two. */
static int regain_line(wf_walker *wk, int i, int *waited, jam *j)
{
    const person *p = &wk->people[i];
    *waited = 0;
    if (p->index < 1)
        return 0;
    int64_t ax = p->route[2 * (p->index - 1)];
    int64_t ay = p->route[2 * (p->index - 1) + 1];
    int64_t bx = p->route[2 * p->index], by = p->route[2 * p->index + 1];
    int64_t vx = bx - ax, vy = by - ay;
    int64_t ll = vx * vx + vy * vy;
    int64_t cx = bx, cy = by;
    if ((ll >> 16) > 0) {
        /* the projection's place on the leg, t / ll, in Q16.16 (coordinates
         * stay below 2^28, so t fits and the fraction loses at most
         * 2^16 / ll) */
        int64_t t = ((int64_t)p->x - ax) * vx + ((int64_t)p->y - ay) * vy;
        int64_t f = t <= 0 ? 0 : t / (ll >> 16);
        if (f > 65536)
            f = 65536;
        cx = ax + mul_div_round(vx, f, 65536);
        cy = ay + mul_div_round(vy, f, 65536);
    }
    uint32_t blk;
    if (step_toward(wk, i, cx, cy, &blk))
        return 1;
    const person *o = blk ? find_person(wk, blk, NULL) : NULL;
    if (!o)
        return 0;
    if (o->walking) {
        if (o->id < p->id)
            *waited = 1;
        else
            j->up = o->id;
        return 0;
    }
    if (o->ended) {
        *waited = 1;
        return 0;
    }
    if (!shove(wk, i, cx - p->x, cy - p->y, blk)) {
        j->other = o->id;
        return 0;
    }
    p = &wk->people[i];
    if (step_toward(wk, i, cx, cy, &blk))
        return 1;
    /* the shoved person made room but not yet enough: wait */
    *waited = 1;
    return 0;
}

/* Along the wall: person i, whose straight step (sx, sy) toward the
 * sub-goal (gx, gy) a wall or a door frame refused although it stands on
 * its leg (the leg cuts a frame's corner by less than the swept rule
 * allows), or off it where the way back is taken, moves along one axis
 * only, x first, by its speed at most and never past the sub-goal on that
 * axis, so the step brings it strictly nearer the sub-goal. A person in
 * the way is shoved or waited for as in regain_line (others noted in *j).
 * Returns 1 when it moved; *waited is 1 when it waits this tick. */
static int slide(wf_walker *wk, int i, int64_t sx, int64_t sy, wf_fix gx,
                 wf_fix gy, int *waited, jam *j)
{
    const person *p = &wk->people[i];
    *waited = 0;
    for (int axis = 0; axis < 2; axis++) {
        int64_t s = axis == 0 ? sx : sy;
        int64_t o = axis == 0 ? (int64_t)gx - p->x : (int64_t)gy - p->y;
        if (s == 0 || o == 0 || (s > 0) != (o > 0))
            continue;
        int64_t m = o > 0 ? o : -o;
        if (m > p->speed)
            m = p->speed;
        if (o < 0)
            m = -m;
        int64_t qx = p->x + (axis == 0 ? m : 0);
        int64_t qy = p->y + (axis == 0 ? 0 : m);
        uint32_t blk;
        if (qx < 0 || qy < 0 || qx > INT32_MAX || qy > INT32_MAX)
            continue;
        if (try_move(wk, i, (wf_fix)qx, (wf_fix)qy, &blk))
            return 1;
        const person *ob = blk ? find_person(wk, blk, NULL) : NULL;
        if (!ob)
            continue;
        if (ob->walking) {
            if (ob->id < p->id) {
                *waited = 1;
                return 0;
            }
            if (!j->up)
                j->up = ob->id;
            continue;
        }
        if (ob->ended) {
            *waited = 1;
            return 0;
        }
        if (shove(wk, i, qx - p->x, qy - p->y, blk)) {
            p = &wk->people[i];
            if (!try_move(wk, i, (wf_fix)qx, (wf_fix)qy, &blk))
                *waited = 1;
            return !*waited;
        }
        if (!j->other)
            j->other = ob->id;
    }
    return 0;
}

/* Making way in a jam: the walking person with id `other` steps by its
 * speed straight away from person i's centre, else turned by 45 then 90
 * degrees to its right, then to its left, by the swept rule and never
 * across a door edge; its walk goes on. Returns 1 when it moved. */
static int make_way(wf_walker *wk, int i, uint32_t other)
{
    size_t at;
    const person *p = find_person(wk, other, &at);
    const person *w = &wk->people[i];
    int64_t ax = (int64_t)p->x - w->x, ay = (int64_t)p->y - w->y;
    int64_t len = (int64_t)wf_isqrt64((uint64_t)(ax * ax + ay * ay));
    if (len == 0)
        return 0;
    int64_t ux = mul_div_round(ax, p->speed, len);
    int64_t uy = mul_div_round(ay, p->speed, len);
    /* cos and sin of 0, 45 and 90 degrees to the right, then to the left */
    static const int64_t turn[5][2] = {{65536, 0}, {46341, 46341}, {0, 65536},
                                       {46341, -46341}, {0, -65536}};
    for (int k = 0; k < 5; k++) {
        int64_t rx, ry;
        turn_step(ux, uy, turn[k][0], turn[k][1], &rx, &ry);
        if ((rx != 0 || ry != 0) && nudge(wk, at, rx, ry))
            return 1;
    }
    return 0;
}

/* One step of person i; returns 0 (still walking), WF_MOVE_ARRIVED or
 * WF_MOVE_BLOCKED with *blk set. */
static int step_person(wf_walker *wk, int i, uint32_t *blk)
{
    motion_prepare(wk, i);
    person *p = &wk->people[i];
    if (p->index >= p->n)
        return WF_MOVE_ARRIVED;
    wf_fix gx = p->route[2 * p->index], gy = p->route[2 * p->index + 1];
    int64_t dx = (int64_t)gx - p->x, dy = (int64_t)gy - p->y;
    uint64_t len = wf_isqrt64((uint64_t)(dx * dx + dy * dy));
    wf_fix qx, qy;
    int reached = 0;
    if (len <= (uint64_t)p->step) {
        qx = gx;
        qy = gy;
        reached = 1;
    } else {
        int64_t l = (int64_t)len, nx = dx * p->step, ny = dy * p->step;
        qx = p->x + (wf_fix)(nx >= 0 ? (nx + l / 2) / l : -((-nx + l / 2) / l));
        qy = p->y + (wf_fix)(ny >= 0 ? (ny + l / 2) / l : -((-ny + l / 2) / l));
    }
    if (!try_move(wk, i, qx, qy, blk)) {
        uint32_t first = *blk;
        int64_t sx = (int64_t)qx - p->x, sy = (int64_t)qy - p->y;
        if (wk->avoid == WF_WALKER_AVOID_NONE)
            return WF_MOVE_BLOCKED;
        if (try_fan(wk, i, sx, sy, gx, gy))
            return 0;
        if (!find_person(wk, first, NULL)) {
            int waited;
            jam j = {0, 0};
            if (regain_line(wk, i, &waited, &j) || waited)
                return 0;
            p = &wk->people[i];
            if (slide(wk, i, sx, sy, gx, gy, &waited, &j) || waited)
                return 0;
            p = &wk->people[i];
            /* the jam of two (docs/world.md, "Crowds"): a walking person
             * of a higher id in the way makes way and i tries once more;
             * failing that, the person in the way ends the walk as its
             * blocker (the wall alone did not stop it) */
            if (j.up && make_way(wk, i, j.up)) {
                jam again = {0, 0};
                if (regain_line(wk, i, &waited, &again))
                    return 0;
                p = &wk->people[i];
                if (slide(wk, i, sx, sy, gx, gy, &waited, &again))
                    return 0;
            }
            if (j.up || j.other) {
                *blk = j.up ? j.up : j.other;
                return WF_MOVE_BLOCKED;
            }
        }
        if (first && shove(wk, i, dx, dy, first)) {
            p = &wk->people[i];
            if (try_move(wk, i, qx, qy, blk)) {
                if (reached) {
                    p->index++;
                    if (p->index >= p->n)
                        return WF_MOVE_ARRIVED;
                }
                return 0;
            }
            if (try_fan(wk, i, sx, sy, gx, gy))
                return 0;
            /* the shoved person made room but not yet enough: wait */
            return 0;
        }
        /* give way: behind a walking person of a lower id, wait a tick
         * (lower ids step first, so waits never form a cycle) */
        if (first) {
            const person *o = find_person(wk, first, NULL);
            if (o && ((o->walking && o->id < p->id) || o->ended))
                return 0;
        }
        *blk = first;
        return WF_MOVE_BLOCKED;
    }
    if (reached) {
        p->index++;
        if (p->index >= p->n)
            return WF_MOVE_ARRIVED;
    }
    return 0;
}

wf_status wf_walker_step(wf_walker *wk, wf_move_event *events, size_t cap,
                         size_t *count)
{
    if (!wk || !count)
        return WF_ERR_ARG;
    *count = 0;
    size_t walking = 0;
    for (size_t i = 0; i < wk->npeople; i++)
        walking += wk->people[i].walking != 0;
    if (walking > cap || (walking && !events))
        return WF_ERR_ARG;
    for (size_t i = 0; i < wk->npeople; i++)
        wk->people[i].ended = 0;
    if (wk->index_dirty) {
        wf_status st = rebuild_index(wk);
        if (st != WF_OK)
            return st;
    }
    for (size_t i = 0; i < wk->npeople; i++) {
        person *p = &wk->people[i];
        if (!p->walking)
            continue;
        uint32_t blk = 0;
        int ev = step_person(wk, (int)i, &blk);
        motion_after(wk, (int)i, ev);
        if (!ev)
            continue;
        p->walking = 0;
        p->ended = 1;
        p->n = 0;
        p->index = 0;
        events[*count].id = p->id;
        events[*count].kind = ev;
        events[*count].blocker = ev == WF_MOVE_BLOCKED ? blk : 0;
        (*count)++;
    }
    return WF_OK;
}
