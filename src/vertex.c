/* vertex.c - the short-range points-of-visibility pathfinder: A* over the
 * convex corners of blocked navcells and of units' grown squares in a box,
 * with the swept tests of sweep.c deciding which corners see each other. */
#include <stdlib.h>
#include <string.h>

#include "wayfinder.h"
#include "fixmath.h"

#define FIX ((int64_t)WF_FIX_ONE)
#define NONE (-1)

enum { F_OPEN = 1, F_CLOSED = 2, F_GOAL = 4 };

typedef struct edge { wf_fix x0, y0, x1, y1; } edge;


struct wf_vertex {
    int cap;
    wf_fix *vx, *vy;
    int64_t *g, *f;
    int32_t *parent, *heap;
    uint8_t *flags;
    int n, hn;
    wf_fix *path;
    /* square buckets over the box */
    int32_t *shead, *snext;   /* bucket -> link; link: square, next link */
    int sbcap, sncap, sbw, sbh;
    wf_fix sbx0, sby0;
    /* the baseline's edges */
    edge *edges;
    int ne, ecap;
    /* the query in progress */
    const wf_grid *grid;
    const wf_vertex_query *q;
    const wf_vertex_square *sq;
    int nsq;
    uint64_t tests;
};

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

static int64_t floor_div(int64_t n, int64_t d)
{
    int64_t q = n / d;
    return (n % d != 0 && n < 0) ? q - 1 : q;
}

/* floor(sqrt(v)): fixmath.h's exact root, the same for every v as the
 * bit-by-bit one */
static uint64_t isqrt64(uint64_t v) { return wf_isqrt64(v); }

static int64_t dist(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
    uint64_t dx = (uint64_t)abs64(bx - ax), dy = (uint64_t)abs64(by - ay);
    return (int64_t)isqrt64(dx * dx + dy * dy);
}

wf_status wf_vertex_create(wf_vertex **out, int max_vertices)
{
    *out = NULL;
    if (max_vertices < 16 || max_vertices > 65536)
        return WF_ERR_ARG;
    wf_vertex *v = calloc(1, sizeof *v);
    if (!v)
        return WF_ERR_NOMEM;
    size_t c = (size_t)max_vertices;
    v->cap = max_vertices;
    v->vx = malloc(c * sizeof *v->vx);
    v->vy = malloc(c * sizeof *v->vy);
    v->g = malloc(c * sizeof *v->g);
    v->f = malloc(c * sizeof *v->f);
    v->parent = malloc(c * sizeof *v->parent);
    v->heap = malloc(c * sizeof *v->heap);
    v->flags = malloc(c);
    v->path = malloc(2 * c * sizeof *v->path);
    if (!v->vx || !v->vy || !v->g || !v->f || !v->parent || !v->heap
        || !v->flags || !v->path) {
        wf_vertex_destroy(v);
        return WF_ERR_NOMEM;
    }
    *out = v;
    return WF_OK;
}

void wf_vertex_destroy(wf_vertex *v)
{
    if (!v)
        return;
    free(v->vx);
    free(v->vy);
    free(v->g);
    free(v->f);
    free(v->parent);
    free(v->heap);
    free(v->flags);
    free(v->path);
    free(v->shead);
    free(v->snext);
    free(v->edges);
    free(v);
}

size_t wf_vertex_memory(const wf_vertex *v)
{
    return sizeof *v + (size_t)v->cap * (2 * sizeof(wf_fix) + 2 * sizeof(int64_t)
           + 2 * sizeof(int32_t) + 1 + 2 * sizeof(wf_fix))
           + (size_t)v->sbcap * sizeof *v->shead
           + (size_t)v->sncap * 2 * sizeof *v->snext
           + (size_t)v->ecap * sizeof *v->edges;
}

/* ------------------------------------------------------------ the heap -- */

static int before(const wf_vertex *v, int a, int b)
{
    return v->f[a] < v->f[b] || (v->f[a] == v->f[b] && a < b);
}

static void heap_up(wf_vertex *v, int k)
{
    int x = v->heap[k];
    while (k > 0) {
        int p = (k - 1) / 2;
        if (!before(v, x, v->heap[p]))
            break;
        v->heap[k] = v->heap[p];
        k = p;
    }
    v->heap[k] = x;
}

static void heap_push(wf_vertex *v, int x)
{
    v->heap[v->hn] = x;
    heap_up(v, v->hn++);
}

