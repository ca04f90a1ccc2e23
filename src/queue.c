/* queue.c - a time-sliced path request queue: requests are served one at a
 * time in submission order under a budget of node expansions per call, so a
 * game can give pathfinding a fixed slice of every tick. The request in
 * progress is always resumed first; requests for a shared goal are served
 * from one distance field. */
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

#define NONE UINT32_MAX

typedef struct qslot {
    uint32_t gen;             /* bumped at release: stale handles miss */
    uint8_t used;
    uint8_t state;            /* wf_req_state */
    wf_request rq;
    wf_result res;
    int32_t *px, *py;         /* result waypoints (res.x, res.y) */
    uint32_t prev, next;      /* FIFO links while pending; free list */
} qslot;

typedef struct qfield {
    wf_field *f;
    int in_use;               /* key below is meaningful */
    int cls;
    wf_goal key;
    uint64_t last_used;       /* least recently used goes first */
} qfield;

enum { JOB_NONE = 0, JOB_SEARCH = 1, JOB_FIELD = 2 };

struct wf_queue {
    size_t ncells;
    wf_search *s;
    qslot *slots;
    uint32_t nslots, cap;
    uint32_t free_head;
    uint32_t head, tail, npending;
    /* the job in progress, always for the head request */
    int job;
    uint64_t job_version;     /* grid version it started on */
    uint64_t job_spent;       /* expansions spent on the head request */
    wf_prepared job_prep;
    wf_query job_query;       /* the prepared query */
    int job_field;            /* JOB_FIELD: index in fields */
    qfield *fields;
    int max_fields;
    uint64_t clock;
};

wf_status wf_queue_create(wf_queue **out, const wf_grid *g, int max_fields)
{
    *out = NULL;
    if (max_fields < 1 || max_fields > 1024)
        return WF_ERR_ARG;
    wf_queue *q = calloc(1, sizeof *q);
    if (!q)
        return WF_ERR_NOMEM;
    q->ncells = (size_t)g->w * (size_t)g->h;
    q->free_head = q->head = q->tail = NONE;
    q->max_fields = max_fields;
    q->fields = calloc((size_t)max_fields, sizeof *q->fields);
    wf_status st = q->fields ? wf_search_create(&q->s, g) : WF_ERR_NOMEM;
    if (st != WF_OK) {
        wf_queue_destroy(q);
        return st;
    }
    *out = q;
    return WF_OK;
}

void wf_queue_destroy(wf_queue *q)
{
    if (!q)
        return;
    for (uint32_t i = 0; i < q->nslots; i++) {
        free(q->slots[i].px);
        free(q->slots[i].py);
    }
    free(q->slots);
    if (q->fields)
        for (int i = 0; i < q->max_fields; i++)
            wf_field_destroy(q->fields[i].f);
    free(q->fields);
    wf_search_destroy(q->s);
    free(q);
}

size_t wf_queue_memory(const wf_queue *q)
{
    size_t m = sizeof *q + (size_t)q->cap * sizeof *q->slots
               + (size_t)q->max_fields * sizeof *q->fields
               + wf_search_memory(q->s);
    for (uint32_t i = 0; i < q->nslots; i++)
        if (q->slots[i].used && q->slots[i].px)
            m += 2 * (size_t)q->slots[i].res.n * sizeof(int32_t);
    for (int i = 0; i < q->max_fields; i++)
        if (q->fields[i].f)
            m += wf_field_memory(q->fields[i].f);
    return m;
}

uint32_t wf_queue_pending(const wf_queue *q) { return q->npending; }

/* ------------------------------------------------------------ handles -- */

static qslot *lookup(const wf_queue *q, uint64_t handle)
{
    uint32_t i = (uint32_t)(handle & 0xffffffffu);
    uint32_t gen = (uint32_t)(handle >> 32);
    if (i >= q->nslots || !q->slots[i].used || q->slots[i].gen != gen)
        return NULL;
    return &q->slots[i];
}

