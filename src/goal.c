/* goal.c - path goals: a point, a rotated rectangle or a circle. A navcell
 * belongs to a shape goal when the closed navcell square and the closed
 * shape share a point; every test is exact integer arithmetic. */
#include "wayfinder.h"

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

static int floor_fix(int64_t v)
{
    return (int)(v >= 0 ? v / WF_FIX_ONE : -((-v + WF_FIX_ONE - 1) / WF_FIX_ONE));
}

static int ceil_fix(int64_t v)
{
    return -floor_fix(-v);
}

void wf_goal_point(wf_goal *g, wf_fix x, wf_fix y)
{
    g->type = WF_GOAL_POINT;
    g->x = x;
    g->y = y;
    g->hw = g->hh = g->r = 0;
    g->ux = WF_FIX_ONE;
    g->uy = 0;
    g->vx = 0;
    g->vy = WF_FIX_ONE;
    g->inverted = 0;
}

wf_status wf_goal_invert(wf_goal *g)
{
    if (g->type == WF_GOAL_POINT)
        return WF_ERR_ARG;
    g->inverted = 1;
    return WF_OK;
}

void wf_goal_circle(wf_goal *g, wf_fix x, wf_fix y, wf_fix r)
{
    wf_goal_point(g, x, y);
    g->type = WF_GOAL_CIRCLE;
    g->r = r;
}

void wf_goal_square(wf_goal *g, wf_fix x, wf_fix y, wf_fix hw, wf_fix hh,
                    wf_fix ux, wf_fix uy)
{
    wf_goal_point(g, x, y);
    g->type = WF_GOAL_SQUARE;
    g->hw = hw;
    g->hh = hh;
    g->ux = ux;
    g->uy = uy;
    g->vx = -uy;
    g->vy = ux;
}

/* Half extents of the rectangle projected on the x and y axes, Q16.16. */
static void square_extent(const wf_goal *g, int64_t *ex, int64_t *ey)
{
    *ex = (abs64((int64_t)g->hw * g->ux) + abs64((int64_t)g->hh * g->vx))
          / WF_FIX_ONE;
    *ey = (abs64((int64_t)g->hw * g->uy) + abs64((int64_t)g->hh * g->vy))
          / WF_FIX_ONE;
}

void wf_goal_bounds(const wf_goal *g, int *x0, int *y0, int *x1, int *y1)
{
    int64_t ex = 0, ey = 0;
    if (g->inverted && g->type != WF_GOAL_POINT) {
        *x0 = *y0 = -WF_MAX_SIDE;     /* everything, clipped by the caller */
        *x1 = *y1 = 2 * WF_MAX_SIDE;
        return;
    }
    switch (g->type) {
    case WF_GOAL_POINT:
        *x0 = *x1 = floor_fix(g->x);
        *y0 = *y1 = floor_fix(g->y);
        return;
    case WF_GOAL_CIRCLE:
        ex = ey = g->r;
        break;
    case WF_GOAL_SQUARE:
        square_extent(g, &ex, &ey);
        ex += 1;   /* the extent was rounded down: stay conservative */
        ey += 1;
        break;
    }
    /* navcell i touches [a, b] when i <= b and i + 1 >= a */
    *x0 = ceil_fix((int64_t)g->x - ex) - 1;
    *x1 = floor_fix((int64_t)g->x + ex);
    *y0 = ceil_fix((int64_t)g->y - ey) - 1;
    *y1 = floor_fix((int64_t)g->y + ey);
}

/* Inverted goals: the rectangle [lx, hx] x [ly, hy] holds a point outside
 * the open shape exactly when it is not inside the open shape, which for a
 * convex shape means one of its corners is outside it or on its edge. */
