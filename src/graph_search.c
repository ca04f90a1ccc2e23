/* graph_search.c - the portal solver: A* over "arrived at portal p from
 * side a or b" states of a wf_graph, sliced by a budget of expansions,
 * and the funnel that string-pulls the path across runs of walk portals.
 * The cost model and tie rule are described in wayfinder.h. */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"

enum { IDLE = 0, RUNNING = 1, DONE = 2 };

struct wf_graph_search {
    const wf_graph *g;
    uint64_t version;
    int phase, found;
    wf_graph_query q;
    int ss, gs;
    int64_t rn, rd, shortcut;    /* rate bound and the teleport term C */
    size_t cap;                  /* states the arrays hold */
    int64_t *gc, *hc, *fc;
    int *parent, *hpos, *heap;
    uint32_t *gen;
    uint8_t *closed;
    uint32_t cur;
    int hn;
    uint64_t expanded;
    /* results, grown at finish only */
    size_t rcap;
    int *rport, *rdir, *rsec;
    size_t pcap;
    wf_fix *px, *py, *lx, *ly, *rx, *ry;
    int *pvia;
    int npts;
};

wf_status wf_graph_search_create(wf_graph_search **out)
{
    if (!out) return WF_ERR_ARG;
    *out = calloc(1, sizeof **out);
    return *out ? WF_OK : WF_ERR_NOMEM;
}

void wf_graph_search_destroy(wf_graph_search *s)
{
    if (!s) return;
    free(s->gc); free(s->hc); free(s->fc); free(s->parent); free(s->hpos);
    free(s->heap); free(s->gen); free(s->closed);
    free(s->rport); free(s->rdir); free(s->rsec);
    free(s->px); free(s->py); free(s->lx); free(s->ly); free(s->rx); free(s->ry);
    free(s->pvia);
    free(s);
}

size_t wf_graph_search_memory(const wf_graph_search *s)
{
    return sizeof *s + s->cap * (3 * sizeof(int64_t) + 3 * sizeof(int) +
                                 sizeof(uint32_t) + 1) +
           s->rcap * 3 * sizeof(int) + s->pcap * (6 * sizeof(wf_fix) + sizeof(int));
}

void wf_graph_query_init(wf_graph_query *q)
{
    memset(q, 0, sizeof *q);
    q->ssector = q->gsector = -1;
    q->class_bit = 1;
    q->abilities = UINT32_MAX;
    for (int i = 0; i < WF_GRAPH_MAX_SURFACES; i++) q->mult[i] = 1;
    q->wnum = q->wden = q->rnum = q->rden = 1;
}

static int grow(wf_graph_search *s, size_t n)
{
    if (n <= s->cap) return 1;
    size_t c = n + n / 2 + 16;
    int64_t *gc = realloc(s->gc, c * sizeof *gc);
    if (gc) s->gc = gc;
    int64_t *hc = realloc(s->hc, c * sizeof *hc);
    if (hc) s->hc = hc;
    int64_t *fc = realloc(s->fc, c * sizeof *fc);
    if (fc) s->fc = fc;
    int *pa = realloc(s->parent, c * sizeof *pa);
    if (pa) s->parent = pa;
    int *hp = realloc(s->hpos, c * sizeof *hp);
    if (hp) s->hpos = hp;
    int *he = realloc(s->heap, c * sizeof *he);
    if (he) s->heap = he;
    uint8_t *cl = realloc(s->closed, c);
    if (cl) s->closed = cl;
    uint32_t *ge = realloc(s->gen, c * sizeof *ge);
    if (ge) {
        s->gen = ge;
        memset(ge + s->cap, 0, (c - s->cap) * sizeof *ge);
    }
    if (!gc || !hc || !fc || !pa || !hp || !he || !cl || !ge) return 0;
    s->cap = c;
    return 1;
}

static int ok_mult(int64_t v) { return v >= 0 && v <= WF_GRAPH_MAX_MULT; }
static int ok_ratio(int64_t v) { return v >= 1 && v <= 1000; }
static int ok_fix(wf_fix v) { return v >= -WF_GRAPH_LIMIT && v <= WF_GRAPH_LIMIT; }

