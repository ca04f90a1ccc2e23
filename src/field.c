/* field.c - shared-goal distance fields: one Dijkstra search from every
 * navcell of a goal over its whole component, keeping for each navcell the
 * step towards its parent; any agent then reads an optimal path by walking
 * the steps, without a search of its own. */
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

#define STEP_GOAL 9   /* dir code of a goal navcell; 1..8 are steps */

/* Dijkstra with a bucket queue: every step costs at least one orthogonal
 * step on the cheapest ground, so with buckets no wider than that step
 * (the largest power of two below it: a shift, not a division) a
 * navcell's distance is final once its bucket comes up, whatever the
 * order inside a bucket (its predecessor lies at least one bucket width
 * closer, in an earlier bucket). Every queue operation is O(1). Buckets
 * are circular: a step never spans more than NBUCKETS - 1 of them. Bucket
 * lists are threaded through the search scratch (hpos = next, pad = prev).
 *
 * On grids whose costs are all 1 a settled navcell offers only its
 * canonical successors, the ones jump point search keeps (see jps.c): the
 * straight and diagonal continuations of the step that reached it plus
 * the forced neighbours. Every navcell still gets its optimal distance
 * (jump point search relies on the same pruning), with a third of the
 * relaxations. */
#define NBUCKETS 1024  /* > 2 * 255 * 2 * diagonal / (2 * orthogonal) + 1 */

struct wf_field {
    size_t ncells;
    int w, h, cls;
    uint8_t *dir;       /* 0 unsettled, 1..8 direction index + 1, STEP_GOAL */
    uint64_t version;   /* grid version the field was computed on */
    int state;          /* 0 empty, 1 running, 2 complete */
    /* the computation in progress */
    wf_search *s;
    const wf_grid *g;
    const uint64_t *plane;
    int words;
    int shift;          /* bucket width is 2^shift cost units */
    int canonical;      /* uniform costs: canonical successors only */
    uint32_t head[NBUCKETS];
    int64_t cur;        /* bucket number (not wrapped) being drained */
    size_t queued;
    uint64_t expanded;
};

wf_status wf_field_create(wf_field **out, const wf_grid *g)
{
    *out = NULL;
    wf_field *f = calloc(1, sizeof *f);
    if (!f)
        return WF_ERR_NOMEM;
    f->ncells = (size_t)g->w * (size_t)g->h;
    f->dir = calloc(f->ncells, 1);
    if (!f->dir) {
        free(f);
        return WF_ERR_NOMEM;
    }
    *out = f;
    return WF_OK;
}

void wf_field_destroy(wf_field *f)
{
    if (!f)
        return;
    free(f->dir);
    free(f);
}

size_t wf_field_memory(const wf_field *f)
{
    return sizeof *f + f->ncells;
}

int wf_field_ready(const wf_field *f, uint64_t version)
{
    return f->state == 2 && f->version == version;
}

static int pass(const wf_field *f, int x, int y)
{
    return wf_bit(f->plane + (size_t)(y + 1) * (size_t)f->words, x);
}

static void bucket_remove(wf_field *f, uint32_t v)
{
    wf_node *nodes = f->s->nodes;
    wf_node *n = &nodes[v];
    uint32_t next = (uint32_t)n->hpos, prev = n->xy;
    if (prev != UINT32_MAX)
        nodes[prev].hpos = (int32_t)next;
    else
        f->head[(n->g >> f->shift) & (NBUCKETS - 1)] = next;
    if (next != UINT32_MAX)
        nodes[next].xy = prev;
    f->queued--;
}

static void bucket_push(wf_field *f, uint32_t v)
{
    wf_node *nodes = f->s->nodes;
    uint32_t *h = &f->head[(nodes[v].g >> f->shift) & (NBUCKETS - 1)];
    nodes[v].xy = UINT32_MAX;
    nodes[v].hpos = (int32_t)*h;
    if (*h != UINT32_MAX)
        nodes[*h].xy = v;
    *h = v;
    f->queued++;
}

/* Offers navcell v distance ng through parent u. */
static void relax(wf_field *f, uint32_t v, uint32_t u, int64_t ng)
{
    wf_search *s = f->s;
    wf_node *n = &s->nodes[v];
    if (n->stamp == s->gen + 1)
        return;                           /* settled */
    if (n->stamp == s->gen) {
        if (ng >= n->g)
            return;
        bucket_remove(f, v);
    }
    n->stamp = s->gen;
    n->g = ng;
    n->parent = u;
    bucket_push(f, v);
}

