/* motion.c - route-following polish shared by units and people: bounded
 * turning, speed ramps, arrival slowing, look-ahead and curved corners
 * (see motion.h). One copy of the arithmetic, so a unit and a person with
 * the same options move alike. */
#include "motion.h"
#include "fixmath.h"

#define FIX ((int64_t)WF_FIX_ONE)

static int64_t dist_of(int64_t dx, int64_t dy)
{
    return (int64_t)wf_isqrt64((uint64_t)(dx * dx) + (uint64_t)(dy * dy));
}

/* v * num / den rounded half away from zero (den > 0) */
static int64_t mul_div(int64_t v, int64_t num, int64_t den)
{
    int64_t t = v * num;
    return t >= 0 ? (t + den / 2) / den : -((-t + den / 2) / den);
}

int wf_motion_skip(const wf_fix *xy, int n, int *next, wf_fix x, wf_fix y,
                   wf_motion_fit fit, void *ctx)
{
    int k;
    for (k = 0; k < 8 && *next + 1 < n; k++) {
        wf_fix tx = xy[2 * (*next + 1)], ty = xy[2 * (*next + 1) + 1];
        if ((tx != x || ty != y) && !fit(ctx, x, y, tx, ty))
            break;
        (*next)++;
    }
    return k;
}

int64_t wf_motion_left(const wf_fix *xy, int n, int next, wf_fix x, wf_fix y)
{
    int64_t d = 0;
    for (int k = next; k < n; k++) {
        d += dist_of((int64_t)xy[2 * k] - x, (int64_t)xy[2 * k + 1] - y);
        x = xy[2 * k];
        y = xy[2 * k + 1];
    }
    return d;
}

int wf_motion_turn(wf_fix *hx, wf_fix *hy, int64_t dx, int64_t dy,
                   int64_t rate)
{
    int64_t d = dist_of(dx, dy);
    if (d <= 0)
        return 0;
    int64_t ux = dx * FIX / d, uy = dy * FIX / d;
    wf_fix co, si;
    wf_fix_sincos(rate, &co, &si);
    int64_t dot = ((int64_t)*hx * ux + (int64_t)*hy * uy) / FIX;
    if (dot >= co) {
        *hx = (wf_fix)ux;
        *hy = (wf_fix)uy;
        return 0;
    }
    int64_t cross = (int64_t)*hx * uy - (int64_t)*hy * ux;
    int64_t sn = cross >= 0 ? si : -si;
    int64_t nx = ((int64_t)*hx * co - (int64_t)*hy * sn) / FIX;
    int64_t ny = ((int64_t)*hx * sn + (int64_t)*hy * co) / FIX;
    int64_t len = dist_of(nx, ny);
    *hx = (wf_fix)(nx * FIX / len);
    *hy = (wf_fix)(ny * FIX / len);
    return 1;
}

int64_t wf_motion_speed(int64_t cur, int64_t speed, int64_t left,
                        wf_fix accel, wf_fix arrive_radius, int turning)
{
    int64_t target = turning ? 0 : speed;
    if (arrive_radius && left < arrive_radius) {
        int64_t v = speed * left / arrive_radius;
        if (v < speed / 16)
            v = speed / 16;
        if (v < 1)
            v = 1;
        if (v < target)
            target = v;
    }
    if (accel) {
        /* braking a per tick from v covers v (v + a) / (2a) */
        int64_t a = accel;
        int64_t v = ((int64_t)wf_isqrt64((uint64_t)(a * a + 8 * a * left)) - a) / 2;
        if (v < a)
            v = a;
        if (v < target)
            target = v;
        if (target > cur + a)
            target = cur + a;
        if (target < cur - a)
            target = cur - a;
    }
    return target < 0 ? 0 : target;
}

/* The curve's points for entry distance d and control factor kn / kd
 * into out; 1 when every chord and both straight legs pass fit. */