static void fifo_unlink(wf_queue *q, uint32_t i)
{
    qslot *s = &q->slots[i];
    if (s->prev != NONE)
        q->slots[s->prev].next = s->next;
    else
        q->head = s->next;
    if (s->next != NONE)
        q->slots[s->next].prev = s->prev;
    else
        q->tail = s->prev;
    s->prev = s->next = NONE;
    q->npending--;
}

static void abort_job(wf_queue *q)
{
    if (q->job == JOB_SEARCH)
        wf_search_cancel(q->s);
    if (q->job == JOB_FIELD)
        q->fields[q->job_field].in_use = 0;   /* half-computed: forget it */
    q->job = JOB_NONE;
    q->job_spent = 0;
}

wf_status wf_queue_submit(wf_queue *q, const wf_request *rq, uint64_t *handle)
{
    if (rq->q.cls < 0 || (rq->flags & ~(WF_PREP_ESCAPE | WF_PREP_REWRITE
                                        | WF_REQ_PARTIAL | WF_REQ_SHARED)))
        return WF_ERR_ARG;
    uint32_t i = q->free_head;
    if (i == NONE) {
        if (q->nslots == q->cap) {
            if (q->cap >= 0x7fffffffu)
                return WF_ERR_FULL;
            uint32_t cap = q->cap ? q->cap * 2 : 64;
            qslot *n = realloc(q->slots, (size_t)cap * sizeof *n);
            if (!n)
                return WF_ERR_NOMEM;
            q->slots = n;
            q->cap = cap;
        }
        i = q->nslots++;
        memset(&q->slots[i], 0, sizeof q->slots[i]);
        q->slots[i].gen = 1;
    } else {
        q->free_head = q->slots[i].next;
    }
    qslot *s = &q->slots[i];
    s->used = 1;
    s->state = WF_REQ_PENDING;
    s->rq = *rq;
    memset(&s->res, 0, sizeof s->res);
    s->px = s->py = NULL;
    s->next = NONE;
    s->prev = q->tail;
    if (q->tail != NONE)
        q->slots[q->tail].next = i;
    else
        q->head = i;
    q->tail = i;
    q->npending++;
    *handle = ((uint64_t)s->gen << 32) | i;
    return WF_OK;
}

wf_status wf_queue_state(const wf_queue *q, uint64_t handle,
                         wf_req_state *state)
{
    const qslot *s = lookup(q, handle);
    if (!s)
        return WF_ERR_NOTFOUND;
    *state = (wf_req_state)s->state;
    return WF_OK;
}

wf_status wf_queue_result(const wf_queue *q, uint64_t handle, wf_result *out)
{
    const qslot *s = lookup(q, handle);
    if (!s)
        return WF_ERR_NOTFOUND;
    if (s->state != WF_REQ_DONE && s->state != WF_REQ_FAILED)
        return WF_ERR_ARG;
    *out = s->res;
    return WF_OK;
}

wf_status wf_queue_cancel(wf_queue *q, uint64_t handle, int *was_pending)
{
    qslot *s = lookup(q, handle);
    *was_pending = 0;
    if (!s)
        return WF_ERR_NOTFOUND;
    if (s->state != WF_REQ_PENDING)
        return WF_OK;
    uint32_t i = (uint32_t)(s - q->slots);
    if (i == q->head && q->job != JOB_NONE)
        abort_job(q);
    fifo_unlink(q, i);
    s->state = WF_REQ_CANCELLED;
    *was_pending = 1;
    return WF_OK;
}

wf_status wf_queue_release(wf_queue *q, uint64_t handle)
{
    int was;
    wf_status st = wf_queue_cancel(q, handle, &was);
    if (st != WF_OK)
        return st;
    qslot *s = lookup(q, handle);
    free(s->px);
    free(s->py);
    s->px = s->py = NULL;
    s->used = 0;
    s->gen = s->gen == UINT32_MAX ? 1 : s->gen + 1;
    s->next = q->free_head;
    q->free_head = (uint32_t)(s - q->slots);
    return WF_OK;
}