static int lowest_cost(const wf_grid *g)
{
    for (int c = 1; c <= WF_MAX_COST; c++)
        if (g->cost_hist[c])
            return c;
    return 1;
}

wf_status wf_field_begin(wf_field *f, wf_search *s, const wf_grid *g, int cls,
                         const wf_goal *goal)
{
    f->state = 0;
    if (cls < 0 || cls >= g->nclasses)
        return WF_ERR_ARG;
    if ((size_t)g->w * (size_t)g->h > f->ncells
        || (size_t)g->w * (size_t)g->h > s->ncells)
        return WF_ERR_ARG;
    if ((goal->type == WF_GOAL_CIRCLE && goal->r < 0)
        || (goal->type == WF_GOAL_SQUARE && (goal->hw < 0 || goal->hh < 0)))
        return WF_ERR_ARG;
    int x0, y0, x1, y1;
    wf_goal_bounds(goal, &x0, &y0, &x1, &y1);
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > g->w - 1) x1 = g->w - 1;
    if (y1 > g->h - 1) y1 = g->h - 1;
    if (x0 > x1 || y0 > y1)
        return WF_GOAL_OUTSIDE;
    wf_search_cancel(s);
    wf_search_new_generation(s);
    memset(f->dir, 0, f->ncells);
    f->s = s;
    f->g = g;
    f->w = g->w;
    f->h = g->h;
    f->cls = cls;
    f->plane = g->pass + (size_t)cls * g->plane_words;
    f->words = g->words;
    int64_t minstep = 2 * WF_COST_SCALE * lowest_cost(g);
    f->shift = 0;
    while (((int64_t)2 << f->shift) <= minstep)
        f->shift++;
    f->canonical = g->cost == NULL || wf_grid_uniform_cost(g);
    for (int i = 0; i < NBUCKETS; i++)
        f->head[i] = UINT32_MAX;
    f->cur = 0;
    f->queued = 0;
    f->expanded = 0;
    /* goal navcells in row-major order, so the order is fixed */
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            if (pass(f, x, y) && (goal->type == WF_GOAL_POINT
                                  || wf_goal_contains(goal, x, y))) {
                uint32_t v = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
                relax(f, v, v, 0);
            }
    f->version = g->version;
    f->state = 1;
    return WF_OK;
}

/* One step (dx, dy) from settled u at (x, y) with distance gu, cost 1. */
static void step(wf_field *f, uint32_t u, int x, int y, int dx, int dy,
                 int64_t gu)
{
    int nx = x + dx, ny = y + dy;
    if (!pass(f, nx, ny))
        return;
    int64_t c = 2 * WF_COST_SCALE;
    if (dx && dy) {
        if (!pass(f, nx, y) || !pass(f, x, ny))
            return;
        c = 2 * WF_COST_DIAG;
    }
    relax(f, (uint32_t)ny * (uint32_t)f->w + (uint32_t)nx, u, gu + c);
}

/* The canonical successors of u reached by step (dx, dy). */
static void expand_canonical(wf_field *f, uint32_t u, int x, int y, int dx,
                             int dy, int64_t gu)
{
    if (dx && dy) {
        step(f, u, x, y, dx, 0, gu);
        step(f, u, x, y, 0, dy, gu);
        step(f, u, x, y, dx, dy, gu);
    } else if (dx) {
        step(f, u, x, y, dx, 0, gu);
        for (int s = -1; s <= 1; s += 2)
            if (pass(f, x, y + s) && !pass(f, x - dx, y + s)) {
                step(f, u, x, y, 0, s, gu);
                step(f, u, x, y, dx, s, gu);
            }
    } else {
        step(f, u, x, y, 0, dy, gu);
        for (int s = -1; s <= 1; s += 2)
            if (pass(f, x + s, y) && !pass(f, x + s, y - dy)) {
                step(f, u, x, y, s, 0, gu);
                step(f, u, x, y, s, dy, gu);
            }
    }
}

/* dir code of the step from a navcell to a neighbour: [dy + 1][dx + 1]. */
static const uint8_t STEP_CODE[3][3] = {{8, 4, 7}, {2, 0, 1}, {6, 3, 5}};

