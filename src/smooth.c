/* smooth.c - line of sight on the grid, and string-pulling: the fewest
 * navcells of a grid path that, joined in order by straight segments with
 * line of sight, lead from its start to its end (the shortest such chain
 * when several have that fewest count).
 *
 * THE PROBLEM
 *   The path's navcells c_0 .. c_{n-1} are the nodes of a graph with an
 *   edge i -> j (i < j) when c_i sees c_j. The answer is a shortest path in
 *   hops from c_0 to c_{n-1} in that graph; among those, the shortest in
 *   length; among those, the one whose first intermediate waypoint comes
 *   first along the path, then the second, and so on. Testing every pair
 *   costs n^2 / 2 line-of-sight tests of up to n navcells each.
 *
 * HOW IT IS FOUND
 *   Phase 1 labels every navcell j with hops[j], its fewest segments from
 *   c_0, in path order: hops[j] is 1 + the lowest hops[i] of a navcell
 *   i < j that sees j. Since c_{j-1} sees c_j, hops[j] <= hops[j-1] + 1, so
 *   only sources with hops[i] <= hops[j-1] - 1 can matter, and the lowest
 *   layer (navcells of equal hops) with a source that sees j decides; the
 *   sources of higher layers are not looked at. Most of the work is showing
 *   that the older sources do not see j, and it is shared between targets:
 *   a source that does not see j gets a certificate that also covers later
 *   navcells, and sleeps until the first target the certificate does not
 *   cover. Two certificates:
 *     - A blocker: a rectangle of blocked navcells that the segment touches
 *       (grown from the blocked navcell nearest the source, across the line
 *       of view). Every point in its shadow seen from the source (the wedge
 *       it subtends, beyond it) is hidden. The last few blockers found are
 *       tried on new pairs before a line of sight.
 *     - The detour bound: the grid path is optimal, so between c_i and c_j
 *       it costs no more than any other grid path between them. If c_i saw
 *       c_j, the navcells the segment touches would form such a path (an
 *       orthogonal step per grid line crossed, a diagonal one at a corner
 *       crossing, which the rule allows), costing at most k = 2 * scale *
 *       highest terrain cost per unit of Manhattan distance. So a piece of
 *       path that costs more than k times the Manhattan distance of its ends
 *       never joins a visible pair. (Only the minimality of the answer rests
 *       on this; every segment returned has had its own line of sight.)
 *   A static tree of bounding boxes over the path finds the first target a
 *   source's certificates do not cover in O(log n) node tests. A source
 *   that sees a navcell where the path runs straight on also tries one
 *   triangle test for the rest of the run, so that the usual case, one
 *   source seeing target after target, costs no line of sight per target.
 *   Phase 2 walks back from the end through the layers: T_K = {n - 1};
 *   T_t are the navcells of layer t that see one of T_{t+1} later on the
 *   path, each with its shortest remaining length to the end. Navcell 0
 *   then follows its best successor. Lengths are whole Q16.16 units per
 *   segment (floor of the Euclidean length), as wf_polyline_length counts
 *   them, so every comparison is exact.
 *
 * COST
 *   A source is woken at most once per target and every wake moves it on,
 *   so the worst case is the pairwise one: O(n^2) certificate tests and
 *   lines of sight. On the benchmark maps a navcell costs a few of each
 *   (docs/performance.md). Memory: about 125 bytes per navcell of room,
 *   doubled until the longest path smoothed so far fits, kept by the
 *   wf_search. */
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

/* ------------------------------------------------------ line of sight -- */

/* Lines are rows of a bit plane (or columns of the transposed one): bit
 * p + 1 of the words is position p; positions -1 and the line length exist
 * and are blocked (see wf_line_first_blocked in search_internal.h). */

int wf_line_first_blocked(const uint64_t *line, int a, int b, int dir)
{
    unsigned b0 = (unsigned)a + 1, b1 = (unsigned)b + 1;
    unsigned w0 = b0 >> 6, w1 = b1 >> 6;
    uint64_t m0 = ~(uint64_t)0 << (b0 & 63);
    uint64_t m1 = ~(uint64_t)0 >> (63 - (b1 & 63));
    if (w0 == w1) {
        uint64_t z = ~line[w0] & m0 & m1;
        if (!z)
            return -1;
        return dir > 0 ? (int)(w0 * 64 + (unsigned)wf_ctz64(z)) - 1
                       : (int)(w0 * 64 + 63 - (unsigned)wf_clz64(z)) - 1;
    }
    if (dir > 0) {
        uint64_t z = ~line[w0] & m0;
        for (unsigned w = w0; ; z = ~line[++w]) {
            if (w == w1)
                z &= m1;
            if (z)
                return (int)(w * 64 + (unsigned)wf_ctz64(z)) - 1;
            if (w == w1)
                return -1;
        }
    }
    uint64_t z = ~line[w1] & m1;
    for (unsigned w = w1; ; z = ~line[--w]) {
        if (w == w0)
            z &= m0;
        if (z)
            return (int)(w * 64 + 63 - (unsigned)wf_clz64(z)) - 1;
        if (w == w0)
            return -1;
    }
}

/* 1 when every position of [a, b] is blocked. */
static int line_all_blocked(const uint64_t *line, int a, int b)
{
    unsigned b0 = (unsigned)a + 1, b1 = (unsigned)b + 1;
    unsigned w0 = b0 >> 6, w1 = b1 >> 6;
    uint64_t m0 = ~(uint64_t)0 << (b0 & 63);
    uint64_t m1 = ~(uint64_t)0 >> (63 - (b1 & 63));
    if (w0 == w1)
        return !(line[w0] & m0 & m1);
    if (line[w0] & m0)
        return 0;
    for (unsigned w = w0 + 1; w < w1; w++)
        if (line[w])
            return 0;
    return !(line[w1] & m1);
}

/* A value n kept as q * den + r with 0 <= r < den, so that the floor and
 * the ceiling of n / den move by additions only. */
typedef struct sm_frac {
    int64_t q, r;
} sm_frac;

