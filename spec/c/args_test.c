/* args_test.c - the C core's argument checks, which the Lua binding's own
 * checks keep the specs from reaching: every documented WF_ERR_ARG,
 * WF_ERR_NOTFOUND and WF_ERR_FULL of the units API, the graph search's,
 * the graph builders' and the walker's checks, and the names of every reason and state
 * (unknown values included). Built against
 * src/wayfinder.h alone; `make ctest` runs it as built and under
 * ASan+UBSan, and `make coverage` counts it. Prints "args: N passed, M
 * failed" last and exits non-zero on any failure. */
#include <stdio.h>
#include <string.h>

#include "wayfinder.h"

static int passed, failed;

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

#define F(n) WF_FIX(n)

static wf_grid *grid(int w, int h)
{
    wf_grid_config cfg;
    wf_grid *g = NULL;
    wf_grid_config_init(&cfg, w, h);
    if (wf_grid_create(&g, &cfg) != WF_OK)
        return NULL;
    return g;
}

static void config_checks(const wf_grid *g)
{
    wf_units *u = NULL;
    wf_units_config c;
    CHECK_EQ(wf_units_create(&u, NULL, NULL), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.capacity = 0;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.capacity = WF_UNITS_MAX + 1;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.budget = 0;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.budget = ((uint64_t)1 << 53) + 1;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.max_wait = -1;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.max_wait = 1000001;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.max_order_ticks = 0;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.max_order_ticks = 100000001;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.bucket = 0;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.bucket = 257;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.brute = 2;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.short_range = -1;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    wf_units_config_init(&c);
    c.short_range = 65;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_ERR_ARG);
    CHECK_EQ(u == NULL, 1);
}

static void unit_checks(wf_grid *g)
{
    wf_units *u = NULL;
    wf_units_config c;
    wf_units_config_init(&c);
    c.capacity = 2;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_OK);
    wf_unit_reason why;
    uint32_t id = 0;
    /* placement: bad class or radius, and every side off the grid */
    CHECK_EQ(wf_units_check_placement(u, g, F(1), F(1), -1, F(1) / 4, 0, &why), WF_ERR_ARG);
    CHECK_EQ(wf_units_check_placement(u, g, F(1), F(1), 1, F(1) / 4, 0, &why), WF_ERR_ARG);
    CHECK_EQ(wf_units_check_placement(u, g, F(1), F(1), 0, 0, 0, &why), WF_ERR_ARG);
    CHECK_EQ(wf_units_check_placement(u, g, F(1), F(1), 0, F(9), 0, &why), WF_ERR_ARG);
    const wf_fix off[4][2] = {{-1, F(1)}, {F(1), -1}, {F(16), F(1)}, {F(1), F(12)}};
    for (int k = 0; k < 4; k++) {
        CHECK_EQ(wf_units_check_placement(u, g, off[k][0], off[k][1], 0, F(1) / 4, 0, &why),
                 WF_OK);
        CHECK_EQ(why, WF_UNIT_OUTSIDE);
    }
    /* add: bad speed, then full */
    CHECK_EQ(wf_units_add(u, g, F(1), F(1), 0, F(1) / 4, 0, &id, &why), WF_ERR_ARG);
    CHECK_EQ(wf_units_add(u, g, F(1), F(1), 0, F(1) / 4, F(17), &id, &why), WF_ERR_ARG);
    CHECK_EQ(wf_units_add(u, g, F(1), F(1), 0, F(1) / 4, F(1), &id, &why), WF_OK);
    CHECK_EQ(id, 1);
    CHECK_EQ(wf_units_add(u, g, F(8), F(8), 0, F(1) / 4, F(1), &id, &why), WF_OK);
    CHECK_EQ(id, 2);
    CHECK_EQ(wf_units_add(u, g, F(12), F(4), 0, F(1) / 4, F(1), &id, &why), WF_ERR_FULL);
    /* orders: unknown ids and bad goals */
    wf_goal goal;
    wf_goal_point(&goal, F(5), F(5));
    CHECK_EQ(wf_units_move(u, 9, &goal), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_units_stop(u, 9), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_units_remove(u, 9), WF_ERR_NOTFOUND);
    wf_unit_info info;
    CHECK_EQ(wf_units_get(u, 9, &info), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_units_id(u, 5), 0);
    goal.inverted = 1;                      /* an inverted point */
    CHECK_EQ(wf_units_move(u, 1, &goal), WF_ERR_ARG);
    wf_goal_point(&goal, F(5), F(5));
    goal.inverted = 2;
    CHECK_EQ(wf_units_move(u, 1, &goal), WF_ERR_ARG);
    wf_goal_circle(&goal, F(5), F(5), F(WF_MAX_SIDE) + 1);   /* too wide */
    CHECK_EQ(wf_units_move(u, 1, &goal), WF_ERR_ARG);
    wf_goal_square(&goal, F(5), F(5), F(1), F(WF_MAX_SIDE) + 1, F(1), 0);
    CHECK_EQ(wf_units_move(u, 1, &goal), WF_ERR_ARG);
    wf_goal_circle(&goal, F(5), F(5), -1);
    CHECK_EQ(wf_units_move(u, 1, &goal), WF_ERR_ARG);
    wf_goal_square(&goal, F(5), F(5), -1, F(1), F(1), 0);
    CHECK_EQ(wf_units_move(u, 1, &goal), WF_ERR_ARG);
    wf_goal_square(&goal, F(5), F(5), F(1), -1, F(1), 0);
    CHECK_EQ(wf_units_move(u, 1, &goal), WF_ERR_ARG);
    wf_goal_point(&goal, F(5), F(5));
    goal.type = (wf_goal_type)7;
    CHECK_EQ(wf_units_move(u, 1, &goal), WF_ERR_ARG);
    /* spawning and dispersal: bad shapes, classes, radii, counts, caps */
    wf_shape s;
    wf_shape_init(&s, F(8), F(6), F(1), F(1), F(1), 0);
    wf_fix xy[8];
    int n = 0;
    CHECK_EQ(wf_units_spawn_points(u, g, &s, 3, F(1) / 4, 2, xy, &n), WF_ERR_ARG);
    CHECK_EQ(wf_units_spawn_points(u, g, &s, 0, 0, 2, xy, &n), WF_ERR_ARG);
    CHECK_EQ(wf_units_spawn_points(u, g, &s, 0, F(1) / 4, -1, xy, &n), WF_ERR_ARG);
    CHECK_EQ(wf_units_spawn_points(u, g, NULL, 0, F(1) / 4, 2, xy, &n), WF_ERR_ARG);
    wf_shape bad = s;
    bad.hw = -1;
    CHECK_EQ(wf_units_spawn_points(u, g, &bad, 0, F(1) / 4, 2, xy, &n), WF_ERR_ARG);
    bad = s;
    bad.ux = F(2);
    CHECK_EQ(wf_units_spawn_points(u, g, &bad, 0, F(1) / 4, 2, xy, &n), WF_ERR_ARG);
    uint32_t ids[4];
    size_t count = 0;
    CHECK_EQ(wf_units_disperse(u, g, &s, 0, ids, 1, &count), WF_ERR_ARG);
    CHECK_EQ(wf_units_disperse(u, g, &s, 9, ids, 4, &count), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_units_disperse(u, g, &bad, 0, ids, 4, &count), WF_ERR_ARG);
    /* a tick with too few event slots, or over a grid of another size */
    wf_unit_event ev[4];
    CHECK_EQ(wf_units_tick(u, g, NULL, ev, 1, &count), WF_ERR_ARG);
    wf_grid *other = grid(10, 10);
    CHECK_EQ(wf_units_tick(u, other, NULL, ev, 4, &count), WF_ERR_ARG);
    wf_grid_destroy(other);
    /* short paths of unknown units */
    const wf_fix *pts;
    int np = 0, reached = 0;
    wf_vertex_stats st;
    wf_goal_point(&goal, F(5), F(5));
    CHECK_EQ(wf_units_short_path(u, g, 9, &goal, F(4), 0, &pts, &np, &reached, &st),
             WF_ERR_NOTFOUND);
    /* restore: a duplicate id, a bad state, a bad class */
    CHECK_EQ(wf_units_get(u, 1, &info), WF_OK);
    CHECK_EQ(wf_units_restore(u, g, &info, NULL, 0), WF_ERR_ARG);
    wf_units_destroy(u);
}

