/* steer.c - steering behaviours for a group of agents in Q16.16 fixed
 * point, neighbours from a bucket grid rebuilt each step, moves checked by
 * the one swept rule of sweep.c (see steer.h for the whole story). */
#include <stdlib.h>
#include <string.h>

#include "fixmath.h"
#include "steer.h"

#define TWO_PI_ANGLE ((int64_t)6908559918190LL)  /* 2 pi * 2^40, rounded */

typedef struct agent {
    wf_fix x, y, vx, vy;
    wf_fix tx, ty;
    int has_point;
    int quarry;                 /* -1: none */
    wf_fix speed;               /* own max speed, (0, cfg.max_speed] */
    int w[WF_STEER_COUNT];
    int64_t wander;             /* [angle units] in [0, 2 pi) */
    uint32_t rng;
} agent;

struct wf_steer {
    wf_steer_config cfg;
    int n;
    agent *a;
    wf_fix *ax, *ay;            /* forces of one step */
    int *order, *start, *cx, *cy;  /* bucket sort: agents by bucket */
    int nbuckets;               /* power of two >= 2 * capacity */
    int64_t ticks;
};

void wf_steer_config_default(wf_steer_config *cfg)
{
    cfg->max_speed = WF_FIX_ONE / 4;
    cfg->max_accel = WF_FIX_ONE / 16;
    cfg->slow_radius = WF_FIX(2);
    cfg->neighbour_radius = WF_FIX(2);
    cfg->separation_radius = WF_FIX(1);
    cfg->lookahead = 30;
    cfg->wander_distance = WF_FIX(2);
    cfg->wander_radius = WF_FIX(1);
    cfg->wander_jitter = WF_ANGLE_ONE / 4;
    cfg->radius = 0;
    cfg->seed = 1;
    cfg->capacity = 1024;
}

