/* cpd.c - first-move rows for the grid path tables: one Dijkstra search per
 * source over a passability map, and the run compression of its result.
 * See cpd.h for the rules. */
#include "cpd.h"
#include "wayfinder.h"

#include <stdlib.h>

struct wf_cpd {
    int32_t w, h, cells;
    int64_t *dist;
    uint32_t *seen;        /* generation stamp: dist/first valid when == gen */
    uint32_t *done;        /* settled when == gen */
    unsigned char *first;
    int64_t *heap_d;       /* binary heap of (dist, cell); 8 pushes per cell */
    int32_t *heap_c;
    int32_t heap_cap;
    uint32_t gen;
};

static const int DX[8] = { 1, -1, 0, 0, 1, -1, 1, -1 };
static const int DY[8] = { 0, 0, 1, -1, 1, 1, -1, -1 };

wf_cpd *wf_cpd_new(int w, int h)
{
    wf_cpd *c;
    size_t n;
    if (w < 1 || h < 1 || w > WF_CPD_MAX_SIDE || h > WF_CPD_MAX_SIDE) return NULL;
    n = (size_t)w * (size_t)h;
    c = (wf_cpd *)calloc(1, sizeof *c);
    if (!c) return NULL;
    c->w = w;
    c->h = h;
    c->cells = (int32_t)n;
    c->heap_cap = (int32_t)(n * 8 + 1);
    c->dist = (int64_t *)malloc(n * sizeof *c->dist);
    c->seen = (uint32_t *)calloc(n, sizeof *c->seen);
    c->done = (uint32_t *)calloc(n, sizeof *c->done);
    c->first = (unsigned char *)malloc(n);
    c->heap_d = (int64_t *)malloc((size_t)c->heap_cap * sizeof *c->heap_d);
    c->heap_c = (int32_t *)malloc((size_t)c->heap_cap * sizeof *c->heap_c);
    if (!c->dist || !c->seen || !c->done || !c->first || !c->heap_d || !c->heap_c) {
        wf_cpd_free(c);
        return NULL;
    }
    return c;
}

void wf_cpd_free(wf_cpd *c)
{
    if (!c) return;
    free(c->dist);
    free(c->seen);
    free(c->done);
    free(c->first);
    free(c->heap_d);
    free(c->heap_c);
    free(c);
}

static int heap_less(int64_t ad, int32_t ac, int64_t bd, int32_t bc)
{
    return ad < bd || (ad == bd && ac < bc);
}

static void heap_push(wf_cpd *c, int32_t *size, int64_t d, int32_t cell)
{
    int32_t i = (*size)++;
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (!heap_less(d, cell, c->heap_d[p], c->heap_c[p])) break;
        c->heap_d[i] = c->heap_d[p];
        c->heap_c[i] = c->heap_c[p];
        i = p;
    }
    c->heap_d[i] = d;
    c->heap_c[i] = cell;
}

static void heap_pop(wf_cpd *c, int32_t *size, int64_t *d, int32_t *cell)
{
    int64_t ld;
    int32_t lc, i = 0, n;
    *d = c->heap_d[0];
    *cell = c->heap_c[0];
    n = --(*size);
    ld = c->heap_d[n];
    lc = c->heap_c[n];
    for (;;) {
        int32_t k = 2 * i + 1;
        if (k >= n) break;
        if (k + 1 < n && heap_less(c->heap_d[k + 1], c->heap_c[k + 1], c->heap_d[k], c->heap_c[k]))
            k++;
        if (!heap_less(c->heap_d[k], c->heap_c[k], ld, lc)) break;
        c->heap_d[i] = c->heap_d[k];
        c->heap_c[i] = c->heap_c[k];
        i = k;
    }
    if (n > 0) {
        c->heap_d[i] = ld;
        c->heap_c[i] = lc;
    }
}

static int open_at(const wf_cpd *c, const unsigned char *pass, int x, int y)
{
    return x >= 0 && y >= 0 && x < c->w && y < c->h && pass[(size_t)y * (size_t)c->w + (size_t)x];
}

int32_t wf_cpd_first_moves(wf_cpd *c, const unsigned char *pass, int32_t source,
                           unsigned char *moves)
{
    int32_t size = 0, reached = 0, i;
    uint32_t gen;
    for (i = 0; i < c->cells; i++) moves[i] = WF_CPD_NONE;
    if (source < 0 || source >= c->cells || !pass[source]) return 0;
    if (++c->gen == 0) {   /* stamps wrapped: clear them once */
        for (i = 0; i < c->cells; i++) c->seen[i] = c->done[i] = 0;
        c->gen = 1;
    }
    gen = c->gen;
    c->seen[source] = gen;
    c->dist[source] = 0;
    c->first[source] = WF_CPD_NONE;
    heap_push(c, &size, 0, source);
    while (size > 0) {
        int64_t du;
        int32_t u;
        int ux, uy, k;
        heap_pop(c, &size, &du, &u);
        if (c->done[u] == gen) continue;
        c->done[u] = gen;
        reached++;
        moves[u] = c->first[u];
        ux = u % c->w;
        uy = u / c->w;
        for (k = 0; k < 8; k++) {
            int nx = ux + DX[k], ny = uy + DY[k];
            int32_t v;
            int64_t nd;
            if (!open_at(c, pass, nx, ny)) continue;
            if (k >= 4 && (!open_at(c, pass, nx, uy) || !open_at(c, pass, ux, ny))) continue;
            v = (int32_t)ny * c->w + nx;
            if (c->done[v] == gen) continue;
            nd = du + (k < 4 ? WF_COST_SCALE : WF_COST_DIAG);
            if (c->seen[v] == gen && nd >= c->dist[v]) continue;
            if (size >= c->heap_cap) continue;   /* cannot happen: 8 pushes per cell */
            c->seen[v] = gen;
            c->dist[v] = nd;
            c->first[v] = u == source ? (unsigned char)k : c->first[u];
            heap_push(c, &size, nd, v);
        }
    }
    return reached;
}

int32_t wf_cpd_runs(const unsigned char *pass, const unsigned char *moves, int32_t cells,
                    int32_t *starts, unsigned char *ms)
{
    int32_t runs = 0, i;
    int pending = 0;   /* the first run holds blocked cells only so far */
    for (i = 0; i < cells; i++) {
        if (runs == 0) {   /* the first run always starts at cell 0 */
            starts[0] = 0;
            ms[0] = moves[i];
            runs = 1;
            pending = !pass[i];
            continue;
        }
        if (!pass[i]) continue;
        if (pending) {
            ms[0] = moves[i];
            pending = 0;
            continue;
        }
        if (ms[runs - 1] == moves[i]) continue;
        starts[runs] = i;
        ms[runs] = moves[i];
        runs++;
    }
    return runs;
}

uint32_t wf_cpd_hash(const unsigned char *bytes, size_t n)
{
    uint32_t h = 2166136261u;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= bytes[i];
        h *= 16777619u;
    }
    return h;
}