/* ------------------------------------------------------------ serving -- */

/* Stores a finished outcome in slot i and takes it off the FIFO. */
static wf_status complete(wf_queue *q, uint32_t i, wf_status outcome,
                          unsigned details, const wf_path *p,
                          const wf_prepared *prep, uint64_t expanded,
                          int shared, uint32_t *served)
{
    qslot *s = &q->slots[i];
    wf_result *r = &s->res;
    memset(r, 0, sizeof *r);
    r->status = outcome;
    r->details = details;
    r->expanded = expanded;
    r->shared = shared;
    r->prep = *prep;
    if (p)
        r->algorithm = p->algorithm;
    if (outcome == WF_OK) {
        free(s->px);
        free(s->py);
        s->px = s->py = NULL;
        int extra = prep->escaped ? 1 : 0;
        size_t n = (size_t)p->n + (size_t)extra;
        int32_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
        if (!x || !y) {
            free(x);
            free(y);
            if (q->head == i)
                abort_job(q);       /* the next run starts it over */
            return WF_ERR_NOMEM;
        }
        if (extra) {
            x[0] = prep->ox;
            y[0] = prep->oy;
            int32_t ex[2] = {prep->ox, prep->ex}, ey[2] = {prep->oy, prep->ey};
            r->escape_length = wf_polyline_length(ex, ey, 2);
        }
        memcpy(x + extra, p->x, (size_t)p->n * sizeof *x);
        memcpy(y + extra, p->y, (size_t)p->n * sizeof *y);
        s->px = x;
        s->py = y;
        r->n = (int)n;
        r->x = x;
        r->y = y;
        r->cost = p->cost;
    }
    s->state = outcome == WF_OK ? WF_REQ_DONE : WF_REQ_FAILED;
    if (q->head == i) {
        q->job = JOB_NONE;
        q->job_spent = 0;
    }
    fifo_unlink(q, i);
    (*served)++;
    return WF_OK;
}

/* The key a shared request's field is stored under: point goals by their
 * navcell (the field's sources), shapes exactly. */
static void field_key(const wf_query *qq, wf_goal *key)
{
    *key = qq->goal;
    if (key->type == WF_GOAL_POINT) {
        int64_t fx = qq->goal.x, fy = qq->goal.y;
        int64_t cx = (fx >= 0 ? fx / WF_FIX_ONE : -((-fx + WF_FIX_ONE - 1) / WF_FIX_ONE));
        int64_t cy = (fy >= 0 ? fy / WF_FIX_ONE : -((-fy + WF_FIX_ONE - 1) / WF_FIX_ONE));
        wf_goal_point(key, (wf_fix)(cx * WF_FIX_ONE + WF_FIX_HALF),
                      (wf_fix)(cy * WF_FIX_ONE + WF_FIX_HALF));
    }
}

static int same_key(const wf_goal *a, const wf_goal *b)
{
    return a->type == b->type && a->x == b->x && a->y == b->y && a->hw == b->hw
           && a->hh == b->hh && a->ux == b->ux && a->uy == b->uy
           && a->vx == b->vx && a->vy == b->vy && a->r == b->r
           && a->inverted == b->inverted;
}

static int find_field(const wf_queue *q, int cls, const wf_goal *key)
{
    for (int i = 0; i < q->max_fields; i++)
        if (q->fields[i].in_use && q->fields[i].cls == cls
            && same_key(&q->fields[i].key, key))
            return i;
    return -1;
}

/* A slot for a new field: an unused one, else the least recently used. */
static int pick_field(const wf_queue *q)
{
    int best = -1;
    for (int i = 0; i < q->max_fields; i++) {
        if (!q->fields[i].in_use)
            return i;
        if (best < 0 || q->fields[i].last_used < q->fields[best].last_used)
            best = i;
    }
    return best;
}

