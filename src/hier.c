/* hier.c - hierarchical reachability. Each chunk of chunk x chunk navcells
 * is labelled into regions per class (orthogonal adjacency: under the
 * no-corner-cutting rule a diagonal step never connects what orthogonal
 * steps do not), regions are linked across chunk borders into components,
 * and grid edits relabel only the chunks they touch. Also the "nearest
 * passable" and "nearest reachable" navcell queries built on the labels. */
#include <stdlib.h>
#include <string.h>

#include "grid_internal.h"

/* Per class: labels and the region graph. */
typedef struct hclass {
    uint16_t *label;      /* per navcell, row-major: 0 blocked, else the
                             1-based region within its chunk */
    uint16_t *nreg;       /* per chunk: regions */
    uint16_t *link;       /* per chunk: east then south border links, each
                             up to `chunk` (a, b) label pairs */
    uint16_t *nlink;      /* per chunk: 2 counts */
    uint32_t *off;        /* per chunk + 1: first global region index */
    uint32_t *comp;       /* per global region: lowest region of its component */
    uint32_t *uf;         /* union-find parents during the global pass */
    size_t rcap;
    uint32_t nregions, ncomponents;
    int stale;            /* components not computed for the current labels */
} hclass;

struct wf_hier {
    int w, h, nclasses, chunk, cw, ch, nchunks;
    uint64_t version;     /* grid version the labels reflect */
    unsigned seen;        /* grid change-log count at the last sync */
    int stale;            /* relabel everything at the next sync */
    hclass cls[WF_MAX_CLASSES];
    uint8_t *dirty;       /* per chunk */
    int32_t *dlist;
    int ndirty;
    /* labelling scratch: one chunk's runs and provisional labels */
    int32_t *ra, *rb;     /* run columns [a, b] */
    uint16_t *rl;         /* run provisional label */
    int32_t *rowstart;    /* first run of each chunk row, plus one */
    uint16_t *par;        /* provisional label union-find */
    uint16_t *fin;        /* provisional -> final label */
    size_t maxruns;
    /* the region counts and border links of the chunks a sync rewrites, as
     * they were: when they come out the same, components cannot change */
    uint16_t *snap;
    size_t snap_cap;
    int32_t *alist;       /* those chunks */
};

/* ------------------------------------------------------------ helpers -- */

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

static int floor_fix(int64_t v)
{
    return (int)(v >= 0 ? v / WF_FIX_ONE
                        : -((-v + WF_FIX_ONE - 1) / WF_FIX_ONE));
}

/* First column >= x (and <= end) whose bit equals want, or end + 1. */
static int scan_bits(const uint64_t *row, int x, int end, int want)
{
    while (x <= end) {
        unsigned b = (unsigned)(x + 1);
        uint64_t word = row[b >> 6];
        if (!want)
            word = ~word;
        word >>= (b & 63);
        if (word) {
            int t = x + wf_ctz64(word);
            return t <= end ? t : end + 1;
        }
        x += 64 - (int)(b & 63);
    }
    return end + 1;
}

static uint16_t uf16_find(uint16_t *p, uint16_t a)
{
    while (p[a] != a) {
        p[a] = p[p[a]];
        a = p[a];
    }
    return a;
}

static uint32_t uf32_find(uint32_t *p, uint32_t a)
{
    while (p[a] != a) {
        p[a] = p[p[a]];
        a = p[a];
    }
    return a;
}

static void chunk_box(const wf_hier *h, int c, int *x0, int *y0, int *x1,
                      int *y1)
{
    *x0 = (c % h->cw) * h->chunk;
    *y0 = (c / h->cw) * h->chunk;
    *x1 = imin(*x0 + h->chunk, h->w) - 1;
    *y1 = imin(*y0 + h->chunk, h->h) - 1;
}

/* ----------------------------------------------------------- lifetime -- */

static void free_class(hclass *hc)
{
    free(hc->label);
    free(hc->nreg);
    free(hc->link);
    free(hc->nlink);
    free(hc->off);
    free(hc->comp);
    free(hc->uf);
    memset(hc, 0, sizeof *hc);
}

void wf_hier_destroy(wf_hier *h)
{
    if (!h)
        return;
    for (int k = 0; k < h->nclasses; k++)
        free_class(&h->cls[k]);
    free(h->dirty);
    free(h->dlist);
    free(h->ra);
    free(h->rb);
    free(h->rl);
    free(h->rowstart);
    free(h->par);
    free(h->fin);
    free(h->snap);
    free(h->alist);
    free(h);
}