static int curve_fits(int64_t px, int64_t py, int64_t cx, int64_t cy,
                      int64_t nx, int64_t ny, int64_t lpc, int64_t lcn,
                      int64_t d, int64_t kn, int64_t kd, wf_motion_fit fit,
                      void *ctx, wf_fix *out)
{
    int64_t ax = cx + mul_div(px - cx, d, lpc), ay = cy + mul_div(py - cy, d, lpc);
    int64_t bx = cx + mul_div(nx - cx, d, lcn), by = cy + mul_div(ny - cy, d, lcn);
    /* control points A + k (C - A) and B + k (C - B) */
    int64_t ex = ax + mul_div(cx - ax, kn, kd), ey = ay + mul_div(cy - ay, kn, kd);
    int64_t fx = bx + mul_div(cx - bx, kn, kd), fy = by + mul_div(cy - by, kn, kd);
    const int64_t S = WF_CORNER_POINTS - 1;
    for (int64_t i = 0; i <= S; i++) {
        int64_t j = S - i;
        int64_t wa = j * j * j, we = 3 * j * j * i, wf = 3 * j * i * i, wb = i * i * i;
        out[2 * i] = (wf_fix)mul_div(wa * ax + we * ex + wf * fx + wb * bx, 1, S * S * S);
        out[2 * i + 1] = (wf_fix)mul_div(wa * ay + we * ey + wf * fy + wb * by, 1,
                                         S * S * S);
    }
    if ((out[0] != px || out[1] != py)
        && !fit(ctx, (wf_fix)px, (wf_fix)py, out[0], out[1]))
        return 0;
    for (int i = 0; i < S; i++)
        if ((out[2 * i] != out[2 * i + 2] || out[2 * i + 1] != out[2 * i + 3])
            && !fit(ctx, out[2 * i], out[2 * i + 1], out[2 * i + 2],
                    out[2 * i + 3]))
            return 0;
    if ((out[2 * S] != nx || out[2 * S + 1] != ny)
        && !fit(ctx, out[2 * S], out[2 * S + 1], (wf_fix)nx, (wf_fix)ny))
        return 0;
    return 1;
}

int wf_motion_corner(wf_fix px, wf_fix py, wf_fix cx, wf_fix cy, wf_fix nx,
                     wf_fix ny, wf_fix radius, wf_motion_fit fit, void *ctx,
                     wf_fix *out)
{
    int64_t lpc = dist_of((int64_t)cx - px, (int64_t)cy - py);
    int64_t lcn = dist_of((int64_t)nx - cx, (int64_t)ny - cy);
    if (radius <= 0 || lpc <= 0 || lcn <= 0)
        return 0;
    /* straight on (within about 1/1000 radian): nothing to round */
    int64_t ux = ((int64_t)cx - px) * FIX / lpc, uy = ((int64_t)cy - py) * FIX / lpc;
    int64_t vx = ((int64_t)nx - cx) * FIX / lcn, vy = ((int64_t)ny - cy) * FIX / lcn;
    int64_t cross = ux * vy - uy * vx, dot = ux * vx + uy * vy;
    if (dot > 0 && (cross < 0 ? -cross : cross) < 4 * FIX)
        return 0;
    int64_t d = radius;
    if (d > lpc)
        d = lpc;
    if (d > lcn / 2)
        d = lcn / 2;
    /* the inside curve (k = 2/3) at d, then at d / 2, then the wide one
     * (k = 2) at d, then at d / 2 */
    static const int64_t K[4][3] = {{2, 3, 1}, {2, 3, 2}, {2, 1, 1}, {2, 1, 2}};
    for (int k = 0; k < 4; k++) {
        int64_t dk = d / K[k][2];
        if (dk >= (k < 2 ? WF_CORNER_MIN : 4 * WF_CORNER_MIN)
            && curve_fits(px, py, cx, cy, nx, ny, lpc, lcn, dk, K[k][0], K[k][1],
                          fit, ctx, out))
            return WF_CORNER_POINTS;
    }
    return 0;
}