/* wf_units_restore takes a unit's whole state from a save: every field
 * out of range or inconsistent with the state is refused and adds no
 * unit; the same record with a fresh id is accepted as it was. */
static void restore_checks(wf_grid *g)
{
    wf_units *u = NULL;
    wf_units_config c;
    wf_units_config_init(&c);
    c.capacity = 4;
    CHECK_EQ(wf_units_create(&u, g, &c), WF_OK);
    wf_unit_reason why;
    uint32_t id = 0;
    CHECK_EQ(wf_units_add(u, g, F(2), F(2), 0, F(1) / 4, F(1), &id, &why), WF_OK);
    wf_unit_info base, in;
    CHECK_EQ(wf_units_get(u, id, &base), WF_OK);
    base.id = 50;
    const wf_fix way[4] = { F(3), F(2), F(5), F(2) }, out_way[2] = { F(3), F(12) };
    wf_goal far;
    wf_goal_point(&far, F(5), F(2));
#define BAD(field, value)                                          \
    do {                                                           \
        in = base;                                                 \
        in.field = value;                                          \
        CHECK_EQ(wf_units_restore(u, g, &in, NULL, 0), WF_ERR_ARG); \
    } while (0)
    BAD(id, 0);
    BAD(id, UINT32_MAX);
    BAD(cls, -1);
    BAD(cls, 1);
    BAD(radius, 0);
    BAD(radius, WF_UNIT_MAX_RADIUS + 1);
    BAD(speed, 0);
    BAD(speed, WF_UNIT_MAX_SPEED + 1);
    BAD(x, -1);
    BAD(y, -1);
    BAD(x, F(16));
    BAD(y, F(12));
    BAD(state, (wf_unit_state)-1);
    BAD(state, (wf_unit_state)(WF_UNIT_ESCAPING + 1));
    BAD(nway, 1);                               /* n is 0 */
    BAD(next, -1);
    BAD(next, 1);
    BAD(wait, -1);
    BAD(order_ticks, -1);
    BAD(has_order, 2);
    BAD(plan_seq, 3);                           /* idle with a plan pending */
    BAD(state, WF_UNIT_PLANNING);               /* planning without an order */
    BAD(state, WF_UNIT_MOVING);                 /* moving without an order */
    BAD(vx, 2 * WF_UNIT_MAX_SPEED + 1);
    BAD(vy, -2 * WF_UNIT_MAX_SPEED - 1);
    BAD(cur, -1);
    BAD(cur, base.speed + 1);
    BAD(hx, F(1) + 1);
    BAD(hy, -F(1) - 1);
    BAD(best, -1);
    BAD(stall, -1);
    BAD(yield, -1);
    BAD(yield, WF_UNIT_STALL_TICKS + 1);
    in = base;
    in.hx = in.hy = 0;                          /* no heading */
    CHECK_EQ(wf_units_restore(u, g, &in, NULL, 0), WF_ERR_ARG);
    /* an order's goal, a plan's sequence number, waypoints, an escape */
    in = base;
    in.has_order = 1;
    in.goal = far;
    in.goal.type = (wf_goal_type)7;
    CHECK_EQ(wf_units_restore(u, g, &in, NULL, 0), WF_ERR_ARG);
    in.goal = far;
    in.state = WF_UNIT_PLANNING;                /* a point goal needs its plan */
    CHECK_EQ(wf_units_restore(u, g, &in, NULL, 0), WF_ERR_ARG);
    in.state = WF_UNIT_MOVING;                  /* moving with no waypoint */
    CHECK_EQ(wf_units_restore(u, g, &in, NULL, 0), WF_ERR_ARG);
    in.nway = 1;
    CHECK_EQ(wf_units_restore(u, g, &in, out_way, 1), WF_ERR_ARG);
    in.state = WF_UNIT_ESCAPING;
    in.nway = 0;
    in.ex = F(16);
    CHECK_EQ(wf_units_restore(u, g, &in, NULL, 0), WF_ERR_ARG);
    in.ex = F(3);
    in.ey = -1;
    CHECK_EQ(wf_units_restore(u, g, &in, NULL, 0), WF_ERR_ARG);
#undef BAD
    CHECK_EQ(wf_units_count(u), 1);
    /* accepted: moving along two waypoints toward the far point */
    in = base;
    in.has_order = 1;
    in.goal = far;
    in.state = WF_UNIT_MOVING;
    in.nway = 2;
    in.next = 0;
    CHECK_EQ(wf_units_restore(u, g, &in, way, 2), WF_OK);
    CHECK_EQ(wf_units_count(u), 2);
    wf_unit_info back;
    CHECK_EQ(wf_units_get(u, 50, &back), WF_OK);
    CHECK_EQ(back.state, WF_UNIT_MOVING);
    CHECK_EQ(back.nway, 2);
    CHECK_EQ(back.x, base.x);
    CHECK_EQ(wf_units_restore(u, g, &in, way, 2), WF_ERR_ARG);  /* the id is taken */
    /* short paths and vertex edges over a grid of another size or range */
    wf_grid *other = grid(10, 10);
    const wf_fix *pts;
    int np = 0, reached = 0;
    wf_vertex_stats st;
    CHECK_EQ(wf_units_short_path(u, other, id, &far, F(4), 0, &pts, &np, &reached, &st),
             WF_ERR_ARG);
    CHECK_EQ(wf_units_short_path(u, NULL, id, &far, F(4), 0, &pts, &np, &reached, &st),
             WF_ERR_ARG);
    wf_grid_destroy(other);
    wf_units_destroy(u);
}

/* Goals against direct references: a circle touches a navcell when the
 * navcell's closest point is within r; an inverted circle when its farthest
 * corner is at r or beyond; an axis-aligned square when the closed boxes
 * meet, an inverted one when the navcell is not inside the open box. A
 * region touches the goal exactly when one of its navcells does, and every
 * navcell a goal contains lies in its bounds. */
static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int ref_circle(const wf_goal *g, int i, int j)
{
    int64_t lx = (int64_t)i * WF_FIX_ONE, ly = (int64_t)j * WF_FIX_ONE;
    int64_t dx = clamp64(g->x, lx, lx + WF_FIX_ONE) - g->x;
    int64_t dy = clamp64(g->y, ly, ly + WF_FIX_ONE) - g->y;
    int64_t fx = (g->x - lx > lx + WF_FIX_ONE - g->x) ? g->x - lx : lx + WF_FIX_ONE - g->x;
    int64_t fy = (g->y - ly > ly + WF_FIX_ONE - g->y) ? g->y - ly : ly + WF_FIX_ONE - g->y;
    int64_t r2 = (int64_t)g->r * g->r;
    if (g->inverted)
        return fx * fx + fy * fy >= r2;
    return dx * dx + dy * dy <= r2;
}

static int ref_box(const wf_goal *g, int i, int j)
{
    int64_t lx = (int64_t)i * WF_FIX_ONE, ly = (int64_t)j * WF_FIX_ONE;
    int64_t hx = lx + WF_FIX_ONE, hy = ly + WF_FIX_ONE;
    int64_t x0 = g->x - g->hw, x1 = g->x + g->hw, y0 = g->y - g->hh, y1 = g->y + g->hh;
    if (g->inverted)          /* some point of the navcell outside the open box */
        return !(lx > x0 && hx < x1 && ly > y0 && hy < y1);
    return lx <= x1 && hx >= x0 && ly <= y1 && hy >= y0;
}