wf_status wf_field_step(wf_field *f, uint64_t budget, uint64_t *used,
                        int *finished)
{
    *used = 0;
    *finished = f->state == 2;
    if (f->state != 1)
        return f->state == 2 ? WF_OK : WF_ERR_ARG;
    wf_search *s = f->s;
    const uint8_t *cost = f->g->cost;
    uint32_t w = (uint32_t)f->w;
    uint64_t done = 0;
    while (f->queued > 0 && done < budget) {
        uint32_t *hd = &f->head[f->cur & (NBUCKETS - 1)];
        if (*hd == UINT32_MAX) {
            f->cur++;
            continue;
        }
        uint32_t u = *hd;
        bucket_remove(f, u);
        wf_node *n = &s->nodes[u];
        n->stamp = s->gen + 1;
        done++;
        int x = (int)(u % w), y = (int)(u / w);
        uint32_t p = n->parent;
        f->dir[u] = p == u ? STEP_GOAL
                           : STEP_CODE[(int)(p / w) - y + 1][(int)(p % w) - x + 1];
        int64_t gu = n->g;
        if (f->canonical && p != u) {
            expand_canonical(f, u, x, y, (x > (int)(p % w)) - (x < (int)(p % w)),
                             (y > (int)(p / w)) - (y < (int)(p / w)), gu);
            continue;
        }
        int cu = cost ? cost[u] : 1;
        for (int d = 0; d < 8; d++) {
            int nx = x + wf_dir_dx[d], ny = y + wf_dir_dy[d];
            if (!pass(f, nx, ny))
                continue;
            int64_t base = WF_COST_SCALE;
            if (d >= 4) {
                if (!pass(f, nx, y) || !pass(f, x, ny))
                    continue;
                base = WF_COST_DIAG;
            }
            uint32_t v = (uint32_t)ny * w + (uint32_t)nx;
            int cv = cost ? cost[v] : 1;
            relax(f, v, u, gu + base * (cu + cv));
        }
    }
    f->expanded += done;
    *used = done;
    if (f->queued == 0) {
        f->state = 2;
        *finished = 1;
    }
    return WF_OK;
}

wf_status wf_field_path(const wf_field *f, wf_search *s, const wf_grid *g,
                        int sx, int sy, int smooth, wf_path *out)
{
    memset(out, 0, sizeof *out);
    out->algorithm = WF_ALGO_AUTO;
    if (f->state != 2 || g->w != f->w || g->h != f->h)
        return WF_ERR_ARG;
    if (sx < 0 || sy < 0 || sx >= g->w || sy >= g->h)
        return WF_START_OUTSIDE;
    uint32_t w = (uint32_t)g->w;
    uint32_t u = (uint32_t)sy * w + (uint32_t)sx;
    if (!f->dir[u])
        return WF_NO_PATH;
    /* count the steps first so the chain is reserved once */
    size_t steps = 0;
    for (uint32_t v = u; f->dir[v] != STEP_GOAL; steps++) {
        if (steps > f->ncells)
            return WF_ERR_ARG;          /* cannot happen on a sound field */
        int d = f->dir[v] - 1;
        v = (uint32_t)((int)v + wf_dir_dy[d] * (int)w + wf_dir_dx[d]);
    }
    wf_status st = wf_chain_reserve(s, steps + 1);
    if (st != WF_OK)
        return st;
    const uint8_t *cost = g->cost;
    int64_t total = 0;
    size_t n = 0;
    s->chain[n++] = u;
    int last = -1;
    for (uint32_t v = u; f->dir[v] != STEP_GOAL;) {
        int d = f->dir[v] - 1;
        uint32_t nv = (uint32_t)((int)v + wf_dir_dy[d] * (int)w + wf_dir_dx[d]);
        int64_t base = d >= 4 ? WF_COST_DIAG : WF_COST_SCALE;
        total += base * ((cost ? cost[v] : 1) + (cost ? cost[nv] : 1));
        /* keep the navcell where the direction changes */
        if (last >= 0 && d != last)
            s->chain[n++] = v;
        last = d;
        v = nv;
        if (f->dir[v] == STEP_GOAL)
            s->chain[n++] = v;
    }
    int m;
    st = wf_emit_path(s, g, f->cls, n, smooth, &m);
    if (st != WF_OK)
        return st;
    out->n = m;
    out->x = s->px;
    out->y = s->py;
    out->cost = total;
    return WF_OK;
}