static sm_frac frac_of(int64_t n, int64_t den)
{
    sm_frac f = {n / den, n % den};
    if (f.r < 0) {
        f.r += den;
        f.q--;
    }
    return f;
}

static void frac_add(sm_frac *f, sm_frac step, int64_t den)
{
    f->q += step.q;
    f->r += step.r;
    if (f->r >= den) {
        f->r -= den;
        f->q++;
    }
}

/* Class cls's passability as lines: the rows of its plane (rows = 1) or
 * the columns of its transposed copy; line i starts at base + (i + 1) *
 * stride and has len positions, and there are count lines. */
typedef struct sm_lines {
    const uint64_t *base;
    size_t stride;
    int len, count;
} sm_lines;

static sm_lines class_lines(const wf_grid *g, int cls, int rows)
{
    sm_lines l;
    if (rows) {
        l.base = g->pass + (size_t)cls * g->plane_words;
        l.stride = (size_t)g->words;
        l.len = g->w;
        l.count = g->h;
    } else {
        l.base = g->tpass + (size_t)cls * g->tplane_words;
        l.stride = (size_t)g->twords;
        l.len = g->h;
        l.count = g->w;
    }
    return l;
}

static const uint64_t *line_at(const sm_lines *l, int i)
{
    return l->base + (size_t)(i + 1) * l->stride;
}

/* Line of sight from (au, av) to (bu, bv) with |bu - au| >= |bv - av|,
 * where line v of the plane (stride words apart, line -1 first) holds
 * positions u. The centre-to-centre segment crosses each line v between
 * the two centres over a span of u; the navcells whose closed squares it
 * touches there are one run, and the rule asks them all to be passable
 * (a corner crossing touches both navcells beside the corner). Lines are
 * read from a's towards b's. On failure *pu, *pv get the blocked navcell
 * met first.
 *
 * In doubled coordinates (centres odd, navcell edges even), measured from
 * the end with the lower v at (u0, v0) to the other at v1: dv * u(Y) =
 * n(Y) = u0 * dv + (Y - v0) * du, and line v spans Y in [max(2v, v0),
 * min(2v + 2, v1)]. Navcell k is touched when 2k <= u_max and 2k + 2 >=
 * u_min: k from ceil(n_min / (2 dv)) - 1 to floor(n_max / (2 dv)). n at
 * the line edges Y = 2v steps by 2 du from line to line. */
static int los_lines(const uint64_t *plane, size_t stride, int au, int av,
                     int bu, int bv, int *pu, int *pv)
{
    int dir = bu >= au ? 1 : -1;
    if (av == bv) {
        int k = wf_line_first_blocked(plane + (size_t)(av + 1) * stride,
                                   au < bu ? au : bu, au < bu ? bu : au, dir);
        if (k < 0)
            return 1;
        *pu = k;
        *pv = av;
        return 0;
    }
    int up = av < bv;
    int lu = up ? au : bu, lv = up ? av : bv, hu = up ? bu : au, hv = up ? bv : av;
    int64_t u0 = 2 * (int64_t)lu + 1, v0 = 2 * (int64_t)lv + 1;
    int64_t v1 = 2 * (int64_t)hv + 1, du = 2 * (int64_t)(hu - lu);
    int64_t dv = v1 - v0, den = 2 * dv;
    sm_frac lo_end = frac_of(u0 * dv, den);
    sm_frac hi_end = frac_of((2 * (int64_t)hu + 1) * dv, den);
    /* the line edge next to a's line, and the step towards b's */
    int64_t edge = up ? 2 * (int64_t)lv + 2 : 2 * (int64_t)hv;
    sm_frac e = frac_of(u0 * dv + (edge - v0) * du, den);
    sm_frac step = frac_of(up ? 2 * du : -2 * du, den);
    sm_frac cur = up ? lo_end : hi_end;
    for (int v = av; ; v += up ? 1 : -1) {
        sm_frac other = v == bv ? (up ? hi_end : lo_end) : e;
        int less = cur.q < other.q || (cur.q == other.q && cur.r < other.r);
        sm_frac mn = less ? cur : other, mx = less ? other : cur;
        int k0 = (int)(mn.q + (mn.r != 0)) - 1, k1 = (int)mx.q;
        int k = wf_line_first_blocked(plane + (size_t)(v + 1) * stride, k0, k1,
                                   dir);
        if (k >= 0) {
            *pu = k;
            *pv = v;
            return 0;
        }
        if (v == bv)
            return 1;
        cur = e;
        frac_add(&e, step, den);
    }
}

/* Line of sight between two navcells on the grid, both passable or not;
 * on failure *px, *py get a blocked navcell the segment touches, the first
 * met from a. */
static int los_cells(const wf_grid *g, int cls, int ax, int ay, int bx, int by,
                     int *px, int *py)
{
    int rows = abs(bx - ax) >= abs(by - ay);
    sm_lines l = class_lines(g, cls, rows);
    if (rows)
        return los_lines(l.base, l.stride, ax, ay, bx, by, px, py);
    return los_lines(l.base, l.stride, ay, ax, by, bx, py, px);
}

/* One side of a triangle crossing lines lo..hi of a plane, in the doubled
 * coordinates of los_lines: at and end hold n at the side's ends, next at
 * the next line edge, each over den. */
typedef struct sm_side {
    int lo, hi;
    int64_t den;
    sm_frac at, next, end, step;
} sm_side;

static void side_init(sm_side *e, int pu, int pv, int qu, int qv)
{
    if (pv > qv) {
        int t = pu;
        pu = qu;
        qu = t;
        t = pv;
        pv = qv;
        qv = t;
    }
    e->lo = pv;
    e->hi = qv;
    int64_t u0 = 2 * (int64_t)pu + 1, v0 = 2 * (int64_t)pv + 1;
    int64_t du = 2 * (int64_t)(qu - pu), dv = 2 * (int64_t)(qv - pv);
    if (dv == 0) {
        /* along a line: its two ends are the span (den 2 keeps the units) */
        e->den = 2;
        e->at = frac_of(u0, 2);
        e->end = frac_of(2 * (int64_t)qu + 1, 2);
        e->next = e->end;
        e->step = frac_of(0, 2);
        return;
    }
    e->den = 2 * dv;
    e->at = frac_of(u0 * dv, e->den);
    e->end = frac_of((2 * (int64_t)qu + 1) * dv, e->den);
    e->next = frac_of(u0 * dv + (2 * (int64_t)pv + 2 - v0) * du, e->den);
    e->step = frac_of(2 * du, e->den);
}