/* x is already in the heap with a smaller f now */
static void heap_decrease(wf_vertex *v, int x)
{
    for (int k = 0; k < v->hn; k++)
        if (v->heap[k] == x) {
            heap_up(v, k);
            return;
        }
}

static int heap_pop(wf_vertex *v)
{
    int top = v->heap[0];
    int x = v->heap[--v->hn];
    int k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= v->hn)
            break;
        if (c + 1 < v->hn && before(v, v->heap[c + 1], v->heap[c]))
            c++;
        if (!before(v, v->heap[c], x))
            break;
        v->heap[k] = v->heap[c];
        k = c;
    }
    if (v->hn > 0)
        v->heap[k] = x;
    return top;
}

/* ------------------------------------------------------- visibility -- */

static int64_t sq_bucket_side(void) { return (int64_t)WF_VERTEX_BUCKET * FIX; }

/* Buckets [i0, i1] x [j0, j1] (clamped) meeting square k's closed extent:
 * bucket i covers [x0 + i side, x0 + (i + 1) side]. */
static void square_buckets(const wf_vertex *v, int k, int64_t *i0, int64_t *j0,
                           int64_t *i1, int64_t *j1)
{
    int64_t side = sq_bucket_side();
    int64_t h = v->sq[k].half;
    *i0 = -floor_div(-((int64_t)v->sq[k].x - h - v->sbx0), side) - 1;
    *i1 = floor_div((int64_t)v->sq[k].x + h - v->sbx0, side);
    *j0 = -floor_div(-((int64_t)v->sq[k].y - h - v->sby0), side) - 1;
    *j1 = floor_div((int64_t)v->sq[k].y + h - v->sby0, side);
    if (*i0 < 0) *i0 = 0;
    if (*j0 < 0) *j0 = 0;
    if (*i1 >= v->sbw) *i1 = v->sbw - 1;
    if (*j1 >= v->sbh) *j1 = v->sbh - 1;
}

static wf_status index_squares(wf_vertex *v, wf_fix x0, wf_fix y0, wf_fix x1,
                               wf_fix y1)
{
    int64_t side = sq_bucket_side();
    v->sbx0 = x0;
    v->sby0 = y0;
    v->sbw = (int)((x1 - (int64_t)x0) / side + 1);
    v->sbh = (int)((y1 - (int64_t)y0) / side + 1);
    int need = v->sbw * v->sbh;
    if (need > v->sbcap) {
        int32_t *h = realloc(v->shead, (size_t)need * sizeof *h);
        if (!h)
            return WF_ERR_NOMEM;
        v->shead = h;
        v->sbcap = need;
    }
    for (int k = 0; k < need; k++)
        v->shead[k] = NONE;
    /* each square goes in every bucket its closed extent meets (a link
     * per bucket), so a segment need only visit the buckets it meets */
    int links = 0;
    for (int k = 0; k < v->nsq; k++) {
        int64_t i0, j0, i1, j1;
        square_buckets(v, k, &i0, &j0, &i1, &j1);
        if (i0 <= i1 && j0 <= j1)
            links += (int)((i1 - i0 + 1) * (j1 - j0 + 1));
    }
    if (links > v->sncap) {
        int32_t *nx = realloc(v->snext, (size_t)links * 2 * sizeof *nx);
        if (!nx)
            return WF_ERR_NOMEM;
        v->snext = nx;
        v->sncap = links;
    }
    /* a link is (square, next link) in snext[2l], snext[2l + 1]; squares
     * are linked in reverse so each bucket lists them in input order */
    int l = 0;
    for (int k = v->nsq - 1; k >= 0; k--) {
        int64_t i0, j0, i1, j1;
        square_buckets(v, k, &i0, &j0, &i1, &j1);
        for (int64_t j = j0; j <= j1; j++)
            for (int64_t i = i0; i <= i1; i++) {
                int b = (int)(j * v->sbw + i);
                v->snext[2 * l] = k;
                v->snext[2 * l + 1] = v->shead[b];
                v->shead[b] = l++;
            }
    }
    return WF_OK;
}