static int in(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

static int config_ok(const wf_steer_config *c)
{
    return in(c->max_speed, 1, WF_FIX(8)) && in(c->max_accel, 1, WF_FIX(8))
        && in(c->slow_radius, 1, WF_FIX(1024))
        && in(c->neighbour_radius, 1, WF_FIX(64))
        && in(c->separation_radius, 1, c->neighbour_radius)
        && in(c->lookahead, 0, WF_STEER_MAX_LOOKAHEAD)
        && in(c->wander_distance, 0, WF_FIX(64))
        && in(c->wander_radius, 0, WF_FIX(64))
        && in(c->wander_jitter, 0, 4 * WF_ANGLE_ONE)
        && in(c->radius, 0, WF_FIX(8))
        && (c->radius == 0
            || (int64_t)c->neighbour_radius
                   >= 2 * (int64_t)c->radius + 2 * (int64_t)c->max_speed)
        && in(c->capacity, 1, WF_STEER_MAX_AGENTS);
}

wf_status wf_steer_create(wf_steer **out, const wf_steer_config *cfg)
{
    if (!out || !cfg || !config_ok(cfg))
        return WF_ERR_ARG;
    wf_steer *s = calloc(1, sizeof *s);
    if (!s)
        return WF_ERR_NOMEM;
    s->cfg = *cfg;
    int cap = cfg->capacity;
    s->nbuckets = 1;
    while (s->nbuckets < 2 * cap)
        s->nbuckets *= 2;
    s->a = calloc((size_t)cap, sizeof *s->a);
    s->ax = calloc((size_t)cap, sizeof *s->ax);
    s->ay = calloc((size_t)cap, sizeof *s->ay);
    s->order = calloc((size_t)cap, sizeof *s->order);
    s->cx = calloc((size_t)cap, sizeof *s->cx);
    s->cy = calloc((size_t)cap, sizeof *s->cy);
    s->start = calloc((size_t)s->nbuckets + 1, sizeof *s->start);
    if (!s->a || !s->ax || !s->ay || !s->order || !s->cx || !s->cy
        || !s->start) {
        wf_steer_destroy(s);
        return WF_ERR_NOMEM;
    }
    *out = s;
    return WF_OK;
}

void wf_steer_destroy(wf_steer *s)
{
    if (!s)
        return;
    free(s->a);
    free(s->ax);
    free(s->ay);
    free(s->order);
    free(s->cx);
    free(s->cy);
    free(s->start);
    free(s);
}

const wf_steer_config *wf_steer_get_config(const wf_steer *s) { return &s->cfg; }
int wf_steer_count(const wf_steer *s) { return s->n; }
int64_t wf_steer_ticks(const wf_steer *s) { return s->ticks; }

/* ------------------------------------------------------- vectors -- */

static int64_t vlen(int64_t dx, int64_t dy)
{
    return (int64_t)wf_isqrt64((uint64_t)(dx * dx + dy * dy));
}

/* (dx, dy) scaled to length len (zero for a zero vector). */
static void scale_to(int64_t dx, int64_t dy, int64_t len, int64_t *ox,
                     int64_t *oy)
{
    int64_t d = vlen(dx, dy);
    if (d == 0) {
        *ox = *oy = 0;
        return;
    }
    *ox = dx * len / d;
    *oy = dy * len / d;
}

/* (dx, dy) with its length cut to max. */
static void cut(int64_t *dx, int64_t *dy, int64_t max)
{
    int64_t d = vlen(*dx, *dy);
    if (d > max) {
        *dx = *dx * max / d;
        *dy = *dy * max / d;
    }
}

static int pos_ok(wf_fix x, wf_fix y)
{
    return in(x, -WF_STEER_POS_LIMIT, WF_STEER_POS_LIMIT)
        && in(y, -WF_STEER_POS_LIMIT, WF_STEER_POS_LIMIT);
}

static int vel_ok(const wf_steer *s, wf_fix vx, wf_fix vy)
{
    return in(vx, -WF_FIX(8), WF_FIX(8)) && in(vy, -WF_FIX(8), WF_FIX(8))
        && vlen(vx, vy) <= s->cfg.max_speed;
}

/* --------------------------------------------------------- agents -- */

static uint32_t xorshift(uint32_t v)
{
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    return v;
}

wf_status wf_steer_add(wf_steer *s, wf_fix x, wf_fix y, wf_fix vx, wf_fix vy,
                       int *index)
{
    if (!pos_ok(x, y) || !vel_ok(s, vx, vy))
        return WF_ERR_ARG;
    if (s->n >= s->cfg.capacity)
        return WF_ERR_FULL;
    agent *p = &s->a[s->n];
    memset(p, 0, sizeof *p);
    p->x = x;
    p->y = y;
    p->vx = vx;
    p->vy = vy;
    p->quarry = -1;
    p->speed = s->cfg.max_speed;
    /* a per-agent stream: the seed mixed with the index, never zero */
    uint32_t r = s->cfg.seed * 2654435761u + (uint32_t)s->n * 40503u + 1u;
    /* xorshift is invertible and keeps 0 at 0: a non-zero state stays so */
    p->rng = xorshift(r ? r : 1u);
    if (index)
        *index = s->n;
    s->n++;
    return WF_OK;
}

wf_status wf_steer_set_state(wf_steer *s, int i, wf_fix x, wf_fix y,
                             wf_fix vx, wf_fix vy)
{
    if (i < 0 || i >= s->n || !pos_ok(x, y) || !vel_ok(s, vx, vy))
        return WF_ERR_ARG;
    agent *p = &s->a[i];
    p->x = x;
    p->y = y;
    p->vx = vx;
    p->vy = vy;
    return WF_OK;
}

wf_status wf_steer_get_state(const wf_steer *s, int i, wf_fix *x, wf_fix *y,
                             wf_fix *vx, wf_fix *vy)
{
    if (i < 0 || i >= s->n)
        return WF_ERR_ARG;
    const agent *p = &s->a[i];
    *x = p->x;
    *y = p->y;
    *vx = p->vx;
    *vy = p->vy;
    return WF_OK;
}

wf_status wf_steer_set_weights(wf_steer *s, int i, const int *w)
{
    if (i < 0 || i >= s->n)
        return WF_ERR_ARG;
    for (int k = 0; k < WF_STEER_COUNT; k++)
        if (!in(w[k], 0, WF_STEER_MAX_WEIGHT))
            return WF_ERR_ARG;
    memcpy(s->a[i].w, w, sizeof s->a[i].w);
    return WF_OK;
}

wf_status wf_steer_set_speed(wf_steer *s, int i, wf_fix speed)
{
    if (i < 0 || i >= s->n || !in(speed, 1, s->cfg.max_speed))
        return WF_ERR_ARG;
    agent *p = &s->a[i];
    p->speed = speed;
    int64_t vx = p->vx, vy = p->vy;
    cut(&vx, &vy, speed);
    p->vx = (wf_fix)vx;
    p->vy = (wf_fix)vy;
    return WF_OK;
}

wf_fix wf_steer_get_speed(const wf_steer *s, int i)
{
    return i >= 0 && i < s->n ? s->a[i].speed : 0;
}

wf_status wf_steer_set_point(wf_steer *s, int i, wf_fix tx, wf_fix ty)
{
    if (i < 0 || i >= s->n || !pos_ok(tx, ty))
        return WF_ERR_ARG;
    s->a[i].tx = tx;
    s->a[i].ty = ty;
    s->a[i].has_point = 1;
    return WF_OK;
}

wf_status wf_steer_set_quarry(wf_steer *s, int i, int j)
{
    if (i < 0 || i >= s->n || j < -1 || j >= s->n || j == i)
        return WF_ERR_ARG;
    s->a[i].quarry = j;
    return WF_OK;
}

wf_status wf_steer_get_wander(const wf_steer *s, int i, int64_t *angle,
                              uint32_t *rng)
{
    if (i < 0 || i >= s->n)
        return WF_ERR_ARG;
    *angle = s->a[i].wander;
    *rng = s->a[i].rng;
    return WF_OK;
}

/* ----------------------------------------------------- neighbours -- */

static int floor_div(int64_t v, int64_t d)
{
    int64_t q = v / d;
    if ((v % d != 0) && ((v < 0) != (d < 0)))
        q--;
    return (int)q;
}

static int bucket_of(const wf_steer *s, int cx, int cy)
{
    uint32_t h = (uint32_t)cx * 73856093u ^ (uint32_t)cy * 19349663u;
    return (int)(h & (uint32_t)(s->nbuckets - 1));
}

/* Counting sort of the agents by bucket (stable: index order inside). */
static void build_buckets(wf_steer *s)
{
    int nb = s->nbuckets;
    memset(s->start, 0, (size_t)(nb + 1) * sizeof *s->start);
    for (int i = 0; i < s->n; i++) {
        s->cx[i] = floor_div(s->a[i].x, s->cfg.neighbour_radius);
        s->cy[i] = floor_div(s->a[i].y, s->cfg.neighbour_radius);
        s->start[bucket_of(s, s->cx[i], s->cy[i]) + 1]++;
    }
    for (int b = 0; b < nb; b++)
        s->start[b + 1] += s->start[b];
    for (int i = 0; i < s->n; i++)
        s->order[s->start[bucket_of(s, s->cx[i], s->cy[i])]++] = i;
    for (int b = nb; b > 0; b--)
        s->start[b] = s->start[b - 1];
    s->start[0] = 0;
}

/* Calls visit(s, i, j, ctx) for every agent j != i whose cell is one of
 * the 3 x 3 round i's cell (as of the last build_buckets). Each agent is
 * met once: it is taken only from the query cell equal to its own. */
typedef void (*visit_fn)(const wf_steer *s, int i, int j, void *ctx);

static void neighbours(const wf_steer *s, int i, visit_fn visit, void *ctx)
{
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int qx = s->cx[i] + dx, qy = s->cy[i] + dy;
            int b = bucket_of(s, qx, qy);
            for (int k = s->start[b]; k < s->start[b + 1]; k++) {
                int j = s->order[k];
                if (j != i && s->cx[j] == qx && s->cy[j] == qy)
                    visit(s, i, j, ctx);
            }
        }
}

