/* trig.c - sine and cosine in integer arithmetic, so that an
 * angle given by a script turns into the same unit vector on every machine
 * whatever its C library (see "fixed-point trigonometry" in wayfinder.h). */
#include "wayfinder.h"

#define Q30 ((int64_t)1 << 30)

/* v / 2^n rounded toward zero: C99 leaves shifting a negative value to the
 * compiler, so the sign is taken off first. */
static int64_t shr(int64_t v, int n)
{
    return v >= 0 ? v >> n : -((-v) >> n);
}
/* pi/2 in units of 2^-40 radian, rounded (error 0.18 unit) */
#define HALF_PI_40 ((int64_t)1727108826179)

/* sin and cos of r in Q30, |r| <= pi/4 + a little, by their Taylor series
 * to the 13th power in Horner form (truncation error below 2^-30). */
static void sincos_q30(int64_t r, int64_t *s, int64_t *c)
{
    int64_t r2 = (r * r) >> 30;
    int64_t t = Q30;
    static const int sd[] = {156, 110, 72, 42, 20, 6};   /* (2k)(2k+1) */
    static const int cd[] = {132, 90, 56, 30, 12, 2};    /* (2k-1)(2k) */
    for (int i = 0; i < 6; i++) t = Q30 - ((r2 * t) >> 30) / sd[i];
    *s = shr(r * t, 30);
    t = Q30;
    for (int i = 0; i < 6; i++) t = Q30 - ((r2 * t) >> 30) / cd[i];
    *c = t;
}

static wf_fix round_q30_to_fix(int64_t v)
{
    /* v in [-2^30, 2^30]: arithmetic shift of a non-negative value, then
     * the sign put back, so ties round away from zero on both sides */
    int64_t m = v < 0 ? -v : v;
    int64_t f = (m + ((int64_t)1 << 13)) >> 14;
    return (wf_fix)(v < 0 ? -f : f);
}

wf_status wf_fix_sincos(int64_t angle, wf_fix *ux, wf_fix *uy)
{
    if (!ux || !uy || angle > WF_ANGLE_MAX || angle < -WF_ANGLE_MAX) return WF_ERR_ARG;
    /* nearest quadrant k, remainder r in [-pi/4, pi/4] */
    int64_t k = angle >= 0 ? (angle + HALF_PI_40 / 2) / HALF_PI_40
                           : -((-angle + HALF_PI_40 / 2) / HALF_PI_40);
    int64_t r = angle - k * HALF_PI_40;
    int64_t r30 = r >= 0 ? (r + 512) >> 10 : -((-r + 512) >> 10);  /* to Q30 */
    int64_t s, c;
    sincos_q30(r30, &s, &c);
    int64_t x, y;
    switch ((int)(((k % 4) + 4) % 4)) {
    case 0: x = c; y = s; break;
    case 1: x = -s; y = c; break;
    case 2: x = -c; y = -s; break;
    default: x = s; y = -c; break;
    }
    *ux = round_q30_to_fix(x);
    *uy = round_q30_to_fix(y);
    return WF_OK;
}
