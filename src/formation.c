/* formation.c - formations: slot shapes, minimum-travel assignment by the
 * Hungarian method, and a formation walking a path, squeezing into a
 * column where its shape does not fit (see formation.h). */
#include <stdlib.h>
#include <string.h>

#include "fixmath.h"
#include "formation.h"

#define ARRIVE_EPS (WF_FIX_ONE / 16)

struct wf_formation {
    int n;
    wf_fix *x, *y, *speed;       /* members */
    wf_fix *ox, *oy;             /* the shape's offsets */
    wf_fix *sx, *sy;             /* slot positions this tick (by slot) */
    int *slot;                   /* slot of each member */
    int64_t *cost;               /* n * n scratch */
    wf_fix spacing;
    int np;
    wf_fix *px, *py;
    int64_t *pcum;               /* arc length at each path point */
    int64_t s;                   /* anchor's arc length */
    wf_fix ax, ay, ux, uy;       /* anchor, heading */
    wf_fix aspeed;
    wf_fix slack;
    int reform, clear_run, column;
    int64_t ticks;
};

static int in(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

static int64_t vlen(int64_t dx, int64_t dy)
{
    return (int64_t)wf_isqrt64((uint64_t)(dx * dx + dy * dy));
}

/* ---------------------------------------------------------- shapes -- */

wf_status wf_formation_offsets(int shape, int n, wf_fix spacing, wf_fix *ox,
                               wf_fix *oy)
{
    if (!in(shape, 0, WF_FORM_COUNT - 1) || !in(n, 1, WF_FORM_MAX_MEMBERS)
        || !in(spacing, 1, WF_FIX(64)))
        return WF_ERR_ARG;
    int64_t sp = spacing;
    int wide = 1;
    while (wide * wide < n)
        wide++;
    for (int k = 0; k < n; k++) {
        int64_t x = 0, y = 0;
        switch (shape) {
        case WF_FORM_LINE:     /* centred across: left is +y */
            y = (int64_t)(n - 1 - 2 * k) * sp / 2;
            break;
        case WF_FORM_COLUMN:
            x = -(int64_t)k * sp;
            break;
        case WF_FORM_BOX: {
            int row = k / wide, col = k % wide;
            int in_row = n - row * wide < wide ? n - row * wide : wide;
            x = -(int64_t)row * sp;
            y = (int64_t)(in_row - 1 - 2 * col) * sp / 2;
            break;
        }
        default: {             /* wedge: 0, then 1 left, 2 right, ... */
            int rank = (k + 1) / 2;
            x = -(int64_t)rank * sp;
            y = k == 0 ? 0 : (k % 2 ? 1 : -1) * (int64_t)rank * sp;
            break;
        }
        }
        ox[k] = (wf_fix)x;
        oy[k] = (wf_fix)y;
    }
    return WF_OK;
}

/* ------------------------------------------------------ assignment -- */

/* The Hungarian method with row and column potentials (shortest
 * augmenting paths, one row at a time): O(n^3), exact on integers. Ties
 * go to the lowest column index met first. */
wf_status wf_assign_min_cost(int n, const int64_t *cost, int *slot_of,
                             int64_t *total)
{
    if (!in(n, 1, WF_FORM_MAX_MEMBERS) || !cost || !slot_of)
        return WF_ERR_ARG;
    for (int k = 0; k < n * n; k++)
        if (!in(cost[k], 0, (int64_t)1 << 40))
            return WF_ERR_ARG;
    int64_t *u = calloc((size_t)n + 1, sizeof *u);
    int64_t *v = calloc((size_t)n + 1, sizeof *v);
    int64_t *minv = calloc((size_t)n + 1, sizeof *minv);
    int *p = calloc((size_t)n + 1, sizeof *p);
    int *way = calloc((size_t)n + 1, sizeof *way);
    char *used = calloc((size_t)n + 1, 1);
    if (!u || !v || !minv || !p || !way || !used) {
        free(u); free(v); free(minv); free(p); free(way); free(used);
        return WF_ERR_NOMEM;
    }
    const int64_t INF = (int64_t)1 << 60;
    for (int i = 1; i <= n; i++) {
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= n; j++) {
            minv[j] = INF;
            used[j] = 0;
        }
        do {
            used[j0] = 1;
            int i0 = p[j0], j1 = 0;
            int64_t delta = INF;
            for (int j = 1; j <= n; j++) {
                if (used[j])
                    continue;
                int64_t cur = cost[(i0 - 1) * n + (j - 1)] - u[i0] - v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= n; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    int64_t sum = 0;
    for (int j = 1; j <= n; j++) {
        slot_of[p[j] - 1] = j - 1;
        sum += cost[(p[j] - 1) * n + (j - 1)];
    }
    if (total)
        *total = sum;
    free(u); free(v); free(minv); free(p); free(way); free(used);
    return WF_OK;
}

wf_status wf_assign_points(int n, const wf_fix *mx, const wf_fix *my,
                           const wf_fix *sx, const wf_fix *sy, int *slot_of,
                           int64_t *total)
{
    if (!in(n, 1, WF_FORM_MAX_MEMBERS))
        return WF_ERR_ARG;
    const int64_t lim = WF_FIX(8192);
    for (int k = 0; k < n; k++)
        if (!in(mx[k], -lim, lim) || !in(my[k], -lim, lim)
            || !in(sx[k], -lim, lim) || !in(sy[k], -lim, lim))
            return WF_ERR_ARG;
    int64_t *cost = malloc((size_t)n * (size_t)n * sizeof *cost);
    if (!cost)
        return WF_ERR_NOMEM;
    for (int m = 0; m < n; m++)
        for (int k = 0; k < n; k++)
            cost[m * n + k] = vlen((int64_t)sx[k] - mx[m],
                                   (int64_t)sy[k] - my[m]);
    wf_status st = wf_assign_min_cost(n, cost, slot_of, total);
    free(cost);
    return st;
}

/* ------------------------------------------------------ formation -- */

void wf_formation_destroy(wf_formation *f)
{
    if (!f)
        return;
    free(f->x); free(f->y); free(f->speed); free(f->ox); free(f->oy);
    free(f->sx); free(f->sy); free(f->slot); free(f->cost);
    free(f->px); free(f->py); free(f->pcum);
    free(f);
}

/* The path point at arc length s (clamped to the path), and the unit
 * heading of the segment holding it (the last non-empty one before). */
static void path_at(const wf_formation *f, int64_t s, wf_fix *x, wf_fix *y,
                    wf_fix *ux, wf_fix *uy)
{
    int last = f->np - 1;
    /* s <= pcum[last]: a one-point path has s <= 0 */
    if (s <= 0) {
        *x = f->px[0];
        *y = f->py[0];
        s = 0;
    }
    int k = 0;
    while (k < last - 1 && f->pcum[k + 1] <= s)
        k++;
    if (last > 0) {
        /* 0 <= t <= seg: k stops below last - 1 only where s < pcum[k + 1] */
        int64_t seg = f->pcum[k + 1] - f->pcum[k];
        int64_t t = s - f->pcum[k];
        int64_t dx = (int64_t)f->px[k + 1] - f->px[k];
        int64_t dy = (int64_t)f->py[k + 1] - f->py[k];
        if (seg > 0) {
            *x = (wf_fix)(f->px[k] + dx * t / seg);
            *y = (wf_fix)(f->py[k] + dy * t / seg);
        } else {
            *x = f->px[k];
            *y = f->py[k];
        }
    }
    if (ux) {
        /* heading: the segment holding s, else the nearest non-empty one */
        int j = k;
        while (j > 0 && f->pcum[j + 1] == f->pcum[j])
            j--;
        if (last == 0 || f->pcum[j + 1] == f->pcum[j]) {
            *ux = WF_FIX_ONE;
            *uy = 0;
            return;
        }
        int64_t dx = (int64_t)f->px[j + 1] - f->px[j];
        int64_t dy = (int64_t)f->py[j + 1] - f->py[j];
        int64_t d = vlen(dx, dy);
        *ux = (wf_fix)(dx * WF_FIX_ONE / d);
        *uy = (wf_fix)(dy * WF_FIX_ONE / d);
    }
}

/* Slot positions of the current mode into sx, sy. */
static void slots_of_mode(const wf_formation *f, int column, wf_fix *sx,
                          wf_fix *sy)
{
    for (int k = 0; k < f->n; k++) {
        if (column) {
            path_at(f, f->s - (int64_t)k * f->spacing, &sx[k], &sy[k], NULL,
                    NULL);
        } else {
            int64_t ox = f->ox[k], oy = f->oy[k];
            sx[k] = (wf_fix)(f->ax + (ox * f->ux - oy * f->uy) / WF_FIX_ONE);
            sy[k] = (wf_fix)(f->ay + (ox * f->uy + oy * f->ux) / WF_FIX_ONE);
        }
    }
}

static wf_status assign(wf_formation *f)
{
    int n = f->n;
    for (int m = 0; m < n; m++)
        for (int k = 0; k < n; k++)
            f->cost[m * n + k] = vlen((int64_t)f->sx[k] - f->x[m],
                                      (int64_t)f->sy[k] - f->y[m]);
    return wf_assign_min_cost(n, f->cost, f->slot, NULL);
}

wf_status wf_formation_create(wf_formation **out,
                              const wf_formation_config *c)
{
    if (!out || !c || !in(c->n, 1, WF_FORM_MAX_MEMBERS) || !c->x || !c->y
        || !c->speed || !c->ox || !c->oy || !c->px || !c->py
        || !in(c->spacing, 1, WF_FIX(64))
        || !in(c->npoints, 1, WF_FORM_MAX_POINTS)
        || !in(c->pace, 1, WF_FIX_ONE) || !in(c->slack, 1, WF_FIX(1024))
        || !in(c->reform, 1, 10000))
        return WF_ERR_ARG;
    const int64_t lim = WF_FIX(8192);
    wf_fix slowest = WF_FIX(8);
    for (int i = 0; i < c->n; i++) {
        if (!in(c->x[i], -lim, lim) || !in(c->y[i], -lim, lim)
            || !in(c->speed[i], 1, WF_FIX(8)) || !in(c->ox[i], -WF_FIX(256),
                                                      WF_FIX(256))
            || !in(c->oy[i], -WF_FIX(256), WF_FIX(256)))
            return WF_ERR_ARG;
        if (c->speed[i] < slowest)
            slowest = c->speed[i];
    }
    for (int i = 0; i < c->npoints; i++)
        if (!in(c->px[i], -lim, lim) || !in(c->py[i], -lim, lim))
            return WF_ERR_ARG;
    wf_formation *f = calloc(1, sizeof *f);
    if (!f)
        return WF_ERR_NOMEM;
    size_t n = (size_t)c->n, np = (size_t)c->npoints;
    f->n = c->n;
    f->np = c->npoints;
    f->x = malloc(n * sizeof *f->x);
    f->y = malloc(n * sizeof *f->y);
    f->speed = malloc(n * sizeof *f->speed);
    f->ox = malloc(n * sizeof *f->ox);
    f->oy = malloc(n * sizeof *f->oy);
    f->sx = malloc(n * sizeof *f->sx);
    f->sy = malloc(n * sizeof *f->sy);
    f->slot = malloc(n * sizeof *f->slot);
    f->cost = malloc(n * n * sizeof *f->cost);
    f->px = malloc(np * sizeof *f->px);
    f->py = malloc(np * sizeof *f->py);
    f->pcum = malloc(np * sizeof *f->pcum);
    if (!f->x || !f->y || !f->speed || !f->ox || !f->oy || !f->sx || !f->sy
        || !f->slot || !f->cost || !f->px || !f->py || !f->pcum) {
        wf_formation_destroy(f);
        return WF_ERR_NOMEM;
    }
    memcpy(f->x, c->x, n * sizeof *f->x);
    memcpy(f->y, c->y, n * sizeof *f->y);
    memcpy(f->speed, c->speed, n * sizeof *f->speed);
    memcpy(f->ox, c->ox, n * sizeof *f->ox);
    memcpy(f->oy, c->oy, n * sizeof *f->oy);
    memcpy(f->px, c->px, np * sizeof *f->px);
    memcpy(f->py, c->py, np * sizeof *f->py);
    f->pcum[0] = 0;
    for (size_t k = 1; k < np; k++)
        f->pcum[k] = f->pcum[k - 1]
                   + vlen((int64_t)f->px[k] - f->px[k - 1],
                          (int64_t)f->py[k] - f->py[k - 1]);
    f->spacing = c->spacing;
    f->aspeed = (wf_fix)((int64_t)slowest * c->pace / WF_FIX_ONE);
    if (f->aspeed < 1)
        f->aspeed = 1;
    f->slack = c->slack;
    f->reform = c->reform;
    f->s = 0;
    path_at(f, 0, &f->ax, &f->ay, &f->ux, &f->uy);
    slots_of_mode(f, 0, f->sx, f->sy);
    wf_status st = assign(f);
    if (st != WF_OK) {
        wf_formation_destroy(f);
        return st;
    }
    *out = f;
    return WF_OK;
}

/* Whether the shape's slots (sx, sy) are all usable: clear ground,
 * reached from the anchor without meeting a blocked navcell. */
static int shape_fits(const wf_formation *f, const wf_grid *g, int cls,
                      const wf_fix *sx, const wf_fix *sy)
{
    for (int k = 0; k < f->n; k++) {
        if (!wf_sweep_point_clear(g, cls, sx[k], sy[k]))
            return 0;
        int64_t dx = (int64_t)sx[k] - f->ax, dy = (int64_t)sy[k] - f->ay;
        if (dx > WF_SWEEP_MAX_STEP || -dx > WF_SWEEP_MAX_STEP
            || dy > WF_SWEEP_MAX_STEP || -dy > WF_SWEEP_MAX_STEP)
            return 0;
        int hit = 0;
        if (wf_sweep_grid(g, cls, f->ax, f->ay, sx[k], sy[k], &hit, NULL,
                          NULL) != WF_OK || hit)
            return 0;
    }
    return 1;
}

static int move_blocked(const wf_grid *g, int cls, wf_fix ax, wf_fix ay,
                        wf_fix bx, wf_fix by)
{
    if (ax == bx && ay == by)
        return 0;
    int hit = 0;
    return wf_sweep_grid(g, cls, ax, ay, bx, by, &hit, NULL, NULL) != WF_OK
        || hit;
}

wf_status wf_formation_step(wf_formation *f, const wf_grid *g, int cls,
                            int *arrived)
{
    int n = f->n;
    for (int i = 0; i < n; i++)
        if (!wf_sweep_point_clear(g, cls, f->x[i], f->y[i]))
            return WF_ERR_ARG;
    /* what a failed re-assignment below puts back */
    int64_t s0 = f->s;
    int run0 = f->clear_run;
    wf_fix ax0 = f->ax, ay0 = f->ay, ux0 = f->ux, uy0 = f->uy;
    /* the anchor advances unless a member lags beyond slack */
    int64_t worst = 0;
    for (int i = 0; i < n; i++) {
        int k = f->slot[i];
        int64_t d = vlen((int64_t)f->sx[k] - f->x[i],
                         (int64_t)f->sy[k] - f->y[i]);
        if (d > worst)
            worst = d;
    }
    int64_t end = f->pcum[f->np - 1];
    if (worst <= f->slack && f->s < end) {
        f->s += f->aspeed;
        if (f->s > end)
            f->s = end;
    }
    path_at(f, f->s, &f->ax, &f->ay, &f->ux, &f->uy);
    /* the mode: shape where it fits, else column; re-form after a run */
    slots_of_mode(f, 0, f->sx, f->sy);
    int fits = shape_fits(f, g, cls, f->sx, f->sy);
    for (int i = 0; fits && i < n; i++) {
        /* a member cut off from the anchor files along the path instead */
        int64_t dx = (int64_t)f->ax - f->x[i], dy = (int64_t)f->ay - f->y[i];
        if (dx > WF_SWEEP_MAX_STEP || -dx > WF_SWEEP_MAX_STEP
            || dy > WF_SWEEP_MAX_STEP || -dy > WF_SWEEP_MAX_STEP
            || move_blocked(g, cls, f->x[i], f->y[i], f->ax, f->ay))
            fits = 0;
    }
    int was = f->column;
    if (!fits) {
        f->column = 1;
        f->clear_run = 0;
    } else if (f->column && ++f->clear_run >= f->reform) {
        f->column = 0;
    }
    if (f->column)
        slots_of_mode(f, 1, f->sx, f->sy);
    if (was != f->column) {
        wf_status st = assign(f);
        if (st != WF_OK) {
            /* out of memory: the formation as it was before the step (the
             * assignment is untouched; the slots are those of the old
             * anchor and mode, computed again) */
            f->s = s0;
            f->clear_run = run0;
            f->column = was;
            f->ax = ax0;
            f->ay = ay0;
            f->ux = ux0;
            f->uy = uy0;
            slots_of_mode(f, was, f->sx, f->sy);
            return st;
        }
    }
    /* members toward their slots, each move by the swept rule */
    int all_there = f->s >= end;
    for (int i = 0; i < n; i++) {
        int k = f->slot[i];
        int64_t dx = (int64_t)f->sx[k] - f->x[i];
        int64_t dy = (int64_t)f->sy[k] - f->y[i];
        int64_t d = vlen(dx, dy);
        if (d > f->speed[i]) {
            dx = dx * f->speed[i] / d;
            dy = dy * f->speed[i] / d;
        }
        wf_fix bx = (wf_fix)(f->x[i] + dx), by = (wf_fix)(f->y[i] + dy);
        if (move_blocked(g, cls, f->x[i], f->y[i], bx, by)) {
            if (!move_blocked(g, cls, f->x[i], f->y[i], bx, f->y[i]))
                by = f->y[i];
            else if (!move_blocked(g, cls, f->x[i], f->y[i], f->x[i], by))
                bx = f->x[i];
            else {
                bx = f->x[i];
                by = f->y[i];
            }
        }
        f->x[i] = bx;
        f->y[i] = by;
        if (vlen((int64_t)f->sx[k] - bx, (int64_t)f->sy[k] - by) > ARRIVE_EPS)
            all_there = 0;
    }
    f->ticks++;
    if (arrived)
        *arrived = all_there && !f->column;
    return WF_OK;
}

int wf_formation_count(const wf_formation *f) { return f->n; }
int wf_formation_squeezed(const wf_formation *f) { return f->column; }
int64_t wf_formation_ticks(const wf_formation *f) { return f->ticks; }

wf_status wf_formation_member_get(const wf_formation *f, int i,
                                  wf_formation_member *m)
{
    if (i < 0 || i >= f->n)
        return WF_ERR_ARG;
    m->x = f->x[i];
    m->y = f->y[i];
    m->slot = f->slot[i];
    m->sx = f->sx[m->slot];
    m->sy = f->sy[m->slot];
    return WF_OK;
}

void wf_formation_anchor(const wf_formation *f, wf_fix *x, wf_fix *y,
                         wf_fix *speed)
{
    *x = f->ax;
    *y = f->ay;
    *speed = f->aspeed;
}