/* Serves slot i from field fi when its prepared query qq reaches it. */
static wf_status serve_from_field(wf_queue *q, const wf_grid *g, uint32_t i,
                                  int fi, const wf_query *qq,
                                  const wf_prepared *prep, uint64_t expanded,
                                  uint32_t *served)
{
    wf_path p;
    wf_status st = wf_field_path(q->fields[fi].f, q->s, g, qq->sx, qq->sy,
                                 qq->smooth, &p);
    q->fields[fi].last_used = ++q->clock;
    if (wf_status_failed(st))
        return st;
    return complete(q, i, st, 0, &p, prep, expanded, 1, served);
}

/* Prepares slot i's query. Returns WF_OK with *qq and *prep filled, an
 * expected failure (the request is then completed as failed: *done = 1),
 * or an error. */
static wf_status prepare(wf_queue *q, const wf_grid *g, wf_hier *h,
                         uint32_t i, wf_query *qq, wf_prepared *prep,
                         int *done, uint32_t *served)
{
    *done = 0;
    const wf_request *rq = &q->slots[i].rq;
    *qq = rq->q;
    wf_status st = wf_hier_prepare(h, g, qq, rq->flags & (WF_PREP_ESCAPE
                                                         | WF_PREP_REWRITE),
                                   prep);
    if (st == WF_OK)
        return WF_OK;
    if (wf_status_failed(st))
        return st;
    *done = 1;
    return complete(q, i, st, 0, NULL, prep, 0, 0, served);
}

/* A ready field serves every pending shared request that it reaches. */
static wf_status serve_waiting(wf_queue *q, const wf_grid *g, wf_hier *h,
                               int fi, uint32_t *served)
{
    uint32_t i = q->head;
    while (i != NONE) {
        uint32_t next = q->slots[i].next;
        const wf_request *rq = &q->slots[i].rq;
        if ((rq->flags & WF_REQ_SHARED) && rq->q.cls == q->fields[fi].cls
            && !(i == q->head && q->job != JOB_NONE)) {
            wf_query qq;
            wf_prepared prep;
            int done;
            wf_status st = prepare(q, g, h, i, &qq, &prep, &done, served);
            if (st != WF_OK)
                return st;
            if (!done && !prep.rewritten) {
                wf_goal key;
                field_key(&qq, &key);
                if (same_key(&key, &q->fields[fi].key)) {
                    st = serve_from_field(q, g, i, fi, &qq, &prep, 0, served);
                    if (st != WF_OK)
                        return st;
                }
            }
        }
        i = next;
    }
    return WF_OK;
}

/* Starts the head request: prepares it and either finishes it at once
 * (failure, ready field) or starts its search or its field. */
static wf_status start_head(wf_queue *q, const wf_grid *g, wf_hier *h,
                            uint32_t *served)
{
    uint32_t i = q->head;
    const wf_request *rq = &q->slots[i].rq;
    int done;
    wf_status st = prepare(q, g, h, i, &q->job_query, &q->job_prep, &done,
                           served);
    if (st != WF_OK || done)
        return st;
    const wf_query *qq = &q->job_query;
    if ((rq->flags & WF_REQ_SHARED) && !q->job_prep.rewritten) {
        wf_goal key;
        field_key(qq, &key);
        int fi = find_field(q, qq->cls, &key);
        if (fi >= 0 && wf_field_ready(q->fields[fi].f, g->version))
            return serve_from_field(q, g, i, fi, qq, &q->job_prep, 0, served);
        if (fi < 0)
            fi = pick_field(q);
        qfield *qf = &q->fields[fi];
        qf->in_use = 0;
        if (!qf->f) {
            st = wf_field_create(&qf->f, g);
            if (st != WF_OK)
                return st;
        }
        st = wf_field_begin(qf->f, q->s, g, qq->cls, &key);
        if (st != WF_OK) {
            if (wf_status_failed(st))
                return st;
            return complete(q, i, st, 0, NULL, &q->job_prep, 0, 0, served);
        }
        qf->in_use = 1;
        qf->cls = qq->cls;
        qf->key = key;
        qf->last_used = ++q->clock;
        q->job = JOB_FIELD;
        q->job_field = fi;
    } else {
        st = wf_search_begin(q->s, g, qq, rq->max_expansions,
                             (rq->flags & WF_REQ_PARTIAL) != 0);
        if (st != WF_OK) {
            if (wf_status_failed(st) && st != WF_ERR_COST)
                return st;
            return complete(q, i, st, 0, NULL, &q->job_prep, 0, 0, served);
        }
        q->job = JOB_SEARCH;
    }
    q->job_version = g->version;
    return WF_OK;
}

