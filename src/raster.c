/* raster.c - static obstructions: rotated rectangles kept by id and
 * rasterized onto the navcell grid per class. A navcell is blocked when all
 * four of its corners are inside the shape or within the effective
 * clearance of it; distances are exact in Q16.16. */
#include <stdlib.h>
#include <string.h>

#include "grid_internal.h"

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

void wf_shape_init(wf_shape *s, wf_fix cx, wf_fix cy, wf_fix hw, wf_fix hh,
                   wf_fix ux, wf_fix uy)
{
    s->cx = cx;
    s->cy = cy;
    s->hw = hw;
    s->hh = hh;
    s->ux = ux;
    s->uy = uy;
    s->vx = -uy;
    s->vy = ux;
}

/* Narrow shapes get a clearance of at least (3 - min(w, h)) / 2 so that no
 * rotation lets a unit walk through them. */
wf_fix wf_effective_clearance(const wf_shape *s, int clearance)
{
    int64_t c = (int64_t)clearance * WF_FIX_ONE;
    int64_t m = s->hw < s->hh ? s->hw : s->hh;
    int64_t narrow = (3 * (int64_t)WF_FIX_ONE - 2 * m) / 2;
    return (wf_fix)(narrow > c ? narrow : c);
}

/* Floor division of a Q16.16 value to whole navcells. */
static int fix_floor(int64_t v)
{
    return (int)(v >= 0 ? v / WF_FIX_ONE : -((-v + WF_FIX_ONE - 1) / WF_FIX_ONE));
}

void wf_shape_box(const wf_shape *s, wf_fix extra, int *x0, int *y0, int *x1,
                  int *y1)
{
    int64_t ex = (abs64((int64_t)s->hw * s->ux) + abs64((int64_t)s->hh * s->vx))
                 / WF_FIX_ONE + extra + 1;
    int64_t ey = (abs64((int64_t)s->hw * s->uy) + abs64((int64_t)s->hh * s->vy))
                 / WF_FIX_ONE + extra + 1;
    *x0 = fix_floor((int64_t)s->cx - ex);
    *x1 = fix_floor((int64_t)s->cx + ex);
    *y0 = fix_floor((int64_t)s->cy - ey);
    *y1 = fix_floor((int64_t)s->cy + ey);
}

/* 1 when world point (px, py), whole numbers, lies inside the shape or
 * within ce (Q16.16) of it. */
static int corner_near(const wf_shape *s, int64_t ce, int px, int py)
{
    int64_t dx = (int64_t)px * WF_FIX_ONE - s->cx;
    int64_t dy = (int64_t)py * WF_FIX_ONE - s->cy;
    int64_t du = abs64(dx * s->ux + dy * s->uy);     /* Q32.32 */
    int64_t dv = abs64(dx * s->vx + dy * s->vy);
    int64_t au = du - (int64_t)s->hw * WF_FIX_ONE;
    int64_t av = dv - (int64_t)s->hh * WF_FIX_ONE;
    au = au > 0 ? au / WF_FIX_ONE : 0;              /* back to Q16.16 */
    av = av > 0 ? av / WF_FIX_ONE : 0;
    if (au > ce || av > ce)
        return 0;
    return au * au + av * av <= ce * ce;
}

wf_status wf_rasterize(const wf_shape *s, int clearance, uint8_t *blk,
                       int rx0, int ry0, int rx1, int ry1)
{
    int64_t ce = wf_effective_clearance(s, clearance);
    int x0, y0, x1, y1;
    wf_shape_box(s, (wf_fix)ce, &x0, &y0, &x1, &y1);
    if (x0 < rx0) x0 = rx0;
    if (y0 < ry0) y0 = ry0;
    if (x1 > rx1) x1 = rx1;
    if (y1 > ry1) y1 = ry1;
    if (x0 > x1 || y0 > y1)
        return WF_OK;
    int n = x1 - x0 + 2;          /* corners per lattice row */
    uint8_t *buf = malloc((size_t)n * 2);
    if (!buf)
        return WF_ERR_NOMEM;
    uint8_t *top = buf, *bot = buf + n;
    int rw = rx1 - rx0 + 1;
    for (int i = 0; i < n; i++)
        top[i] = (uint8_t)corner_near(s, ce, x0 + i, y0);
    for (int y = y0; y <= y1; y++) {
        for (int i = 0; i < n; i++)
            bot[i] = (uint8_t)corner_near(s, ce, x0 + i, y + 1);
        uint8_t *out = blk + (size_t)(y - ry0) * rw + (x0 - rx0);
        for (int i = 0; i < n - 1; i++)
            if (top[i] && top[i + 1] && bot[i] && bot[i + 1])
                out[i] = 1;
        uint8_t *t = top;
        top = bot;
        bot = t;
    }
    free(buf);
    return WF_OK;
}

