/* jplanes.c - the planes jump point search (jps.c) reads instead of
 * walking the grid. A search keeps them per class (s->jp), for the grid
 * and version it last searched, and brings them up to date with the grid
 * when it searches again (wf_jplanes_bind).
 *
 * Jump masks (jmask), four planes shaped like the passability plane: bit
 * x + 1 of row y of the east plane is 1 when a straight scan east from
 * (x, y) ends at a jump point (a free navcell with a forced neighbour, see
 * jps.c), 0 when it ends at a blocked navcell; the west, south and north
 * planes likewise. A scan's stops are the blocked navcells and the forced
 * ones, and the mask is the kind (free or blocked) of the nearest stop
 * past each position.
 *
 * Diagonal stops (jstop), four planes, one per diagonal direction
 * (dx, dy): navcell c is a stop of the diagonal when a diagonal step in
 * that direction cannot enter it (c or one of the two navcells beside the
 * step blocked, or c - (dx, dy) itself) or when the straight scan from c
 * along dx or along dy ends at a jump point. From any navcell, a diagonal
 * jump moves freely up to the first stop and no further: there it either
 * ends (a dead end) or its straight scans find something.
 *
 * The same stops laid out along the diagonals (dstop): the line of (x, y)
 * holds the navcells of its diagonal, bit y + 1 for row y, so that a
 * diagonal jump finds its first stop by reading 64 navcells a word, as the
 * straight scans do (diag_line gives the line; every bit that is not a
 * navcell of the grid is a stop).
 *
 * Updates. The masks of a row depend on it and the rows beside it; those
 * of a column on it and the columns beside it; the stops of a navcell on
 * its masks and its 3 x 3 neighbourhood. When the grid's change log
 * (wf_grid_changed_since) gives the region changed since the planes' version,
 * the east and west masks of its rows and one more on each side are
 * recomputed, the south and north masks of its columns (one more on each
 * side, whole columns), and the stops of those rows and columns; the stops
 * that changed are flipped in the diagonal layout one by one. Otherwise
 * (another grid, a log that no longer reaches back, a region spanning much
 * of the grid) everything is recomputed and the diagonal layout rebuilt,
 * 64 x 64 navcells at a time by bit-matrix transposition. */

#include <stdlib.h>

#include "search_internal.h"

typedef struct wf_jplanes {
    const wf_grid *grid;        /* the grid (and its serial) and version */
    uint64_t serial, version;   /* the planes describe; grid NULL: none */
    int w, h, words, twords;    /* the grid's shape */
    size_t plane_words;         /* words per jmask / jstop plane */
    size_t dplane_words;        /* words per dstop plane: (w + h - 1) lines
                                   of twords words, bit y + 1 for row y */
    uint64_t *jmask;            /* 4 planes, interleaved word by word */
    uint64_t *jstop;            /* 4 planes, in wf_diag_dir order */
    uint64_t *dstop;            /* 4 planes, likewise */
} wf_jplanes;

/* The jump masks of a class are interleaved: word i of row y of the four
 * planes side by side (a diagonal stop needs two of them at once). */
static uint64_t *mask_word(const wf_jplanes *p, int plane, int y, int i)
{
    return p->jmask + 4 * ((size_t)(y + 1) * (size_t)p->words + (size_t)i)
           + (size_t)plane;
}

static uint64_t *stop_plane(const wf_jplanes *p, int d)
{
    return p->jstop + (size_t)d * p->plane_words;
}

static uint64_t *diag_plane(const wf_jplanes *p, int d)
{
    return p->dstop + (size_t)d * p->dplane_words;
}

/* The first word of the diagonal line through (x, y) in direction
 * (dx, dy). */
static size_t diag_line(const wf_jplanes *p, int x, int y, int dx, int dy)
{
    return (size_t)wf_diag_index(p->h, x, y, dx, dy) * (size_t)p->twords;
}

/* Word i of a row shifted so that bit b holds the row's bit b - 1 (s = 1)
 * or b + 1 (s = -1). */
