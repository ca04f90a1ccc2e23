/* graph.c - navigation graphs of sectors and portals: validation, the
 * adjacency lists the solver walks and the bucket grid that finds the
 * sector holding a point. The solver is in graph_search.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"

static uint64_t isqrt64(uint64_t n)
{
    /* the double's root is only a first guess; integers decide */
    uint64_t r = (uint64_t)sqrt((double)n);
    while (r > 0 && r * r > n)
        r--;
    while ((r + 1) * (r + 1) <= n)
        r++;
    return r;
}

static uint64_t dist2(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by)
{
    int64_t dx = (int64_t)bx - ax, dy = (int64_t)by - ay;
    return (uint64_t)(dx * dx) + (uint64_t)(dy * dy);
}

int64_t wf_graph_dist_floor(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by)
{
    return (int64_t)isqrt64(dist2(ax, ay, bx, by));
}

int64_t wf_graph_dist_ceil(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by)
{
    uint64_t n = dist2(ax, ay, bx, by), r = isqrt64(n);
    return (int64_t)(r * r == n ? r : r + 1);
}

static wf_fix mid(wf_fix a, wf_fix b)
{
    int64_t v = (int64_t)a + b;
    return (wf_fix)(v >= 0 ? v / 2 : -((-v + 1) / 2));
}

static int in_limit(wf_fix v)
{
    return v >= -WF_GRAPH_LIMIT && v <= WF_GRAPH_LIMIT;
}

static int in_box(const wf_graph_sector *s, wf_fix x, wf_fix y)
{
    return x >= s->x0 && x <= s->x1 && y >= s->y0 && y <= s->y1;
}

static wf_status fail(wf_graph_error *err, wf_graph_fault f, int i, int j)
{
    if (err) {
        err->fault = f;
        err->i = i;
        err->j = j;
    }
    return WF_ERR_ARG;
}

static wf_status check_items(const wf_graph_sector *sec, int ns,
                             const wf_graph_portal *por, int np,
                             wf_graph_error *err)
{
    for (int i = 0; i < ns; i++) {
        const wf_graph_sector *s = &sec[i];
        if (!in_limit(s->x0) || !in_limit(s->y0) || !in_limit(s->x1) ||
            !in_limit(s->y1) || s->x0 >= s->x1 || s->y0 >= s->y1)
            return fail(err, WF_GF_BOX, i, -1);
        if (s->surface < 0 || s->surface >= WF_GRAPH_MAX_SURFACES)
            return fail(err, WF_GF_SURFACE, i, -1);
        if (s->danger < 0 || s->danger > WF_GRAPH_MAX_COST)
            return fail(err, WF_GF_DANGER, i, -1);
    }
    for (int i = 0; i < np; i++) {
        const wf_graph_portal *p = &por[i];
        if (p->a < 0 || p->a >= ns)
            return fail(err, WF_GF_NOWHERE, i, p->a);
        if (p->b < 0 || p->b >= ns)
            return fail(err, WF_GF_NOWHERE, i, p->b);
        if (p->cost < 0 || p->cost > WF_GRAPH_MAX_COST || p->period < 0 ||
            p->period > WF_GRAPH_MAX_COST || p->offset < 0 ||
            (p->period > 0 ? p->offset >= p->period : p->offset != 0))
            return fail(err, WF_GF_COST, i, -1);
        if (!in_box(&sec[p->a], p->ax0, p->ay0) || !in_box(&sec[p->a], p->ax1, p->ay1))
            return fail(err, WF_GF_SPAN, i, p->a);
        if (!in_box(&sec[p->b], p->bx0, p->by0) || !in_box(&sec[p->b], p->bx1, p->by1))
            return fail(err, WF_GF_SPAN, i, p->b);
        if ((p->flags & WF_PORTAL_WALK) &&
            (p->a == p->b || p->ax0 != p->bx0 || p->ay0 != p->by0 ||
             p->ax1 != p->bx1 || p->ay1 != p->by1))
            return fail(err, WF_GF_WALK, i, -1);
    }
    return WF_OK;
}

/* Bucket range of a box, clamped to the grid. */
static void bucket_range(const wf_graph *g, const wf_graph_sector *s, int *i0,
                         int *j0, int *i1, int *j1)
{
    *i0 = (int)(((int64_t)s->x0 - g->bx0) / g->bside);
    *j0 = (int)(((int64_t)s->y0 - g->by0) / g->bside);
    *i1 = (int)(((int64_t)s->x1 - 1 - g->bx0) / g->bside);
    *j1 = (int)(((int64_t)s->y1 - 1 - g->by0) / g->bside);
    if (*i1 >= g->bw) *i1 = g->bw - 1;
    if (*j1 >= g->bh) *j1 = g->bh - 1;
}