typedef struct flock_sum {
    int64_t sepx, sepy;          /* separation push */
    int64_t vx, vy, px, py;      /* sums over neighbours in radius */
    int64_t count;
} flock_sum;

static void flock_visit(const wf_steer *s, int i, int j, void *ctx)
{
    flock_sum *f = ctx;
    const agent *p = &s->a[i], *q = &s->a[j];
    int64_t dx = (int64_t)p->x - q->x, dy = (int64_t)p->y - q->y;
    int64_t d = vlen(dx, dy);
    if (d > s->cfg.neighbour_radius)
        return;
    f->vx += q->vx;
    f->vy += q->vy;
    f->px += q->x;
    f->py += q->y;
    f->count++;
    int64_t r = s->cfg.separation_radius;
    if (d >= r)
        return;
    /* push of length max_speed * (r - d) / r away from q; agents on one
     * point part along x, the lower index toward -x */
    int64_t len = (int64_t)p->speed * (r - d) / r;
    if (d == 0) {
        f->sepx += i < j ? -len : len;
        return;
    }
    f->sepx += dx * len / d;
    f->sepy += dy * len / d;
}

/* ----------------------------------------------------- behaviours -- */

static void seek_to(const wf_steer *s, const agent *p, int64_t tx, int64_t ty,
                    int flee, int64_t *ax, int64_t *ay)
{
    (void)s;
    int64_t dx = tx - p->x, dy = ty - p->y;
    if (flee) {
        dx = -dx;
        dy = -dy;
    }
    int64_t ux, uy;
    scale_to(dx, dy, p->speed, &ux, &uy);
    if (ux == 0 && uy == 0) {
        *ax = *ay = 0;
        return;
    }
    *ax = ux - p->vx;
    *ay = uy - p->vy;
}

