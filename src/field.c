/* field.c - shared-goal distance fields: one Dijkstra search from every
 * navcell of a goal over its whole component, keeping for each navcell the
 * step towards its parent; any agent then reads an optimal path by walking
 * the steps, without a search of its own. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define STEP_GOAL 9   /* dir code of a goal navcell; 1..8 are steps */

struct wf_field {
    size_t ncells;
    int w, h, cls;
    uint8_t *dir;       /* 0 unsettled, 1..8 direction index + 1, STEP_GOAL */
    uint64_t version;   /* grid version the field was computed on */
    int state;          /* 0 empty, 1 running, 2 complete */
    wf_run r;
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
    wf_run *r = &f->r;
    memset(r, 0, sizeof *r);
    r->s = s;
    r->g = g;
    r->cls = cls;
    r->w = g->w;
    r->h = g->h;
    r->words = g->words;
    r->plane = g->pass + (size_t)cls * g->plane_words;
    r->goal = *goal;
    r->hscale = 0;                  /* no heuristic: Dijkstra */
    r->limit = UINT64_MAX;
    r->best = UINT32_MAX;
    wf_goal_bounds(goal, &r->gx0, &r->gy0, &r->gx1, &r->gy1);
    if (r->gx0 < 0) r->gx0 = 0;
    if (r->gy0 < 0) r->gy0 = 0;
    if (r->gx1 > g->w - 1) r->gx1 = g->w - 1;
    if (r->gy1 > g->h - 1) r->gy1 = g->h - 1;
    if (r->gx0 > r->gx1 || r->gy0 > r->gy1)
        return WF_GOAL_OUTSIDE;
    wf_search_cancel(s);
    wf_search_new_generation(s);
    memset(f->dir, 0, f->ncells);
    f->w = g->w;
    f->h = g->h;
    f->cls = cls;
    for (int y = r->gy0; y <= r->gy1; y++)
        for (int x = r->gx0; x <= r->gx1; x++)
            if (wf_run_pass(r, x, y) && wf_run_in_goal(r, x, y)) {
                uint32_t v = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
                wf_relax(r, v, v, 0);
            }
    f->version = g->version;
    f->state = 1;
    return WF_OK;
}

/* dir code of the step from a navcell to a neighbour (dx, dy). */
static uint8_t step_code(int dx, int dy)
{
    for (int d = 0; d < 8; d++)
        if (wf_dir_dx[d] == dx && wf_dir_dy[d] == dy)
            return (uint8_t)(d + 1);
    return 0;
}

wf_status wf_field_step(wf_field *f, uint64_t budget, uint64_t *used,
                        int *finished)
{
    *used = 0;
    *finished = f->state == 2;
    if (f->state != 1)
        return f->state == 2 ? WF_OK : WF_ERR_ARG;
    wf_run *r = &f->r;
    const uint8_t *cost = r->g->cost;
    uint64_t before = r->expanded;
    r->limit = budget > UINT64_MAX - before ? UINT64_MAX : before + budget;
    r->stopped = 0;
    uint32_t u, w = (uint32_t)r->w;
    while (wf_pop(r, &u)) {
        int x = (int)(u % w), y = (int)(u / w);
        uint32_t p = r->s->nodes[u].parent;
        f->dir[u] = p == u ? STEP_GOAL
                           : step_code((int)(p % w) - x, (int)(p / w) - y);
        int64_t gu = r->s->nodes[u].g;
        int cu = cost ? cost[u] : 1;
        for (int d = 0; d < 8; d++) {
            int nx = x + wf_dir_dx[d], ny = y + wf_dir_dy[d];
            if (!wf_run_pass(r, nx, ny))
                continue;
            int64_t base = WF_COST_SCALE;
            if (d >= 4) {
                if (!wf_run_pass(r, nx, y) || !wf_run_pass(r, x, ny))
                    continue;
                base = WF_COST_DIAG;
            }
            uint32_t v = (uint32_t)ny * w + (uint32_t)nx;
            int cv = cost ? cost[v] : 1;
            wf_relax(r, v, u, gu + base * (cu + cv));
        }
    }
    *used = r->expanded - before;
    if (!r->stopped) {
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