wf_status wf_hier_create(wf_hier **out, const wf_grid *g, int chunk)
{
    *out = NULL;
    if (chunk < WF_HIER_CHUNK_MIN || chunk > WF_HIER_CHUNK_MAX)
        return WF_ERR_ARG;
    wf_hier *h = calloc(1, sizeof *h);
    if (!h)
        return WF_ERR_NOMEM;
    h->w = g->w;
    h->h = g->h;
    h->nclasses = g->nclasses;
    h->chunk = chunk;
    h->cw = (g->w + chunk - 1) / chunk;
    h->ch = (g->h + chunk - 1) / chunk;
    h->nchunks = h->cw * h->ch;
    size_t ncells = (size_t)g->w * (size_t)g->h;
    size_t nch = (size_t)h->nchunks;
    int ok = 1;
    for (int k = 0; k < h->nclasses && ok; k++) {
        hclass *hc = &h->cls[k];
        hc->label = malloc(ncells * sizeof *hc->label);
        hc->nreg = calloc(nch, sizeof *hc->nreg);
        hc->link = malloc(nch * 4 * (size_t)chunk * sizeof *hc->link);
        hc->nlink = calloc(nch * 2, sizeof *hc->nlink);
        hc->off = calloc(nch + 1, sizeof *hc->off);
        ok = hc->label && hc->nreg && hc->link && hc->nlink && hc->off;
    }
    /* a chunk row of width c holds at most ceil(c / 2) runs */
    h->maxruns = (size_t)chunk * (size_t)((chunk + 1) / 2);
    h->dirty = calloc(nch, 1);
    h->dlist = malloc(nch * sizeof *h->dlist);
    h->alist = malloc(nch * sizeof *h->alist);
    h->ra = malloc(h->maxruns * sizeof *h->ra);
    h->rb = malloc(h->maxruns * sizeof *h->rb);
    h->rl = malloc(h->maxruns * sizeof *h->rl);
    h->rowstart = malloc((size_t)(chunk + 1) * sizeof *h->rowstart);
    h->par = malloc((h->maxruns + 1) * sizeof *h->par);
    h->fin = malloc((h->maxruns + 1) * sizeof *h->fin);
    if (!ok || !h->dirty || !h->dlist || !h->alist || !h->ra || !h->rb || !h->rl
        || !h->rowstart || !h->par || !h->fin) {
        wf_hier_destroy(h);
        return WF_ERR_NOMEM;
    }
    wf_status st = wf_hier_relabel(h, g);
    if (st != WF_OK) {
        wf_hier_destroy(h);
        return st;
    }
    *out = h;
    return WF_OK;
}

int wf_hier_chunk(const wf_hier *h) { return h->chunk; }

size_t wf_hier_memory(const wf_hier *h)
{
    size_t ncells = (size_t)h->w * (size_t)h->h, nch = (size_t)h->nchunks;
    size_t m = sizeof *h + nch * (1 + sizeof(int32_t))
               + h->maxruns * (2 * sizeof(int32_t) + sizeof(uint16_t))
               + (size_t)(h->chunk + 1) * sizeof(int32_t)
               + 2 * (h->maxruns + 1) * sizeof(uint16_t);
    for (int k = 0; k < h->nclasses; k++) {
        const hclass *hc = &h->cls[k];
        m += ncells * sizeof(uint16_t);
        m += nch * (sizeof(uint16_t) * (1 + 4 * (size_t)h->chunk + 2)
                    + sizeof(uint32_t));
        m += sizeof(uint32_t) + hc->rcap * 2 * sizeof(uint32_t);
    }
    return m;
}

/* ---------------------------------------------------------- labelling -- */

/* Labels chunk c of class k from the passability plane: runs of passable
 * navcells per row, joined to the overlapping runs of the row above; final
 * labels number the regions in the order of their first navcell (row-major),
 * so a chunk's labels depend only on its own navcells. */
static void label_chunk(wf_hier *h, const wf_grid *g, int k, int c)
{
    hclass *hc = &h->cls[k];
    int x0, y0, x1, y1;
    chunk_box(h, c, &x0, &y0, &x1, &y1);
    int nrows = y1 - y0 + 1;
    size_t nr = 0;
    uint16_t next = 0;
    for (int j = 0; j < nrows; j++) {
        int y = y0 + j;
        const uint64_t *row = wf_plane_row(g, g->pass, k, y);
        h->rowstart[j] = (int32_t)nr;
        size_t p = j > 0 ? (size_t)h->rowstart[j - 1] : 0;
        size_t pend = nr;              /* runs of the row above: [p, pend) */
        int x = x0;
        for (;;) {
            int a = scan_bits(row, x, x1, 1);
            if (a > x1)
                break;
            int b = scan_bits(row, a, x1, 0) - 1;
            uint16_t lab = 0;
            while (p < pend && h->rb[p] < a)
                p++;
            for (size_t q = p; q < pend && h->ra[q] <= b; q++) {
                uint16_t r = uf16_find(h->par, h->rl[q]);
                if (!lab) {
                    lab = r;
                } else if (r != lab) {
                    if (r < lab) {
                        h->par[lab] = r;
                        lab = r;
                    } else {
                        h->par[r] = lab;
                    }
                }
            }
            if (!lab) {
                lab = ++next;
                h->par[lab] = lab;
            }
            h->ra[nr] = a;
            h->rb[nr] = b;
            h->rl[nr] = lab;
            nr++;
            x = b + 2;
        }
    }
    h->rowstart[nrows] = (int32_t)nr;
    /* roots are the smallest provisional label of each region, created at
     * its first run: numbering roots in order numbers regions in order */
    uint16_t nf = 0;
    for (uint16_t p = 1; p <= next; p++) {
        uint16_t r = uf16_find(h->par, p);
        h->fin[p] = r == p ? ++nf : h->fin[r];
    }
    hc->nreg[c] = nf;
    for (int j = 0; j < nrows; j++) {
        uint16_t *lrow = hc->label + (size_t)(y0 + j) * (size_t)h->w;
        memset(lrow + x0, 0, (size_t)(x1 - x0 + 1) * sizeof *lrow);
        for (int32_t q = h->rowstart[j]; q < h->rowstart[j + 1]; q++) {
            uint16_t f = h->fin[h->rl[q]];
            for (int x = h->ra[q]; x <= h->rb[q]; x++)
                lrow[x] = f;
        }
    }
}

