/* search.c - optimal grid search: the scratch pool, the indexed 4-ary heap,
 * A* and path reconstruction (string-pulling is in smooth.c). JPS (jps.c)
 * shares all of it but the expansion step. */
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

/* ------------------------------------------------------------ scratch -- */

wf_status wf_search_create(wf_search **out, const wf_grid *g)
{
    *out = NULL;
    wf_search *s = calloc(1, sizeof *s);
    if (!s)
        return WF_ERR_NOMEM;
    s->ncells = (size_t)g->w * (size_t)g->h;
    /* calloc: pages the search never touches are never committed */
    s->nodes = calloc(s->ncells, sizeof *s->nodes);
    s->heap = calloc(s->ncells, sizeof *s->heap);
    s->bkt = calloc(s->ncells, sizeof *s->bkt);
    s->mark = calloc(s->ncells, 1);
    s->jslot = calloc(s->ncells, sizeof *s->jslot);
    s->slice = calloc(1, sizeof *s->slice);
    if (!s->nodes || !s->heap || !s->bkt || !s->mark || !s->jslot
        || !s->slice) {
        wf_search_destroy(s);
        return WF_ERR_NOMEM;
    }
    s->ent = (wf_open_entry *)(void *)s->heap;
    s->ent_cap = (uint32_t)(s->ncells * sizeof *s->heap / sizeof *s->ent);
    s->gen = 2;
    wf_open_reset(s);
    *out = s;
    return WF_OK;
}

void wf_search_destroy(wf_search *s)
{
    if (!s)
        return;
    free(s->nodes);
    free(s->heap);
    free(s->bkt);
    free(s->mark);
    free(s->jslot);
    for (int k = 0; k < WF_MAX_CLASSES; k++)
        wf_jplanes_free(s->jp[k]);
    free(s->chain);
    free(s->px);
    free(s->py);
    free(s->slice);
    wf_smooth_free(s->smooth);
    free(s);
}

static size_t jplanes_memory(const wf_search *s)
{
    size_t m = 0;
    for (int k = 0; k < WF_MAX_CLASSES; k++)
        m += wf_jplanes_memory(s->jp[k]);
    return m;
}

size_t wf_search_memory(const wf_search *s)
{
    return sizeof *s + sizeof *s->slice
           + s->ncells * (sizeof *s->nodes + sizeof *s->heap + sizeof *s->bkt
                          + sizeof *s->mark + sizeof *s->jslot)
           + jplanes_memory(s)
           + s->chain_cap * sizeof *s->chain
           + 2 * s->pcap * sizeof *s->px
           + wf_smooth_memory(s->smooth);
}

/* --------------------------------------------------------------- heap -- */

/* Order: lower f; then higher g (deeper first); then lower navcell index.
 * The open list is a 4-ary heap: half the levels of a binary one, and the
 * four children of a slot lie side by side. */
#define HEAP_ARITY 4

static inline void heap_put(wf_search *s, size_t i, const wf_heap_item *it)
{
    s->heap[i] = *it;
    s->nodes[it->node].hpos = (int32_t)i;
}

static void heap_up(wf_search *s, size_t i)
{
    wf_heap_item it = s->heap[i];
    while (i > 0) {
        size_t p = (i - 1) / HEAP_ARITY;
        if (!wf_heap_item_before(&it, &s->heap[p]))
            break;
        heap_put(s, i, &s->heap[p]);
        i = p;
    }
    heap_put(s, i, &it);
}

/* The child of slot i that comes first, or 0 when i has none. */
static inline size_t heap_first_child(const wf_search *s, size_t i)
{
    size_t c = HEAP_ARITY * i + 1, n = s->hn;
    if (c >= n)
        return 0;
    size_t best = c;
    size_t end = n - c < HEAP_ARITY ? n : c + HEAP_ARITY;
    for (size_t k = c + 1; k < end; k++)
        if (wf_heap_item_before(&s->heap[k], &s->heap[best]))
            best = k;
    return best;
}

/* Removes the top: its hole sinks to a leaf along the first children,
 * then the last item fills it and rises (it nearly always stays low). */
static void heap_pop_top(wf_search *s)
{
    size_t i = 0;
    for (size_t c; (c = heap_first_child(s, i)) != 0; i = c)
        heap_put(s, i, &s->heap[c]);
    size_t last = --s->hn;
    if (i != last) {
        s->heap[i] = s->heap[last];
        heap_up(s, i);
    }
}