/* Widens [*k0, *k1] by the navcells side e touches on line v (lo <= v <=
 * hi, lines taken in increasing order), and moves e to the next line. */
static void side_span(sm_side *e, int v, int *k0, int *k1)
{
    sm_frac a = e->at, b = v == e->hi ? e->end : e->next;
    int less = a.q < b.q || (a.q == b.q && a.r < b.r);
    sm_frac mn = less ? a : b, mx = less ? b : a;
    int lo = (int)(mn.q + (mn.r != 0)) - 1, hi = (int)mx.q;
    if (lo < *k0)
        *k0 = lo;
    if (hi > *k1)
        *k1 = hi;
    e->at = e->next;
    frac_add(&e->next, e->step, e->den);
}

/* 1 when every navcell whose closed square meets the closed triangle of
 * the centres a, b, c is passable; then a sees every navcell whose centre
 * lies on the segment bc, as their segments from a lie in the triangle.
 * On each line the triangle spans the union of its sides' spans. */
static int triangle_clear(const wf_grid *g, int cls, int ax, int ay, int bx,
                          int by, int cx, int cy)
{
    int x0 = ax < bx ? (ax < cx ? ax : cx) : (bx < cx ? bx : cx);
    int x1 = ax > bx ? (ax > cx ? ax : cx) : (bx > cx ? bx : cx);
    int y0 = ay < by ? (ay < cy ? ay : cy) : (by < cy ? by : cy);
    int y1 = ay > by ? (ay > cy ? ay : cy) : (by > cy ? by : cy);
    int rows = x1 - x0 >= y1 - y0;
    sm_lines l = class_lines(g, cls, rows);
    int v0, v1;
    sm_side e[3];
    if (rows) {
        v0 = y0;
        v1 = y1;
        side_init(&e[0], ax, ay, bx, by);
        side_init(&e[1], bx, by, cx, cy);
        side_init(&e[2], cx, cy, ax, ay);
    } else {
        v0 = x0;
        v1 = x1;
        side_init(&e[0], ay, ax, by, bx);
        side_init(&e[1], by, bx, cy, cx);
        side_init(&e[2], cy, cx, ay, ax);
    }
    for (int v = v0; v <= v1; v++) {
        int k0 = INT32_MAX, k1 = INT32_MIN;
        for (int s = 0; s < 3; s++)
            if (v >= e[s].lo && v <= e[s].hi)
                side_span(&e[s], v, &k0, &k1);
        if (wf_line_first_blocked(line_at(&l, v), k0, k1, 1) >= 0)
            return 0;
    }
    return 1;
}

int wf_grid_line_of_sight(const wf_grid *g, int cls, int ax, int ay, int bx,
                          int by)
{
    if (cls < 0 || cls >= g->nclasses)
        return 0;
    if (!wf_grid_is_passable(g, ax, ay, cls) || !wf_grid_is_passable(g, bx, by, cls))
        return 0;
    int px, py;
    return los_cells(g, cls, ax, ay, bx, by, &px, &py);
}

/* ------------------------------------------------- blockers, shadows -- */

typedef struct sm_box {
    int32_t x0, y0, x1, y1;     /* [navcells] inclusive; x0 > x1: empty */
} sm_box;

/* What a blocker hides from a source: the closed wedge from the source's
 * centre between rays a and b (doubled coordinates, a turning
 * anticlockwise to b by less than half a turn), cut to the points beyond
 * the blocker's near sides (x >= xlo, x <= xhi, y >= ylo, y <= yhi, also
 * doubled). a = b = 0: nothing is hidden. */
typedef struct wf_shadow {
    int32_t ax, ay, bx, by, xlo, xhi, ylo, yhi;
} wf_shadow;

/* How far a blocker grows from its first navcell: across the line of view
 * (widening its shadow), then along it. */
#define BLOCKER_SPAN  64
#define BLOCKER_DEPTH 8

/* The blocked run of a line of len positions around blocked position p,
 * at most BLOCKER_SPAN positions each way. */
static void blocked_run(const uint64_t *line, int p, int len, int *lo, int *hi)
{
    int top = p + BLOCKER_SPAN < len - 1 ? p + BLOCKER_SPAN : len - 1;
    int bot = p - BLOCKER_SPAN > 0 ? p - BLOCKER_SPAN : 0;
    unsigned b = (unsigned)p + 1, w = b >> 6;
    unsigned wt = ((unsigned)top + 1) >> 6, wb = ((unsigned)bot + 1) >> 6;
    uint64_t z = line[w] & (~(uint64_t)0 << (b & 63));
    while (!z && w < wt)
        z = line[++w];
    int up = z ? (int)(w * 64 + (unsigned)wf_ctz64(z)) - 2 : top;
    w = b >> 6;
    z = line[w] & (~(uint64_t)0 >> (63 - (b & 63)));
    while (!z && w > wb)
        z = line[--w];
    int dn = z ? (int)(w * 64 + 63 - (unsigned)wf_clz64(z)) : bot;
    *lo = dn < bot ? bot : dn;
    *hi = up > top ? top : up;
}

/* A rectangle of blocked navcells around blocked navcell (bx, by), on the
 * grid. xmajor: the line of view runs mostly along x. */