/* Border links of chunk c: with its east neighbour (dir 0) and its south
 * neighbour (dir 1); consecutive duplicates are dropped. */
static void link_chunk(wf_hier *h, int k, int c)
{
    hclass *hc = &h->cls[k];
    int x0, y0, x1, y1;
    chunk_box(h, c, &x0, &y0, &x1, &y1);
    size_t w = (size_t)h->w;
    for (int dir = 0; dir < 2; dir++) {
        uint16_t *lk = hc->link + ((size_t)c * 2 + (size_t)dir) * 2 * (size_t)h->chunk;
        int n = 0;
        int has = dir == 0 ? x1 + 1 < h->w : y1 + 1 < h->h;
        if (has) {
            int len = dir == 0 ? y1 - y0 + 1 : x1 - x0 + 1;
            uint16_t la = 0, lb = 0;
            for (int t = 0; t < len; t++) {
                size_t i = dir == 0 ? (size_t)(y0 + t) * w + (size_t)x1
                                    : (size_t)y1 * w + (size_t)(x0 + t);
                uint16_t a = hc->label[i];
                uint16_t b = hc->label[dir == 0 ? i + 1 : i + w];
                if (!a || !b || (a == la && b == lb))
                    continue;
                la = a;
                lb = b;
                /* keep the list sorted and free of repeats (insertion) */
                int j = n;
                while (j > 0 && (lk[2 * j - 2] > a
                                 || (lk[2 * j - 2] == a && lk[2 * j - 1] > b)))
                    j--;
                if (j > 0 && lk[2 * j - 2] == a && lk[2 * j - 1] == b)
                    continue;
                memmove(lk + 2 * j + 2, lk + 2 * j,
                        (size_t)(n - j) * 2 * sizeof *lk);
                lk[2 * j] = a;
                lk[2 * j + 1] = b;
                n++;
            }
        }
        hc->nlink[(size_t)c * 2 + (size_t)dir] = (uint16_t)n;
    }
}

/* Numbers every region globally (chunk by chunk) and joins linked regions
 * into components; a component's id is its lowest region index, so it is
 * the same however the labels were reached. */
static wf_status link_components(wf_hier *h, int k)
{
    hclass *hc = &h->cls[k];
    hc->off[0] = 0;
    for (int c = 0; c < h->nchunks; c++)
        hc->off[c + 1] = hc->off[c] + hc->nreg[c];
    uint32_t R = hc->off[h->nchunks];
    if (R > hc->rcap) {
        size_t cap = hc->rcap ? hc->rcap : 256;
        while (cap < R)
            cap *= 2;
        uint32_t *comp = realloc(hc->comp, cap * sizeof *comp);
        if (!comp)
            return WF_ERR_NOMEM;
        hc->comp = comp;
        uint32_t *uf = realloc(hc->uf, cap * sizeof *uf);
        if (!uf)
            return WF_ERR_NOMEM;
        hc->uf = uf;
        hc->rcap = cap;
    }
    uint32_t *uf = hc->uf;
    for (uint32_t r = 0; r < R; r++)
        uf[r] = r;
    for (int c = 0; c < h->nchunks; c++) {
        for (int dir = 0; dir < 2; dir++) {
            int n = hc->nlink[(size_t)c * 2 + (size_t)dir];
            if (!n)
                continue;
            const uint16_t *lk = hc->link
                + ((size_t)c * 2 + (size_t)dir) * 2 * (size_t)h->chunk;
            uint32_t oa = hc->off[c] - 1;
            uint32_t ob = hc->off[dir == 0 ? c + 1 : c + h->cw] - 1;
            for (int t = 0; t < n; t++) {
                uint32_t ra = uf32_find(uf, oa + lk[2 * t]);
                uint32_t rb = uf32_find(uf, ob + lk[2 * t + 1]);
                if (ra < rb)
                    uf[rb] = ra;
                else if (rb < ra)
                    uf[ra] = rb;
            }
        }
    }
    /* parents always have lower indices, so one forward pass resolves */
    uint32_t ncomp = 0;
    for (uint32_t r = 0; r < R; r++) {
        if (uf[r] == r) {
            hc->comp[r] = r;
            ncomp++;
        } else {
            hc->comp[r] = hc->comp[uf[r]];
        }
    }
    hc->nregions = R;
    hc->ncomponents = ncomp;
    return WF_OK;
}