static int square_blocks(const wf_vertex *v, int k, wf_fix ax, wf_fix ay,
                         wf_fix bx, wf_fix by)
{
    /* a segment whose box misses the square's neither starts nor ends in
     * it nor crosses it: the swept test's answer too, found cheaper */
    int64_t h = v->sq[k].half, cx = v->sq[k].x, cy = v->sq[k].y;
    if ((ax < bx ? ax : bx) > cx + h || (ax < bx ? bx : ax) < cx - h
        || (ay < by ? ay : by) > cy + h || (ay < by ? by : ay) < cy - h)
        return 0;
    int hit = 0;
    wf_sweep_square(ax, ay, bx, by, v->sq[k].x, v->sq[k].y, v->sq[k].half, &hit);
    return hit;
}

/* The baseline's rule for one square: the swept rule with its four edges
 * tested one by one. */
static int square_blocks_by_edges(const wf_vertex *v, int k, wf_fix ax,
                                  wf_fix ay, wf_fix bx, wf_fix by)
{
    int64_t h = v->sq[k].half, cx = v->sq[k].x, cy = v->sq[k].y;
    if (abs64(ax - cx) <= h && abs64(ay - cy) <= h)
        return 0;
    if (abs64(bx - cx) <= h && abs64(by - cy) <= h)
        return 1;
    wf_fix x0 = (wf_fix)(cx - h), x1 = (wf_fix)(cx + h);
    wf_fix y0 = (wf_fix)(cy - h), y1 = (wf_fix)(cy + h);
    return wf_segment_meets_box(ax, ay, bx, by, x0, y0, x1, y0)
           || wf_segment_meets_box(ax, ay, bx, by, x0, y1, x1, y1)
           || wf_segment_meets_box(ax, ay, bx, by, x0, y0, x0, y1)
           || wf_segment_meets_box(ax, ay, bx, by, x1, y0, x1, y1);
}

/* The squares in the buckets the closed segment meets, column by column
 * with exact rational row ranges (the walk of wf_sweep_grid at bucket
 * scale); every point of the box lies in some bucket. */
static int squares_block(const wf_vertex *v, wf_fix ax, wf_fix ay, wf_fix bx,
                         wf_fix by)
{
    int64_t side = sq_bucket_side();
    int64_t x0 = (int64_t)(ax < bx ? ax : bx) - v->sbx0;
    int64_t x1 = (int64_t)(ax < bx ? bx : ax) - v->sbx0;
    int64_t y0 = (int64_t)(ay < by ? ay : by) - v->sby0;
    int64_t y1 = (int64_t)(ay < by ? by : ay) - v->sby0;
    int64_t dx = (int64_t)bx - ax, dy = (int64_t)by - ay;
    int64_t den = dx < 0 ? -dx : dx, sgn = dx < 0 ? -1 : 1;
    int64_t rax = (int64_t)ax - v->sbx0, ray = (int64_t)ay - v->sby0;
    int64_t i0 = -floor_div(-x0, side) - 1, i1 = floor_div(x1, side);
    if (i0 < 0) i0 = 0;
    if (i1 >= v->sbw) i1 = v->sbw - 1;
    for (int64_t i = i0; i <= i1; i++) {
        int64_t j0, j1;
        if (dx == 0) {
            j0 = -floor_div(-y0, side) - 1;
            j1 = floor_div(y1, side);
        } else {
            int64_t X0 = i * side > x0 ? i * side : x0;
            int64_t X1 = (i + 1) * side < x1 ? (i + 1) * side : x1;
            int64_t n0 = sgn * (ray * dx + (X0 - rax) * dy);
            int64_t n1 = sgn * (ray * dx + (X1 - rax) * dy);
            int64_t lo = n0 < n1 ? n0 : n1, hi = n0 < n1 ? n1 : n0;
            j0 = -floor_div(-lo, den * side) - 1;
            j1 = floor_div(hi, den * side);
        }
        if (j0 < 0) j0 = 0;
        if (j1 >= v->sbh) j1 = v->sbh - 1;
        for (int64_t j = j0; j <= j1; j++)
            for (int32_t l = v->shead[j * v->sbw + i]; l != NONE; l = v->snext[2 * l + 1])
                if (square_blocks(v, v->snext[2 * l], ax, ay, bx, by))
                    return 1;
    }
    return 0;
}