void wf_relax(wf_run *r, uint32_t v, uint32_t u, int64_t ng)
{
    wf_relax_xy(r, v, (int)(v % (uint32_t)r->w), (int)(v / (uint32_t)r->w), u,
                ng);
}

void wf_relax_xy(wf_run *r, uint32_t v, int x, int y, uint32_t u, int64_t ng)
{
    wf_search *s = r->s;
    wf_node *n = &s->nodes[v];
    if (n->stamp == s->gen + 1)
        return;                         /* closed: consistent heuristic */
    if (n->stamp != s->gen) {
        n->stamp = s->gen;
        n->g = ng;
        n->parent = u;
        n->xy = (uint32_t)x | (uint32_t)y << 16;
        size_t i = s->hn++;
        s->heap[i].f = ng + wf_octile_h(r, x, y);
        s->heap[i].g = ng;
        s->heap[i].node = v;
        heap_up(s, i);
        return;
    }
    if (ng >= n->g)
        return;
    int64_t h = s->heap[n->hpos].f - n->g;
    n->g = ng;
    n->parent = u;
    s->heap[n->hpos].f = ng + h;
    s->heap[n->hpos].g = ng;
    heap_up(s, (size_t)n->hpos);
}

void wf_run_track(wf_run *r, uint32_t u, int64_t f, int64_t g)
{
    int64_t h = f - g;
    if (r->best == UINT32_MAX || h < r->best_h
        || (h == r->best_h && (g < r->best_g
                               || (g == r->best_g && u < r->best)))) {
        r->best = u;
        r->best_h = h;
        r->best_g = g;
    }
}

int wf_pop(wf_run *r, uint32_t *u)
{
    wf_search *s = r->s;
    if (s->hn == 0)
        return 0;
    if (r->expanded >= r->limit) {
        r->stopped = 1;
        return 0;
    }
    *u = s->heap[0].node;
    if (r->track)
        wf_run_track(r, *u, s->heap[0].f, s->heap[0].g);
    s->nodes[*u].stamp = s->gen + 1;
    heap_pop_top(s);
    r->expanded++;
    return 1;
}

/* ---------------------------------------------------------------- A* -- */

/* Neighbour order, fixed: E, W, S, N, then SE, SW, NE, NW. */
const int wf_dir_dx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
const int wf_dir_dy[8] = {0, 0, 1, -1, 1, 1, -1, -1};
#define DX wf_dir_dx
#define DY wf_dir_dy

static uint32_t astar_loop(wf_run *r)
{
    const uint8_t *cost = r->g->cost;
    uint32_t u;
    while (wf_pop(r, &u)) {
        int x = (int)(u % (uint32_t)r->w), y = (int)(u / (uint32_t)r->w);
        if (wf_run_in_goal(r, x, y))
            return u;
        int64_t gu = r->s->nodes[u].g;
        int cu = cost ? cost[u] : 1;
        for (int d = 0; d < 8; d++) {
            int nx = x + DX[d], ny = y + DY[d];
            if (!wf_run_pass(r, nx, ny))
                continue;
            int64_t base = WF_COST_SCALE;
            if (d >= 4) {
                if (!wf_run_pass(r, nx, y) || !wf_run_pass(r, x, ny))
                    continue;
                base = WF_COST_DIAG;
            }
            uint32_t v = (uint32_t)ny * (uint32_t)r->w + (uint32_t)nx;
            int cv = cost ? cost[v] : 1;
            wf_relax(r, v, u, gu + base * (cu + cv));
        }
    }
    return UINT32_MAX;
}

/* ------------------------------------------------------- path output -- */

static wf_status ensure_u32(uint32_t **p, size_t *cap, size_t n)
{
    if (n <= *cap)
        return WF_OK;
    size_t c = *cap ? *cap : 64;
    while (c < n)
        c *= 2;
    uint32_t *q = realloc(*p, c * sizeof *q);
    if (!q)
        return WF_ERR_NOMEM;
    *p = q;
    *cap = c;
    return WF_OK;
}

wf_status wf_chain_reserve(wf_search *s, size_t n)
{
    return ensure_u32(&s->chain, &s->chain_cap, n);
}

static wf_status ensure_points(wf_search *s, size_t n)
{
    if (n <= s->pcap)
        return WF_OK;
    size_t c = s->pcap ? s->pcap : 64;
    while (c < n)
        c *= 2;
    int32_t *x = realloc(s->px, c * sizeof *x);
    if (!x)
        return WF_ERR_NOMEM;
    s->px = x;
    int32_t *y = realloc(s->py, c * sizeof *y);
    if (!y)
        return WF_ERR_NOMEM;
    s->py = y;
    s->pcap = c;
    return WF_OK;
}

