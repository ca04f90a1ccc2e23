/* jps.c - jump point search for uniform-cost grids under the no-corner-
 * cutting rule. Horizontal jumps read 64 navcells per step from the bit
 * planes; the expansion keeps A*'s heap, scratch and tie-break, so lengths
 * are the same optimal ones.
 *
 * Pruning under no corner cutting: a diagonal move has no forced neighbours
 * (both orthogonal navcells it passes are free), so a diagonal jump stops
 * only where a straight jump from it finds something. A straight move east
 * into n = (x, y) has a forced neighbour above when (x-1, y-1) is blocked and
 * (x, y-1) is free: the free cell can then only be reached optimally through
 * n, and so can (x+1, y-1). Likewise below, and likewise for the other
 * directions. */
#include "internal.h"

#define NONE (-1)

static const uint64_t *row_of(const wf_run *r, int y)
{
    return r->plane + (size_t)(y + 1) * (size_t)r->words;
}

/* 64 bits starting at bit b (bit 0 of the result is bit b). */
static uint64_t win_r(const uint64_t *row, unsigned b)
{
    unsigned i = b >> 6, s = b & 63;
    uint64_t v = row[i] >> s;
    if (s)
        v |= row[i + 1] << (64 - s);
    return v;
}

/* 64 bits ending at bit b (bit 63 of the result is bit b); bits before the
 * row start read as 0 (blocked). */
static uint64_t win_l(const uint64_t *row, int b)
{
    if (b >= 63)
        return win_r(row, (unsigned)(b - 63));
    return row[0] << (63 - b);
}

/* First goal navcell of row y among columns [a, b] (a <= b) scanning in
 * direction dx, or NONE. */
static int goal_in_span(const wf_run *r, int y, int a, int b, int dx)
{
    if (y < r->gy0 || y > r->gy1)
        return NONE;
    int lo = a > r->gx0 ? a : r->gx0, hi = b < r->gx1 ? b : r->gx1;
    if (lo > hi)
        return NONE;
    if (dx > 0) {
        for (int x = lo; x <= hi; x++)
            if (wf_run_in_goal(r, x, y))
                return x;
    } else {
        for (int x = hi; x >= lo; x--)
            if (wf_run_in_goal(r, x, y))
                return x;
    }
    return NONE;
}

/* Jumps from (x, y) along row y in direction dx; returns the column of the
 * jump point (forced neighbour or goal) or NONE at a dead end. */
static int jump_h(const wf_run *r, int x, int y, int dx)
{
    const uint64_t *B = row_of(r, y), *U = row_of(r, y - 1), *D = row_of(r, y + 1);
    int stop, blocked;
    if (dx > 0) {
        int p = x + 1;
        for (;;) {
            unsigned b = (unsigned)(p + 1);
            uint64_t up = win_r(U, b), upb = win_r(U, b - 1);
            uint64_t dn = win_r(D, b), dnb = win_r(D, b - 1);
            uint64_t free_ = win_r(B, b);
            uint64_t forced = (up & ~upb) | (dn & ~dnb);
            uint64_t m = ~free_ | forced;
            if (m) {
                int t = __builtin_ctzll(m);
                stop = p + t;
                blocked = !((free_ >> t) & 1u);
                break;
            }
            p += 64;
        }
        int gx = goal_in_span(r, y, x + 1, blocked ? stop - 1 : stop, 1);
        if (gx != NONE)
            return gx;
        return blocked ? NONE : stop;
    }
    int p = x - 1;
    for (;;) {
        int b = p + 1;
        uint64_t up = win_l(U, b), upb = win_l(U, b + 1);
        uint64_t dn = win_l(D, b), dnb = win_l(D, b + 1);
        uint64_t free_ = win_l(B, b);
        uint64_t forced = (up & ~upb) | (dn & ~dnb);
        uint64_t m = ~free_ | forced;
        if (m) {
            int t = __builtin_clzll(m);
            stop = p - t;
            blocked = !((free_ >> (63 - t)) & 1u);
            break;
        }
        p -= 64;
    }
    int gx = goal_in_span(r, y, blocked ? stop + 1 : stop, x - 1, -1);
    if (gx != NONE)
        return gx;
    return blocked ? NONE : stop;
}