/* Position and sector of a state. */
static void state_at(const wf_graph_search *s, int v, wf_fix *x, wf_fix *y, int *sec)
{
    const wf_graph *g = s->g;
    int np = g->np;
    if (v == 2 * np) {
        *x = s->q.sx; *y = s->q.sy; *sec = s->ss;
    } else if (v == 2 * np + 1) {
        *x = s->q.gx; *y = s->q.gy; *sec = s->gs;
    } else if ((v & 1) == 0) {
        int p = v >> 1;
        *x = g->anchor[4 * p + 2]; *y = g->anchor[4 * p + 3]; *sec = g->por[p].b;
    } else {
        int p = v >> 1;
        *x = g->anchor[4 * p]; *y = g->anchor[4 * p + 1]; *sec = g->por[p].a;
    }
}

static int64_t rate_floor(const wf_graph_search *s, int64_t d)
{
    return d * s->rn / s->rd;
}

static int64_t heuristic(const wf_graph_search *s, wf_fix x, wf_fix y)
{
    int64_t h = rate_floor(s, wf_graph_dist_floor(x, y, s->q.gx, s->q.gy));
    return h < s->shortcut ? h : s->shortcut;
}

static int before(const wf_graph_search *s, int a, int b)
{
    if (s->fc[a] != s->fc[b]) return s->fc[a] < s->fc[b];
    if (s->hc[a] != s->hc[b]) return s->hc[a] < s->hc[b];
    return a < b;
}

static void sift_up(wf_graph_search *s, int i)
{
    int v = s->heap[i];
    while (i > 0) {
        int up = (i - 1) / 2;
        if (!before(s, v, s->heap[up])) break;
        s->heap[i] = s->heap[up];
        s->hpos[s->heap[i]] = i;
        i = up;
    }
    s->heap[i] = v;
    s->hpos[v] = i;
}

static void sift_down(wf_graph_search *s, int i)
{
    int v = s->heap[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= s->hn) break;
        if (c + 1 < s->hn && before(s, s->heap[c + 1], s->heap[c])) c++;
        if (!before(s, s->heap[c], v)) break;
        s->heap[i] = s->heap[c];
        s->hpos[s->heap[i]] = i;
        i = c;
    }
    s->heap[i] = v;
    s->hpos[v] = i;
}

/* Costs beyond this are treated as no route: every term added to a cost
 * is below 2^48, so sums never overflow. */
#define COST_CAP ((int64_t)1 << 61)

static void relax(wf_graph_search *s, int v, int from, int64_t cost)
{
    if (cost > COST_CAP) return;
    if (s->gen[v] != s->cur) {
        wf_fix x, y;
        int sec;
        s->gen[v] = s->cur;
        s->closed[v] = 0;
        s->gc[v] = cost;
        s->parent[v] = from;
        state_at(s, v, &x, &y, &sec);
        s->hc[v] = v == 2 * s->g->np + 1 ? 0 : heuristic(s, x, y);
        s->fc[v] = cost + s->hc[v] * s->q.wnum / s->q.wden;
        s->heap[s->hn] = v;
        s->hpos[v] = s->hn;
        sift_up(s, s->hn++);
    } else if (!s->closed[v] && cost < s->gc[v]) {
        s->fc[v] -= s->gc[v] - cost;
        s->gc[v] = cost;
        s->parent[v] = from;
        sift_up(s, s->hpos[v]);
    }
}

static int usable(const wf_graph_search *s, const wf_graph_portal *p)
{
    return (p->classes & s->q.class_bit) && !(p->needs & ~s->q.abilities);
}

static int64_t sector_mult(const wf_graph_search *s, int sec)
{
    return s->q.mult[s->g->sec[sec].surface];
}

/* The least H from the exit of any usable portal that costs less than
 * walking from its entry to its exit at the rate bound. */
