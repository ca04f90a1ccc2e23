/* jps.c - jump point search for uniform-cost grids under the no-corner-
 * cutting rule. Jumps read 64 navcells per step from the bit planes (the
 * transposed copy for vertical ones). The expansion keeps A*'s scratch and
 * tie-break, so lengths are the same optimal ones; its open list (open.c)
 * yields nodes in the order of A*'s heap.
 *
 * Pruning under no corner cutting: a diagonal move has no forced neighbours
 * (both orthogonal navcells it passes are free), so a diagonal jump stops
 * only where a straight jump from it finds something. A straight move east
 * into n = (x, y) has a forced neighbour above when (x-1, y-1) is blocked and
 * (x, y-1) is free: the free cell can then only be reached optimally through
 * n, and so can (x+1, y-1). Likewise below, and likewise for the other
 * directions.
 *
 * Diagonals read 64 navcells per step too. Where a diagonal from a
 * navcell first meets something that does not depend on the goal (a step
 * it cannot take, or a navcell whose straight scans find a jump point) is
 * a property of the passability alone: the search scratch keeps those
 * navcells, the diagonal stops, in planes laid out along the diagonals,
 * and the jump masks that say which straight scans find something
 * (jplanes.c). A diagonal then moves from stop to stop; only the steps
 * where its row or column crosses the goal's box (the goal-dependent
 * stops) are looked at one by one. The planes are made by a class's first
 * JPS search and brought up to date with the grid's edits by the next one
 * (wf_jplanes_bind), so results depend on the passability alone.
 *
 * JPS's node records go in the scratch's record array in the order they
 * are opened (wf_jps_rec), so the few a search makes share a few pages. */
#include <limits.h>

#include "open.h"

#define NONE (-1)

static const uint64_t *row_of(const wf_run *r, int y)
{
    return r->plane + (size_t)(y + 1) * (size_t)r->words;
}

static const uint64_t *col_of(const wf_run *r, int x)
{
    return r->tplane + (size_t)(x + 1) * (size_t)r->twords;
}

/* Scans line B from position `from` (exclusive) forwards, with the two
 * neighbouring lines U and D, one aligned word (64 positions) per step.
 * Position p is bit p + 1 of a line. Returns the first position that is
 * blocked (*blocked = 1) or has a forced neighbour: a free neighbour whose
 * predecessor along the scan is blocked. The padding guarantees a blocked
 * position at each end. */
static inline int scan_fwd(const uint64_t *B, const uint64_t *U,
                           const uint64_t *D, int from, int *blocked)
{
    unsigned b = (unsigned)from + 2;        /* bit of position from + 1 */
    unsigned i = b >> 6, sh = b & 63;
    /* the bit before the first one, when it lies in the previous word */
    uint64_t cu = sh ? 0 : U[i - 1] >> 63, cd = sh ? 0 : D[i - 1] >> 63;
    uint64_t wb = B[i], wu = U[i], wd = D[i];
    uint64_t m = (~wb | (wu & ~(wu << 1 | cu)) | (wd & ~(wd << 1 | cd)))
                 & (~(uint64_t)0 << sh);
    while (!m) {
        cu = wu >> 63;
        cd = wd >> 63;
        i++;
        wb = B[i];
        wu = U[i];
        wd = D[i];
        m = ~wb | (wu & ~(wu << 1 | cu)) | (wd & ~(wd << 1 | cd));
    }
    int t = wf_ctz64(m);
    *blocked = !((wb >> t) & 1u);
    return (int)(i * 64) + t - 1;
}

/* The same backwards. */
static inline int scan_bwd(const uint64_t *B, const uint64_t *U,
                           const uint64_t *D, int from, int *blocked)
{
    unsigned b = (unsigned)from;            /* bit of position from - 1 */
    unsigned i = b >> 6, sh = b & 63;
    uint64_t cu = sh == 63 ? U[i + 1] << 63 : 0;
    uint64_t cd = sh == 63 ? D[i + 1] << 63 : 0;
    uint64_t wb = B[i], wu = U[i], wd = D[i];
    uint64_t m = (~wb | (wu & ~(wu >> 1 | cu)) | (wd & ~(wd >> 1 | cd)))
                 & (~(uint64_t)0 >> (63 - sh));
    while (!m) {
        cu = wu << 63;
        cd = wd << 63;
        i--;
        wb = B[i];
        wu = U[i];
        wd = D[i];
        m = ~wb | (wu & ~(wu >> 1 | cu)) | (wd & ~(wd >> 1 | cd));
    }
    int t = 63 - wf_clz64(m);
    *blocked = !((wb >> t) & 1u);
    return (int)(i * 64) + t - 1;
}