static sm_box grow_blocker(const wf_grid *g, int cls, int xmajor, int bx, int by)
{
    /* the lines across the line of view: columns when it runs along x */
    sm_lines l = class_lines(g, cls, !xmajor);
    int a0 = xmajor ? bx : by, a1 = a0, lo, hi;
    blocked_run(line_at(&l, a0), xmajor ? by : bx, l.len, &lo, &hi);
    for (int k = 0; k < BLOCKER_DEPTH && a0 > 0
         && line_all_blocked(line_at(&l, a0 - 1), lo, hi); k++)
        a0--;
    for (int k = 0; k < BLOCKER_DEPTH && a1 < l.count - 1
         && line_all_blocked(line_at(&l, a1 + 1), lo, hi); k++)
        a1++;
    sm_box r = xmajor ? (sm_box){a0, lo, a1, hi} : (sm_box){lo, a0, hi, a1};
    return r;
}

/* 1 when the closed segment between the centres of navcells a and b meets
 * the closed rectangle r: their boxes overlap and r's corners are not all
 * strictly on one side of the segment's line. */
static int segment_meets(int ax, int ay, int bx, int by, const sm_box *r)
{
    int64_t x0 = 2 * (int64_t)ax + 1, y0 = 2 * (int64_t)ay + 1;
    int64_t x1 = 2 * (int64_t)bx + 1, y1 = 2 * (int64_t)by + 1;
    int64_t lx = 2 * (int64_t)r->x0, ly = 2 * (int64_t)r->y0;
    int64_t hx = 2 * (int64_t)r->x1 + 2, hy = 2 * (int64_t)r->y1 + 2;
    if ((x0 < x1 ? x0 : x1) > hx || (x0 > x1 ? x0 : x1) < lx
        || (y0 < y1 ? y0 : y1) > hy || (y0 > y1 ? y0 : y1) < ly)
        return 0;
    int64_t dx = x1 - x0, dy = y1 - y0;
    int64_t a = dx * (ly - y0), b = dx * (hy - y0);
    int64_t c = dy * (lx - x0), d = dy * (hx - x0);
    int64_t s0 = a - c, s1 = a - d, s2 = b - c, s3 = b - d;
    if (s0 > 0 && s1 > 0 && s2 > 0 && s3 > 0)
        return 0;
    return !(s0 < 0 && s1 < 0 && s2 < 0 && s3 < 0);
}

/* The shadow of blocker r seen from the centre of navcell (x, y), which is
 * not in r. The silhouette corners bound the wedge; the sides of r that
 * face the source bound "beyond". */
static void shadow_of(wf_shadow *h, int x, int y, const sm_box *r)
{
    int64_t px = 2 * (int64_t)x + 1, py = 2 * (int64_t)y + 1;
    int64_t lx = 2 * (int64_t)r->x0, ly = 2 * (int64_t)r->y0;
    int64_t hx = 2 * (int64_t)r->x1 + 2, hy = 2 * (int64_t)r->y1 + 2;
    int sx = px < lx ? -1 : (px > hx ? 1 : 0);
    int sy = py < ly ? -1 : (py > hy ? 1 : 0);
    h->xlo = INT32_MIN;
    h->xhi = INT32_MAX;
    h->ylo = INT32_MIN;
    h->yhi = INT32_MAX;
    h->ax = h->ay = h->bx = h->by = 0;
    if (sx == 0 && sy == 0)
        return;                         /* cannot happen: x, y is passable */
    if (sx < 0)
        h->xlo = (int32_t)lx;
    else if (sx > 0)
        h->xhi = (int32_t)hx;
    if (sy < 0)
        h->ylo = (int32_t)ly;
    else if (sy > 0)
        h->yhi = (int32_t)hy;
    int64_t c1x, c1y, c2x, c2y;
    if (sx == 0) {
        c1x = lx;
        c2x = hx;
        c1y = c2y = sy < 0 ? ly : hy;
    } else if (sy == 0) {
        c1y = ly;
        c2y = hy;
        c1x = c2x = sx < 0 ? lx : hx;
    } else if (sx == sy) {
        c1x = lx;
        c1y = hy;
        c2x = hx;
        c2y = ly;
    } else {
        c1x = lx;
        c1y = ly;
        c2x = hx;
        c2y = hy;
    }
    int64_t ax = c1x - px, ay = c1y - py, bx = c2x - px, by = c2y - py;
    if (ax * by - ay * bx < 0) {
        int64_t t = ax;
        ax = bx;
        bx = t;
        t = ay;
        ay = by;
        by = t;
    }
    h->ax = (int32_t)ax;
    h->ay = (int32_t)ay;
    h->bx = (int32_t)bx;
    h->by = (int32_t)by;
}

/* 1 when the centres of every navcell of box b lie in shadow h of the
 * source at (x, y). The wedge tests need only the corner of b that is
 * worst for each ray (the cross product is linear in the point). */
static int in_shadow(const wf_shadow *h, int x, int y, const sm_box *b)
{
    if (!(h->ax | h->ay))
        return 0;
    int64_t x0 = 2 * (int64_t)b->x0 + 1, y0 = 2 * (int64_t)b->y0 + 1;
    int64_t x1 = 2 * (int64_t)b->x1 + 1, y1 = 2 * (int64_t)b->y1 + 1;
    if (x0 < h->xlo || x1 > h->xhi || y0 < h->ylo || y1 > h->yhi)
        return 0;
    int64_t px = 2 * (int64_t)x + 1, py = 2 * (int64_t)y + 1;
    int64_t vx = (h->ay >= 0 ? x1 : x0) - px, vy = (h->ax >= 0 ? y0 : y1) - py;
    if ((int64_t)h->ax * vy - (int64_t)h->ay * vx < 0)
        return 0;
    vx = (h->by >= 0 ? x0 : x1) - px;
    vy = (h->bx >= 0 ? y1 : y0) - py;
    return vx * h->by - vy * h->bx >= 0;
}

/* ------------------------------------------------------------ scratch -- */

/* Path navcells per leaf of the box tree. */
#define LEAF 8
/* Navcells of a straight run that one triangle test tries to show visible
 * from a source that sees the run's first. */
#define RUN_CHECK 64
/* Blockers remembered across tests: the ones found last often hide the
 * next pairs too, and testing one is far cheaper than a line of sight. */
#define RECENT 4