static int64_t shortcut_term(const wf_graph_search *s)
{
    const wf_graph *g = s->g;
    int64_t best = INT64_MAX;
    for (int k = 0; k < g->nlinks; k++) {
        int p = g->links[k];
        const wf_graph_portal *q = &g->por[p];
        if (!usable(s, q)) continue;
        for (int dir = 0; dir < 2; dir++) {
            if (dir == 1 && (q->flags & WF_PORTAL_ONE_WAY)) break;
            int dest = dir == 0 ? q->b : q->a;
            if (sector_mult(s, dest) == 0) continue;
            const wf_fix *en = &g->anchor[4 * p + (dir == 0 ? 0 : 2)];
            const wf_fix *ex = &g->anchor[4 * p + (dir == 0 ? 2 : 0)];
            int64_t walk = wf_graph_dist_ceil(en[0], en[1], ex[0], ex[1]);
            walk = (walk * s->rn + s->rd - 1) / s->rd;
            if (q->cost + g->sec[dest].danger < walk) {
                int64_t h = rate_floor(s, wf_graph_dist_floor(ex[0], ex[1], s->q.gx, s->q.gy));
                if (h < best) best = h;
            }
        }
    }
    return best;
}

wf_status wf_graph_search_begin(wf_graph_search *s, const wf_graph *g,
                                const wf_graph_query *q)
{
    if (!s || !g || !q) return WF_ERR_ARG;
    s->phase = IDLE;
    if (!ok_fix(q->sx) || !ok_fix(q->sy) || !ok_fix(q->gx) || !ok_fix(q->gy) ||
        !ok_ratio(q->wnum) || !ok_ratio(q->wden) || q->wnum < q->wden ||
        !ok_ratio(q->rnum) || !ok_ratio(q->rden) || q->ssector >= g->ns ||
        q->gsector >= g->ns)
        return WF_ERR_ARG;
    int64_t minmult = 0;
    for (int i = 0; i < WF_GRAPH_MAX_SURFACES; i++) {
        if (!ok_mult(q->mult[i])) return WF_ERR_ARG;
        if (q->mult[i] > 0 && (minmult == 0 || q->mult[i] < minmult)) minmult = q->mult[i];
    }
    s->g = g;
    s->q = *q;
    s->ss = q->ssector >= 0 ? q->ssector : wf_graph_locate(g, q->sx, q->sy);
    s->gs = q->gsector >= 0 ? q->gsector : wf_graph_locate(g, q->gx, q->gy);
    if (s->ss < 0) return WF_START_OUTSIDE;
    if (s->gs < 0) return WF_GOAL_OUTSIDE;
    if (sector_mult(s, s->ss) == 0) return WF_START_BLOCKED;
    if (sector_mult(s, s->gs) == 0) return WF_GOAL_BLOCKED;
    /* r = min(minmult, rnum/rden) */
    if (minmult * q->rden < q->rnum) {
        s->rn = minmult;
        s->rd = 1;
    } else {
        s->rn = q->rnum;
        s->rd = q->rden;
    }
    size_t n = 2 * (size_t)g->np + 2;
    if (!grow(s, n)) return WF_ERR_NOMEM;
    if (++s->cur == 0) {
        memset(s->gen, 0, s->cap * sizeof *s->gen);
        s->cur = 1;
    }
    s->shortcut = shortcut_term(s);
    s->hn = 0;
    s->expanded = 0;
    s->found = 0;
    s->version = g->version;
    relax(s, 2 * g->np, -1, 0);
    s->phase = RUNNING;
    return WF_OK;
}

static void expand(wf_graph_search *s, int u)
{
    const wf_graph *g = s->g;
    wf_fix x, y;
    int sec;
    state_at(s, u, &x, &y, &sec);
    int64_t m = sector_mult(s, sec), base = s->gc[u];
    if (sec == s->gs)
        relax(s, 2 * g->np + 1, u,
              base + wf_graph_dist_ceil(x, y, s->q.gx, s->q.gy) * m);
    for (int k = g->adj_start[sec]; k < g->adj_start[sec + 1]; k++) {
        int p = g->adj[k];
        const wf_graph_portal *q = &g->por[p];
        if (!usable(s, q)) continue;
        if (q->a == sec && sector_mult(s, q->b) > 0) {
            const wf_fix *en = &g->anchor[4 * p];
            relax(s, 2 * p, u, base + wf_graph_dist_ceil(x, y, en[0], en[1]) * m +
                                   q->cost + g->sec[q->b].danger);
        }
        if (q->b == sec && !(q->flags & WF_PORTAL_ONE_WAY) && sector_mult(s, q->a) > 0) {
            const wf_fix *en = &g->anchor[4 * p + 2];
            relax(s, 2 * p + 1, u, base + wf_graph_dist_ceil(x, y, en[0], en[1]) * m +
                                       q->cost + g->sec[q->a].danger);
        }
    }
}