static void goal_region_checks(const wf_goal *g, int *mismatch)
{
    int bx0, by0, bx1, by1;
    wf_goal_bounds(g, &bx0, &by0, &bx1, &by1);
    for (int j = -2; j < 12; j++)
        for (int i = -2; i < 12; i++) {
            int in = wf_goal_contains(g, i, j);
            if (in && (i < bx0 || i > bx1 || j < by0 || j > by1))
                (*mismatch)++;
            if (i % 3 == 0 && j % 3 == 0) {
                int any = 0;
                for (int b = j; b < j + 3; b++)
                    for (int a = i; a < i + 2; a++)
                        any |= wf_goal_contains(g, a, b);
                if (any != wf_goal_touches(g, i, j, i + 1, j + 2))
                    (*mismatch)++;
            }
        }
}

static void goal_checks(void)
{
    wf_goal g;
    int wrong = 0, inside = 0, outside = 0;
    wf_goal_point(&g, F(3) + F(1) / 2, F(4));
    CHECK_EQ(wf_goal_invert(&g), WF_ERR_ARG);
    CHECK_EQ(g.inverted, 0);
    CHECK_EQ(wf_goal_contains(&g, 3, 4), 1);
    CHECK_EQ(wf_goal_contains(&g, 3, 3), 0);
    CHECK_EQ(wf_goal_touches(&g, 0, 0, 3, 3), 0);
    CHECK_EQ(wf_goal_touches(&g, 0, 4, 3, 9), 1);
    goal_region_checks(&g, &wrong);
    /* centres on and between navcell corners, radii from 0 to 4 */
    for (int k = 0; k < 60; k++) {
        wf_fix cx = F(1) + k * (F(1) / 8) + (k % 3) * 4099;
        wf_fix cy = F(6) - k * (F(1) / 16) - (k % 5) * 777;
        wf_goal_circle(&g, cx, cy, (k % 9) * (F(1) / 2) + (k % 2) * 3);
        for (int inv = 0; inv < 2; inv++) {
            if (inv)
                CHECK_EQ(wf_goal_invert(&g), WF_OK);
            for (int j = -1; j < 11; j++)
                for (int i = -1; i < 11; i++) {
                    int c = wf_goal_contains(&g, i, j);
                    if (c != ref_circle(&g, i, j))
                        wrong++;
                    if (c) inside++; else outside++;
                }
            goal_region_checks(&g, &wrong);
        }
        /* axis-aligned squares, sizes 0 to 3, and the same turned by a
         * right angle (axes (0, 1) and (-1, 0): the same box, swapped sides) */
        wf_fix hw = (k % 7) * (F(1) / 4), hh = (k % 4) * (F(1) / 3);
        for (int turn = 0; turn < 2; turn++)
            for (int inv = 0; inv < 2; inv++) {
                if (turn)
                    wf_goal_square(&g, cx, cy, hh, hw, 0, F(1));
                else
                    wf_goal_square(&g, cx, cy, hw, hh, F(1), 0);
                if (inv)
                    CHECK_EQ(wf_goal_invert(&g), WF_OK);
                wf_goal ref = g;
                ref.hw = hw;
                ref.hh = hh;
                for (int j = -1; j < 11; j++)
                    for (int i = -1; i < 11; i++) {
                        int c = wf_goal_contains(&g, i, j);
                        if (c != ref_box(&ref, i, j))
                            wrong++;
                        if (c) inside++; else outside++;
                    }
                goal_region_checks(&g, &wrong);
            }
        /* a square at 45 degrees: contains its own centre's navcell, and a
         * region touches it exactly when one of its navcells does */
        wf_goal_square(&g, cx, cy, hw + 1, hh + 1, 46341, 46341);
        CHECK_EQ(wf_goal_contains(&g, cx >> 16, cy >> 16), 1);
        goal_region_checks(&g, &wrong);
        CHECK_EQ(wf_goal_invert(&g), WF_OK);
        goal_region_checks(&g, &wrong);
    }
    CHECK_EQ(wrong, 0);
    CHECK_EQ(inside > 1000 && outside > 1000, 1);
}

/* The request queue's handles and arguments: a bad field count, class or
 * flag, unknown, stale and released handles, the result of a request not
 * yet served, cancelling the request in progress, and a grid larger than
 * the one the queue was made for. */
static void queue_checks(wf_grid *g)
{
    wf_queue *q = NULL;
    CHECK_EQ(wf_queue_create(&q, g, 0), WF_ERR_ARG);
    CHECK_EQ(q == NULL, 1);
    CHECK_EQ(wf_queue_create(&q, g, 1025), WF_ERR_ARG);
    CHECK_EQ(wf_queue_create(&q, g, 2), WF_OK);
    wf_hier *h = NULL;
    CHECK_EQ(wf_hier_create(&h, g, 8), WF_OK);
    wf_request rq;
    memset(&rq, 0, sizeof rq);
    wf_query_init(&rq.q);
    rq.q.sx = 0;
    rq.q.sy = 0;
    wf_goal_point(&rq.q.goal, F(15) + F(1) / 2, F(11) + F(1) / 2);
    uint64_t a = 0, b = 0, c = 0;
    rq.q.cls = -1;
    CHECK_EQ(wf_queue_submit(q, &rq, &a), WF_ERR_ARG);
    rq.q.cls = 0;
    rq.flags = 64;
    CHECK_EQ(wf_queue_submit(q, &rq, &a), WF_ERR_ARG);
    CHECK_EQ(wf_queue_pending(q), 0);
    rq.flags = 0;
    rq.max_expansions = 0;
    CHECK_EQ(wf_queue_submit(q, &rq, &a), WF_OK);
    CHECK_EQ(wf_queue_submit(q, &rq, &b), WF_OK);
    CHECK_EQ(wf_queue_submit(q, &rq, &c), WF_OK);
    CHECK_EQ(wf_queue_pending(q), 3);
    wf_req_state st;
    wf_result res;
    int was = -1;
    CHECK_EQ(wf_queue_state(q, a + 100, &st), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_queue_state(q, a ^ ((uint64_t)1 << 40), &st), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_queue_result(q, a + 100, &res), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_queue_cancel(q, a + 100, &was), WF_ERR_NOTFOUND);
    CHECK_EQ(was, 0);
    CHECK_EQ(wf_queue_release(q, a + 100), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_queue_result(q, a, &res), WF_ERR_ARG);      /* still pending */
    /* a budget of one expansion starts the first search; cancelling it
     * drops the search in progress and the next request is served whole */
    uint64_t used = 0;
    uint32_t served = 0;
    CHECK_EQ(wf_queue_run(q, g, h, 1, &used, &served), WF_OK);
    CHECK_EQ(served, 0);
    CHECK_EQ(wf_queue_cancel(q, a, &was), WF_OK);
    CHECK_EQ(was, 1);
    CHECK_EQ(wf_queue_state(q, a, &st), WF_OK);
    CHECK_EQ(st, WF_REQ_CANCELLED);
    CHECK_EQ(wf_queue_cancel(q, a, &was), WF_OK);          /* not pending: no-op */
    CHECK_EQ(was, 0);
    CHECK_EQ(wf_queue_cancel(q, c, &was), WF_OK);          /* the tail */
    CHECK_EQ(was, 1);
    CHECK_EQ(wf_queue_pending(q), 1);
    CHECK_EQ(wf_queue_run(q, g, h, 100000, &used, &served), WF_OK);
    CHECK_EQ(served, 1);
    CHECK_EQ(wf_queue_state(q, b, &st), WF_OK);
    CHECK_EQ(st, WF_REQ_DONE);
    CHECK_EQ(wf_queue_result(q, b, &res), WF_OK);
    CHECK_EQ(res.status, WF_OK);
    CHECK_EQ(res.x[0] == 0 && res.y[0] == 0, 1);
    CHECK_EQ(res.x[res.n - 1] == 15 && res.y[res.n - 1] == 11, 1);
    /* a released handle is stale, and its slot's next handle differs */
    CHECK_EQ(wf_queue_release(q, b), WF_OK);
    CHECK_EQ(wf_queue_state(q, b, &st), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_queue_release(q, b), WF_ERR_NOTFOUND);
    uint64_t d = 0;
    CHECK_EQ(wf_queue_submit(q, &rq, &d), WF_OK);
    CHECK_EQ(d != b, 1);
    CHECK_EQ(wf_queue_release(q, d), WF_OK);               /* releasing a pending one */
    CHECK_EQ(wf_queue_pending(q), 0);
    wf_grid *big = grid(20, 20);
    CHECK_EQ(wf_queue_submit(q, &rq, &d), WF_OK);
    CHECK_EQ(wf_queue_run(q, big, h, 100, &used, &served), WF_ERR_ARG);
    CHECK_EQ(used == 0 && served == 0, 1);
    wf_grid_destroy(big);
    wf_hier_destroy(h);
    wf_queue_destroy(q);
}

