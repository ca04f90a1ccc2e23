/* units.c - the unit simulation: units on a grid, ordered to goals, moved
 * tick by tick with the swept collision rule of sweep.c, planned through
 * the request queue, kept in a uniform bucket grid for the unit tests. */
#include <stdlib.h>
#include <string.h>

#include "wayfinder.h"
#include "avoid.h"
#include "orca.h"
#include "fixmath.h"
#include "grid_internal.h"
#include "motion.h"

#define FIX ((int64_t)WF_FIX_ONE)
#define NONE (-1)
/* vertices a detour or an inverted goal's plan may expand: bounds a
 * tick's work when the goal cannot be reached (docs/units.md) */
#define DETOUR_EXPANSIONS 128

typedef struct unit {
    uint32_t id;              /* 0: free slot */
    int cls;
    wf_fix x, y, r, speed;
    wf_unit_state state;
    int has_order;
    wf_goal goal;
    int wait, order_ticks, unreachable;
    wf_fix *way;              /* x, y pairs */
    int nway, next, wcap;
    uint64_t handle;          /* pending queue request, 0: none */
    uint64_t plan_seq;
    wf_fix ex, ey;
    int32_t bucket, bprev, bnext;
    wf_fix vx, vy, cur, hx, hy, best;   /* motion state: see wf_unit_info */
    int stall, yield;
    int bend;                 /* last waypoint of the corner curve, -1 */
} unit;

struct wf_units {
    wf_units_config cfg;
    int gw, gh;
    unit *units;
    uint32_t *order;          /* slots in increasing id order */
    size_t n;
    uint32_t *freelist;
    uint32_t nfree;
    int32_t *heads;           /* first slot of each bucket, NONE */
    int bw, bh;
    wf_fix maxr;              /* largest radius ever held */
    uint32_t next_id;
    uint64_t ticks, next_seq, head_spent, backlog;
    wf_queue *q;
    wf_vertex *vx;            /* the vertex pathfinder's scratch */
    wf_vertex_square *sq;     /* squares round a blocked unit, capacity */
    int nsq;
    /* ORCA mode: the door map (door_axis of every navcell and class, 2
     * bits each, door_bpc bytes a navcell), derived from the grid of
     * serial door_serial at version door_version; NULL in other modes.
     * Not saved: made at creation, brought up to date each tick. */
    uint8_t *doors;
    int door_ncls, door_bpc;
    uint64_t door_serial, door_version;
    uint32_t door_count[WF_MAX_CLASSES];    /* doors of each class */
};

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

static int64_t floor_cell(int64_t v)
{
    return v >= 0 ? v / FIX : -((-v + FIX - 1) / FIX);
}

const char *wf_unit_reason_name(wf_unit_reason r)
{
    switch (r) {
    case WF_UNIT_FINE: return "fine";
    case WF_UNIT_IMPASSABLE: return "impassable";
    case WF_UNIT_OVERLAP: return "overlap";
    case WF_UNIT_OUTSIDE: return "outside";
    case WF_UNIT_UNREACHABLE: return "unreachable";
    case WF_UNIT_BLOCKED: return "blocked";
    case WF_UNIT_STUCK: return "stuck";
    case WF_UNIT_TIMEOUT: return "timeout";
    case WF_UNIT_GOAL_OUTSIDE: return "goal_outside";
    case WF_UNIT_STOPPED: return "stopped";
    case WF_UNIT_GOAL_TAKEN: return "goal_taken";
    }
    return "unknown";
}

const char *wf_unit_state_name(wf_unit_state s)
{
    switch (s) {
    case WF_UNIT_IDLE: return "idle";
    case WF_UNIT_PLANNING: return "planning";
    case WF_UNIT_MOVING: return "moving";
    case WF_UNIT_WAITING: return "waiting";
    case WF_UNIT_ESCAPING: return "escaping";
    }
    return "unknown";
}

void wf_units_config_init(wf_units_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->capacity = 4096;
    cfg->budget = 20000;
    cfg->max_wait = 20;
    cfg->max_order_ticks = 100000;
    cfg->bucket = 8;
    cfg->brute = 0;
    cfg->short_range = 8;
}

static int config_ok(const wf_units_config *c)
{
    return c->capacity >= 1 && c->capacity <= WF_UNITS_MAX && c->budget >= 1
           && c->budget <= ((uint64_t)1 << 53) && c->max_wait >= 0
           && c->max_wait <= 1000000 && c->max_order_ticks >= 1
           && c->max_order_ticks <= 100000000 && c->bucket >= 1
           && c->bucket <= 256 && (c->brute == 0 || c->brute == 1)
           && c->short_range >= 0 && c->short_range <= 64
           && (c->avoidance == WF_AVOID_NONE
               || c->avoidance == WF_AVOID_VELOCITY
               || c->avoidance == WF_AVOID_ORCA)
           && c->accel >= 0 && c->accel <= WF_UNIT_MAX_SPEED
           && c->turn_rate >= 0 && c->turn_rate <= 3454217652358LL
           && c->arrive_radius >= 0 && c->arrive_radius <= WF_FIX(1024)
           && (c->lookahead == 0 || c->lookahead == 1)
           && c->corner_radius >= 0
           && c->corner_radius <= WF_CORNER_MAX_RADIUS;
}

static int doors_make(wf_units *u, const wf_grid *g);

wf_status wf_units_create(wf_units **out, const wf_grid *g,
                          const wf_units_config *cfg)
{
    *out = NULL;
    if (!g || !cfg || !config_ok(cfg))
        return WF_ERR_ARG;
    wf_units *u = calloc(1, sizeof *u);
    if (!u)
        return WF_ERR_NOMEM;
    u->cfg = *cfg;
    u->gw = wf_grid_width(g);
    u->gh = wf_grid_height(g);
    u->bw = (u->gw + cfg->bucket - 1) / cfg->bucket;
    u->bh = (u->gh + cfg->bucket - 1) / cfg->bucket;
    u->units = calloc(cfg->capacity, sizeof *u->units);
    u->order = malloc(cfg->capacity * sizeof *u->order);
    u->freelist = malloc(cfg->capacity * sizeof *u->freelist);
    u->heads = malloc((size_t)u->bw * (size_t)u->bh * sizeof *u->heads);
    u->sq = malloc(cfg->capacity * sizeof *u->sq);
    wf_status st = WF_ERR_NOMEM;
    if (u->units && u->order && u->freelist && u->heads && u->sq)
        st = wf_queue_create(&u->q, g, 1);
    if (st == WF_OK)
        st = wf_vertex_create(&u->vx, 4096);
    if (st == WF_OK && cfg->avoidance == WF_AVOID_ORCA && !doors_make(u, g))
        st = WF_ERR_NOMEM;
    if (st != WF_OK) {
        wf_units_destroy(u);
        return st;
    }
    for (size_t k = 0; k < (size_t)u->bw * (size_t)u->bh; k++)
        u->heads[k] = NONE;
    for (uint32_t k = 0; k < cfg->capacity; k++)
        u->freelist[k] = cfg->capacity - 1 - k;   /* slot 0 first */
    u->nfree = cfg->capacity;
    u->next_id = 1;
    u->next_seq = 1;
    *out = u;
    return WF_OK;
}

void wf_units_destroy(wf_units *u)
{
    if (!u)
        return;
    if (u->units)
        for (uint32_t k = 0; k < u->cfg.capacity; k++)
            free(u->units[k].way);
    wf_queue_destroy(u->q);
    wf_vertex_destroy(u->vx);
    free(u->sq);
    free(u->units);
    free(u->order);
    free(u->freelist);
    free(u->heads);
    free(u->doors);
    free(u);
}

void wf_units_config_of(const wf_units *u, wf_units_config *cfg)
{
    *cfg = u->cfg;
}

size_t wf_units_memory(const wf_units *u)
{
    size_t m = sizeof *u + u->cfg.capacity * (sizeof *u->units
               + sizeof *u->order + sizeof *u->freelist)
               + (size_t)u->bw * (size_t)u->bh * sizeof *u->heads
               + wf_queue_memory(u->q) + wf_vertex_memory(u->vx)
               + u->cfg.capacity * sizeof *u->sq
               + (u->doors ? (size_t)u->gw * (size_t)u->gh * (size_t)u->door_bpc : 0);
    for (size_t k = 0; k < u->n; k++)
        m += (size_t)u->units[u->order[k]].wcap * 2 * sizeof(wf_fix);
    return m;
}

/* ------------------------------------------------------------ lookup -- */