static void mark_dirty(wf_hier *h, int c)
{
    if (!h->dirty[c]) {
        h->dirty[c] = 1;
        h->dlist[h->ndirty++] = c;
    }
}

static void mark_rect(wf_hier *h, int x0, int y0, int x1, int y1)
{
    x0 = imax(x0, 0);
    y0 = imax(y0, 0);
    x1 = imin(x1, h->w - 1);
    y1 = imin(y1, h->h - 1);
    if (x0 > x1 || y0 > y1)
        return;
    for (int cy = y0 / h->chunk; cy <= y1 / h->chunk; cy++)
        for (int cx = x0 / h->chunk; cx <= x1 / h->chunk; cx++)
            mark_dirty(h, cy * h->cw + cx);
}

/* The chunks whose links a sync rewrites, each once: the dirty ones and
 * their west and north neighbours (whose east/south links point into dirty
 * chunks). Neighbours are marked 2 in `dirty` until the sync ends. */
static int affected_chunks(wf_hier *h)
{
    int n = 0;
    for (int i = 0; i < h->ndirty; i++)
        h->alist[n++] = h->dlist[i];
    for (int i = 0; i < h->ndirty; i++) {
        int c = h->dlist[i];
        int west = c % h->cw > 0 ? c - 1 : -1;
        int north = c >= h->cw ? c - h->cw : -1;
        if (west >= 0 && !h->dirty[west]) {
            h->dirty[west] = 2;
            h->alist[n++] = west;
        }
        if (north >= 0 && !h->dirty[north]) {
            h->dirty[north] = 2;
            h->alist[n++] = north;
        }
    }
    return n;
}

static size_t snap_size(const wf_hier *h)
{
    return 3 + 4 * (size_t)h->chunk;   /* nreg, 2 counts, 2 link lists */
}

static void snap_chunk(const wf_hier *h, const hclass *hc, int c, uint16_t *out)
{
    out[0] = hc->nreg[c];
    out[1] = hc->nlink[(size_t)c * 2];
    out[2] = hc->nlink[(size_t)c * 2 + 1];
    const uint16_t *lk = hc->link + (size_t)c * 4 * (size_t)h->chunk;
    memcpy(out + 3, lk, 2 * (size_t)out[1] * sizeof *out);
    memcpy(out + 3 + 2 * (size_t)h->chunk, lk + 2 * (size_t)h->chunk,
           2 * (size_t)out[2] * sizeof *out);
}

static int snap_same(const wf_hier *h, const hclass *hc, int c,
                     const uint16_t *old)
{
    const uint16_t *lk = hc->link + (size_t)c * 4 * (size_t)h->chunk;
    return old[0] == hc->nreg[c] && old[1] == hc->nlink[(size_t)c * 2]
           && old[2] == hc->nlink[(size_t)c * 2 + 1]
           && memcmp(old + 3, lk, 2 * (size_t)old[1] * sizeof *old) == 0
           && memcmp(old + 3 + 2 * (size_t)h->chunk, lk + 2 * (size_t)h->chunk,
                     2 * (size_t)old[2] * sizeof *old) == 0;
}

/* Relabels the dirty chunks, relinks them and the neighbours that link into
 * them, and recomputes the components unless no region count and no link
 * changed (then the components are the same as before). With `full` the
 * components are always recomputed. */