/* Splicing and joining paths: bad segments, empty paths, starts that
 * differ, agents off the quick path, and one good join. */
static void splice_checks(void)
{
    wf_splice out;
    const int32_t qx[] = {0, 4, 6}, qy[] = {0, 0, 2};
    const int32_t fx[] = {0, 3}, fy[] = {0, 3};
    const int32_t kx[] = {0, 3}, ky[] = {0, 1};              /* a knight's move */
    const int32_t cx[] = {6, 6}, cy[] = {2, 5};
    CHECK_EQ(wf_path_splice(qx, qy, 3, fx, fy, 0, 1, 0, &out), WF_ERR_ARG);
    CHECK_EQ(wf_path_splice(qx, qy, 0, fx, fy, 2, 1, 0, &out), WF_ERR_ARG);
    CHECK_EQ(wf_path_splice(qx, qy, 3, kx, ky, 2, 1, 0, &out), WF_ERR_ARG);
    CHECK_EQ(wf_path_splice(qx, qy, 3, cx, cy, 2, 1, 0, &out), WF_ERR_ARG);
    CHECK_EQ(wf_path_splice(qx, qy, 3, fx, fy, 2, 1, 1, &out), WF_ERR_ARG);
    CHECK_EQ(out.x == NULL && out.n == 0, 1);
    CHECK_EQ(wf_path_join(qx, qy, 3, kx, ky, 2, 1, 0, &out), WF_ERR_ARG);
    CHECK_EQ(wf_path_join(kx, ky, 2, cx, cy, 2, 1, 0, &out), WF_ERR_ARG);
    CHECK_EQ(wf_path_join(qx, qy, 3, fx, fy, 2, 1, 0, &out), WF_ERR_ARG);  /* not at the end */
    CHECK_EQ(wf_path_join(qx, qy, 3, cx, cy, 2, 9, 9, &out), WF_ERR_ARG);  /* agent off it */
    CHECK_EQ(wf_path_join(qx, qy, 3, cx, cy, 2, 2, 0, &out), WF_OK);
    /* (2,0) (3,0) (4,0) (5,1) (6,2) then (6,3) (6,4) (6,5) */
    CHECK_EQ(out.n, 8);
    CHECK_EQ(out.joint, 4);
    CHECK_EQ(out.x[4] == 6 && out.y[4] == 2 && out.x[7] == 6 && out.y[7] == 5, 1);
    CHECK_EQ(out.cost_units, 5LL * 33554432 + 2LL * 47453132);
    wf_splice_free(&out);
    wf_splice_free(NULL);
}

/* wf_graph_create refuses every kind of bad item with its fault code and
 * the items concerned, and creates nothing; wf_graph_patch and
 * wf_graph_set_danger refuse bad indices and values. */
static wf_graph_portal walk_portal(void)
{
    wf_graph_portal p;
    memset(&p, 0, sizeof p);
    p.a = 0;
    p.b = 1;
    p.ax0 = p.bx0 = F(4);
    p.ay0 = p.by0 = F(1);
    p.ax1 = p.bx1 = F(4);
    p.ay1 = p.by1 = F(3);
    p.classes = 1;
    p.flags = WF_PORTAL_WALK;
    return p;
}

static void graph_fault(const wf_graph_sector *sec, int ns, const wf_graph_portal *por,
                        int np, wf_graph_fault fault, int i, int j)
{
    wf_graph *gr = (wf_graph *)&gr;          /* must come back NULL */
    wf_graph_error err;
    CHECK_EQ(wf_graph_create(&gr, sec, ns, por, np, &err), WF_ERR_ARG);
    CHECK_EQ(gr == NULL, 1);
    CHECK_EQ(err.fault, fault);
    CHECK_EQ(err.i, i);
    CHECK_EQ(err.j, j);
    CHECK_EQ(wf_graph_create(&gr, sec, ns, por, np, NULL), WF_ERR_ARG);
}