struct wf_smooth {
    size_t cap;                 /* navcells every per-navcell array holds */
    int32_t *x, *y;             /* the path's navcells, start first */
    int64_t *cost;              /* path cost from the start (search units) */
    int32_t *hops;              /* phase 1: fewest segments from the start */
    int32_t *link;              /* next source in a wake or park list */
    int32_t *wake;              /* per target: sources to test there */
    int32_t *park;              /* per layer: sources set aside */
    int32_t *pick;              /* per layer: sources to test now */
    int32_t *first, *last;      /* per layer: its navcells, in path order */
    int32_t *next;              /*   linked by next */
    int32_t *succ;              /* phase 2: next waypoint, -2 unreachable */
    int32_t *run;               /* last navcell of the straight run from q */
    int32_t *vis_lo, *vis_hi;   /* per source: navcells it is known to see */
    int64_t *rest;              /* phase 2: shortest length to the end */
    wf_shadow *shadow;          /* per source: what its blocker hides */
    uint64_t *parked, *picked;  /* bit per layer: its list is not empty */
    size_t tcap;                /* leaves of the current path's box tree */
    sm_box *box;                /* the box tree, node 1 the root */
    int64_t *low;               /* per tree node, 4 values: see detour_all */
    sm_box recent[RECENT];
    int nrecent;
    int32_t *ox, *oy;           /* the waypoints found */
};

void wf_smooth_free(wf_smooth *m)
{
    if (!m)
        return;
    free(m->x);
    free(m->y);
    free(m->cost);
    free(m->hops);
    free(m->link);
    free(m->wake);
    free(m->park);
    free(m->pick);
    free(m->first);
    free(m->last);
    free(m->next);
    free(m->succ);
    free(m->run);
    free(m->vis_lo);
    free(m->vis_hi);
    free(m->rest);
    free(m->shadow);
    free(m->parked);
    free(m->picked);
    free(m->box);
    free(m->low);
    free(m->ox);
    free(m->oy);
    free(m);
}

/* Bytes per path navcell of the arrays below, and of the box tree. */
#define PER_NAVCELL (16 * sizeof(int32_t) + 2 * sizeof(int64_t) \
                     + sizeof(wf_shadow))

/* Leaves of the box tree over n path navcells: a power of 2. */
static size_t tree_leaves(size_t n)
{
    size_t leaves = (n + LEAF - 1) / LEAF, t = 1;
    while (t < leaves)
        t *= 2;
    return t;
}

size_t wf_smooth_memory(const wf_smooth *m)
{
    if (!m)
        return 0;
    return sizeof *m + m->cap * PER_NAVCELL + 2 * (m->cap / 64 + 1) * 8
           + 2 * tree_leaves(m->cap) * (sizeof(sm_box) + 4 * sizeof(int64_t));
}

/* Makes room for paths of n navcells; the arrays only grow (doubling), so
 * a search smooths without allocating once it has seen its longest path.
 * On failure everything is freed and WF_ERR_NOMEM returned. */
static wf_status reserve(wf_smooth **pm, size_t n)
{
    wf_smooth *m = *pm;
    if (m && n <= m->cap)
        return WF_OK;
    size_t c = m ? m->cap : 256;
    while (c < n)
        c *= 2;
    wf_smooth_free(m);
    m = *pm = calloc(1, sizeof *m);
    if (!m)
        return WF_ERR_NOMEM;
    size_t t = tree_leaves(c);
    size_t i32 = sizeof(int32_t), i64 = sizeof(int64_t);
    m->x = malloc(c * i32);
    m->y = malloc(c * i32);
    m->cost = malloc(c * i64);
    m->hops = malloc(c * i32);
    m->link = malloc(c * i32);
    m->wake = malloc(c * i32);
    m->park = malloc(c * i32);
    m->pick = malloc(c * i32);
    m->first = malloc(c * i32);
    m->last = malloc(c * i32);
    m->next = malloc(c * i32);
    m->succ = malloc(c * i32);
    m->run = malloc(c * i32);
    m->vis_lo = malloc(c * i32);
    m->vis_hi = malloc(c * i32);
    m->rest = malloc(c * i64);
    m->shadow = malloc(c * sizeof *m->shadow);
    m->parked = malloc((c / 64 + 1) * sizeof(uint64_t));
    m->picked = malloc((c / 64 + 1) * sizeof(uint64_t));
    m->box = malloc(2 * t * sizeof *m->box);
    m->low = malloc(8 * t * sizeof *m->low);
    m->ox = malloc(c * i32);
    m->oy = malloc(c * i32);
    if (!m->x || !m->y || !m->cost || !m->hops || !m->link || !m->wake
        || !m->park || !m->pick || !m->first || !m->last || !m->next
        || !m->succ || !m->run || !m->vis_lo || !m->vis_hi || !m->rest
        || !m->shadow || !m->parked || !m->picked || !m->box || !m->low
        || !m->ox || !m->oy) {
        wf_smooth_free(m);
        *pm = NULL;
        return WF_ERR_NOMEM;
    }
    m->cap = c;
    return WF_OK;
}

/* ---------------------------------------------------------- the path -- */

/* Expands chain[0..n) (straight 8-connected runs between its entries)
 * into m->x/m->y; returns the navcell count. */
static int expand(wf_smooth *m, const uint32_t *chain, size_t n, uint32_t w)
{
    int k = 0;
    m->x[0] = (int32_t)(chain[0] % w);
    m->y[0] = (int32_t)(chain[0] / w);
    for (size_t e = 1; e < n; e++) {
        int tx = (int)(chain[e] % w), ty = (int)(chain[e] / w);
        int dx = (tx > m->x[k]) - (tx < m->x[k]);
        int dy = (ty > m->y[k]) - (ty < m->y[k]);
        while (m->x[k] != tx || m->y[k] != ty) {
            m->x[k + 1] = m->x[k] + dx;
            m->y[k + 1] = m->y[k] + dy;
            k++;
        }
    }
    return k + 1;
}

