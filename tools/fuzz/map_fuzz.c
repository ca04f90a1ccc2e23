/* map_fuzz.c - fuzz target for the map loaders (Moving AI ".map" text and
 * ASCII rows). The first byte picks the loader; the rest is the text. A map
 * that loads is then searched once with A* and once with JPS between two
 * navcells picked from a hash of the text: both must agree on the optimal
 * cost, and the regions must agree with the search on reachability. */
#include <string.h>

#include "wayfinder.h"
#include "fuzz_support.h"

#define SEARCH_CELLS 65536   /* search only maps this small: keeps runs fast */

static uint32_t hash(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

static void search_twice(wf_grid *g, uint32_t h)
{
    int w = wf_grid_width(g), ht = wf_grid_height(g);
    wf_search *s = NULL;
    wf_hier *hi = NULL;
    if (wf_search_create(&s, g) != WF_OK) return;
    if (wf_hier_create(&hi, g, WF_HIER_CHUNK_MIN) != WF_OK) {
        wf_search_destroy(s);
        return;
    }
    wf_query q;
    wf_query_init(&q);
    q.sx = (int)(h % (uint32_t)w);
    q.sy = (int)((h >> 8) % (uint32_t)ht);
    int gx = (int)((h >> 16) % (uint32_t)w), gy = (int)((h >> 24) % (uint32_t)ht);
    wf_goal_point(&q.goal, WF_FIX(gx) + WF_FIX_HALF, WF_FIX(gy) + WF_FIX_HALF);
    wf_path p;
    q.algorithm = WF_ALGO_ASTAR;
    wf_status a = wf_search_run(s, g, &q, &p);
    int64_t acost = a == WF_OK ? p.cost : -1;
    q.algorithm = WF_ALGO_JPS;
    wf_status j = wf_search_run(s, g, &q, &p);
    FZ_CHECK(a == j, "A* and JPS give the same status");
    if (a == WF_OK) FZ_CHECK(acost == p.cost, "A* and JPS give the same cost");
    int reach = -1;
    if (wf_hier_reachable(hi, g, 0, q.sx, q.sy, gx, gy, &reach) == WF_OK &&
        (a == WF_OK || a == WF_NO_PATH))
        FZ_CHECK(reach == (a == WF_OK), "regions agree with the search");
    wf_hier_destroy(hi);
    wf_search_destroy(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    wf_grid *g = NULL;
    wf_parse_error err;
    memset(&err, 0, sizeof err);
    wf_status st = (data[0] & 1)
        ? wf_grid_from_ascii(&g, text, len, NULL, &err)
        : wf_grid_from_movingai(&g, text, len, NULL, &err);
    if (st != WF_OK) {
        FZ_CHECK(g == NULL, "a failed load returns no grid");
        FZ_CHECK(memchr(err.message, 0, sizeof err.message) != NULL,
                 "the parse message is terminated");
        return 0;
    }
    FZ_CHECK(g != NULL, "a load that succeeds returns a grid");
    if ((int64_t)wf_grid_width(g) * wf_grid_height(g) <= SEARCH_CELLS)
        search_twice(g, hash(data, size));
    wf_grid_destroy(g);
    return 0;
}