static wf_status apply_dirty(wf_hier *h, const wf_grid *g, int full)
{
    wf_status st = WF_OK;
    int na = affected_chunks(h);
    size_t per = snap_size(h);
    if (!full && (size_t)na * per > h->snap_cap) {
        uint16_t *sn = realloc(h->snap, (size_t)na * per * sizeof *sn);
        if (!sn)
            full = 1;          /* no room to compare: recompute instead */
        else {
            h->snap = sn;
            h->snap_cap = (size_t)na * per;
        }
    }
    for (int k = 0; k < h->nclasses && st == WF_OK; k++) {
        hclass *hc = &h->cls[k];
        if (!full)
            for (int i = 0; i < na; i++)
                snap_chunk(h, hc, h->alist[i], h->snap + (size_t)i * per);
        for (int i = 0; i < h->ndirty; i++)
            label_chunk(h, g, k, h->dlist[i]);   /* alist starts with them */
        for (int i = 0; i < na; i++)
            link_chunk(h, k, h->alist[i]);
        int same = !full && !hc->stale;
        for (int i = 0; i < na && same; i++)
            same = snap_same(h, hc, h->alist[i], h->snap + (size_t)i * per);
        if (!same) {
            st = link_components(h, k);
            hc->stale = st != WF_OK;
        }
    }
    for (int i = 0; i < na; i++)
        h->dirty[h->alist[i]] = 0;
    h->ndirty = 0;
    if (st != WF_OK) {
        h->stale = 1;
        return st;
    }
    h->version = g->version;
    h->seen = g->nchanges;
    h->stale = 0;
    return WF_OK;
}

wf_status wf_hier_relabel(wf_hier *h, const wf_grid *g)
{
    if (g->w != h->w || g->h != h->h || g->nclasses != h->nclasses)
        return WF_ERR_ARG;
    for (int i = 0; i < h->ndirty; i++)
        h->dirty[h->dlist[i]] = 0;
    h->ndirty = 0;
    for (int c = 0; c < h->nchunks; c++)
        mark_dirty(h, c);
    return apply_dirty(h, g, 1);
}

wf_status wf_hier_note(wf_hier *h, const wf_grid *g)
{
    if (g->nchanges - h->seen >= WF_CHANGE_LOG - 2)
        return wf_hier_sync(h, g);
    return WF_OK;
}

wf_status wf_hier_sync(wf_hier *h, const wf_grid *g)
{
    if (g->w != h->w || g->h != h->h || g->nclasses != h->nclasses)
        return WF_ERR_ARG;
    if (!h->stale && h->version == g->version)
        return WF_OK;
    unsigned todo = g->nchanges - h->seen;
    if (h->stale || todo > WF_CHANGE_LOG)
        return wf_hier_relabel(h, g);
    for (unsigned i = h->seen; i != g->nchanges; i++) {
        unsigned slot = i % WF_CHANGE_LOG;
        mark_rect(h, g->changes[slot].x0, g->changes[slot].y0,
                  g->changes[slot].x1, g->changes[slot].y1);
    }
    if (h->ndirty == 0) {          /* cost edits only */
        h->version = g->version;
        return WF_OK;
    }
    return apply_dirty(h, g, 0);
}

/* ------------------------------------------------------------ queries -- */

static int in_grid(const wf_hier *h, int x, int y)
{
    return x >= 0 && y >= 0 && x < h->w && y < h->h;
}

/* Component (lowest region index) + 1 of a navcell, 0 when blocked. */
static uint32_t comp_of(const wf_hier *h, int k, int x, int y)
{
    const hclass *hc = &h->cls[k];
    uint16_t l = hc->label[(size_t)y * (size_t)h->w + (size_t)x];
    if (!l)
        return 0;
    int c = (y / h->chunk) * h->cw + x / h->chunk;
    return hc->comp[hc->off[c] + l - 1] + 1;
}

static wf_status sync_for_query(wf_hier *h, const wf_grid *g, int cls)
{
    if (cls < 0 || cls >= h->nclasses)
        return WF_ERR_ARG;
    return wf_hier_sync(h, g);
}

wf_status wf_hier_stats_of(wf_hier *h, const wf_grid *g, int cls,
                           wf_hier_stats *out)
{
    wf_status st = sync_for_query(h, g, cls);
    if (st != WF_OK)
        return st;
    out->chunk = h->chunk;
    out->chunks = h->nchunks;
    out->regions = h->cls[cls].nregions;
    out->components = h->cls[cls].ncomponents;
    return WF_OK;
}

wf_status wf_hier_component(wf_hier *h, const wf_grid *g, int cls, int x,
                            int y, uint32_t *id)
{
    *id = 0;
    wf_status st = sync_for_query(h, g, cls);
    if (st != WF_OK)
        return st;
    if (!in_grid(h, x, y))
        return WF_ERR_ARG;
    *id = comp_of(h, cls, x, y);
    return WF_OK;
}

wf_status wf_hier_reachable(wf_hier *h, const wf_grid *g, int cls, int ax,
                            int ay, int bx, int by, int *out)
{
    *out = 0;
    wf_status st = sync_for_query(h, g, cls);
    if (st != WF_OK)
        return st;
    if (!in_grid(h, ax, ay) || !in_grid(h, bx, by))
        return WF_ERR_ARG;
    uint32_t a = comp_of(h, cls, ax, ay);
    *out = a != 0 && a == comp_of(h, cls, bx, by);
    return WF_OK;
}

/* ---------------------------------------------------- nearest search -- */

/* A squared distance in Q32.32 can reach 2^65: kept as a carry bit and the
 * low 64 bits, compared lexicographically. Every |delta| is below 2^32
 * (targets are wf_fix, navcell centres are within 2^30). */