/* The navcell count of chain[0..n) once expanded. */
static size_t expanded_count(const uint32_t *chain, size_t n, uint32_t w)
{
    size_t total = 1;
    for (size_t e = 1; e < n; e++) {
        int dx = abs((int)(chain[e] % w) - (int)(chain[e - 1] % w));
        int dy = abs((int)(chain[e] / w) - (int)(chain[e - 1] / w));
        total += (size_t)(dx > dy ? dx : dy);
    }
    return total;
}

/* The path cost to every navcell, with the search's own step costs. */
static void path_costs(wf_smooth *m, const wf_grid *g, int n)
{
    m->cost[0] = 0;
    for (int k = 1; k < n; k++) {
        int diag = m->x[k] != m->x[k - 1] && m->y[k] != m->y[k - 1];
        int64_t c = 2;
        if (g->cost)
            c = g->cost[(size_t)m->y[k - 1] * (size_t)g->w + (size_t)m->x[k - 1]]
                + g->cost[(size_t)m->y[k] * (size_t)g->w + (size_t)m->x[k]];
        m->cost[k] = m->cost[k - 1] + (diag ? WF_COST_DIAG : WF_COST_SCALE) * c;
    }
}

/* The detour bound for a set Q of navcells seen from source i: every q in
 * Q is hidden when cost[q] - cost[i] > k * (|qx - ix| + |qy - iy|). The
 * Manhattan distance is the largest of sx (qx - ix) + sy (qy - iy) over
 * the four sign pairs, so the test holds for all of Q at once when
 * min over the pairs of (low_s + k (sx ix + sy iy)) > cost[i], with low_s
 * the least cost[q] - k (sx qx + sy qy) over Q. Pair s: sx = -1 when bit
 * 0 is set, sy = -1 when bit 1 is. */
static void low_add(int64_t *low, int64_t k, int64_t cost, int x, int y)
{
    for (int p = 0; p < 4; p++) {
        int64_t v = cost - k * ((p & 1 ? -x : x) + (p & 2 ? -y : y));
        if (v < low[p])
            low[p] = v;
    }
}

static int detour_all(const int64_t *low, int64_t k, int64_t cost, int x, int y)
{
    for (int p = 0; p < 4; p++)
        if (low[p] + k * ((p & 1 ? -x : x) + (p & 2 ? -y : y)) <= cost)
            return 0;
    return 1;
}

/* Grows box b to hold navcell (x, y). */
static void box_add(sm_box *b, int x, int y)
{
    if (x < b->x0) b->x0 = x;
    if (x > b->x1) b->x1 = x;
    if (y < b->y0) b->y0 = y;
    if (y > b->y1) b->y1 = y;
}

/* Leaf b of the box tree holds navcells [b * LEAF, (b + 1) * LEAF); each
 * node the bounding box of its leaves' navcells and their low values. */
static void build_tree(wf_smooth *m, int n, int64_t k)
{
    size_t leaves = ((size_t)n + LEAF - 1) / LEAF, t = tree_leaves((size_t)n);
    m->tcap = t;
    for (size_t b = 0; b < t; b++) {
        sm_box *r = &m->box[t + b];
        int64_t *low = &m->low[4 * (t + b)];
        low[0] = low[1] = low[2] = low[3] = INT64_MAX;
        if (b >= leaves) {
            r->x0 = r->y0 = 1;
            r->x1 = r->y1 = 0;
            continue;
        }
        int a = (int)b * LEAF, e = a + LEAF < n ? a + LEAF : n;
        r->x0 = r->x1 = m->x[a];
        r->y0 = r->y1 = m->y[a];
        for (int q = a; q < e; q++) {
            box_add(r, m->x[q], m->y[q]);
            low_add(low, k, m->cost[q], m->x[q], m->y[q]);
        }
    }
    for (size_t j = t - 1; j >= 1; j--) {
        const sm_box *a = &m->box[2 * j], *b = &m->box[2 * j + 1];
        sm_box *r = &m->box[j];
        for (int p = 0; p < 4; p++) {
            int64_t la = m->low[4 * (2 * j) + p], lb = m->low[4 * (2 * j + 1) + p];
            m->low[4 * j + p] = la < lb ? la : lb;
        }
        if (b->x0 > b->x1) {
            *r = *a;
            continue;
        }
        r->x0 = a->x0 < b->x0 ? a->x0 : b->x0;
        r->y0 = a->y0 < b->y0 ? a->y0 : b->y0;
        r->x1 = a->x1 > b->x1 ? a->x1 : b->x1;
        r->y1 = a->y1 > b->y1 ? a->y1 : b->y1;
    }
}

/* ------------------------------------------------------- certificates -- */

/* One smoothing run: the path, the grid and the detour bound. */
typedef struct sm_run {
    wf_smooth *m;
    const wf_grid *g;
    int cls, n;
    int64_t k;                  /* cost per unit of Manhattan distance */
} sm_run;

/* 1 when every navcell of a set is certainly hidden from source i: the
 * set's low values (see detour_all) and bounding box b. */
static int set_hidden(const sm_run *r, int i, const int64_t *low, const sm_box *b)
{
    const wf_smooth *m = r->m;
    int xi = m->x[i], yi = m->y[i];
    return detour_all(low, r->k, m->cost[i], xi, yi)
           || in_shadow(&m->shadow[i], xi, yi, b);
}

static int node_hidden(const sm_run *r, int i, size_t node)
{
    const wf_smooth *m = r->m;
    return m->box[node].x0 > m->box[node].x1
           || set_hidden(r, i, &m->low[4 * node], &m->box[node]);
}

static int cell_hidden(const sm_run *r, int i, int q)
{
    const wf_smooth *m = r->m;
    int xi = m->x[i], yi = m->y[i], xq = m->x[q], yq = m->y[q];
    if (m->cost[q] - m->cost[i] > r->k * (abs(xq - xi) + abs(yq - yi)))
        return 1;
    sm_box b = {xq, yq, xq, yq};
    return in_shadow(&m->shadow[i], xi, yi, &b);
}