wf_status wf_graph_search_step(wf_graph_search *s, uint64_t budget,
                               uint64_t *used, int *finished)
{
    uint64_t done = 0;
    if (used) *used = 0;
    if (finished) *finished = 0;
    if (!s || s->phase == IDLE) return WF_ERR_ARG;
    if (s->g->version != s->version) {
        s->phase = IDLE;
        return WF_ERR_ARG;
    }
    int goal = 2 * s->g->np + 1;
    while (s->phase == RUNNING && done < budget) {
        if (s->hn == 0) {
            s->phase = DONE;
            break;
        }
        int u = s->heap[0];
        s->heap[0] = s->heap[--s->hn];
        if (s->hn > 0) {
            s->hpos[s->heap[0]] = 0;
            sift_down(s, 0);
        }
        s->closed[u] = 1;
        done++;
        s->expanded++;
        if (u == goal) {
            s->found = 1;
            s->phase = DONE;
            break;
        }
        expand(s, u);
    }
    if (used) *used = done;
    if (finished) *finished = s->phase == DONE;
    return WF_OK;
}

void wf_graph_search_cancel(wf_graph_search *s)
{
    if (s) s->phase = IDLE;
}

/* ------------------------------------------------------------ funnel -- */

static int64_t tri2(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by, wf_fix cx, wf_fix cy)
{
    return ((int64_t)cx - ax) * ((int64_t)by - ay) - ((int64_t)bx - ax) * ((int64_t)cy - ay);
}

static void emit(wf_graph_search *s, wf_fix x, wf_fix y)
{
    if (s->npts > 0 && s->px[s->npts - 1] == x && s->py[s->npts - 1] == y) return;
    s->px[s->npts] = x;
    s->py[s->npts] = y;
    s->pvia[s->npts] = -1;
    s->npts++;
}

/* String-pulls the run lx/ly (left) rx/ry (right) [0, n], where entry 0
 * and entry n are single points, appending the turning points and the
 * end point. */
static void funnel(wf_graph_search *s, int n)
{
    wf_fix ax = s->lx[0], ay = s->ly[0];
    wf_fix lx = ax, ly = ay, rx = ax, ry = ay;
    int ai = 0, li = 0, ri = 0;
    emit(s, ax, ay);
    for (int i = 1; i <= n; i++) {
        wf_fix nlx = s->lx[i], nly = s->ly[i], nrx = s->rx[i], nry = s->ry[i];
        if (tri2(ax, ay, rx, ry, nrx, nry) <= 0) {
            if ((ax == rx && ay == ry) || tri2(ax, ay, lx, ly, nrx, nry) > 0) {
                rx = nrx; ry = nry; ri = i;
            } else {
                emit(s, lx, ly);
                ax = lx; ay = ly; ai = li;
                rx = lx = ax; ry = ly = ay; ri = li = ai;
                i = ai;
                continue;
            }
        }
        if (tri2(ax, ay, lx, ly, nlx, nly) >= 0) {
            if ((ax == lx && ay == ly) || tri2(ax, ay, rx, ry, nlx, nly) < 0) {
                lx = nlx; ly = nly; li = i;
            } else {
                emit(s, rx, ry);
                ax = rx; ay = ry; ai = ri;
                rx = lx = ax; ry = ly = ay; ri = li = ai;
                i = ai;
                continue;
            }
        }
    }
    emit(s, s->lx[n], s->ly[n]);
}

static void run_point(wf_graph_search *s, int k, wf_fix x, wf_fix y)
{
    s->lx[k] = s->rx[k] = x;
    s->ly[k] = s->ry[k] = y;
}

/* Left and right ends of walk portal p crossed from sector from to to. */
static void run_span(wf_graph_search *s, int k, int p, int from, int to)
{
    const wf_graph *g = s->g;
    const wf_graph_portal *q = &g->por[p];
    const wf_graph_sector *a = &g->sec[from], *b = &g->sec[to];
    int64_t dx = ((int64_t)b->x0 + b->x1) - ((int64_t)a->x0 + a->x1);
    int64_t dy = ((int64_t)b->y0 + b->y1) - ((int64_t)a->y0 + a->y1);
    int64_t ex = (int64_t)q->ax0 - q->ax1, ey = (int64_t)q->ay0 - q->ay1;
    if (dx * ey - dy * ex > 0) {    /* (ax0, ay0) is on the left */
        s->lx[k] = q->ax0; s->ly[k] = q->ay0; s->rx[k] = q->ax1; s->ry[k] = q->ay1;
    } else {
        s->lx[k] = q->ax1; s->ly[k] = q->ay1; s->rx[k] = q->ax0; s->ry[k] = q->ay0;
    }
}