static int sgn(int v) { return (v > 0) - (v < 0); }

/* The record of navcell v in the search just run (JPS's in its slot). */
static const wf_node *rec(const wf_search *s, int jps, uint32_t v)
{
    return jps ? wf_jps_rec(s, v) : &s->nodes[v];
}

/* Appends waypoint (x, y) to s->px/s->py (*m points so far), or moves the
 * last one there when it lies on the way in the same direction; *ld holds
 * the last segment's direction (dx + 3 * dy, or 9 before the first). */
static inline void put_point(wf_search *s, int *m, int *ld, int x, int y)
{
    int d = sgn(x - s->px[*m - 1]) + 3 * sgn(y - s->py[*m - 1]);
    if (d != *ld)
        (*m)++;
    s->px[*m - 1] = x;
    s->py[*m - 1] = y;
    *ld = d;
}

/* Walks parents from goal to start and writes the waypoints, start first,
 * to s->px/s->py: the navcells where the direction changes, with the ends.
 * A JPS parent can sit off the lines through its child: the child was found
 * by a straight jump from a diagonal navcell that was not opened (see
 * jps.c), and the path bends there, diagonal first, then straight. */
static wf_status build_points(wf_run *r, int jps, uint32_t start,
                              uint32_t goal, int *count)
{
    wf_search *s = r->s;
    const wf_node *n = rec(s, jps, goal);
    wf_status st = ensure_points(s, 1);
    if (st != WF_OK)
        return st;
    int m = 1, ld = 9;
    s->px[0] = wf_node_x(n);
    s->py[0] = wf_node_y(n);
    for (uint32_t v = goal; v != start;) {
        /* a link adds at most two waypoints */
        if ((size_t)m + 2 > s->pcap) {
            st = ensure_points(s, (size_t)m + 2);
            if (st != WF_OK)
                return st;
        }
        v = n->parent;
        n = rec(s, jps, v);
        int ax = wf_node_x(n), ay = wf_node_y(n);
        int ex = s->px[m - 1] - ax, ey = s->py[m - 1] - ay;
        int nx = ex < 0 ? -ex : ex, ny = ey < 0 ? -ey : ey;
        if (nx && ny && nx != ny) {
            int k = nx < ny ? nx : ny;
            put_point(s, &m, &ld, ax + sgn(ex) * k, ay + sgn(ey) * k);
        }
        put_point(s, &m, &ld, ax, ay);
    }
    for (int i = 0, j = m - 1; i < j; i++, j--) {
        int32_t t = s->px[i];
        s->px[i] = s->px[j];
        s->px[j] = t;
        t = s->py[i];
        s->py[i] = s->py[j];
        s->py[j] = t;
    }
    *count = m;
    return WF_OK;
}

/* ------------------------------------------------------------- driver -- */

void wf_query_init(wf_query *q)
{
    memset(q, 0, sizeof *q);
    wf_goal_point(&q->goal, WF_FIX_HALF, WF_FIX_HALF);
    q->algorithm = WF_ALGO_AUTO;
}

static int lowest_cost(const wf_grid *g)
{
    for (int c = 1; c <= WF_MAX_COST; c++)
        if (g->cost_hist[c])
            return c;
    return 1;
}

static int goal_valid(const wf_goal *goal)
{
    if (goal->type == WF_GOAL_POINT)
        return 1;
    if (goal->type == WF_GOAL_CIRCLE)
        return goal->r >= 0;
    if (goal->type == WF_GOAL_SQUARE)
        return goal->hw >= 0 && goal->hh >= 0;
    return 0;
}

/* Validates q and pushes the start: everything a search needs before its
 * first expansion. Fills *r; returns WF_OK or the early outcome. */