/* Jumps from (x, y) along column x in direction dy; returns the row of the
 * jump point or NONE. */
static int jump_v(const wf_run *r, int x, int y, int dy)
{
    const uint64_t *prev = row_of(r, y);
    for (int p = y + dy;; p += dy) {
        const uint64_t *cur = row_of(r, p);
        if (!wf_bit(cur, x))
            return NONE;
        if (wf_run_in_goal(r, x, p))
            return p;
        if ((wf_bit(cur, x - 1) && !wf_bit(prev, x - 1))
            || (wf_bit(cur, x + 1) && !wf_bit(prev, x + 1)))
            return p;
        prev = cur;
    }
}

/* Diagonal jump; on success stores the jump point. */
static int jump_d(const wf_run *r, int x, int y, int dx, int dy, int *jx,
                  int *jy)
{
    for (;;) {
        int nx = x + dx, ny = y + dy;
        if (!wf_run_pass(r, nx, ny) || !wf_run_pass(r, nx, y)
            || !wf_run_pass(r, x, ny))
            return 0;
        x = nx;
        y = ny;
        if (wf_run_in_goal(r, x, y) || jump_h(r, x, y, dx) != NONE
            || jump_v(r, x, y, dy) != NONE) {
            *jx = x;
            *jy = y;
            return 1;
        }
    }
}

static void try_dir(wf_run *r, uint32_t u, int x, int y, int64_t gu, int dx,
                    int dy)
{
    int jx = x, jy = y;
    int64_t step;
    if (dx && dy) {
        if (!jump_d(r, x, y, dx, dy, &jx, &jy))
            return;
        step = 2 * WF_COST_DIAG * (jx > x ? jx - x : x - jx);
    } else if (dx) {
        jx = jump_h(r, x, y, dx);
        if (jx == NONE)
            return;
        step = 2 * WF_COST_SCALE * (jx > x ? jx - x : x - jx);
    } else {
        jy = jump_v(r, x, y, dy);
        if (jy == NONE)
            return;
        step = 2 * WF_COST_SCALE * (jy > y ? jy - y : y - jy);
    }
    wf_relax(r, (uint32_t)jy * (uint32_t)r->w + (uint32_t)jx, u, gu + step);
}

uint32_t wf_jps_loop(wf_run *r)
{
    uint32_t u;
    uint32_t w = (uint32_t)r->w;
    while (wf_pop(r, &u)) {
        int x = (int)(u % w), y = (int)(u / w);
        if (wf_run_in_goal(r, x, y))
            return u;
        const wf_node *n = &r->s->nodes[u];
        int64_t gu = n->g;
        if (n->parent == u) {
            /* the start: every direction, in A*'s neighbour order */
            static const int DX[8] = {1, -1, 0, 0, 1, -1, 1, -1};
            static const int DY[8] = {0, 0, 1, -1, 1, 1, -1, -1};
            for (int d = 0; d < 8; d++)
                try_dir(r, u, x, y, gu, DX[d], DY[d]);
            continue;
        }
        int px = (int)(n->parent % w), py = (int)(n->parent / w);
        int dx = (x > px) - (x < px), dy = (y > py) - (y < py);
        if (dx && dy) {
            try_dir(r, u, x, y, gu, dx, 0);
            try_dir(r, u, x, y, gu, 0, dy);
            try_dir(r, u, x, y, gu, dx, dy);
        } else if (dx) {
            try_dir(r, u, x, y, gu, dx, 0);
            for (int s = -1; s <= 1; s += 2)
                if (wf_run_pass(r, x, y + s) && !wf_run_pass(r, x - dx, y + s)) {
                    try_dir(r, u, x, y, gu, 0, s);
                    try_dir(r, u, x, y, gu, dx, s);
                }
        } else {
            try_dir(r, u, x, y, gu, 0, dy);
            for (int s = -1; s <= 1; s += 2)
                if (wf_run_pass(r, x + s, y) && !wf_run_pass(r, x + s, y - dy)) {
                    try_dir(r, u, x, y, gu, s, 0);
                    try_dir(r, u, x, y, gu, s, dy);
                }
        }
    }
    return UINT32_MAX;
}
