/* orca.c - the reciprocal velocity obstacle of orca.h: one half-plane of
 * velocities per neighbour, then the nearest admissible velocity by an
 * incremental linear program (2-D, with the 3-D fallback when the
 * half-planes leave nothing). Integer arithmetic only. */
#include "orca.h"
#include "fixmath.h"

#define FIX ((int64_t)WF_FIX_ONE)
/* two directions closer to parallel than this (a sine of 2^-16, Q32) are
 * taken as parallel: it bounds every quotient below */
#define EPS ((int64_t)1 << 16)
/* a line's point is kept at most this far from the origin [fixed]: far
 * enough (256 navcells) to stay outside any speed circle */
#define FAR ((int64_t)1 << 24)

typedef struct v2 {
    int64_t x, y;
} v2;

/* a directed line: point p [fixed], unit direction d [Q16]; the admissible
 * side is the left of d */
typedef struct line {
    v2 p, d;
} line;

static int64_t dot(v2 a, v2 b) { return a.x * b.x + a.y * b.y; }
static int64_t det(v2 a, v2 b) { return a.x * b.y - a.y * b.x; }
static v2 sub(v2 a, v2 b) { v2 r = {a.x - b.x, a.y - b.y}; return r; }

/* a + t * d with t [fixed] and d a Q16 unit vector */
static v2 along(v2 a, int64_t t, v2 d)
{
    v2 r = {a.x + t * d.x / FIX, a.y + t * d.y / FIX};
    return r;
}

static int64_t len_of(v2 a)
{
    return (int64_t)wf_isqrt64((uint64_t)(a.x * a.x + a.y * a.y));
}

/* a scaled to length l [fixed]; a must be non-zero and below 2^31 */
static v2 scaled(v2 a, int64_t l)
{
    int64_t n = len_of(a);
    v2 r = {a.x * l / n, a.y * l / n};
    return r;
}

/* The same line with its point moved to the nearest to the origin, then
 * pulled in to FAR when further (the line stays clear of the circle). */
static line tidy(line l)
{
    int64_t t = -dot(l.p, l.d) / FIX;
    l.p = along(l.p, t, l.d);
    int64_t m = l.p.x < 0 ? -l.p.x : l.p.x, my = l.p.y < 0 ? -l.p.y : l.p.y;
    if (my > m)
        m = my;
    if (m > FAR) {
        int64_t k = m / FAR + 1;
        l.p.x /= k;
        l.p.y /= k;
    }
    return l;
}

/* The best point on line k within the circle of radius r and left of
 * lines 0..k-1: nearest to opt, or furthest along opt when dir_opt. 0 when
 * there is none (result untouched). */
static int lp1(const line *L, int k, int64_t r, v2 opt, int dir_opt, v2 *result)
{
    int64_t d0 = dot(L[k].p, L[k].d) / FIX;
    int64_t disc = d0 * d0 + r * r - dot(L[k].p, L[k].p);
    if (disc < 0)
        return 0;   /* the circle lies wholly right of line k */
    int64_t sq = (int64_t)wf_isqrt64((uint64_t)disc);
    int64_t lo = -d0 - sq, hi = -d0 + sq;
    for (int i = 0; i < k; i++) {
        int64_t den = det(L[k].d, L[i].d);
        int64_t num = det(L[i].d, sub(L[k].p, L[i].p));
        if (den <= EPS && den >= -EPS) {
            if (num < 0)
                return 0;   /* parallel, and line k is wholly outside i */
            continue;
        }
        int64_t t = num * FIX / den;
        if (den > 0) {
            if (t < hi)
                hi = t;
        } else if (t > lo) {
            lo = t;
        }
        if (lo > hi)
            return 0;
    }
    int64_t t;
    if (dir_opt)
        t = dot(opt, L[k].d) > 0 ? hi : lo;
    else {
        t = dot(L[k].d, sub(opt, L[k].p)) / FIX;
        if (t < lo)
            t = lo;
        if (t > hi)
            t = hi;
    }
    *result = along(L[k].p, t, L[k].d);
    return 1;
}

/* The incremental 2-D program over lines 0..n-1: returns n when result
 * holds them all, else the first line it could not meet (result then the
 * optimum of the lines before it). */
static int lp2(const line *L, int n, int64_t r, v2 opt, int dir_opt, v2 *result)
{
    if (dir_opt) {
        result->x = opt.x * r / FIX;
        result->y = opt.y * r / FIX;
    } else if (dot(opt, opt) > r * r) {
        *result = scaled(opt, r);
    } else {
        *result = opt;
    }
    for (int i = 0; i < n; i++) {
        if (det(L[i].d, sub(L[i].p, *result)) > 0) {
            v2 keep = *result;
            if (!lp1(L, i, r, opt, dir_opt, result)) {
                *result = keep;
                return i;
            }
        }
    }
    return n;
}

/* The 3-D fallback from line `from` on: the velocity whose worst
 * violation (distance past a line) is least. */