static inline uint64_t shifted(const uint64_t *row, int words, int i, int s)
{
    if (s > 0)
        return row[i] << 1 | (i > 0 ? row[i - 1] >> 63 : 0);
    return row[i] >> 1 | (i + 1 < words ? row[i + 1] << 63 : 0);
}

/* ------------------------------------------------------ row masks -- */

/* Along a row, the masks of a whole line come from a few word operations
 * per word.
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
 * fwd[4 i] for scans towards higher positions, bwd[4 i] towards lower
 * ones. */
static void row_masks_line(const uint64_t *L, size_t stride, int n,
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
        bwd[4 * i] = jmask_word(st, g, ps, pg, &c);
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
        fwd[4 * i] = rev64(jmask_word(rs, rg, ps, pg, &c));
        ps = rs;
        pg = rg;
    }
}

/* ---------------------------------------------------- column masks -- */

/* Along a column, the kind of the nearest stop past each position is a
 * running value, kept for 64 columns at once in a word: from the far end
 * back, each row's stops replace it with their kind. The stops of a scan
 * going down (dy = 1) are blocked navcells and free ones whose side
 * neighbour is free with a blocked one above; going up (dy = -1), below.
 * Word column i of the south (dy = 1) or north mask, every row. */
static void column_mask(wf_jplanes *jp, const wf_grid *g,
                        const uint64_t *pass, int i, int dy)
{
    int words = g->words;
    uint64_t run = 0;                   /* past the end: blocked, kind 0 */
    int plane = dy > 0 ? WF_JM_SOUTH : WF_JM_NORTH;
    for (int n = 0, y = dy > 0 ? g->h - 1 : 0; n < g->h; n++, y -= dy) {
        *mask_word(jp, plane, y, i) = run;
        const uint64_t *p = pass + (size_t)(y + 1) * (size_t)words;
        const uint64_t *q = p - (ptrdiff_t)dy * words;  /* the row behind */
        uint64_t stop = ~p[i]
                        | (shifted(p, words, i, 1) & ~shifted(q, words, i, 1))
                        | (shifted(p, words, i, -1) & ~shifted(q, words, i, -1));
        run = (stop & p[i]) | (~stop & run);
    }
}

/* -------------------------------------------------------- stops -- */

/* Word i of row y of the stops of diagonal direction d, from the
 * passability and the masks; only the grid's navcells are meaningful. */
static uint64_t stop_word(const wf_jplanes *jp, const wf_grid *g, int k,
                          int d, int y, int i)
{
    int dx = wf_diag_dx(d), dy = wf_diag_dy(d);
    int words = g->words;
    size_t o = (size_t)(y + 1) * (size_t)words;
    const uint64_t *p = g->pass + (size_t)k * g->plane_words + o;
    const uint64_t *q = p - (ptrdiff_t)dy * words;      /* row y - dy */
    /* a step enters (x, y) when (x, y), (x - dx, y), (x, y - dy) and
     * (x - dx, y - dy) are free */
    uint64_t enter = p[i] & q[i] & shifted(p, words, i, dx)
                     & shifted(q, words, i, dx);
    uint64_t ev = *mask_word(jp, dx > 0 ? WF_JM_EAST : WF_JM_WEST, y, i)
                  | *mask_word(jp, dy > 0 ? WF_JM_SOUTH : WF_JM_NORTH, y, i);
    return ~enter | ev;
}

/* The bits of word i of a row that are navcells of the grid. */
static uint64_t cells_in_word(const wf_grid *g, int i)
{
    uint64_t m = ~(uint64_t)0;
    if (i == 0)
        m &= ~(uint64_t)1;                          /* x = -1 */
    unsigned end = (unsigned)g->w + 1;              /* bit of x = w */
    if ((unsigned)i * 64 + 64 > end)
        m &= (unsigned)i * 64 >= end ? 0 : ~(uint64_t)0 >> (64 - (end & 63));
    return m;
}

/* Recomputes word i of row y of the four stop planes and flips the bits
 * that changed in the diagonal layout (when `flip`). */