typedef struct dist2 {
    uint64_t hi, lo;
} dist2;

static uint64_t abs_u(int64_t v) { return (uint64_t)(v < 0 ? -v : v); }

static dist2 make_dist(int64_t dx, int64_t dy)
{
    uint64_t ax = abs_u(dx), ay = abs_u(dy);
    dist2 d;
    uint64_t sx = ax * ax, sy = ay * ay;
    d.lo = sx + sy;
    d.hi = d.lo < sx;
    return d;
}

static int dist_less(dist2 a, dist2 b)
{
    return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
}

static int64_t centre(int i)
{
    return (int64_t)i * WF_FIX_ONE + WF_FIX_HALF;
}

/* Distance from p to the nearest navcell centre of a cell rectangle. */
static dist2 rect_dist(int64_t px, int64_t py, int x0, int y0, int x1, int y1)
{
    int64_t cx0 = centre(x0), cx1 = centre(x1);
    int64_t cy0 = centre(y0), cy1 = centre(y1);
    int64_t dx = px < cx0 ? cx0 - px : (px > cx1 ? px - cx1 : 0);
    int64_t dy = py < cy0 ? cy0 - py : (py > cy1 ? py - cy1 : 0);
    return make_dist(dx, dy);
}

enum { NEAR_PASSABLE = 0, NEAR_COMPONENT = 1 };

typedef struct nearq {
    const wf_hier *h;
    const hclass *hc;
    int64_t px, py;              /* target, Q16.16 */
    int dx0, dy0, dx1, dy1;      /* domain: navcells considered (in grid) */
    int mode;
    uint32_t comp;               /* NEAR_COMPONENT: component id + 1 */
    const wf_goal *goal;         /* non-NULL: goal navcells only */
    int first_only;              /* any match will do */
    int found, bx, by;
    dist2 best;
} nearq;

static int beats(const nearq *q, dist2 d, int x, int y)
{
    if (!q->found || dist_less(d, q->best))
        return 1;
    if (dist_less(q->best, d))
        return 0;
    return y < q->by || (y == q->by && x < q->bx);
}

static void visit_chunk(nearq *q, int cx, int cy)
{
    const wf_hier *h = q->h;
    const hclass *hc = q->hc;
    int c = cy * h->cw + cx;
    if (hc->nreg[c] == 0)
        return;
    int x0, y0, x1, y1;
    chunk_box(h, c, &x0, &y0, &x1, &y1);
    x0 = imax(x0, q->dx0);
    y0 = imax(y0, q->dy0);
    x1 = imin(x1, q->dx1);
    y1 = imin(y1, q->dy1);
    if (x0 > x1 || y0 > y1)
        return;
    if (q->found && dist_less(q->best, rect_dist(q->px, q->py, x0, y0, x1, y1)))
        return;
    uint32_t base = hc->off[c];
    if (q->mode == NEAR_COMPONENT) {
        int any = 0;
        for (uint32_t r = 0; r < hc->nreg[c] && !any; r++)
            any = hc->comp[base + r] + 1 == q->comp;
        if (!any)
            return;
    }
    for (int y = y0; y <= y1; y++) {
        if (q->found
            && dist_less(q->best, rect_dist(q->px, q->py, x0, y, x1, y)))
            continue;
        const uint16_t *lrow = hc->label + (size_t)y * (size_t)h->w;
        int64_t dy = centre(y) - q->py;
        for (int x = x0; x <= x1; x++) {
            uint16_t l = lrow[x];
            if (!l)
                continue;
            if (q->mode == NEAR_COMPONENT && hc->comp[base + l - 1] + 1 != q->comp)
                continue;
            if (q->goal && !wf_goal_contains(q->goal, x, y))
                continue;
            dist2 d = make_dist(centre(x) - q->px, dy);
            if (beats(q, d, x, y)) {
                q->found = 1;
                q->best = d;
                q->bx = x;
                q->by = y;
                if (q->first_only)
                    return;
            }
        }
    }
}

/* Visits chunks ring by ring (Chebyshev rings in chunk units) around the
 * chunk nearest the target and stops once everything outside the rings
 * visited so far is provably farther than the best navcell found. */