static void predict(const wf_steer *s, const agent *p, int64_t *px,
                    int64_t *py)
{
    const agent *q = &s->a[p->quarry];
    int64_t d = vlen((int64_t)q->x - p->x, (int64_t)q->y - p->y);
    int64_t t = d * WF_FIX_ONE / p->speed;     /* ticks, Q16.16 */
    int64_t cap = (int64_t)s->cfg.lookahead * WF_FIX_ONE;
    if (t > cap)
        t = cap;
    int64_t x = q->x + (int64_t)q->vx * t / WF_FIX_ONE;
    int64_t y = q->y + (int64_t)q->vy * t / WF_FIX_ONE;
    int64_t lim = WF_STEER_POS_LIMIT;
    *px = x < -lim ? -lim : x > lim ? lim : x;
    *py = y < -lim ? -lim : y > lim ? lim : y;
}

wf_status wf_steer_predict(wf_steer *s, int i, wf_fix *px, wf_fix *py)
{
    if (i < 0 || i >= s->n)
        return WF_ERR_ARG;
    if (s->a[i].quarry < 0)
        return WF_ERR_NOTFOUND;
    int64_t x, y;
    predict(s, &s->a[i], &x, &y);
    *px = (wf_fix)x;
    *py = (wf_fix)y;
    return WF_OK;
}

/* The wander target for angle a: a circle of wander_radius whose centre
 * lies wander_distance ahead along the velocity ((1, 0) when still). */
static void wander_force(const wf_steer *s, const agent *p, int64_t a,
                         int64_t *ax, int64_t *ay)
{
    int64_t hx, hy;
    scale_to(p->vx, p->vy, s->cfg.wander_distance, &hx, &hy);
    if (hx == 0 && hy == 0)
        hx = s->cfg.wander_distance;
    wf_fix ux, uy;
    wf_fix_sincos(a, &ux, &uy);
    int64_t tx = p->x + hx + (int64_t)ux * s->cfg.wander_radius / WF_FIX_ONE;
    int64_t ty = p->y + hy + (int64_t)uy * s->cfg.wander_radius / WF_FIX_ONE;
    seek_to(s, p, tx, ty, 0, ax, ay);
}

/* One behaviour's force; neighbour sums from f (NULL: computed here,
 * which needs buckets built). */
static void force_of(wf_steer *s, int i, int kind, const flock_sum *f,
                     int64_t wander, int64_t *ax, int64_t *ay)
{
    const agent *p = &s->a[i];
    *ax = *ay = 0;
    switch (kind) {
    case WF_STEER_SEEK:
    case WF_STEER_FLEE:
        if (p->has_point)
            seek_to(s, p, p->tx, p->ty, kind == WF_STEER_FLEE, ax, ay);
        return;
    case WF_STEER_ARRIVE: {
        if (!p->has_point)
            return;
        int64_t dx = (int64_t)p->tx - p->x, dy = (int64_t)p->ty - p->y;
        int64_t d = vlen(dx, dy), speed = p->speed;
        if (d < s->cfg.slow_radius)
            speed = speed * d / s->cfg.slow_radius;
        int64_t ux = 0, uy = 0;
        if (d > 0) {
            ux = dx * speed / d;
            uy = dy * speed / d;
        }
        *ax = ux - p->vx;
        *ay = uy - p->vy;
        return;
    }
    case WF_STEER_PURSUE:
    case WF_STEER_EVADE: {
        if (p->quarry < 0)
            return;
        int64_t tx, ty;
        predict(s, p, &tx, &ty);
        seek_to(s, p, tx, ty, kind == WF_STEER_EVADE, ax, ay);
        return;
    }
    case WF_STEER_WANDER:
        wander_force(s, p, wander, ax, ay);
        return;
    case WF_STEER_SEPARATE: {
        if (f->sepx == 0 && f->sepy == 0)
            return;
        int64_t dx = f->sepx, dy = f->sepy;
        cut(&dx, &dy, p->speed);
        *ax = dx - p->vx;
        *ay = dy - p->vy;
        return;
    }
    case WF_STEER_ALIGN:
        if (f->count == 0)
            return;
        *ax = f->vx / f->count - p->vx;
        *ay = f->vy / f->count - p->vy;
        return;
    case WF_STEER_COHERE:
        if (f->count == 0)
            return;
        seek_to(s, p, f->px / f->count, f->py / f->count, 0, ax, ay);
        return;
    default:
        return;
    }
}