static void stop_update(wf_jplanes *p, const wf_grid *g, int k, int y, int i,
                        int flip)
{
    size_t o = (size_t)(y + 1) * (size_t)g->words + (size_t)i;
    uint64_t cells = cells_in_word(g, i);
    for (int d = 0; d < 4; d++) {
        uint64_t *w = stop_plane(p, d) + o;
        uint64_t nw = stop_word(p, g, k, d, y, i) & cells;
        uint64_t diff = (*w ^ nw) & cells;
        *w = nw;
        if (!flip)
            continue;
        int dx = wf_diag_dx(d), dy = wf_diag_dy(d);
        uint64_t *plane = diag_plane(p, d);
        unsigned yb = (unsigned)(y + 1);
        while (diff) {
            int x = i * 64 + wf_ctz64(diff) - 1;
            diff &= diff - 1;
            plane[diag_line(p, x, y, dx, dy) + (yb >> 6)] ^= (uint64_t)1 << (yb & 63);
        }
    }
}

/* ------------------------------------------------ diagonal layout -- */

/* Transposes a 64 x 64 bit matrix: bit c of a[r] goes to bit r of a[c]. */
static void transpose64(uint64_t a[64])
{
    uint64_t m = UINT64_C(0x00000000ffffffff);
    for (int j = 32; j != 0; j >>= 1, m ^= m << j)
        for (int r = 0; r < 64; r = ((r | j) + 1) & ~j) {
            uint64_t t = ((a[r] >> j) ^ a[r | j]) & m;
            a[r] ^= t << j;
            a[r | j] ^= t;
        }
}

/* Navcells x0 to x0 + 63 of a row of stops as the bits of a word, with a
 * stop wherever x is off the grid. */
static uint64_t stop_window(const wf_grid *g, const uint64_t *row, int x0)
{
    if (x0 >= g->w || x0 + 63 < 0)
        return ~(uint64_t)0;
    int b = x0 + 1;                                 /* bit of x0 */
    uint64_t v;
    if (b >= 0) {
        int i = b >> 6, s = b & 63;
        v = row[i] >> s;
        if (s && i + 1 < g->words)
            v |= row[i + 1] << (64 - s);
    } else {
        v = row[0] << -b;
    }
    if (x0 < 0)
        v |= ~(uint64_t)0 >> (64 + x0);
    if (g->w - x0 < 64)
        v |= ~(uint64_t)0 << (g->w - x0);
    return v;
}

/* Rebuilds class k's diagonal layout from its stop planes: for each block
 * of 64 lines and 64 rows, the 64 windows of the rows that hold those
 * lines' navcells, transposed. */
static void diag_rebuild(wf_jplanes *p, const wf_grid *g)
{
    int lines = g->w + g->h - 1;
    uint64_t a[64];
    for (int d = 0; d < 4; d++) {
        int dx = wf_diag_dx(d), dy = wf_diag_dy(d);
        const uint64_t *stops = stop_plane(p, d);
        uint64_t *plane = diag_plane(p, d);
        for (int l0 = 0; l0 < lines; l0 += 64)
            for (int j = 0; j < g->twords; j++) {
                /* word j of a line holds rows 64 j - 1 to 64 j + 62 */
                for (int r = 0; r < 64; r++) {
                    int y = 64 * j - 1 + r;
                    if (y < 0 || y >= g->h) {
                        a[r] = ~(uint64_t)0;
                        continue;
                    }
                    /* line l holds x = l + y - (h - 1) or x = l - y */
                    int x0 = dx == dy ? l0 + y - (g->h - 1) : l0 - y;
                    a[r] = stop_window(g, stops + (size_t)(y + 1) * (size_t)g->words, x0);
                }
                transpose64(a);
                for (int c = 0; c < 64 && l0 + c < lines; c++)
                    plane[(size_t)(l0 + c) * (size_t)g->twords + (size_t)j] = a[c];
            }
    }
}

/* ---------------------------------------------------------- update -- */