/* The first target q >= p that source i's certificates do not cover, or n:
 * p's leaf (as a whole, then navcell by navcell), then the tree: up and
 * right to the first node not covered as a whole, down to its first leaf.
 * The box of p's leaf also holds navcells before p: covering it covers the
 * rest of the leaf. */
static int next_target(const sm_run *r, int i, int p)
{
    const wf_smooth *m = r->m;
    size_t t = m->tcap;
    int lt = 63 - wf_clz64((unsigned long long)t);
    int n = r->n;
    int tested = 0;     /* p's leaf box is known not covered */
    for (;;) {
        int leaf = p / LEAF, end = (leaf + 1) * LEAF < n ? (leaf + 1) * LEAF : n;
        if (tested || !node_hidden(r, i, t + (size_t)leaf))
            for (int q = p; q < end; q++)
                if (!cell_hidden(r, i, q))
                    return q;
        tested = 1;
        size_t k = t + (size_t)leaf;
        for (;;) {
            while (k & 1)
                k >>= 1;
            if (k == 0)
                return n;
            k++;
            int sh = lt - (63 - wf_clz64((unsigned long long)k));
            if (((k << sh) - t) * LEAF >= (size_t)n)
                return n;
            if (!node_hidden(r, i, k))
                break;
        }
        /* down to the first leaf not covered (a node whose box is empty
         * holds no navcell and is always covered) */
        while (k < t) {
            k *= 2;
            if (node_hidden(r, i, k))
                k++;
        }
        p = (int)(k - t) * LEAF;
        if (p >= n)
            return n;
    }
}

/* Line of sight from source i to target j. When blocked, i's shadow
 * becomes that of the blocker found: a recent one the segment meets, or
 * the one grown from the blocked navcell nearest i. */
static int sees(sm_run *r, int i, int j)
{
    wf_smooth *m = r->m;
    int ax = m->x[i], ay = m->y[i], bx = m->x[j], by = m->y[j];
    if (j >= m->vis_lo[i] && j <= m->vis_hi[i])
        return 1;
    for (int k = 0; k < m->nrecent; k++) {
        if (segment_meets(ax, ay, bx, by, &m->recent[k])) {
            sm_box b = m->recent[k];
            memmove(&m->recent[1], &m->recent[0], (size_t)k * sizeof b);
            m->recent[0] = b;
            shadow_of(&m->shadow[i], ax, ay, &b);
            return 0;
        }
    }
    int px, py;
    if (los_cells(r->g, r->cls, ax, ay, bx, by, &px, &py)) {
        /* the path often runs on straight past j: one triangle test can
         * show that i sees the rest of the run, instead of a line of sight
         * per navcell */
        int e = m->run[j] - j > RUN_CHECK ? j + RUN_CHECK : m->run[j];
        if (e > j && triangle_clear(r->g, r->cls, ax, ay, bx, by, m->x[e], m->y[e])) {
            m->vis_lo[i] = j;
            m->vis_hi[i] = e;
        }
        return 1;
    }
    sm_box b = grow_blocker(r->g, r->cls, abs(bx - ax) >= abs(by - ay), px, py);
    int keep = m->nrecent < RECENT ? m->nrecent++ : RECENT - 1;
    memmove(&m->recent[1], &m->recent[0], (size_t)keep * sizeof b);
    m->recent[0] = b;
    shadow_of(&m->shadow[i], ax, ay, &b);
    return 0;
}

/* ------------------------------------------------------------ phase 1 -- */

static void set_bit(uint64_t *bits, int k)
{
    bits[k >> 6] |= (uint64_t)1 << (k & 63);
}

static void clear_bit(uint64_t *bits, int k)
{
    bits[k >> 6] &= ~((uint64_t)1 << (k & 63));
}

/* Sets source i aside in its layer's park list, untested. */
static void park(wf_smooth *m, int i)
{
    int l = m->hops[i];
    m->link[i] = m->park[l];
    m->park[l] = i;
    set_bit(m->parked, l);
}

/* Source i waits in target q's wake list (forever when q is n). */
static void wake_at(sm_run *r, int i, int q)
{
    if (q < r->n) {
        r->m->link[i] = r->m->wake[q];
        r->m->wake[q] = i;
    }
}

/* Source i waits for the first target from p on that its certificates do
 * not cover; when it is known to see p, that is p. */
static void sleep_until(sm_run *r, int i, int p)
{
    const wf_smooth *m = r->m;
    if (p >= m->vis_lo[i] && p <= m->vis_hi[i])
        wake_at(r, i, p);
    else
        wake_at(r, i, p < r->n ? next_target(r, i, p) : r->n);
}

/* The lowest layer <= lim, above `after`, whose pick or park list is not
 * empty; INT32_MAX when none. */
static int next_layer(const wf_smooth *m, int after, int lim)
{
    int from = after + 1;
    if (from > lim)
        return INT32_MAX;
    for (int w = from >> 6; w <= lim >> 6; w++) {
        uint64_t bits = m->parked[w] | m->picked[w];
        if (w == from >> 6)
            bits &= ~(uint64_t)0 << (from & 63);
        if (bits) {
            int l = w * 64 + wf_ctz64(bits);
            return l <= lim ? l : INT32_MAX;
        }
    }
    return INT32_MAX;
}

/* hops[j] for every navcell, and each layer's navcells in path order.
 * Returns the number of layers. */
