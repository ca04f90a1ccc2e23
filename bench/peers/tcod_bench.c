/* tcod_bench.c - libtcod's A* (TCOD_path_*) on Moving AI maps, measured the
 * way wayfinder is: one TCOD path object per map built with a walk callback,
 * each TCOD_path_compute timed alone with CLOCK_MONOTONIC (and the thread's
 * processor time beside it).
 *
 * The callback enforces the benchmark's rule: a move enters a passable cell,
 * and a diagonal move is allowed only when both orthogonally adjacent cells
 * are passable (no corner cutting). It returns 1 for every allowed move and
 * the path is created with diagonalCost sqrt(2), so moves cost 1 and sqrt(2).
 *
 * usage: tcod_bench MAP SCEN [K [WARMUP]]   (as wayfinder_bench)
 */
#include "peer_common.h"

#include <libtcod/path.h>
#include <math.h>
#include <stdlib.h>

static float walk_cost(int xf, int yf, int xt, int yt, void *user)
{
    const pc_map *m = user;
    const unsigned char *p = m->pass;
    int w = m->w;
    /* libtcod only asks about cells inside the map */
    if (!p[(size_t)yt * w + xt])
        return 0.0f;
    if (xf != xt && yf != yt &&
        (!p[(size_t)yf * w + xt] || !p[(size_t)yt * w + xf]))
        return 0.0f;
    return 1.0f;
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
    TCOD_path_t path = TCOD_path_new_using_function(m.w, m.h, walk_cost, &m,
                                                    (float)sqrt(2.0));
    int *idx = malloc(sizeof *idx * (size_t)(sc.n ? sc.n : 1));
    size_t cells = (size_t)m.w * (size_t)m.h + 1;
    int *xs = malloc(sizeof *xs * cells), *ys = malloc(sizeof *ys * cells);
    if (!path || !idx || !xs || !ys) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    int count = pc_select(sc.n, k, idx);
    for (int pass = 0; pass < 2; pass++) {
        int upto = pass == 0 ? (warmup < count ? warmup : count) : count;
        for (int i = 0; i < upto; i++) {
            const pc_query *q = &sc.q[idx[i]];
            uint64_t c0 = pc_cpu_ns();
            uint64_t t0 = pc_now_ns();
            bool found = TCOD_path_compute(path, q->sx, q->sy, q->gx, q->gy);
            uint64_t t1 = pc_now_ns();
            uint64_t c1 = pc_cpu_ns();
            if (pass == 0)
                continue;
            char why[160] = "";
            double len = 0;
            const char *status = "ok";
            if (!found) {
                status = "nopath";
            } else {
                /* TCOD_path_get(i) is the cell after i+1 steps */
                int n = TCOD_path_size(path);
                if ((size_t)n >= cells) {
                    fprintf(stderr, "libtcod path longer than the map\n");
                    return 1;
                }
                xs[0] = q->sx;
                ys[0] = q->sy;
                for (int s = 0; s < n; s++)
                    TCOD_path_get(path, s, &xs[s + 1], &ys[s + 1]);
                if (!pc_check_path(&m, xs, ys, n + 1, q, &len, why, sizeof why))
                    status = "invalid";
            }
            pc_emit("libtcod-astar", mapname, idx[i], status, t1 - t0, c1 - c0,
                    len, q, why);
        }
    }
    TCOD_path_delete(path);
    free(idx);
    free(xs);
    free(ys);
    pc_free_scen(&sc);
    pc_free_map(&m);
    return 0;
}