static void graph_checks(void)
{
    wf_graph_sector sec[3], s2[3];
    memset(sec, 0, sizeof sec);
    sec[0].x1 = sec[1].x0 = F(4);
    sec[1].x1 = F(8);
    sec[0].y1 = sec[1].y1 = F(4);
    sec[2].x0 = F(8);
    sec[2].x1 = F(9);
    sec[2].y1 = F(1);
    wf_graph_portal por[2], p2[2];
    por[0] = walk_portal();
    por[1] = walk_portal();
    por[1].a = 1;
    por[1].b = 2;
    por[1].ax0 = por[1].ax1 = F(8) - 1;        /* a one-way jump, point spans */
    por[1].ay0 = por[1].ay1 = F(1) / 2;
    por[1].bx0 = por[1].bx1 = F(8) + 1;
    por[1].by0 = por[1].by1 = F(1) / 2;
    por[1].flags = WF_PORTAL_ONE_WAY;
    por[1].cost = F(1);
    wf_graph *gr = NULL;
    wf_graph_error err;
    CHECK_EQ(wf_graph_create(&gr, sec, 3, por, 2, &err), WF_OK);
    CHECK_EQ(err.fault, WF_GF_NONE);
    CHECK_EQ(wf_graph_sector_count(gr), 3);
    CHECK_EQ(wf_graph_portal_count(gr), 2);
    CHECK_EQ(wf_graph_locate(gr, F(5), F(2)), 1);
    CHECK_EQ(wf_graph_locate(gr, F(8) + F(1) / 2, F(2)), -1);
    /* the counts and arrays themselves */
    CHECK_EQ(wf_graph_create(NULL, sec, 3, por, 2, &err), WF_ERR_ARG);
    CHECK_EQ(wf_graph_create(&gr, sec, -1, por, 2, &err), WF_ERR_ARG);
    CHECK_EQ(wf_graph_create(&gr, NULL, 3, por, 2, &err), WF_ERR_ARG);
    CHECK_EQ(wf_graph_create(&gr, sec, 3, NULL, 2, &err), WF_ERR_ARG);
    CHECK_EQ(wf_graph_create(&gr, sec, 3, por, WF_GRAPH_MAX_PORTALS + 1, &err), WF_ERR_ARG);
    wf_graph *ok = NULL;
    CHECK_EQ(wf_graph_create(&ok, sec, 3, por, 2, NULL), WF_OK);
    /* sectors: an empty box, one past the limit, a bad surface, a bad
     * danger, two overlapping */
    memcpy(s2, sec, sizeof s2);
    s2[1].x1 = s2[1].x0;
    graph_fault(s2, 3, por, 2, WF_GF_BOX, 1, -1);
    memcpy(s2, sec, sizeof s2);
    s2[2].x1 = WF_GRAPH_LIMIT + 1;
    graph_fault(s2, 3, por, 2, WF_GF_BOX, 2, -1);
    memcpy(s2, sec, sizeof s2);
    s2[0].surface = WF_GRAPH_MAX_SURFACES;
    graph_fault(s2, 3, por, 2, WF_GF_SURFACE, 0, -1);
    memcpy(s2, sec, sizeof s2);
    s2[1].danger = WF_GRAPH_MAX_COST + 1;
    graph_fault(s2, 3, por, 2, WF_GF_DANGER, 1, -1);
    memcpy(s2, sec, sizeof s2);
    s2[1].x0 = F(3);
    graph_fault(s2, 3, NULL, 0, WF_GF_OVERLAP, 0, 1);
    /* portals: a sector that does not exist, a bad cost or schedule, a
     * span outside its sector, walk spans that differ */
    memcpy(p2, por, sizeof p2);
    p2[1].b = 3;
    graph_fault(sec, 3, p2, 2, WF_GF_NOWHERE, 1, 3);
    memcpy(p2, por, sizeof p2);
    p2[0].a = -1;
    graph_fault(sec, 3, p2, 2, WF_GF_NOWHERE, 0, -1);
    memcpy(p2, por, sizeof p2);
    p2[1].cost = -1;
    graph_fault(sec, 3, p2, 2, WF_GF_COST, 1, -1);
    memcpy(p2, por, sizeof p2);
    p2[1].period = 4;
    p2[1].offset = 4;
    graph_fault(sec, 3, p2, 2, WF_GF_COST, 1, -1);
    memcpy(p2, por, sizeof p2);
    p2[1].offset = 1;                            /* an offset without a period */
    graph_fault(sec, 3, p2, 2, WF_GF_COST, 1, -1);
    memcpy(p2, por, sizeof p2);
    p2[1].ax1 = F(9);
    graph_fault(sec, 3, p2, 2, WF_GF_SPAN, 1, 1);
    memcpy(p2, por, sizeof p2);
    p2[1].by0 = F(3);
    graph_fault(sec, 3, p2, 2, WF_GF_SPAN, 1, 2);
    memcpy(p2, por, sizeof p2);
    p2[0].by1 = F(2);
    graph_fault(sec, 3, p2, 2, WF_GF_WALK, 0, -1);
    memcpy(p2, por, sizeof p2);
    p2[0].b = 0;
    graph_fault(sec, 3, p2, 2, WF_GF_WALK, 0, -1);
    /* danger and patches */
    uint64_t v = wf_graph_version(ok);
    CHECK_EQ(wf_graph_set_danger(ok, 3, 1), WF_ERR_ARG);
    CHECK_EQ(wf_graph_set_danger(ok, -1, 1), WF_ERR_ARG);
    CHECK_EQ(wf_graph_set_danger(ok, 0, -1), WF_ERR_ARG);
    CHECK_EQ(wf_graph_set_danger(ok, 0, WF_GRAPH_MAX_COST + 1), WF_ERR_ARG);
    CHECK_EQ(wf_graph_set_danger(NULL, 0, 1), WF_ERR_ARG);
    CHECK_EQ(wf_graph_version(ok), v);
    CHECK_EQ(wf_graph_set_danger(ok, 0, 5), WF_OK);
    CHECK_EQ(wf_graph_version(ok) != v, 1);
    wf_graph *np = NULL;
    const int drop_bad[] = {3}, drop_twice[] = {1, 1}, drop2[] = {2};
    CHECK_EQ(wf_graph_patch(&np, ok, drop_bad, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0, &err),
             WF_ERR_ARG);
    CHECK_EQ(wf_graph_patch(&np, ok, drop_twice, 2, NULL, 0, NULL, 0, NULL, 0, NULL, 0, &err),
             WF_ERR_ARG);
    CHECK_EQ(wf_graph_patch(&np, ok, NULL, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0, &err),
             WF_ERR_ARG);
    CHECK_EQ(wf_graph_patch(&np, NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, &err),
             WF_ERR_ARG);
    /* dropping sector 2 leaves the jump portal on nowhere */
    CHECK_EQ(wf_graph_patch(&np, ok, drop2, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0, &err),
             WF_ERR_ARG);
    CHECK_EQ(err.fault, WF_GF_NOWHERE);
    CHECK_EQ(np == NULL, 1);
    const int dropp[] = {1};
    CHECK_EQ(wf_graph_patch(&np, ok, drop2, 1, NULL, 0, dropp, 1, NULL, 0, NULL, 0, &err),
             WF_OK);
    CHECK_EQ(wf_graph_sector_count(np), 2);
    CHECK_EQ(wf_graph_portal_count(np), 1);
    CHECK_EQ(wf_graph_sector_count(ok), 3);
    wf_graph_destroy(np);
    wf_graph_destroy(ok);
    wf_graph_destroy(NULL);
    wf_graph_destroy(gr);
}

/* wf_graph_create's and wf_graph_patch's counts and arrays, and patches
 * whose indices are out of range or repeated: refused, the old graph
 * kept. */