static int grow_results(wf_graph_search *s, size_t steps)
{
    if (steps + 2 > s->rcap) {
        size_t c = steps + 2 + steps / 2;
        int *a = realloc(s->rport, c * sizeof *a);
        if (a) s->rport = a;
        int *b = realloc(s->rdir, c * sizeof *b);
        if (b) s->rdir = b;
        int *d = realloc(s->rsec, c * sizeof *d);
        if (d) s->rsec = d;
        if (!a || !b || !d) return 0;
        s->rcap = c;
    }
    size_t pts = 2 * steps + 4;
    if (pts > s->pcap) {
        size_t c = pts + pts / 2;
        wf_fix **arr[6] = { &s->px, &s->py, &s->lx, &s->ly, &s->rx, &s->ry };
        for (int i = 0; i < 6; i++) {
            wf_fix *v = realloc(*arr[i], c * sizeof *v);
            if (!v) return 0;
            *arr[i] = v;
        }
        int *via = realloc(s->pvia, c * sizeof *via);
        if (!via) return 0;
        s->pvia = via;
        s->pcap = c;
    }
    return 1;
}

wf_status wf_graph_search_finish(wf_graph_search *s, wf_graph_result *out)
{
    if (!s || !out || s->phase != DONE) return WF_ERR_ARG;
    if (s->g->version != s->version) {
        s->phase = IDLE;
        return WF_ERR_ARG;
    }
    s->phase = IDLE;
    memset(out, 0, sizeof *out);
    out->expanded = s->expanded;
    if (!s->found) return WF_NO_PATH;
    const wf_graph *g = s->g;
    int start = 2 * g->np, goal = start + 1;
    size_t steps = 0;
    for (int v = s->parent[goal]; v != start; v = s->parent[v]) steps++;
    if (!grow_results(s, steps)) return WF_ERR_NOMEM;
    size_t k = steps;
    for (int v = s->parent[goal]; v != start; v = s->parent[v]) {
        k--;
        s->rport[k] = v >> 1;
        s->rdir[k] = v & 1;
    }
    s->rsec[0] = s->ss;
    for (size_t i = 0; i < steps; i++) {
        const wf_graph_portal *q = &g->por[s->rport[i]];
        s->rsec[i + 1] = s->rdir[i] ? q->a : q->b;
    }
    /* points: funnel each run of walk portals between links */
    s->npts = 0;
    int n = 0;
    run_point(s, 0, s->q.sx, s->q.sy);
    for (size_t i = 0; i < steps; i++) {
        int p = s->rport[i], d = s->rdir[i];
        const wf_graph_portal *q = &g->por[p];
        if (q->flags & WF_PORTAL_WALK) {
            run_span(s, ++n, p, s->rsec[i], s->rsec[i + 1]);
            continue;
        }
        const wf_fix *en = &g->anchor[4 * p + (d ? 2 : 0)];
        const wf_fix *ex = &g->anchor[4 * p + (d ? 0 : 2)];
        run_point(s, ++n, en[0], en[1]);
        funnel(s, n);
        /* a link's entry and exit are both waypoints, even when equal */
        s->px[s->npts] = ex[0];
        s->py[s->npts] = ex[1];
        s->pvia[s->npts] = p;
        s->npts++;
        n = 0;
        run_point(s, 0, ex[0], ex[1]);
    }
    run_point(s, ++n, s->q.gx, s->q.gy);
    funnel(s, n);
    out->cost = s->gc[goal];
    out->nsteps = (int)steps;
    out->portal = s->rport;
    out->dir = s->rdir;
    out->sector = s->rsec;
    out->npoints = s->npts;
    out->x = s->px;
    out->y = s->py;
    out->via = s->pvia;
    return WF_OK;
}