static int visible(wf_vertex *v, int a, int b)
{
    wf_fix ax = v->vx[a], ay = v->vy[a], bx = v->vx[b], by = v->vy[b];
    v->tests++;
    if (v->q->brute) {
        for (int k = 0; k < v->ne; k++) {
            const edge *e = &v->edges[k];
            if (wf_segment_meets_box(ax, ay, bx, by, e->x0, e->y0, e->x1, e->y1))
                return 0;
        }
        for (int k = 0; k < v->nsq; k++)
            if (square_blocks_by_edges(v, k, ax, ay, bx, by))
                return 0;
        return 1;
    }
    /* the squares first: in a crowd they block most lines, and sooner
     * than the walk over the navcells finds out (either blocks) */
    if (v->nsq > 0 && squares_block(v, ax, ay, bx, by))
        return 0;
    int hit = 0;
    wf_sweep_grid(v->grid, v->q->cls, ax, ay, bx, by, &hit, NULL, NULL);
    return !hit;
}

/* Every navcell edge between a blocked and a passable navcell, for the
 * navcells [i0, i1] x [j0, j1] (navcells off the grid are blocked), in
 * scan order: row by row, each blocked navcell's bottom, top, left, right. */
static void outline(const wf_grid *g, int cls, int64_t i0, int64_t j0,
                    int64_t i1, int64_t j1, wf_vertex_edge_fn visit, void *ctx)
{
    for (int64_t j = j0; j <= j1; j++)
        for (int64_t i = i0; i <= i1; i++) {
            if (wf_grid_is_passable(g, (int)i, (int)j, cls))
                continue;
            wf_fix x0 = (wf_fix)(i * FIX), x1 = (wf_fix)((i + 1) * FIX);
            wf_fix y0 = (wf_fix)(j * FIX), y1 = (wf_fix)((j + 1) * FIX);
            if (wf_grid_is_passable(g, (int)i, (int)j - 1, cls))
                visit(ctx, x0, y0, x1, y0);
            if (wf_grid_is_passable(g, (int)i, (int)j + 1, cls))
                visit(ctx, x0, y1, x1, y1);
            if (wf_grid_is_passable(g, (int)i - 1, (int)j, cls))
                visit(ctx, x0, y0, x0, y1);
            if (wf_grid_is_passable(g, (int)i + 1, (int)j, cls))
                visit(ctx, x1, y0, x1, y1);
        }
}

static void keep_edge(void *p, wf_fix x0, wf_fix y0, wf_fix x1, wf_fix y1)
{
    wf_vertex *v = p;
    v->edges[v->ne++] = (edge){x0, y0, x1, y1};
}

/* The baseline's edges: the outline of the navcells that meet the box. */
static wf_status gather_edges(wf_vertex *v, int64_t i0, int64_t j0, int64_t i1,
                              int64_t j1)
{
    v->ne = 0;
    int64_t need = (i1 - i0 + 1) * (j1 - j0 + 1) * 4;
    if (need > v->ecap) {
        edge *e = realloc(v->edges, (size_t)need * sizeof *e);
        if (!e)
            return WF_ERR_NOMEM;
        v->edges = e;
        v->ecap = (int)need;
    }
    outline(v->grid, v->q->cls, i0, j0, i1, j1, keep_edge, v);
    return WF_OK;
}

/* ----------------------------------------------------------- the goal -- */

/* The point of the goal nearest (x, y) into (*px, *py); 1 when (x, y) is
 * inside (then the point is (x, y) itself). */
/* For an inverted goal: 1 when (x, y) is outside the open shape. */
static int outside_shape(const wf_goal *gl, int64_t x, int64_t y)
{
    int64_t dx = x - gl->x, dy = y - gl->y;
    if (gl->type == WF_GOAL_CIRCLE) {
        int64_t r = gl->r;
        if (abs64(dx) >= r || abs64(dy) >= r)
            return 1;
        return (uint64_t)(dx * dx) + (uint64_t)(dy * dy) >= (uint64_t)(r * r);
    }
    int64_t lu = dx * gl->ux + dy * gl->uy, lv = dx * gl->vx + dy * gl->vy;
    return abs64(lu) >= (int64_t)gl->hw * FIX || abs64(lv) >= (int64_t)gl->hh * FIX;
}

/* The nearest point outside the open shape: straight out from the centre
 * for a circle, across the nearer side for a square; stepped out by
 * whole 1/65536 units until the exact test agrees. */
