/* rectplan.c - the rectangle planner: A* whose nodes are free rectangles
 * grown on demand around the node being expanded (a rectangular cover),
 * searched through one point on each shared edge of touching nodes. */
#include <stdlib.h>
#include <string.h>

#include "rectplan_internal.h"

#define NONE (-1)
#define START 0
#define GOAL 1

typedef struct rnode {
    wf_rect r;
    uint32_t penalty;
    int created, expanded;
    int adj;                  /* first adjacency entry, or NONE */
} rnode;

typedef struct rportal {
    int a, b;                 /* the two nodes, a < b */
    wf_rect seg;              /* the shared edge (x0 == x1 or y0 == y1) */
    int v, nv;                /* its points: v .. v + nv - 1 */
} rportal;

typedef struct radj {
    int portal, next;
} radj;

typedef struct rvert {
    wf_fix x, y;
    int portal;               /* NONE for the start and the goal */
    int parent, via;
    int64_t g, h;
    int opened, closed;
    int hpos;                 /* heap slot while open, else NONE */
} rvert;

typedef struct span {
    wf_fix lo, hi;
} span;

struct wf_rectplan {
    wf_rectplan_config cfg;
    wf_area *areas;           /* every area, inflated, input order */
    size_t nareas;
    wf_rect *walls;           /* impassable areas of positive size */
    int nwalls;
    wf_area *pens;            /* finite penalty areas of positive size */
    int npens;
    wf_rect near_q;           /* the near square (mode near) */

    rnode *nodes;
    int nnodes, max_nodes;
    rportal *portals;
    int nportals, max_portals;
    radj *adj;
    int nadj;
    rvert *verts;
    int nverts, max_verts;
    int *heap;
    int hn;
    span *spans;

    int steps, current;
    wf_rectplan_state state;
    wf_status status;
    wf_rect goal_seg;         /* where the goal point may slide (near) */
    int escaped, goal_moved;  /* the start escaped; the point goal moved */
    wf_fix start_x, start_y;  /* the start as given (cfg.sx, sy become the
                                 point the search began from) */

    /* the route, once done */
    int nchain, npts;
    wf_fix *ax, *ay, *cx, *cy, *px, *py;
    int *cnodes, *order;
    wf_rect *cseg;
    uint32_t *cfac;
    int64_t length, cost, chain_length;
    int nstages;
    wf_fix *stage_x, *stage_y, *stage_step;
};

/* --------------------------------------------------------- geometry -- */

static wf_fix lo_of(const wf_rect *r, int axis) { return axis ? r->y0 : r->x0; }
static wf_fix hi_of(const wf_rect *r, int axis) { return axis ? r->y1 : r->x1; }

static void set_lo(wf_rect *r, int axis, wf_fix v)
{
    if (axis) r->y0 = v; else r->x0 = v;
}

static void set_hi(wf_rect *r, int axis, wf_fix v)
{
    if (axis) r->y1 = v; else r->x1 = v;
}

/* Interiors meet along axis (either range may be a single value). */
static int overlap(const wf_rect *a, const wf_rect *b, int axis)
{
    return lo_of(a, axis) < hi_of(b, axis) && hi_of(a, axis) > lo_of(b, axis);
}

static int strictly_inside(const wf_rect *r, wf_fix x, wf_fix y)
{
    return r->x0 < x && x < r->x1 && r->y0 < y && y < r->y1;
}