static wf_status setup_run(wf_search *s, const wf_grid *g, const wf_query *q,
                           wf_run *r, wf_algorithm *algo_out)
{
    if (q->cls < 0 || q->cls >= g->nclasses || !goal_valid(&q->goal))
        return WF_ERR_ARG;
    if ((size_t)g->w * (size_t)g->h > s->ncells)
        return WF_ERR_ARG;
    wf_algorithm algo = q->algorithm;
    if (algo == WF_ALGO_AUTO)
        algo = wf_grid_uniform_cost(g) ? WF_ALGO_JPS : WF_ALGO_ASTAR;
    else if (algo == WF_ALGO_JPS && !wf_grid_uniform_cost(g))
        return WF_ERR_COST;
    else if (algo != WF_ALGO_ASTAR && algo != WF_ALGO_JPS)
        return WF_ERR_ARG;
    *algo_out = algo;

    memset(r, 0, sizeof *r);
    r->s = s;
    r->g = g;
    r->cls = q->cls;
    r->w = g->w;
    r->h = g->h;
    r->words = g->words;
    r->plane = g->pass + (size_t)q->cls * g->plane_words;
    r->tplane = g->tpass + (size_t)q->cls * g->tplane_words;
    r->twords = g->twords;
    r->goal = q->goal;
    r->hscale = 2 * (int64_t)lowest_cost(g);
    r->limit = UINT64_MAX;
    r->best = UINT32_MAX;

    if (q->sx < 0 || q->sy < 0 || q->sx >= g->w || q->sy >= g->h)
        return WF_START_OUTSIDE;
    wf_goal_bounds(&q->goal, &r->gx0, &r->gy0, &r->gx1, &r->gy1);
    if (r->gx0 < 0) r->gx0 = 0;
    if (r->gy0 < 0) r->gy0 = 0;
    if (r->gx1 > g->w - 1) r->gx1 = g->w - 1;
    if (r->gy1 > g->h - 1) r->gy1 = g->h - 1;
    /* a point goal's box is its navcell: on the grid when not empty */
    if (r->gx0 > r->gx1 || r->gy0 > r->gy1
        || (q->goal.type != WF_GOAL_POINT
            && !wf_goal_touches(&q->goal, r->gx0, r->gy0, r->gx1, r->gy1)))
        return WF_GOAL_OUTSIDE;
    if (!wf_run_pass(r, q->sx, q->sy))
        return WF_START_BLOCKED;
    if (q->goal.type == WF_GOAL_POINT && !wf_run_pass(r, r->gx0, r->gy0))
        return WF_GOAL_BLOCKED;

    wf_search_new_generation(s);
    uint32_t start = (uint32_t)q->sy * (uint32_t)g->w + (uint32_t)q->sx;
    if (algo == WF_ALGO_JPS) {
        s->jn = 0;
        wf_jps_start(r, q->sx, q->sy);
    } else {
        wf_relax_xy(r, start, q->sx, q->sy, start, 0);
    }
    return WF_OK;
}

void wf_search_new_generation(wf_search *s)
{
    /* on wrap-around, forget every stamp once */
    if (s->gen >= UINT32_MAX - 4) {
        for (size_t i = 0; i < s->ncells; i++)
            s->nodes[i].stamp = 0;
        s->gen = 2;
    }
    s->gen += 2;
    s->hn = 0;
    if (s->mgen >= 250) {
        memset(s->mark, 0, s->ncells);
        s->mgen = 0;
    }
    s->mgen += 2;
    wf_open_reset(s);
}

wf_status wf_search_begin(wf_search *s, const wf_grid *g, const wf_query *q,
                          uint64_t max_expansions, int partial)
{
    wf_slice *sl = s->slice;
    sl->state = 0;
    sl->algo = WF_ALGO_AUTO;
    wf_status st = setup_run(s, g, q, &sl->r, &sl->algo);
    if (st != WF_OK)
        return st;
    sl->start = (uint32_t)q->sy * (uint32_t)g->w + (uint32_t)q->sx;
    sl->goal_node = UINT32_MAX;
    sl->smooth = q->smooth;
    sl->partial = partial != 0;
    sl->r.track = sl->partial;
    sl->cap = max_expansions ? max_expansions : UINT64_MAX;
    sl->details = 0;
    sl->outcome = WF_OK;
    sl->state = 1;
    return WF_OK;
}

wf_status wf_search_step(wf_search *s, uint64_t budget, uint64_t *used,
                         int *finished)
{
    wf_slice *sl = s->slice;
    *used = 0;
    *finished = sl->state == 2;
    if (sl->state != 1)
        return sl->state == 2 ? WF_OK : WF_ERR_ARG;
    wf_run *r = &sl->r;
    uint64_t before = r->expanded;
    uint64_t limit = budget > UINT64_MAX - before ? UINT64_MAX : before + budget;
    if (limit > sl->cap)
        limit = sl->cap;
    r->limit = limit;
    r->stopped = 0;
    if (sl->algo == WF_ALGO_JPS) {
        /* the class's jump planes, made or brought up to date at every
         * slice (the only allocation a search may make): the grid must not
         * change between slices, but if it did, or if other searches made
         * the planes another grid's, they are r's grid's as it is now */
        wf_status st = wf_jplanes_bind(s, r->g, r->cls, r);
        if (st != WF_OK)
            return st;
    }
    uint32_t goal = sl->algo == WF_ALGO_JPS ? wf_jps_loop(r) : astar_loop(r);
    *used = r->expanded - before;
    if (goal != UINT32_MAX) {
        sl->goal_node = goal;
        sl->outcome = WF_OK;
    } else if (r->stopped && r->expanded < sl->cap) {
        return WF_OK;                   /* out of budget: resume later */
    } else {
        if (r->stopped)
            sl->details |= WF_DETAIL_CAPPED;
        if (sl->partial && r->best != UINT32_MAX) {
            sl->goal_node = r->best;
            sl->details |= WF_DETAIL_PARTIAL;
            sl->outcome = WF_OK;
        } else {
            sl->outcome = WF_NO_PATH;
        }
    }
    sl->state = 2;
    *finished = 1;
    return WF_OK;
}

