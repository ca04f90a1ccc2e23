/* sweep.c - the swept collision test every mover shares: a move (a closed
 * segment) against another unit's grown square and against the navcell
 * grid of a class. Exact integer arithmetic; no floating point. */
#include "wayfinder.h"
#include "grid_internal.h"

#define FIX ((int64_t)WF_FIX_ONE)
#define NEAR_LIMIT ((int64_t)1 << 30)

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* floor(n / d) for d > 0 */
static int64_t floor_div(int64_t n, int64_t d)
{
    int64_t q = n / d;
    return (n % d != 0 && n < 0) ? q - 1 : q;
}

static int step_ok(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by)
{
    return abs64((int64_t)bx - ax) <= WF_SWEEP_MAX_STEP
           && abs64((int64_t)by - ay) <= WF_SWEEP_MAX_STEP;
}

int wf_segment_meets_box(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by,
                         wf_fix x0, wf_fix y0, wf_fix x1, wf_fix y1)
{
    if (x0 > x1 || y0 > y1 || !step_ok(ax, ay, bx, by))
        return 0;
    if (abs64((int64_t)x0 - ax) > NEAR_LIMIT || abs64((int64_t)x1 - ax) > NEAR_LIMIT
        || abs64((int64_t)y0 - ay) > NEAR_LIMIT || abs64((int64_t)y1 - ay) > NEAR_LIMIT)
        return 0;
    /* separating axes: x, y, then the segment's normal */
    if (min64(ax, bx) > x1 || max64(ax, bx) < x0)
        return 0;
    if (min64(ay, by) > y1 || max64(ay, by) < y0)
        return 0;
    int64_t dx = (int64_t)bx - ax, dy = (int64_t)by - ay;
    /* doubled box centre relative to 2A, and doubled half extents: every
     * term stays below 2^56 (offsets under 2^31, the step under 2^25) */
    int64_t cx2 = (int64_t)x0 + x1 - 2 * (int64_t)ax;
    int64_t cy2 = (int64_t)y0 + y1 - 2 * (int64_t)ay;
    int64_t ex2 = (int64_t)x1 - x0, ey2 = (int64_t)y1 - y0;
    int64_t cross = cx2 * dy - cy2 * dx;
    return abs64(cross) <= ex2 * abs64(dy) + ey2 * abs64(dx);
}

int wf_sweep_box(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by, wf_fix x0,
                 wf_fix y0, wf_fix x1, wf_fix y1)
{
    if (x0 > x1 || y0 > y1)
        return 0;
    if (x0 <= ax && ax <= x1 && y0 <= ay && ay <= y1)
        return 0;                         /* starts inside or on: free */
    if (x0 <= bx && bx <= x1 && y0 <= by && by <= y1)
        return 1;                         /* ends inside or on */
    return wf_segment_meets_box(ax, ay, bx, by, x0, y0, x1, y1);
}

wf_status wf_sweep_square(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by,
                          wf_fix cx, wf_fix cy, wf_fix h, int *hit)
{
    *hit = 0;
    if (h < 0 || h > WF_SWEEP_MAX_HALF || !step_ok(ax, ay, bx, by)
        || abs64((int64_t)cx - ax) > NEAR_LIMIT - WF_SWEEP_MAX_HALF
        || abs64((int64_t)cy - ay) > NEAR_LIMIT - WF_SWEEP_MAX_HALF)
        return WF_ERR_ARG;
    if (abs64((int64_t)ax - cx) <= h && abs64((int64_t)ay - cy) <= h)
        return WF_OK;                     /* starts inside or on: free */
    if (abs64((int64_t)bx - cx) <= h && abs64((int64_t)by - cy) <= h) {
        *hit = 1;                         /* ends inside or on */
        return WF_OK;
    }
    *hit = wf_segment_meets_box(ax, ay, bx, by, cx - h, cy - h, cx + h, cy + h);
    return WF_OK;
}

/* wf_grid_is_passable for a class already checked, inlined: off the grid
 * is blocked */
static int cell_open(const wf_grid *g, int cls, int x, int y)
{
    return x >= 0 && y >= 0 && x < g->w && y < g->h
           && wf_passable_fast(g, cls, x, y);
}

wf_status wf_sweep_grid(const wf_grid *g, int cls, wf_fix ax, wf_fix ay,
                        wf_fix bx, wf_fix by, int *hit, int *hx, int *hy)
{
    *hit = 0;
    if (!g || cls < 0 || cls >= wf_grid_class_count(g) || !step_ok(ax, ay, bx, by))
        return WF_ERR_ARG;
    int64_t minx = min64(ax, bx), maxx = max64(ax, bx);
    int64_t miny = min64(ay, by), maxy = max64(ay, by);
    int64_t dx = (int64_t)bx - ax, dy = (int64_t)by - ay;
    /* y along the segment is num(X) / den (Q16.16) with den > 0 */
    int64_t den = dx < 0 ? -dx : dx;
    int64_t sgn = dx < 0 ? -1 : 1;
    /* navcell i's closed square [i, i + 1] meets [lo, hi] for
     * ceil(lo) - 1 <= i <= floor(hi) */
    int64_t i0 = -floor_div(-minx, FIX) - 1, i1 = floor_div(maxx, FIX);
    int istep = bx >= ax ? 1 : -1;
    int64_t ifirst = istep > 0 ? i0 : i1, ilast = istep > 0 ? i1 : i0;
    int jstep = by >= ay ? 1 : -1;
    for (int64_t i = ifirst;; i += istep) {
        int64_t j0, j1;
        if (dx == 0) {
            j0 = -floor_div(-miny, FIX) - 1;
            j1 = floor_div(maxy, FIX);
        } else {
            int64_t X0 = max64(i * FIX, minx), X1 = min64((i + 1) * FIX, maxx);
            int64_t n0 = sgn * ((int64_t)ay * dx + (X0 - ax) * dy);
            int64_t n1 = sgn * ((int64_t)ay * dx + (X1 - ax) * dy);
            int64_t lo = min64(n0, n1), hi = max64(n0, n1);
            j0 = -floor_div(-lo, den * FIX) - 1;
            j1 = floor_div(hi, den * FIX);
        }
        int64_t jfirst = jstep > 0 ? j0 : j1, jlast = jstep > 0 ? j1 : j0;
        for (int64_t j = jfirst;; j += jstep) {
            if (!cell_open(g, cls, (int)i, (int)j)) {
                *hit = 1;
                if (hx) *hx = (int)i;
                if (hy) *hy = (int)j;
                return WF_OK;
            }
            if (j == jlast)
                break;
        }
        if (i == ilast)
            break;
    }
    return WF_OK;
}

int wf_sweep_point_clear(const wf_grid *g, int cls, wf_fix x, wf_fix y)
{
    if (!g || cls < 0 || cls >= wf_grid_class_count(g))
        return 0;
    int64_t i = floor_div(x, FIX), j = floor_div(y, FIX);
    int64_t i0 = (x % WF_FIX_ONE == 0) ? i - 1 : i;
    int64_t j0 = (y % WF_FIX_ONE == 0) ? j - 1 : j;
    for (int64_t b = j0; b <= j; b++)
        for (int64_t a = i0; a <= i; a++)
            if (!wf_grid_is_passable(g, (int)a, (int)b, cls))
                return 0;
    return 1;
}