/* First goal navcell among positions [a, b] of a line, scanning in
 * direction d. The line is row `fixed` (horizontal) or column `fixed`,
 * which crosses the goal box. */
static int goal_on_line(const wf_run *r, int horizontal, int fixed, int a,
                        int b, int d)
{
    int lo0 = horizontal ? r->gx0 : r->gy0, hi0 = horizontal ? r->gx1 : r->gy1;
    int lo = a > lo0 ? a : lo0, hi = b < hi0 ? b : hi0;
    for (int i = 0; i <= hi - lo; i++) {
        int p = d > 0 ? lo + i : hi - i;
        if (horizontal ? wf_run_in_goal(r, p, fixed) : wf_run_in_goal(r, fixed, p))
            return p;
    }
    return NONE;
}

/* What a straight jump from position `from` in direction d along row or
 * column `fixed` returns once its scan stopped at `stop`: the first goal
 * navcell passed, else the stop when it is a free jump point, else NONE. */
static WF_ALWAYS_INLINE int line_end(const wf_run *r, int horizontal,
                                     int fixed, int from, int stop,
                                     int blocked, int d)
{
    int f0 = horizontal ? r->gy0 : r->gx0, f1 = horizontal ? r->gy1 : r->gx1;
    if (fixed >= f0 && fixed <= f1) {
        int last = blocked ? stop - d : stop;   /* last free position */
        int g = d > 0 ? goal_on_line(r, horizontal, fixed, from + 1, last, d)
                      : goal_on_line(r, horizontal, fixed, last, from - 1, d);
        if (g != NONE)
            return g;
    }
    return blocked ? NONE : stop;
}

/* Jumps along line B (row or column `fixed`; its neighbours are `stride`
 * words away) from position `from` in direction d; returns the position of
 * the jump point (forced neighbour or goal) or NONE at a dead end. */
static WF_ALWAYS_INLINE int jump_line(const wf_run *r, const uint64_t *B,
                                      size_t stride, int horizontal,
                                      int fixed, int from, int d)
{
    int blocked, stop;
    if (d > 0)
        stop = scan_fwd(B, B - stride, B + stride, from, &blocked);
    else
        stop = scan_bwd(B, B - stride, B + stride, from, &blocked);
    return line_end(r, horizontal, fixed, from, stop, blocked, d);
}

static WF_ALWAYS_INLINE int jump_h(const wf_run *r, int x, int y, int dx)
{
    return jump_line(r, row_of(r, y), (size_t)r->words, 1, y, x, dx);
}

static WF_ALWAYS_INLINE int jump_v(const wf_run *r, int x, int y, int dy)
{
    return jump_line(r, col_of(r, x), (size_t)r->twords, 0, x, y, dy);
}

/* Once the point goal is offered at the f of the node u being expanded,
 * it comes off the open list next with its parent final (every node has f
 * at least that, and g <= f with g = f only at the goal): the rest of u's
 * expansion cannot change the result, and is skipped. */
static WF_NOINLINE void check_settled(wf_run *r, uint32_t u, int64_t g)
{
    const wf_node *n = wf_jps_rec(r->s, u);
    if (g == n->g + wf_octile_h(r, wf_node_x(n), wf_node_y(n)))
        r->settled = 1;
}

/* The direction of a move as a number in [0, 9): (dx + 1) + 3 * (dy + 1);
 * 4, no move, marks the start. Kept in a node's hpos: the direction of the
 * last move of its path, which its expansion continues. */
#define DIR(dx, dy) (((dx) + 1) + 3 * ((dy) + 1))
#define DIR_START 4

/* Offers navcell (x, y) with cost g, parent u and last move `dir`: opens
 * it, improves it, or ignores it when it is closed or no better. */