static wf_status build_buckets(wf_graph *g)
{
    int ns = g->ns;
    if (ns == 0) {
        g->bw = g->bh = 1;
        g->bside = WF_FIX_ONE;
        g->bstart = calloc(2, sizeof(int));
        g->bsec = malloc(sizeof(int));
        return g->bstart && g->bsec ? WF_OK : WF_ERR_NOMEM;
    }
    wf_fix x0 = g->sec[0].x0, y0 = g->sec[0].y0, x1 = g->sec[0].x1, y1 = g->sec[0].y1;
    for (int i = 1; i < ns; i++) {
        if (g->sec[i].x0 < x0) x0 = g->sec[i].x0;
        if (g->sec[i].y0 < y0) y0 = g->sec[i].y0;
        if (g->sec[i].x1 > x1) x1 = g->sec[i].x1;
        if (g->sec[i].y1 > y1) y1 = g->sec[i].y1;
    }
    int64_t w = (int64_t)x1 - x0, h = (int64_t)y1 - y0;
    int64_t side = (int64_t)isqrt64((uint64_t)w * (uint64_t)h / (uint64_t)ns);
    if (side < 1) side = 1;
    int64_t cap = 4 * (int64_t)ns + 64;
    while (((w + side - 1) / side) * ((h + side - 1) / side) > cap)
        side *= 2;
    g->bx0 = x0;
    g->by0 = y0;
    g->bside = side;
    g->bw = (int)((w + side - 1) / side);
    g->bh = (int)((h + side - 1) / side);
    size_t nb = (size_t)g->bw * (size_t)g->bh;
    g->bstart = calloc(nb + 1, sizeof(int));
    if (!g->bstart) return WF_ERR_NOMEM;
    int64_t total = 0;
    for (int s = 0; s < ns; s++) {
        int i0, j0, i1, j1;
        bucket_range(g, &g->sec[s], &i0, &j0, &i1, &j1);
        for (int j = j0; j <= j1; j++)
            for (int i = i0; i <= i1; i++)
                g->bstart[(size_t)j * g->bw + i + 1]++;
        total += (int64_t)(i1 - i0 + 1) * (j1 - j0 + 1);
        if (total > INT32_MAX / 2) return WF_ERR_NOMEM;
    }
    for (size_t b = 0; b < nb; b++)
        g->bstart[b + 1] += g->bstart[b];
    g->bsec = malloc(sizeof(int) * (size_t)(total > 0 ? total : 1));
    int *fill = malloc(sizeof(int) * nb);
    if (!g->bsec || !fill) {
        free(fill);
        return WF_ERR_NOMEM;
    }
    memcpy(fill, g->bstart, sizeof(int) * nb);
    for (int s = 0; s < ns; s++) {
        int i0, j0, i1, j1;
        bucket_range(g, &g->sec[s], &i0, &j0, &i1, &j1);
        for (int j = j0; j <= j1; j++)
            for (int i = i0; i <= i1; i++)
                g->bsec[fill[(size_t)j * g->bw + i]++] = s;
    }
    free(fill);
    return WF_OK;
}

/* The first overlapping pair (j < i, smallest i, then bucket order). */
static int find_overlap(const wf_graph *g, int *oi, int *oj)
{
    for (int s = 0; s < g->ns; s++) {
        const wf_graph_sector *a = &g->sec[s];
        int i0, j0, i1, j1;
        bucket_range(g, a, &i0, &j0, &i1, &j1);
        int best = -1;
        for (int j = j0; j <= j1; j++)
            for (int i = i0; i <= i1; i++) {
                size_t b = (size_t)j * g->bw + i;
                for (int k = g->bstart[b]; k < g->bstart[b + 1]; k++) {
                    int t = g->bsec[k];
                    if (t >= s) break;          /* ascending in each bucket */
                    const wf_graph_sector *c = &g->sec[t];
                    if (a->x0 < c->x1 && c->x0 < a->x1 && a->y0 < c->y1 &&
                        c->y0 < a->y1 && (best < 0 || t < best))
                        best = t;
                }
            }
        if (best >= 0) {
            *oi = best;
            *oj = s;
            return 1;
        }
    }
    return 0;
}

static wf_status build_adjacency(wf_graph *g)
{
    g->adj_start = calloc((size_t)g->ns + 1, sizeof(int));
    g->adj = malloc(sizeof(int) * (size_t)(2 * g->np + 1));
    if (!g->adj_start || !g->adj) return WF_ERR_NOMEM;
    for (int p = 0; p < g->np; p++) {
        g->adj_start[g->por[p].a + 1]++;
        if (g->por[p].b != g->por[p].a) g->adj_start[g->por[p].b + 1]++;
    }
    for (int s = 0; s < g->ns; s++)
        g->adj_start[s + 1] += g->adj_start[s];
    int *fill = malloc(sizeof(int) * ((size_t)g->ns + 1));
    if (!fill) return WF_ERR_NOMEM;
    memcpy(fill, g->adj_start, sizeof(int) * ((size_t)g->ns + 1));
    for (int p = 0; p < g->np; p++) {
        g->adj[fill[g->por[p].a]++] = p;
        if (g->por[p].b != g->por[p].a) g->adj[fill[g->por[p].b]++] = p;
    }
    free(fill);
    return WF_OK;
}