static int touches_inverted(const wf_goal *g, int64_t lx, int64_t ly,
                            int64_t hx, int64_t hy)
{
    if (g->type == WF_GOAL_CIRCLE) {
        uint64_t dx = (uint64_t)(abs64(lx - g->x) > abs64(hx - g->x)
                                 ? abs64(lx - g->x) : abs64(hx - g->x));
        uint64_t dy = (uint64_t)(abs64(ly - g->y) > abs64(hy - g->y)
                                 ? abs64(ly - g->y) : abs64(hy - g->y));
        return dx * dx + dy * dy >= (uint64_t)((int64_t)g->r * g->r);
    }
    for (int c = 0; c < 4; c++) {
        int64_t px = ((c & 1) ? hx : lx) - g->x, py = ((c & 2) ? hy : ly) - g->y;
        int64_t lu = px * g->ux + py * g->uy, lv = px * g->vx + py * g->vy;
        if (abs64(lu) >= (int64_t)g->hw * WF_FIX_ONE
            || abs64(lv) >= (int64_t)g->hh * WF_FIX_ONE)
            return 1;
    }
    return 0;
}

/* 1 when the closed world rectangle covering navcells [i0, i1] x [j0, j1]
 * shares a point with the goal (for a point goal: contains its navcell). */
int wf_goal_touches(const wf_goal *g, int i0, int j0, int i1, int j1)
{
    int64_t lx = (int64_t)i0 * WF_FIX_ONE, ly = (int64_t)j0 * WF_FIX_ONE;
    int64_t hx = ((int64_t)i1 + 1) * WF_FIX_ONE, hy = ((int64_t)j1 + 1) * WF_FIX_ONE;
    if (g->inverted && g->type != WF_GOAL_POINT)
        return touches_inverted(g, lx, ly, hx, hy);
    switch (g->type) {
    case WF_GOAL_POINT: {
        int px = floor_fix(g->x), py = floor_fix(g->y);
        return px >= i0 && px <= i1 && py >= j0 && py <= j1;
    }
    case WF_GOAL_CIRCLE: {
        int64_t dx = 0, dy = 0;
        if (g->x < lx) dx = lx - g->x;
        else if (g->x > hx) dx = g->x - hx;
        if (g->y < ly) dy = ly - g->y;
        else if (g->y > hy) dy = g->y - hy;
        if (dx > g->r || dy > g->r)
            return 0;
        return (uint64_t)(dx * dx) + (uint64_t)(dy * dy)
               <= (uint64_t)((int64_t)g->r * g->r);
    }
    case WF_GOAL_SQUARE: {
        /* separating axes x, y, u, v on doubled coordinates; touching
         * counts as overlap. The rectangle's half extents are (hx-lx)/2
         * and (hy-ly)/2. */
        int64_t ex2 = hx - lx, ey2 = hy - ly;          /* doubled, Q16 */
        int64_t cx2 = lx + hx, cy2 = ly + hy;          /* doubled centre */
        int64_t exq = abs64((int64_t)g->hw * g->ux) + abs64((int64_t)g->hh * g->vx);
        int64_t eyq = abs64((int64_t)g->hw * g->uy) + abs64((int64_t)g->hh * g->vy);
        int64_t dx2 = cx2 - 2 * (int64_t)g->x, dy2 = cy2 - 2 * (int64_t)g->y;
        if (abs64(dx2) * WF_FIX_ONE > 2 * exq + ex2 * WF_FIX_ONE)
            return 0;
        if (abs64(dy2) * WF_FIX_ONE > 2 * eyq + ey2 * WF_FIX_ONE)
            return 0;
        int64_t pu = abs64(dx2 * g->ux + dy2 * g->uy);
        int64_t ru = 2 * (int64_t)g->hw * WF_FIX_ONE
                     + ex2 * abs64(g->ux) + ey2 * abs64(g->uy);
        if (pu > ru)
            return 0;
        int64_t pv = abs64(dx2 * g->vx + dy2 * g->vy);
        int64_t rv = 2 * (int64_t)g->hh * WF_FIX_ONE
                     + ex2 * abs64(g->vx) + ey2 * abs64(g->vy);
        return pv <= rv;
    }
    }
    return 0;
}

int wf_goal_contains(const wf_goal *g, int i, int j)
{
    return wf_goal_touches(g, i, j, i, j);
}