static void lp3(const line *L, int n, int from, int64_t r, v2 *result)
{
    int64_t worst = 0;
    line proj[WF_ORCA_MAX_NEIGHBOURS];
    for (int i = from; i < n; i++) {
        if (det(L[i].d, sub(L[i].p, *result)) <= worst)
            continue;
        int np = 0;
        for (int j = 0; j < i; j++) {
            line l;
            int64_t dd = det(L[i].d, L[j].d);
            if (dd <= EPS && dd >= -EPS) {
                if (dot(L[i].d, L[j].d) > 0)
                    continue;   /* same way: j adds nothing */
                l.p.x = (L[i].p.x + L[j].p.x) / 2;
                l.p.y = (L[i].p.y + L[j].p.y) / 2;
            } else {
                int64_t t = det(L[j].d, sub(L[i].p, L[j].p)) * FIX / dd;
                l.p = along(L[i].p, t, L[i].d);
            }
            v2 dj = sub(L[j].d, L[i].d);
            if (dj.x == 0 && dj.y == 0)
                continue;
            l.d = scaled(dj, FIX);
            proj[np++] = tidy(l);
        }
        v2 keep = *result, opt = {-L[i].d.y, L[i].d.x};
        if (lp2(proj, np, r, opt, 1, result) < np)
            *result = keep;
        worst = det(L[i].d, sub(L[i].p, *result));
    }
}

/* The half-plane of one neighbour for a mover with velocity v. */
static line orca_line(const wf_orca_other *o, int64_t x, int64_t y, v2 v,
                      int64_t horizon)
{
    v2 rp = {(int64_t)o->x - x, (int64_t)o->y - y};
    v2 rv = {v.x - o->vx, v.y - o->vy};
    int64_t R = o->radius, d2 = dot(rp, rp), r2 = R * R;
    line l;
    v2 u;
    if (d2 > r2) {
        v2 w = {rv.x - rp.x / horizon, rv.y - rp.y / horizon};
        int64_t wl2 = dot(w, w), d1 = dot(w, rp);
        int64_t wl = (int64_t)wf_isqrt64((uint64_t)wl2);
        /* head-on (each walking at the other, the relative velocity
         * within about an eighth of a radian of the line between them)
         * the cap only slows both: take the right leg instead, and both
         * keep right */
        int64_t side = det(rp, w), across = det(rp, rv);
        v2 ov = {o->vx, o->vy};
        int head_on = dot(v, rp) > 0 && dot(ov, rp) < 0
                      && 8 * (across < 0 ? -across : across) < dot(rv, rp);
        if (d1 < 0 && wl > 0 && -d1 > R * wl && !head_on) {
            /* nearest the end cap: out along w */
            v2 uw = {w.x * FIX / wl, w.y * FIX / wl};
            l.d.x = uw.y;
            l.d.y = -uw.x;
            int64_t s = R / horizon - wl;
            u.x = s * uw.x / FIX;
            u.y = s * uw.y / FIX;
        } else {
            /* nearest a leg: left or right of the cone */
            int64_t leg = (int64_t)wf_isqrt64((uint64_t)(d2 - r2));
            if (side > 0) {
                l.d.x = (rp.x * leg - rp.y * R) * FIX / d2;
                l.d.y = (rp.x * R + rp.y * leg) * FIX / d2;
            } else {
                l.d.x = -(rp.x * leg + rp.y * R) * FIX / d2;
                l.d.y = -(-rp.x * R + rp.y * leg) * FIX / d2;
            }
            int64_t p2 = dot(rv, l.d) / FIX;
            u.x = p2 * l.d.x / FIX - rv.x;
            u.y = p2 * l.d.y / FIX - rv.y;
        }
    } else {
        /* within R already: apart within one tick */
        v2 w = sub(rv, rp);
        int64_t wl = len_of(w);
        v2 uw = {FIX, 0};
        if (wl > 0) {
            uw.x = w.x * FIX / wl;
            uw.y = w.y * FIX / wl;
        } else if (d2 > 0) {
            int64_t dl = len_of(rp);
            uw.x = -rp.x * FIX / dl;
            uw.y = -rp.y * FIX / dl;
        }
        l.d.x = uw.y;
        l.d.y = -uw.x;
        int64_t s = R - wl;
        u.x = s * uw.x / FIX;
        u.y = s * uw.y / FIX;
    }
    if (o->share) {
        u.x /= 2;
        u.y /= 2;
    }
    l.p.x = v.x + u.x;
    l.p.y = v.y + u.y;
    return tidy(l);
}

int wf_orca_velocity(wf_fix x, wf_fix y, wf_fix vx, wf_fix vy, wf_fix px,
                     wf_fix py, wf_fix speed, const wf_orca_other *nb, int n,
                     int horizon, wf_fix *out)
{
    if (horizon < 1 || horizon > 64)
        horizon = WF_ORCA_HORIZON;
    if (n > WF_ORCA_MAX_NEIGHBOURS)
        n = WF_ORCA_MAX_NEIGHBOURS;
    if (n < 0)
        n = 0;
    line L[WF_ORCA_MAX_NEIGHBOURS];
    v2 v = {vx, vy}, opt = {px, py}, res;
    for (int k = 0; k < n; k++)
        L[k] = orca_line(&nb[k], x, y, v, horizon);
    int64_t r = speed > 0 ? speed : 0;
    int ok = 1;
    int fail = lp2(L, n, r, opt, 0, &res);
    if (fail < n) {
        lp3(L, n, fail, r, &res);
        ok = 0;
    }
    /* rounding may leave it a hair past the speed */
    if (dot(res, res) > r * r)
        res = r > 0 ? scaled(res, r) : (v2){0, 0};
    out[0] = (wf_fix)res.x;
    out[1] = (wf_fix)res.y;
    return ok;
}