static void update(wf_jplanes *p, const wf_grid *g, int k, int x0, int y0,
                   int x1, int y1)
{
    int ya = y0 > 0 ? y0 - 1 : 0, yb = y1 < g->h - 1 ? y1 + 1 : g->h - 1;
    int xa = x0 > 0 ? x0 - 1 : 0, xb = x1 < g->w - 1 ? x1 + 1 : g->w - 1;
    int i0 = (xa + 1) >> 6, i1 = (xb + 1) >> 6;     /* word columns */
    const uint64_t *pass = g->pass + (size_t)k * g->plane_words;
    for (int y = ya; y <= yb; y++) {
        size_t o = (size_t)(y + 1) * (size_t)g->words;
        row_masks_line(pass + o, (size_t)g->words, g->words,
                       mask_word(p, WF_JM_EAST, y, 0),
                       mask_word(p, WF_JM_WEST, y, 0));
    }
    for (int i = i0; i <= i1; i++) {
        column_mask(p, g, pass, i, 1);
        column_mask(p, g, pass, i, -1);
    }
    /* flipping the stops that changed costs a little per stop; when the
     * words recomputed are half the grid's or more (a rebuild, a large
     * edit, a small grid), so many may have changed that transposing the
     * whole layout again is cheaper */
    size_t touched = (size_t)(yb - ya + 1) * (size_t)g->words
                     + (size_t)(i1 - i0 + 1) * (size_t)g->h;
    int flip = touched * 2 < (size_t)g->h * (size_t)g->words;
    for (int y = ya; y <= yb; y++)
        for (int i = 0; i < g->words; i++)
            stop_update(p, g, k, y, i, flip);
    for (int y = 0; y < g->h; y++) {
        if (y >= ya && y <= yb)
            continue;
        for (int i = i0; i <= i1; i++)
            stop_update(p, g, k, y, i, flip);
    }
    if (!flip)
        diag_rebuild(p, g);
}

/* ------------------------------------------------------------ binding -- */

void wf_jplanes_free(wf_jplanes *p)
{
    if (!p)
        return;
    free(p->jmask);
    free(p->jstop);
    free(p->dstop);
    free(p);
}

size_t wf_jplanes_memory(const wf_jplanes *p)
{
    if (!p)
        return 0;
    return sizeof *p
           + (8 * p->plane_words + 4 * p->dplane_words) * sizeof(uint64_t);
}

/* Empty planes for grids of g's shape, or NULL. */
static wf_jplanes *jplanes_new(const wf_grid *g)
{
    wf_jplanes *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->w = g->w;
    p->h = g->h;
    p->words = g->words;
    p->twords = g->twords;
    p->plane_words = g->plane_words;
    p->dplane_words = (size_t)(g->w + g->h - 1) * (size_t)g->twords;
    p->jmask = calloc(4 * p->plane_words, sizeof(uint64_t));
    p->jstop = calloc(4 * p->plane_words, sizeof(uint64_t));
    p->dstop = calloc(4 * p->dplane_words, sizeof(uint64_t));
    if (!p->jmask || !p->jstop || !p->dstop) {
        wf_jplanes_free(p);
        return NULL;
    }
    return p;
}

wf_status wf_jplanes_bind(wf_search *s, const wf_grid *g, int cls, wf_run *r)
{
    wf_jplanes *p = s->jp[cls];
    if (p && (p->w != g->w || p->h != g->h)) {
        wf_jplanes_free(p);
        p = s->jp[cls] = NULL;
    }
    if (!p) {
        p = s->jp[cls] = jplanes_new(g);
        if (!p)
            return WF_ERR_NOMEM;
    }
    if (p->grid != g || p->serial != g->serial) {
        update(p, g, cls, 0, 0, g->w - 1, g->h - 1);
    } else if (p->version != g->version) {
        int x0, y0, x1, y1;
        switch (wf_grid_changed_since(g, p->version, &x0, &y0, &x1, &y1)) {
        case 1:
            update(p, g, cls, x0, y0, x1, y1);
            break;
        case 2:                 /* the log no longer reaches back */
            update(p, g, cls, 0, 0, g->w - 1, g->h - 1);
            break;
        default:                /* costs changed, passability did not */
            break;
        }
    }
    p->grid = g;
    p->serial = g->serial;
    p->version = g->version;
    r->jmask = p->jmask;
    r->dstop = p->dstop;
    r->dplane_words = p->dplane_words;
    return WF_OK;
}