wf_status wf_queue_run(wf_queue *q, const wf_grid *g, wf_hier *h,
                       uint64_t budget, uint64_t *used, uint32_t *served)
{
    *used = 0;
    *served = 0;
    if ((size_t)g->w * (size_t)g->h > q->ncells)
        return WF_ERR_ARG;
    wf_status st = wf_hier_sync(h, g);
    if (st != WF_OK)
        return st;
    while (q->head != NONE) {
        if (q->job != JOB_NONE && q->job_version != g->version) {
            /* the grid changed under the job: start it over */
            uint64_t spent = q->job_spent;
            abort_job(q);
            q->job_spent = spent;
        }
        if (q->job == JOB_NONE) {
            uint32_t before = q->head;
            uint64_t spent = q->job_spent;
            st = start_head(q, g, h, served);
            if (st != WF_OK)
                return st;
            if (q->head != before || q->job == JOB_NONE)
                continue;               /* finished without expanding */
            q->job_spent = spent;
        }
        uint64_t left = budget - *used;
        if (left == 0)
            break;
        uint64_t u;
        int fin;
        if (q->job == JOB_SEARCH) {
            st = wf_search_step(q->s, left, &u, &fin);
            if (st != WF_OK)
                return st;              /* out of memory: run again later */
            *used += u;
            q->job_spent += u;
            if (!fin)
                break;
            wf_path p;
            unsigned details;
            wf_status out = wf_search_finish(q->s, &p, &details);
            if (wf_status_failed(out))
                return out;
            st = complete(q, q->head, out, details, &p, &q->job_prep,
                          q->job_spent, 0, served);
        } else {
            int fi = q->job_field;
            wf_field_step(q->fields[fi].f, left, &u, &fin);
            *used += u;
            q->job_spent += u;
            if (!fin)
                break;
            uint32_t i = q->head;
            uint64_t spent = q->job_spent;
            q->job = JOB_NONE;
            q->job_spent = 0;
            st = serve_from_field(q, g, i, fi, &q->job_query, &q->job_prep,
                                  spent, served);
            if (st == WF_OK)
                st = serve_waiting(q, g, h, fi, served);
        }
        if (st != WF_OK)
            return st;
    }
    return WF_OK;
}

/* ------------------------------------------------------------ splicing -- */

#define SPLICE_MAX (1 << 26)
#define SPLICE_ORTHO 33554432
#define SPLICE_DIAG 47453132

/* Every navcell of a waypoint list with straight or diagonal segments,
 * into *ox, *oy (malloc'd), *on of them. */