static int shape_valid(const wf_shape *s)
{
    if (s->hw < 0 || s->hh < 0)
        return 0;
    /* u and v must be unit length within 1/256 and perpendicular */
    int64_t uu = (int64_t)s->ux * s->ux + (int64_t)s->uy * s->uy;
    int64_t vv = (int64_t)s->vx * s->vx + (int64_t)s->vy * s->vy;
    int64_t uv = (int64_t)s->ux * s->vx + (int64_t)s->uy * s->vy;
    int64_t one = (int64_t)WF_FIX_ONE * WF_FIX_ONE, tol = one / 256;
    return abs64(uu - one) <= tol && abs64(vv - one) <= tol && abs64(uv) <= tol;
}

static size_t find_obstruction(const wf_grid *g, uint32_t id, int *found)
{
    size_t lo = 0, hi = g->nobs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->obs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < g->nobs && g->obs[lo].id == id;
    return lo;
}

static void obstruction_box(const wf_grid *g, wf_obstruction *o)
{
    wf_fix ce = wf_effective_clearance(&o->shape, g->max_clearance);
    wf_shape_box(&o->shape, ce, &o->bx0, &o->by0, &o->bx1, &o->by1);
}

wf_status wf_grid_add_obstruction(wf_grid *g, const wf_shape *s, uint32_t *id)
{
    if (!shape_valid(s))
        return WF_ERR_ARG;
    if (g->next_id == 0 || g->next_id > 0x7fffffffu)
        return WF_ERR_FULL;
    if (g->nobs == g->obs_cap) {
        size_t cap = g->obs_cap ? g->obs_cap * 2 : 16;
        wf_obstruction *n = realloc(g->obs, cap * sizeof *n);
        if (!n)
            return WF_ERR_NOMEM;
        g->obs = n;
        g->obs_cap = cap;
    }
    wf_obstruction *o = &g->obs[g->nobs];
    o->id = g->next_id;
    o->shape = *s;
    obstruction_box(g, o);
    g->nobs++;
    wf_status st = wf_grid_update_region(g, o->bx0, o->by0, o->bx1, o->by1);
    if (st != WF_OK) {
        g->nobs--;
        return st;
    }
    *id = g->next_id++;
    return WF_OK;
}

wf_status wf_grid_remove_obstruction(wf_grid *g, uint32_t id)
{
    int found;
    size_t i = find_obstruction(g, id, &found);
    if (!found)
        return WF_ERR_NOTFOUND;
    wf_obstruction saved = g->obs[i];
    memmove(&g->obs[i], &g->obs[i + 1], (g->nobs - i - 1) * sizeof *g->obs);
    g->nobs--;
    wf_status st = wf_grid_update_region(g, saved.bx0, saved.by0, saved.bx1,
                                         saved.by1);
    if (st != WF_OK) {
        memmove(&g->obs[i + 1], &g->obs[i], (g->nobs - i) * sizeof *g->obs);
        g->obs[i] = saved;
        g->nobs++;
    }
    return st;
}

wf_status wf_grid_get_obstruction(const wf_grid *g, uint32_t id, wf_shape *s)
{
    int found;
    size_t i = find_obstruction(g, id, &found);
    if (!found)
        return WF_ERR_NOTFOUND;
    *s = g->obs[i].shape;
    return WF_OK;
}

size_t wf_grid_obstruction_count(const wf_grid *g)
{
    return g->nobs;
}

uint32_t wf_grid_obstruction_id(const wf_grid *g, size_t k)
{
    return k < g->nobs ? g->obs[k].id : 0;
}