static void graph_patch_checks(void)
{
    wf_graph_sector sec[2], add;
    memset(sec, 0, sizeof sec);
    sec[0].x1 = sec[1].x0 = F(4);
    sec[1].x1 = F(8);
    sec[0].y1 = sec[1].y1 = F(4);
    add = sec[1];
    wf_graph_portal por = walk_portal();
    wf_graph *gr = NULL, *np = (wf_graph *)&np;
    wf_graph_error err;
    CHECK_EQ(wf_graph_create(&gr, sec, WF_GRAPH_MAX_SECTORS + 1, &por, 1, &err), WF_ERR_ARG);
    CHECK_EQ(wf_graph_create(&gr, sec, 2, &por, -1, &err), WF_ERR_ARG);
    CHECK_EQ(wf_graph_create(&gr, sec, 2, &por, 1, &err), WF_OK);
    const int one[] = { 1 }, zero[] = { 0 }, neg[] = { -1 }, two[] = { 2 }, twice[] = { 0, 0 };
    const int mv_neg[] = { -1, 0, 1 }, mv_past[] = { 1, 0, 1 };
#define PATCH(ds, nds, as, nas, dp, ndp, mv, nmv, ap, nap) \
    wf_graph_patch(&np, gr, ds, nds, as, nas, dp, ndp, mv, nmv, ap, nap, &err)
    /* negative counts, and arrays missing for their counts */
    CHECK_EQ(PATCH(NULL, -1, NULL, 0, NULL, 0, NULL, 0, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, -1, NULL, 0, NULL, 0, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, NULL, -1, NULL, 0, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, NULL, 0, NULL, -1, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, -1), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 1, NULL, 0, NULL, 0, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, NULL, 1, NULL, 0, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, NULL, 0, NULL, 1, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 1), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, &add, WF_GRAPH_MAX_SECTORS + 1, NULL, 0, NULL, 0, NULL, 0),
             WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, NULL, 0, NULL, 0, &por, WF_GRAPH_MAX_PORTALS + 1),
             WF_ERR_ARG);
    CHECK_EQ(wf_graph_patch(NULL, gr, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL),
             WF_ERR_ARG);
    /* indices out of range or repeated */
    CHECK_EQ(PATCH(neg, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(two, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(err.fault, WF_GF_NONE);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, neg, 1, NULL, 0, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, one, 1, NULL, 0, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, twice, 2, NULL, 0, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, NULL, 0, mv_neg, 1, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, NULL, 0, mv_past, 1, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(PATCH(NULL, 0, NULL, 0, zero, 1, mv_past, 1, NULL, 0), WF_ERR_ARG);
    CHECK_EQ(np == NULL, 1);
    /* a sector dropped and added back, the portal moved onto it */
    const int mv_ok[] = { 0, 0, 1 };
    CHECK_EQ(PATCH(one, 1, &add, 1, NULL, 0, mv_ok, 1, NULL, 0), WF_OK);
    CHECK_EQ(wf_graph_sector_count(np), 2);
    CHECK_EQ(wf_graph_locate(np, F(6), F(1)), 1);
    wf_graph_destroy(np);
    /* without an error record */
    CHECK_EQ(wf_graph_patch(&np, gr, two, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL),
             WF_ERR_ARG);
#undef PATCH
    CHECK_EQ(wf_graph_sector_count(gr), 2);
    CHECK_EQ(wf_graph_portal_count(gr), 1);
    wf_graph_destroy(gr);
}

/* The graph search's checks: every field of a query out of range, sectors
 * given past the last, steps and finishes out of turn or after the graph
 * changed, and the NULL search and outputs. */
static void graph_search_checks(void)
{
    wf_graph_sector sec[2];
    memset(sec, 0, sizeof sec);
    sec[0].x1 = sec[1].x0 = F(4);
    sec[1].x1 = F(8);
    sec[0].y1 = sec[1].y1 = F(4);
    wf_graph_portal por = walk_portal();
    wf_graph *gr = NULL;
    CHECK_EQ(wf_graph_create(&gr, sec, 2, &por, 1, NULL), WF_OK);
    wf_graph_search *s = (wf_graph_search *)&s;
    CHECK_EQ(wf_graph_search_create(NULL), WF_ERR_ARG);
    CHECK_EQ(wf_graph_search_create(&s), WF_OK);
    wf_graph_query q, b;
    wf_graph_query_init(&q);
    q.sx = F(1);
    q.sy = F(2);
    q.gx = F(7);
    q.gy = F(2);
    CHECK_EQ(wf_graph_search_begin(NULL, gr, &q), WF_ERR_ARG);
    CHECK_EQ(wf_graph_search_begin(s, NULL, &q), WF_ERR_ARG);
    CHECK_EQ(wf_graph_search_begin(s, gr, NULL), WF_ERR_ARG);
#define BAD_QUERY(field, value)                                    \
    do {                                                           \
        b = q;                                                     \
        b.field = value;                                           \
        CHECK_EQ(wf_graph_search_begin(s, gr, &b), WF_ERR_ARG);    \
    } while (0)
    BAD_QUERY(sx, WF_GRAPH_LIMIT + 1);
    BAD_QUERY(sy, -WF_GRAPH_LIMIT - 1);
    BAD_QUERY(gx, WF_GRAPH_LIMIT + 1);
    BAD_QUERY(gy, WF_GRAPH_LIMIT + 1);
    BAD_QUERY(wnum, 0);
    BAD_QUERY(wnum, 1001);
    BAD_QUERY(wden, 0);
    BAD_QUERY(rnum, 0);
    BAD_QUERY(rden, 1001);
    BAD_QUERY(ssector, 2);
    BAD_QUERY(gsector, 2);
    BAD_QUERY(time, -1);
    BAD_QUERY(time, WF_GRAPH_MAX_COST + 1);
    BAD_QUERY(mult[3], -1);
    BAD_QUERY(mult[63], WF_GRAPH_MAX_MULT + 1);
    b = q;
    b.wnum = 2;
    b.wden = 3;                                /* a weight below 1 */
    CHECK_EQ(wf_graph_search_begin(s, gr, &b), WF_ERR_ARG);
#undef BAD_QUERY
    /* steps and finishes out of turn */
    uint64_t used = 9;
    int finished = 9;
    wf_graph_result r;
    CHECK_EQ(wf_graph_search_step(NULL, 10, &used, &finished), WF_ERR_ARG);
    CHECK_EQ(used, 0);
    CHECK_EQ(finished, 0);
    CHECK_EQ(wf_graph_search_step(s, 10, NULL, NULL), WF_ERR_ARG);   /* idle */
    CHECK_EQ(wf_graph_search_finish(NULL, &r), WF_ERR_ARG);
    CHECK_EQ(wf_graph_search_finish(s, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_graph_search_finish(s, &r), WF_ERR_ARG);
    /* sectors given instead of located: the start given as sector 1 */
    b = q;
    b.ssector = 1;
    b.gsector = 1;
    CHECK_EQ(wf_graph_search_begin(s, gr, &b), WF_OK);
    CHECK_EQ(wf_graph_search_step(s, 100, NULL, NULL), WF_OK);
    CHECK_EQ(wf_graph_search_finish(s, &r), WF_OK);
    CHECK_EQ(r.nsteps, 0);
    /* a search begun, the graph changed: step and finish refuse */
    CHECK_EQ(wf_graph_search_begin(s, gr, &q), WF_OK);
    CHECK_EQ(wf_graph_search_step(s, 1, &used, &finished), WF_OK);
    CHECK_EQ(used, 1);
    CHECK_EQ(finished, 0);
    CHECK_EQ(wf_graph_set_danger(gr, 1, 1), WF_OK);
    CHECK_EQ(wf_graph_search_step(s, 100, &used, &finished), WF_ERR_ARG);
    CHECK_EQ(wf_graph_search_begin(s, gr, &q), WF_OK);
    CHECK_EQ(wf_graph_search_step(s, 100, &used, &finished), WF_OK);
    CHECK_EQ(finished, 1);
    CHECK_EQ(wf_graph_set_danger(gr, 1, 0), WF_OK);
    CHECK_EQ(wf_graph_search_finish(s, &r), WF_ERR_ARG);
    /* a budget of 0 expands nothing; cancel leaves it idle */
    CHECK_EQ(wf_graph_search_begin(s, gr, &q), WF_OK);
    CHECK_EQ(wf_graph_search_step(s, 0, &used, &finished), WF_OK);
    CHECK_EQ(used, 0);
    CHECK_EQ(finished, 0);
    wf_graph_search_cancel(s);
    wf_graph_search_cancel(NULL);
    CHECK_EQ(wf_graph_search_step(s, 10, &used, &finished), WF_ERR_ARG);
    /* the whole search: one portal, cost the walk from (1, 2) to (7, 2) */
    CHECK_EQ(wf_graph_search_begin(s, gr, &q), WF_OK);
    CHECK_EQ(wf_graph_search_step(s, 100, &used, &finished), WF_OK);
    CHECK_EQ(wf_graph_search_finish(s, &r), WF_OK);
    CHECK_EQ(r.nsteps, 1);
    CHECK_EQ(r.cost, F(6));
    wf_graph_search_destroy(s);
    wf_graph_search_destroy(NULL);
    wf_graph_destroy(gr);
}

/* The graph builders' checks: class, spans, box sides, rectangle lists and
 * surface codes, for the greedy and the quadtree builders alike. */
static void graph_build_checks(wf_grid *g)
{
    wf_graph_boxes b;
    uint8_t surf[16 * 12];
    memset(surf, 0, sizeof surf);
    int r1[4] = { 0, 0, 2, 2 };
    CHECK_EQ(wf_graph_boxes_from_grid(NULL, 0, NULL, 4, 4, &b), WF_ERR_ARG);
    CHECK_EQ(wf_graph_boxes_from_grid(g, 0, NULL, 4, 4, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_graph_boxes_from_grid(g, -1, NULL, 4, 4, &b), WF_ERR_ARG);
    CHECK_EQ(wf_graph_boxes_from_grid(g, 1, NULL, 4, 4, &b), WF_ERR_ARG);
    CHECK_EQ(wf_graph_boxes_from_grid(g, 0, NULL, 0, 4, &b), WF_ERR_ARG);
    CHECK_EQ(wf_graph_quadtree_from_grid(g, 0, NULL, 4, 0, &b), WF_ERR_ARG);
    for (int quad = 0; quad < 2; quad++) {
        wf_status (*f)(const wf_grid *, int, const uint8_t *, int, const int *, int,
                       wf_graph_boxes *) =
            quad ? wf_graph_quadtree_in_rects : wf_graph_boxes_in_rects;
        int bad[6][4] = { { -1, 0, 2, 2 }, { 0, -1, 2, 2 }, { 0, 0, 17, 2 },
                          { 0, 0, 2, 13 }, { 2, 0, 2, 2 }, { 0, 2, 2, 2 } };
        CHECK_EQ(f(NULL, 0, NULL, 4, r1, 1, &b), WF_ERR_ARG);
        CHECK_EQ(f(g, 0, NULL, 4, r1, 1, NULL), WF_ERR_ARG);
        CHECK_EQ(f(g, -1, NULL, 4, r1, 1, &b), WF_ERR_ARG);
        CHECK_EQ(f(g, 1, NULL, 4, r1, 1, &b), WF_ERR_ARG);
        CHECK_EQ(f(g, 0, NULL, 0, r1, 1, &b), WF_ERR_ARG);
        CHECK_EQ(f(g, 0, NULL, 4, r1, -1, &b), WF_ERR_ARG);
        CHECK_EQ(f(g, 0, NULL, 4, NULL, 1, &b), WF_ERR_ARG);
        for (int k = 0; k < 6; k++)
            CHECK_EQ(f(g, 0, NULL, 4, bad[k], 1, &b), WF_ERR_ARG);
        /* a surface code past the last refused, wherever it lies */
        surf[16 * 12 - 1] = WF_GRAPH_MAX_SURFACES;
        CHECK_EQ(f(g, 0, surf, 4, r1, 1, &b), WF_ERR_ARG);
        surf[16 * 12 - 1] = WF_GRAPH_MAX_SURFACES - 1;
        CHECK_EQ(f(g, 0, surf, 4, r1, 1, &b), WF_OK);
        CHECK_EQ(b.nboxes, 1);
        CHECK_EQ(b.box[2], quad ? 4 : 2);     /* a quadtree leaf, the rectangle */
        CHECK_EQ(b.box[4], 0);
        wf_graph_boxes_free(&b);
        /* no rectangle: no box */
        CHECK_EQ(f(g, 0, NULL, 4, NULL, 0, &b), WF_OK);
        CHECK_EQ(b.nboxes, 0);
        wf_graph_boxes_free(&b);
    }
}

/* The walker's checks: sizes, edges out of range, ids, halves, speeds,
 * facings, routes and event capacity, each refused with nothing changed,
 * and the NULL walker every function accepts. */
static void walker_checks(void)
{
    wf_walker *wk = (wf_walker *)&wk;        /* must come back NULL */
    CHECK_EQ(wf_walker_create(NULL, 4, 4), WF_ERR_ARG);
    CHECK_EQ(wf_walker_create(&wk, 0, 4), WF_ERR_ARG);
    CHECK_EQ(wk == NULL, 1);
    CHECK_EQ(wf_walker_create(&wk, 4, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_create(&wk, WF_WALKER_MAX_SIDE + 1, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_create(&wk, 1, WF_WALKER_MAX_SIDE + 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_create(&wk, WF_WALKER_MAX_SIDE, WF_WALKER_MAX_SIDE), WF_ERR_ARG);
    CHECK_EQ(wf_walker_create(&wk, 6, 4), WF_OK);
    CHECK_EQ(wf_walker_width(wk), 6);
    CHECK_EQ(wf_walker_height(wk), 4);
    /* edges: vertical x in [0, 6], y in [0, 4); horizontal x in [0, 6),
     * y in [0, 4] */
    CHECK_EQ(wf_walker_set_wall(NULL, 1, 1, 1, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_wall(wk, 1, 7, 0, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_wall(wk, 1, -1, 0, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_wall(wk, 1, 0, 4, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_wall(wk, 1, 0, -1, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_wall(wk, 0, 6, 0, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_wall(wk, 0, -1, 0, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_wall(wk, 0, 0, 5, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_wall(wk, 0, 0, -1, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_wall(wk, 1, 6, 3, 1), WF_OK);
    CHECK_EQ(wf_walker_set_wall(wk, 0, 5, 4, 1), WF_OK);
    CHECK_EQ(wf_walker_wall(wk, 1, 6, 3), 1);
    CHECK_EQ(wf_walker_wall(wk, 0, 5, 4), 1);
    CHECK_EQ(wf_walker_wall(wk, 1, 7, 3), 0);
    CHECK_EQ(wf_walker_wall(NULL, 1, 0, 0), 0);
    CHECK_EQ(wf_walker_set_door(NULL, 1, 3, 1, 9, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_door(wk, 0, 3, 9, 9, 1), WF_ERR_ARG);
    /* removing a door from an edge that has none changes nothing */
    CHECK_EQ(wf_walker_set_door(wk, 1, 3, 1, 0, 0), WF_OK);
    /* boxes: ids and corners */
    CHECK_EQ(wf_walker_set_box(NULL, 1, 0, 0, F(1), F(1)), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_box(wk, 0, 0, 0, F(1), F(1)), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_box(wk, 1, F(1), 0, 0, F(1)), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_box(wk, 1, 0, F(1), F(1), 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_remove_box(NULL, 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_remove_box(wk, 1), WF_ERR_NOTFOUND);
    /* people: id, position, half size, speed, facing; an id used twice */
    wf_fix c = F(1) + F(1) / 2, half = F(1) / 4, speed = F(1) / 8;
    CHECK_EQ(wf_walker_add_person(NULL, 1, c, c, half, speed, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 0, c, c, half, speed, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 1, -1, c, half, speed, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 1, c, -1, half, speed, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 1, F(6), c, half, speed, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 1, c, F(4), half, speed, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 1, c, c, 0, speed, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 1, c, c, WF_WALKER_MAX_HALF + 1, speed, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 1, c, c, half, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 1, c, c, half, F(1) + 1, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 1, c, c, half, speed, -1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_add_person(wk, 1, c, c, half, speed, 8), WF_ERR_ARG);
    CHECK_EQ(wf_walker_person_count(wk), 0);
    CHECK_EQ(wf_walker_add_person(wk, 3, c, c, half, speed, 0), WF_OK);
    CHECK_EQ(wf_walker_add_person(wk, 3, c, c, half, speed, 0), WF_ERR_ARG);
    /* a lower id goes before: the index is rebuilt, not appended to */
    CHECK_EQ(wf_walker_add_person(wk, 2, F(4) + F(1) / 2, c, half, speed, 4), WF_OK);
    CHECK_EQ(wf_walker_person_count(wk), 2);
    CHECK_EQ(wf_walker_person_id(wk, 0), 2);
    CHECK_EQ(wf_walker_person_id(wk, 1), 3);
    CHECK_EQ(wf_walker_person_id(wk, 2), 0);
    CHECK_EQ(wf_walker_person_id(NULL, 0), 0);
    CHECK_EQ(wf_walker_person_count(NULL), 0);
    CHECK_EQ(wf_walker_remove_person(NULL, 3), WF_ERR_ARG);
    CHECK_EQ(wf_walker_remove_person(wk, 4), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_walker_place_person(NULL, 3, c, c, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_place_person(wk, 3, F(6), c, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_place_person(wk, 3, c, c, -1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_place_person(wk, 3, c, c, 8), WF_ERR_ARG);
    CHECK_EQ(wf_walker_place_person(wk, 4, c, c, 0), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_walker_set_speed(NULL, 3, speed), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_speed(wk, 3, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_speed(wk, 4, speed), WF_ERR_NOTFOUND);
    /* routes: points, counts, index, a point outside */
    wf_fix xy[4] = { c, c, F(3), c }, out_xy[4] = { c, c, F(3), F(5) };
    CHECK_EQ(wf_walker_set_route(NULL, 3, xy, 2, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_route(wk, 3, NULL, 2, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_route(wk, 3, xy, 0, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_route(wk, 3, xy, WF_WALKER_MAX_POINTS + 1, 0), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_route(wk, 3, xy, 2, -1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_route(wk, 3, xy, 2, 3), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_route(wk, 4, xy, 2, 0), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_walker_set_route(wk, 3, out_xy, 2, 0), WF_ERR_ARG);
    wf_person_state ps;
    CHECK_EQ(wf_walker_person(wk, 3, &ps), WF_OK);
    CHECK_EQ(ps.walking, 0);
    CHECK_EQ(ps.npoints, 0);
    CHECK_EQ(wf_walker_person(NULL, 3, &ps), WF_ERR_ARG);
    CHECK_EQ(wf_walker_person(wk, 3, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_walker_person(wk, 4, &ps), WF_ERR_NOTFOUND);
    const wf_fix *rxy = NULL;
    int rn = -1;
    CHECK_EQ(wf_walker_route(NULL, 3, &rxy, &rn), WF_ERR_ARG);
    CHECK_EQ(wf_walker_route(wk, 3, NULL, &rn), WF_ERR_ARG);
    CHECK_EQ(wf_walker_route(wk, 3, &rxy, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_walker_route(wk, 4, &rxy, &rn), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_walker_stop(NULL, 3), WF_ERR_ARG);
    CHECK_EQ(wf_walker_stop(wk, 4), WF_ERR_NOTFOUND);
    /* avoidance modes */
    CHECK_EQ(wf_walker_set_avoidance(NULL, WF_WALKER_AVOID_NONE), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_avoidance(wk, -1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_avoidance(wk, WF_WALKER_AVOID_SIDESTEP + 1), WF_ERR_ARG);
    CHECK_EQ(wf_walker_avoidance(wk), WF_WALKER_AVOID_NONE);
    CHECK_EQ(wf_walker_avoidance(NULL), WF_WALKER_AVOID_NONE);
    /* a step needs room for one event per walking person */
    wf_move_event ev[2];
    size_t count = 9;
    CHECK_EQ(wf_walker_step(NULL, ev, 2, &count), WF_ERR_ARG);
    CHECK_EQ(wf_walker_step(wk, ev, 2, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_walker_step(wk, NULL, 0, &count), WF_OK);   /* nobody walks */
    CHECK_EQ(count, 0);
    CHECK_EQ(wf_walker_set_route(wk, 3, xy, 2, 1), WF_OK);
    CHECK_EQ(wf_walker_step(wk, ev, 0, &count), WF_ERR_ARG);
    CHECK_EQ(wf_walker_step(wk, NULL, 2, &count), WF_ERR_ARG);
    CHECK_EQ(wf_walker_person(wk, 3, &ps), WF_OK);
    CHECK_EQ(ps.x, c);                         /* the refused steps moved nobody */
    CHECK_EQ(ps.walking, 1);
    CHECK_EQ(wf_walker_step(wk, ev, 2, &count), WF_OK);
    CHECK_EQ(count, 0);
    CHECK_EQ(wf_walker_person(wk, 3, &ps), WF_OK);
    CHECK_EQ(ps.x, c + speed);
    int is_free = -1;
    uint32_t blk = 7;
    CHECK_EQ(wf_walker_square_free(NULL, c, c, half, 0, &is_free, &blk), WF_ERR_ARG);
    CHECK_EQ(wf_walker_square_free(wk, c, c, half, 0, NULL, &blk), WF_ERR_ARG);
    CHECK_EQ(wf_walker_square_free(wk, F(4) + F(1) / 2, c, half, 0, &is_free, NULL), WF_OK);
    CHECK_EQ(is_free, 0);
    CHECK_EQ(wf_walker_square_free(wk, F(4) + F(1) / 2, c, half, 2, &is_free, &blk), WF_OK);
    CHECK_EQ(is_free, 1);
    CHECK_EQ(blk, 0);
    wf_walker_destroy(wk);
    wf_walker_destroy(NULL);
}

static void name_checks(void)
{
    static const char *const reasons[] = {"fine", "impassable", "overlap", "outside",
        "unreachable", "blocked", "stuck", "timeout", "goal_outside", "stopped"};
    for (int k = 1; k <= (int)WF_UNIT_STOPPED; k++)
        CHECK_EQ(strcmp(wf_unit_reason_name((wf_unit_reason)k), reasons[k]), 0);
    CHECK_EQ(wf_unit_reason_name((wf_unit_reason)99) != NULL, 1);
    static const char *const states[] = {"idle", "planning", "moving", "waiting",
        "escaping"};
    for (int k = 0; k <= (int)WF_UNIT_ESCAPING; k++)
        CHECK_EQ(strcmp(wf_unit_state_name((wf_unit_state)k), states[k]), 0);
    CHECK_EQ(wf_unit_state_name((wf_unit_state)99) != NULL, 1);
}

/* The motion options of people (wf_walker_set_motion and its state) and
 * the units' corner_radius: each value out of range is WF_ERR_ARG and
 * leaves what was set before. */
static void motion_checks(void)
{
    wf_walker *wk = NULL;
    CHECK_EQ(wf_walker_create(&wk, 8, 8), WF_OK);
    if (!wk)
        return;
    CHECK_EQ(wf_walker_add_person(wk, 1, F(1), F(1), F(1) / 4, F(1) / 4, 0), WF_OK);
    wf_walker_motion ok = {F(1) / 16, WF_ANGLE_ONE / 2, F(2), 1, F(1)};
    CHECK_EQ(wf_walker_set_motion(wk, 1, &ok), WF_OK);
    CHECK_EQ(wf_walker_set_motion(wk, 2, &ok), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_walker_set_motion(wk, 1, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_walker_set_motion(NULL, 1, &ok), WF_ERR_ARG);
    for (int k = 0; k < 10; k++) {
        wf_walker_motion bad = ok;
        switch (k) {
        case 0: bad.accel = -1; break;
        case 1: bad.accel = F(1) + 1; break;
        case 2: bad.turn_rate = -1; break;
        case 3: bad.turn_rate = 3454217652359LL; break;
        case 4: bad.arrive_radius = -1; break;
        case 5: bad.arrive_radius = F(4096) + 1; break;
        case 6: bad.lookahead = 2; break;
        case 7: bad.corner_radius = -1; break;
        case 8: bad.corner_radius = F(16) + 1; break;
        default: bad.lookahead = -1; break;
        }
        CHECK_EQ(wf_walker_set_motion(wk, 1, &bad), WF_ERR_ARG);
    }
    wf_walker_motion got;
    wf_walker_motion_state st;
    CHECK_EQ(wf_walker_motion_of(wk, 1, &got, &st), WF_OK);
    CHECK_EQ(memcmp(&got, &ok, sizeof got), 0);
    CHECK_EQ(st.cur, 0);
    CHECK_EQ(st.hx, F(1));
    CHECK_EQ(st.hy, 0);
    CHECK_EQ(st.bend, -1);
    CHECK_EQ(wf_walker_motion_of(wk, 2, &got, &st), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_walker_motion_of(wk, 1, NULL, NULL), WF_OK);
    wf_walker_motion_state bads[5] = {{-1, F(1), 0, -1}, {F(1) / 4 + 1, F(1), 0, -1},
                                      {0, 0, 0, -1}, {0, F(1) + 1, 0, -1},
                                      {0, F(1), 0, 1}};
    for (int k = 0; k < 5; k++)
        CHECK_EQ(wf_walker_set_motion_state(wk, 1, &bads[k]), WF_ERR_ARG);
    wf_walker_motion_state good = {F(1) / 8, 0, -F(1), -1};
    CHECK_EQ(wf_walker_set_motion_state(wk, 1, &good), WF_OK);
    CHECK_EQ(wf_walker_set_motion_state(wk, 2, &good), WF_ERR_NOTFOUND);
    CHECK_EQ(wf_walker_set_motion_state(wk, 1, NULL), WF_ERR_ARG);
    CHECK_EQ(wf_walker_motion_of(wk, 1, NULL, &st), WF_OK);
    CHECK_EQ(st.cur, F(1) / 8);
    CHECK_EQ(st.hy, -F(1));
    /* a lower speed caps the step length */
    CHECK_EQ(wf_walker_set_speed(wk, 1, F(1) / 16), WF_OK);
    CHECK_EQ(wf_walker_motion_of(wk, 1, NULL, &st), WF_OK);
    CHECK_EQ(st.cur, F(1) / 16);
    wf_walker_destroy(wk);

    wf_grid *g = grid(8, 8);
    wf_units_config cfg;
    wf_units *u = NULL;
    wf_units_config_init(&cfg);
    CHECK_EQ(cfg.corner_radius, 0);
    cfg.corner_radius = -1;
    CHECK_EQ(wf_units_create(&u, g, &cfg), WF_ERR_ARG);
    cfg.corner_radius = F(16) + 1;
    CHECK_EQ(wf_units_create(&u, g, &cfg), WF_ERR_ARG);
    cfg.corner_radius = F(16);
    CHECK_EQ(wf_units_create(&u, g, &cfg), WF_OK);
    wf_units_destroy(u);
    wf_grid_destroy(g);
}

int main(void)
{
    wf_grid *g = grid(16, 12);
    if (!g) {
        printf("args: cannot make a grid\n");
        return 1;
    }
    config_checks(g);
    unit_checks(g);
    restore_checks(g);
    name_checks();
    goal_checks();
    queue_checks(g);
    splice_checks();
    graph_checks();
    motion_checks();
    graph_patch_checks();
    graph_search_checks();
    graph_build_checks(g);
    walker_checks();
    wf_grid_destroy(g);
    printf("args: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