static wf_status expand_cells(const int32_t *x, const int32_t *y, int n,
                              int32_t **ox, int32_t **oy, int *on)
{
    *ox = *oy = NULL;
    *on = 0;
    if (n < 1)
        return WF_ERR_ARG;
    int64_t total = 1;
    for (int k = 1; k < n; k++) {
        int64_t dx = (int64_t)x[k] - x[k - 1], dy = (int64_t)y[k] - y[k - 1];
        int64_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
        if (ax != 0 && ay != 0 && ax != ay)
            return WF_ERR_ARG;
        total += ax > ay ? ax : ay;
        if (total > SPLICE_MAX)
            return WF_ERR_ARG;
    }
    int32_t *cx = malloc((size_t)total * sizeof *cx);
    int32_t *cy = malloc((size_t)total * sizeof *cy);
    if (!cx || !cy) {
        free(cx);
        free(cy);
        return WF_ERR_NOMEM;
    }
    int m = 0;
    int32_t px = x[0], py = y[0];
    cx[m] = px;
    cy[m] = py;
    m++;
    for (int k = 1; k < n; k++) {
        int32_t sx = x[k] > px ? 1 : (x[k] < px ? -1 : 0);
        int32_t sy = y[k] > py ? 1 : (y[k] < py ? -1 : 0);
        while (px != x[k] || py != y[k]) {
            px += sx;
            py += sy;
            cx[m] = px;
            cy[m] = py;
            m++;
        }
    }
    *ox = cx;
    *oy = cy;
    *on = m;
    return WF_OK;
}

static int64_t step_units(int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    return (ax != bx && ay != by) ? SPLICE_DIAG : SPLICE_ORTHO;
}

typedef struct cell_at {
    int32_t x, y;
    int index;
} cell_at;

static int cell_cmp(const void *a, const void *b)
{
    const cell_at *p = a, *q = b;
    if (p->y != q->y)
        return p->y < q->y ? -1 : 1;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->index > q->index) - (p->index < q->index);
}

/* The first index of (x, y) in the sorted cells, or -1. */
static int first_at(const cell_at *c, int n, int32_t x, int32_t y)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (c[mid].y < y || (c[mid].y == y && c[mid].x < x))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < n && c[lo].x == x && c[lo].y == y)
        return c[lo].index;
    return -1;
}

void wf_splice_free(wf_splice *s)
{
    if (!s)
        return;
    free(s->x);
    free(s->y);
    s->x = s->y = NULL;
    s->n = 0;
}

/* expand_cells on two paths at once; on failure neither is kept */
static wf_status expand_pair(const int32_t *ax, const int32_t *ay, int an,
                             const int32_t *bx, const int32_t *by, int bn,
                             int32_t **acx, int32_t **acy, int *ac,
                             int32_t **bcx, int32_t **bcy, int *bc)
{
    wf_status st = expand_cells(ax, ay, an, acx, acy, ac);
    if (st != WF_OK)
        return st;
    st = expand_cells(bx, by, bn, bcx, bcy, bc);
    if (st != WF_OK) {
        free(*acx);
        free(*acy);
    }
    return st;
}

wf_status wf_path_join(const int32_t *qx, const int32_t *qy, int qn,
                       const int32_t *cx, const int32_t *cy, int cn,
                       int32_t ax, int32_t ay, wf_splice *out)
{
    memset(out, 0, sizeof *out);
    int32_t *qcx, *qcy, *ccx, *ccy;
    int qc, cc;
    wf_status st = expand_pair(qx, qy, qn, cx, cy, cn, &qcx, &qcy, &qc,
                               &ccx, &ccy, &cc);
    if (st != WF_OK)
        return st;
    int k = -1;
    for (int i = 0; i < qc && k < 0; i++)
        if (qcx[i] == ax && qcy[i] == ay)
            k = i;
    /* the continuation starts where the quick path ends; that navcell is
     * written once */
    if (k < 0 || ccx[0] != qcx[qc - 1] || ccy[0] != qcy[qc - 1]
        || (int64_t)(qc - k) + cc - 1 > SPLICE_MAX) {
        st = WF_ERR_ARG;
        goto done;
    }
    int n = (qc - k) + (cc - 1);
    out->x = malloc((size_t)n * sizeof *out->x);
    out->y = malloc((size_t)n * sizeof *out->y);
    if (!out->x || !out->y) {
        wf_splice_free(out);
        st = WF_ERR_NOMEM;
        goto done;
    }
    int w = 0;
    int64_t cost = 0;
    for (int i = k; i < qc; i++, w++) {
        out->x[w] = qcx[i];
        out->y[w] = qcy[i];
        if (w > 0)
            cost += step_units(out->x[w - 1], out->y[w - 1], out->x[w],
                               out->y[w]);
    }
    out->joint = w - 1;
    for (int i = 1; i < cc; i++, w++) {
        out->x[w] = ccx[i];
        out->y[w] = ccy[i];
        cost += step_units(out->x[w - 1], out->y[w - 1], out->x[w],
                           out->y[w]);
    }
    out->n = w;
    out->cost_units = cost;
    st = WF_OK;
done:
    free(qcx);
    free(qcy);
    free(ccx);
    free(ccy);
    return st;
}

