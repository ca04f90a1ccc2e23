/* avoid.c - the sampled velocity obstacle of avoid.h: candidate
 * velocities round a unit's preferred one, scored by how far they stray
 * and how soon they meet a neighbour. Integer arithmetic only. */
#include "avoid.h"
#include "fixmath.h"

#define FIX ((int64_t)WF_FIX_ONE)

/* cos and sin of k * 22.5 degrees, k = 0..8, in Q16.16 (rounded) */
static const int64_t COS16[9] = {65536, 60547, 46341, 25080, 0,
                                 -25080, -46341, -60547, -65536};
static const int64_t SIN16[9] = {0, 25080, 46341, 60547, 65536,
                                 60547, 46341, 25080, 0};

/* a fraction num / den with den > 0 */
typedef struct frac {
    int64_t num, den;
} frac;

static int frac_less(frac a, frac b)
{
    return a.num * b.den < b.num * a.den;
}

int64_t wf_avoid_contact(int64_t px, int64_t py, int64_t wx, int64_t wy,
                         int64_t half, int64_t horizon)
{
    int64_t ax = px < 0 ? -px : px, ay = py < 0 ? -py : py;
    if (ax <= half && ay <= half) {
        /* inside already: contact now when a tick's move brings the
         * centres nearer in the square's own (Chebyshev) distance */
        int64_t bx = px - wx, by = py - wy;
        bx = bx < 0 ? -bx : bx;
        by = by < 0 ? -by : by;
        return (bx > by ? bx : by) < (ax > ay ? ax : ay) ? 0 : -1;
    }
    frac in = {0, 1}, out = {horizon, 1};
    int64_t p[2] = {px, py}, w[2] = {wx, wy};
    for (int a = 0; a < 2; a++) {
        if (w[a] == 0) {
            if (p[a] < -half || p[a] > half)
                return -1;
            continue;
        }
        /* w t in [p - half, p + half] */
        frac lo = {p[a] - half, w[a]}, hi = {p[a] + half, w[a]};
        if (w[a] < 0) {
            lo.num = -(p[a] + half);
            lo.den = -w[a];
            hi.num = -(p[a] - half);
            hi.den = -w[a];
        }
        if (frac_less(in, lo))
            in = lo;
        if (frac_less(hi, out))
            out = hi;
    }
    if (frac_less(out, in))
        return -1;
    return in.num * FIX / in.den;
}

typedef struct cand {
    wf_fix vx, vy;
    int64_t score;
    int index;
} cand;

int wf_avoid_rank(wf_fix x, wf_fix y, wf_fix px, wf_fix py,
                  const wf_avoid_other *nb, int n, int horizon, wf_fix *out,
                  int *clear)
{
    if (horizon < 1 || horizon > WF_AVOID_HORIZON)
        horizon = WF_AVOID_HORIZON;
    int64_t s = (int64_t)wf_isqrt64((uint64_t)((int64_t)px * px
                                               + (int64_t)py * py));
    *clear = 1;
    if (s == 0) {
        out[0] = 0;
        out[1] = 0;
        return 1;
    }
    cand c[WF_AVOID_CANDIDATES];
    int nc = 0;
    for (int j = 0; j < 9; j++) {
        /* k = 0, +1, -1, ..., +4, -4: never backwards */
        int k = (j + 1) / 2, sign = j % 2 ? 1 : -1;
        if (j == 0)
            sign = 1;
        int64_t co = COS16[k], si = sign * SIN16[k];
        int64_t rx = ((int64_t)px * co - (int64_t)py * si) / FIX;
        int64_t ry = ((int64_t)px * si + (int64_t)py * co) / FIX;
        for (int half = 0; half < 2; half++) {
            c[nc].vx = (wf_fix)(half ? rx / 2 : rx);
            c[nc].vy = (wf_fix)(half ? ry / 2 : ry);
            c[nc].score = sign < 0 ? s / 16 : 0;
            c[nc].index = nc;
            nc++;
        }
    }
    c[nc].vx = 0;
    c[nc].vy = 0;
    c[nc].score = 0;
    c[nc].index = nc;
    nc++;
    for (int i = 0; i < nc; i++) {
        int64_t dx = (int64_t)c[i].vx - px, dy = (int64_t)c[i].vy - py;
        int64_t first = -1;       /* earliest contact, Q16.16 ticks */
        for (int k = 0; k < n; k++) {
            int64_t qx = (int64_t)nb[k].x - x, qy = (int64_t)nb[k].y - y;
            int64_t wx = (int64_t)c[i].vx - nb[k].vx;
            int64_t wy = (int64_t)c[i].vy - nb[k].vy;
            int64_t h = (int64_t)nb[k].half + WF_AVOID_MARGIN;
            /* inside the margin already: only the square itself counts */
            if ((qx < 0 ? -qx : qx) <= h && (qy < 0 ? -qy : qy) <= h)
                h = nb[k].half;
            int64_t t = wf_avoid_contact(qx, qy, wx, wy, h, horizon);
            if (t >= 0 && (first < 0 || t < first))
                first = t;
        }
        if (i == 0 && first >= 0)
            *clear = 0;
        c[i].score += (int64_t)wf_isqrt64((uint64_t)(dx * dx + dy * dy));
        if (first >= 0)
            c[i].score += 4 * s * FIX / (first + FIX);
    }
    /* insertion sort by score, then index: stable and exact */
    for (int i = 1; i < nc; i++) {
        cand t = c[i];
        int j = i;
        while (j > 0 && (c[j - 1].score > t.score
                         || (c[j - 1].score == t.score
                             && c[j - 1].index > t.index))) {
            c[j] = c[j - 1];
            j--;
        }
        c[j] = t;
    }
    for (int i = 0; i < nc; i++) {
        out[2 * i] = c[i].vx;
        out[2 * i + 1] = c[i].vy;
    }
    return nc;
}