static WF_NOINLINE void relax_at(wf_run *r, int x, int y, uint32_t u, int64_t g,
                            int dir)
{
    wf_search *s = r->s;
    uint32_t v = (uint32_t)y * (uint32_t)r->w + (uint32_t)x;
    uint8_t m = s->mark[v];
    if (m == (uint8_t)(s->mgen + 1))
        return;                         /* closed: consistent heuristic */
    wf_node *n;
    if (m == s->mgen) {
        n = wf_jps_rec(s, v);
        if (g >= n->g)
            return;
    } else {
        s->mark[v] = s->mgen;
        s->jslot[v] = s->jn;
        n = &s->nodes[s->jn++];
        n->xy = (uint32_t)x | (uint32_t)y << 16;
    }
    n->g = g;
    n->parent = u;
    n->hpos = dir;
    wf_open_add(s, g + wf_octile_h(r, x, y), g, v);
    if (v == r->goal_node)
        check_settled(r, u, g);
}

void wf_jps_start(wf_run *r, int sx, int sy)
{
    uint32_t v = (uint32_t)sy * (uint32_t)r->w + (uint32_t)sx;
    relax_at(r, sx, sy, v, 0, DIR_START);
}

/* Straight jumps from node u at (x, y) with cost gu, along its row and
 * along its column. */
static WF_ALWAYS_INLINE void straight_h(wf_run *r, uint32_t u, int x, int y,
                                       int64_t gu, int dx)
{
    int jx = jump_h(r, x, y, dx);
    if (jx != NONE)
        relax_at(r, jx, y, u, gu + 2 * WF_COST_SCALE * (jx > x ? jx - x : x - jx),
                 DIR(dx, 0));
}

static WF_ALWAYS_INLINE void straight_v(wf_run *r, uint32_t u, int x, int y,
                                       int64_t gu, int dy)
{
    int jy = jump_v(r, x, y, dy);
    if (jy != NONE)
        relax_at(r, x, jy, u, gu + 2 * WF_COST_SCALE * (jy > y ? jy - y : y - jy),
                 DIR(0, dy));
}

/* Diagonal steps from (x, y) that bring it nearer the goal box on both
 * axes; along them f = g + h stays what it was at (x, y). */
static int steps_toward_goal(const wf_run *r, int x, int y, int dx, int dy)
{
    int kx = dx > 0 ? r->gx0 - x : x - r->gx1;
    int ky = dy > 0 ? r->gy0 - y : y - r->gy1;
    int k = kx < ky ? kx : ky;
    return k > 0 ? k : 0;
}

/* The steps [*lo, *hi] (empty when *lo > *hi) at which a diagonal from
 * position p in direction s along an axis is inside [a, b]. */
static void band_steps(int p, int s, int a, int b, int *lo, int *hi)
{
    *lo = s > 0 ? a - p : p - b;
    *hi = s > 0 ? b - p : p - a;
}

/* The first step after k inside [lo, hi], or INT_MAX. */
static inline int band_next(int k, int lo, int hi)
{
    int n = k + 1 > lo ? k + 1 : lo;
    return n <= hi ? n : INT_MAX;
}

/* The next step after k at which the column (steps [cx0, cx1]) or the row
 * ([ry0, ry1]) crosses the goal box, or INT_MAX. It stays the same while a
 * diagonal moves from stop to stop short of it. */
static inline int next_band(int k, int cx0, int cx1, int ry0, int ry1)
{
    int nx = band_next(k, cx0, cx1), ny = band_next(k, ry0, ry1);
    return nx < ny ? nx : ny;
}

/* Whether a straight scan from (x, y) along its row towards dx, or along
 * its column towards dy, ends at a jump point (the grid's jump masks). */
static WF_ALWAYS_INLINE int mask_bit(const wf_run *r, int plane, int x, int y)
{
    unsigned b = (unsigned)(x + 1);
    uint64_t w = r->jmask[4 * ((size_t)(y + 1) * (size_t)r->words + (b >> 6))
                          + (size_t)plane];
    return (int)((w >> (b & 63)) & 1u);
}