static int inverted_nearest(const wf_goal *gl, wf_fix x, wf_fix y, wf_fix *px,
                            wf_fix *py)
{
    *px = x;
    *py = y;
    if (outside_shape(gl, x, y))
        return 1;
    int64_t dx = (int64_t)x - gl->x, dy = (int64_t)y - gl->y;
    int64_t ox, oy, sx, sy;
    if (gl->type == WF_GOAL_CIRCLE) {
        if (dx == 0 && dy == 0)
            dx = 1;
        int64_t d = dist(0, 0, dx, dy);
        ox = gl->x + dx * gl->r / d;
        oy = gl->y + dy * gl->r / d;
        sx = dx > 0 ? 1 : dx < 0 ? -1 : 0;
        sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    } else {
        int64_t lu = (dx * gl->ux + dy * gl->uy) / FIX;
        int64_t lv = (dx * gl->vx + dy * gl->vy) / FIX;
        int64_t su = lu < 0 ? -1 : 1, sv = lv < 0 ? -1 : 1;
        int64_t nu = lu, nv = lv;
        if ((int64_t)gl->hw - abs64(lu) <= (int64_t)gl->hh - abs64(lv))
            nu = su * (int64_t)gl->hw;
        else
            nv = sv * (int64_t)gl->hh;
        ox = gl->x + (nu * gl->ux + nv * gl->vx) / FIX;
        oy = gl->y + (nu * gl->uy + nv * gl->vy) / FIX;
        /* the outward direction in world axes */
        int64_t wx = nu != lu ? su * gl->ux : sv * gl->vx;
        int64_t wy = nu != lu ? su * gl->uy : sv * gl->vy;
        sx = wx > 0 ? 1 : wx < 0 ? -1 : 0;
        sy = wy > 0 ? 1 : wy < 0 ? -1 : 0;
    }
    for (int k = 0; k < 8 && !outside_shape(gl, ox, oy); k++) {
        ox += sx;
        oy += sy;
    }
    *px = (wf_fix)ox;
    *py = (wf_fix)oy;
    return 0;
}

static int goal_nearest(const wf_goal *gl, wf_fix x, wf_fix y, wf_fix *px,
                        wf_fix *py)
{
    int64_t dx = (int64_t)x - gl->x, dy = (int64_t)y - gl->y;
    *px = x;
    *py = y;
    if (gl->inverted && gl->type != WF_GOAL_POINT)
        return inverted_nearest(gl, x, y, px, py);
    switch (gl->type) {
    case WF_GOAL_POINT:
        *px = gl->x;
        *py = gl->y;
        return dx == 0 && dy == 0;
    case WF_GOAL_CIRCLE: {
        int64_t r = gl->r;
        if (abs64(dx) <= r && abs64(dy) <= r
            && (uint64_t)(dx * dx) + (uint64_t)(dy * dy) <= (uint64_t)(r * r))
            return 1;
        int64_t d = dist(0, 0, dx, dy);
        *px = (wf_fix)(gl->x + dx * r / d);
        *py = (wf_fix)(gl->y + dy * r / d);
        return 0;
    }
    case WF_GOAL_SQUARE: {
        int64_t lu = (dx * gl->ux + dy * gl->uy) / FIX;
        int64_t lv = (dx * gl->vx + dy * gl->vy) / FIX;
        int inside = abs64(lu) <= gl->hw && abs64(lv) <= gl->hh;
        if (inside)
            return 1;
        if (lu > gl->hw) lu = gl->hw;
        if (lu < -(int64_t)gl->hw) lu = -(int64_t)gl->hw;
        if (lv > gl->hh) lv = gl->hh;
        if (lv < -(int64_t)gl->hh) lv = -(int64_t)gl->hh;
        *px = (wf_fix)(gl->x + (lu * gl->ux + lv * gl->vx) / FIX);
        *py = (wf_fix)(gl->y + (lu * gl->uy + lv * gl->vy) / FIX);
        return 0;
    }
    }
    return 0;
}

int wf_goal_point_inside(const wf_goal *goal, wf_fix x, wf_fix y)
{
    wf_fix px, py;
    return goal_nearest(goal, x, y, &px, &py);
}

static int64_t heuristic(const wf_vertex *v, int k)
{
    wf_fix px, py;
    if (goal_nearest(&v->q->goal, v->vx[k], v->vy[k], &px, &py)
        && v->q->goal.type != WF_GOAL_POINT)
        return 0;
    return dist(v->vx[k], v->vy[k], px, py);
}

static int add_vertex(wf_vertex *v, wf_fix x, wf_fix y, uint8_t flags)
{
    if (v->n >= v->cap)
        return NONE;
    int k = v->n++;
    v->vx[k] = x;
    v->vy[k] = y;
    v->flags[k] = flags;
    v->parent[k] = NONE;
    v->g[k] = INT64_MAX;
    return k;
}

