/* wayfinder_bench.c - wayfinder's own search measured the way the peers are:
 * the core sources linked directly, one wf_search reused for every query,
 * each wf_search_run timed alone with CLOCK_MONOTONIC (and the thread's
 * processor time beside it), JPS and then A*.
 *
 * usage: wayfinder_bench MAP SCEN [K [WARMUP]]
 *   K       evenly spread subset size (0 = every query)
 *   WARMUP  untimed runs of the first selected queries before each pass
 */
#include "peer_common.h"
#include "wayfinder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int run_pass(const char *peer, wf_algorithm algo, const char *mapname,
                    const pc_map *m, const pc_scen *sc, const int *idx, int count,
                    int warmup, wf_grid *g, wf_search *s, int *xs, int *ys)
{
    wf_query q;
    wf_path p;
    wf_query_init(&q);
    q.algorithm = algo;
    for (int pass = 0; pass < 2; pass++) {
        int upto = pass == 0 ? (warmup < count ? warmup : count) : count;
        for (int i = 0; i < upto; i++) {
            const pc_query *sq = &sc->q[idx[i]];
            q.sx = sq->sx;
            q.sy = sq->sy;
            wf_goal_point(&q.goal, WF_FIX(sq->gx) + WF_FIX_HALF,
                          WF_FIX(sq->gy) + WF_FIX_HALF);
            /* the processor clock brackets the wall clock, so the wall
             * time holds nothing but the search */
            uint64_t c0 = pc_cpu_ns();
            uint64_t t0 = pc_now_ns();
            wf_status st = wf_search_run(s, g, &q, &p);
            uint64_t t1 = pc_now_ns();
            uint64_t c1 = pc_cpu_ns();
            if (pass == 0)
                continue;
            char why[160] = "";
            double len = 0;
            const char *status = "ok";
            if (st == WF_NO_PATH || st == WF_START_BLOCKED ||
                st == WF_GOAL_BLOCKED) {
                status = "nopath";
                snprintf(why, sizeof why, "%s", wf_status_name(st));
            } else if (st != WF_OK) {
                fprintf(stderr, "%s: wf_search_run failed: %s\n", peer,
                        wf_status_name(st));
                return -1;
            } else {
                for (int k = 0; k < p.n; k++) {
                    xs[k] = p.x[k];
                    ys[k] = p.y[k];
                }
                if (!pc_check_path(m, xs, ys, p.n, sq, &len, why, sizeof why)) {
                    status = "invalid";
                } else {
                    /* the reported cost must agree with the walked length,
                     * up to the integer diagonal's rounding (< 3e-8 a step) */
                    double cost = (double)p.cost / (double)(2 * WF_COST_SCALE);
                    if (fabs(cost - len) > 1e-7 * (len + 1.0)) {
                        status = "invalid";
                        snprintf(why, sizeof why, "reported cost %.9f", cost);
                    }
                }
            }
            pc_emit(peer, mapname, idx[i], status, t1 - t0, c1 - c0, len, sq, why);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int k, warmup;
    const char *mapname;
    pc_map m;
    pc_scen sc;
    int st = pc_start(argc, argv, &m, &sc, &k, &warmup, &mapname);
    if (st != 0)
        return st;

    size_t len;
    char *text = pc_read_file(argv[1], &len);
    wf_grid *g = NULL;
    wf_parse_error perr;
    memset(&perr, 0, sizeof perr);
    if (!text || wf_grid_from_movingai(&g, text, len, NULL, &perr) != WF_OK) {
        fprintf(stderr, "%s: the core could not load the map (line %d: %s)\n",
                argv[1], perr.line, perr.message);
        return 1;
    }
    free(text);
    /* the core and this harness must see the same passable cells */
    for (int y = 0; y < m.h; y++)
        for (int x = 0; x < m.w; x++)
            if (wf_grid_is_passable(g, x, y, 0) != m.pass[(size_t)y * m.w + x]) {
                fprintf(stderr, "%s: core and harness disagree at (%d,%d)\n",
                        argv[1], x, y);
                return 1;
            }
    wf_search *s = NULL;
    if (wf_search_create(&s, g) != WF_OK) {
        fprintf(stderr, "wf_search_create failed\n");
        return 1;
    }
    int *idx = malloc(sizeof *idx * (size_t)(sc.n ? sc.n : 1));
    size_t cells = (size_t)m.w * (size_t)m.h + 1;
    int *xs = malloc(sizeof *xs * cells), *ys = malloc(sizeof *ys * cells);
    if (!idx || !xs || !ys)
        return 1;
    int count = pc_select(sc.n, k, idx);
    int rc = 0;
    if (run_pass("wayfinder-jps-c", WF_ALGO_JPS, mapname, &m, &sc, idx, count,
                 warmup, g, s, xs, ys) != 0 ||
        run_pass("wayfinder-astar-c", WF_ALGO_ASTAR, mapname, &m, &sc, idx,
                 count, warmup, g, s, xs, ys) != 0)
        rc = 1;
    free(idx);
    free(xs);
    free(ys);
    wf_search_destroy(s);
    wf_grid_destroy(g);
    pc_free_scen(&sc);
    pc_free_map(&m);
    return rc;
}