/* The line of the diagonal stops of direction (dx, dy) through (x, y). */
static WF_ALWAYS_INLINE const uint64_t *diag_line(const wf_run *r, int x, int y,
                                                  int dx, int dy)
{
    return r->dstop + (size_t)wf_diag_dir(dx, dy) * r->dplane_words
           + (size_t)wf_diag_index(r->h, x, y, dx, dy) * (size_t)r->twords;
}

/* Steps from row y along a diagonal line going down (dy > 0) or up to
 * the line's first stop (the navcells off the grid are stops, so there
 * is one). */
static WF_ALWAYS_INLINE int diag_steps(const uint64_t *line, int y, int dy)
{
    unsigned p = (unsigned)(y + 1);
    if (dy > 0) {
        unsigned b = p + 1, w = b >> 6;
        uint64_t m = line[w] & (~(uint64_t)0 << (b & 63));
        while (!m)
            m = line[++w];
        return (int)(w * 64 + (unsigned)wf_ctz64(m) - p);
    }
    unsigned b = p - 1, w = b >> 6;
    uint64_t m = line[w] & (~(uint64_t)0 >> (63 - (b & 63)));
    while (!m)
        m = line[--w];
    return (int)(p - (w * 64 + 63 - (unsigned)wf_clz64(m)));
}

/* 1 when the diagonal step from x on row `row` to x + dx on the row rstep
 * words away is allowed: the navcell it enters and the two beside the
 * step are free. */
static WF_ALWAYS_INLINE int diag_step_free(const uint64_t *row,
                                           ptrdiff_t rstep, int x, int dx)
{
    return wf_bit(row, x + dx) && wf_bit(row + rstep, x)
           && wf_bit(row + rstep, x + dx);
}

/* Diagonal jump from node u at (x, y) with cost gu. The jump stops at the
 * first navcell d that is in the goal or from which a straight jump finds a
 * jump point, and opens d. While the diagonal still heads for the goal on
 * both axes, d would have u's f and be expanded next anyway, so it is
 * pruned instead: its straight jumps' ends are offered at once with u as
 * their parent (the path bends at d: diagonal first, then straight), and
 * the diagonal goes on. It moves from one diagonal stop to the next, and
 * stops on its way at every step where its row or its column crosses the
 * goal's box. */
static WF_ALWAYS_INLINE void diagonal_dir(wf_run *r, uint32_t u, int x,
                                          int y, int64_t gu, int dx, int dy)
{
    ptrdiff_t rstep = dy > 0 ? (ptrdiff_t)r->words : -(ptrdiff_t)r->words;
    const uint64_t *row = row_of(r, y);
    /* many diagonals cannot take a single step: test that first */
    if (!diag_step_free(row, rstep, x, dx))
        return;
    int prune = steps_toward_goal(r, x, y, dx, dy);
    /* the steps at which the column or the row crosses the goal box */
    int cx0, cx1, ry0, ry1;
    band_steps(x, dx, r->gx0, r->gx1, &cx0, &cx1);
    band_steps(y, dy, r->gy0, r->gy1, &ry0, &ry1);
    const uint64_t *line = diag_line(r, x, y, dx, dy);
    int k = 0, band = next_band(k, cx0, cx1, ry0, ry1);
    for (;;) {
        int n = diag_steps(line, y, dy);
        int jx, jy, kr = 0, kc = 0;
        if (k + n <= band) {
            /* the stop: a navcell the diagonal cannot enter, or one whose
             * straight scans find a jump point (says the jump masks). With
             * no such scan it must be the first; with one, it is the first
             * unless the step into it is blocked. */
            int ex = x + dx * n, ey = y + dy * n;
            kr = mask_bit(r, dx > 0 ? WF_JM_EAST : WF_JM_WEST, ex, ey);
            kc = mask_bit(r, dy > 0 ? WF_JM_SOUTH : WF_JM_NORTH, ex, ey);
            if (!(kr | kc) || !wf_run_pass(r, ex, ey) || !wf_run_pass(r, ex - dx, ey)
                || !wf_run_pass(r, ex, ey - dy))
                return;                             /* dead end */
        }
        if (k + n < band) {
            /* neither line crosses the goal box: the scans that find a
             * jump point */
            x += dx * n;
            y += dy * n;
            k += n;
            jx = kr ? jump_h(r, x, y, dx) : NONE;
            jy = kc ? jump_v(r, x, y, dy) : NONE;
        } else {
            /* the band step comes first, or is the stop */
            int m = band - k;
            x += dx * m;
            y += dy * m;
            k = band;
            band = next_band(k, cx0, cx1, ry0, ry1);
            if (wf_run_in_goal(r, x, y)) {
                relax_at(r, x, y, u, gu + 2 * WF_COST_DIAG * k, DIR(dx, dy));
                return;
            }
            jx = jump_h(r, x, y, dx);
            jy = jump_v(r, x, y, dy);
            if (jx == NONE && jy == NONE)
                continue;
        }
        int64_t g = gu + 2 * WF_COST_DIAG * k;
        if (k > prune) {
            relax_at(r, x, y, u, g, DIR(dx, dy));
            return;
        }
        if (jx != NONE)
            relax_at(r, jx, y, u, g + 2 * WF_COST_SCALE * (jx > x ? jx - x : x - jx),
                     DIR(dx, 0));
        if (jy != NONE)
            relax_at(r, x, jy, u, g + 2 * WF_COST_SCALE * (jy > y ? jy - y : y - jy),
                     DIR(0, dy));
        if (r->settled)
            return;
    }
}