static int label_hops(sm_run *r)
{
    wf_smooth *m = r->m;
    int n = r->n, layers = 1;
    size_t words = (size_t)n / 64 + 1;
    for (int k = 0; k < n; k++)
        m->wake[k] = m->park[k] = m->pick[k] = -1;
    memset(m->parked, 0, words * sizeof *m->parked);
    memset(m->picked, 0, words * sizeof *m->picked);
    for (int k = 0; k < n; k++) {
        m->shadow[k].ax = m->shadow[k].ay = 0;
        m->vis_lo[k] = 1;
        m->vis_hi[k] = 0;
    }
    m->run[n - 1] = n - 1;
    for (int k = n - 2; k >= 0; k--) {
        int same = k + 2 < n
                   && m->x[k + 1] - m->x[k] == m->x[k + 2] - m->x[k + 1]
                   && m->y[k + 1] - m->y[k] == m->y[k + 2] - m->y[k + 1];
        m->run[k] = same ? m->run[k + 1] : k + 1;
    }
    m->hops[0] = 0;
    m->first[0] = m->last[0] = 0;
    m->next[0] = -1;
    park(m, 0);
    for (int j = 1; j < n; j++) {
        /* a source in layer l that sees j gives it l + 1; only layers up to
         * lim can beat hops[j - 1] + 1, which j - 1 always gives */
        int best = m->hops[j - 1] + 1, lim = best - 2;
        for (int i = m->wake[j]; i >= 0;) {
            int nx = m->link[i], l = m->hops[i];
            m->link[i] = m->pick[l];
            m->pick[l] = i;
            set_bit(m->picked, l);
            i = nx;
        }
        m->wake[j] = -1;
        /* layers from the lowest: the first with a source that sees j
         * decides; sources above it are parked untested */
        for (int l = next_layer(m, -1, lim); l != INT32_MAX;
             l = next_layer(m, l, lim)) {
            int found = 0;
            int i = m->pick[l];
            m->pick[l] = -1;
            clear_bit(m->picked, l);
            while (i >= 0) {
                int nx = m->link[i];
                if (found) {
                    park(m, i);
                } else {
                    found = sees(r, i, j);
                    sleep_until(r, i, j + 1);
                }
                i = nx;
            }
            if (!found && ((m->parked[l >> 6] >> (l & 63)) & 1)) {
                i = m->park[l];
                m->park[l] = -1;
                clear_bit(m->parked, l);
                while (i >= 0) {
                    int nx = m->link[i];
                    int q = found ? j : next_target(r, i, j);
                    if (found) {
                        park(m, i);
                    } else if (q == j) {
                        found = sees(r, i, j);
                        sleep_until(r, i, j + 1);
                    } else {
                        wake_at(r, i, q);
                    }
                    i = nx;
                }
            }
            if (found) {
                best = l + 1;
                break;
            }
        }
        /* sources picked for j in layers left unvisited wait in their park
         * lists */
        for (int w = 0; w <= (layers - 1) >> 6; w++) {
            while (m->picked[w]) {
                int l = w * 64 + wf_ctz64(m->picked[w]);
                for (int i = m->pick[l]; i >= 0;) {
                    int nx = m->link[i];
                    park(m, i);
                    i = nx;
                }
                m->pick[l] = -1;
                clear_bit(m->picked, l);
            }
        }
        m->hops[j] = best;
        if (best == layers) {
            m->first[layers++] = j;
        } else {
            m->next[m->last[best]] = j;
        }
        m->last[best] = j;
        m->next[j] = -1;
        park(m, j);
    }
    return layers;
}

/* ------------------------------------------------------------ phase 2 -- */

/* From the end back through the layers: succ and rest for every navcell
 * that lies on a fewest-segment chain to the end. Layer t + 1's members on
 * such chains are gathered in m->pick (free after phase 1). */
static void shortest_chain(sm_run *r, int layers)
{
    wf_smooth *m = r->m;
    int n = r->n;
    int32_t *later = m->pick;
    for (int k = 0; k < n; k++)
        m->succ[k] = -2;
    m->succ[n - 1] = -1;
    m->rest[n - 1] = 0;
    for (int t = layers - 2; t >= 0; t--) {
        int count = 0;
        for (int j = m->first[t + 1]; j >= 0; j = m->next[j])
            if (m->succ[j] != -2)
                later[count++] = j;
        if (count == 0)
            continue;
        int end = later[count - 1];
        sm_box all = {m->x[later[0]], m->y[later[0]], m->x[later[0]], m->y[later[0]]};
        int64_t low[4] = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
        for (int q = 0; q < count; q++) {
            int j = later[q];
            box_add(&all, m->x[j], m->y[j]);
            low_add(low, r->k, m->cost[j], m->x[j], m->y[j]);
        }
        for (int i = m->first[t]; i >= 0 && i < end; i = m->next[i]) {
            int64_t best = INT64_MAX;
            int to = -1;
            if (i < later[0] && set_hidden(r, i, low, &all))
                continue;
            for (int q = 0; q < count; q++) {
                int j = later[q];
                if (j <= i || cell_hidden(r, i, j))
                    continue;
                int64_t len = wf_segment_length(m->x[j] - m->x[i],
                                                m->y[j] - m->y[i])
                              + m->rest[j];
                if (len < best && sees(r, i, j)) {
                    best = len;
                    to = j;
                }
            }
            if (to >= 0) {
                m->succ[i] = to;
                m->rest[i] = best;
            }
        }
    }
}

/* ------------------------------------------------------------- driver -- */

wf_status wf_smooth_chain(wf_search *s, const wf_grid *g, int cls, size_t n,
                          const int32_t **x, const int32_t **y, int *out_n)
{
    uint32_t w = (uint32_t)g->w;
    size_t cells = expanded_count(s->chain, n, w);
    wf_status st = reserve(&s->smooth, cells);
    if (st != WF_OK)
        return st;
    wf_smooth *m = s->smooth;
    sm_run r = {m, g, cls, expand(m, s->chain, n, w), 0};
    int maxc = 1;
    for (int c = WF_MAX_COST; c > 1 && g->cost; c--)
        if (g->cost_hist[c]) {
            maxc = c;
            break;
        }
    r.k = 2 * WF_COST_SCALE * maxc;
    path_costs(m, g, r.n);
    build_tree(m, r.n, r.k);
    m->nrecent = 0;
    int layers = label_hops(&r);
    shortest_chain(&r, layers);
    int k = 0;
    for (int v = 0; v >= 0; v = m->succ[v]) {
        m->ox[k] = m->x[v];
        m->oy[k++] = m->y[v];
    }
    *x = m->ox;
    *y = m->oy;
    *out_n = k;
    return WF_OK;
}