static void relax(wf_vertex *v, int from, int to)
{
    if (v->flags[to] & F_CLOSED)
        return;
    int64_t g = v->g[from] + dist(v->vx[from], v->vy[from], v->vx[to], v->vy[to]);
    if (g >= v->g[to])
        return;
    if (!visible(v, from, to))
        return;
    v->g[to] = g;
    v->parent[to] = from;
    v->f[to] = g + heuristic(v, to);
    if (v->flags[to] & F_OPEN) {
        heap_decrease(v, to);
    } else {
        v->flags[to] |= F_OPEN;
        heap_push(v, to);
    }
}

/* ------------------------------------------------------------- search -- */

static int query_ok(const wf_grid *g, const wf_vertex_query *q,
                    const wf_vertex_square *sq, int nsq)
{
    if (!g || q->cls < 0 || q->cls >= wf_grid_class_count(g) || q->range <= 0
        || q->range > WF_VERTEX_MAX_RANGE || nsq < 0 || (nsq > 0 && !sq)
        || q->x < 0 || q->y < 0 || q->x > (int64_t)WF_MAX_SIDE * FIX
        || q->y > (int64_t)WF_MAX_SIDE * FIX)
        return 0;
    for (int k = 0; k < nsq; k++)
        if (sq[k].half < 0 || sq[k].half > WF_SWEEP_MAX_HALF
            || abs64((int64_t)sq[k].x - q->x) > WF_VERTEX_MAX_RANGE * 4
            || abs64((int64_t)sq[k].y - q->y) > WF_VERTEX_MAX_RANGE * 4)
            return 0;
    return 1;
}

wf_status wf_vertex_edges(const wf_grid *g, const wf_vertex_query *q,
                          const wf_vertex_square *sq, int nsq,
                          wf_vertex_edge_fn visit, void *ctx)
{
    if (!visit || !query_ok(g, q, sq, nsq))
        return WF_ERR_ARG;
    int64_t bx0 = (int64_t)q->x - q->range, bx1 = (int64_t)q->x + q->range;
    int64_t by0 = (int64_t)q->y - q->range, by1 = (int64_t)q->y + q->range;
    outline(g, q->cls, floor_div(bx0, FIX) - 1, floor_div(by0, FIX) - 1,
            floor_div(bx1, FIX) + 1, floor_div(by1, FIX) + 1, visit, ctx);
    for (int k = 0; k < nsq; k++) {
        wf_fix x0 = sq[k].x - sq[k].half, x1 = sq[k].x + sq[k].half;
        wf_fix y0 = sq[k].y - sq[k].half, y1 = sq[k].y + sq[k].half;
        visit(ctx, x0, y0, x1, y0);
        visit(ctx, x0, y1, x1, y1);
        visit(ctx, x0, y0, x0, y1);
        visit(ctx, x1, y0, x1, y1);
    }
    return WF_OK;
}