static int holds(const wf_rect *r, wf_fix x, wf_fix y)
{
    return r->x0 <= x && x <= r->x1 && r->y0 <= y && y <= r->y1;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* ----------------------------------------------------------- config -- */

void wf_rectplan_config_init(wf_rectplan_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->mode = WF_RECTPLAN_DEST_POINT;
    cfg->step = WF_FIX_HALF;
    cfg->min_step = WF_FIX_ONE / 1024;
    cfg->max_nodes = 0;
    cfg->edge_points = 3;
    cfg->escape = WF_FIX_HALF;
}

static int fix_ok(wf_fix v)
{
    return v >= -WF_RECTPLAN_LIMIT && v <= WF_RECTPLAN_LIMIT;
}

static int rect_ok(const wf_rect *r)
{
    return r->x0 <= r->x1 && r->y0 <= r->y1 && fix_ok(r->x0) && fix_ok(r->y0)
           && fix_ok(r->x1) && fix_ok(r->y1);
}

static wf_status check_config(const wf_rectplan_config *c)
{
    if (!rect_ok(&c->bounds) || (c->nareas && !c->areas)
        || c->margin < 0 || c->margin > WF_RECTPLAN_MAX_WIDTH / 2
        || !fix_ok(c->sx) || !fix_ok(c->sy) || !fix_ok(c->gx) || !fix_ok(c->gy)
        || (c->mode != WF_RECTPLAN_DEST_POINT && c->mode != WF_RECTPLAN_DEST_NEAR)
        || c->near < 0 || c->near > WF_RECTPLAN_LIMIT
        || c->max_node_size < 0 || c->seed < 0 || c->min_step <= 0
        || c->step < c->min_step || c->step > WF_RECTPLAN_LIMIT
        || c->max_nodes < 0
        || c->max_nodes > WF_RECTPLAN_MAX_NODES
        || (c->edge_points != 1 && c->edge_points != 3)
        || c->escape < 0 || c->escape > WF_RECTPLAN_LIMIT
        || c->nareas > (size_t)WF_RECTPLAN_MAX_NODES * 16)
        return WF_ERR_ARG;
    for (size_t k = 0; k < c->nareas; k++) {
        const wf_area *a = c->areas + k;
        if (!rect_ok(&a->r) || (a->penalty != WF_IMPASSABLE
                                && a->penalty > WF_PENALTY_MAX))
            return WF_ERR_ARG;
    }
    return WF_OK;
}

/* ------------------------------------------------------------- heap -- */

static int before(const wf_rectplan *p, int a, int b)
{
    const rvert *u = p->verts + a, *v = p->verts + b;
    int64_t fu = u->g + u->h, fv = v->g + v->h;
    if (fu != fv)
        return fu < fv;
    if (u->h != v->h)
        return u->h < v->h;
    return a < b;
}

static void heap_set(wf_rectplan *p, int slot, int v)
{
    p->heap[slot] = v;
    p->verts[v].hpos = slot;
}

static void sift_up(wf_rectplan *p, int slot)
{
    int v = p->heap[slot];
    while (slot > 0) {
        int up = (slot - 1) / 2;
        if (!before(p, v, p->heap[up]))
            break;
        heap_set(p, slot, p->heap[up]);
        slot = up;
    }
    heap_set(p, slot, v);
}

static void sift_down(wf_rectplan *p, int slot)
{
    int v = p->heap[slot];
    for (;;) {
        int c = 2 * slot + 1;
        if (c >= p->hn)
            break;
        if (c + 1 < p->hn && before(p, p->heap[c + 1], p->heap[c]))
            c++;
        if (!before(p, p->heap[c], v))
            break;
        heap_set(p, slot, p->heap[c]);
        slot = c;
    }
    heap_set(p, slot, v);
}

static int pop(wf_rectplan *p)
{
    int v = p->heap[0];
    p->verts[v].hpos = NONE;
    if (--p->hn > 0) {
        heap_set(p, 0, p->heap[p->hn]);
        sift_down(p, 0);
    }
    return v;
}

/* ------------------------------------------------------------ costs -- */

static int64_t heuristic(const wf_rectplan *p, wf_fix x, wf_fix y)
{
    if (p->cfg.mode == WF_RECTPLAN_DEST_POINT)
        return wf_rectplan_len_floor((int64_t)p->cfg.gx - x, (int64_t)p->cfg.gy - y);
    const wf_rect *q = &p->near_q;
    if (holds(q, x, y)) {
        int64_t d = (int64_t)x - q->x0, e;
        if ((e = (int64_t)q->x1 - x) < d) d = e;
        if ((e = (int64_t)y - q->y0) < d) d = e;
        if ((e = (int64_t)q->y1 - y) < d) d = e;
        return d;
    }
    int64_t dx = x < q->x0 ? (int64_t)q->x0 - x : x > q->x1 ? (int64_t)x - q->x1 : 0;
    int64_t dy = y < q->y0 ? (int64_t)q->y0 - y : y > q->y1 ? (int64_t)y - q->y1 : 0;
    return wf_rectplan_len_floor(dx, dy);
}

static int64_t leg_cost(const rvert *u, wf_fix x, wf_fix y, uint32_t penalty)
{
    int64_t len = wf_rectplan_len_ceil((int64_t)x - u->x, (int64_t)y - u->y);
    int64_t f = (int64_t)WF_PENALTY_ONE + penalty;
    return (len * f + (int64_t)WF_PENALTY_ONE - 1) / (int64_t)WF_PENALTY_ONE;
}

/* Offers point v at cost ng through node k from u. */
static void relax(wf_rectplan *p, int v, int u, int k, int64_t ng)
{
    rvert *t = p->verts + v;
    if (t->closed >= 0)
        return;
    if (t->opened < 0) {
        t->opened = p->steps;
        t->g = ng;
        t->h = v == GOAL ? 0 : heuristic(p, t->x, t->y);
        t->parent = u;
        t->via = k;
        heap_set(p, p->hn++, v);
        sift_up(p, p->hn - 1);
    } else if (ng < t->g) {
        t->g = ng;
        t->parent = u;
        t->via = k;
        sift_up(p, t->hpos);
    }
}

/* ------------------------------------------------------------ cover -- */

/* The point of segment seg nearest the straight line from start to goal:
 * where the line crosses the edge's line, else the line's end nearest it,
 * clamped to the edge. */
static void rule_point(const wf_rectplan *p, const wf_rect *seg, wf_fix *x,
                       wf_fix *y)
{
    int axis = seg->x0 == seg->x1 ? 0 : 1;   /* the constant coordinate */
    int64_t c = axis ? seg->y0 : seg->x0;
    int64_t s = axis ? p->cfg.sy : p->cfg.sx, g = axis ? p->cfg.gy : p->cfg.gx;
    int64_t ts = axis ? p->cfg.sx : p->cfg.sy, tg = axis ? p->cfg.gx : p->cfg.gy;
    int64_t ref;
    if (s == g)
        ref = floor_div(ts + tg, 2);
    else if ((c >= s && c <= g) || (c >= g && c <= s))
        ref = ts + (tg - ts) * (c - s) / (g - s);
    else if ((c < s) == (s < g))
        ref = ts;
    else
        ref = tg;
    wf_fix lo = axis ? seg->x0 : seg->y0, hi = axis ? seg->x1 : seg->y1;
    wf_fix t = wf_rectplan_clamp((wf_fix)(ref < lo ? lo : ref > hi ? hi : ref), lo, hi);
    if (axis) {
        *x = t;
        *y = seg->y0;
    } else {
        *x = seg->x0;
        *y = t;
    }
}

static void init_vertex(wf_rectplan *p, int id, wf_fix x, wf_fix y)
{
    rvert *v = p->verts + p->nverts++;
    memset(v, 0, sizeof *v);
    v->x = x;
    v->y = y;
    v->portal = id;
    v->parent = v->via = NONE;
    v->opened = v->closed = v->hpos = NONE;
}

/* A portal and its points: the rule point, then (edge_points 3) the two
 * ends of the edge that differ from it. */
static wf_status add_portal(wf_rectplan *p, int a, int b, const wf_rect *seg)
{
    if (p->nportals >= p->max_portals || p->nverts + 3 > p->max_verts)
        return WF_ERR_FULL;
    int id = p->nportals++;
    rportal *po = p->portals + id;
    po->a = a;
    po->b = b;
    po->seg = *seg;
    po->v = p->nverts;
    wf_fix x, y;
    rule_point(p, seg, &x, &y);
    init_vertex(p, id, x, y);
    if (p->cfg.edge_points == 3) {
        if (x != seg->x0 || y != seg->y0)
            init_vertex(p, id, seg->x0, seg->y0);
        if (x != seg->x1 || y != seg->y1)
            init_vertex(p, id, seg->x1, seg->y1);
    }
    po->nv = p->nverts - po->v;
    radj *e = p->adj + p->nadj;
    e[0].portal = id;
    e[0].next = p->nodes[a].adj;
    p->nodes[a].adj = p->nadj;
    e[1].portal = id;
    e[1].next = p->nodes[b].adj;
    p->nodes[b].adj = p->nadj + 1;
    p->nadj += 2;
    return WF_OK;
}

/* Shared edge of nodes m and n, if they touch along a positive length. */
static int contact(const wf_rect *m, const wf_rect *n, wf_rect *seg)
{
    for (int axis = 0; axis < 2; axis++) {
        int perp = 1 - axis;
        wf_fix c;
        if (hi_of(m, axis) == lo_of(n, axis))
            c = hi_of(m, axis);
        else if (lo_of(m, axis) == hi_of(n, axis))
            c = lo_of(m, axis);
        else
            continue;
        wf_fix lo = lo_of(m, perp) > lo_of(n, perp) ? lo_of(m, perp) : lo_of(n, perp);
        wf_fix hi = hi_of(m, perp) < hi_of(n, perp) ? hi_of(m, perp) : hi_of(n, perp);
        if (lo >= hi)
            continue;
        set_lo(seg, axis, c);
        set_hi(seg, axis, c);
        set_lo(seg, perp, lo);
        set_hi(seg, perp, hi);
        return 1;
    }
    return 0;
}

static wf_status add_node(wf_rectplan *p, const wf_rect *r)
{
    if (p->nnodes >= p->max_nodes)
        return WF_ERR_FULL;
    int id = p->nnodes;
    rnode *n = p->nodes + id;
    n->r = *r;
    n->penalty = 0;
    n->created = p->steps;
    n->expanded = NONE;
    n->adj = NONE;
    for (int k = 0; k < p->npens; k++) {
        const wf_rect *a = &p->pens[k].r;
        if (a->x0 <= r->x0 && r->x1 <= a->x1 && a->y0 <= r->y0 && r->y1 <= a->y1
            && p->pens[k].penalty > n->penalty)
            n->penalty = p->pens[k].penalty;
    }
    p->nnodes++;
    for (int m = 0; m < id; m++) {
        wf_rect seg;
        if (contact(&p->nodes[m].r, r, &seg)) {
            wf_status st = add_portal(p, m, id, &seg);
            if (st != WF_OK)
                return st;
        }
    }
    return WF_OK;
}

/* Grows r along axis toward sign as far as obstacles, nodes, penalty
 * edges, the planning box and the node size allow. */
static void grow(const wf_rectplan *p, wf_rect *r, int axis, int sign)
{
    int perp = 1 - axis;
    wf_fix size = p->cfg.max_node_size;
    if (sign > 0) {
        wf_fix lim = hi_of(&p->cfg.bounds, axis);
        if (size > 0 && lo_of(r, axis) + size < lim)
            lim = lo_of(r, axis) + size;
        for (int k = 0; k < p->nwalls; k++) {
            const wf_rect *b = p->walls + k;
            if (lo_of(b, axis) >= hi_of(r, axis) && lo_of(b, axis) < lim
                && overlap(b, r, perp))
                lim = lo_of(b, axis);
        }
        for (int k = 0; k < p->nnodes; k++) {
            const wf_rect *b = &p->nodes[k].r;
            if (lo_of(b, axis) >= hi_of(r, axis) && lo_of(b, axis) < lim
                && overlap(b, r, perp))
                lim = lo_of(b, axis);
        }
        for (int k = 0; k < p->npens; k++) {
            const wf_rect *b = &p->pens[k].r;
            if (!overlap(b, r, perp))
                continue;
            if (lo_of(b, axis) > lo_of(r, axis) && lo_of(b, axis) < lim)
                lim = lo_of(b, axis);
            if (hi_of(b, axis) > lo_of(r, axis) && hi_of(b, axis) < lim)
                lim = hi_of(b, axis);
        }
        if (lim > hi_of(r, axis))
            set_hi(r, axis, lim);
    } else {
        wf_fix lim = lo_of(&p->cfg.bounds, axis);
        if (size > 0 && hi_of(r, axis) - size > lim)
            lim = hi_of(r, axis) - size;
        for (int k = 0; k < p->nwalls; k++) {
            const wf_rect *b = p->walls + k;
            if (hi_of(b, axis) <= lo_of(r, axis) && hi_of(b, axis) > lim
                && overlap(b, r, perp))
                lim = hi_of(b, axis);
        }
        for (int k = 0; k < p->nnodes; k++) {
            const wf_rect *b = &p->nodes[k].r;
            if (hi_of(b, axis) <= lo_of(r, axis) && hi_of(b, axis) > lim
                && overlap(b, r, perp))
                lim = hi_of(b, axis);
        }
        for (int k = 0; k < p->npens; k++) {
            const wf_rect *b = &p->pens[k].r;
            if (!overlap(b, r, perp))
                continue;
            if (lo_of(b, axis) < hi_of(r, axis) && lo_of(b, axis) > lim)
                lim = lo_of(b, axis);
            if (hi_of(b, axis) < hi_of(r, axis) && hi_of(b, axis) > lim)
                lim = hi_of(b, axis);
        }
        if (lim < lo_of(r, axis))
            set_lo(r, axis, lim);
    }
}

static int cmp_span(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/* Does b cover the band just beyond line c of a side facing sign? */
static int covers_band(const wf_rect *b, int axis, int sign, wf_fix c)
{
    return sign > 0 ? lo_of(b, axis) <= c && c < hi_of(b, axis)
                    : lo_of(b, axis) < c && c <= hi_of(b, axis);
}

/* The first seed on the side of node k facing sign along axis: the start
 * of the first stretch not covered by an obstacle or a node, cut at the
 * seed length and at the edges of penalty areas. 0 when the side is
 * covered. */
static int first_seed(wf_rectplan *p, int k, int axis, int sign, wf_rect *seed)
{
    int perp = 1 - axis;
    const wf_rect *n = &p->nodes[k].r;
    wf_fix c = sign > 0 ? hi_of(n, axis) : lo_of(n, axis);
    if (sign > 0 ? c >= hi_of(&p->cfg.bounds, axis)
                 : c <= lo_of(&p->cfg.bounds, axis))
        return 0;
    wf_fix plo = lo_of(n, perp), phi = hi_of(n, perp);
    int ns = 0;
    for (int j = 0; j < p->nwalls; j++) {
        const wf_rect *b = p->walls + j;
        if (covers_band(b, axis, sign, c) && overlap(b, n, perp)) {
            p->spans[ns].lo = lo_of(b, perp) > plo ? lo_of(b, perp) : plo;
            p->spans[ns].hi = hi_of(b, perp) < phi ? hi_of(b, perp) : phi;
            ns++;
        }
    }
    for (int j = 0; j < p->nnodes; j++) {
        const wf_rect *b = &p->nodes[j].r;
        if (j != k && (sign > 0 ? lo_of(b, axis) : hi_of(b, axis)) == c
            && overlap(b, n, perp)) {
            p->spans[ns].lo = lo_of(b, perp) > plo ? lo_of(b, perp) : plo;
            p->spans[ns].hi = hi_of(b, perp) < phi ? hi_of(b, perp) : phi;
            ns++;
        }
    }
    qsort(p->spans, (size_t)ns, sizeof *p->spans, cmp_span);
    wf_fix cur = plo, g0 = 0, g1 = 0;
    int found = 0;
    for (int j = 0; j < ns && !found; j++) {
        if (p->spans[j].lo > cur) {
            g0 = cur;
            g1 = p->spans[j].lo;
            found = 1;
        } else if (p->spans[j].hi > cur) {
            cur = p->spans[j].hi;
        }
    }
    if (!found) {
        if (cur >= phi)
            return 0;
        g0 = cur;
        g1 = phi;
    }
    if (p->cfg.seed > 0 && g1 - g0 > p->cfg.seed)
        g1 = g0 + p->cfg.seed;
    for (int j = 0; j < p->npens; j++) {
        const wf_rect *b = &p->pens[j].r;
        if (!covers_band(b, axis, sign, c))
            continue;
        if (lo_of(b, perp) > g0 && lo_of(b, perp) < g1)
            g1 = lo_of(b, perp);
        if (hi_of(b, perp) > g0 && hi_of(b, perp) < g1)
            g1 = hi_of(b, perp);
    }
    set_lo(seed, axis, c);
    set_hi(seed, axis, c);
    set_lo(seed, perp, g0);
    set_hi(seed, perp, g1);
    return 1;
}

/* Grows the neighbours of node k: sides top, right, bottom, left; along
 * each, seeds in increasing coordinate, each grown outward, then toward
 * the lower and the higher coordinate along the side. */
static wf_status expand(wf_rectplan *p, int k)
{
    static const int sides[4][2] = {{1, -1}, {0, 1}, {1, 1}, {0, -1}};
    if (p->nodes[k].expanded >= 0)
        return WF_OK;
    p->nodes[k].expanded = p->steps;
    for (int s = 0; s < 4; s++) {
        int axis = sides[s][0], sign = sides[s][1];
        wf_rect seed;
        while (first_seed(p, k, axis, sign, &seed)) {
            grow(p, &seed, axis, sign);
            grow(p, &seed, 1 - axis, -1);
            grow(p, &seed, 1 - axis, 1);
            if (seed.x0 >= seed.x1 || seed.y0 >= seed.y1)
                break;          /* cannot happen; guards the loop */
            wf_status st = add_node(p, &seed);
            if (st != WF_OK)
                return st;
        }
    }
    return WF_OK;
}

/* ---------------------------------------------------------- search --- */

static void fail(wf_rectplan *p, wf_status st)
{
    p->state = WF_RECTPLAN_FAILED;
    p->status = st;
}

/* Free part of the near square's boundary: 1 when some side keeps a
 * stretch of positive length inside the box and outside every obstacle. */
static int near_free(wf_rectplan *p)
{
    const wf_rect *q = &p->near_q, *bx = &p->cfg.bounds;
    for (int side = 0; side < 4; side++) {
        int axis = side & 1 ? 0 : 1;          /* constant coordinate */
        int perp = 1 - axis;
        wf_fix c = side < 2 ? lo_of(q, axis) : hi_of(q, axis);
        if (c < lo_of(bx, axis) || c > hi_of(bx, axis))
            continue;
        wf_fix a = lo_of(q, perp) > lo_of(bx, perp) ? lo_of(q, perp) : lo_of(bx, perp);
        wf_fix b = hi_of(q, perp) < hi_of(bx, perp) ? hi_of(q, perp) : hi_of(bx, perp);
        if (a >= b)
            continue;
        int ns = 0;
        for (int j = 0; j < p->nwalls; j++) {
            const wf_rect *w = p->walls + j;
            if (lo_of(w, axis) < c && c < hi_of(w, axis)
                && lo_of(w, perp) < b && hi_of(w, perp) > a) {
                p->spans[ns].lo = lo_of(w, perp);
                p->spans[ns].hi = hi_of(w, perp);
                ns++;
            }
        }
        qsort(p->spans, (size_t)ns, sizeof *p->spans, cmp_span);
        wf_fix cur = a;
        for (int j = 0; j < ns; j++) {
            if (p->spans[j].lo > cur)
                return 1;
            if (p->spans[j].hi > cur)
                cur = p->spans[j].hi;
        }
        if (cur < b)
            return 1;
    }
    return 0;
}

static int point_free(const wf_rectplan *p, wf_fix x, wf_fix y)
{
    if (!holds(&p->cfg.bounds, x, y))
        return 0;
    for (int k = 0; k < p->nwalls; k++)
        if (strictly_inside(p->walls + k, x, y))
            return 0;
    return 1;
}

/* The first node, grown from (x, y): right, left, up, down. A point where
 * obstacles meet (two people side by side, a corner of furniture) can
 * leave that with no area while a quarter around the point is free: then
 * it is grown into each quarter in turn (right-down, left-down, right-up,
 * left-up: first along x toward it, then along y toward it, then the other
 * ways). 0 when no order gives an area. */
static int grow_start(const wf_rectplan *p, wf_fix x, wf_fix y, wf_rect *r)
{
    static const int quarter[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
    *r = (wf_rect){x, y, x, y};
    grow(p, r, 0, 1);
    grow(p, r, 0, -1);
    grow(p, r, 1, -1);
    grow(p, r, 1, 1);
    for (int q = 0; q < 4 && !(r->x0 < r->x1 && r->y0 < r->y1); q++) {
        *r = (wf_rect){x, y, x, y};
        grow(p, r, 0, quarter[q][0]);
        grow(p, r, 1, quarter[q][1]);
        grow(p, r, 0, -quarter[q][0]);
        grow(p, r, 1, -quarter[q][1]);
    }
    return r->x0 < r->x1 && r->y0 < r->y1;
}

/* 1 when a person's (inflated) footprint holds (x, y) inside. */
static int person_holds(const wf_rectplan *p, wf_fix x, wf_fix y)
{
    for (size_t k = 0; k < p->nareas; k++)
        if (p->areas[k].kind == WF_AREA_PERSON
            && strictly_inside(&p->areas[k].r, x, y))
            return 1;
    return 0;
}

typedef struct cand {
    int64_t d2;
    wf_fix x, y;
} cand;

/* The walker's swept rule (wf_sweep_box) for the leg A -> B against the
 * open rectangle r: as the closed box one unit smaller on each side, so a
 * leg that only touches r is clear. 0 when A lies in that box (the leg
 * starts inside: it never collides), 1 when B does, else whether the
 * segment meets it. Exact for every coordinate within WF_RECTPLAN_LIMIT
 * (2^29): offsets stay under 2^31 and each product under 2^62. */
static int leg_meets(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by,
                     const wf_rect *r)
{
    int64_t x0 = (int64_t)r->x0 + 1, y0 = (int64_t)r->y0 + 1;
    int64_t x1 = (int64_t)r->x1 - 1, y1 = (int64_t)r->y1 - 1;
    if (x0 > x1 || y0 > y1)
        return 0;
    if (x0 <= ax && ax <= x1 && y0 <= ay && ay <= y1)
        return 0;
    if (x0 <= bx && bx <= x1 && y0 <= by && by <= y1)
        return 1;
    if ((ax < bx ? ax : bx) > x1 || (ax < bx ? bx : ax) < x0
        || (ay < by ? ay : by) > y1 || (ay < by ? by : ay) < y0)
        return 0;
    int64_t dx = (int64_t)bx - ax, dy = (int64_t)by - ay;
    int64_t cx2 = x0 + x1 - 2 * (int64_t)ax, cy2 = y0 + y1 - 2 * (int64_t)ay;
    int64_t cross = cx2 * dy - cy2 * dx;
    int64_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    return (cross < 0 ? -cross : cross) <= (x1 - x0) * ady + (y1 - y0) * adx;
}

/* 1 when a person walks the straight leg from (ax, ay) to (bx, by) by the
 * walker's rule: it meets no obstacle it does not start inside. */
static int leg_clear(const wf_rectplan *p, wf_fix ax, wf_fix ay, wf_fix bx,
                     wf_fix by)
{
    for (int k = 0; k < p->nwalls; k++)
        if (leg_meets(ax, ay, bx, by, p->walls + k))
            return 0;
    return 1;
}

static int cmp_cand(const void *a, const void *b)
{
    const cand *u = a, *v = b;
    if (u->d2 != v->d2)
        return u->d2 < v->d2 ? -1 : 1;
    if (u->y != v->y)
        return u->y < v->y ? -1 : 1;
    return u->x < v->x ? -1 : u->x > v->x;
}

/* The nearest free point to (x, y) within cfg.escape (ties: lower y, then
 * lower x); with node (the start's escape), also one from which the first
 * node has area (its rectangle in *r) and that the straight leg from (x, y)
 * reaches by the walker's swept rule (leg_clear: it leaves the obstacles
 * it starts in without cutting into another's corner). The closed free set's nearest point lies on the side
 * lines of the obstacles, so the candidates are the crossings of the
 * vertical lines {x, the obstacles' x0 and x1} with the horizontal lines
 * {y, their y0 and y1}, taken from obstacles within reach. Sets *found to
 * 1 and *ox, *oy, or *found to 0 when there is none; WF_ERR_NOMEM when out
 * of memory (*found 0), else WF_OK. */
static wf_status escape_point(const wf_rectplan *p, wf_fix x, wf_fix y,
                              int node, wf_fix *ox, wf_fix *oy, wf_rect *r,
                              int *found)
{
    int64_t e = p->cfg.escape;
    *found = 0;
    if (e <= 0)
        return WF_OK;
    size_t nl = 1;
    for (int k = 0; k < p->nwalls; k++) {
        const wf_rect *b = p->walls + k;
        if (b->x0 - e <= x && x <= b->x1 + e && b->y0 - e <= y && y <= b->y1 + e)
            nl += 2;
    }
    wf_fix *xs = malloc(2 * nl * sizeof *xs);
    cand *c = malloc(nl * nl * sizeof *c);
    if (!xs || !c) {
        free(xs);
        free(c);
        return WF_ERR_NOMEM;
    }
    wf_fix *ys = xs + nl;
    size_t nx = 0, ny = 0, nc = 0;
    xs[nx++] = x;
    ys[ny++] = y;
    for (int k = 0; k < p->nwalls; k++) {
        const wf_rect *b = p->walls + k;
        if (!(b->x0 - e <= x && x <= b->x1 + e && b->y0 - e <= y && y <= b->y1 + e))
            continue;
        xs[nx++] = b->x0;
        xs[nx++] = b->x1;
        ys[ny++] = b->y0;
        ys[ny++] = b->y1;
    }
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++) {
            int64_t dx = (int64_t)xs[i] - x, dy = (int64_t)ys[j] - y;
            int64_t d2 = dx * dx + dy * dy;
            if (d2 <= e * e && point_free(p, xs[i], ys[j]))
                c[nc++] = (cand){d2, xs[i], ys[j]};
        }
    qsort(c, nc, sizeof *c, cmp_cand);
    for (size_t i = 0; i < nc && !*found; i++) {
        if (i > 0 && c[i].x == c[i - 1].x && c[i].y == c[i - 1].y)
            continue;
        if (node && (!leg_clear(p, x, y, c[i].x, c[i].y)
                     || !grow_start(p, c[i].x, c[i].y, r)))
            continue;
        *ox = c[i].x;
        *oy = c[i].y;
        *found = 1;
    }
    free(xs);
    free(c);
    return WF_OK;
}

static void start(wf_rectplan *p)
{
    const wf_rectplan_config *c = &p->cfg;
    rvert *s = p->verts + START, *g = p->verts + GOAL;
    s->x = c->sx;
    s->y = c->sy;
    g->x = c->gx;
    g->y = c->gy;
    wf_rect r;
    if (!point_free(p, c->sx, c->sy) || !grow_start(p, c->sx, c->sy, &r)) {
        int found;
        wf_status st = escape_point(p, c->sx, c->sy, 1, &s->x, &s->y, &r,
                                    &found);
        if (st != WF_OK || !found) {
            fail(p, st != WF_OK ? st : WF_START_BLOCKED);
            return;
        }
        p->escaped = 1;
    }
    if (c->mode == WF_RECTPLAN_DEST_NEAR && c->near > 0
        && llabs((long long)s->x - c->gx) <= c->near
        && llabs((long long)s->y - c->gy) <= c->near && !near_free(p)) {
        /* near means anywhere within the square: a start already in it
         * (closed) where no stretch of the square's boundary is free (a
         * closet smaller than the square) has arrived; where one is, the
         * route still ends on the boundary, so people waiting near a door
         * step out of the way through it */
        g->x = s->x;
        g->y = s->y;
        p->cfg.mode = WF_RECTPLAN_DEST_POINT;
    } else if (c->mode == WF_RECTPLAN_DEST_NEAR && c->near > 0) {
        if (!near_free(p)) {
            fail(p, WF_GOAL_BLOCKED);
            return;
        }
    } else if (!point_free(p, c->gx, c->gy)) {
        wf_rect unused;
        int found = 0;
        wf_status st = person_holds(p, c->gx, c->gy)
                           ? WF_OK
                           : escape_point(p, c->gx, c->gy, 0, &g->x, &g->y,
                                          &unused, &found);
        if (st != WF_OK || !found) {
            fail(p, st != WF_OK ? st : WF_GOAL_BLOCKED);
            return;
        }
        p->goal_moved = 1;
    }
    p->goal_seg.x0 = p->goal_seg.x1 = g->x;
    p->goal_seg.y0 = p->goal_seg.y1 = g->y;
    /* from here on the search sees only where it begins and ends */
    p->cfg.sx = s->x;
    p->cfg.sy = s->y;
    p->cfg.gx = g->x;
    p->cfg.gy = g->y;
    wf_status st = add_node(p, &r);
    if (st != WF_OK) {
        fail(p, st);
        return;
    }
    s->opened = 0;
    s->g = 0;
    s->h = heuristic(p, s->x, s->y);
    heap_set(p, p->hn++, START);
}

/* Cells of a grid of step `cell` over the planning box. */
static int64_t grid_cells(const wf_rect *b, wf_fix cell)
{
    int64_t w = ((int64_t)b->x1 - b->x0) / cell + 2;
    int64_t h = ((int64_t)b->y1 - b->y0) / cell + 2;
    return w * h;
}

static int auto_nodes(const wf_rectplan *p)
{
    int64_t n = 64 + 16 * ((int64_t)p->nwalls + p->npens);
    if (p->cfg.max_node_size > 0)
        n += 4 * grid_cells(&p->cfg.bounds, p->cfg.max_node_size);
    if (p->cfg.seed > 0)
        n += 4 * grid_cells(&p->cfg.bounds, p->cfg.seed);
    return n > WF_RECTPLAN_MAX_NODES ? WF_RECTPLAN_MAX_NODES : (int)n;
}

wf_status wf_rectplan_create(wf_rectplan **out, const wf_rectplan_config *cfg)
{
    if (!out || !cfg)
        return WF_ERR_ARG;
    *out = NULL;
    wf_status st = check_config(cfg);
    if (st != WF_OK)
        return st;
    wf_rectplan *p = calloc(1, sizeof *p);
    if (!p)
        return WF_ERR_NOMEM;
    p->cfg = *cfg;
    p->cfg.areas = NULL;
    p->start_x = cfg->sx;
    p->start_y = cfg->sy;
    p->nareas = cfg->nareas;
    size_t na = cfg->nareas ? cfg->nareas : 1;
    p->areas = malloc(na * sizeof *p->areas);
    p->walls = malloc(na * sizeof *p->walls);
    p->pens = malloc(na * sizeof *p->pens);
    if (!p->areas || !p->walls || !p->pens) {
        wf_rectplan_destroy(p);
        return WF_ERR_NOMEM;
    }
    for (size_t k = 0; k < cfg->nareas; k++) {
        wf_area a = wf_area_inflate(cfg->areas[k], cfg->margin);
        p->areas[k] = a;
        if (a.r.x0 >= a.r.x1 || a.r.y0 >= a.r.y1)
            continue;           /* an empty interior blocks nothing */
        if (a.penalty == WF_IMPASSABLE)
            p->walls[p->nwalls++] = a.r;
        else
            p->pens[p->npens++] = a;
    }
    p->max_nodes = cfg->max_nodes ? cfg->max_nodes : auto_nodes(p);
    p->max_portals = 3 * p->max_nodes + 8;
    p->max_verts = 2 + p->max_portals * (cfg->edge_points == 3 ? 3 : 1);
    size_t nv = (size_t)p->max_verts;
    p->nodes = malloc((size_t)p->max_nodes * sizeof *p->nodes);
    p->portals = malloc((size_t)p->max_portals * sizeof *p->portals);
    p->adj = malloc(2 * (size_t)p->max_portals * sizeof *p->adj);
    p->verts = malloc(nv * sizeof *p->verts);
    p->heap = malloc(nv * sizeof *p->heap);
    p->spans = malloc((na + (size_t)p->max_nodes) * sizeof *p->spans);
    p->ax = malloc((6 * nv + 2) * sizeof *p->ax);   /* px, py: one more */
    p->cnodes = malloc(2 * nv * sizeof *p->cnodes);
    p->cseg = malloc(nv * sizeof *p->cseg);
    p->cfac = malloc(nv * sizeof *p->cfac);
    if (!p->nodes || !p->portals || !p->adj || !p->verts || !p->heap
        || !p->spans || !p->ax || !p->cnodes || !p->cseg || !p->cfac) {
        wf_rectplan_destroy(p);
        return WF_ERR_NOMEM;
    }
    p->order = p->cnodes + nv;
    p->ay = p->ax + nv;
    p->cx = p->ay + nv;
    p->cy = p->cx + nv;
    p->px = p->cy + nv;
    p->py = p->px + nv + 1;
    p->near_q.x0 = cfg->gx - cfg->near;
    p->near_q.x1 = cfg->gx + cfg->near;
    p->near_q.y0 = cfg->gy - cfg->near;
    p->near_q.y1 = cfg->gy + cfg->near;
    p->nverts = 2;
    for (int k = 0; k < 2; k++) {
        rvert *v = p->verts + k;
        memset(v, 0, sizeof *v);
        v->portal = v->parent = v->via = NONE;
        v->opened = v->closed = v->hpos = NONE;
    }
    p->current = NONE;
    p->state = WF_RECTPLAN_RUNNING;
    p->status = WF_OK;
    start(p);
    *out = p;
    return WF_OK;
}

void wf_rectplan_destroy(wf_rectplan *p)
{
    if (!p)
        return;
    free(p->areas);
    free(p->walls);
    free(p->pens);
    free(p->nodes);
    free(p->portals);
    free(p->adj);
    free(p->verts);
    free(p->heap);
    free(p->spans);
    free(p->ax);
    free(p->cnodes);
    free(p->cseg);
    free(p->cfac);
    free(p->stage_x);
    free(p);
}

/* The goal as seen from u through node k: the goal point when k holds it;
 * in near mode the nearest point of the square's boundary inside k (sides
 * top, right, bottom, left; the first of equally near points). */
static void offer_goal(wf_rectplan *p, int u, int k)
{
    const wf_rect *n = &p->nodes[k].r;
    const rvert *from = p->verts + u;
    int64_t cost;
    if (p->cfg.mode == WF_RECTPLAN_DEST_POINT || p->cfg.near == 0) {
        if (!holds(n, p->cfg.gx, p->cfg.gy))
            return;
        cost = leg_cost(from, p->cfg.gx, p->cfg.gy, p->nodes[k].penalty);
        rvert *g = p->verts + GOAL;
        if (g->closed < 0 && (g->opened < 0 || from->g + cost < g->g))
            relax(p, GOAL, u, k, from->g + cost);
        return;
    }
    const wf_rect *q = &p->near_q;
    int best = 0;
    uint64_t bd = 0;
    wf_fix bx = 0, by = 0;
    wf_rect bseg = {0, 0, 0, 0};
    for (int side = 0; side < 4; side++) {
        int axis = side & 1 ? 0 : 1;
        int perp = 1 - axis;
        wf_fix c = side == 0 || side == 3 ? lo_of(q, axis) : hi_of(q, axis);
        if (c < lo_of(n, axis) || c > hi_of(n, axis))
            continue;
        wf_fix a = lo_of(q, perp) > lo_of(n, perp) ? lo_of(q, perp) : lo_of(n, perp);
        wf_fix b = hi_of(q, perp) < hi_of(n, perp) ? hi_of(q, perp) : hi_of(n, perp);
        if (a > b)
            continue;
        wf_fix t = wf_rectplan_clamp(axis ? from->x : from->y, a, b);
        wf_fix x = axis ? t : c, y = axis ? c : t;
        int64_t dx = (int64_t)x - from->x, dy = (int64_t)y - from->y;
        uint64_t d = (uint64_t)(dx * dx) + (uint64_t)(dy * dy);
        if (!best || d < bd) {
            best = 1;
            bd = d;
            bx = x;
            by = y;
            set_lo(&bseg, axis, c);
            set_hi(&bseg, axis, c);
            set_lo(&bseg, perp, a);
            set_hi(&bseg, perp, b);
        }
    }
    if (!best)
        return;
    cost = from->g + leg_cost(from, bx, by, p->nodes[k].penalty);
    rvert *g = p->verts + GOAL;
    if (g->closed >= 0 || (g->opened >= 0 && cost >= g->g))
        return;
    g->x = bx;
    g->y = by;
    p->goal_seg = bseg;
    relax(p, GOAL, u, k, cost);
}

static void successors(wf_rectplan *p, int u, int k)
{
    uint32_t pen = p->nodes[k].penalty;
    for (int e = p->nodes[k].adj; e != NONE; e = p->adj[e].next) {
        const rportal *po = p->portals + p->adj[e].portal;
        for (int v = po->v; v < po->v + po->nv; v++) {
            if (v == u || p->verts[v].closed >= 0)
                continue;
            int64_t c = leg_cost(p->verts + u, p->verts[v].x, p->verts[v].y, pen);
            relax(p, v, u, k, p->verts[u].g + c);
        }
    }
    offer_goal(p, u, k);
}

static int64_t poly_length(const wf_fix *x, const wf_fix *y, int n)
{
    int64_t t = 0;
    for (int i = 0; i + 1 < n; i++)
        t += wf_rectplan_len_floor((int64_t)x[i + 1] - x[i], (int64_t)y[i + 1] - y[i]);
    return t;
}

/* Builds the chain from the goal's parents, smooths it and prunes it. */
static wf_status finish(wf_rectplan *p)
{
    int n = 0;
    for (int v = GOAL; v != NONE; v = p->verts[v].parent)
        n++;
    int *order = p->order;       /* vertex ids, start first */
    {
        int i = n;
        for (int v = GOAL; v != NONE; v = p->verts[v].parent)
            order[--i] = v;
    }
    /* collapse points entered and left through the same node */
    int m = 0;
    int *legs = p->cnodes;       /* legs[i]: node from keep[i] to keep[i+1] */
    int *keep = order;
    for (int i = 0; i < n; i++) {
        int v = order[i];
        if (i == 0) {
            keep[m++] = v;
            continue;
        }
        int via = p->verts[v].via;
        if (m >= 2 && legs[m - 2] == via) {
            keep[m - 1] = v;
        } else {
            legs[m - 1] = via;
            keep[m++] = v;
        }
    }
    for (int i = 0; i < m; i++) {
        const rvert *v = p->verts + keep[i];
        p->ax[i] = p->cx[i] = v->x;
        p->ay[i] = p->cy[i] = v->y;
        if (keep[i] == GOAL)
            p->cseg[i] = p->goal_seg;
        else if (v->portal == NONE)
            p->cseg[i] = (wf_rect){v->x, v->y, v->x, v->y};
        else
            p->cseg[i] = p->portals[v->portal].seg;
        if (i + 1 < m)
            p->cfac[i] = WF_PENALTY_ONE + p->nodes[legs[i]].penalty;
    }
    p->nchain = m;
    p->chain_length = poly_length(p->ax, p->ay, m);

    int levels = wf_rectplan_smooth_levels(p->cfg.step, p->cfg.min_step);
    p->stage_x = malloc((size_t)levels * (2 * (size_t)m + 1) * sizeof *p->stage_x);
    if (!p->stage_x)
        return WF_ERR_NOMEM;
    p->stage_y = p->stage_x + (size_t)levels * (size_t)m;
    p->stage_step = p->stage_y + (size_t)levels * (size_t)m;
    wf_rsmooth sm;
    sm.n = m;
    sm.x = p->cx;
    sm.y = p->cy;
    sm.seg = p->cseg;
    sm.factor = p->cfac;
    sm.step = p->cfg.step;
    sm.min_step = p->cfg.min_step;
    sm.stage_x = p->stage_x;
    sm.stage_y = p->stage_y;
    sm.stage_step = p->stage_step;
    sm.max_stages = levels;
    p->nstages = wf_rectplan_smooth(&sm);

    int64_t cost = 0;
    for (int i = 0; i + 1 < m; i++)
        cost += wf_rectplan_len_floor((int64_t)p->cx[i + 1] - p->cx[i],
                                   (int64_t)p->cy[i + 1] - p->cy[i])
                * (int64_t)p->cfac[i] / (int64_t)WF_PENALTY_ONE;
    p->cost = cost;
    /* prune repeated points and points where the route runs straight on */
    int k = 0;
    for (int i = 0; i < m; i++) {
        wf_fix x = p->cx[i], y = p->cy[i];
        if (k > 0 && p->px[k - 1] == x && p->py[k - 1] == y)
            continue;
        if (k >= 2) {
            int64_t ux = (int64_t)p->px[k - 1] - p->px[k - 2];
            int64_t uy = (int64_t)p->py[k - 1] - p->py[k - 2];
            int64_t vx = (int64_t)x - p->px[k - 1], vy = (int64_t)y - p->py[k - 1];
            if (ux * vy - uy * vx == 0 && ux * vx + uy * vy > 0)
                k--;
        }
        p->px[k] = x;
        p->py[k] = y;
        k++;
    }
    if (p->escaped) {
        /* the leg out of the obstacle the start lay in */
        memmove(p->px + 1, p->px, (size_t)k * sizeof *p->px);
        memmove(p->py + 1, p->py, (size_t)k * sizeof *p->py);
        p->px[0] = p->start_x;
        p->py[0] = p->start_y;
        k++;
        p->cost += wf_rectplan_len_floor((int64_t)p->px[1] - p->px[0],
                                      (int64_t)p->py[1] - p->py[0]);
    }
    p->npts = k;
    p->length = poly_length(p->px, p->py, k);
    return WF_OK;
}

wf_rectplan_state wf_rectplan_advance(wf_rectplan *p)
{
    if (p->state != WF_RECTPLAN_RUNNING)
        return p->state;
    if (p->hn == 0) {
        fail(p, WF_NO_PATH);
        return p->state;
    }
    int u = pop(p);
    p->steps++;
    p->verts[u].closed = p->steps;
    p->current = u;
    if (u == GOAL) {
        wf_status st = finish(p);
        if (st != WF_OK)
            fail(p, st);
        else
            p->state = WF_RECTPLAN_DONE;
        return p->state;
    }
    int on[2] = {START, NONE};
    if (u == START) {
        on[0] = 0;
    } else {
        on[0] = p->portals[p->verts[u].portal].a;
        on[1] = p->portals[p->verts[u].portal].b;
    }
    for (int i = 0; i < 2; i++) {
        if (on[i] == NONE)
            continue;
        wf_status st = expand(p, on[i]);
        if (st != WF_OK) {
            fail(p, st);
            return p->state;
        }
    }
    for (int i = 0; i < 2; i++)
        if (on[i] != NONE)
            successors(p, u, on[i]);
    return p->state;
}

wf_status wf_rectplan_run(wf_rectplan *p)
{
    while (wf_rectplan_advance(p) == WF_RECTPLAN_RUNNING) {
    }
    return p->status;
}

/* ------------------------------------------------------- inspection -- */

wf_rectplan_state wf_rectplan_get_state(const wf_rectplan *p) { return p->state; }
wf_status wf_rectplan_status(const wf_rectplan *p) { return p->status; }
int wf_rectplan_steps(const wf_rectplan *p) { return p->steps; }
int wf_rectplan_max_nodes(const wf_rectplan *p) { return p->max_nodes; }
size_t wf_rectplan_area_count(const wf_rectplan *p) { return p->nareas; }
int wf_rectplan_node_count(const wf_rectplan *p) { return p->nnodes; }
int wf_rectplan_vertex_count(const wf_rectplan *p) { return p->nverts; }
int wf_rectplan_current(const wf_rectplan *p) { return p->current; }
int wf_rectplan_stage_count(const wf_rectplan *p) { return p->nstages; }

const wf_area *wf_rectplan_area(const wf_rectplan *p, size_t i)
{
    return i < p->nareas ? p->areas + i : NULL;
}

void wf_rectplan_node(const wf_rectplan *p, int i, wf_rectplan_node_info *out)
{
    const rnode *n = p->nodes + i;
    out->r = n->r;
    out->penalty = n->penalty;
    out->created = n->created;
    out->expanded = n->expanded;
}

void wf_rectplan_vertex(const wf_rectplan *p, int i, wf_rectplan_vertex_info *out)
{
    const rvert *v = p->verts + i;
    out->x = v->x;
    out->y = v->y;
    if (i == START) {
        out->node_a = p->nnodes > 0 ? 0 : NONE;
        out->node_b = NONE;
    } else if (v->portal == NONE) {
        out->node_a = out->node_b = NONE;
    } else {
        out->node_a = p->portals[v->portal].a;
        out->node_b = p->portals[v->portal].b;
    }
    out->g = v->g;
    out->h = v->h;
    out->parent = v->parent;
    out->via = v->via;
    out->opened = v->opened;
    out->closed = v->closed;
    out->edge_end = v->portal != NONE && p->portals[v->portal].v != i;
}

static int cmp_open(const void *a, const void *b, const wf_rectplan *p)
{
    int u = *(const int *)a, v = *(const int *)b;
    return u == v ? 0 : before(p, u, v) ? -1 : 1;
}

int wf_rectplan_open(const wf_rectplan *p, int *out, int cap)
{
    int n = 0;
    for (int i = 0; i < p->hn && n < cap; i++)
        out[n++] = p->heap[i];
    /* insertion sort: small lists, and qsort has no context argument */
    for (int i = 1; i < n; i++) {
        int v = out[i], j = i;
        while (j > 0 && cmp_open(&v, &out[j - 1], p) < 0) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = v;
    }
    return p->state == WF_RECTPLAN_RUNNING ? p->hn : 0;
}

wf_status wf_rectplan_result(const wf_rectplan *p, wf_rectplan_path *out)
{
    if (p->state != WF_RECTPLAN_DONE)
        return p->state == WF_RECTPLAN_FAILED ? p->status : WF_ERR_ARG;
    out->n = p->npts;
    out->x = p->px;
    out->y = p->py;
    out->length = p->length;
    out->cost = p->cost;
    out->nchain = p->nchain;
    out->cx = p->cx;
    out->cy = p->cy;
    out->ax = p->ax;
    out->ay = p->ay;
    out->nodes = p->cnodes;
    out->chain_length = p->chain_length;
    out->escaped = p->escaped;
    out->goal_moved = p->goal_moved;
    out->gx = p->cfg.gx;
    out->gy = p->cfg.gy;
    return WF_OK;
}

void wf_rectplan_stage(const wf_rectplan *p, int k, wf_fix *step, const wf_fix **x,
                    const wf_fix **y)
{
    *step = p->stage_step[k];
    *x = p->stage_x + (size_t)k * (size_t)p->nchain;
    *y = p->stage_y + (size_t)k * (size_t)p->nchain;
}