void wf_graph_destroy(wf_graph *g)
{
    if (!g) return;
    free(g->sec);
    free(g->por);
    free(g->anchor);
    free(g->adj_start);
    free(g->adj);
    free(g->links);
    free(g->bstart);
    free(g->bsec);
    free(g);
}

wf_status wf_graph_create(wf_graph **out, const wf_graph_sector *sectors,
                          int nsectors, const wf_graph_portal *portals,
                          int nportals, wf_graph_error *err)
{
    if (err) {
        err->fault = WF_GF_NONE;
        err->i = err->j = -1;
    }
    if (!out || nsectors < 0 || nsectors > WF_GRAPH_MAX_SECTORS || nportals < 0 ||
        nportals > WF_GRAPH_MAX_PORTALS || (nsectors && !sectors) ||
        (nportals && !portals))
        return WF_ERR_ARG;
    *out = NULL;
    wf_status st = check_items(sectors, nsectors, portals, nportals, err);
    if (st != WF_OK) return st;
    wf_graph *g = calloc(1, sizeof *g);
    if (!g) return WF_ERR_NOMEM;
    g->ns = nsectors;
    g->np = nportals;
    g->version = 1;
    g->sec = malloc(sizeof *g->sec * (size_t)(nsectors ? nsectors : 1));
    g->por = malloc(sizeof *g->por * (size_t)(nportals ? nportals : 1));
    g->anchor = malloc(sizeof(wf_fix) * 4 * (size_t)(nportals ? nportals : 1));
    if (!g->sec || !g->por || !g->anchor) {
        wf_graph_destroy(g);
        return WF_ERR_NOMEM;
    }
    if (nsectors) memcpy(g->sec, sectors, sizeof *g->sec * (size_t)nsectors);
    if (nportals) memcpy(g->por, portals, sizeof *g->por * (size_t)nportals);
    for (int p = 0; p < nportals; p++) {
        const wf_graph_portal *q = &g->por[p];
        g->anchor[4 * p] = mid(q->ax0, q->ax1);
        g->anchor[4 * p + 1] = mid(q->ay0, q->ay1);
        g->anchor[4 * p + 2] = mid(q->bx0, q->bx1);
        g->anchor[4 * p + 3] = mid(q->by0, q->by1);
    }
    g->links = malloc(sizeof(int) * (size_t)(nportals ? nportals : 1));
    if (!g->links) {
        wf_graph_destroy(g);
        return WF_ERR_NOMEM;
    }
    for (int p = 0; p < nportals; p++)
        if (!(g->por[p].flags & WF_PORTAL_WALK)) g->links[g->nlinks++] = p;
    if ((st = build_buckets(g)) != WF_OK || (st = build_adjacency(g)) != WF_OK) {
        wf_graph_destroy(g);
        return st;
    }
    int oi, oj;
    if (find_overlap(g, &oi, &oj)) {
        wf_graph_destroy(g);
        return fail(err, WF_GF_OVERLAP, oi, oj);
    }
    *out = g;
    return WF_OK;
}

int wf_graph_sector_count(const wf_graph *g) { return g->ns; }
int wf_graph_portal_count(const wf_graph *g) { return g->np; }
uint64_t wf_graph_version(const wf_graph *g) { return g->version; }

size_t wf_graph_memory(const wf_graph *g)
{
    size_t nb = (size_t)g->bw * (size_t)g->bh;
    return sizeof *g + sizeof *g->sec * (size_t)g->ns +
           (sizeof *g->por + 4 * sizeof(wf_fix) + 3 * sizeof(int)) * (size_t)g->np +
           sizeof(int) * ((size_t)g->ns + 1) + sizeof(int) * (nb + 1) +
           sizeof(int) * (size_t)g->bstart[nb];
}

int wf_graph_locate(const wf_graph *g, wf_fix x, wf_fix y)
{
    if (g->ns == 0) return -1;
    int64_t dx = (int64_t)x - g->bx0, dy = (int64_t)y - g->by0;
    if (dx < 0 || dy < 0) return -1;
    int64_t i = dx / g->bside, j = dy / g->bside;
    if (i >= g->bw || j >= g->bh) return -1;
    size_t b = (size_t)j * g->bw + (size_t)i;
    for (int k = g->bstart[b]; k < g->bstart[b + 1]; k++) {
        const wf_graph_sector *s = &g->sec[g->bsec[k]];
        if (x >= s->x0 && x < s->x1 && y >= s->y0 && y < s->y1)
            return g->bsec[k];
    }
    return -1;
}