wf_status wf_vertex_find(wf_vertex *v, const wf_grid *g,
                         const wf_vertex_query *q, const wf_vertex_square *sq,
                         int nsq, const wf_fix **xy, int *n, int *reached,
                         wf_vertex_stats *stats)
{
    *n = 0;
    *reached = 0;
    *xy = NULL;
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!query_ok(g, q, sq, nsq))
        return WF_ERR_ARG;
    if (!wf_sweep_point_clear(g, q->cls, q->x, q->y))
        return WF_START_BLOCKED;
    v->grid = g;
    v->q = q;
    v->sq = sq;
    v->nsq = nsq;
    v->tests = 0;
    v->n = 0;
    v->hn = 0;
    v->ne = 0;
    int64_t bx0 = (int64_t)q->x - q->range, bx1 = (int64_t)q->x + q->range;
    int64_t by0 = (int64_t)q->y - q->range, by1 = (int64_t)q->y + q->range;
    wf_status st = index_squares(v, (wf_fix)bx0, (wf_fix)by0, (wf_fix)bx1, (wf_fix)by1);
    if (st != WF_OK)
        return st;
    if (q->brute) {
        st = gather_edges(v, floor_div(bx0, FIX) - 1, floor_div(by0, FIX) - 1,
                          floor_div(bx1, FIX) + 1, floor_div(by1, FIX) + 1);
        if (st != WF_OK)
            return st;
    }
    add_vertex(v, q->x, q->y, 0);
    if (q->goal.type == WF_GOAL_POINT) {
        int inbox = q->goal.x >= bx0 && q->goal.x <= bx1 && q->goal.y >= by0
                    && q->goal.y <= by1;
        if (inbox && wf_sweep_point_clear(g, q->cls, q->goal.x, q->goal.y)
            && (q->goal.x != q->x || q->goal.y != q->y))
            add_vertex(v, q->goal.x, q->goal.y, F_GOAL);
    }
    /* convex corners of blocked navcells, scanned row by row */
    const wf_fix d = WF_VERTEX_DELTA;
    for (int64_t j = floor_div(by0, FIX); j <= floor_div(by1, FIX) + 1; j++)
        for (int64_t i = floor_div(bx0, FIX); i <= floor_div(bx1, FIX) + 1; i++) {
            int a = !wf_grid_is_passable(g, (int)i - 1, (int)j - 1, q->cls);
            int b = !wf_grid_is_passable(g, (int)i, (int)j - 1, q->cls);
            int c = !wf_grid_is_passable(g, (int)i - 1, (int)j, q->cls);
            int e = !wf_grid_is_passable(g, (int)i, (int)j, q->cls);
            if (a + b + c + e != 1)
                continue;
            int64_t x = i * FIX + ((a || c) ? d : -d);
            int64_t y = j * FIX + ((a || b) ? d : -d);
            if (x < bx0 || x > bx1 || y < by0 || y > by1)
                continue;
            add_vertex(v, (wf_fix)x, (wf_fix)y, 0);
        }
    /* corners of the squares, just outside them */
    for (int k = 0; k < nsq; k++)
        for (int c = 0; c < 4; c++) {
            int64_t off = (int64_t)sq[k].half + d;
            int64_t x = sq[k].x + ((c & 1) ? off : -off);
            int64_t y = sq[k].y + ((c & 2) ? off : -off);
            if (x < bx0 || x > bx1 || y < by0 || y > by1)
                continue;
            if (!wf_sweep_point_clear(g, q->cls, (wf_fix)x, (wf_fix)y))
                continue;
            add_vertex(v, (wf_fix)x, (wf_fix)y, 0);
        }
    int corners = v->n;
    /* A* */
    v->g[0] = 0;
    v->f[0] = heuristic(v, 0);
    v->flags[0] |= F_OPEN;
    heap_push(v, 0);
    int found = NONE, best = 0, expanded = 0;
    int64_t best_h = INT64_MAX;
    while (v->hn > 0 && (q->max_expanded <= 0 || expanded < q->max_expanded)) {
        int x = heap_pop(v);
        v->flags[x] = (uint8_t)((v->flags[x] & ~F_OPEN) | F_CLOSED);
        expanded++;
        wf_fix px, py;
        int inside = goal_nearest(&q->goal, v->vx[x], v->vy[x], &px, &py);
        if ((v->flags[x] & F_GOAL) || (inside && q->goal.type != WF_GOAL_POINT)
            || (inside && x == 0)) {
            found = x;
            break;
        }
        int64_t h = heuristic(v, x);
        if (h < best_h) {
            best_h = h;
            best = x;
        }
        for (int y = 1; y < corners; y++)
            relax(v, x, y);
        if (q->goal.type != WF_GOAL_POINT && px >= bx0 && px <= bx1 && py >= by0
            && py <= by1 && wf_sweep_point_clear(g, q->cls, px, py)) {
            int k = add_vertex(v, px, py, F_GOAL);
            if (k != NONE)
                relax(v, x, k);
        }
    }
    if (stats) {
        stats->vertices = v->n;
        stats->expanded = expanded;
        stats->tests = v->tests;
        stats->edges = q->brute ? v->ne + 4 * nsq : 0;
    }
    int end = found != NONE ? found : best;
    if (found == NONE && end == 0)
        return WF_NO_PATH;
    int len = 0;
    for (int k = end; k != NONE; k = v->parent[k])
        len++;
    int pos = len;
    for (int k = end; k != NONE; k = v->parent[k]) {
        pos--;
        v->path[2 * pos] = v->vx[k];
        v->path[2 * pos + 1] = v->vy[k];
    }
    *xy = v->path;
    *n = len;
    *reached = found != NONE;
    return WF_OK;
}