static void near_search(nearq *q)
{
    const wf_hier *h = q->h;
    int C = h->chunk;
    q->found = 0;
    int ccx0 = q->dx0 / C, ccx1 = q->dx1 / C;
    int ccy0 = q->dy0 / C, ccy1 = q->dy1 / C;
    int pxc = floor_fix(q->px), pyc = floor_fix(q->py);
    pxc = imin(imax(pxc, q->dx0), q->dx1);
    pyc = imin(imax(pyc, q->dy0), q->dy1);
    int c0x = pxc / C, c0y = pyc / C;
    for (int k = 0;; k++) {
        int bx0 = c0x - k, bx1 = c0x + k, by0 = c0y - k, by1 = c0y + k;
        for (int cx = imax(bx0, ccx0); cx <= imin(bx1, ccx1); cx++) {
            if (by0 >= ccy0)
                visit_chunk(q, cx, by0);
            if (k > 0 && by1 <= ccy1)
                visit_chunk(q, cx, by1);
            if (q->first_only && q->found)
                return;
        }
        for (int cy = imax(by0 + 1, ccy0); cy <= imin(by1 - 1, ccy1); cy++) {
            if (bx0 >= ccx0)
                visit_chunk(q, bx0, cy);
            if (k > 0 && bx1 <= ccx1)
                visit_chunk(q, bx1, cy);
            if (q->first_only && q->found)
                return;
        }
        bx0 = imax(bx0, ccx0);
        bx1 = imin(bx1, ccx1);
        by0 = imax(by0, ccy0);
        by1 = imin(by1, ccy1);
        if (bx0 == ccx0 && bx1 == ccx1 && by0 == ccy0 && by1 == ccy1)
            return;
        if (!q->found)
            continue;
        /* the domain outside the visited box, as up to four rectangles */
        int vx0 = imax(bx0 * C, q->dx0), vx1 = imin((bx1 + 1) * C - 1, q->dx1);
        int vy0 = imax(by0 * C, q->dy0), vy1 = imin((by1 + 1) * C - 1, q->dy1);
        int beyond = 0;
        dist2 lb = {0, 0};
        if (vy0 > q->dy0) {
            dist2 d = rect_dist(q->px, q->py, q->dx0, q->dy0, q->dx1, vy0 - 1);
            if (!beyond || dist_less(d, lb))
                lb = d;
            beyond = 1;
        }
        if (vy1 < q->dy1) {
            dist2 d = rect_dist(q->px, q->py, q->dx0, vy1 + 1, q->dx1, q->dy1);
            if (!beyond || dist_less(d, lb))
                lb = d;
            beyond = 1;
        }
        if (vx0 > q->dx0) {
            dist2 d = rect_dist(q->px, q->py, q->dx0, vy0, vx0 - 1, vy1);
            if (!beyond || dist_less(d, lb))
                lb = d;
            beyond = 1;
        }
        if (vx1 < q->dx1) {
            dist2 d = rect_dist(q->px, q->py, vx1 + 1, vy0, q->dx1, vy1);
            if (!beyond || dist_less(d, lb))
                lb = d;
            beyond = 1;
        }
        if (!beyond || dist_less(q->best, lb))
            return;
    }
}

static void near_init(nearq *q, const wf_hier *h, int cls, int64_t px,
                      int64_t py)
{
    memset(q, 0, sizeof *q);
    q->h = h;
    q->hc = &h->cls[cls];
    q->px = px;
    q->py = py;
    q->dx0 = 0;
    q->dy0 = 0;
    q->dx1 = h->w - 1;
    q->dy1 = h->h - 1;
}

wf_status wf_hier_nearest_passable(wf_hier *h, const wf_grid *g, int cls,
                                   int x, int y, int *ox, int *oy)
{
    wf_status st = sync_for_query(h, g, cls);
    if (st != WF_OK)
        return st;
    if (!in_grid(h, x, y))
        return WF_ERR_ARG;
    nearq q;
    near_init(&q, h, cls, centre(x), centre(y));
    q.mode = NEAR_PASSABLE;
    near_search(&q);
    if (!q.found)
        return WF_NO_PATH;
    *ox = q.bx;
    *oy = q.by;
    return WF_OK;
}

static int goal_ok(const wf_goal *goal)
{
    switch (goal->type) {
    case WF_GOAL_POINT: return 1;
    case WF_GOAL_CIRCLE: return goal->r >= 0;
    case WF_GOAL_SQUARE: return goal->hw >= 0 && goal->hh >= 0;
    }
    return 0;
}

/* Goal box clipped to the grid; 0 when empty. */
static int goal_box(const wf_hier *h, const wf_goal *goal, int *x0, int *y0,
                    int *x1, int *y1)
{
    wf_goal_bounds(goal, x0, y0, x1, y1);
    *x0 = imax(*x0, 0);
    *y0 = imax(*y0, 0);
    *x1 = imin(*x1, h->w - 1);
    *y1 = imin(*y1, h->h - 1);
    return *x0 <= *x1 && *y0 <= *y1;
}

/* Looks for a goal navcell in component comp; with first_only any one,
 * otherwise the one nearest (px, py). */