wf_status wf_graph_set_danger(wf_graph *g, int s, int64_t danger)
{
    if (!g || s < 0 || s >= g->ns || danger < 0 || danger > WF_GRAPH_MAX_COST)
        return WF_ERR_ARG;
    g->sec[s].danger = danger;
    g->version++;
    return WF_OK;
}

wf_status wf_graph_patch(wf_graph **out, const wf_graph *old, const int *drop_sec,
                         int ndrop_sec, const wf_graph_sector *add_sec, int nadd_sec,
                         const int *drop_por, int ndrop_por, const int *moved,
                         int nmoved, const wf_graph_portal *add_por, int nadd_por,
                         wf_graph_error *err)
{
    if (err) {
        err->fault = WF_GF_NONE;
        err->i = err->j = -1;
    }
    if (!out || !old || ndrop_sec < 0 || nadd_sec < 0 || ndrop_por < 0 || nmoved < 0 ||
        nadd_por < 0 || (ndrop_sec && !drop_sec) || (nadd_sec && !add_sec) ||
        (ndrop_por && !drop_por) || (nmoved && !moved) || (nadd_por && !add_por) ||
        nadd_sec > WF_GRAPH_MAX_SECTORS || nadd_por > WF_GRAPH_MAX_PORTALS)
        return WF_ERR_ARG;
    *out = NULL;
    int ons = old->ns, onp = old->np;
    /* map[s]: the new index of old sector s, -1 when dropped; pmap[p]: 0
     * for a dropped portal, else 1 + its new index */
    int *map = malloc(sizeof(int) * (size_t)(ons ? ons : 1));
    int *pmap = malloc(sizeof(int) * (size_t)(onp ? onp : 1));
    wf_graph_sector *sec = NULL;
    wf_graph_portal *por = NULL;
    wf_status st = WF_ERR_NOMEM;
    if (!map || !pmap) goto done;
    st = WF_ERR_ARG;
    for (int s = 0; s < ons; s++) map[s] = 0;
    for (int k = 0; k < ndrop_sec; k++) {
        if (drop_sec[k] < 0 || drop_sec[k] >= ons || map[drop_sec[k]] < 0) goto done;
        map[drop_sec[k]] = -1;
    }
    int ns = 0;
    for (int s = 0; s < ons; s++)
        map[s] = map[s] == 0 ? ns++ : -1;
    for (int p = 0; p < onp; p++) pmap[p] = 1;
    for (int k = 0; k < ndrop_por; k++) {
        if (drop_por[k] < 0 || drop_por[k] >= onp || !pmap[drop_por[k]]) goto done;
        pmap[drop_por[k]] = 0;
    }
    int np = onp - ndrop_por;
    if ((int64_t)ns + nadd_sec > WF_GRAPH_MAX_SECTORS ||
        (int64_t)np + nadd_por > WF_GRAPH_MAX_PORTALS)
        goto done;
    st = WF_ERR_NOMEM;
    sec = malloc(sizeof *sec * (size_t)(ns + nadd_sec ? ns + nadd_sec : 1));
    por = malloc(sizeof *por * (size_t)(np + nadd_por ? np + nadd_por : 1));
    if (!sec || !por) goto done;
    for (int s = 0; s < ons; s++)
        if (map[s] >= 0) sec[map[s]] = old->sec[s];
    if (nadd_sec) memcpy(sec + ns, add_sec, sizeof *sec * (size_t)nadd_sec);
    /* kept portals follow their sectors; one whose sector was dropped must
     * be dropped or moved, or wf_graph_create refuses it */
    int q = 0;
    for (int p = 0; p < onp; p++) {
        if (!pmap[p]) continue;
        por[q] = old->por[p];
        por[q].a = map[old->por[p].a];
        por[q].b = map[old->por[p].b];
        pmap[p] = ++q;
    }
    st = WF_ERR_ARG;
    for (int k = 0; k < nmoved; k++) {
        int p = moved[3 * k];
        if (p < 0 || p >= onp || !pmap[p]) goto done;
        por[pmap[p] - 1].a = moved[3 * k + 1];
        por[pmap[p] - 1].b = moved[3 * k + 2];
    }
    if (nadd_por) memcpy(por + np, add_por, sizeof *por * (size_t)nadd_por);
    st = wf_graph_create(out, sec, ns + nadd_sec, por, np + nadd_por, err);
done:
    free(map);
    free(pmap);
    free(sec);
    free(por);
    return st;
}