/* One function per direction, each compiled on its own so that its loop
 * has the registers to itself. */
static WF_NOINLINE void diagonal_se(wf_run *r, uint32_t u, int x, int y,
                                    int64_t gu)
{
    diagonal_dir(r, u, x, y, gu, 1, 1);
}

static WF_NOINLINE void diagonal_ne(wf_run *r, uint32_t u, int x, int y,
                                    int64_t gu)
{
    diagonal_dir(r, u, x, y, gu, 1, -1);
}

static WF_NOINLINE void diagonal_sw(wf_run *r, uint32_t u, int x, int y,
                                    int64_t gu)
{
    diagonal_dir(r, u, x, y, gu, -1, 1);
}

static WF_NOINLINE void diagonal_nw(wf_run *r, uint32_t u, int x, int y,
                                    int64_t gu)
{
    diagonal_dir(r, u, x, y, gu, -1, -1);
}

static WF_ALWAYS_INLINE void diagonal(wf_run *r, uint32_t u, int x, int y,
                                     int64_t gu, int dx, int dy)
{
    if (dx > 0) {
        if (dy > 0)
            diagonal_se(r, u, x, y, gu);
        else
            diagonal_ne(r, u, x, y, gu);
    } else {
        if (dy > 0)
            diagonal_sw(r, u, x, y, gu);
        else
            diagonal_nw(r, u, x, y, gu);
    }
}

/* The successors of a node reached by a straight move along its row (dx)
 * or its column (dy): the move goes on, and each free side navcell whose
 * neighbour behind is blocked is forced: a straight jump towards it and a
 * diagonal one past it. Every step is skipped once the goal is settled. */
static WF_ALWAYS_INLINE void expand_h(wf_run *r, uint32_t u, int x, int y,
                                      int64_t gu, int dx)
{
    straight_h(r, u, x, y, gu, dx);
    for (int s = -1; s <= 1; s += 2)
        if (!r->settled && wf_run_pass(r, x, y + s)
            && !wf_run_pass(r, x - dx, y + s)) {
            straight_v(r, u, x, y, gu, s);
            if (!r->settled)
                diagonal(r, u, x, y, gu, dx, s);
        }
}

static WF_ALWAYS_INLINE void expand_v(wf_run *r, uint32_t u, int x, int y,
                                      int64_t gu, int dy)
{
    straight_v(r, u, x, y, gu, dy);
    for (int s = -1; s <= 1; s += 2)
        if (!r->settled && wf_run_pass(r, x + s, y)
            && !wf_run_pass(r, x + s, y - dy)) {
            straight_h(r, u, x, y, gu, s);
            if (!r->settled)
                diagonal(r, u, x, y, gu, s, dy);
        }
}

/* A node reached by a diagonal move: both straight jumps, then the
 * diagonal goes on (a diagonal move has no forced neighbours). */