wf_status wf_steer_force(wf_steer *s, int i, int kind, wf_fix *ax, wf_fix *ay)
{
    if (i < 0 || i >= s->n || kind < 0 || kind >= WF_STEER_COUNT)
        return WF_ERR_ARG;
    flock_sum f;
    memset(&f, 0, sizeof f);
    if (kind >= WF_STEER_SEPARATE) {
        build_buckets(s);
        neighbours(s, i, flock_visit, &f);
    }
    int64_t x, y;
    force_of(s, i, kind, &f, s->a[i].wander, &x, &y);
    *ax = (wf_fix)x;
    *ay = (wf_fix)y;
    return WF_OK;
}

/* ----------------------------------------------------------- step -- */

typedef struct hit_ctx {
    wf_fix ax, ay, bx, by;
    int hit;
} hit_ctx;

static void hit_visit(const wf_steer *s, int i, int j, void *ctx)
{
    (void)i;
    hit_ctx *h = ctx;
    if (h->hit)
        return;
    int hit = 0;
    if (wf_sweep_square(h->ax, h->ay, h->bx, h->by, s->a[j].x, s->a[j].y,
                        2 * s->cfg.radius, &hit) == WF_OK && hit)
        h->hit = 1;
}

/* Whether agent i may move to (bx, by). */
static int blocked(const wf_steer *s, int i, const wf_grid *g, int cls,
                   wf_fix bx, wf_fix by)
{
    const agent *p = &s->a[i];
    if (bx == p->x && by == p->y)
        return 0;
    if (g) {
        int hit = 0;
        if (wf_sweep_grid(g, cls, p->x, p->y, bx, by, &hit, NULL, NULL)
                != WF_OK || hit)
            return 1;
    }
    if (s->cfg.radius > 0) {
        hit_ctx h = {p->x, p->y, bx, by, 0};
        neighbours(s, i, hit_visit, &h);
        return h.hit;
    }
    return 0;
}

wf_status wf_steer_step(wf_steer *s, const wf_grid *g, int cls, int *nblocked)
{
    if (g) {
        for (int i = 0; i < s->n; i++)
            if (!wf_sweep_point_clear(g, cls, s->a[i].x, s->a[i].y))
                return WF_ERR_ARG;
    }
    build_buckets(s);
    /* forces from the state before the step */
    for (int i = 0; i < s->n; i++) {
        agent *p = &s->a[i];
        flock_sum f;
        memset(&f, 0, sizeof f);
        if (p->w[WF_STEER_SEPARATE] || p->w[WF_STEER_ALIGN]
            || p->w[WF_STEER_COHERE])
            neighbours(s, i, flock_visit, &f);
        int64_t sx = 0, sy = 0;
        for (int k = 0; k < WF_STEER_COUNT; k++) {
            if (!p->w[k])
                continue;
            int64_t a = p->wander;
            if (k == WF_STEER_WANDER) {
                /* turn by a uniform jitter in [-jitter, jitter] */
                p->rng = xorshift(p->rng);
                int64_t u = (int64_t)(p->rng % 65537u) - 32768;
                a += s->cfg.wander_jitter * u / 32768;
                a %= TWO_PI_ANGLE;
                if (a < 0)
                    a += TWO_PI_ANGLE;
                p->wander = a;
            }
            int64_t fx, fy;
            force_of(s, i, k, &f, a, &fx, &fy);
            sx += fx * p->w[k];
            sy += fy * p->w[k];
        }
        cut(&sx, &sy, s->cfg.max_accel);
        s->ax[i] = (wf_fix)sx;
        s->ay[i] = (wf_fix)sy;
    }
    int nb = 0;
    for (int i = 0; i < s->n; i++) {
        agent *p = &s->a[i];
        int64_t vx = (int64_t)p->vx + s->ax[i], vy = (int64_t)p->vy + s->ay[i];
        cut(&vx, &vy, p->speed);
        wf_fix bx = (wf_fix)(p->x + vx), by = (wf_fix)(p->y + vy);
        if (!pos_ok(bx, by) || blocked(s, i, g, cls, bx, by)) {
            nb++;
            if (pos_ok(bx, p->y) && !blocked(s, i, g, cls, bx, p->y)) {
                by = p->y;
                vy = 0;
            } else if (pos_ok(p->x, by) && !blocked(s, i, g, cls, p->x, by)) {
                bx = p->x;
                vx = 0;
            } else {
                bx = p->x;
                by = p->y;
                vx = vy = 0;
            }
        }
        p->x = bx;
        p->y = by;
        p->vx = (wf_fix)vx;
        p->vy = (wf_fix)vy;
    }
    s->ticks++;
    if (nblocked)
        *nblocked = nb;
    return WF_OK;
}
