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
 * The memo of diagonal events. Where a diagonal from a navcell first meets
 * something that does not depend on the goal (a dead end, or a step whose
 * straight scans find a jump point) is a property of the passability
 * alone, and the same diagonals are walked again and again (from the same
 * jump points by later queries, or entered mid-way by other walks). So the
 * search scratch keeps it: one byte per navcell and diagonal direction,
 * filled by the walk that first computes it, for the navcell it started
 * from and every navcell it passed. A diagonal then moves from event to
 * event by lookups; only the steps where its row or column crosses the
 * goal's box (the goal-dependent stops) are looked at one by one, as
 * before. Filled on demand and never ahead, it is pure memoization:
 * results are the same whatever it holds. The walks that fill it test one
 * bit per step in the jump masks of the rows and columns they cross
 * (whether a straight scan from a position ends at a jump point), computed
 * a whole line at a time when first needed. Memo and masks belong to one
 * grid, version and class (wf_jps_memo_bind): a grid edit costs nothing
 * here, and the next search that finds the key changed starts a new
 * generation, each block of 64 navcells of the memo being emptied when
 * first written in it, and every line's masks marked as not computed. */
#include <limits.h>
#include <string.h>

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
    int t = __builtin_ctzll(m);
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
    int t = 63 - __builtin_clzll(m);
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
    const wf_node *n = &r->s->nodes[u];
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
    wf_node *n = &s->nodes[v];
    if (m == s->mgen) {
        if (g >= n->g)
            return;
    } else {
        s->mark[v] = s->mgen;
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

/* ------------------------------------------------------------ memo -- */

/* The memo of diagonal events. From a free navcell c, a diagonal in
 * direction d meets, at its first step k >= 1 where something happens,
 * either a dead end (step k is impossible: blocked, or a corner would be
 * cut) or a jump (a straight scan from step k's navcell along d's row or
 * column, or both, ends at a free navcell: a jump point). That event
 * depends on the passability only, not on the goal, so it is kept, in one
 * byte: entry 4c + d is k << 2 | the scans that find a jump point (1 the
 * row's, 2 the column's; 0 a dead end), MEMO_FAR when the event lies
 * beyond step MEMO_MAX, 0 when unknown. A walk that computes it fills
 * every navcell it passes (their event is the same one, nearer), so a
 * later diagonal entering the same line mid-way finds its answer too. */
#define MEMO_DIR(dx, dy) (((dx) < 0) * 2 + ((dy) < 0))
#define MEMO_MAX 63
#define MEMO_FAR 1u     /* steps 1 to MEMO_MAX are possible and plain */

void wf_jps_memo_bind(wf_search *s, wf_run *r)
{
    const wf_grid *g = r->g;
    if (s->jgrid != g || s->jversion != g->version || s->jcls != r->cls
        || s->jfp != g->fp[r->cls] || s->jw != g->w || s->jh != g->h
        || s->jgen == 0) {
        /* a new generation empties every block at once; on wrap-around,
         * forget every block's generation first */
        if (s->jgen == UINT32_MAX) {
            memset(s->jblk, 0, (s->ncells + 63) / 64 * sizeof *s->jblk);
            s->jgen = 0;
        }
        s->jgen++;
        /* the jump masks of every line are forgotten too */
        memset(s->jrow_ok, 0, ((size_t)g->h + 2 + 63) / 64 * sizeof *s->jrow_ok);
        memset(s->jcol_ok, 0, ((size_t)g->w + 2 + 63) / 64 * sizeof *s->jcol_ok);
        s->jgrid = g;
        s->jversion = g->version;
        s->jcls = r->cls;
        s->jfp = g->fp[r->cls];
        s->jw = g->w;
        s->jh = g->h;
    }
    r->memo = s->jmemo;
    r->mblk = s->jblk;
    r->mgen = s->jgen;
    r->jrow = s->jrow;
    r->jcol = s->jcol;
    r->jrow_ok = s->jrow_ok;
    r->jcol_ok = s->jcol_ok;
    r->jrow_plane = g->plane_words;
    r->jcol_plane = g->tplane_words;
}

static WF_ALWAYS_INLINE unsigned memo_get(const wf_run *r, uint32_t c, int d)
{
    if (r->mblk[c >> 6] != r->mgen)
        return 0;
    return r->memo[4 * (size_t)c + (size_t)d];
}

static WF_ALWAYS_INLINE void memo_put(wf_run *r, uint32_t c, int d, unsigned v)
{
    uint32_t b = c >> 6;
    if (r->mblk[b] != r->mgen) {
        /* first entry of the block in this generation: the block's other
         * entries are from an older one */
        memset(r->memo + (size_t)b * 256, 0, 256);
        r->mblk[b] = r->mgen;
    }
    r->memo[4 * (size_t)c + (size_t)d] = (uint8_t)v;
}

/* Jump masks. For a whole row, whether a straight scan east from each
 * position ends at a jump point (a free stop) is a few word operations
 * away: bit b of the mask is the kind of the nearest stop above b. The
 * diagonal walks below test one bit per step in the masks of the rows and
 * columns they cross, instead of scanning them; a line's masks (both
 * directions) are computed the first time a walk crosses it, and kept
 * with the memo.
 *
 * The backward case, as words are read upwards: with S the stops and G the
 * free ones, D = S << 1 marks the positions just above a stop, T = G << 1
 * those above a free one, and bit b must get the kind of the nearest D bit
 * at or below b. In R = ~(D & ~T), the runs of ones start at a D bit of
 * either kind and end below the next D bit of kind 0. Adding T to R makes
 * the carry out of each T bit run up to the end of its run: the bits that
 * change, kept inside R, plus T itself (where carries meet) are the
 * answer, and the carry out of a word carries a run into the next one.
 * The forward case is the same on the bit-reversed line. */
static inline uint64_t rev64(uint64_t v)
{
    v = ((v >> 1) & UINT64_C(0x5555555555555555))
        | ((v & UINT64_C(0x5555555555555555)) << 1);
    v = ((v >> 2) & UINT64_C(0x3333333333333333))
        | ((v & UINT64_C(0x3333333333333333)) << 2);
    v = ((v >> 4) & UINT64_C(0x0f0f0f0f0f0f0f0f))
        | ((v & UINT64_C(0x0f0f0f0f0f0f0f0f)) << 4);
    v = ((v >> 8) & UINT64_C(0x00ff00ff00ff00ff))
        | ((v & UINT64_C(0x00ff00ff00ff00ff)) << 8);
    v = ((v >> 16) & UINT64_C(0x0000ffff0000ffff))
        | ((v & UINT64_C(0x0000ffff0000ffff)) << 16);
    return (v >> 32) | (v << 32);
}

/* One word of the running computation: s and g the word's stops and free
 * stops, ps and pg those of the word read before (their top bits), c the
 * carry; returns the mask word. */
static inline uint64_t jmask_word(uint64_t s, uint64_t g, uint64_t ps,
                                  uint64_t pg, uint64_t *c)
{
    uint64_t d = s << 1 | ps >> 63, t = g << 1 | pg >> 63;
    uint64_t run = ~(d & ~t);
    uint64_t sum = run + t, c1 = sum < run;
    uint64_t sum2 = sum + *c, c2 = sum2 < sum;
    *c = c1 | c2;
    return ((sum2 ^ run) & run) | t;
}

/* The masks of line L (n words, neighbours L - stride and L + stride):
 * fwd[i] for scans towards higher positions, bwd[i] towards lower ones. */
static WF_NOINLINE void jmask_line(const uint64_t *L, size_t stride, int n,
                                   uint64_t *fwd, uint64_t *bwd)
{
    const uint64_t *U = L - stride, *D = L + stride;
    /* backward: stops are blocked positions and free positions of U or D
     * whose next position up is blocked; read upwards */
    uint64_t ps = 0, pg = 0, c = 0;
    for (int i = 0; i < n; i++) {
        uint64_t u = U[i], d = D[i];
        uint64_t u1 = i + 1 < n ? U[i + 1] << 63 : 0;
        uint64_t d1 = i + 1 < n ? D[i + 1] << 63 : 0;
        uint64_t st = ~L[i] | (u & ~(u >> 1 | u1)) | (d & ~(d >> 1 | d1));
        uint64_t g = st & L[i];
        bwd[i] = jmask_word(st, g, ps, pg, &c);
        ps = st;
        pg = g;
    }
    /* forward: free positions whose next position down is blocked; read
     * downwards, bit-reversed */
    ps = pg = c = 0;
    for (int i = n - 1; i >= 0; i--) {
        uint64_t u = U[i], d = D[i];
        uint64_t u0 = i > 0 ? U[i - 1] >> 63 : 0;
        uint64_t d0 = i > 0 ? D[i - 1] >> 63 : 0;
        uint64_t st = ~L[i] | (u & ~(u << 1 | u0)) | (d & ~(d << 1 | d0));
        uint64_t rs = rev64(st), rg = rev64(st & L[i]);
        fwd[i] = rev64(jmask_word(rs, rg, ps, pg, &c));
        ps = rs;
        pg = rg;
    }
}

static WF_NOINLINE void jmask_row(wf_run *r, int y)
{
    size_t off = (size_t)(y + 1) * (size_t)r->words;
    jmask_line(row_of(r, y), (size_t)r->words, r->words, r->jrow + off,
               r->jrow + r->jrow_plane + off);
    r->jrow_ok[(unsigned)(y + 1) >> 6] |= (uint64_t)1 << ((unsigned)(y + 1) & 63);
}

static WF_NOINLINE void jmask_col(wf_run *r, int x)
{
    size_t off = (size_t)(x + 1) * (size_t)r->twords;
    jmask_line(col_of(r, x), (size_t)r->twords, r->twords, r->jcol + off,
               r->jcol + r->jcol_plane + off);
    r->jcol_ok[(unsigned)(x + 1) >> 6] |= (uint64_t)1 << ((unsigned)(x + 1) & 63);
}

/* Walks the diagonal from (x, y) to its event and records it for (x, y)
 * and every navcell passed; returns the entry of (x, y), and in *ex, *ey
 * where the event's scans end (for the scans that find a jump point). A
 * step reads three passability bits and one bit of the jump masks of its
 * row and of its column. */
static WF_ALWAYS_INLINE unsigned memo_walk(wf_run *r, int x, int y, int dx,
                                           int dy, int *ex, int *ey)
{
    ptrdiff_t rstep = dy > 0 ? (ptrdiff_t)r->words : -(ptrdiff_t)r->words;
    ptrdiff_t cstep = dx > 0 ? (ptrdiff_t)r->twords : -(ptrdiff_t)r->twords;
    const uint64_t *prow = row_of(r, y);
    /* the masks for scans along dx (rows) and along dy (columns) */
    const uint64_t *jr = r->jrow + (dx > 0 ? 0 : r->jrow_plane)
                         + (size_t)(y + 1) * (size_t)r->words;
    const uint64_t *jc = r->jcol + (dy > 0 ? 0 : r->jcol_plane)
                         + (size_t)(x + 1) * (size_t)r->twords;
    unsigned xb = (unsigned)(x + 1), yb = (unsigned)(y + 1);  /* bits */
    int k = 0;
    unsigned kind = 0;
    for (;;) {
        k++;
        const uint64_t *row = prow + rstep;
        unsigned xn = xb + (unsigned)dx;
        /* (x + dx, y), (x + dx, y + dy) and (x, y + dy) free */
        if (!((prow[xn >> 6] >> (xn & 63)) & (row[xn >> 6] >> (xn & 63))
              & (row[xb >> 6] >> (xb & 63)) & 1u))
            break;                      /* dead end at step k */
        prow = row;
        xb = xn;
        yb += (unsigned)dy;
        jr += rstep;
        jc += cstep;
        if (!((r->jrow_ok[yb >> 6] >> (yb & 63)) & 1u))
            jmask_row(r, (int)yb - 1);
        if (!((r->jcol_ok[xb >> 6] >> (xb & 63)) & 1u))
            jmask_col(r, (int)xb - 1);
        unsigned kr = (unsigned)(jr[xb >> 6] >> (xb & 63)) & 1u;
        unsigned kc = (unsigned)(jc[yb >> 6] >> (yb & 63)) & 1u;
        if (kr | kc) {
            /* where those scans end */
            int b, px = (int)xb - 1, py = (int)yb - 1;
            kind = kr | kc << 1;
            if (kr)
                *ex = dx > 0 ? scan_fwd(row, row - r->words, row + r->words, px, &b)
                             : scan_bwd(row, row - r->words, row + r->words, px, &b);
            if (kc) {
                const uint64_t *col = col_of(r, px);
                *ey = dy > 0 ? scan_fwd(col, col - r->twords, col + r->twords, py, &b)
                             : scan_bwd(col, col - r->twords, col + r->twords, py, &b);
            }
            break;
        }
    }
    int d = MEMO_DIR(dx, dy);
    uint32_t c = (uint32_t)y * (uint32_t)r->w + (uint32_t)x;
    uint32_t step = (uint32_t)(dy * r->w + dx);
    for (int j = 0; j < k; j++, c += step)
        memo_put(r, c, d, k - j > MEMO_MAX ? MEMO_FAR
                                           : (unsigned)(k - j) << 2 | kind);
    return k > MEMO_MAX ? MEMO_FAR : (unsigned)k << 2 | kind;
}

static WF_NOINLINE unsigned memo_walk_se(wf_run *r, int x, int y, int *ex,
                                         int *ey)
{
    return memo_walk(r, x, y, 1, 1, ex, ey);
}

static WF_NOINLINE unsigned memo_walk_ne(wf_run *r, int x, int y, int *ex,
                                         int *ey)
{
    return memo_walk(r, x, y, 1, -1, ex, ey);
}

static WF_NOINLINE unsigned memo_walk_sw(wf_run *r, int x, int y, int *ex,
                                         int *ey)
{
    return memo_walk(r, x, y, -1, 1, ex, ey);
}

static WF_NOINLINE unsigned memo_walk_nw(wf_run *r, int x, int y, int *ex,
                                         int *ey)
{
    return memo_walk(r, x, y, -1, -1, ex, ey);
}

/* The event of the diagonal from (x, y), navcell c: from the memo, or
 * walked to, and then *ex, *ey are set as by memo_walk and *walked to 1. */
static WF_ALWAYS_INLINE unsigned diag_event(wf_run *r, uint32_t c, int x,
                                            int y, int dx, int dy, int *ex,
                                            int *ey, int *walked)
{
    if (!r->memo)
        wf_jps_memo_bind(r->s, r);      /* first use in this slice */
    unsigned e = memo_get(r, c, MEMO_DIR(dx, dy));
    if (e)
        return e;
    *walked = 1;
    if (dx > 0)
        return dy > 0 ? memo_walk_se(r, x, y, ex, ey)
                      : memo_walk_ne(r, x, y, ex, ey);
    return dy > 0 ? memo_walk_sw(r, x, y, ex, ey)
                  : memo_walk_nw(r, x, y, ex, ey);
}

/* Diagonal jump from node u at (x, y) with cost gu. The jump stops at the
 * first navcell d that is in the goal or from which a straight jump finds a
 * jump point, and opens d. While the diagonal still heads for the goal on
 * both axes, d would have u's f and be expanded next anyway, so it is
 * pruned instead: its straight jumps' ends are offered at once with u as
 * their parent (the path bends at d: diagonal first, then straight), and
 * the diagonal goes on. It moves from one event of the memo to the next,
 * and stops on its way at every step where its row or its column crosses
 * the goal's box. */
static WF_ALWAYS_INLINE void diagonal_dir(wf_run *r, uint32_t u, int x,
                                          int y, int64_t gu, int dx, int dy)
{
    ptrdiff_t rstep = dy > 0 ? (ptrdiff_t)r->words : -(ptrdiff_t)r->words;
    const uint64_t *row = row_of(r, y);
    /* many diagonals cannot take a single step: test that first */
    if (!wf_bit(row, x + dx) || !wf_bit(row + rstep, x)
        || !wf_bit(row + rstep, x + dx))
        return;
    int prune = steps_toward_goal(r, x, y, dx, dy);
    /* the steps at which the column or the row crosses the goal box */
    int cx0, cx1, ry0, ry1;
    band_steps(x, dx, r->gx0, r->gx1, &cx0, &cx1);
    band_steps(y, dy, r->gy0, r->gy1, &ry0, &ry1);
    uint32_t c = (uint32_t)y * (uint32_t)r->w + (uint32_t)x;
    uint32_t cstep = (uint32_t)(dy * r->w + dx);
    int k = 0;
    for (;;) {
        int nx = band_next(k, cx0, cx1), ny = band_next(k, ry0, ry1);
        int band = nx < ny ? nx : ny;               /* next band step */
        int ex = NONE, ey = NONE, walked = 0;
        unsigned e = diag_event(r, c, x, y, dx, dy, &ex, &ey, &walked);
        int ek = k + (e == MEMO_FAR ? MEMO_MAX : (int)(e >> 2));
        int jx, jy;
        if (ek < band) {
            if (!(e & 3))
                return;                             /* dead end */
            int n = ek - k;
            x += dx * n;
            y += dy * n;
            c += cstep * (uint32_t)n;
            k = ek;
            if (e == MEMO_FAR)
                continue;
            /* neither line crosses the goal box: the scans the memo says
             * find a jump point (the walk, when there was one, has just
             * made them) */
            jx = !(e & 1) ? NONE : walked ? ex : jump_h(r, x, y, dx);
            jy = !(e & 2) ? NONE : walked ? ey : jump_v(r, x, y, dy);
        } else {
            if (!(e & 3) && ek <= band)
                return;                             /* dead before it */
            int n = band - k;
            x += dx * n;
            y += dy * n;
            c += cstep * (uint32_t)n;
            k = band;
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
    unsigned lo = (unsigned)(a < b ? a : b) + 1, hi = (unsigned)(a < b ? b : a) + 1;
    for (unsigned i = lo >> 6; i <= hi >> 6; i++) {
        uint64_t m = ~(uint64_t)0;
        if (i == lo >> 6)
            m &= ~(uint64_t)0 << (lo & 63);
        if (i == hi >> 6)
            m &= ~(uint64_t)0 >> (63 - (hi & 63));
        if ((line[i] & m) != m)
            return 0;
    }
    return 1;
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
        if (!wf_bit(row, x + dx) || !wf_bit(row + rstep, x)
            || !wf_bit(row + rstep, x + dx))
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
        const wf_node *n = &r->s->nodes[u];
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
