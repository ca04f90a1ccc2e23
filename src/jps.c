/* jps.c - jump point search for uniform-cost grids under the no-corner-
 * cutting rule. Jumps read 64 navcells per step from the bit planes (the
 * transposed copy for vertical ones); the expansion keeps A*'s heap, scratch and tie-break, so lengths
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

static const uint64_t *col_of(const wf_run *r, int x)
{
    return r->tplane + (size_t)(x + 1) * (size_t)r->twords;
}

/* 64 bits starting at bit b (bit 0 of the result is bit b). */
static uint64_t win_r(const uint64_t *line, unsigned b)
{
    unsigned i = b >> 6, s = b & 63;
    uint64_t v = line[i] >> s;
    if (s)
        v |= line[i + 1] << (64 - s);
    return v;
}

/* 64 bits ending at bit b (bit 63 of the result is bit b); bits before the
 * line start read as 0 (blocked). */
static uint64_t win_l(const uint64_t *line, int b)
{
    if (b >= 63)
        return win_r(line, (unsigned)(b - 63));
    return line[0] << (63 - b);
}

/* Scans line B from position `from` (exclusive) in direction d, with the
 * two neighbouring lines U and D, 64 positions per step. Position p is bit
 * p + 1 of a line. Returns the first position that is blocked (*blocked = 1)
 * or has a forced neighbour: a free neighbour whose predecessor along the
 * scan is blocked. The padding guarantees a blocked position at each end. */
static int scan_line(const uint64_t *B, const uint64_t *U, const uint64_t *D,
                     int from, int d, int *blocked)
{
    if (d > 0) {
        /* the window one position back is the window shifted up by one,
         * with the bit before it brought in */
        unsigned b = (unsigned)(from + 2);
        uint64_t up_prev = (U[(b - 1) >> 6] >> ((b - 1) & 63)) & 1u;
        uint64_t dn_prev = (D[(b - 1) >> 6] >> ((b - 1) & 63)) & 1u;
        for (int p = from + 1;; p += 64, b += 64) {
            uint64_t free_ = win_r(B, b);
            uint64_t up = win_r(U, b), dn = win_r(D, b);
            uint64_t forced = (up & ~(up << 1 | up_prev))
                              | (dn & ~(dn << 1 | dn_prev));
            uint64_t m = ~free_ | forced;
            if (m) {
                int t = __builtin_ctzll(m);
                *blocked = !((free_ >> t) & 1u);
                return p + t;
            }
            up_prev = up >> 63;
            dn_prev = dn >> 63;
        }
    }
    int b = from;   /* bit of position from - 1 */
    uint64_t up_next = (U[(unsigned)(b + 1) >> 6] >> ((unsigned)(b + 1) & 63)) & 1u;
    uint64_t dn_next = (D[(unsigned)(b + 1) >> 6] >> ((unsigned)(b + 1) & 63)) & 1u;
    for (int p = from - 1;; p -= 64, b -= 64) {
        uint64_t free_ = win_l(B, b);
        uint64_t up = win_l(U, b), dn = win_l(D, b);
        uint64_t forced = (up & ~(up >> 1 | up_next << 63))
                          | (dn & ~(dn >> 1 | dn_next << 63));
        uint64_t m = ~free_ | forced;
        if (m) {
            int t = __builtin_clzll(m);
            *blocked = !((free_ >> (63 - t)) & 1u);
            return p - t;
        }
        up_next = up & 1u;
        dn_next = dn & 1u;
    }
}

/* First goal navcell among positions [a, b] of a line, scanning in
 * direction d. The line is row `fixed` (horizontal) or column `fixed`. */
static inline int goal_on_line(const wf_run *r, int horizontal, int fixed,
                               int a, int b, int d)
{
    int lo0 = horizontal ? r->gx0 : r->gy0, hi0 = horizontal ? r->gx1 : r->gy1;
    int f0 = horizontal ? r->gy0 : r->gx0, f1 = horizontal ? r->gy1 : r->gx1;
    if (fixed < f0 || fixed > f1)
        return NONE;
    int lo = a > lo0 ? a : lo0, hi = b < hi0 ? b : hi0;
    for (int i = 0; i <= hi - lo; i++) {
        int p = d > 0 ? lo + i : hi - i;
        if (horizontal ? wf_run_in_goal(r, p, fixed) : wf_run_in_goal(r, fixed, p))
            return p;
    }
    return NONE;
}

/* Jumps from position `from` of a line in direction d; returns the position
 * of the jump point (forced neighbour or goal) or NONE at a dead end. */
static int jump_line(const wf_run *r, int horizontal, int fixed, int from,
                     int d)
{
    const uint64_t *B, *U, *D;
    if (horizontal) {
        B = row_of(r, fixed);
        U = row_of(r, fixed - 1);
        D = row_of(r, fixed + 1);
    } else {
        B = col_of(r, fixed);
        U = col_of(r, fixed - 1);
        D = col_of(r, fixed + 1);
    }
    int blocked;
    int stop = scan_line(B, U, D, from, d, &blocked);
    int last = blocked ? stop - d : stop;   /* last free position scanned */
    int g = d > 0 ? goal_on_line(r, horizontal, fixed, from + 1, last, d)
                  : goal_on_line(r, horizontal, fixed, last, from - 1, d);
    if (g != NONE)
        return g;
    return blocked ? NONE : stop;
}

static int jump_h(const wf_run *r, int x, int y, int dx)
{
    return jump_line(r, 1, y, x, dx);
}

static int jump_v(const wf_run *r, int x, int y, int dy)
{
    return jump_line(r, 0, x, y, dy);
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
    wf_relax_xy(r, (uint32_t)jy * (uint32_t)r->w + (uint32_t)jx, jx, jy, u,
                gu + step);
}

uint32_t wf_jps_loop(wf_run *r)
{
    uint32_t u;
    while (wf_pop(r, &u)) {
        const wf_node *n = &r->s->nodes[u];
        int x = wf_node_x(n), y = wf_node_y(n);
        if (wf_run_in_goal(r, x, y))
            return u;
        int64_t gu = n->g;
        if (n->parent == u) {
            /* the start: every direction, in A*'s neighbour order */
            static const int DX[8] = {1, -1, 0, 0, 1, -1, 1, -1};
            static const int DY[8] = {0, 0, 1, -1, 1, 1, -1, -1};
            for (int d = 0; d < 8; d++)
                try_dir(r, u, x, y, gu, DX[d], DY[d]);
            continue;
        }
        const wf_node *pn = &r->s->nodes[n->parent];
        int px = wf_node_x(pn), py = wf_node_y(pn);
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