wf_status wf_path_splice(const int32_t *qx, const int32_t *qy, int qn,
                         const int32_t *fx, const int32_t *fy, int fn,
                         int32_t ax, int32_t ay, wf_splice *out)
{
    memset(out, 0, sizeof *out);
    int32_t *qcx, *qcy, *fcx, *fcy;
    int qc, fc;
    wf_status st = expand_pair(qx, qy, qn, fx, fy, fn, &qcx, &qcy, &qc,
                               &fcx, &fcy, &fc);
    if (st != WF_OK)
        return st;
    cell_at *sorted = NULL;
    int64_t *tail = NULL;
    int k = -1;
    if (qcx[0] != fcx[0] || qcy[0] != fcy[0]) {
        st = WF_ERR_ARG;
        goto done;
    }
    for (int i = 0; i < qc; i++)
        if (qcx[i] == ax && qcy[i] == ay) {
            k = i;
            break;
        }
    if (k < 0) {
        st = WF_ERR_ARG;
        goto done;
    }
    sorted = malloc((size_t)fc * sizeof *sorted);
    tail = malloc((size_t)fc * sizeof *tail);
    if (!sorted || !tail) {
        st = WF_ERR_NOMEM;
        goto done;
    }
    for (int i = 0; i < fc; i++) {
        sorted[i].x = fcx[i];
        sorted[i].y = fcy[i];
        sorted[i].index = i;
    }
    qsort(sorted, (size_t)fc, sizeof *sorted, cell_cmp);
    /* tail[i]: the full path's cost from its navcell i to its end */
    tail[fc - 1] = 0;
    for (int i = fc - 2; i >= 0; i--)
        tail[i] = tail[i + 1] + step_units(fcx[i], fcy[i], fcx[i + 1], fcy[i + 1]);
    /* walk back from the agent; keep the cheapest rest (the nearest on ties) */
    int best_j = -1, best_m = -1;
    int64_t best = 0, back_cost = 0;
    for (int j = k; j >= 0; j--) {
        if (j < k)
            back_cost += step_units(qcx[j + 1], qcy[j + 1], qcx[j], qcy[j]);
        int m = first_at(sorted, fc, qcx[j], qcy[j]);
        if (m >= 0 && (best_j < 0 || back_cost + tail[m] < best)) {
            best_j = j;
            best_m = m;
            best = back_cost + tail[m];
        }
    }
    /* j = 0 is the shared start, so best_j >= 0 */
    int n = (k - best_j + 1) + (fc - best_m - 1);
    out->x = malloc((size_t)n * sizeof *out->x);
    out->y = malloc((size_t)n * sizeof *out->y);
    if (!out->x || !out->y) {
        wf_splice_free(out);
        st = WF_ERR_NOMEM;
        goto done;
    }
    int w = 0;
    for (int j = k; j >= best_j; j--) {
        out->x[w] = qcx[j];
        out->y[w] = qcy[j];
        w++;
    }
    for (int i = best_m + 1; i < fc; i++) {
        out->x[w] = fcx[i];
        out->y[w] = fcy[i];
        w++;
    }
    out->n = w;
    out->back = k - best_j;
    out->cost_units = best;
    st = WF_OK;
done:
    free(sorted);
    free(tail);
    free(qcx);
    free(qcy);
    free(fcx);
    free(fcy);
    return st;
}