void wf_search_cancel(wf_search *s)
{
    s->slice->state = 0;
}

wf_status wf_search_finish(wf_search *s, wf_path *out, unsigned *details)
{
    wf_slice *sl = s->slice;
    memset(out, 0, sizeof *out);
    if (details)
        *details = 0;
    if (sl->state != 2)
        return WF_ERR_ARG;
    sl->state = 0;
    wf_run *r = &sl->r;
    out->algorithm = sl->algo;
    out->expanded = r->expanded;
    if (details)
        *details = sl->details;
    if (sl->outcome != WF_OK)
        return sl->outcome;
    int m;
    wf_status st = build_points(r, sl->algo == WF_ALGO_JPS, sl->start, sl->goal_node, &m);
    if (st != WF_OK)
        return st;
    if (sl->smooth && m > 2) {
        st = wf_chain_reserve(s, (size_t)m);
        if (st != WF_OK)
            return st;
        for (int i = 0; i < m; i++)
            s->chain[i] = (uint32_t)s->py[i] * (uint32_t)r->w + (uint32_t)s->px[i];
        st = wf_emit_path(s, r->g, r->cls, (size_t)m, 1, &m);
        if (st != WF_OK)
            return st;
    }
    out->n = m;
    out->x = s->px;
    out->y = s->py;
    out->cost = rec(s, sl->algo == WF_ALGO_JPS, sl->goal_node)->g;
    return WF_OK;
}

wf_status wf_emit_path(wf_search *s, const wf_grid *g, int cls, size_t n,
                       int smooth, int *out_n)
{
    if (smooth && n > 2) {
        const int32_t *x, *y;
        int m;
        wf_status st = wf_smooth_chain(s, g, cls, n, &x, &y, &m);
        if (st == WF_OK)
            st = ensure_points(s, (size_t)m);
        if (st != WF_OK)
            return st;
        memcpy(s->px, x, (size_t)m * sizeof *x);
        memcpy(s->py, y, (size_t)m * sizeof *y);
        *out_n = m;
        return WF_OK;
    }
    wf_status st = ensure_points(s, n);
    if (st != WF_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        s->px[i] = (int32_t)(s->chain[i] % (uint32_t)g->w);
        s->py[i] = (int32_t)(s->chain[i] / (uint32_t)g->w);
    }
    *out_n = (int)n;
    return WF_OK;
}

wf_status wf_search_run_ex(wf_search *s, const wf_grid *g, const wf_query *q,
                           uint64_t max_expansions, int partial,
                           wf_path *out, unsigned *details)
{
    memset(out, 0, sizeof *out);
    if (details)
        *details = 0;
    wf_status st = wf_search_begin(s, g, q, max_expansions, partial);
    if (st != WF_OK) {
        out->algorithm = s->slice->algo;
        return st;
    }
    uint64_t used;
    int finished;
    st = wf_search_step(s, UINT64_MAX, &used, &finished);
    if (st != WF_OK) {
        wf_search_cancel(s);
        out->algorithm = s->slice->algo;
        return st;
    }
    return wf_search_finish(s, out, details);
}

wf_status wf_search_run(wf_search *s, const wf_grid *g, const wf_query *q,
                        wf_path *out)
{
    return wf_search_run_ex(s, g, q, 0, 0, out, NULL);
}

int64_t wf_polyline_length(const int32_t *x, const int32_t *y, int n)
{
    int64_t total = 0;
    for (int i = 0; i + 1 < n; i++) {
        total += wf_segment_length((int64_t)x[i + 1] - x[i],
                                   (int64_t)y[i + 1] - y[i]);
    }
    return total;
}