static WF_ALWAYS_INLINE void expand_d(wf_run *r, uint32_t u, int x, int y,
                                      int64_t gu, int dx, int dy)
{
    straight_h(r, u, x, y, gu, dx);
    if (!r->settled)
        straight_v(r, u, x, y, gu, dy);
    if (!r->settled)
        diagonal(r, u, x, y, gu, dx, dy);
}

/* 1 when positions a to b (either order) of a line are all free. */
static int line_free(const uint64_t *line, int a, int b)
{
    return wf_line_first_blocked(line, a < b ? a : b, a < b ? b : a, 1) < 0;
}

/* 1 when the path JPS tries first from (x, y) to the point goal, the
 * diagonal towards it and then straight on, is free: it is then an
 * optimal path (its length is the heuristic). */
static int in_plain_sight(const wf_run *r, int x, int y)
{
    int gx = r->gx0, gy = r->gy0;
    int dx = gx > x ? 1 : -1, dy = gy > y ? 1 : -1;
    int nx = gx > x ? gx - x : x - gx, ny = gy > y ? gy - y : y - gy;
    ptrdiff_t rstep = dy > 0 ? (ptrdiff_t)r->words : -(ptrdiff_t)r->words;
    const uint64_t *row = row_of(r, y);
    for (int k = nx < ny ? nx : ny; k > 0; k--) {
        if (!diag_step_free(row, rstep, x, dx))
            return 0;
        row += rstep;
        x += dx;
        y += dy;
    }
    if (x != gx)
        return line_free(row, x + dx, gx);
    if (y != gy)
        return line_free(col_of(r, x), y + dy, gy);
    return 1;
}

/* The start: the goal at once when it is in plain sight, otherwise every
 * direction in A*'s neighbour order. */
static WF_NOINLINE void expand_start(wf_run *r, uint32_t u, int x, int y)
{
    static const signed char order[8][2] = {
        {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}
    };
    if (r->goal_node != UINT32_MAX && in_plain_sight(r, x, y)) {
        /* offered at the start's f, the goal is settled */
        int nx = r->gx0 - x, ny = r->gy0 - y;
        int ax = nx < 0 ? -nx : nx, ay = ny < 0 ? -ny : ny;
        int dx = (nx > 0) - (nx < 0), dy = (ny > 0) - (ny < 0);
        relax_at(r, r->gx0, r->gy0, u, wf_octile_h(r, x, y),
                 ax > ay ? DIR(dx, 0) : (ay > ax ? DIR(0, dy) : DIR(dx, dy)));
        return;
    }
    for (int k = 0; k < 8 && !r->settled; k++) {
        int dx = order[k][0], dy = order[k][1];
        if (dx && dy)
            diagonal(r, u, x, y, 0, dx, dy);
        else if (dx)
            straight_h(r, u, x, y, 0, dx);
        else
            straight_v(r, u, x, y, 0, dy);
    }
}

uint32_t wf_jps_loop(wf_run *r)
{
    r->goal_node = r->goal.type == WF_GOAL_POINT
                   ? (uint32_t)r->gy0 * (uint32_t)r->w + (uint32_t)r->gx0
                   : UINT32_MAX;
    uint32_t u;
    while (wf_open_take(r, &u)) {
        const wf_node *n = wf_jps_rec(r->s, u);
        int x = wf_node_x(n), y = wf_node_y(n);
        if (wf_run_in_goal(r, x, y))
            return u;
        int64_t gu = n->g;
        r->settled = 0;
        switch (n->hpos) {
        case DIR(1, 0): expand_h(r, u, x, y, gu, 1); break;
        case DIR(-1, 0): expand_h(r, u, x, y, gu, -1); break;
        case DIR(0, 1): expand_v(r, u, x, y, gu, 1); break;
        case DIR(0, -1): expand_v(r, u, x, y, gu, -1); break;
        case DIR(1, 1): expand_d(r, u, x, y, gu, 1, 1); break;
        case DIR(-1, 1): expand_d(r, u, x, y, gu, -1, 1); break;
        case DIR(1, -1): expand_d(r, u, x, y, gu, 1, -1); break;
        case DIR(-1, -1): expand_d(r, u, x, y, gu, -1, -1); break;
        default: expand_start(r, u, x, y); break;
        }
    }
    return UINT32_MAX;
}