static int slot_of(const wf_units *u, uint32_t id)
{
    size_t lo = 0, hi = u->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint32_t m = u->units[u->order[mid]].id;
        if (m == id)
            return (int)u->order[mid];
        if (m < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NONE;
}

static int32_t bucket_of(const wf_units *u, wf_fix x, wf_fix y)
{
    int64_t side = (int64_t)u->cfg.bucket * FIX;
    int64_t bx = x < 0 ? 0 : x / side, by = y < 0 ? 0 : y / side;
    if (bx >= u->bw) bx = u->bw - 1;
    if (by >= u->bh) by = u->bh - 1;
    return (int32_t)(by * u->bw + bx);
}

static void bucket_unlink(wf_units *u, int s)
{
    unit *m = &u->units[s];
    if (m->bprev != NONE)
        u->units[m->bprev].bnext = m->bnext;
    else
        u->heads[m->bucket] = m->bnext;
    if (m->bnext != NONE)
        u->units[m->bnext].bprev = m->bprev;
}

static void bucket_link(wf_units *u, int s)
{
    unit *m = &u->units[s];
    m->bucket = bucket_of(u, m->x, m->y);
    m->bprev = NONE;
    m->bnext = u->heads[m->bucket];
    if (m->bnext != NONE)
        u->units[m->bnext].bprev = s;
    u->heads[m->bucket] = s;
}

static void place(wf_units *u, int s, wf_fix x, wf_fix y)
{
    unit *m = &u->units[s];
    m->x = x;
    m->y = y;
    if (bucket_of(u, x, y) != m->bucket) {
        bucket_unlink(u, s);
        bucket_link(u, s);
    }
}

/* Calls visit(slot) for every unit that may lie within `reach` of the box
 * [x0, x1] x [y0, y1]; stops early when visit returns nonzero. */
typedef int (*visit_fn)(void *ctx, int slot);
static int near_units(const wf_units *u, int64_t x0, int64_t y0, int64_t x1,
                      int64_t y1, int64_t reach, visit_fn visit, void *ctx)
{
    if (u->cfg.brute) {
        for (size_t k = 0; k < u->n; k++)
            if (visit(ctx, (int)u->order[k]))
                return 1;
        return 0;
    }
    int64_t side = (int64_t)u->cfg.bucket * FIX;
    int64_t bx0 = (x0 - reach) / side, bx1 = (x1 + reach) / side;
    int64_t by0 = (y0 - reach) / side, by1 = (y1 + reach) / side;
    if (x0 - reach < 0) bx0 = 0;
    if (y0 - reach < 0) by0 = 0;
    if (bx1 >= u->bw) bx1 = u->bw - 1;
    if (by1 >= u->bh) by1 = u->bh - 1;
    for (int64_t by = by0; by <= by1; by++)
        for (int64_t bx = bx0; bx <= bx1; bx++)
            for (int32_t s = u->heads[by * u->bw + bx]; s != NONE;
                 s = u->units[s].bnext)
                if (visit(ctx, s))
                    return 1;
    return 0;
}

/* ------------------------------------------------------- placement -- */

static int point_clear(const wf_grid *g, int cls, wf_fix x, wf_fix y)
{
    return wf_sweep_point_clear(g, cls, x, y);
}

typedef struct overlap_ctx {
    const wf_units *u;
    wf_fix x, y, grow;
    uint32_t ignore;
} overlap_ctx;

static int overlap_visit(void *p, int s)
{
    overlap_ctx *c = p;
    const unit *o = &c->u->units[s];
    if (o->id == c->ignore)
        return 0;
    int64_t h = (int64_t)o->r + c->grow;
    return abs64((int64_t)c->x - o->x) <= h && abs64((int64_t)c->y - o->y) <= h;
}

static int radius_ok(wf_fix r) { return r > 0 && r <= WF_UNIT_MAX_RADIUS; }

wf_status wf_units_check_placement(const wf_units *u, const wf_grid *g,
                                   wf_fix x, wf_fix y, int cls, wf_fix radius,
                                   uint32_t ignore, wf_unit_reason *why)
{
    *why = WF_UNIT_FINE;
    if (cls < 0 || cls >= wf_grid_class_count(g) || !radius_ok(radius))
        return WF_ERR_ARG;
    if (x < 0 || y < 0 || x >= (int64_t)u->gw * FIX || y >= (int64_t)u->gh * FIX) {
        *why = WF_UNIT_OUTSIDE;
        return WF_OK;
    }
    if (!point_clear(g, cls, x, y)) {
        *why = WF_UNIT_IMPASSABLE;
        return WF_OK;
    }
    overlap_ctx c = {u, x, y, radius + WF_UNIT_GAP, ignore};
    if (near_units(u, x, y, x, y, (int64_t)radius + WF_UNIT_GAP + u->maxr,
                   overlap_visit, &c))
        *why = WF_UNIT_OVERLAP;
    return WF_OK;
}

static wf_status insert(wf_units *u, const unit *src, int *slot)
{
    if (u->nfree == 0)
        return WF_ERR_FULL;
    int s = (int)u->freelist[--u->nfree];
    u->units[s] = *src;
    /* keep order sorted by id (new ids are the largest, restored ones may
     * come in any order) */
    size_t k = u->n;
    while (k > 0 && u->units[u->order[k - 1]].id > src->id) {
        u->order[k] = u->order[k - 1];
        k--;
    }
    u->order[k] = (uint32_t)s;
    u->n++;
    bucket_link(u, s);
    if (src->r > u->maxr)
        u->maxr = src->r;
    *slot = s;
    return WF_OK;
}

wf_status wf_units_add(wf_units *u, const wf_grid *g, wf_fix x, wf_fix y,
                       int cls, wf_fix radius, wf_fix speed, uint32_t *id,
                       wf_unit_reason *why)
{
    *id = 0;
    if (speed <= 0 || speed > WF_UNIT_MAX_SPEED)
        return WF_ERR_ARG;
    wf_status st = wf_units_check_placement(u, g, x, y, cls, radius, 0, why);
    if (st != WF_OK || *why != WF_UNIT_FINE)
        return st;
    if (u->nfree == 0 || u->next_id == UINT32_MAX)
        return WF_ERR_FULL;
    unit m;
    memset(&m, 0, sizeof m);
    m.id = u->next_id;
    m.cls = cls;
    m.x = x;
    m.y = y;
    m.r = radius;
    m.speed = speed;
    m.state = WF_UNIT_IDLE;
    m.hx = WF_FIX_ONE;
    m.bend = -1;
    int s;
    st = insert(u, &m, &s);
    if (st != WF_OK)
        return st;
    u->next_id++;
    *id = m.id;
    return WF_OK;
}

/* -------------------------------------------------------------- orders -- */

static int is_pending(const wf_units *u, const unit *m)
{
    wf_req_state rs;
    return m->handle && wf_queue_state(u->q, m->handle, &rs) == WF_OK
           && rs == WF_REQ_PENDING;
}

/* Drops the unit's request; the expansions spent on it are lost with it
 * when it was the pending request the queue works on (the oldest). */
static void drop_request(wf_units *u, unit *m)
{
    if (!m->handle)
        return;
    if (is_pending(u, m)) {
        int oldest = 1;
        for (size_t k = 0; k < u->n && oldest; k++) {
            const unit *o = &u->units[u->order[k]];
            if (o != m && o->plan_seq < m->plan_seq && is_pending(u, o))
                oldest = 0;
        }
        if (oldest)
            u->head_spent = u->backlog = 0;   /* see wf_units_set_clock */
    }
    wf_queue_release(u->q, m->handle);
    m->handle = 0;
    m->plan_seq = 0;
}

static void clear_order(wf_units *u, unit *m)
{
    drop_request(u, m);
    m->has_order = 0;
    m->state = WF_UNIT_IDLE;
    /* the last path stays readable (wf_units_waypoints) until the next */
    m->wait = m->order_ticks = m->unreachable = 0;
    m->best = 0;
    m->stall = m->yield = 0;
}

/* Submits a path request from the unit's navcell to goal. */
static wf_status submit_goal(wf_units *u, const unit *m, const wf_goal *goal,
                             uint64_t *handle)
{
    wf_request rq;
    memset(&rq, 0, sizeof rq);
    wf_query_init(&rq.q);
    rq.q.sx = (int)floor_cell(m->x);
    rq.q.sy = (int)floor_cell(m->y);
    rq.q.goal = *goal;
    rq.q.cls = m->cls;
    rq.q.smooth = 1;
    rq.flags = WF_PREP_REWRITE;
    return wf_queue_submit(u->q, &rq, handle);
}

/* Plans the unit's order again from where it stands: through the queue,
 * or for an inverted goal (a minimum range: short, as the reference says)
 * with the vertex pathfinder at the unit's next turn. */
static wf_status submit(wf_units *u, unit *m)
{
    uint64_t handle;
    if (m->goal.inverted) {
        m->state = WF_UNIT_PLANNING;
        m->wait = 0;
        return WF_OK;
    }
    wf_status st = submit_goal(u, m, &m->goal, &handle);
    if (st != WF_OK)
        return st;
    m->handle = handle;
    m->plan_seq = u->next_seq++;
    m->state = WF_UNIT_PLANNING;
    m->wait = 0;            /* the old waypoints stay readable until the new */
    m->best = 0;
    return WF_OK;
}

static int goal_ok(const wf_goal *g)
{
    int64_t lim = (int64_t)WF_MAX_SIDE * 2 * FIX;
    if (abs64(g->x) > lim || abs64(g->y) > lim || (g->inverted != 0 && g->inverted != 1)
        || (g->inverted && g->type == WF_GOAL_POINT))
        return 0;
    switch (g->type) {
    case WF_GOAL_POINT:
        return 1;
    case WF_GOAL_CIRCLE:
        return g->r >= 0 && g->r <= (int64_t)WF_MAX_SIDE * FIX;
    case WF_GOAL_SQUARE:
        return g->hw >= 0 && g->hh >= 0 && g->hw <= (int64_t)WF_MAX_SIDE * FIX
               && g->hh <= (int64_t)WF_MAX_SIDE * FIX;
    }
    return 0;
}

wf_status wf_units_move(wf_units *u, uint32_t id, const wf_goal *goal)
{
    int s = slot_of(u, id);
    if (s == NONE)
        return WF_ERR_NOTFOUND;
    if (!goal_ok(goal))
        return WF_ERR_ARG;
    unit *m = &u->units[s];
    uint64_t handle = 0;
    if (!goal->inverted) {
        wf_status st = submit_goal(u, m, goal, &handle);  /* before any change */
        if (st != WF_OK)
            return st;
    }
    clear_order(u, m);
    m->goal = *goal;
    m->has_order = 1;
    m->handle = handle;
    m->plan_seq = handle ? u->next_seq++ : 0;
    m->state = WF_UNIT_PLANNING;
    return WF_OK;
}

wf_status wf_units_stop(wf_units *u, uint32_t id)
{
    int s = slot_of(u, id);
    if (s == NONE)
        return WF_ERR_NOTFOUND;
    clear_order(u, &u->units[s]);
    return WF_OK;
}

wf_status wf_units_remove(wf_units *u, uint32_t id)
{
    int s = slot_of(u, id);
    if (s == NONE)
        return WF_ERR_NOTFOUND;
    unit *m = &u->units[s];
    clear_order(u, m);
    bucket_unlink(u, s);
    free(m->way);
    memset(m, 0, sizeof *m);
    size_t k = 0;
    while (u->order[k] != (uint32_t)s)
        k++;
    memmove(u->order + k, u->order + k + 1, (u->n - k - 1) * sizeof *u->order);
    u->n--;
    u->freelist[u->nfree++] = (uint32_t)s;
    return WF_OK;
}

/* ---------------------------------------------- spawning, dispersal -- */

static int shape_ok(const wf_shape *f)
{
    int64_t lim = (int64_t)WF_MAX_SIDE * FIX;
    return f && f->hw >= 0 && f->hh >= 0 && f->hw <= lim && f->hh <= lim
           && abs64(f->cx) <= 2 * lim && abs64(f->cy) <= 2 * lim
           && abs64(f->ux) <= FIX && abs64(f->uy) <= FIX;
}

/* The point at arc length t in [0, 4(a + b)) round the rectangle of half
 * sizes a, b (local axes), from the middle of its +v side towards +u. */
static void ring_point(int64_t a, int64_t b, int64_t t, int64_t *lu, int64_t *lv)
{
    if (t < a) { *lu = t; *lv = b; return; }
    t -= a;
    if (t < 2 * b) { *lu = a; *lv = b - t; return; }
    t -= 2 * b;
    if (t < 2 * a) { *lu = a - t; *lv = -b; return; }
    t -= 2 * a;
    if (t < 2 * b) { *lu = -a; *lv = -b + t; return; }
    t -= 2 * b;
    *lu = -a + t;
    *lv = b;
}

wf_status wf_units_spawn_points(const wf_units *u, const wf_grid *g,
                                const wf_shape *f, int cls, wf_fix radius,
                                int n, wf_fix *xy, int *count)
{
    *count = 0;
    if (!shape_ok(f) || cls < 0 || cls >= wf_grid_class_count(g)
        || !radius_ok(radius) || n < 0)
        return WF_ERR_ARG;
    int64_t step = 2 * (int64_t)radius + FIX / 4;
    int64_t apart = 2 * (int64_t)radius + WF_UNIT_GAP;
    int64_t vx = -(int64_t)f->uy, vy = f->ux;
    for (int k = 0; k < 8 && *count < n; k++) {
        int64_t d = radius + WF_UNIT_GAP + k * step;
        int64_t a = f->hw + d, b = f->hh + d, per = 4 * (a + b);
        int64_t m = per / 2 / step;      /* candidates each way */
        for (int64_t j = 0; j <= 2 * m && *count < n; j++) {
            /* 0, +step, -step, +2 step, ... */
            int64_t t = (j + 1) / 2 * step * (j % 2 ? 1 : -1);
            if (j > 0 && (j % 2 == 0) && -t >= per - m * step)
                continue;                /* met the +u side's last one */
            if (t < 0)
                t += per;
            int64_t lu, lv;
            ring_point(a, b, t, &lu, &lv);
            int64_t x = f->cx + (lu * f->ux + lv * vx) / FIX;
            int64_t y = f->cy + (lu * f->uy + lv * vy) / FIX;
            if (x < 0 || y < 0 || x >= (int64_t)u->gw * FIX || y >= (int64_t)u->gh * FIX)
                continue;
            wf_unit_reason why;
            wf_status st = wf_units_check_placement(u, g, (wf_fix)x, (wf_fix)y, cls,
                                                    radius, 0, &why);
            if (st != WF_OK)
                return st;
            if (why != WF_UNIT_FINE)
                continue;
            int clash = 0;
            for (int c = 0; c < *count && !clash; c++)
                clash = abs64(xy[2 * c] - x) <= apart && abs64(xy[2 * c + 1] - y) <= apart;
            if (clash)
                continue;
            xy[2 * *count] = (wf_fix)x;
            xy[2 * *count + 1] = (wf_fix)y;
            (*count)++;
        }
    }
    return WF_OK;
}

wf_status wf_units_disperse(wf_units *u, const wf_grid *g, const wf_shape *f,
                            uint32_t builder, uint32_t *ids, size_t cap,
                            size_t *count)
{
    *count = 0;
    if (!shape_ok(f) || cap < u->n)
        return WF_ERR_ARG;
    if (builder && slot_of(u, builder) == NONE)
        return WF_ERR_NOTFOUND;
    /* decide first, then order: nothing half-changed on an error */
    for (size_t k = 0; k < u->n; k++) {
        const unit *m = &u->units[u->order[k]];
        if (m->id == builder)
            continue;
        int64_t c = (int64_t)wf_grid_class_clearance(g, m->cls) * FIX + FIX / 2;
        wf_goal near;
        wf_goal_square(&near, f->cx, f->cy, (wf_fix)(f->hw + c), (wf_fix)(f->hh + c),
                       f->ux, f->uy);
        if (wf_goal_point_inside(&near, m->x, m->y))
            ids[(*count)++] = m->id;
    }
    for (size_t k = 0; k < *count; k++) {
        int s = slot_of(u, ids[k]);
        int64_t c = (int64_t)wf_grid_class_clearance(g, u->units[s].cls) * FIX
                    + 3 * FIX / 2;
        wf_goal out;
        wf_goal_square(&out, f->cx, f->cy, (wf_fix)(f->hw + c), (wf_fix)(f->hh + c),
                       f->ux, f->uy);
        wf_goal_invert(&out);
        wf_status st = wf_units_move(u, ids[k], &out);
        if (st != WF_OK)
            return st;
    }
    return WF_OK;
}

/* ------------------------------------------------------------- ranges -- */

wf_fix wf_max_range_structure(wf_fix range, int clearance)
{
    int64_t v = (int64_t)range + (int64_t)clearance * FIX + WF_UNIT_GAP;
    return v > INT32_MAX ? INT32_MAX : (wf_fix)v;
}

wf_fix wf_max_range_unit(wf_fix range, wf_fix r1, wf_fix r2)
{
    int64_t v = (int64_t)range + r1 + r2 + WF_UNIT_GAP;
    return v > INT32_MAX ? INT32_MAX : (wf_fix)v;
}

/* ------------------------------------------------------------ reading -- */

size_t wf_units_count(const wf_units *u) { return u->n; }

uint32_t wf_units_id(const wf_units *u, size_t k)
{
    return k < u->n ? u->units[u->order[k]].id : 0;
}

uint64_t wf_units_ticks(const wf_units *u) { return u->ticks; }

wf_status wf_units_get(const wf_units *u, uint32_t id, wf_unit_info *out)
{
    int s = slot_of(u, id);
    if (s == NONE)
        return WF_ERR_NOTFOUND;
    const unit *m = &u->units[s];
    memset(out, 0, sizeof *out);
    out->id = m->id;
    out->cls = m->cls;
    out->x = m->x;
    out->y = m->y;
    out->radius = m->r;
    out->speed = m->speed;
    out->state = m->state;
    out->has_order = m->has_order;
    out->goal = m->goal;
    out->wait = m->wait;
    out->order_ticks = m->order_ticks;
    out->unreachable = m->unreachable;
    out->nway = m->nway;
    out->next = m->next;
    out->plan_seq = m->plan_seq;
    out->ex = m->ex;
    out->ey = m->ey;
    out->vx = m->vx;
    out->vy = m->vy;
    out->cur = m->cur;
    out->hx = m->hx;
    out->hy = m->hy;
    out->best = m->best;
    out->stall = m->stall;
    out->yield = m->yield;
    out->bend = m->bend;
    return WF_OK;
}

wf_status wf_units_waypoints(const wf_units *u, uint32_t id,
                             const wf_fix **xy, int *n)
{
    int s = slot_of(u, id);
    if (s == NONE)
        return WF_ERR_NOTFOUND;
    *xy = u->units[s].way;
    *n = u->units[s].nway;
    return WF_OK;
}

/* --------------------------------------------------------------- tick -- */

static wf_status reserve_way(unit *m, int n)
{
    if (n <= m->wcap)
        return WF_OK;
    wf_fix *w = realloc(m->way, (size_t)n * 2 * sizeof *w);
    if (!w)
        return WF_ERR_NOMEM;
    m->way = w;
    m->wcap = n;
    return WF_OK;
}

typedef struct sweep_ctx {
    const wf_units *u;
    int self;
    wf_fix ax, ay, bx, by, r;
} sweep_ctx;

static int sweep_visit(void *p, int s)
{
    sweep_ctx *c = p;
    if (s == c->self)
        return 0;
    const unit *o = &c->u->units[s];
    /* the move's box missing the grown square's: no hit (as the swept
     * test finds, but cheaper) */
    int64_t h = (int64_t)c->r + o->r;
    if ((c->ax < c->bx ? c->ax : c->bx) > o->x + h
        || (c->ax < c->bx ? c->bx : c->ax) < o->x - h
        || (c->ay < c->by ? c->ay : c->by) > o->y + h
        || (c->ay < c->by ? c->by : c->ay) < o->y - h)
        return 0;
    int hit = 0;
    wf_sweep_square(c->ax, c->ay, c->bx, c->by, o->x, o->y, c->r + o->r, &hit);
    return hit;
}

/* 1 when the move of slot s to (bx, by) meets another unit's grown square */
static int hits_unit(const wf_units *u, int s, wf_fix bx, wf_fix by)
{
    const unit *m = &u->units[s];
    sweep_ctx c = {u, s, m->x, m->y, bx, by, m->r};
    int64_t x0 = m->x < bx ? m->x : bx, x1 = m->x < bx ? bx : m->x;
    int64_t y0 = m->y < by ? m->y : by, y1 = m->y < by ? by : m->y;
    return near_units(u, x0, y0, x1, y1, (int64_t)m->r + u->maxr, sweep_visit, &c);
}

typedef enum { WALK_DONE, WALK_PART, WALK_UNITS, WALK_GRID } walk_result;

/* Walks slot s up to its speed along its waypoints (or to its escape
 * target, ignoring the grid, when escaping). *moved says whether it got
 * anywhere. */
static walk_result walk(wf_units *u, const wf_grid *g, int s, int64_t left,
                        int *moved)
{
    unit *m = &u->units[s];
    int escaping = m->state == WF_UNIT_ESCAPING;
    *moved = 0;
    for (;;) {
        wf_fix tx, ty;
        if (escaping) {
            tx = m->ex;
            ty = m->ey;
        } else {
            if (m->next >= m->nway)
                return WALK_DONE;
            tx = m->way[2 * m->next];
            ty = m->way[2 * m->next + 1];
        }
        int64_t dx = (int64_t)tx - m->x, dy = (int64_t)ty - m->y;
        int64_t dist = (int64_t)wf_isqrt64((uint64_t)(dx * dx) + (uint64_t)(dy * dy));
        int reach = dist <= left;
        wf_fix bx = tx, by = ty;
        if (!reach) {
            bx = (wf_fix)(m->x + dx * left / dist);
            by = (wf_fix)(m->y + dy * left / dist);
        }
        if (bx != m->x || by != m->y) {
            int hit = 0;
            if (!escaping)
                wf_sweep_grid(g, m->cls, m->x, m->y, bx, by, &hit, NULL, NULL);
            if (hit)
                return WALK_GRID;
            if (hits_unit(u, s, bx, by))
                return WALK_UNITS;
            place(u, s, bx, by);
            *moved = 1;
        }
        if (!reach)
            return WALK_PART;
        left -= dist;
        if (escaping)
            return WALK_DONE;
        m->next++;
        if (left <= 0)
            return m->next >= m->nway ? WALK_DONE : WALK_PART;
    }
}


/* ---------------------------------------------- motion options -- */

static int64_t dist_of(int64_t dx, int64_t dy)
{
    return (int64_t)wf_isqrt64((uint64_t)(dx * dx) + (uint64_t)(dy * dy));
}

/* 1 when slot s sees (tx, ty) from (ax, ay) under the grid rule (a
 * segment too long for one sweep is not in sight) */
static int in_sight(const wf_units *u, const wf_grid *g, int s, wf_fix ax,
                    wf_fix ay, wf_fix tx, wf_fix ty)
{
    int hit = 0;
    if ((ax != tx || ay != ty)
        && wf_sweep_grid(g, u->units[s].cls, ax, ay, tx, ty, &hit, NULL, NULL)
               != WF_OK)
        hit = 1;
    return !hit;
}

typedef struct fit_ctx {
    const wf_units *u;
    const wf_grid *g;
    int s;
} fit_ctx;

static int unit_fits(void *p, wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by)
{
    const fit_ctx *c = p;
    return in_sight(c->u, c->g, c->s, ax, ay, bx, by);
}

/* corner_radius: once the unit comes within corner_radius plus its speed
 * of a corner of its way (a waypoint with one after it, not already part
 * of a curve), the corner is replaced by the points of the curve
 * wf_motion_corner finds under the grid rule of the unit's class, or
 * kept sharp when none fits; either way it is not looked at again. */
static void round_corner(wf_units *u, const wf_grid *g, int s)
{
    unit *m = &u->units[s];
    int k = m->next;
    if (!u->cfg.corner_radius || m->state == WF_UNIT_ESCAPING || k <= m->bend
        || k + 1 >= m->nway)
        return;
    wf_fix cx = m->way[2 * k], cy = m->way[2 * k + 1];
    if (dist_of((int64_t)cx - m->x, (int64_t)cy - m->y)
        > (int64_t)u->cfg.corner_radius + m->speed)
        return;
    m->bend = k;
    wf_fix pts[2 * WF_CORNER_POINTS];
    fit_ctx fc = {u, g, s};
    if (!wf_motion_corner(m->x, m->y, cx, cy, m->way[2 * k + 2],
                          m->way[2 * k + 3], u->cfg.corner_radius, unit_fits,
                          &fc, pts)
        || reserve_way(m, m->nway + WF_CORNER_POINTS - 1) != WF_OK)
        return;
    memmove(&m->way[2 * (k + WF_CORNER_POINTS)], &m->way[2 * (k + 1)],
            (size_t)(m->nway - k - 1) * 2 * sizeof *m->way);
    memcpy(&m->way[2 * k], pts, sizeof pts);
    m->nway += WF_CORNER_POINTS - 1;
    m->bend = k + WF_CORNER_POINTS - 1;
}

/* Before a walk, the motion options (motion.c): look-ahead skips
 * waypoints the unit already sees the one after of (never inside a
 * corner curve); corner_radius rounds the corner ahead; the heading turns
 * towards the next waypoint by at most turn_rate (a unit that must turn
 * further brakes to a stop while it turns); the speed moves towards its
 * target by at most accel, the target being the unit's speed, cut inside
 * arrive_radius of the end in proportion to the distance left (at least a
 * sixteenth of its speed), with accel also to the speed it can still
 * brake from, and 0 while turning. Returns the length to walk this tick.
 * Without the options: the unit's speed, and nothing changes. */
static int64_t travel_of(wf_units *u, const wf_grid *g, int s)
{
    unit *m = &u->units[s];
    const wf_units_config *c = &u->cfg;
    if (m->state == WF_UNIT_ESCAPING)
        return m->speed;
    if (c->lookahead && m->next > m->bend) {
        fit_ctx fc = {u, g, s};
        wf_motion_skip(m->way, m->nway, &m->next, m->x, m->y, unit_fits, &fc);
    }
    round_corner(u, g, s);
    if (!c->accel && !c->turn_rate && !c->arrive_radius)
        return m->speed;
    int turning = 0;
    int k = m->next;   /* the first waypoint not where the unit stands */
    while (k < m->nway && m->way[2 * k] == m->x && m->way[2 * k + 1] == m->y)
        k++;
    if (k < m->nway && c->turn_rate)
        turning = wf_motion_turn(&m->hx, &m->hy, (int64_t)m->way[2 * k] - m->x,
                                 (int64_t)m->way[2 * k + 1] - m->y, c->turn_rate);
    int64_t left = 0;
    if (c->arrive_radius || c->accel)
        left = wf_motion_left(m->way, m->nway, m->next, m->x, m->y);
    int64_t v = wf_motion_speed(m->cur, m->speed, left, c->accel,
                                c->arrive_radius, turning);
    m->cur = (wf_fix)v;
    return v;
}

/* ---------------------------------------------------- avoidance -- */

#define AVOID_MAX WF_AVOID_MAX_NEIGHBOURS

typedef struct near_ctx {
    const wf_units *u;
    int self;
    wf_fix x, y;
    int64_t reach;
    int n;
    int slot[AVOID_MAX];
    int64_t key[AVOID_MAX];     /* Chebyshev gap to the square's edge */
} near_ctx;

/* Keeps the AVOID_MAX nearest, by gap then id: the same set and order
 * whichever order the index meets them in. */
static int near_visit(void *p, int s)
{
    near_ctx *c = p;
    if (s == c->self)
        return 0;
    const wf_units *u = c->u;
    const unit *o = &u->units[s];
    int64_t dx = abs64((int64_t)o->x - c->x), dy = abs64((int64_t)o->y - c->y);
    int64_t d = (dx > dy ? dx : dy) - o->r;
    if (d > c->reach)
        return 0;
    int j = c->n < AVOID_MAX ? c->n : AVOID_MAX;
    while (j > 0 && (c->key[j - 1] > d || (c->key[j - 1] == d
                     && u->units[c->slot[j - 1]].id > o->id)))
        j--;
    if (j == AVOID_MAX)
        return 0;
    int last = c->n < AVOID_MAX ? c->n : AVOID_MAX - 1;
    for (int k = last; k > j; k--) {
        c->slot[k] = c->slot[k - 1];
        c->key[k] = c->key[k - 1];
    }
    c->slot[j] = s;
    c->key[j] = d;
    if (c->n < AVOID_MAX)
        c->n++;
    return 0;
}

static void gather_near(const wf_units *u, int s, int64_t reach, near_ctx *c)
{
    const unit *m = &u->units[s];
    c->u = u;
    c->self = s;
    c->x = m->x;
    c->y = m->y;
    c->reach = reach;
    c->n = 0;
    near_units(u, m->x, m->y, m->x, m->y, reach + u->maxr, near_visit, c);
}

/* The neighbours in c as ORCA reads them for unit m: position, velocity,
 * the sum of both radii, and whether the neighbour shares the avoiding
 * (it walks an order). */
static void orca_others(const wf_units *u, const unit *m, const near_ctx *c,
                        wf_orca_other *nb)
{
    for (int k = 0; k < c->n; k++) {
        const unit *o = &u->units[c->slot[k]];
        nb[k].x = o->x;
        nb[k].y = o->y;
        nb[k].vx = o->vx;
        nb[k].vy = o->vy;
        nb[k].radius = (wf_fix)((int64_t)m->r + o->r);
        nb[k].share = o->has_order && o->state != WF_UNIT_IDLE;
    }
}

/* Moves slot o by (dx, dy) when the swept rule lets it (grid for its class,
 * and every other unit). 1 when it moved. */
static int try_step(wf_units *u, const wf_grid *g, int o, int64_t dx, int64_t dy)
{
    unit *q = &u->units[o];
    int64_t bx = q->x + dx, by = q->y + dy;
    if ((dx == 0 && dy == 0) || bx < 0 || by < 0 || bx >= (int64_t)u->gw * FIX
        || by >= (int64_t)u->gh * FIX)
        return 0;
    if (!in_sight(u, g, o, q->x, q->y, (wf_fix)bx, (wf_fix)by)
        || hits_unit(u, o, (wf_fix)bx, (wf_fix)by))
        return 0;
    place(u, o, (wf_fix)bx, (wf_fix)by);
    q->vx = (wf_fix)dx;
    q->vy = (wf_fix)dy;
    return 1;
}

/* Steps slot o aside from the line of travel (ux, uy) (a Q16.16 unit
 * vector) by its speed: towards the side it already stands on relative to
 * (ax, ay) (the mover's right when on the line), else the other side, else
 * straight ahead; then the same by half and a quarter of its speed. 1
 * when it moved. */
static int step_aside_to(wf_units *u, const wf_grid *g, int o, wf_fix ax,
                         wf_fix ay, int64_t ux, int64_t uy, int ahead)
{
    unit *q = &u->units[o];
    int64_t rx = -uy, ry = ux;                 /* the right, as drawn */
    int64_t side = ((int64_t)q->x - ax) * rx + ((int64_t)q->y - ay) * ry;
    int sg = side < 0 ? -1 : 1;
    for (int64_t sp = q->speed; sp >= q->speed / 4 && sp > 0; sp /= 2) {
        if (try_step(u, g, o, sg * rx * sp / FIX, sg * ry * sp / FIX))
            return 1;
        if (try_step(u, g, o, -sg * rx * sp / FIX, -sg * ry * sp / FIX))
            return 1;
        if (ahead && try_step(u, g, o, ux * sp / FIX, uy * sp / FIX))
            return 1;
    }
    return 0;
}

static int step_aside(wf_units *u, const wf_grid *g, int o, wf_fix ax,
                      wf_fix ay, int64_t ux, int64_t uy)
{
    return step_aside_to(u, g, o, ax, ay, ux, uy, 1);
}

/* ORCA mode: the turn at a one-lane door. A door is a navcell clear for
 * the class whose two neighbours across one axis are not, and the two
 * along it are, each with a clear neighbour across (a gap one navcell
 * wide in a wall one navcell thick; a longer one-lane corridor is not).
 * A unit whose way crosses such a door within DOOR_LOOK of it (along its
 * next two waypoints) takes the turn unless a unit walking the other way
 * through that door (in it or not yet past it, within DOOR_ZONE of it)
 * stands nearer the door (Chebyshev, then the lower id); a unit without
 * the turn stands, or backs off to DOOR_CLEAR from the door, so those
 * coming through can land, and may be chain-pushed like an idle one.
 * DOOR_LOOK is 8 navcells, not 4: with 4, the crowd between 4 and 8
 * navcells out kept walking in and packed the waiting front against the
 * door's mouth, so it could not back off (two crowds of 100 swapping
 * rooms wedged; docs/units.md, "A door's turn").
 * Read afresh from the positions every tick: nothing to save. */
#define DOOR_LOOK (8 * FIX)
#define DOOR_ZONE (6 * FIX)
#define DOOR_CLEAR (5 * FIX / 2)

static int cell_clear(const wf_units *u, const wf_grid *g, int cls, int64_t i,
                      int64_t j)
{
    return i >= 0 && j >= 0 && i < u->gw && j < u->gh
           && point_clear(g, cls, (wf_fix)(i * FIX + FIX / 2),
                          (wf_fix)(j * FIX + FIX / 2));
}

/* the door axis of navcell (i, j): 0 none, 1 crossed along x, 2 along y */
static int door_axis(const wf_units *u, const wf_grid *g, int cls, int64_t i, int64_t j)
{
    if (!cell_clear(u, g, cls, i, j))
        return 0;
    int cx = cell_clear(u, g, cls, i - 1, j) && cell_clear(u, g, cls, i + 1, j);
    int cy = cell_clear(u, g, cls, i, j - 1) && cell_clear(u, g, cls, i, j + 1);
    /* and both mouths open wider (a wall one navcell thick, not a lane) */
    if (cx && !cy && !cell_clear(u, g, cls, i, j - 1) && !cell_clear(u, g, cls, i, j + 1)
        && (cell_clear(u, g, cls, i - 1, j - 1) || cell_clear(u, g, cls, i - 1, j + 1))
        && (cell_clear(u, g, cls, i + 1, j - 1) || cell_clear(u, g, cls, i + 1, j + 1)))
        return 1;
    if (cy && !cx && !cell_clear(u, g, cls, i - 1, j) && !cell_clear(u, g, cls, i + 1, j)
        && (cell_clear(u, g, cls, i - 1, j - 1) || cell_clear(u, g, cls, i + 1, j - 1))
        && (cell_clear(u, g, cls, i - 1, j + 1) || cell_clear(u, g, cls, i + 1, j + 1)))
        return 2;
    return 0;
}

/* The door map (struct wf_units): door_axis of every navcell and class,
 * made once from the grid and brought up to date each tick from the
 * grid's change log (door_axis reads the 3 x 3 navcells round one), so
 * door_waits looks a navcell up instead of testing ten. */
static int door_get(const wf_units *u, int cls, int64_t i, int64_t j)
{
    size_t k = ((size_t)j * (size_t)u->gw + (size_t)i) * (size_t)u->door_bpc
               + (size_t)(cls / 4);
    return (u->doors[k] >> (2 * (cls % 4))) & 3;
}

static void doors_fill(wf_units *u, const wf_grid *g, int x0, int y0, int x1,
                       int y1)
{
    for (int j = y0; j <= y1; j++)
        for (int i = x0; i <= x1; i++)
            for (int cls = 0; cls < u->door_ncls; cls++) {
                int was = door_get(u, cls, i, j), now = door_axis(u, g, cls, i, j);
                size_t k = ((size_t)j * (size_t)u->gw + (size_t)i)
                           * (size_t)u->door_bpc + (size_t)(cls / 4);
                int sh = 2 * (cls % 4);
                u->doors[k] = (uint8_t)((u->doors[k] & ~(3 << sh)) | (now << sh));
                u->door_count[cls] += (uint32_t)(now != 0) - (uint32_t)(was != 0);
            }
}

/* the whole map for grid g; 0 (the map as it was) when out of memory */
static int doors_make(wf_units *u, const wf_grid *g)
{
    int ncls = wf_grid_class_count(g), bpc = (ncls + 3) / 4;
    size_t n = (size_t)u->gw * (size_t)u->gh * (size_t)bpc;
    if (!u->doors || bpc != u->door_bpc) {
        uint8_t *d = calloc(n ? n : 1, 1);
        if (!d)
            return 0;
        free(u->doors);
        u->doors = d;
        u->door_bpc = bpc;
    } else {
        memset(u->doors, 0, n);
    }
    u->door_ncls = ncls;
    memset(u->door_count, 0, sizeof u->door_count);
    doors_fill(u, g, 0, 0, u->gw - 1, u->gh - 1);
    u->door_serial = g->serial;
    u->door_version = g->version;
    return 1;
}

/* at the start of a tick: the map of the grid ticked with, remade where
 * its passability changed (the whole map for another grid, or when the
 * change log no longer reaches back); out of memory, the map stays stale
 * and door_at asks the grid itself */
static void doors_sync(wf_units *u, const wf_grid *g)
{
    if (!u->doors || (g->serial == u->door_serial && g->version == u->door_version))
        return;
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0, ch = 2;
    if (g->serial == u->door_serial && wf_grid_class_count(g) == u->door_ncls)
        ch = wf_grid_changed_since(g, u->door_version, &x0, &y0, &x1, &y1);
    if (ch == 2) {
        doors_make(u, g);
        return;
    }
    if (ch == 1)
        doors_fill(u, g, x0 > 0 ? x0 - 1 : 0, y0 > 0 ? y0 - 1 : 0,
                   x1 < u->gw - 1 ? x1 + 1 : u->gw - 1,
                   y1 < u->gh - 1 ? y1 + 1 : u->gh - 1);
    u->door_version = g->version;
}

static int doors_current(const wf_units *u, const wf_grid *g, int cls)
{
    return u->doors && g->serial == u->door_serial
           && g->version == u->door_version && cls < u->door_ncls;
}

typedef struct door_ctx {
    const wf_units *u;
    int self, axis, dir;        /* dir: the self's sign along the axis */
    int64_t dx, dy;             /* the door's centre */
    int64_t key;                /* self's Chebyshev distance to it */
    int wait;
} door_ctx;

/* the sign along `axis` of slot s's way to its next waypoint, 0 none */
static int way_dir(const unit *o, int axis)
{
    if (!o->has_order || o->state == WF_UNIT_IDLE || o->state == WF_UNIT_PLANNING
        || o->state == WF_UNIT_ESCAPING || o->next >= o->nway)
        return 0;
    int64_t d = axis == 1 ? (int64_t)o->way[2 * o->next] - o->x
                          : (int64_t)o->way[2 * o->next + 1] - o->y;
    return d > 0 ? 1 : d < 0 ? -1 : 0;
}

static int door_visit(void *p, int s)
{
    door_ctx *c = p;
    if (s == c->self || c->wait)
        return c->wait;
    const unit *o = &c->u->units[s];
    if (way_dir(o, c->axis) != -c->dir)
        return 0;
    int64_t ax = (int64_t)o->x - c->dx, ay = (int64_t)o->y - c->dy;
    int64_t along = c->axis == 1 ? ax : ay, across = c->axis == 1 ? ay : ax;
    if (along * c->dir < -FIX / 2 || abs64(along) > DOOR_ZONE
        || abs64(across) > DOOR_ZONE)
        return 0;               /* through already, or not near */
    int64_t key = abs64(ax) > abs64(ay) ? abs64(ax) : abs64(ay);
    if (key < c->key || (key == c->key && o->id < c->u->units[c->self].id))
        c->wait = 1;
    return c->wait;
}

/* 1 when slot s must wait for a door's turn; the door's centre in *ox, *oy */
static int door_waits(const wf_units *u, const wf_grid *g, int s, int64_t *ox,
                      int64_t *oy)
{
    const unit *m = &u->units[s];
    if (!m->has_order || m->state == WF_UNIT_ESCAPING || m->next >= m->nway)
        return 0;
    int map = doors_current(u, g, m->cls);
    if (map && u->door_count[m->cls] == 0)
        return 0;               /* no door for its class anywhere */
    int64_t x = m->x, y = m->y, left = DOOR_LOOK;
    for (int w = m->next; w < m->nway && w < m->next + 2 && left > 0; w++) {
        int64_t tx = m->way[2 * w], ty = m->way[2 * w + 1];
        int64_t d = dist_of(tx - x, ty - y);
        int64_t run = d < left ? d : left;
        for (int64_t t = 0; d > 0 && t <= run; t += FIX / 4) {
            int64_t sx = x + (tx - x) * t / d, sy = y + (ty - y) * t / d;
            int64_t i = floor_cell(sx), j = floor_cell(sy);
            int axis = !map ? door_axis(u, g, m->cls, i, j)
                       : i < 0 || j < 0 || i >= u->gw || j >= u->gh ? 0
                       : door_get(u, m->cls, i, j);
            if (!axis)
                continue;
            door_ctx c;
            c.u = u;
            c.self = s;
            c.axis = axis;
            c.dx = i * FIX + FIX / 2;
            c.dy = j * FIX + FIX / 2;
            int64_t along = axis == 1 ? c.dx - m->x : c.dy - m->y;
            int64_t wd = axis == 1 ? tx - x : ty - y;
            c.dir = wd > 0 ? 1 : wd < 0 ? -1 : 0;
            if (c.dir == 0 || along * c.dir < -FIX / 2)
                return 0;
            int64_t ax = abs64(c.dx - m->x), ay = abs64(c.dy - m->y);
            c.key = ax > ay ? ax : ay;
            c.wait = 0;
            near_units(u, c.dx, c.dy, c.dx, c.dy, DOOR_ZONE + u->maxr,
                       door_visit, &c);
            *ox = c.dx;
            *oy = c.dy;
            return c.wait;
        }
        left -= run;
        x = tx;
        y = ty;
    }
    return 0;
}

/* A unit waiting for a door's turn: the ORCA velocity preferring to stand
 * (or, nearer the door than DOOR_CLEAR, to back off from it at most its
 * speed), tried as it is and slid along the axes. */
static void door_hold(wf_units *u, const wf_grid *g, int s, int64_t dx,
                      int64_t dy)
{
    unit *m = &u->units[s];
    int64_t ax = (int64_t)m->x - dx, ay = (int64_t)m->y - dy;
    int64_t d = dist_of(ax, ay), want = d - DOOR_CLEAR;
    if (want > 0) want = 0;     /* stand, or back off: never press on */
    if (want < -(int64_t)m->speed) want = -(int64_t)m->speed;
    int64_t px = d > 0 ? -ax * want / d : 0, py = d > 0 ? -ay * want / d : 0;
    near_ctx c;
    gather_near(u, s, 2 * (int64_t)m->speed * WF_ORCA_HORIZON + m->r + WF_UNIT_GAP, &c);
    wf_orca_other nb[AVOID_MAX];
    orca_others(u, m, &c, nb);
    wf_fix v[2];
    wf_orca_velocity(m->x, m->y, m->vx, m->vy, (wf_fix)px, (wf_fix)py,
                     m->speed, nb, c.n, WF_ORCA_HORIZON, v);
    if (try_step(u, g, s, v[0], v[1]) || try_step(u, g, s, v[0], 0))
        return;
    if (!try_step(u, g, s, 0, v[1])) {
        m->vx = 0;
        m->vy = 0;
    }
}

/* waiting for a door is not a stall: progress is measured from here */
static void door_rest(unit *m)
{
    int64_t d = dist_of((int64_t)m->way[2 * m->next] - m->x,
                        (int64_t)m->way[2 * m->next + 1] - m->y);
    m->best = (wf_fix)(d > 0 ? d : 1);
    m->stall = 0;
    m->wait = 0;
}

/* ORCA mode: the chain push. An idle unit without an order (or one
 * waiting for a door's turn) asked to step by (dx, dy) whose step meets
 * other such units, or walkers stalled PUSH_STALL ticks or more (at most
 * PUSH_BLOCKERS, taken by id; any other unit stops it) first asks them
 * to step the same way, up to
 * `depth` links down the chain and `*budget` steps in all, then steps
 * itself when the swept rule now lets it. A packed group of arrived units
 * thus opens a lane for a walker instead of standing as a wall. 1 when
 * it moved. */
#define PUSH_BLOCKERS 3
#define PUSH_STALL (2 * WF_UNIT_STALL_TICKS)
#define PUSH_DEPTH 6
#define PUSH_BUDGET 40

typedef struct push_ctx {
    sweep_ctx sw;
    const wf_grid *g;
    int n, walker;
    int slot[PUSH_BLOCKERS];
} push_ctx;

static int push_visit(void *p, int s)
{
    push_ctx *c = p;
    if (!sweep_visit(&c->sw, s))
        return 0;
    const unit *o = &c->sw.u->units[s];
    int64_t ddx, ddy;
    int idle = !o->has_order && o->state == WF_UNIT_IDLE;
    int stalled = !idle && o->stall >= PUSH_STALL;
    if ((!idle && !stalled && !door_waits(c->sw.u, c->g, s, &ddx, &ddy))
        || c->n == PUSH_BLOCKERS) {
        c->walker = 1;          /* not to be pushed, or too many: give up */
        return 1;
    }
    int j = c->n++;
    while (j > 0 && c->sw.u->units[c->slot[j - 1]].id > o->id) {
        c->slot[j] = c->slot[j - 1];
        j--;
    }
    c->slot[j] = s;
    return 0;
}

static int push_step(wf_units *u, const wf_grid *g, int o, int64_t dx,
                     int64_t dy, int depth, int *budget)
{
    if (*budget <= 0)
        return 0;
    (*budget)--;
    if (try_step(u, g, o, dx, dy))
        return 1;
    if (depth == 0)
        return 0;
    const unit *q = &u->units[o];
    int64_t bx = q->x + dx, by = q->y + dy;
    if (bx < 0 || by < 0 || bx >= (int64_t)u->gw * FIX
        || by >= (int64_t)u->gh * FIX
        || !in_sight(u, g, o, q->x, q->y, (wf_fix)bx, (wf_fix)by))
        return 0;
    push_ctx c = {{u, o, q->x, q->y, (wf_fix)bx, (wf_fix)by, q->r}, g, 0, 0, {0}};
    int64_t x0 = q->x < bx ? q->x : bx, x1 = q->x < bx ? bx : q->x;
    int64_t y0 = q->y < by ? q->y : by, y1 = q->y < by ? by : q->y;
    near_units(u, x0, y0, x1, y1, (int64_t)q->r + u->maxr, push_visit, &c);
    if (c.walker || c.n == 0)
        return 0;
    for (int k = 0; k < c.n; k++)
        if (!push_step(u, g, c.slot[k], dx, dy, depth - 1, budget))
            return 0;
    return try_step(u, g, o, dx, dy);
}

/* The chain push of idle slot o out of the way (ux, uy) of a walker at
 * (ax, ay): aside to the side it stands on, else the other side, else
 * ahead, by its speed, then by half of it. */
static int push_aside(wf_units *u, const wf_grid *g, int o, wf_fix ax,
                      wf_fix ay, int64_t ux, int64_t uy)
{
    unit *q = &u->units[o];
    int64_t rx = -uy, ry = ux;
    int64_t side = ((int64_t)q->x - ax) * rx + ((int64_t)q->y - ay) * ry;
    int sg = side < 0 ? -1 : 1;
    int budget = PUSH_BUDGET;
    for (int64_t sp = q->speed; sp >= q->speed / 2 && sp > 0; sp /= 2) {
        int64_t d[3][2] = {{sg * rx * sp / FIX, sg * ry * sp / FIX},
                           {-sg * rx * sp / FIX, -sg * ry * sp / FIX},
                           {ux * sp / FIX, uy * sp / FIX}};
        for (int i = 0; i < 3; i++)
            if (push_step(u, g, o, d[i][0], d[i][1], PUSH_DEPTH, &budget))
                return 1;
    }
    return 0;
}

/* The shove: every idle unit (in ORCA mode also every unit waiting for a
 * door's turn, chain-pushed) among the neighbours whose square, grown by
 * the mover's radius and 1/8, meets the mover's way to its next waypoint
 * (or, when the mover already stands within that margin, whose square
 * grown by the mover's radius alone does: the way is blocked), and whose
 * square is within four of the mover's steps, steps aside (step_aside). */
static void shove(wf_units *u, const wf_grid *g, int s, const near_ctx *c,
                  wf_fix tx, wf_fix ty, int64_t ux, int64_t uy)
{
    unit *m = &u->units[s];
    for (int k = 0; k < c->n; k++) {
        int o = c->slot[k];
        unit *q = &u->units[o];
        int idle = q->state == WF_UNIT_IDLE && !q->has_order;
        if (!idle && u->cfg.avoidance != WF_AVOID_ORCA)
            continue;
        if (c->key[k] > (int64_t)m->r + WF_UNIT_GAP + 4 * (int64_t)m->speed)
            continue;
        int hit = 0;
        wf_sweep_square(m->x, m->y, tx, ty, q->x, q->y,
                        (wf_fix)((int64_t)m->r + q->r + WF_UNIT_GAP), &hit);
        if (!hit)   /* the mover stands inside that margin already */
            wf_sweep_square(m->x, m->y, tx, ty, q->x, q->y,
                            (wf_fix)((int64_t)m->r + q->r), &hit);
        int64_t ddx, ddy;
        if (hit && !idle && !door_waits(u, g, o, &ddx, &ddy))
            continue;   /* ORCA: a walker is pushed only while it waits */
        if (hit && u->cfg.avoidance == WF_AVOID_ORCA)
            push_aside(u, g, o, m->x, m->y, ux, uy);
        else if (hit)
            step_aside(u, g, o, m->x, m->y, ux, uy);
    }
}

/* The ORCA mode's candidates (orca.h): the velocity of the reciprocal
 * half-planes of the neighbours in c, within the travel length `left`,
 * then its slides along the axes. Should the swept rule refuse them all
 * (a wall, a square's corner), orca_rank adds the velocity obstacle's
 * ranking round the preferred velocity (avoid.h). *clear is 1 when the
 * ORCA velocity is the preferred one itself. Returns how many, at most 5. */
static int orca_candidates(const wf_units *u, int s, const near_ctx *c,
                           wf_fix px, wf_fix py, int64_t left,
                           wf_fix *cand, int *clear)
{
    const unit *m = &u->units[s];
    wf_orca_other nb[AVOID_MAX];
    orca_others(u, m, c, nb);
    int n = 0;
    for (int k = 0; k < c->n; k++) {
        const unit *o = &u->units[c->slot[k]];
        if (nb[k].share) {
            /* right of way: a neighbour ahead of this unit that has this
             * unit behind it takes nothing, this unit all */
            int64_t rx = (int64_t)o->x - m->x, ry = (int64_t)o->y - m->y;
            int ahead = rx * px + ry * py > 0, behind = 0;
            if (o->next < o->nway) {
                int64_t ox = (int64_t)o->way[2 * o->next] - o->x;
                int64_t oy = (int64_t)o->way[2 * o->next + 1] - o->y;
                behind = rx * ox + ry * oy > 0;
            }
            if (ahead && behind)
                nb[k].share = 0;
            else if (!ahead && !behind)
                continue;       /* it gives way to this one */
        }
        nb[n++] = nb[k];
    }
    wf_fix v[2];
    wf_orca_velocity(m->x, m->y, m->vx, m->vy, px, py, (wf_fix)left, nb, n,
                     WF_ORCA_HORIZON, v);
    *clear = v[0] == px && v[1] == py;
    /* v, then v and p slid along the axes (the longer part first): what
     * square units packed side by side can still do */
    wf_fix alt[5][2] = {{v[0], v[1]}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
    int ax = abs64(v[0]) >= abs64(v[1]), bx = abs64(px) >= abs64(py);
    alt[1][!ax] = v[!ax];
    alt[2][ax] = v[ax];
    alt[3][!bx] = !bx ? py : px;
    alt[4][bx] = bx ? py : px;
    int k = 0;
    for (int i = 0; i < 5; i++)
        if (alt[i][0] != 0 || alt[i][1] != 0) {
            cand[2 * k] = alt[i][0];
            cand[2 * k + 1] = alt[i][1];
            k++;
        }
    return k;
}

/* The velocity obstacle's ranking (avoid.h) of the ORCA mode, tried after
 * orca_candidates' when the swept rule refused those: computed only then,
 * from the same neighbours (nothing moves in between). Returns how many,
 * at most WF_AVOID_CANDIDATES. */
static int orca_rank(const wf_units *u, int s, const near_ctx *c, wf_fix px,
                     wf_fix py, int horizon, wf_fix *cand)
{
    const unit *m = &u->units[s];
    wf_avoid_other av[AVOID_MAX];
    for (int k = 0; k < c->n; k++) {
        const unit *o = &u->units[c->slot[k]];
        av[k].x = o->x;
        av[k].y = o->y;
        av[k].vx = o->vx;
        av[k].vy = o->vy;
        av[k].half = (wf_fix)((int64_t)m->r + o->r);
    }
    int ignored;
    return wf_avoid_rank(m->x, m->y, px, py, av, c->n, horizon, cand, &ignored);
}

/* The ORCA mode's look past a waypoint: within 2 navcells (Chebyshev) of
 * its next waypoint, a unit that has the one after it in sight (the swept
 * rule for its class) heads for that one instead. Crowds pressing for a
 * door's waypoint leave it to whoever is already through. */
static void orca_skip(wf_units *u, const wf_grid *g, int s)
{
    unit *m = &u->units[s];
    int from = m->next;
    while (m->next + 1 < m->nway
           && abs64((int64_t)m->way[2 * m->next] - m->x) <= 2 * FIX
           && abs64((int64_t)m->way[2 * m->next + 1] - m->y) <= 2 * FIX
           && in_sight(u, g, s, m->x, m->y, m->way[2 * (m->next + 1)],
                       m->way[2 * (m->next + 1) + 1]))
        m->next++;
    /* not progress in itself: the stall count goes on, measured from here */
    if (m->next != from) {
        int64_t d = dist_of((int64_t)m->way[2 * m->next] - m->x,
                            (int64_t)m->way[2 * m->next + 1] - m->y);
        m->best = (wf_fix)(d > 0 ? d : 1);
    }
}

/* The ORCA mode's idle units: one with a unit walking an order within
 * four of its steps takes the ORCA velocity for staying put (preferring
 * zero, all neighbours' half-planes, the walkers' shared), when the swept
 * rule lets it: the continuous form of the shove. */
static void orca_idle(wf_units *u, const wf_grid *g, int s)
{
    unit *m = &u->units[s];
    near_ctx c;
    gather_near(u, s, (int64_t)m->r + WF_UNIT_GAP + 4 * (int64_t)m->speed, &c);
    int walking = 0;
    for (int k = 0; k < c.n; k++)
        walking |= u->units[c.slot[k]].has_order;
    if (!walking)
        return;
    wf_orca_other nb[AVOID_MAX];
    orca_others(u, m, &c, nb);
    wf_fix v[2];
    wf_orca_velocity(m->x, m->y, m->vx, m->vy, 0, 0, m->speed, nb, c.n,
                     WF_ORCA_HORIZON, v);
    try_step(u, g, s, v[0], v[1]);
}

/* The ORCA mode's giving way: every tick of the yield that break_stall
 * set, the unit steps on to its right (else left) of its way, where the
 * sampled mode holds still: ORCA's half-planes would walk it straight
 * back between the ticks. 1 when it moved. */
static int orca_give_way(wf_units *u, const wf_grid *g, int s)
{
    unit *m = &u->units[s];
    if (m->next >= m->nway)
        return 0;
    int64_t dx = (int64_t)m->way[2 * m->next] - m->x;
    int64_t dy = (int64_t)m->way[2 * m->next + 1] - m->y;
    int64_t d = dist_of(dx, dy);
    if (d == 0)
        return 0;
    int64_t ux = dx * FIX / d, uy = dy * FIX / d;
    return step_aside_to(u, g, s, (wf_fix)(m->x - ux), (wf_fix)(m->y - uy), ux,
                         uy, 0);
}

/* One walk with avoidance: the preferred velocity heads for the next
 * waypoint at the travel length; when it meets no neighbour within the
 * horizon the unit walks as without avoidance, else it takes the best
 * ranked candidate whose move the swept rule allows and that keeps the
 * next waypoint in sight. */
static walk_result avoid_walk(wf_units *u, const wf_grid *g, int s,
                              int64_t left, int *moved)
{
    unit *m = &u->units[s];
    *moved = 0;
    if (m->next >= m->nway)
        return WALK_DONE;
    wf_fix tx = m->way[2 * m->next], ty = m->way[2 * m->next + 1];
    int64_t dx = (int64_t)tx - m->x, dy = (int64_t)ty - m->y;
    int64_t dist = dist_of(dx, dy);
    if (dist == 0 || left == 0)
        return walk(u, g, s, left, moved);
    int64_t ux = dx * FIX / dist, uy = dy * FIX / dist;
    /* ORCA looks WF_ORCA_HORIZON ticks ahead: nearer neighbours suffice */
    int64_t reach = 2 * (int64_t)m->speed
                    * (u->cfg.avoidance == WF_AVOID_ORCA ? WF_ORCA_HORIZON
                                                          : WF_AVOID_HORIZON)
                    + m->r + WF_UNIT_GAP;
    if (reach > 16 * FIX)
        reach = 16 * FIX;
    near_ctx c;
    gather_near(u, s, reach, &c);
    if (c.n == 0)
        return walk(u, g, s, left, moved);
    shove(u, g, s, &c, tx, ty, ux, uy);
    wf_avoid_other nb[AVOID_MAX];
    for (int k = 0; k < c.n; k++) {
        const unit *o = &u->units[c.slot[k]];
        nb[k].x = o->x;
        nb[k].y = o->y;
        nb[k].half = (wf_fix)((int64_t)m->r + o->r);
        nb[k].vx = o->vx;
        nb[k].vy = o->vy;
    }
    int64_t sp = dist < left ? dist : left;
    wf_fix px = (wf_fix)(dx * sp / dist), py = (wf_fix)(dy * sp / dist);
    wf_fix cand[2 * (WF_AVOID_CANDIDATES + 5)];
    int clear;
    /* up to the next waypoint: the unit turns there */
    int64_t horizon = dist / (sp > 0 ? sp : 1) + 1;
    if (horizon > WF_AVOID_HORIZON)
        horizon = WF_AVOID_HORIZON;
    int orca = u->cfg.avoidance == WF_AVOID_ORCA;
    /* ORCA: its own candidates first, the ranking only once they fail */
    int nc = orca ? orca_candidates(u, s, &c, px, py, left, cand, &clear)
                  : wf_avoid_rank(m->x, m->y, px, py, nb, c.n, (int)horizon,
                                  cand, &clear);
    int ranked = !orca;
    if (clear) {
        walk_result wr = walk(u, g, s, left, moved);
        /* ORCA's discs are not the units' squares: a corner it missed
         * may stop the walk, and the candidates' slides go round it */
        if (u->cfg.avoidance != WF_AVOID_ORCA || wr != WALK_UNITS || *moved)
            return wr;
    }
    for (int i = 0; i < nc || !ranked; i++) {
        if (i == nc) {
            nc += orca_rank(u, s, &c, px, py, (int)horizon, cand + 2 * nc);
            ranked = 1;
        }
        int64_t vx = cand[2 * i], vy = cand[2 * i + 1];
        if (vx == 0 && vy == 0)
            break;
        int64_t bx = m->x + vx, by = m->y + vy;
        if (bx < 0 || by < 0 || bx >= (int64_t)u->gw * FIX
            || by >= (int64_t)u->gh * FIX)
            continue;
        if (!in_sight(u, g, s, m->x, m->y, (wf_fix)bx, (wf_fix)by)
            || !in_sight(u, g, s, (wf_fix)bx, (wf_fix)by, tx, ty)
            || hits_unit(u, s, (wf_fix)bx, (wf_fix)by))
            continue;
        place(u, s, (wf_fix)bx, (wf_fix)by);
        *moved = 1;
        if (bx == tx && by == ty) {
            m->next++;
            return m->next >= m->nway ? WALK_DONE : WALK_PART;
        }
        /* passing a waypoint off its line: on to the next once in sight */
        if (m->next + 1 < m->nway && dist_of(tx - bx, ty - by) <= left
            && in_sight(u, g, s, (wf_fix)bx, (wf_fix)by, m->way[2 * (m->next + 1)],
                        m->way[2 * (m->next + 1) + 1]))
            m->next++;
        return WALK_PART;
    }
    return WALK_UNITS;
}

/* A stall (WF_UNIT_STALL_TICKS ticks in a row without progress), broken
 * the same way every time: the nearest neighbour (by gap, then id) decides.
 * When it has an order and a lower id, this unit gives way: it steps to
 * its right (else left, else on) and holds still for half a stall period.
 * Otherwise it asks the vertex pathfinder for a way round the units as
 * they stand (detour). */
static int detour(wf_units *u, const wf_grid *g, int s);
static void break_stall(wf_units *u, const wf_grid *g, int s)
{
    unit *m = &u->units[s];
    near_ctx c;
    gather_near(u, s, (int64_t)m->r + WF_UNIT_GAP + 4 * (int64_t)m->speed, &c);
    if (c.n > 0 && m->next < m->nway) {
        const unit *o = &u->units[c.slot[0]];
        if (o->has_order && o->id < m->id) {
            int64_t dx = (int64_t)m->way[2 * m->next] - m->x;
            int64_t dy = (int64_t)m->way[2 * m->next + 1] - m->y;
            int64_t d = dist_of(dx, dy);
            wf_fix ax = m->x, ay = m->y;
            int64_t ux = 0, uy = 0;
            if (d > 0) {
                ux = dx * FIX / d;
                uy = dy * FIX / d;
                ax = (wf_fix)(m->x - ux);
                ay = (wf_fix)(m->y - uy);
            }
            /* aside (right, else left); else back off straight away from
             * it; else on along its way */
            int done = d > 0 && step_aside_to(u, g, s, ax, ay, ux, uy, 0);
            int64_t bx = (int64_t)m->x - o->x, by = (int64_t)m->y - o->y;
            int64_t bd = dist_of(bx, by);
            for (int64_t sp = m->speed; !done && bd > 0 && sp >= m->speed / 2
                 && sp > 0; sp /= 2)
                done = try_step(u, g, s, bx * sp / bd, by * sp / bd);
            if (!done && d > 0)
                step_aside(u, g, s, ax, ay, ux, uy);
            m->yield = WF_UNIT_STALL_TICKS / 2;
            return;
        }
    }
    int saved = m->wait;
    m->wait = 0;
    detour(u, g, s);
    m->wait = saved;
}

static wf_unit_reason reason_of(wf_status st)
{
    switch (st) {
    case WF_GOAL_OUTSIDE: return WF_UNIT_GOAL_OUTSIDE;
    case WF_START_OUTSIDE:
    case WF_START_BLOCKED: return WF_UNIT_STUCK;
    default: return WF_UNIT_UNREACHABLE;
    }
}

static void emit(wf_unit_event *ev, size_t *count, uint32_t id,
                 wf_unit_event_kind kind, wf_unit_reason reason)
{
    ev[*count].id = id;
    ev[*count].kind = kind;
    ev[*count].reason = reason;
    (*count)++;
}

static void fail(wf_units *u, unit *m, wf_unit_reason why, wf_unit_event *ev,
                 size_t *count)
{
    uint32_t id = m->id;
    clear_order(u, m);
    emit(ev, count, id, WF_UNIT_FAILED, why);
}

/* Takes a done request's path as waypoints. */
static wf_status take_path(unit *m, const wf_grid *g, const wf_result *r)
{
    int extra = m->goal.type == WF_GOAL_POINT && !r->prep.rewritten;
    wf_status st = reserve_way(m, r->n + extra);
    if (st != WF_OK)
        return st;
    for (int k = 0; k < r->n; k++) {
        m->way[2 * k] = (wf_fix)(r->x[k] * FIX + FIX / 2);
        m->way[2 * k + 1] = (wf_fix)(r->y[k] * FIX + FIX / 2);
    }
    m->nway = r->n;
    m->bend = -1;
    m->next = 0;
    m->unreachable = r->prep.rewritten;
    if (extra) {
        wf_fix lx = m->way[2 * (r->n - 1)], ly = m->way[2 * (r->n - 1) + 1];
        int hit = 1;
        if (lx != m->goal.x || ly != m->goal.y)
            wf_sweep_grid(g, m->cls, lx, ly, m->goal.x, m->goal.y, &hit, NULL, NULL);
        if (!hit) {
            m->way[2 * r->n] = m->goal.x;
            m->way[2 * r->n + 1] = m->goal.y;
            m->nway++;
        }
    }
    return WF_OK;
}

static wf_status begin_escape(wf_units *u, const wf_grid *g, wf_hier *h,
                              unit *m, int *stuck)
{
    int64_t i = floor_cell(m->x), j = floor_cell(m->y);
    if (i < 0) i = 0;
    if (j < 0) j = 0;
    if (i >= u->gw) i = u->gw - 1;
    if (j >= u->gh) j = u->gh - 1;
    int ox, oy;
    *stuck = 0;
    wf_status st = wf_hier_nearest_passable(h, g, m->cls, (int)i, (int)j, &ox, &oy);
    if (st == WF_NO_PATH) {
        *stuck = 1;
        return WF_OK;
    }
    if (st != WF_OK)
        return st;
    drop_request(u, m);
    m->ex = (wf_fix)(ox * FIX + FIX / 2);
    m->ey = (wf_fix)(oy * FIX + FIX / 2);
    m->state = WF_UNIT_ESCAPING;
    m->nway = m->next = 0;
    m->bend = -1;
    m->wait = 0;
    return WF_OK;
}

typedef struct gather_ctx {
    wf_units *u;
    int self;
    wf_fix r;
    int64_t x0, y0, x1, y1;   /* box the squares must meet */
} gather_ctx;

static int gather_visit(void *p, int s)
{
    gather_ctx *c = p;
    if (s == c->self)
        return 0;
    const unit *o = &c->u->units[s];
    int64_t h = (int64_t)o->r + c->r;
    if (o->x + h < c->x0 || o->x - h > c->x1 || o->y + h < c->y0 || o->y - h > c->y1)
        return 0;
    wf_vertex_square *q = &c->u->sq[c->u->nsq++];
    q->x = o->x;
    q->y = o->y;
    q->half = (wf_fix)h;
    return 0;
}

/* The other units' squares meeting the box of half size range round slot
 * s, grown by its radius, into u->sq (u->nsq of them). */
static void gather_squares(wf_units *u, int s, wf_fix range)
{
    const unit *m = &u->units[s];
    gather_ctx c = {u, s, m->r, (int64_t)m->x - range, (int64_t)m->y - range,
                    (int64_t)m->x + range, (int64_t)m->y + range};
    u->nsq = 0;
    int saved = u->cfg.brute;
    u->cfg.brute = 0;   /* gathering always uses the index */
    near_units(u, c.x0, c.y0, c.x1, c.y1, (int64_t)m->r + u->maxr, gather_visit, &c);
    u->cfg.brute = saved;
}

static wf_status short_path(wf_units *u, const wf_grid *g, int s,
                            const wf_goal *goal, wf_fix range, int brute,
                            int max_expanded, const wf_fix **xy, int *n,
                            int *reached, wf_vertex_stats *stats)
{
    unit *m = &u->units[s];
    gather_squares(u, s, range);
    wf_vertex_query q;
    q.cls = m->cls;
    q.x = m->x;
    q.y = m->y;
    q.goal = *goal;
    q.range = range;
    q.brute = brute;
    q.max_expanded = max_expanded;
    return wf_vertex_find(u->vx, g, &q, u->sq, u->nsq, xy, n, reached, stats);
}

wf_status wf_units_short_path(wf_units *u, const wf_grid *g, uint32_t id,
                              const wf_goal *goal, wf_fix range, int brute,
                              const wf_fix **xy, int *n, int *reached,
                              wf_vertex_stats *stats)
{
    int s = slot_of(u, id);
    if (s == NONE)
        return WF_ERR_NOTFOUND;
    if (!g || wf_grid_width(g) != u->gw || wf_grid_height(g) != u->gh)
        return WF_ERR_ARG;
    return short_path(u, g, s, goal, range, brute, 0, xy, n, reached, stats);
}

wf_status wf_units_vertex_edges(wf_units *u, const wf_grid *g, uint32_t id,
                                wf_fix range, wf_vertex_edge_fn visit,
                                void *ctx)
{
    int s = slot_of(u, id);
    if (s == NONE)
        return WF_ERR_NOTFOUND;
    if (!g || wf_grid_width(g) != u->gw || wf_grid_height(g) != u->gh
        || range <= 0 || range > WF_VERTEX_MAX_RANGE)
        return WF_ERR_ARG;
    const unit *m = &u->units[s];
    gather_squares(u, s, range);
    wf_vertex_query q;
    memset(&q, 0, sizeof q);
    q.cls = m->cls;
    q.x = m->x;
    q.y = m->y;
    q.range = range;
    return wf_vertex_edges(g, &q, u->sq, u->nsq, visit, ctx);
}

/* A way round the unit in front of slot s: the vertex path to the last
 * waypoint of its path inside the box (the waypoints before it are
 * replaced), or when that cannot be reached the part towards it. Tried on
 * the first tick a unit is blocked and every fourth tick it waits. 1 when
 * it found a way. */
static int detour(wf_units *u, const wf_grid *g, int s)
{
    unit *m = &u->units[s];
    if (u->cfg.short_range == 0 || m->state == WF_UNIT_ESCAPING
        || m->next >= m->nway || m->wait % 4 != 0)
        return 0;
    int64_t range = (int64_t)u->cfg.short_range * FIX;
    const wf_fix *xy;
    int n, reached;
    if (m->goal.type != WF_GOAL_POINT && !m->goal.inverted) {
        /* near a circle or square goal: straight for it, round the unit */
        wf_status st = short_path(u, g, s, &m->goal, (wf_fix)range, 0,
                                  DETOUR_EXPANSIONS, &xy, &n, &reached, NULL);
        /* its points replace the rest of the path (the passed waypoints
         * stay in place: wf_units_waypoints reads as one list) */
        if (st == WF_OK && reached && n >= 2
            && reserve_way(m, m->next + n - 1) == WF_OK) {
            memcpy(m->way + 2 * m->next, xy + 2, (size_t)(n - 1) * 2 * sizeof *xy);
            m->nway = m->next + n - 1;
            m->bend = -1;
            return 1;
        }
    }
    int k = m->next;
    while (k + 1 < m->nway && abs64((int64_t)m->way[2 * (k + 1)] - m->x) <= range
           && abs64((int64_t)m->way[2 * (k + 1) + 1] - m->y) <= range)
        k++;
    wf_goal goal;
    wf_goal_point(&goal, m->way[2 * k], m->way[2 * k + 1]);
    wf_status st = short_path(u, g, s, &goal, (wf_fix)range, 0,
                              DETOUR_EXPANSIONS, &xy, &n, &reached, NULL);
    if (st != WF_OK || n < 2)
        return 0;
    /* the detour's inner points replace waypoints [next, k) when it
     * reached way[k]; otherwise they all go in front of way[next] */
    int add = reached ? n - 2 : n - 1;
    int drop = reached ? k - m->next : 0;
    if (add == 0 && drop == 0)
        return 0;
    if (add > drop && reserve_way(m, m->nway + add - drop) != WF_OK)
        return 0;
    memmove(m->way + 2 * (m->next + add), m->way + 2 * (m->next + drop),
            (size_t)(m->nway - m->next - drop) * 2 * sizeof *m->way);
    memcpy(m->way + 2 * m->next, xy + 2, (size_t)add * 2 * sizeof *xy);
    m->nway += add - drop;
    /* a corner curve ahead moves with the waypoints after the replaced
     * ones; one whose last point was replaced is gone */
    if (m->bend >= m->next)
        m->bend = m->bend >= m->next + drop ? m->bend + add - drop : -1;
    return 1;
}

/* An inverted goal's path: the vertex pathfinder's, in a box of
 * short_range navcells (8 when that is 0). */
static wf_status plan_inverted(wf_units *u, const wf_grid *g, int s)
{
    unit *m = &u->units[s];
    int64_t range = (u->cfg.short_range > 0 ? u->cfg.short_range : 8) * FIX;
    /* a box that holds the way out: the nearest point outside, and room */
    if (wf_goal_point_inside(&m->goal, m->x, m->y) == 0) {
        int64_t need = 0;
        wf_goal probe = m->goal;
        probe.inverted = 0;
        /* the farthest the shape reaches from the unit bounds the way out */
        int64_t ext = probe.type == WF_GOAL_CIRCLE ? probe.r
                      : (int64_t)probe.hw + probe.hh;
        need = abs64((int64_t)m->x - probe.x) + abs64((int64_t)m->y - probe.y)
               + ext + 2 * FIX;
        if (need > range)
            range = need;
    }
    if (range > WF_VERTEX_MAX_RANGE)
        range = WF_VERTEX_MAX_RANGE;
    const wf_fix *xy;
    int n, reached;
    wf_status st = short_path(u, g, s, &m->goal, (wf_fix)range, 0,
                              DETOUR_EXPANSIONS, &xy, &n, &reached, NULL);
    if (st == WF_START_BLOCKED)
        return WF_OK;                 /* the escape comes first next tick */
    if (st != WF_OK)
        return st;
    st = reserve_way(m, n);
    if (st != WF_OK)
        return st;
    memcpy(m->way, xy, (size_t)n * 2 * sizeof *xy);
    m->nway = n;
    m->next = 0;
    m->bend = -1;
    m->unreachable = !reached;
    m->state = WF_UNIT_MOVING;
    return WF_OK;
}

/* The goal-taken rule (avoidance only): a unit walking the last leg of
 * its path to a point goal, stalled for WF_UNIT_STALL_TICKS ticks, within
 * GOAL_NEAR (Chebyshev) of its goal, whose goal point lies in the square
 * of an arrived unit (idle, no order, its last path walked to the end)
 * grown by the mover's radius (no unit of its size can stand there while
 * that one stays), arrives where it stands. 1 when it does. */
#define GOAL_NEAR (2 * FIX)
typedef struct taken_ctx {
    const wf_units *u;
    int self;
    wf_fix gx, gy, r;
} taken_ctx;

static int taken_visit(void *p, int s)
{
    taken_ctx *c = p;
    const unit *o = &c->u->units[s];
    if (s == c->self || o->state != WF_UNIT_IDLE || o->has_order
        || o->nway == 0 || o->next < o->nway)
        return 0;
    int64_t h = (int64_t)o->r + c->r;
    return abs64((int64_t)c->gx - o->x) <= h && abs64((int64_t)c->gy - o->y) <= h;
}

static int goal_taken(const wf_units *u, int s)
{
    const unit *m = &u->units[s];
    if (m->stall < WF_UNIT_STALL_TICKS || m->goal.type != WF_GOAL_POINT
        || m->goal.inverted || m->unreachable || m->nway == 0
        || m->next != m->nway - 1)
        return 0;
    wf_fix gx = m->way[2 * (m->nway - 1)], gy = m->way[2 * (m->nway - 1) + 1];
    if (gx != m->goal.x || gy != m->goal.y
        || abs64((int64_t)gx - m->x) > GOAL_NEAR
        || abs64((int64_t)gy - m->y) > GOAL_NEAR)
        return 0;
    taken_ctx c = {u, s, gx, gy, m->r};
    return near_units(u, gx, gy, gx, gy, (int64_t)m->r + u->maxr, taken_visit,
                      &c);
}

/* With avoidance, after the walk: progress is a new waypoint, or coming
 * at least an eighth of its speed nearer the next than ever since it was
 * set. Without progress the unit counts a stall tick (also its wait); it
 * waits when it did not move ("blocked" event the first such tick); its
 * order fails with "blocked" after more than max_wait ticks without
 * progress; every WF_UNIT_STALL_TICKS of them break_stall runs. */
static wf_status avoid_progress(wf_units *u, const wf_grid *g, int s,
                                int prev_next, int moved, wf_unit_event *ev,
                                size_t *count)
{
    unit *m = &u->units[s];
    int64_t d = 0;
    if (m->next < m->nway)
        d = dist_of((int64_t)m->way[2 * m->next] - m->x,
                    (int64_t)m->way[2 * m->next + 1] - m->y);
    int64_t thr = m->speed / 8 > 0 ? m->speed / 8 : 1;
    if (m->next != prev_next || m->best == 0 || d + thr <= m->best) {
        m->best = (wf_fix)(d > 0 ? d : 1);
        m->stall = 0;
        m->wait = 0;
        if (m->state == WF_UNIT_WAITING)
            m->state = WF_UNIT_MOVING;
        return WF_OK;
    }
    m->stall++;
    m->wait = m->stall;
    if (goal_taken(u, s)) {
        uint32_t id = m->id;
        m->next = m->nway;            /* its path is done, as on arrival */
        clear_order(u, m);
        emit(ev, count, id, WF_UNIT_ARRIVED, WF_UNIT_GOAL_TAKEN);
        return WF_OK;
    }
    if (m->wait > u->cfg.max_wait) {
        fail(u, m, WF_UNIT_BLOCKED, ev, count);
        return WF_OK;
    }
    if (!moved && m->state != WF_UNIT_WAITING) {
        m->state = WF_UNIT_WAITING;
        emit(ev, count, m->id, WF_UNIT_BLOCKED_EV, WF_UNIT_BLOCKED);
    } else if (moved && m->state == WF_UNIT_WAITING) {
        m->state = WF_UNIT_MOVING;
    }
    if (m->stall % WF_UNIT_STALL_TICKS == 0)
        break_stall(u, g, s);
    return WF_OK;
}

static wf_status unit_turn(wf_units *u, const wf_grid *g, wf_hier *h, int s,
                           wf_unit_event *ev, size_t *count)
{
    unit *m = &u->units[s];
    if (m->has_order && ++m->order_ticks > u->cfg.max_order_ticks) {
        fail(u, m, WF_UNIT_TIMEOUT, ev, count);
        return WF_OK;
    }
    wf_status st;
    if (m->state != WF_UNIT_ESCAPING && !point_clear(g, m->cls, m->x, m->y)) {
        int stuck;
        st = begin_escape(u, g, h, m, &stuck);
        if (st != WF_OK)
            return st;
        if (stuck) {
            if (m->has_order)
                fail(u, m, WF_UNIT_STUCK, ev, count);
            return WF_OK;
        }
    }
    if (m->state == WF_UNIT_PLANNING && m->goal.inverted) {
        st = plan_inverted(u, g, s);
        if (st == WF_NO_PATH) {
            fail(u, m, WF_UNIT_UNREACHABLE, ev, count);
            return WF_OK;
        }
        if (st != WF_OK)
            return st;
    }
    if (m->state == WF_UNIT_PLANNING) {
        wf_req_state rs;
        if (wf_queue_state(u->q, m->handle, &rs) != WF_OK || rs == WF_REQ_PENDING)
            return WF_OK;
        wf_result r;
        wf_queue_result(u->q, m->handle, &r);
        if (r.status != WF_OK) {
            wf_queue_release(u->q, m->handle);
            m->handle = 0;
            fail(u, m, reason_of(r.status), ev, count);
            return WF_OK;
        }
        st = take_path(m, g, &r);
        wf_queue_release(u->q, m->handle);
        m->handle = 0;
        m->plan_seq = 0;
        if (st != WF_OK)
            return st;
        m->state = WF_UNIT_MOVING;
    }
    if (m->state == WF_UNIT_IDLE && !m->has_order
        && u->cfg.avoidance == WF_AVOID_ORCA)
        orca_idle(u, g, s);
    if (m->state == WF_UNIT_IDLE || m->state == WF_UNIT_PLANNING)
        return WF_OK;
    int avoiding = u->cfg.avoidance && m->state != WF_UNIT_ESCAPING;
    if (avoiding && u->cfg.avoidance == WF_AVOID_ORCA && m->yield == 0) {
        int64_t ddx, ddy;
        if (door_waits(u, g, s, &ddx, &ddy)) {
            door_hold(u, g, s, ddx, ddy);
            door_rest(m);
            return WF_OK;
        }
        orca_skip(u, g, s);
    }
    int moved, prev_next = m->next;
    int64_t left = travel_of(u, g, s);
    walk_result w;
    if (!avoiding) {
        w = walk(u, g, s, left, &moved);
        if (w == WALK_UNITS && !moved && detour(u, g, s))
            w = walk(u, g, s, left, &moved);
    } else if (m->yield > 0) {
        m->yield--;
        moved = u->cfg.avoidance == WF_AVOID_ORCA && orca_give_way(u, g, s);
        w = WALK_PART;
    } else {
        w = avoid_walk(u, g, s, left, &moved);
        if (w == WALK_UNITS && !moved && detour(u, g, s))
            w = avoid_walk(u, g, s, left, &moved);
    }
    if (w == WALK_UNITS && !moved)
        m->cur = 0;                     /* stopped by a unit */
    /* a circle or square goal is reached once the unit stands in it */
    if (m->state != WF_UNIT_ESCAPING && m->goal.type != WF_GOAL_POINT
        && !m->goal.inverted && wf_goal_point_inside(&m->goal, m->x, m->y))
        w = WALK_DONE;
    if (w == WALK_DONE) {
        if (m->state == WF_UNIT_ESCAPING) {
            m->state = WF_UNIT_IDLE;
            if (m->has_order)
                return submit(u, m);
            return WF_OK;
        }
        uint32_t id = m->id;
        int unreachable = m->unreachable;
        clear_order(u, m);
        emit(ev, count, id, unreachable ? WF_UNIT_FAILED : WF_UNIT_ARRIVED,
             unreachable ? WF_UNIT_UNREACHABLE : WF_UNIT_FINE);
        return WF_OK;
    }
    if (w == WALK_GRID)                 /* the grid changed: plan again */
        return submit(u, m);
    if (avoiding)
        return avoid_progress(u, g, s, prev_next, moved, ev, count);
    if (w == WALK_UNITS && !moved) {
        m->wait++;
        if (m->wait > u->cfg.max_wait) {
            fail(u, m, WF_UNIT_BLOCKED, ev, count);
            return WF_OK;
        }
        if (m->state != WF_UNIT_ESCAPING)
            m->state = WF_UNIT_WAITING;
        if (m->wait == 1)
            emit(ev, count, m->id, WF_UNIT_BLOCKED_EV, WF_UNIT_BLOCKED);
        return WF_OK;
    }
    m->wait = 0;
    if (m->state == WF_UNIT_WAITING)
        m->state = WF_UNIT_MOVING;
    return WF_OK;
}

wf_status wf_units_tick(wf_units *u, const wf_grid *g, wf_hier *h,
                        wf_unit_event *events, size_t cap, size_t *count)
{
    *count = 0;
    if (!g || !h || wf_grid_width(g) != u->gw || wf_grid_height(g) != u->gh
        || cap < u->n)
        return WF_ERR_ARG;
    doors_sync(u, g);
    uint64_t budget = u->cfg.budget + u->backlog;
    uint64_t used;
    uint32_t served;
    wf_status st = wf_queue_run(u->q, g, h, budget, &used, &served);
    if (st != WF_OK)
        return st;
    u->backlog = 0;
    /* what the oldest pending request has spent: see wf_units_clock */
    uint64_t done_cost = 0;
    for (size_t k = 0; k < u->n; k++) {
        const unit *m = &u->units[u->order[k]];
        wf_req_state rs;
        if (m->handle && wf_queue_state(u->q, m->handle, &rs) == WF_OK
            && rs != WF_REQ_PENDING) {
            wf_result r;
            if (wf_queue_result(u->q, m->handle, &r) == WF_OK)
                done_cost += r.expanded;
        }
    }
    u->head_spent = u->head_spent + used - done_cost;
    u->ticks++;
    for (size_t k = 0; k < u->n; k++) {
        unit *m = &u->units[u->order[k]];
        wf_fix x0 = m->x, y0 = m->y;
        st = unit_turn(u, g, h, (int)u->order[k], events, count);
        if (st != WF_OK)
            return st;
        m->vx = (wf_fix)((int64_t)m->x - x0);
        m->vy = (wf_fix)((int64_t)m->y - y0);
    }
    return WF_OK;
}

/* ------------------------------------------------------- save / load -- */

void wf_units_get_clock(const wf_units *u, wf_units_clock *out)
{
    out->next_id = u->next_id;
    out->ticks = u->ticks;
    out->next_seq = u->next_seq;
    out->head_spent = u->head_spent;
}

wf_status wf_units_restore(wf_units *u, const wf_grid *g,
                           const wf_unit_info *in, const wf_fix *xy, int n)
{
    int64_t wx = (int64_t)u->gw * FIX, wy = (int64_t)u->gh * FIX;
    if (in->id == 0 || in->id == UINT32_MAX || slot_of(u, in->id) != NONE
        || in->cls < 0 || in->cls >= wf_grid_class_count(g)
        || !radius_ok(in->radius) || in->speed <= 0
        || in->speed > WF_UNIT_MAX_SPEED || in->x < 0 || in->y < 0
        || in->x >= wx || in->y >= wy || (int)in->state < 0
        || in->state > WF_UNIT_ESCAPING || n < 0 || n != in->nway
        || in->next < 0 || in->next > n || in->wait < 0 || in->order_ticks < 0
        || (in->has_order != 0 && in->has_order != 1)
        || (in->has_order && !goal_ok(&in->goal))
        || (in->state == WF_UNIT_PLANNING
            && (!in->has_order || (in->plan_seq == 0) != (in->goal.inverted != 0)))
        || (in->state != WF_UNIT_PLANNING && in->plan_seq != 0)
        || ((in->state == WF_UNIT_MOVING || in->state == WF_UNIT_WAITING)
            && (!in->has_order || n == 0))
        || (in->state == WF_UNIT_ESCAPING
            && (in->ex < 0 || in->ey < 0 || in->ex >= wx || in->ey >= wy)))
        return WF_ERR_ARG;
    for (int k = 0; k < 2 * n; k++)
        if (xy[k] < 0 || xy[k] >= (k % 2 ? wy : wx))
            return WF_ERR_ARG;
    unit m;
    memset(&m, 0, sizeof m);
    m.id = in->id;
    m.cls = in->cls;
    m.x = in->x;
    m.y = in->y;
    m.r = in->radius;
    m.speed = in->speed;
    m.state = in->state;
    m.has_order = in->has_order;
    if (m.has_order)
        m.goal = in->goal;
    m.wait = in->wait;
    m.order_ticks = in->order_ticks;
    m.unreachable = in->unreachable != 0;
    m.plan_seq = in->plan_seq;
    m.ex = in->ex;
    m.ey = in->ey;
    if (abs64(in->vx) > 2 * (int64_t)WF_UNIT_MAX_SPEED
        || abs64(in->vy) > 2 * (int64_t)WF_UNIT_MAX_SPEED || in->cur < 0
        || in->cur > in->speed || abs64(in->hx) > FIX || abs64(in->hy) > FIX
        /* a unit vector, give or take rounding: a short one turned by
           turn_rate rounds to length 0, which travel_of divides by */
        || dist_of(in->hx, in->hy) < FIX / 2 || in->best < 0 || in->stall < 0
        || in->yield < 0 || in->yield > WF_UNIT_STALL_TICKS || in->bend < -1
        || in->bend > n)
        return WF_ERR_ARG;
    m.vx = in->vx;
    m.vy = in->vy;
    m.cur = in->cur;
    m.hx = in->hx;
    m.hy = in->hy;
    m.best = in->best;
    m.stall = in->stall;
    m.yield = in->yield;
    if (reserve_way(&m, n) != WF_OK)
        return WF_ERR_NOMEM;
    if (n)
        memcpy(m.way, xy, (size_t)n * 2 * sizeof *xy);
    m.nway = n;
    m.next = in->next;
    m.bend = in->bend;
    int s;
    wf_status st = insert(u, &m, &s);
    if (st != WF_OK)
        free(m.way);
    return st;
}

static int by_seq(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

wf_status wf_units_set_clock(wf_units *u, const wf_units_clock *c)
{
    if (c->next_id == 0 || c->next_seq == 0)
        return WF_ERR_ARG;
    uint64_t *keys = malloc((u->n ? u->n : 1) * sizeof *keys);
    if (!keys)
        return WF_ERR_NOMEM;
    size_t nk = 0;
    for (size_t k = 0; k < u->n; k++) {
        const unit *m = &u->units[u->order[k]];
        if (m->id >= c->next_id || m->plan_seq >= c->next_seq || m->handle) {
            free(keys);
            return WF_ERR_ARG;
        }
        if (m->state == WF_UNIT_PLANNING && m->plan_seq)
            keys[nk++] = m->plan_seq << 20 | (uint64_t)u->order[k];
    }
    qsort(keys, nk, sizeof *keys, by_seq);
    for (size_t k = 1; k < nk; k++)
        if (keys[k] >> 20 == keys[k - 1] >> 20) {
            free(keys);
            return WF_ERR_ARG;
        }
    u->next_id = c->next_id;
    u->ticks = c->ticks;
    u->backlog = c->head_spent;
    u->head_spent = 0;
    wf_status st = WF_OK;
    for (size_t k = 0; k < nk && st == WF_OK; k++) {
        unit *m = &u->units[keys[k] & ((1u << 20) - 1)];
        uint64_t seq = m->plan_seq;
        st = submit(u, m);
        m->plan_seq = seq;
    }
    u->next_seq = c->next_seq;
    free(keys);
    return st;
}
