/* ops_fuzz.c - fuzz target for sequences of core calls on one small grid:
 * edits (passability, costs, obstructions), searches, regions, the request
 * queue and shared-goal fields, in the order the input dictates. Oracles:
 * A* and JPS agree on cost on uniform grids, a search sliced in random
 * budgets equals one run, the regions agree with the search on
 * reachability, smoothed waypoints see each other. */
#include <string.h>

#include "wayfinder.h"
#include "fuzz_support.h"

#define MAX_OBS 32
#define MAX_REQ 16

typedef struct world {
    wf_grid *g;
    wf_search *s;
    wf_hier *h;
    wf_queue *q;
    wf_field *f;
    uint32_t obs[MAX_OBS];
    int nobs;
    uint64_t req[MAX_REQ];
    int nreq;
} world;

static wf_fix coord(fz_in *in, int side)
{
    /* anywhere from one navcell before the grid to one after, in 1/256 */
    return (wf_fix)(fz_below(in, (side + 2) * 256) - 256) * 256;
}

static void random_goal(fz_in *in, const wf_grid *g, wf_goal *goal)
{
    int w = wf_grid_width(g), h = wf_grid_height(g);
    wf_fix x = coord(in, w), y = coord(in, h);
    switch (fz_below(in, 3)) {
    case 0: wf_goal_point(goal, x, y); break;
    case 1: wf_goal_circle(goal, x, y, (wf_fix)fz_below(in, 4 * 256) * 256); break;
    default:
        wf_goal_square(goal, x, y, (wf_fix)fz_below(in, 3 * 256) * 256,
                       (wf_fix)fz_below(in, 3 * 256) * 256, WF_FIX_ONE, 0);
    }
}

static void random_query(fz_in *in, const wf_grid *g, wf_query *q)
{
    wf_query_init(q);
    q->sx = fz_below(in, wf_grid_width(g) + 2) - 1;
    q->sy = fz_below(in, wf_grid_height(g) + 2) - 1;
    q->cls = fz_below(in, wf_grid_class_count(g));
    random_goal(in, g, &q->goal);
}

static void check_search(world *wd, fz_in *in)
{
    wf_query q;
    wf_path p;
    random_query(in, wd->g, &q);
    q.algorithm = WF_ALGO_ASTAR;
    wf_status a = wf_search_run(wd->s, wd->g, &q, &p);
    int64_t acost = a == WF_OK ? p.cost : -1;
    int ax = a == WF_OK ? p.x[p.n - 1] : 0, ay = a == WF_OK ? p.y[p.n - 1] : 0;
    if (wf_grid_uniform_cost(wd->g)) {
        q.algorithm = WF_ALGO_JPS;
        wf_status j = wf_search_run(wd->s, wd->g, &q, &p);
        FZ_CHECK(j == a, "A* and JPS give the same status");
        if (a == WF_OK) FZ_CHECK(p.cost == acost, "A* and JPS give the same cost");
    }
    if (a == WF_OK) {
        int reach = 0;
        if (wf_hier_reachable(wd->h, wd->g, q.cls, q.sx, q.sy, ax, ay, &reach) == WF_OK)
            FZ_CHECK(reach, "the regions see the path the search found");
    }
    /* the same query in slices of random budgets */
    q.algorithm = WF_ALGO_ASTAR;
    if (wf_search_begin(wd->s, wd->g, &q, 0, 0) == WF_OK) {
        int finished = 0, guard = 0;
        while (!finished && guard++ < 100000) {
            uint64_t used = 0;
            if (wf_search_step(wd->s, 1 + (uint64_t)fz_below(in, 64), &used,
                               &finished) != WF_OK) {
                wf_search_cancel(wd->s);
                return;
            }
        }
        FZ_CHECK(finished, "a sliced search ends");
        wf_status st = wf_search_finish(wd->s, &p, NULL);
        FZ_CHECK(st == a, "a sliced search ends as one run does");
        if (st == WF_OK) FZ_CHECK(p.cost == acost, "slices give the same cost");
    }
    q.smooth = 1;
    if (wf_search_run(wd->s, wd->g, &q, &p) == WF_OK)
        for (int i = 1; i < p.n; i++)
            FZ_CHECK(wf_grid_line_of_sight(wd->g, q.cls, p.x[i - 1], p.y[i - 1],
                                           p.x[i], p.y[i]),
                     "smoothed waypoints see each other");
}

static void queue_op(world *wd, fz_in *in)
{
    switch (fz_below(in, 4)) {
    case 0:
        if (wd->nreq < MAX_REQ) {
            wf_request rq;
            memset(&rq, 0, sizeof rq);
            random_query(in, wd->g, &rq.q);
            rq.max_expansions = (uint64_t)fz_below(in, 4) * 50;
            rq.flags = (unsigned)fz_below(in, 16);
            if (!wf_grid_uniform_cost(wd->g)) rq.q.algorithm = WF_ALGO_ASTAR;
            uint64_t hd;
            if (wf_queue_submit(wd->q, &rq, &hd) == WF_OK) wd->req[wd->nreq++] = hd;
        }
        break;
    case 1: {
        uint64_t used;
        uint32_t served;
        (void)wf_queue_run(wd->q, wd->g, wd->h, (uint64_t)fz_below(in, 200),
                           &used, &served);
        break;
    }
    case 2:
        if (wd->nreq > 0) {
            int k = fz_below(in, wd->nreq);
            wf_req_state st;
            wf_result r;
            if (wf_queue_state(wd->q, wd->req[k], &st) == WF_OK && st == WF_REQ_DONE &&
                wf_queue_result(wd->q, wd->req[k], &r) == WF_OK && r.status == WF_OK)
                FZ_CHECK(r.n >= 1, "a done request has waypoints");
            (void)wf_queue_release(wd->q, wd->req[k]);
            wd->req[k] = wd->req[--wd->nreq];
        }
        break;
    default:
        if (wd->nreq > 0) {
            int was;
            (void)wf_queue_cancel(wd->q, wd->req[fz_below(in, wd->nreq)], &was);
        }
    }
}