static int find_in_goal(const wf_hier *h, int cls, uint32_t comp,
                        const wf_goal *goal, int64_t px, int64_t py,
                        int first_only, int *ox, int *oy)
{
    int x0, y0, x1, y1;
    if (!goal_box(h, goal, &x0, &y0, &x1, &y1))
        return 0;
    if (goal->type == WF_GOAL_POINT) {
        if (comp_of(h, cls, x0, y0) != comp)
            return 0;
        *ox = x0;
        *oy = y0;
        return 1;
    }
    nearq q;
    near_init(&q, h, cls, px, py);
    q.mode = NEAR_COMPONENT;
    q.comp = comp;
    q.goal = goal;
    q.first_only = first_only;
    q.dx0 = x0;
    q.dy0 = y0;
    q.dx1 = x1;
    q.dy1 = y1;
    near_search(&q);
    if (!q.found)
        return 0;
    *ox = q.bx;
    *oy = q.by;
    return 1;
}

/* The navcell of component comp nearest (px, py); comp is never empty. */
static void nearest_in_comp(const wf_hier *h, int cls, uint32_t comp,
                            int64_t px, int64_t py, int *ox, int *oy)
{
    nearq q;
    near_init(&q, h, cls, px, py);
    q.mode = NEAR_COMPONENT;
    q.comp = comp;
    near_search(&q);
    *ox = q.bx;
    *oy = q.by;
}

wf_status wf_hier_nearest_reachable(wf_hier *h, const wf_grid *g, int cls,
                                    int sx, int sy, const wf_goal *goal,
                                    int *ox, int *oy, int *inside)
{
    wf_status st = sync_for_query(h, g, cls);
    if (st != WF_OK)
        return st;
    if (!goal_ok(goal))
        return WF_ERR_ARG;
    if (!in_grid(h, sx, sy))
        return WF_START_OUTSIDE;
    uint32_t comp = comp_of(h, cls, sx, sy);
    if (!comp)
        return WF_START_BLOCKED;
    if (find_in_goal(h, cls, comp, goal, centre(sx), centre(sy), 0, ox, oy)) {
        *inside = 1;
        return WF_OK;
    }
    nearest_in_comp(h, cls, comp, goal->x, goal->y, ox, oy);
    *inside = 0;
    return WF_OK;
}

/* Whether no navcell of the grid lies in the goal, as the plain search
 * decides it (search.c): a point goal off the grid, or a shape touching
 * no navcell. */
static int goal_outside(const wf_hier *h, const wf_goal *goal)
{
    int x0, y0, x1, y1;
    wf_goal_bounds(goal, &x0, &y0, &x1, &y1);
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = imin(x1, h->w - 1);
    y1 = imin(y1, h->h - 1);
    return x0 > x1 || y0 > y1
           || (goal->type != WF_GOAL_POINT
               && !wf_goal_touches(goal, x0, y0, x1, y1));
}

/* A blocked start that cannot escape: the plain search reports a goal off
 * the grid first (docs/errors.md gives the order), so find_path and the
 * queue give the same reason for the same request. */
static wf_status blocked_start(const wf_hier *h, const wf_query *q,
                               unsigned flags)
{
    if (!(flags & WF_PREP_REWRITE) && goal_outside(h, &q->goal))
        return WF_GOAL_OUTSIDE;
    return WF_START_BLOCKED;
}

wf_status wf_hier_prepare(wf_hier *h, const wf_grid *g, wf_query *q,
                          unsigned flags, wf_prepared *out)
{
    memset(out, 0, sizeof *out);
    out->ox = q->sx;
    out->oy = q->sy;
    wf_status st = sync_for_query(h, g, q->cls);
    if (st != WF_OK)
        return st;
    if (!goal_ok(&q->goal))
        return WF_ERR_ARG;
    if (!in_grid(h, q->sx, q->sy))
        return WF_START_OUTSIDE;
    uint32_t comp = comp_of(h, q->cls, q->sx, q->sy);
    if (!comp) {
        if (!(flags & WF_PREP_ESCAPE))
            return blocked_start(h, q, flags);
        nearq nq;
        near_init(&nq, h, q->cls, centre(q->sx), centre(q->sy));
        nq.mode = NEAR_PASSABLE;
        near_search(&nq);
        if (!nq.found)
            return blocked_start(h, q, flags);
        out->escaped = 1;
        out->ex = q->sx = nq.bx;
        out->ey = q->sy = nq.by;
        comp = comp_of(h, q->cls, q->sx, q->sy);
    }
    if (flags & WF_PREP_REWRITE) {
        int x, y;
        if (!find_in_goal(h, q->cls, comp, &q->goal, centre(q->sx),
                          centre(q->sy), 1, &x, &y)) {
            nearest_in_comp(h, q->cls, comp, q->goal.x, q->goal.y, &x, &y);
            out->rewritten = 1;
            out->rx = x;
            out->ry = y;
            wf_goal_point(&q->goal, (wf_fix)(x * WF_FIX_ONE + WF_FIX_HALF),
                          (wf_fix)(y * WF_FIX_ONE + WF_FIX_HALF));
        }
    }
    return WF_OK;
}
