/* core_test.c - direct tests of the C core, built against its headers
 * alone (no Lua): grids, search (JPS's open list against A*), goals,
 * regions, the queue, the walker, the rectangle planner, building
 * placement, steering groups and formations, each with exact expected
 * values. `make ctest` builds and runs it (also under ASan+UBSan); it
 * prints "core: N passed, M failed" last and exits non-zero on any
 * failure. */
#include <stdio.h>
#include <string.h>

#include "wayfinder.h"
#include "fixmath.h"   /* the bit scans: built-in and portable forms */
#include "search_internal.h"   /* the open list's pool, for its rare path */
#include "steer.h"
#include "formation.h"

static int passed, failed;

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (cond) {                                                         \
            passed++;                                                       \
        } else {                                                            \
            failed++;                                                       \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
        }                                                                   \
    } while (0)

/* Equality of two integers, printing both sides on failure. */
#define CHECK_EQ(a, b)                                                      \
    do {                                                                    \
        long long va_ = (long long)(a), vb_ = (long long)(b);               \
        if (va_ == vb_) {                                                   \
            passed++;                                                       \
        } else {                                                            \
            failed++;                                                       \
            printf("FAIL %s:%d: %s == %s (%lld != %lld)\n", __FILE__,       \
                   __LINE__, #a, #b, va_, vb_);                             \
        }                                                                   \
    } while (0)

/* Orthogonal and diagonal step costs of the search, in path cost units. */
#define ORTHO (2 * WF_COST_SCALE)
#define DIAG  (2 * WF_COST_DIAG)

static wf_grid *open_grid(int w, int h)
{
    wf_grid_config cfg;
    wf_grid_config_init(&cfg, w, h);
    wf_grid *g = NULL;
    if (wf_grid_create(&g, &cfg) != WF_OK)
        return NULL;
    return g;
}

static wf_grid *ascii_grid(const char *text)
{
    wf_grid *g = NULL;
    wf_parse_error err;
    if (wf_grid_from_ascii(&g, text, strlen(text), NULL, &err) != WF_OK)
        return NULL;
    return g;
}

static int count_blocked(const wf_grid *g)
{
    int n = 0;
    for (int y = 0; y < wf_grid_height(g); y++)
        for (int x = 0; x < wf_grid_width(g); x++)
            n += !wf_grid_is_passable(g, x, y, 0);
    return n;
}

/* ---------------------------------------------------------------- grid -- */

static void test_grid(void)
{
    wf_grid *g = open_grid(10, 8);
    CHECK(g != NULL);
    if (!g)
        return;
    CHECK_EQ(wf_grid_width(g), 10);
    CHECK_EQ(wf_grid_height(g), 8);
    CHECK_EQ(wf_grid_class_count(g), 1);
    CHECK(strcmp(wf_grid_class_name(g, 0), "default") == 0);
    CHECK_EQ(count_blocked(g), 0);

    /* terrain: one navcell blocked, then passable again */
    uint64_t v0 = wf_grid_version(g);
    CHECK_EQ(wf_grid_set_passable(g, 3, 2, -1, 0), WF_OK);
    CHECK_EQ(wf_grid_is_passable(g, 3, 2, 0), 0);
    CHECK_EQ(wf_grid_terrain_passable(g, 3, 2, 0), 0);
    CHECK_EQ(wf_grid_is_passable(g, 2, 2, 0), 1);
    CHECK_EQ(count_blocked(g), 1);
    CHECK(wf_grid_version(g) > v0);
    CHECK_EQ(wf_grid_set_passable(g, 3, 2, -1, 1), WF_OK);
    CHECK_EQ(count_blocked(g), 0);
    CHECK_EQ(wf_grid_is_passable(g, -1, 0, 0), 0);   /* off the grid */

    /* an axis-aligned 2 x 2 square centred on (5, 5): its narrow-shape
     * clearance is (3 - 2) / 2 = 1/2, so the navcells whose four corners
     * lie within 1/2 of [4, 6] x [4, 6] are blocked, exactly (4..5, 4..5) */
    wf_shape s;
    wf_shape_init(&s, WF_FIX(5), WF_FIX(5), WF_FIX(1), WF_FIX(1), WF_FIX_ONE,
                  0);
    uint32_t id = 0;
    CHECK_EQ(wf_grid_add_obstruction(g, &s, &id), WF_OK);
    CHECK(id > 0);
    CHECK_EQ(wf_grid_obstruction_count(g), 1);
    CHECK_EQ(wf_grid_obstruction_id(g, 0), id);
    CHECK_EQ(count_blocked(g), 4);
    CHECK_EQ(wf_grid_is_passable(g, 4, 4, 0), 0);
    CHECK_EQ(wf_grid_is_passable(g, 5, 5, 0), 0);
    CHECK_EQ(wf_grid_is_passable(g, 3, 4, 0), 1);
    CHECK_EQ(wf_grid_is_passable(g, 6, 5, 0), 1);
    CHECK_EQ(wf_grid_terrain_passable(g, 4, 4, 0), 1);
    wf_shape back;
    CHECK_EQ(wf_grid_get_obstruction(g, id, &back), WF_OK);
    CHECK_EQ(back.cx, WF_FIX(5));
    CHECK_EQ(back.hw, WF_FIX(1));
    CHECK_EQ(wf_grid_remove_obstruction(g, id), WF_OK);
    CHECK_EQ(count_blocked(g), 0);
    CHECK_EQ(wf_grid_remove_obstruction(g, id), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_grid_obstruction_count(g), 0);

    /* costs */
    CHECK_EQ(wf_grid_uniform_cost(g), 1);
    CHECK_EQ(wf_grid_set_cost(g, 1, 1, 5), WF_OK);
    CHECK_EQ(wf_grid_cost(g, 1, 1), 5);
    CHECK_EQ(wf_grid_uniform_cost(g), 0);
    CHECK_EQ(wf_grid_set_cost(g, 1, 1, 1), WF_OK);
    CHECK_EQ(wf_grid_uniform_cost(g), 1);
    wf_grid_destroy(g);
}

/* -------------------------------------------------------------- search -- */

static wf_status find(wf_search *s, const wf_grid *g, int sx, int sy,
                      const wf_goal *goal, wf_algorithm algo, wf_path *p)
{
    wf_query q;
    wf_query_init(&q);
    q.sx = sx;
    q.sy = sy;
    q.goal = *goal;
    q.algorithm = algo;
    return wf_search_run(s, g, &q, p);
}

static void test_search(void)
{
    /* a wall under the start: from (2, 0) to (2, 2) the only way is round
     * its east end, six orthogonal steps (the corners forbid diagonals) */
    wf_grid *g = ascii_grid(".....\n.###.\n.....\n");
    CHECK(g != NULL);
    if (!g)
        return;
    wf_search *s = NULL;
    CHECK_EQ(wf_search_create(&s, g), WF_OK);
    wf_goal goal;
    wf_goal_point(&goal, WF_FIX(2) + WF_FIX_HALF, WF_FIX(2) + WF_FIX_HALF);
    wf_path p;
    CHECK_EQ(find(s, g, 2, 0, &goal, WF_ALGO_ASTAR, &p), WF_OK);
    CHECK_EQ(p.cost, 6 * ORTHO);
    CHECK_EQ(p.algorithm, WF_ALGO_ASTAR);
    CHECK_EQ(p.x[0], 2);
    CHECK_EQ(p.y[0], 0);
    CHECK_EQ(p.x[p.n - 1], 2);
    CHECK_EQ(p.y[p.n - 1], 2);
    /* waypoints are the turns: (2,0) (0,0) (0,2) (2,2) or the east twin */
    CHECK_EQ(p.n, 4);
    CHECK_EQ(find(s, g, 2, 0, &goal, WF_ALGO_JPS, &p), WF_OK);
    CHECK_EQ(p.cost, 6 * ORTHO);
    CHECK_EQ(p.algorithm, WF_ALGO_JPS);

    /* start on the wall, goal off the grid */
    CHECK_EQ(find(s, g, 2, 1, &goal, WF_ALGO_ASTAR, &p), WF_START_BLOCKED);
    CHECK_EQ(find(s, g, 9, 0, &goal, WF_ALGO_ASTAR, &p), WF_START_OUTSIDE);
    wf_goal far;
    wf_goal_point(&far, WF_FIX(50), WF_FIX(50));
    CHECK_EQ(find(s, g, 0, 0, &far, WF_ALGO_ASTAR, &p), WF_GOAL_OUTSIDE);
    wf_search_destroy(s);
    wf_grid_destroy(g);

    /* open 8 x 8: (0, 0) to (7, 3) is 3 diagonal + 4 straight steps,
     * 4 + 3 sqrt(2) navcells, for both algorithms */
    g = open_grid(8, 8);
    s = NULL;
    CHECK_EQ(wf_search_create(&s, g), WF_OK);
    wf_goal_point(&goal, WF_FIX(7) + WF_FIX_HALF, WF_FIX(3) + WF_FIX_HALF);
    int64_t want = 4 * ORTHO + 3 * DIAG;
    CHECK_EQ(find(s, g, 0, 0, &goal, WF_ALGO_ASTAR, &p), WF_OK);
    CHECK_EQ(p.cost, want);
    CHECK_EQ(p.n, 3);   /* start, the turn, the goal */
    CHECK_EQ(find(s, g, 0, 0, &goal, WF_ALGO_JPS, &p), WF_OK);
    CHECK_EQ(p.cost, want);

    /* a wall at x = 4 with one gap at (4, 1): from (0, 4), 3 diagonals to
     * (3, 1), 2 straight steps through the gap to (5, 1) (a diagonal into
     * or out of the gap would cut a wall corner), 2 diagonals to (7, 3)
     * and 1 straight step to (7, 4) */
    for (int y = 0; y < 8; y++)
        if (y != 1)
            CHECK_EQ(wf_grid_set_passable(g, 4, y, -1, 0), WF_OK);
    wf_goal_point(&goal, WF_FIX(7) + WF_FIX_HALF, WF_FIX(4) + WF_FIX_HALF);
    want = 3 * ORTHO + 5 * DIAG;
    CHECK_EQ(find(s, g, 0, 4, &goal, WF_ALGO_ASTAR, &p), WF_OK);
    CHECK_EQ(p.cost, want);
    CHECK_EQ(find(s, g, 0, 4, &goal, WF_ALGO_JPS, &p), WF_OK);
    CHECK_EQ(p.cost, want);
    /* closing the gap leaves no path */
    CHECK_EQ(wf_grid_set_passable(g, 4, 1, -1, 0), WF_OK);
    CHECK_EQ(find(s, g, 0, 4, &goal, WF_ALGO_ASTAR, &p), WF_NO_PATH);
    CHECK_EQ(find(s, g, 0, 4, &goal, WF_ALGO_JPS, &p), WF_NO_PATH);

    /* JPS needs uniform costs */
    CHECK_EQ(wf_grid_set_cost(g, 0, 0, 3), WF_OK);
    CHECK_EQ(find(s, g, 0, 4, &goal, WF_ALGO_JPS, &p), WF_ERR_COST);
    wf_search_destroy(s);
    wf_grid_destroy(g);
}

/* ---------------------------------------------------------------- goal -- */

static void test_goal_circle(void)
{
    /* disc of radius 1 at (5.5, 5.5): navcell (4, 4) touches it at its
     * corner (5, 5), 0.71 away; (3, 3) and (3, 4) do not */
    wf_goal c;
    wf_goal_circle(&c, WF_FIX(5) + WF_FIX_HALF, WF_FIX(5) + WF_FIX_HALF,
                   WF_FIX(1));
    CHECK_EQ(wf_goal_contains(&c, 4, 4), 1);
    CHECK_EQ(wf_goal_contains(&c, 5, 5), 1);
    CHECK_EQ(wf_goal_contains(&c, 4, 5), 1);
    CHECK_EQ(wf_goal_contains(&c, 3, 3), 0);
    CHECK_EQ(wf_goal_contains(&c, 3, 4), 0);
    CHECK_EQ(wf_goal_contains(&c, 3, 5), 0);
    int x0, y0, x1, y1;
    wf_goal_bounds(&c, &x0, &y0, &x1, &y1);
    CHECK(x0 <= 4 && y0 <= 4 && x1 >= 6 && y1 >= 6);

    /* from (0, 0) the nearest goal navcell is (4, 4): four diagonals */
    wf_grid *g = open_grid(10, 10);
    wf_search *s = NULL;
    CHECK_EQ(wf_search_create(&s, g), WF_OK);
    wf_path p;
    CHECK_EQ(find(s, g, 0, 0, &c, WF_ALGO_ASTAR, &p), WF_OK);
    CHECK_EQ(p.cost, 4 * DIAG);
    CHECK_EQ(p.x[p.n - 1], 4);
    CHECK_EQ(p.y[p.n - 1], 4);
    CHECK_EQ(find(s, g, 0, 0, &c, WF_ALGO_JPS, &p), WF_OK);
    CHECK_EQ(p.cost, 4 * DIAG);
    /* a start inside the goal is a one-waypoint path of cost 0 */
    CHECK_EQ(find(s, g, 5, 5, &c, WF_ALGO_ASTAR, &p), WF_OK);
    CHECK_EQ(p.n, 1);
    CHECK_EQ(p.cost, 0);
    wf_search_destroy(s);
    wf_grid_destroy(g);
}

/* -------------------------------------------------------------- status -- */

static void test_status(void)
{
    CHECK_EQ(wf_status_failed(WF_OK), 0);
    CHECK_EQ(wf_status_failed(WF_NO_PATH), 0);
    CHECK_EQ(wf_status_failed(WF_START_OUTSIDE), 0);
    CHECK_EQ(wf_status_failed(WF_START_BLOCKED), 0);
    CHECK_EQ(wf_status_failed(WF_GOAL_OUTSIDE), 0);
    CHECK_EQ(wf_status_failed(WF_GOAL_BLOCKED), 0);
    CHECK_EQ(wf_status_failed(WF_ERR_ARG), 1);
    CHECK_EQ(wf_status_failed(WF_ERR_NOMEM), 1);
    CHECK_EQ(wf_status_failed(WF_ERR_NOTFOUND), 1);
    CHECK_EQ(wf_status_failed(WF_ERR_FULL), 1);
    CHECK_EQ(wf_status_failed(WF_ERR_PARSE), 1);
    CHECK_EQ(wf_status_failed(WF_ERR_COST), 1);
    CHECK(strcmp(wf_status_name(WF_NO_PATH), "unreachable") == 0);
    CHECK(strcmp(wf_status_name(WF_ERR_NOMEM), "out_of_memory") == 0);
}

/* ---------------------------------------------------------------- hier -- */

static void test_hier(void)
{
    /* a full wall at x = 5 splits a 10 x 10 grid in two */
    wf_grid *g = open_grid(10, 10);
    for (int y = 0; y < 10; y++)
        CHECK_EQ(wf_grid_set_passable(g, 5, y, -1, 0), WF_OK);
    wf_hier *h = NULL;
    CHECK_EQ(wf_hier_create(&h, g, 4), WF_OK);
    int r = -1;
    CHECK_EQ(wf_hier_reachable(h, g, 0, 0, 0, 9, 9, &r), WF_OK);
    CHECK_EQ(r, 0);
    CHECK_EQ(wf_hier_reachable(h, g, 0, 0, 0, 4, 9, &r), WF_OK);
    CHECK_EQ(r, 1);
    uint32_t a = 0, b = 0, w = 7;
    CHECK_EQ(wf_hier_component(h, g, 0, 0, 0, &a), WF_OK);
    CHECK_EQ(wf_hier_component(h, g, 0, 9, 9, &b), WF_OK);
    CHECK_EQ(wf_hier_component(h, g, 0, 5, 3, &w), WF_OK);
    CHECK(a >= 1 && b >= 1 && a != b);
    CHECK_EQ(w, 0);
    wf_hier_stats st;
    CHECK_EQ(wf_hier_stats_of(h, g, 0, &st), WF_OK);
    CHECK_EQ(st.components, 2);
    /* nearest passable to the wall navcell (5, 0): (4, 0) and (6, 0) tie
     * at distance 1 in the same row; the lower column wins */
    int ox = -1, oy = -1;
    CHECK_EQ(wf_hier_nearest_passable(h, g, 0, 5, 0, &ox, &oy), WF_OK);
    CHECK_EQ(ox, 4);
    CHECK_EQ(oy, 0);
    /* a gap joins the halves; the labels follow the edit */
    CHECK_EQ(wf_grid_set_passable(g, 5, 5, -1, 1), WF_OK);
    CHECK_EQ(wf_hier_reachable(h, g, 0, 0, 0, 9, 9, &r), WF_OK);
    CHECK_EQ(r, 1);
    CHECK_EQ(wf_hier_stats_of(h, g, 0, &st), WF_OK);
    CHECK_EQ(st.components, 1);
    wf_hier_destroy(h);
    wf_grid_destroy(g);
}

/* --------------------------------------------------------------- queue -- */

static void test_queue(void)
{
    wf_grid *g = open_grid(8, 8);
    for (int y = 0; y < 8; y++)       /* wall with a gap at (4, 1) */
        if (y != 1)
            CHECK_EQ(wf_grid_set_passable(g, 4, y, -1, 0), WF_OK);
    wf_hier *h = NULL;
    wf_queue *q = NULL;
    CHECK_EQ(wf_hier_create(&h, g, 4), WF_OK);
    CHECK_EQ(wf_queue_create(&q, g, 4), WF_OK);
    if (!h || !q) {
        wf_queue_destroy(q);
        wf_hier_destroy(h);
        wf_grid_destroy(g);
        return;
    }

    wf_request rq;
    memset(&rq, 0, sizeof rq);
    wf_query_init(&rq.q);
    rq.q.sx = 0;
    rq.q.sy = 4;
    wf_goal_point(&rq.q.goal, WF_FIX(7) + WF_FIX_HALF, WF_FIX(4) + WF_FIX_HALF);
    uint64_t ok_handle = 0, blocked_handle = 0;
    CHECK_EQ(wf_queue_submit(q, &rq, &ok_handle), WF_OK);
    rq.q.sx = 4;                      /* on the wall, no escape asked */
    rq.q.sy = 5;
    CHECK_EQ(wf_queue_submit(q, &rq, &blocked_handle), WF_OK);
    CHECK_EQ(wf_queue_pending(q), 2);
    wf_req_state state;
    CHECK_EQ(wf_queue_state(q, ok_handle, &state), WF_OK);
    CHECK_EQ(state, WF_REQ_PENDING);

    uint64_t used = 0;
    uint32_t served = 0;
    CHECK_EQ(wf_queue_run(q, g, h, 1000000, &used, &served), WF_OK);
    CHECK_EQ(served, 2);
    CHECK_EQ(wf_queue_pending(q), 0);

    wf_result res;
    CHECK_EQ(wf_queue_state(q, ok_handle, &state), WF_OK);
    CHECK_EQ(state, WF_REQ_DONE);
    CHECK_EQ(wf_queue_result(q, ok_handle, &res), WF_OK);
    CHECK_EQ(res.status, WF_OK);
    CHECK_EQ(res.cost, 3 * ORTHO + 5 * DIAG);   /* as in test_search */
    CHECK_EQ(res.x[0], 0);
    CHECK_EQ(res.y[0], 4);
    CHECK_EQ(res.x[res.n - 1], 7);
    CHECK_EQ(res.y[res.n - 1], 4);

    CHECK_EQ(wf_queue_state(q, blocked_handle, &state), WF_OK);
    CHECK_EQ(state, WF_REQ_FAILED);
    CHECK_EQ(wf_queue_result(q, blocked_handle, &res), WF_OK);
    CHECK_EQ(res.status, WF_START_BLOCKED);

    /* a released handle is stale */
    CHECK_EQ(wf_queue_release(q, ok_handle), WF_OK);
    CHECK_EQ(wf_queue_state(q, ok_handle, &state), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_queue_release(q, blocked_handle), WF_OK);

    /* a cancelled request is never served */
    uint64_t c = 0;
    int was = 0;
    rq.q.sx = 0;
    rq.q.sy = 0;
    CHECK_EQ(wf_queue_submit(q, &rq, &c), WF_OK);
    CHECK_EQ(wf_queue_cancel(q, c, &was), WF_OK);
    CHECK_EQ(was, 1);
    CHECK_EQ(wf_queue_state(q, c, &state), WF_OK);
    CHECK_EQ(state, WF_REQ_CANCELLED);
    CHECK_EQ(wf_queue_pending(q), 0);
    wf_queue_destroy(q);
    wf_hier_destroy(h);
    wf_grid_destroy(g);
}

/* -------------------------------------------------------------- walker -- */

#define HALF_TILE (WF_FIX_HALF)
#define QUARTER   (WF_FIX_ONE / 4)

/* Steps w until person 1's walk ends (at most `max` ticks); returns the
 * tick it ended on (1-based) with *ev filled, or 0. */
static int walk_until_event(wf_walker *w, int max, wf_move_event *ev)
{
    wf_move_event events[4];
    for (int t = 1; t <= max; t++) {
        size_t n = 0;
        if (wf_walker_step(w, events, 4, &n) != WF_OK)
            return 0;
        if (n > 0) {
            *ev = events[0];
            return t;
        }
    }
    return 0;
}

static void test_walker(void)
{
    wf_walker *w = NULL;
    CHECK_EQ(wf_walker_create(&w, 4, 1), WF_OK);
    if (!w)
        return;
    CHECK_EQ(wf_walker_width(w), 4);
    CHECK_EQ(wf_walker_height(w), 1);
    /* a person walks from the centre of tile 0 to the centre of tile 3 at
     * one tile per tick and arrives on the third tick */
    CHECK_EQ(wf_walker_add_person(w, 1, HALF_TILE, HALF_TILE, QUARTER,
                                  WF_FIX_ONE, 0), WF_OK);
    wf_fix route[4] = {HALF_TILE, HALF_TILE, WF_FIX(3) + HALF_TILE, HALF_TILE};
    CHECK_EQ(wf_walker_set_route(w, 1, route, 2, 1), WF_OK);
    wf_move_event ev;
    CHECK_EQ(walk_until_event(w, 10, &ev), 3);
    CHECK_EQ(ev.id, 1);
    CHECK_EQ(ev.kind, WF_MOVE_ARRIVED);
    CHECK_EQ(ev.blocker, 0);
    wf_person_state ps;
    CHECK_EQ(wf_walker_person(w, 1, &ps), WF_OK);
    CHECK_EQ(ps.x, WF_FIX(3) + HALF_TILE);
    CHECK_EQ(ps.y, HALF_TILE);
    CHECK_EQ(ps.walking, 0);
    CHECK_EQ(ps.facing, 0);   /* east */

    /* a wall between tiles 1 and 2: walking back west stops at tile 2 on
     * the second tick, reported as blocker 0 */
    CHECK_EQ(wf_walker_set_wall(w, 1, 2, 0, 1), WF_OK);
    CHECK_EQ(wf_walker_wall(w, 1, 2, 0), 1);
    wf_fix back[4] = {WF_FIX(3) + HALF_TILE, HALF_TILE, HALF_TILE, HALF_TILE};
    CHECK_EQ(wf_walker_set_route(w, 1, back, 2, 1), WF_OK);
    CHECK_EQ(walk_until_event(w, 10, &ev), 2);
    CHECK_EQ(ev.kind, WF_MOVE_BLOCKED);
    CHECK_EQ(ev.blocker, 0);
    CHECK_EQ(wf_walker_person(w, 1, &ps), WF_OK);
    CHECK_EQ(ps.x, WF_FIX(2) + HALF_TILE);
    CHECK_EQ(ps.walking, 0);

    /* a closed door on that wall is the blocker; open, it lets her pass */
    CHECK_EQ(wf_walker_set_door(w, 1, 2, 0, 7, 0), WF_OK);
    CHECK_EQ(wf_walker_set_route(w, 1, back, 2, 1), WF_OK);
    CHECK_EQ(walk_until_event(w, 10, &ev), 1);
    CHECK_EQ(ev.kind, WF_MOVE_BLOCKED);
    CHECK_EQ(ev.blocker, 7);
    CHECK_EQ(wf_walker_set_door(w, 1, 2, 0, 7, 1), WF_OK);
    CHECK_EQ(wf_walker_set_route(w, 1, back, 2, 1), WF_OK);
    CHECK_EQ(walk_until_event(w, 10, &ev), 2);
    CHECK_EQ(ev.kind, WF_MOVE_ARRIVED);

    /* a box on tile 2 blocks the way east and is named */
    CHECK_EQ(wf_walker_set_box(w, 9, WF_FIX(2) + QUARTER, QUARTER,
                               WF_FIX(3) - QUARTER, WF_FIX_ONE - QUARTER),
             WF_OK);
    CHECK_EQ(wf_walker_set_route(w, 1, route, 2, 1), WF_OK);
    CHECK_EQ(walk_until_event(w, 10, &ev), 2);
    CHECK_EQ(ev.kind, WF_MOVE_BLOCKED);
    CHECK_EQ(ev.blocker, 9);

    /* square_free answers through a status */
    int is_free = -1;
    uint32_t blk = 99;
    CHECK_EQ(wf_walker_square_free(w, HALF_TILE, HALF_TILE, QUARTER, 1,
                                   &is_free, &blk), WF_OK);
    CHECK_EQ(is_free, 1);
    CHECK_EQ(blk, 0);
    CHECK_EQ(wf_walker_square_free(w, WF_FIX(2) + HALF_TILE, HALF_TILE,
                                   QUARTER, 1, &is_free, &blk), WF_OK);
    CHECK_EQ(is_free, 0);
    CHECK_EQ(blk, 9);
    CHECK_EQ(wf_walker_square_free(w, WF_FIX(1) + HALF_TILE, HALF_TILE,
                                   QUARTER, 0, &is_free, &blk), WF_OK);
    CHECK_EQ(is_free, 0);
    CHECK_EQ(blk, 1);   /* the person herself, when not ignored */
    CHECK_EQ(wf_walker_remove_box(w, 9), WF_OK);
    CHECK_EQ(wf_walker_remove_box(w, 9), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_walker_square_free(w, WF_FIX(2) + HALF_TILE, HALF_TILE,
                                   QUARTER, 1, &is_free, &blk), WF_OK);
    CHECK_EQ(is_free, 1);
    wf_walker_destroy(w);
}

/* ----------------------------------------------------------- rectplan -- */

static void test_rectplan(void)
{
    /* a 6 x 6 room (id 1) with one 2 x 2 crate in the middle */
    int32_t rooms[36];
    for (int k = 0; k < 36; k++)
        rooms[k] = 1;
    wf_room_object crate;
    memset(&crate, 0, sizeof crate);
    crate.box = (wf_rect){WF_FIX(2), WF_FIX(2), WF_FIX(4), WF_FIX(4)};
    crate.room = 1;
    crate.penalty = WF_IMPASSABLE;
    wf_room room;
    memset(&room, 0, sizeof room);
    room.width = 6;
    room.height = 6;
    room.rooms = rooms;
    room.objects = &crate;
    room.nobjects = 1;
    wf_room_scan scan;
    memset(&scan, 0, sizeof scan);
    scan.room = 1;
    scan.sx = HALF_TILE;
    scan.sy = HALF_TILE;
    scan.gx = WF_FIX(5) + HALF_TILE;
    scan.gy = HALF_TILE;
    scan.ignore_people = -1;

    size_t cap = wf_room_obstacles_cap(&room, &scan), n = 0;
    CHECK(cap >= 5);
    wf_area areas[256];
    uint8_t skips[1];
    wf_rect box;
    /* the bound over the 6 x 6 room box: 4 + 3 * 36 + 6 + 6 + 1 */
    CHECK_EQ(cap, 125);
    if (cap > 256)
        return;
    CHECK_EQ(wf_room_obstacles(&room, &scan, areas, cap, &n, &box, skips),
             WF_OK);
    /* four boundary rectangles, no wall tiles, the crate */
    CHECK_EQ(n, 5);
    CHECK_EQ(areas[0].kind, WF_AREA_BOUNDARY);
    CHECK_EQ(areas[4].kind, WF_AREA_OBJECT);
    CHECK_EQ(areas[4].object, 0);
    CHECK_EQ(areas[4].r.x0, WF_FIX(2));
    CHECK_EQ(areas[4].r.y1, WF_FIX(4));
    CHECK_EQ(skips[0], WF_SKIP_ADDED);
    CHECK_EQ(box.x0, WF_FIX(-1));
    CHECK_EQ(box.y0, WF_FIX(-1));
    CHECK_EQ(box.x1, WF_FIX(7));
    CHECK_EQ(box.y1, WF_FIX(7));
    /* too small an output buffer */
    CHECK_EQ(wf_room_obstacles(&room, &scan, areas, 4, &n, &box, NULL),
             WF_ERR_FULL);
    CHECK_EQ(wf_room_obstacles(&room, &scan, areas, cap, &n, &box, NULL),
             WF_OK);

    /* along the top row the crate is not in the way: a straight route of
     * exactly 5 tiles */
    wf_rectplan_config cfg;
    wf_rectplan_config_init(&cfg);
    cfg.bounds = box;
    cfg.areas = areas;
    cfg.nareas = n;
    cfg.sx = scan.sx;
    cfg.sy = scan.sy;
    cfg.gx = scan.gx;
    cfg.gy = scan.gy;
    wf_rectplan *p = NULL;
    CHECK_EQ(wf_rectplan_create(&p, &cfg), WF_OK);
    if (!p)
        return;
    CHECK_EQ(wf_rectplan_area_count(p), 5);
    CHECK_EQ(wf_rectplan_area(p, 4)->r.x0, WF_FIX(2));
    CHECK_EQ(wf_rectplan_run(p), WF_OK);
    CHECK_EQ(wf_rectplan_get_state(p), WF_RECTPLAN_DONE);
    wf_rectplan_path r;
    CHECK_EQ(wf_rectplan_result(p, &r), WF_OK);
    CHECK_EQ(r.length, WF_FIX(5));
    CHECK_EQ(r.x[0], cfg.sx);
    CHECK_EQ(r.y[0], cfg.sy);
    CHECK_EQ(r.x[r.n - 1], cfg.gx);
    CHECK_EQ(r.y[r.n - 1], cfg.gy);
    wf_rectplan_destroy(p);

    /* corner to corner, margin 1/2: the crate grows to [1.5, 4.5]^2 and
     * the shortest route from (0.5, 0.5) to (5.5, 5.5) bends round one of
     * its corners, (4.5, 1.5) or (1.5, 4.5): twice sqrt(4^2 + 1^2) */
    cfg.margin = HALF_TILE;
    cfg.gx = WF_FIX(5) + HALF_TILE;
    cfg.gy = WF_FIX(5) + HALF_TILE;
    p = NULL;
    CHECK_EQ(wf_rectplan_create(&p, &cfg), WF_OK);
    if (!p)
        return;
    CHECK_EQ(wf_rectplan_area(p, 4)->r.x0, WF_FIX(1) + HALF_TILE);
    CHECK_EQ(wf_rectplan_run(p), WF_OK);
    CHECK_EQ(wf_rectplan_result(p, &r), WF_OK);
    /* each leg is sqrt(17) tiles, floor(sqrt(17) * 65536) = 270211 */
    CHECK_EQ(r.length, 2 * 270211);
    CHECK_EQ(r.n, 3);
    if (r.n == 3) {
        int east = r.x[1] == WF_FIX(4) + HALF_TILE
                   && r.y[1] == WF_FIX(1) + HALF_TILE;
        int south = r.x[1] == WF_FIX(1) + HALF_TILE
                    && r.y[1] == WF_FIX(4) + HALF_TILE;
        CHECK(east || south);
    }
    wf_rectplan_destroy(p);

    /* a goal inside the crate, with escape off, is blocked */
    cfg.margin = 0;
    cfg.escape = 0;
    cfg.gx = WF_FIX(3);
    cfg.gy = WF_FIX(3);
    p = NULL;
    CHECK_EQ(wf_rectplan_create(&p, &cfg), WF_OK);
    if (!p)
        return;
    CHECK_EQ(wf_rectplan_get_state(p), WF_RECTPLAN_FAILED);
    CHECK_EQ(wf_rectplan_status(p), WF_GOAL_BLOCKED);
    wf_rectplan_destroy(p);
}

/* ------------------------------------------------------- bad arguments -- */

static void test_bad_arguments(void)
{
    wf_grid_config cfg;
    wf_grid *g = NULL;
    wf_grid_config_init(&cfg, 0, 5);
    CHECK_EQ(wf_grid_create(&g, &cfg), WF_ERR_ARG);
    CHECK(g == NULL);
    wf_grid_config_init(&cfg, 5, 5);
    cfg.nclasses = 0;
    CHECK_EQ(wf_grid_create(&g, &cfg), WF_ERR_ARG);
    wf_grid_config_init(&cfg, WF_MAX_SIDE + 1, 1);
    CHECK_EQ(wf_grid_create(&g, &cfg), WF_ERR_ARG);

    g = open_grid(5, 5);
    CHECK_EQ(wf_grid_set_passable(g, 5, 0, -1, 0), WF_ERR_ARG);
    CHECK_EQ(wf_grid_set_passable(g, 0, -1, -1, 0), WF_ERR_ARG);
    CHECK_EQ(wf_grid_set_passable(g, 0, 0, 1, 0), WF_ERR_ARG);  /* class */
    CHECK_EQ(wf_grid_set_cost(g, 0, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_grid_set_cost(g, 0, 0, WF_MAX_COST + 1), WF_ERR_ARG);
    CHECK_EQ(wf_grid_remove_obstruction(g, 12345), WF_ERR_NOTFOUND);
    wf_search *s = NULL;
    CHECK_EQ(wf_search_create(&s, g), WF_OK);
    wf_query q;
    wf_query_init(&q);
    q.cls = 3;
    wf_path p;
    CHECK_EQ(wf_search_run(s, g, &q, &p), WF_ERR_ARG);
    wf_search_destroy(s);
    wf_hier *h = NULL;
    CHECK_EQ(wf_hier_create(&h, g, WF_HIER_CHUNK_MIN - 1), WF_ERR_ARG);
    wf_queue *qu = NULL;
    CHECK_EQ(wf_queue_create(&qu, g, 0), WF_ERR_ARG);
    wf_grid_destroy(g);

    const char *bad = "..\n...\n";
    wf_parse_error err;
    g = NULL;
    CHECK_EQ(wf_grid_from_ascii(&g, bad, strlen(bad), NULL, &err),
             WF_ERR_PARSE);
    CHECK_EQ(err.line, 2);

    wf_walker *w = NULL;
    CHECK_EQ(wf_walker_create(&w, 0, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_create(&w, WF_WALKER_MAX_SIDE + 1, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_create(&w, 2, 2), WF_OK);
    int is_free = 0;
    CHECK_EQ(wf_walker_square_free(NULL, 0, 0, QUARTER, 0, &is_free, NULL),
             WF_ERR_ARG);
    CHECK_EQ(wf_walker_square_free(w, 0, 0, QUARTER, 0, NULL, NULL),
             WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(w, 1, WF_FIX(5), HALF_TILE, QUARTER,
                                  WF_FIX_ONE, 0), WF_ERR_ARG);   /* outside */
    CHECK_EQ(wf_walker_add_person(w, 1, HALF_TILE, HALF_TILE, 0,
                                  WF_FIX_ONE, 0), WF_ERR_ARG);   /* half 0 */
    CHECK_EQ(wf_walker_add_person(w, 1, HALF_TILE, HALF_TILE, QUARTER,
                                  WF_FIX_ONE, 8), WF_ERR_ARG);   /* facing */
    CHECK_EQ(wf_walker_set_speed(w, 42, WF_FIX_ONE), WF_ERR_NOTFOUND);
    wf_move_event ev[1];
    size_t count = 0;
    CHECK_EQ(wf_walker_add_person(w, 1, HALF_TILE, HALF_TILE, QUARTER,
                                  WF_FIX_ONE, 0), WF_OK);
    wf_fix route[2] = {WF_FIX(1) + HALF_TILE, HALF_TILE};
    CHECK_EQ(wf_walker_set_route(w, 1, route, 1, 0), WF_OK);
    CHECK_EQ(wf_walker_step(w, ev, 0, &count), WF_ERR_ARG);   /* no room */
    wf_walker_destroy(w);

    wf_rectplan_config rc;
    wf_rectplan_config_init(&rc);
    rc.bounds = (wf_rect){0, 0, WF_FIX(4), WF_FIX(4)};
    rc.step = WF_FIX_ONE / 1024;
    rc.min_step = WF_FIX_HALF;            /* min_step above step */
    wf_rectplan *rp = NULL;
    CHECK_EQ(wf_rectplan_create(&rp, &rc), WF_ERR_ARG);
    wf_rectplan_config_init(&rc);
    rc.bounds = (wf_rect){0, 0, WF_FIX(4), WF_FIX(4)};
    rc.margin = -1;
    CHECK_EQ(wf_rectplan_create(&rp, &rc), WF_ERR_ARG);
    CHECK(rp == NULL);
}

/* wf_ctz64 and wf_clz64 (the compiler's built-ins where there are some)
 * against their plain C forms and against a bit-by-bit count, on every
 * single bit, every two-bit pair and a deterministic run of random words. */
static int slow_ctz(uint64_t v)
{
    int n = 0;
    while (!(v & 1u)) {
        v >>= 1;
        n++;
    }
    return n;
}

static int slow_clz(uint64_t v)
{
    int n = 0;
    while (!(v >> 63)) {
        v <<= 1;
        n++;
    }
    return n;
}

static int scan_agrees(uint64_t v)
{
    return wf_ctz64(v) == wf_ctz64_portable(v) && wf_ctz64(v) == slow_ctz(v)
           && wf_clz64(v) == wf_clz64_portable(v) && wf_clz64(v) == slow_clz(v);
}

static void test_bit_scans(void)
{
    int bad = 0, tried = 0;
    for (int i = 0; i < 64; i++)
        for (int j = i; j < 64; j++) {
            uint64_t v = ((uint64_t)1 << i) | ((uint64_t)1 << j);
            bad += !scan_agrees(v);
            bad += !scan_agrees(~(uint64_t)0 << i);
            bad += !scan_agrees(~(uint64_t)0 >> i);
            tried += 3;
        }
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (int k = 0; k < 100000; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t v = x >> (k % 64);     /* words with many leading zeros too */
        if (v) {
            bad += !scan_agrees(v);
            tried++;
        }
    }
    CHECK_EQ(bad, 0);
    CHECK(tried > 0);
    CHECK_EQ(wf_ctz64_portable(1), 0);
    CHECK_EQ(wf_clz64_portable(1), 63);
    CHECK_EQ(wf_ctz64_portable((uint64_t)1 << 63), 63);
    CHECK_EQ(wf_clz64_portable((uint64_t)1 << 63), 0);
}

/* ------------------------------------------------------ vertex edges -- */

typedef struct edge_tally {
    int n;
    int64_t sum;        /* of every coordinate, to see where they were */
} edge_tally;

static void tally_edge(void *p, wf_fix x0, wf_fix y0, wf_fix x1, wf_fix y1)
{
    edge_tally *t = p;
    t->n++;
    t->sum += (int64_t)x0 + y0 + x1 + y1;
}

static void test_vertex_edges(void)
{
    wf_grid *g = open_grid(9, 7);
    CHECK(g != NULL);
    if (!g)
        return;
    CHECK_EQ(wf_grid_set_passable(g, 3, 3, -1, 0), WF_OK);
    wf_vertex_query q;
    memset(&q, 0, sizeof q);
    q.x = WF_FIX(5) + WF_FIX_ONE / 2;
    q.y = WF_FIX(3) + WF_FIX_ONE / 2;
    q.range = WF_FIX(1);
    wf_vertex_square sq = {WF_FIX(6) + WF_FIX_ONE / 2, WF_FIX(4) + WF_FIX_ONE / 2,
                           WF_FIX_ONE / 2};
    edge_tally t = {0, 0};
    /* navcell (3, 3): its four sides; the square: its four sides */
    CHECK_EQ(wf_vertex_edges(g, &q, &sq, 1, tally_edge, &t), WF_OK);
    CHECK_EQ(t.n, 8);
    /* (3,3)-(4,3), (3,4)-(4,4), (3,3)-(3,4), (4,3)-(4,4), then the square's
     * (6,4)-(7,4), (6,5)-(7,5), (6,4)-(6,5), (7,4)-(7,5) */
    CHECK_EQ(t.sum, (int64_t)WF_FIX_ONE * (13 + 15 + 13 + 15 + 21 + 23 + 21 + 23));
    /* and the baseline's count agrees */
    wf_vertex *v = NULL;
    CHECK_EQ(wf_vertex_create(&v, 64), WF_OK);
    const wf_fix *xy;
    int n, reached;
    wf_vertex_stats st;
    q.brute = 1;
    wf_goal_point(&q.goal, WF_FIX(6), WF_FIX(3));
    CHECK_EQ(wf_vertex_find(v, g, &q, &sq, 1, &xy, &n, &reached, &st), WF_OK);
    CHECK_EQ(st.edges, t.n);
    wf_vertex_destroy(v);
    /* bad arguments */
    CHECK_EQ(wf_vertex_edges(g, &q, &sq, 1, NULL, &t), WF_ERR_ARG);
    q.range = 0;
    CHECK_EQ(wf_vertex_edges(g, &q, &sq, 1, tally_edge, &t), WF_ERR_ARG);
    wf_grid_destroy(g);
}

/* ------------------------------------------------------------- terrain -- */

static void test_terrain(void)
{
    wf_grid_config cfg;
    wf_grid_config_init(&cfg, 8, 4);
    cfg.nclasses = 2;
    memcpy(cfg.classes[1].name, "ship", 5);
    cfg.classes[0].limits = WF_LIMIT_SLOPE | WF_LIMIT_MAX_DEPTH;
    cfg.classes[0].max_slope = WF_FIX_ONE / 2;
    cfg.classes[0].max_depth = 0;
    cfg.classes[1].limits = WF_LIMIT_MIN_DEPTH;
    cfg.classes[1].min_depth = WF_FIX_ONE / 4;
    wf_grid *g = NULL;
    CHECK_EQ(wf_grid_create(&g, &cfg), WF_OK);
    if (!g)
        return;
    /* flat and dry without a heightmap: ships nowhere */
    CHECK(wf_grid_is_passable(g, 3, 2, 0));
    CHECK(!wf_grid_is_passable(g, 3, 2, 1));
    CHECK_EQ(wf_grid_set_height(g, 0, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_grid_set_water(g, 0), WF_ERR_ARG);
    /* a plane falling from 1 to -1 over two tiles of 4, water at 0 */
    wf_fix hs[6] = {WF_FIX_ONE, 0, -WF_FIX_ONE, WF_FIX_ONE, 0, -WF_FIX_ONE};
    CHECK_EQ(wf_grid_set_heightmap(g, 0, 2, 1, hs, 0), WF_ERR_ARG);
    CHECK_EQ(wf_grid_set_heightmap(g, 4, 3, 1, hs, 0), WF_ERR_ARG);
    CHECK_EQ(wf_grid_set_heightmap(g, 4, 2, 1, hs, (WF_MAX_HEIGHT + 1) * WF_FIX_ONE),
             WF_ERR_ARG);
    CHECK_EQ(wf_grid_heightmap(g, &(int){0}, &(int){0}, &(int){0}, &(wf_fix){0}), 0);
    uint64_t v = wf_grid_version(g);
    CHECK_EQ(wf_grid_set_heightmap(g, 4, 2, 1, hs, 0), WF_OK);
    CHECK_EQ(wf_grid_version(g), v + 1);
    int64_t h, sl, d;
    wf_grid_terrain_at(g, 0, 0, &h, &sl, &d);
    CHECK_EQ(h, 7 * WF_FIX_ONE / 8);
    CHECK_EQ(sl, WF_FIX_ONE / 4);
    CHECK_EQ(d, 0);
    wf_grid_terrain_at(g, 7, 3, &h, &sl, &d);
    CHECK_EQ(h, -7 * WF_FIX_ONE / 8);
    CHECK_EQ(d, 7 * WF_FIX_ONE / 8);
    CHECK(wf_grid_is_passable(g, 3, 1, 0) && !wf_grid_is_passable(g, 4, 1, 0));
    CHECK(!wf_grid_is_passable(g, 4, 1, 1) && wf_grid_is_passable(g, 5, 1, 1));
    /* one corner: a local update, bad corners refused */
    CHECK_EQ(wf_grid_set_height(g, 3, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_grid_set_height(g, 0, 0, (WF_MAX_HEIGHT + 1) * WF_FIX_ONE), WF_ERR_ARG);
    v = wf_grid_version(g);
    CHECK_EQ(wf_grid_set_height(g, 2, 0, 8 * WF_FIX_ONE), WF_OK);
    CHECK_EQ(wf_grid_corner_height(g, 2, 0), 8 * WF_FIX_ONE);
    /* only the tile right of x = 4 was recomputed (clearance 0) */
    int rx0, ry0, rx1, ry1;
    CHECK_EQ(wf_grid_changed_since(g, v, &rx0, &ry0, &rx1, &ry1), 1);
    CHECK(rx0 == 4 && rx1 == 7 && ry0 == 0 && ry1 == 3);
    CHECK(!wf_grid_is_passable(g, 7, 0, 1));
    int tile, tw, th;
    wf_fix water;
    CHECK_EQ(wf_grid_heightmap(g, &tile, &tw, &th, &water), 1);
    CHECK(tile == 4 && tw == 2 && th == 1 && water == 0);
    CHECK_EQ(wf_grid_set_water(g, -4 * WF_FIX_ONE), WF_OK);
    CHECK(!wf_grid_is_passable(g, 5, 1, 1));
    /* removed: flat and dry again */
    CHECK_EQ(wf_grid_set_heightmap(g, 0, 0, 0, NULL, 0), WF_OK);
    CHECK(wf_grid_is_passable(g, 4, 1, 0) && !wf_grid_is_passable(g, 5, 1, 1));
    wf_grid_destroy(g);

    /* bad class limits and shapes are refused at creation */
    wf_grid_config bad;
    wf_grid_config_init(&bad, 4, 4);
    bad.classes[0].limits = WF_LIMIT_SLOPE;
    bad.classes[0].max_slope = -1;
    CHECK_EQ(wf_grid_create(&g, &bad), WF_ERR_ARG);
    wf_grid_config_init(&bad, 4, 4);
    bad.classes[0].limits = WF_LIMIT_MIN_DEPTH | WF_LIMIT_MAX_DEPTH;
    bad.classes[0].min_depth = 2;
    bad.classes[0].max_depth = 1;
    CHECK_EQ(wf_grid_create(&g, &bad), WF_ERR_ARG);
    wf_grid_config_init(&bad, 4, 4);
    bad.classes[0].limits = 8;
    CHECK_EQ(wf_grid_create(&g, &bad), WF_ERR_ARG);
    wf_grid_config_init(&bad, 4, 4);
    bad.classes[0].clearance_shape = (wf_clearance_shape)2;
    CHECK_EQ(wf_grid_create(&g, &bad), WF_ERR_ARG);
}

/* --------------------------------------------------------------- graph -- */

static wf_graph_sector sector_box(int x0, int y0, int x1, int y1)
{
    wf_graph_sector s;
    memset(&s, 0, sizeof s);
    s.x0 = x0 * WF_FIX_ONE;
    s.y0 = y0 * WF_FIX_ONE;
    s.x1 = x1 * WF_FIX_ONE;
    s.y1 = y1 * WF_FIX_ONE;
    return s;
}

static wf_graph_portal walk_portal(int a, int b, int x0, int y0, int x1, int y1)
{
    wf_graph_portal p;
    memset(&p, 0, sizeof p);
    p.a = a;
    p.b = b;
    p.ax0 = p.bx0 = x0 * WF_FIX_ONE;
    p.ay0 = p.by0 = y0 * WF_FIX_ONE;
    p.ax1 = p.bx1 = x1 * WF_FIX_ONE;
    p.ay1 = p.by1 = y1 * WF_FIX_ONE;
    p.classes = 1;
    p.flags = WF_PORTAL_WALK;
    return p;
}

static void test_graph_update(void)
{
    /* the quadtree's leaves meeting the whole grid are all its leaves, in
     * the same order; meeting one navcell, the one leaf holding it */
    wf_grid *g = open_grid(13, 9);
    CHECK(g != NULL);
    if (!g) return;
    wf_grid_set_passable(g, 5, 3, -1, 0);
    wf_grid_set_passable(g, 6, 3, -1, 0);
    wf_graph_boxes full, part;
    CHECK_EQ(wf_graph_quadtree_from_grid(g, 0, NULL, 4, 8, &full), WF_OK);
    int all[4] = { 0, 0, 13, 9 };
    CHECK_EQ(wf_graph_quadtree_in_rects(g, 0, NULL, 8, all, 1, &part), WF_OK);
    CHECK_EQ(part.nboxes, full.nboxes);
    CHECK(part.nboxes == full.nboxes &&
          memcmp(part.box, full.box, sizeof(int) * 5 * (size_t)full.nboxes) == 0);
    wf_graph_boxes_free(&part);
    int one[4] = { 12, 8, 13, 9 };
    CHECK_EQ(wf_graph_quadtree_in_rects(g, 0, NULL, 8, one, 1, &part), WF_OK);
    CHECK_EQ(part.nboxes, 1);
    if (part.nboxes == 1) {
        CHECK(part.box[0] <= 12 && part.box[2] == 13 && part.box[1] <= 8 && part.box[3] == 9);
    }
    wf_graph_boxes_free(&part);
    int bad[4] = { 0, 0, 14, 9 };
    CHECK_EQ(wf_graph_quadtree_in_rects(g, 0, NULL, 8, bad, 1, &part), WF_ERR_ARG);
    wf_graph_boxes_free(&full);
    wf_grid_destroy(g);

    /* three boxes in a row; the middle one is replaced by two halves */
    wf_graph_sector sec[3] = { sector_box(0, 0, 4, 4), sector_box(4, 0, 8, 4),
                               sector_box(8, 0, 12, 4) };
    wf_graph_portal por[2] = { walk_portal(0, 1, 4, 0, 4, 4), walk_portal(1, 2, 8, 0, 8, 4) };
    wf_graph *old = NULL, *patched = NULL;
    CHECK_EQ(wf_graph_create(&old, sec, 3, por, 2, NULL), WF_OK);
    if (!old) return;
    int drop_sec[1] = { 1 }, drop_por[2] = { 0, 1 };
    wf_graph_sector add_sec[2] = { sector_box(4, 0, 6, 4), sector_box(6, 0, 8, 4) };
    /* new indices: 0 and 1 the kept boxes, 2 and 3 the halves */
    wf_graph_portal add_por[3] = { walk_portal(0, 2, 4, 0, 4, 4), walk_portal(2, 3, 6, 0, 6, 4),
                                   walk_portal(3, 1, 8, 0, 8, 4) };
    wf_graph_error err;
    CHECK_EQ(wf_graph_patch(&patched, old, drop_sec, 1, add_sec, 2, drop_por, 2, NULL, 0,
                            add_por, 3, &err), WF_OK);
    if (patched) {
        CHECK_EQ(wf_graph_sector_count(patched), 4);
        CHECK_EQ(wf_graph_portal_count(patched), 3);
        CHECK_EQ(wf_graph_locate(patched, 5 * WF_FIX_ONE, WF_FIX_ONE), 2);
        CHECK_EQ(wf_graph_locate(patched, 9 * WF_FIX_ONE, WF_FIX_ONE), 1);
        wf_graph_destroy(patched);
        patched = NULL;
    }
    CHECK_EQ(wf_graph_sector_count(old), 3);   /* old is untouched */
    /* a kept portal left on a dropped sector is refused, nothing made */
    CHECK_EQ(wf_graph_patch(&patched, old, drop_sec, 1, add_sec, 2, drop_por, 1, NULL, 0,
                            add_por, 3, &err), WF_ERR_ARG);
    CHECK(patched == NULL && err.fault == WF_GF_NOWHERE);
    /* an index given twice or out of range */
    int twice[2] = { 1, 1 };
    CHECK_EQ(wf_graph_patch(&patched, old, twice, 2, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
                            &err), WF_ERR_ARG);
    int far[1] = { 3 };
    CHECK_EQ(wf_graph_patch(&patched, old, far, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0, &err),
             WF_ERR_ARG);
    CHECK(patched == NULL);
    wf_graph_destroy(old);
}

/* ------------------------------------------------- JPS's open list -- */

/* A deterministic generator for the fuzzed grids below. */
static uint32_t lcg_next(uint32_t *st)
{
    *st = *st * 1664525u + 1013904223u;
    return *st >> 8;
}

/* JPS and A* on the same query: the same status and, with a path, the same
 * cost (both are optimal). Returns the status. */
static wf_status jps_matches_astar(wf_search *s, const wf_grid *g, int sx,
                                   int sy, int gx, int gy)
{
    wf_goal goal;
    wf_goal_point(&goal, WF_FIX(gx) + WF_FIX_HALF, WF_FIX(gy) + WF_FIX_HALF);
    wf_path p;
    wf_status sa = find(s, g, sx, sy, &goal, WF_ALGO_ASTAR, &p);
    int64_t ca = sa == WF_OK ? p.cost : -1;
    wf_status sj = find(s, g, sx, sy, &goal, WF_ALGO_JPS, &p);
    int64_t cj = sj == WF_OK ? p.cost : -1;
    CHECK_EQ(sj, sa);
    CHECK_EQ(cj, ca);
    if (sj == WF_OK)
        CHECK_EQ(p.algorithm, WF_ALGO_JPS);
    return sj;
}

static void test_jps_open_list(void)
{
    /* random grids, a fifth to two fifths blocked, one search scratch
     * reused across sizes: JPS's open list spills from its small array
     * into buckets on the larger ones */
    uint32_t st = 12345u;
    int found = 0, none = 0;
    for (int round = 0; round < 120; round++) {
        int w = 16 + (int)(lcg_next(&st) % 64), h = 16 + (int)(lcg_next(&st) % 64);
        int density = 20 + (int)(lcg_next(&st) % 21);   /* percent */
        wf_grid *g = open_grid(w, h);
        if (!g) {
            CHECK(g != NULL);
            return;
        }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if ((int)(lcg_next(&st) % 100) < density)
                    wf_grid_set_passable(g, x, y, -1, 0);
        wf_grid_set_passable(g, 0, 0, -1, 1);
        wf_grid_set_passable(g, w - 1, h - 1, -1, 1);
        wf_search *s = NULL;
        CHECK_EQ(wf_search_create(&s, g), WF_OK);
        wf_status r = jps_matches_astar(s, g, 0, 0, w - 1, h - 1);
        found += r == WF_OK;
        none += r == WF_NO_PATH;
        /* the entry pool is sized so that it does not run out in practice
         * (1.5 entries a navcell; these searches use under a tenth of
         * it); a scratch told it has room for few more than the small
         * array holds must compact it, freeing stale entries, and still
         * find the same paths (the true array stays as large, so entries
         * past the told capacity land in allocated memory) */
        wf_search *tight = NULL;
        CHECK_EQ(wf_search_create(&tight, g), WF_OK);
        if (tight) {
            tight->ent_cap = WF_OPEN_SMALL + 4;
            jps_matches_astar(tight, g, 0, 0, w - 1, h - 1);
            jps_matches_astar(tight, g, w / 2, h / 2, 0, h - 1);
            wf_search_destroy(tight);
        }
        /* and back, from a second pair of corners, on the same scratch */
        wf_grid_set_passable(g, w - 1, 0, -1, 1);
        wf_grid_set_passable(g, 0, h - 1, -1, 1);
        jps_matches_astar(s, g, w - 1, 0, 0, h - 1);
        wf_search_destroy(s);
        wf_grid_destroy(g);
    }
    /* both outcomes occur among the rounds */
    CHECK(found > 10);
    CHECK(none > 10);

    /* a grid wider than 8192 navcells: heuristics near the start reach
     * 2^38 cost units, so the buckets there are sorted by merging lists
     * rather than by packed keys; a field of pillars fills them */
    int w = 8300, h = 40;
    wf_grid *g = open_grid(w, h);
    if (!g) {
        CHECK(g != NULL);
        return;
    }
    for (int y = 1; y < h - 1; y += 2)
        for (int x = 1 + (y / 2) % 2; x < 120; x += 3)
            wf_grid_set_passable(g, x, y, -1, 0);
    wf_search *s = NULL;
    CHECK_EQ(wf_search_create(&s, g), WF_OK);
    CHECK_EQ(jps_matches_astar(s, g, 0, h / 2, w - 1, h / 2), WF_OK);
    /* and no path once a wall cuts the grid: the bucketed open list runs
     * dry */
    for (int y = 0; y < h; y++)
        wf_grid_set_passable(g, 200, y, -1, 0);
    CHECK_EQ(jps_matches_astar(s, g, 0, h / 2, w - 1, h / 2), WF_NO_PATH);
    wf_search_destroy(s);
    wf_grid_destroy(g);

    /* a lattice of pillars: many jump points share an f value, more than
     * the packed-key sort takes in one bucket */
    w = 300;
    h = 300;
    g = open_grid(w, h);
    if (!g) {
        CHECK(g != NULL);
        return;
    }
    for (int y = 1; y < h; y += 2)
        for (int x = 1; x < w; x += 2)
            wf_grid_set_passable(g, x, y, -1, 0);
    CHECK_EQ(wf_search_create(&s, g), WF_OK);
    CHECK_EQ(jps_matches_astar(s, g, w / 2, h / 2, w - 1, 0), WF_OK);
    CHECK_EQ(jps_matches_astar(s, g, 0, 0, w - 1, h - 2), WF_OK);
    wf_search_destroy(s);
    wf_grid_destroy(g);
}

/* ---------------------------------------------- building placement -- */

static void test_check_building(void)
{
    /* a 10 x 10 grid with navcell (6, 5) blocked */
    wf_grid *g = open_grid(10, 10);
    if (!g) {
        CHECK(g != NULL);
        return;
    }
    CHECK_EQ(wf_grid_set_passable(g, 6, 5, -1, 0), WF_OK);
    wf_shape fp;
    /* a 2 x 2 footprint centred on (3, 3): with margin 1/2 it touches
     * navcells 1..4 each way, all passable */
    wf_shape_init(&fp, WF_FIX(3), WF_FIX(3), WF_FIX(1), WF_FIX(1), WF_FIX_ONE, 0);
    int ok = -1, bx = -1, by = -1;
    CHECK_EQ(wf_grid_check_building(g, &fp, 0, WF_FIX_HALF, &ok, &bx, &by), WF_OK);
    CHECK_EQ(ok, 1);
    CHECK_EQ(bx, -1);   /* untouched when it fits */
    /* moved to (5, 5), its margin reaches the blocked navcell: the first
     * failing navcell, row by row from the lowest */
    wf_shape_init(&fp, WF_FIX(5), WF_FIX(5), WF_FIX(1), WF_FIX(1), WF_FIX_ONE, 0);
    CHECK_EQ(wf_grid_check_building(g, &fp, 0, WF_FIX_HALF, &ok, &bx, &by), WF_OK);
    CHECK_EQ(ok, 0);
    CHECK_EQ(bx, 6);
    CHECK_EQ(by, 5);
    /* without the optional outputs: the same answer */
    ok = -1;
    CHECK_EQ(wf_grid_check_building(g, &fp, 0, WF_FIX_HALF, &ok, NULL, NULL), WF_OK);
    CHECK_EQ(ok, 0);
    /* hanging over the grid's edge counts as failing: (-1, -1) first */
    wf_shape_init(&fp, WF_FIX_HALF, WF_FIX_HALF, WF_FIX_ONE, WF_FIX_ONE, WF_FIX_ONE, 0);
    CHECK_EQ(wf_grid_check_building(g, &fp, 0, 0, &ok, &bx, &by), WF_OK);
    CHECK_EQ(ok, 0);
    CHECK_EQ(bx, -1);
    CHECK_EQ(by, -1);
    /* a footprint turned 45 degrees: a diamond round (5, 5) reaching
     * 1.41 along each axis; navcell (3, 3) lies in its bounding box but
     * not in it, so blocking it changes nothing, while (4, 4) touches it */
    CHECK_EQ(wf_grid_set_passable(g, 6, 5, -1, 1), WF_OK);
    CHECK_EQ(wf_grid_set_passable(g, 3, 3, -1, 0), WF_OK);
    wf_shape_init(&fp, WF_FIX(5), WF_FIX(5), WF_FIX(1), WF_FIX(1), 46341, 46341);
    CHECK_EQ(wf_grid_check_building(g, &fp, 0, 0, &ok, &bx, &by), WF_OK);
    CHECK_EQ(ok, 1);
    CHECK_EQ(wf_grid_set_passable(g, 4, 4, -1, 0), WF_OK);
    CHECK_EQ(wf_grid_check_building(g, &fp, 0, 0, &ok, &bx, &by), WF_OK);
    CHECK_EQ(ok, 0);
    CHECK_EQ(bx, 4);
    CHECK_EQ(by, 4);
    /* every bad argument, *ok left 0 */
    wf_shape_init(&fp, WF_FIX(3), WF_FIX(3), WF_FIX(1), WF_FIX(1), WF_FIX_ONE, 0);
    ok = -1;
    CHECK_EQ(wf_grid_check_building(NULL, &fp, 0, 0, &ok, NULL, NULL), WF_ERR_ARG);
    CHECK_EQ(ok, 0);
    CHECK_EQ(wf_grid_check_building(g, NULL, 0, 0, &ok, NULL, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_grid_check_building(g, &fp, -1, 0, &ok, NULL, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_grid_check_building(g, &fp, 1, 0, &ok, NULL, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_grid_check_building(g, &fp, 0, -1, &ok, NULL, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_grid_check_building(g, &fp, 0, WF_FIX(64) + 1, &ok, NULL, NULL),
             WF_ERR_ARG);
    CHECK_EQ(wf_grid_check_building(g, &fp, 0, WF_FIX(64), &ok, NULL, NULL), WF_OK);
    wf_shape bad = fp;
    bad.hw = -1;
    CHECK_EQ(wf_grid_check_building(g, &bad, 0, 0, &ok, NULL, NULL), WF_ERR_ARG);
    bad = fp;
    bad.hh = -1;
    CHECK_EQ(wf_grid_check_building(g, &bad, 0, 0, &ok, NULL, NULL), WF_ERR_ARG);
    bad = fp;
    bad.hw = WF_FIX(WF_MAX_SIDE);   /* grown by the margin past the side */
    CHECK_EQ(wf_grid_check_building(g, &bad, 0, 1, &ok, NULL, NULL), WF_ERR_ARG);
    bad = fp;
    bad.hh = WF_FIX(WF_MAX_SIDE);
    CHECK_EQ(wf_grid_check_building(g, &bad, 0, 1, &ok, NULL, NULL), WF_ERR_ARG);
    wf_grid_destroy(g);
}

/* ------------------------------------------------ steering groups -- */

/* The inverse of odd a modulo 2^32 (Newton's iteration). */
static uint32_t inverse_u32(uint32_t a)
{
    uint32_t x = a;
    for (int k = 0; k < 5; k++)
        x *= 2u - a * x;
    return x;
}

static void test_steer_api(void)
{
    wf_steer_config cfg, bad;
    wf_steer_config_default(&cfg);
    wf_steer *s = NULL;
    CHECK_EQ(wf_steer_create(NULL, &cfg), WF_ERR_ARG);
    CHECK_EQ(wf_steer_create(&s, NULL), WF_ERR_ARG);
    /* each field just outside its range */
#define BAD_CONFIG(field, value)                                            \
    do {                                                                    \
        bad = cfg;                                                          \
        bad.field = (value);                                                \
        s = NULL;                                                           \
        CHECK_EQ(wf_steer_create(&s, &bad), WF_ERR_ARG);                    \
        CHECK(s == NULL);                                                   \
    } while (0)
    BAD_CONFIG(max_speed, 0);
    BAD_CONFIG(max_speed, WF_FIX(8) + 1);
    BAD_CONFIG(max_accel, 0);
    BAD_CONFIG(slow_radius, 0);
    BAD_CONFIG(neighbour_radius, 0);
    BAD_CONFIG(separation_radius, cfg.neighbour_radius + 1);
    BAD_CONFIG(lookahead, -1);
    BAD_CONFIG(wander_distance, -1);
    BAD_CONFIG(wander_radius, WF_FIX(64) + 1);
    BAD_CONFIG(wander_jitter, 4 * WF_ANGLE_ONE + 1);
    BAD_CONFIG(radius, -1);
    BAD_CONFIG(capacity, 0);
    BAD_CONFIG(capacity, WF_STEER_MAX_AGENTS + 1);
    /* a body radius needs neighbour_radius >= 2 radius + 2 max_speed */
    bad = cfg;
    bad.radius = WF_FIX_HALF;
    bad.max_speed = WF_FIX_HALF;
    bad.neighbour_radius = WF_FIX(2) - 1;
    CHECK_EQ(wf_steer_create(&s, &bad), WF_ERR_ARG);
    bad.neighbour_radius = WF_FIX(2);
    CHECK_EQ(wf_steer_create(&s, &bad), WF_OK);
    wf_steer_destroy(s);
#undef BAD_CONFIG

    /* a group of two; the seed is chosen so that the first agent's mixed
     * seed, seed * 2654435761 + 1, is zero: its generator still starts
     * from a non-zero state, the one a mixed seed of 1 gives */
    cfg.capacity = 2;
    cfg.seed = (uint32_t)(0u - inverse_u32(2654435761u));
    CHECK_EQ(cfg.seed * 2654435761u + 1u, 0);
    CHECK_EQ(wf_steer_create(&s, &cfg), WF_OK);
    if (!s)
        return;
    CHECK_EQ(wf_steer_add(s, 0, 0, 0, 0, NULL), WF_OK);   /* index optional */
    int64_t angle = -1;
    uint32_t rng = 0;
    CHECK_EQ(wf_steer_get_wander(s, 0, &angle, &rng), WF_OK);
    CHECK_EQ(angle, 0);
    uint32_t one = 1u;
    one ^= one << 13;
    one ^= one >> 17;
    one ^= one << 5;
    CHECK_EQ(rng, one);
    int j = -1;
    const wf_fix lim = WF_STEER_POS_LIMIT;
    CHECK_EQ(wf_steer_add(s, lim + 1, 0, 0, 0, &j), WF_ERR_ARG);
    CHECK_EQ(wf_steer_add(s, 0, -lim - 1, 0, 0, &j), WF_ERR_ARG);
    CHECK_EQ(wf_steer_add(s, 0, 0, WF_FIX(8) + 1, 0, &j), WF_ERR_ARG);
    CHECK_EQ(wf_steer_add(s, 0, 0, 0, cfg.max_speed + 1, &j), WF_ERR_ARG);
    CHECK_EQ(wf_steer_add(s, WF_FIX(3), 0, 0, 0, &j), WF_OK);
    CHECK_EQ(j, 1);
    CHECK_EQ(wf_steer_add(s, 0, 0, 0, 0, &j), WF_ERR_FULL);
    CHECK_EQ(wf_steer_count(s), 2);

    /* every index and value check, and nothing changed by a refusal */
    wf_fix x, y, vx, vy;
    CHECK_EQ(wf_steer_set_state(s, -1, 0, 0, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_state(s, 2, 0, 0, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_state(s, 0, lim + 1, 0, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_state(s, 0, 0, 0, 0, -WF_FIX(8) - 1), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_state(s, 0, 0, 0, cfg.max_speed, cfg.max_speed / 2),
             WF_ERR_ARG);
    CHECK_EQ(wf_steer_get_state(s, -1, &x, &y, &vx, &vy), WF_ERR_ARG);
    CHECK_EQ(wf_steer_get_state(s, 2, &x, &y, &vx, &vy), WF_ERR_ARG);
    CHECK_EQ(wf_steer_get_state(s, 0, &x, &y, &vx, &vy), WF_OK);
    CHECK_EQ(x, 0);
    CHECK_EQ(vy, 0);
    int w[WF_STEER_COUNT] = {0};
    CHECK_EQ(wf_steer_set_weights(s, -1, w), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_weights(s, 2, w), WF_ERR_ARG);
    w[WF_STEER_WANDER] = -1;
    CHECK_EQ(wf_steer_set_weights(s, 0, w), WF_ERR_ARG);
    w[WF_STEER_WANDER] = WF_STEER_MAX_WEIGHT + 1;
    CHECK_EQ(wf_steer_set_weights(s, 0, w), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_speed(s, -1, WF_FIX_ONE / 8), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_speed(s, 2, WF_FIX_ONE / 8), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_speed(s, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_speed(s, 0, cfg.max_speed + 1), WF_ERR_ARG);
    CHECK_EQ(wf_steer_get_speed(s, 0), cfg.max_speed);
    CHECK_EQ(wf_steer_get_speed(s, -1), 0);
    CHECK_EQ(wf_steer_get_speed(s, 2), 0);
    CHECK_EQ(wf_steer_set_point(s, -1, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_point(s, 2, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_point(s, 0, 0, lim + 1), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_quarry(s, -1, 1), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_quarry(s, 2, 1), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_quarry(s, 0, -2), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_quarry(s, 0, 2), WF_ERR_ARG);
    CHECK_EQ(wf_steer_set_quarry(s, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_steer_get_wander(s, -1, &angle, &rng), WF_ERR_ARG);
    CHECK_EQ(wf_steer_get_wander(s, 2, &angle, &rng), WF_ERR_ARG);
    wf_fix ax = 7, ay = 7;
    CHECK_EQ(wf_steer_force(s, -1, WF_STEER_SEEK, &ax, &ay), WF_ERR_ARG);
    CHECK_EQ(wf_steer_force(s, 2, WF_STEER_SEEK, &ax, &ay), WF_ERR_ARG);
    CHECK_EQ(wf_steer_force(s, 0, -1, &ax, &ay), WF_ERR_ARG);
    CHECK_EQ(wf_steer_force(s, 0, WF_STEER_COUNT, &ax, &ay), WF_ERR_ARG);
    CHECK_EQ(ax, 7);
    CHECK_EQ(wf_steer_predict(s, -1, &ax, &ay), WF_ERR_ARG);
    CHECK_EQ(wf_steer_predict(s, 2, &ax, &ay), WF_ERR_ARG);
    CHECK_EQ(wf_steer_predict(s, 0, &ax, &ay), WF_ERR_NOTFOUND);

    /* a step on a grid where agent 1 stands on a blocked navcell is
     * refused and moves nobody; without it a step with no count output */
    wf_grid *g = open_grid(8, 8);
    if (g) {
        CHECK_EQ(wf_steer_set_state(s, 0, WF_FIX(1), WF_FIX(1), 0, 0), WF_OK);
        CHECK_EQ(wf_steer_set_point(s, 0, WF_FIX(5), WF_FIX(1)), WF_OK);
        w[WF_STEER_WANDER] = 0;
        w[WF_STEER_SEEK] = 1;
        CHECK_EQ(wf_steer_set_weights(s, 0, w), WF_OK);
        CHECK_EQ(wf_grid_set_passable(g, 3, 0, -1, 0), WF_OK);
        int nb = -1;
        CHECK_EQ(wf_steer_step(s, g, 0, &nb), WF_ERR_ARG);
        CHECK_EQ(nb, -1);
        CHECK_EQ(wf_steer_ticks(s), 0);
        CHECK_EQ(wf_steer_get_state(s, 0, &x, &y, &vx, &vy), WF_OK);
        CHECK_EQ(x, WF_FIX(1));
        CHECK_EQ(wf_steer_set_state(s, 1, WF_FIX(6), WF_FIX(6), 0, 0), WF_OK);
        CHECK_EQ(wf_steer_step(s, g, 0, NULL), WF_OK);
        CHECK_EQ(wf_steer_ticks(s), 1);
        CHECK_EQ(wf_steer_get_state(s, 0, &x, &y, &vx, &vy), WF_OK);
        CHECK(x > WF_FIX(1));
        wf_grid_destroy(g);
    }
    wf_steer_destroy(s);
    wf_steer_destroy(NULL);
}

/* ------------------------------------------------------- formations -- */

static void test_formation_api(void)
{
    wf_fix ox[4], oy[4];
    CHECK_EQ(wf_formation_offsets(-1, 2, WF_FIX_ONE, ox, oy), WF_ERR_ARG);
    CHECK_EQ(wf_formation_offsets(WF_FORM_COUNT, 2, WF_FIX_ONE, ox, oy), WF_ERR_ARG);
    CHECK_EQ(wf_formation_offsets(WF_FORM_BOX, 0, WF_FIX_ONE, ox, oy), WF_ERR_ARG);
    CHECK_EQ(wf_formation_offsets(WF_FORM_BOX, WF_FORM_MAX_MEMBERS + 1, WF_FIX_ONE,
                                  ox, oy), WF_ERR_ARG);
    CHECK_EQ(wf_formation_offsets(WF_FORM_BOX, 2, 0, ox, oy), WF_ERR_ARG);
    CHECK_EQ(wf_formation_offsets(WF_FORM_BOX, 2, WF_FIX(64) + 1, ox, oy), WF_ERR_ARG);
    CHECK_EQ(wf_formation_offsets(WF_FORM_WEDGE, 4, WF_FIX_ONE, ox, oy), WF_OK);
    CHECK_EQ(ox[3], -WF_FIX(2));   /* the second pair, two rows behind */

    /* assignment: the cheaper of the two pairings, and each bad input */
    int64_t cost[4] = {5, 1, 2, 7};   /* member 0 -> slot 1, 1 -> slot 0 */
    int slot[2] = {-1, -1};
    int64_t total = -1;
    CHECK_EQ(wf_assign_min_cost(2, cost, slot, &total), WF_OK);
    CHECK_EQ(slot[0], 1);
    CHECK_EQ(slot[1], 0);
    CHECK_EQ(total, 3);
    CHECK_EQ(wf_assign_min_cost(2, cost, slot, NULL), WF_OK);
    CHECK_EQ(wf_assign_min_cost(0, cost, slot, &total), WF_ERR_ARG);
    CHECK_EQ(wf_assign_min_cost(WF_FORM_MAX_MEMBERS + 1, cost, slot, &total),
             WF_ERR_ARG);
    CHECK_EQ(wf_assign_min_cost(2, NULL, slot, &total), WF_ERR_ARG);
    CHECK_EQ(wf_assign_min_cost(2, cost, NULL, &total), WF_ERR_ARG);
    cost[2] = -1;
    CHECK_EQ(wf_assign_min_cost(2, cost, slot, &total), WF_ERR_ARG);
    cost[2] = ((int64_t)1 << 40) + 1;
    CHECK_EQ(wf_assign_min_cost(2, cost, slot, &total), WF_ERR_ARG);
    const wf_fix lim = WF_FIX(8192);
    wf_fix zero[1] = {0}, far[1] = {lim + 1};
    CHECK_EQ(wf_assign_points(0, zero, zero, zero, zero, slot, &total), WF_ERR_ARG);
    CHECK_EQ(wf_assign_points(1, far, zero, zero, zero, slot, &total), WF_ERR_ARG);
    CHECK_EQ(wf_assign_points(1, zero, far, zero, zero, slot, &total), WF_ERR_ARG);
    CHECK_EQ(wf_assign_points(1, zero, zero, far, zero, slot, &total), WF_ERR_ARG);
    CHECK_EQ(wf_assign_points(1, zero, zero, zero, far, slot, &total), WF_ERR_ARG);
    CHECK_EQ(wf_assign_points(1, zero, zero, zero, zero, slot, &total), WF_OK);
    CHECK_EQ(total, 0);

    /* a formation of two on a two-point path, then each bad config */
    wf_fix mx[2] = {WF_FIX(2), WF_FIX(2)}, my[2] = {WF_FIX(2), WF_FIX(4)};
    wf_fix sp[2] = {WF_FIX_ONE / 4, WF_FIX_ONE / 4};
    wf_fix fox[2] = {0, 0}, foy[2] = {WF_FIX_ONE, -WF_FIX_ONE};
    wf_fix px[2] = {WF_FIX(3), WF_FIX(6)}, py[2] = {WF_FIX(3), WF_FIX(3)};
    wf_formation_config c, b;
    memset(&c, 0, sizeof c);
    c.n = 2;
    c.x = mx;
    c.y = my;
    c.speed = sp;
    c.ox = fox;
    c.oy = foy;
    c.spacing = WF_FIX_ONE;
    c.npoints = 2;
    c.px = px;
    c.py = py;
    c.pace = WF_FIX_ONE / 2;
    c.slack = WF_FIX(3);
    c.reform = 10;
    wf_formation *f = NULL;
    CHECK_EQ(wf_formation_create(NULL, &c), WF_ERR_ARG);
    CHECK_EQ(wf_formation_create(&f, NULL), WF_ERR_ARG);
#define BAD_FORMATION(field, value)                                         \
    do {                                                                    \
        b = c;                                                              \
        b.field = (value);                                                  \
        f = NULL;                                                           \
        CHECK_EQ(wf_formation_create(&f, &b), WF_ERR_ARG);                  \
        CHECK(f == NULL);                                                   \
    } while (0)
    BAD_FORMATION(n, 0);
    BAD_FORMATION(n, WF_FORM_MAX_MEMBERS + 1);
    BAD_FORMATION(x, NULL);
    BAD_FORMATION(y, NULL);
    BAD_FORMATION(speed, NULL);
    BAD_FORMATION(ox, NULL);
    BAD_FORMATION(oy, NULL);
    BAD_FORMATION(px, NULL);
    BAD_FORMATION(py, NULL);
    BAD_FORMATION(spacing, 0);
    BAD_FORMATION(npoints, 0);
    BAD_FORMATION(npoints, WF_FORM_MAX_POINTS + 1);
    BAD_FORMATION(pace, WF_FIX_ONE + 1);
    BAD_FORMATION(slack, 0);
    BAD_FORMATION(reform, 0);
    BAD_FORMATION(reform, 10001);
#undef BAD_FORMATION
    wf_fix badv[2] = {0, lim + 1};
    wf_fix badsp[2] = {WF_FIX_ONE, WF_FIX(8) + 1};
    wf_fix badoff[2] = {0, WF_FIX(256) + 1};
    const wf_fix *const *fields[] = {&c.x, &c.y, &c.speed, &c.ox, &c.oy,
                                     &c.px, &c.py};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        b = c;
        const wf_fix *v = k == 2 ? badsp : k == 3 || k == 4 ? badoff : badv;
        /* the same field of b as of c */
        *(const wf_fix **)((char *)&b + ((const char *)fields[k] - (const char *)&c)) = v;
        f = NULL;
        CHECK_EQ(wf_formation_create(&f, &b), WF_ERR_ARG);
        CHECK(f == NULL);
    }

    CHECK_EQ(wf_formation_create(&f, &c), WF_OK);
    if (!f)
        return;
    CHECK_EQ(wf_formation_count(f), 2);
    wf_formation_member m;
    CHECK_EQ(wf_formation_member_get(f, -1, &m), WF_ERR_ARG);
    CHECK_EQ(wf_formation_member_get(f, 2, &m), WF_ERR_ARG);
    CHECK_EQ(wf_formation_member_get(f, 1, &m), WF_OK);
    /* heading +x: offset (0, -1) lies at (3, 2), nearest member 0 at
     * (2, 2); member 1 at (2, 4) takes (3, 4) */
    CHECK_EQ(m.slot, 0);
    CHECK_EQ(m.sx, WF_FIX(3));
    CHECK_EQ(m.sy, WF_FIX(4));
    wf_grid *g = open_grid(10, 10);
    if (g) {
        /* a member on blocked ground: refused, nothing moved */
        CHECK_EQ(wf_grid_set_passable(g, 2, 4, -1, 0), WF_OK);
        int arrived = -1;
        CHECK_EQ(wf_formation_step(f, g, 0, &arrived), WF_ERR_ARG);
        CHECK_EQ(arrived, -1);
        CHECK_EQ(wf_formation_ticks(f), 0);
        CHECK_EQ(wf_grid_set_passable(g, 2, 4, -1, 1), WF_OK);
        /* steps without the arrival output until the anchor is at the
         * path's end, then the members settle on their slots */
        for (int t = 0; t < 40; t++)
            CHECK_EQ(wf_formation_step(f, g, 0, NULL), WF_OK);
        CHECK_EQ(wf_formation_step(f, g, 0, &arrived), WF_OK);
        CHECK_EQ(arrived, 1);
        wf_fix ax, ay, aspeed;
        wf_formation_anchor(f, &ax, &ay, &aspeed);
        CHECK_EQ(ax, WF_FIX(6));
        CHECK_EQ(aspeed, WF_FIX_ONE / 8);
        CHECK_EQ(wf_formation_member_get(f, 1, &m), WF_OK);
        CHECK_EQ(m.x, WF_FIX(6));
        CHECK_EQ(m.y, WF_FIX(4));
        wf_grid_destroy(g);
    }
    wf_formation_destroy(f);
    wf_formation_destroy(NULL);
}

int main(void)
{
    test_bit_scans();
    test_grid();
    test_search();
    test_goal_circle();
    test_status();
    test_hier();
    test_queue();
    test_walker();
    test_rectplan();
    test_graph_update();
    test_bad_arguments();
    test_vertex_edges();
    test_terrain();
    test_jps_open_list();
    test_check_building();
    test_steer_api();
    test_formation_api();
    printf("core: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