static void field_op(world *wd, fz_in *in)
{
    wf_goal goal;
    random_goal(in, wd->g, &goal);
    int cls = fz_below(in, wf_grid_class_count(wd->g));
    if (wf_field_begin(wd->f, wd->s, wd->g, cls, &goal) != WF_OK) return;
    int finished = 0, guard = 0;
    while (!finished && guard++ < 100000) {
        uint64_t used;
        if (wf_field_step(wd->f, 1 + (uint64_t)fz_below(in, 256), &used,
                          &finished) != WF_OK)
            return;
    }
    wf_path p;
    int sx = fz_below(in, wf_grid_width(wd->g)), sy = fz_below(in, wf_grid_height(wd->g));
    (void)wf_field_path(wd->f, wd->s, wd->g, sx, sy, fz_below(in, 2), &p);
}

static void edit_op(world *wd, fz_in *in)
{
    int w = wf_grid_width(wd->g), h = wf_grid_height(wd->g);
    switch (fz_below(in, 5)) {
    case 0:
        (void)wf_grid_set_passable(wd->g, fz_below(in, w + 2) - 1, fz_below(in, h + 2) - 1,
                                   fz_below(in, wf_grid_class_count(wd->g) + 1) - 1,
                                   fz_below(in, 2));
        break;
    case 1:
        (void)wf_grid_set_cost(wd->g, fz_below(in, w), fz_below(in, h), fz_below(in, 4));
        break;
    case 2:
        if (wd->nobs < MAX_OBS) {
            wf_shape sh;
            static const wf_fix dirs[4][2] = {{65536, 0}, {46341, 46341},
                                              {0, 65536}, {55109, -35467}};
            int d = fz_below(in, 4);
            wf_shape_init(&sh, coord(in, w), coord(in, h),
                          (wf_fix)fz_below(in, 6 * 256) * 256,
                          (wf_fix)fz_below(in, 6 * 256) * 256, dirs[d][0], dirs[d][1]);
            uint32_t id;
            if (wf_grid_add_obstruction(wd->g, &sh, &id) == WF_OK) wd->obs[wd->nobs++] = id;
        }
        break;
    case 3:
        if (wd->nobs > 0) {
            int k = fz_below(in, wd->nobs);
            FZ_CHECK(wf_grid_remove_obstruction(wd->g, wd->obs[k]) == WF_OK,
                     "a live obstruction can be removed");
            wd->obs[k] = wd->obs[--wd->nobs];
        } else {
            FZ_CHECK(wf_grid_remove_obstruction(wd->g, 12345) == WF_ERR_NOTFOUND,
                     "an unknown obstruction is reported");
        }
        break;
    default:
        wf_grid_begin_batch(wd->g);
        for (int k = fz_below(in, 8); k > 0; k--)
            (void)wf_grid_set_passable(wd->g, fz_below(in, w), fz_below(in, h), -1,
                                       fz_below(in, 2));
        (void)wf_grid_end_batch(wd->g);
    }
    (void)wf_hier_note(wd->h, wd->g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size, 0};
    wf_grid_config cfg;
    wf_grid_config_init(&cfg, 1 + fz_below(&in, 40), 1 + fz_below(&in, 40));
    cfg.nclasses = 1 + fz_below(&in, 2);
    cfg.classes[0].clearance = fz_below(&in, 3);
    if (cfg.nclasses == 2) {
        memcpy(cfg.classes[1].name, "big", 4);
        cfg.classes[1].clearance = fz_below(&in, 4);
    }
    cfg.border = fz_below(&in, 3);
    cfg.border_shape = fz_below(&in, 2) ? WF_BORDER_CIRCLE : WF_BORDER_SQUARE;
    world wd;
    memset(&wd, 0, sizeof wd);
    if (wf_grid_create(&wd.g, &cfg) != WF_OK) return 0;
    if (wf_search_create(&wd.s, wd.g) != WF_OK ||
        wf_hier_create(&wd.h, wd.g, WF_HIER_CHUNK_MIN + fz_below(&in, 8)) != WF_OK ||
        wf_queue_create(&wd.q, wd.g, 1 + fz_below(&in, 3)) != WF_OK ||
        wf_field_create(&wd.f, wd.g) != WF_OK)
        goto done;
    for (int ops = 0; ops < 64 && !fz_done(&in); ops++) {
        switch (fz_below(&in, 4)) {
        case 0: edit_op(&wd, &in); break;
        case 1: check_search(&wd, &in); break;
        case 2: queue_op(&wd, &in); break;
        default: field_op(&wd, &in);
        }
    }
done:
    wf_field_destroy(wd.f);
    wf_queue_destroy(wd.q);
    wf_hier_destroy(wd.h);
    wf_search_destroy(wd.s);
    wf_grid_destroy(wd.g);
    return 0;
}
