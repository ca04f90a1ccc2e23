/* grid.c - the navcell grid: terrain bits, costs, map border, clearance and
 * the derived passability planes, recomputed region by region so that an
 * edit costs its neighbourhood, not the map. */
#include <stdlib.h>
#include <string.h>

#include "grid_internal.h"

const char *wf_status_name(wf_status st)
{
    switch (st) {
    case WF_OK: return "ok";
    case WF_ERR_ARG: return "invalid_argument";
    case WF_ERR_NOMEM: return "out_of_memory";
    case WF_ERR_NOTFOUND: return "not_found";
    case WF_ERR_FULL: return "full";
    case WF_ERR_PARSE: return "parse_error";
    case WF_ERR_COST: return "jps_needs_uniform_cost";
    case WF_NO_PATH: return "unreachable";
    case WF_START_OUTSIDE: return "start_outside";
    case WF_START_BLOCKED: return "start_blocked";
    case WF_GOAL_OUTSIDE: return "goal_outside";
    case WF_GOAL_BLOCKED: return "goal_blocked";
    }
    return "unknown";
}

int wf_status_failed(wf_status st)
{
    switch (st) {
    case WF_ERR_ARG:
    case WF_ERR_NOMEM:
    case WF_ERR_NOTFOUND:
    case WF_ERR_FULL:
    case WF_ERR_PARSE:
    case WF_ERR_COST:
        return 1;
    case WF_OK:
    case WF_NO_PATH:
    case WF_START_OUTSIDE:
    case WF_START_BLOCKED:
    case WF_GOAL_OUTSIDE:
    case WF_GOAL_BLOCKED:
        return 0;
    }
    return 1;   /* not a status at all */
}

void wf_grid_config_init(wf_grid_config *cfg, int width, int height)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->width = width;
    cfg->height = height;
    cfg->nclasses = 1;
    memcpy(cfg->classes[0].name, "default", 8);
    cfg->classes[0].clearance = 0;
    cfg->border = 0;
    cfg->border_shape = WF_BORDER_SQUARE;
}

static int config_valid(const wf_grid_config *cfg)
{
    if (cfg->width < 1 || cfg->height < 1 || cfg->width > WF_MAX_SIDE
        || cfg->height > WF_MAX_SIDE
        || (int64_t)cfg->width * cfg->height > WF_MAX_CELLS)
        return 0;
    if (cfg->nclasses < 1 || cfg->nclasses > WF_MAX_CLASSES)
        return 0;
    if (cfg->border < 0 || cfg->border > WF_MAX_SIDE)
        return 0;
    if (cfg->border_shape != WF_BORDER_SQUARE
        && cfg->border_shape != WF_BORDER_CIRCLE)
        return 0;
    for (int k = 0; k < cfg->nclasses; k++) {
        const wf_class_def *c = &cfg->classes[k];
        if (c->clearance < 0 || c->clearance > WF_MAX_CLEARANCE)
            return 0;
        if ((c->limits & ~(WF_LIMIT_SLOPE | WF_LIMIT_MIN_DEPTH
                           | WF_LIMIT_MAX_DEPTH)) != 0)
            return 0;
        if (((c->limits & WF_LIMIT_SLOPE) && c->max_slope < 0)
            || ((c->limits & WF_LIMIT_MIN_DEPTH) && c->min_depth < 0)
            || ((c->limits & WF_LIMIT_MAX_DEPTH) && c->max_depth < 0))
            return 0;
        if ((c->limits & WF_LIMIT_MIN_DEPTH) && (c->limits & WF_LIMIT_MAX_DEPTH)
            && c->min_depth > c->max_depth)
            return 0;
        if (c->clearance_shape != WF_CLEARANCE_SQUARE
            && c->clearance_shape != WF_CLEARANCE_CIRCLE)
            return 0;
        if (memchr(c->name, 0, WF_NAME_MAX) == NULL || c->name[0] == 0)
            return 0;
        for (int m = 0; m < k; m++)
            if (strcmp(cfg->classes[m].name, c->name) == 0)
                return 0;
    }
    return 1;
}

/* Per-row interval of navcells outside the forced border. The circle is the
 * largest one centred on the map, shrunk by the border width; a navcell is
 * inside when its centre is strictly inside. Integer arithmetic on doubled
 * coordinates keeps it exact. */
static void compute_border(wf_grid *g)
{
    int w = g->w, h = g->h, b = g->border;
    for (int y = 0; y < h; y++) {
        int lo = b, hi = w - 1 - b;
        if (y < b || y > h - 1 - b) {
            lo = 1;
            hi = 0;
        } else if (g->border_shape == WF_BORDER_CIRCLE) {
            int64_t side = w < h ? w : h;
            int64_t rad2 = side - 2 * (int64_t)b;   /* doubled radius */
            int64_t dy = 2 * (int64_t)y + 1 - h;
            int64_t rem = rad2 * rad2 - dy * dy;
            lo = 1;
            hi = 0;
            if (rad2 > 0 && rem > 0) {
                /* largest dx (doubled, odd-aligned with 2x+1-w) with dx^2 < rem */
                int first = -1, last = -1;
                for (int x = 0; x < w; x++) {
                    int64_t dx = 2 * (int64_t)x + 1 - w;
                    if (dx * dx < rem) {
                        if (first < 0)
                            first = x;
                        last = x;
                    } else if (first >= 0) {
                        break;
                    }
                }
                if (first >= 0) {
                    lo = first;
                    hi = last;
                }
            }
        }
        if (lo > hi) {
            lo = 1;
            hi = 0;
        }
        g->row_lo[y] = lo;
        g->row_hi[y] = hi;
    }
}

static void set_plane_bits_all(wf_grid *g, uint64_t *planes)
{
    for (int k = 0; k < g->nclasses; k++)
        for (int y = 0; y < g->h; y++) {
            uint64_t *row = wf_plane_row(g, planes, k, y);
            for (int x = 0; x < g->w; x++) {
                unsigned b = (unsigned)(x + 1);
                row[b >> 6] |= (uint64_t)1 << (b & 63);
            }
        }
}

wf_status wf_grid_create(wf_grid **out, const wf_grid_config *cfg)
{
    *out = NULL;
    if (!cfg || !config_valid(cfg))
        return WF_ERR_ARG;
    wf_grid *g = calloc(1, sizeof *g);
    if (!g)
        return WF_ERR_NOMEM;
    g->w = cfg->width;
    g->h = cfg->height;
    g->nclasses = cfg->nclasses;
    memcpy(g->classes, cfg->classes, sizeof g->classes);
    for (int k = 0; k < g->nclasses; k++) {
        if (g->classes[k].clearance > g->max_clearance)
            g->max_clearance = g->classes[k].clearance;
        if (g->classes[k].limits)
            g->hm_limited = 1;
    }
    g->border = cfg->border;
    g->border_shape = cfg->border_shape;
    /* one spare word per row lets scanners read a 64-bit window anywhere */
    g->words = ((g->w + 1) >> 6) + 2;
    g->plane_words = (size_t)(g->h + 2) * (size_t)g->words;
    g->twords = ((g->h + 1) >> 6) + 2;
    g->tplane_words = (size_t)(g->w + 2) * (size_t)g->twords;
    g->next_id = 1;
    /* a number no other grid of this process has had, so that what a
     * search keeps about a grid is never taken for a grid made at the
     * same address after it was destroyed */
    static uint64_t serials;
    g->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
    size_t total = g->plane_words * (size_t)g->nclasses;
    g->terrain = calloc(total, sizeof(uint64_t));
    g->pass = calloc(total, sizeof(uint64_t));
    g->tpass = calloc(g->tplane_words * (size_t)g->nclasses, sizeof(uint64_t));
    g->row_lo = malloc((size_t)g->h * sizeof(int32_t));
    g->row_hi = malloc((size_t)g->h * sizeof(int32_t));
    if (g->hm_limited)
        g->hm_ok = calloc(total, sizeof(uint64_t));
    if (!g->terrain || !g->pass || !g->tpass || !g->row_lo || !g->row_hi
        || (g->hm_limited && !g->hm_ok)) {
        wf_grid_destroy(g);
        return WF_ERR_NOMEM;
    }
    g->cost_hist[1] = (uint32_t)((int64_t)g->w * g->h);
    compute_border(g);
    set_plane_bits_all(g, g->terrain);
    if (g->hm_ok)
        (void)wf_terrain_fill(g, g->hm_ok, 0, 0, g->w - 1, g->h - 1);
    wf_status st = wf_grid_rebuild(g);
    if (st != WF_OK) {
        wf_grid_destroy(g);
        return st;
    }
    *out = g;
    return WF_OK;
}

void wf_grid_destroy(wf_grid *g)
{
    if (!g)
        return;
    free(g->terrain);
    free(g->pass);
    free(g->tpass);
    free(g->cost);
    free(g->obs);
    free(g->row_lo);
    free(g->row_hi);
    free(g->hm_heights);
    free(g->hm_ok);
    free(g);
}

int wf_grid_width(const wf_grid *g) { return g->w; }
int wf_grid_height(const wf_grid *g) { return g->h; }
int wf_grid_class_count(const wf_grid *g) { return g->nclasses; }
int wf_grid_border(const wf_grid *g) { return g->border; }
wf_border_shape wf_grid_border_shape(const wf_grid *g) { return g->border_shape; }
uint64_t wf_grid_version(const wf_grid *g) { return g->version; }

const char *wf_grid_class_name(const wf_grid *g, int cls)
{
    if (cls < 0 || cls >= g->nclasses)
        return NULL;
    return g->classes[cls].name;
}

int wf_grid_class_clearance(const wf_grid *g, int cls)
{
    if (cls < 0 || cls >= g->nclasses)
        return -1;
    return g->classes[cls].clearance;
}

const wf_class_def *wf_grid_class_def(const wf_grid *g, int cls)
{
    if (cls < 0 || cls >= g->nclasses)
        return NULL;
    return &g->classes[cls];
}

int wf_grid_class_index(const wf_grid *g, const char *name)
{
    for (int k = 0; k < g->nclasses; k++)
        if (strcmp(g->classes[k].name, name) == 0)
            return k;
    return -1;
}

size_t wf_grid_memory(const wf_grid *g)
{
    size_t m = sizeof *g;
    m += 2 * g->plane_words * (size_t)g->nclasses * sizeof(uint64_t);
    m += g->tplane_words * (size_t)g->nclasses * sizeof(uint64_t);
    m += 2 * (size_t)g->h * sizeof(int32_t);
    if (g->cost)
        m += (size_t)g->w * (size_t)g->h;
    m += g->obs_cap * sizeof(wf_obstruction);
    if (g->hm_ok)
        m += g->plane_words * (size_t)g->nclasses * sizeof(uint64_t);
    if (g->hm_heights)
        m += (size_t)(g->hm_w + 1) * (size_t)(g->hm_h + 1) * sizeof(int32_t);
    return m;
}

static int in_grid(const wf_grid *g, int x, int y)
{
    return x >= 0 && y >= 0 && x < g->w && y < g->h;
}

int wf_grid_is_passable(const wf_grid *g, int x, int y, int cls)
{
    if (!in_grid(g, x, y) || cls < 0 || cls >= g->nclasses)
        return 0;
    return wf_passable_fast(g, cls, x, y);
}

int wf_grid_terrain_passable(const wf_grid *g, int x, int y, int cls)
{
    if (!in_grid(g, x, y) || cls < 0 || cls >= g->nclasses)
        return 0;
    return wf_bit(wf_plane_row(g, g->terrain, cls, y), x);
}

/* Terrain-blocked for class k, counting off-grid and the border as blocked. */
static int terrain_blocked(const wf_grid *g, int k, int x, int y)
{
    if (!in_grid(g, x, y))
        return 1;
    if (x < g->row_lo[y] || x > g->row_hi[y])
        return 1;
    if (g->hm_ok && !wf_bit(wf_plane_row(g, g->hm_ok, k, y), x))
        return 1;
    return !wf_bit(wf_plane_row(g, g->terrain, k, y), x);
}

static void mark_dirty(wf_grid *g, int x0, int y0, int x1, int y1)
{
    if (!g->dirty) {
        g->dirty = 1;
        g->dx0 = x0; g->dy0 = y0; g->dx1 = x1; g->dy1 = y1;
        return;
    }
    if (x0 < g->dx0) g->dx0 = x0;
    if (y0 < g->dy0) g->dy0 = y0;
    if (x1 > g->dx1) g->dx1 = x1;
    if (y1 > g->dy1) g->dy1 = y1;
}

/* The circular filter: navcell (x, y) is blocked when a terrain-blocked
 * navcell (x + dx, y + dy) has dx^2 + dy^2 <= c (c + 1), the disc of radius
 * c + 1/2 through navcell centres. Prefix counts per row, then for each
 * navcell one window per row offset: O(region x (2c + 1)). */
static wf_status expand_circle(const wf_grid *g, int k, uint8_t *blk,
                               int x0, int y0, int x1, int y1)
{
    int c = g->classes[k].clearance;
    int rw = x1 - x0 + 1, rh = y1 - y0 + 1;
    int th = rh + 2 * c, pw = rw + 2 * c + 1;
    int32_t *pre = malloc((size_t)th * (size_t)pw * sizeof(int32_t));
    int *half = malloc((size_t)(c + 1) * sizeof(int));
    if (!pre || !half) {
        free(pre);
        free(half);
        return WF_ERR_NOMEM;
    }
    int64_t lim = (int64_t)c * (c + 1);
    for (int dy = 0; dy <= c; dy++) {
        int64_t rem = lim - (int64_t)dy * dy;
        half[dy] = (int)wf_isqrt64((uint64_t)rem);
    }
    for (int r = 0; r < th; r++) {
        int y = y0 - c + r;
        int32_t *p = pre + (size_t)r * (size_t)pw;
        p[0] = 0;
        for (int i = 0; i < pw - 1; i++)
            p[i + 1] = p[i] + terrain_blocked(g, k, x0 - c + i, y);
    }
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            int blocked = 0;
            for (int dy = -c; dy <= c && !blocked; dy++) {
                int hw = half[dy < 0 ? -dy : dy];
                const int32_t *p = pre + (size_t)(y - y0 + c + dy) * (size_t)pw;
                /* column x' sits at index x' - x0 + c of the prefix row */
                int a = x - hw - x0 + c, b = x + hw - x0 + c + 1;
                blocked = p[b] - p[a] > 0;
            }
            blk[(size_t)(y - y0) * rw + (x - x0)] = (uint8_t)blocked;
        }
    free(pre);
    free(half);
    return WF_OK;
}

/* Blocked flags of class k for the region, from terrain with clearance c:
 * a horizontal then a vertical sliding-window count, so the cost is linear
 * in the region size whatever c is. */
static wf_status expand_terrain(const wf_grid *g, int k, uint8_t *blk,
                                int x0, int y0, int x1, int y1)
{
    int c = g->classes[k].clearance;
    int rw = x1 - x0 + 1, rh = y1 - y0 + 1;
    if (c > 0 && g->classes[k].clearance_shape == WF_CLEARANCE_CIRCLE)
        return expand_circle(g, k, blk, x0, y0, x1, y1);
    if (c == 0) {
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++)
                blk[(size_t)(y - y0) * rw + (x - x0)] =
                    (uint8_t)terrain_blocked(g, k, x, y);
        return WF_OK;
    }
    int th = rh + 2 * c;
    uint8_t *hb = malloc((size_t)th * (size_t)rw);
    if (!hb)
        return WF_ERR_NOMEM;
    for (int r = 0; r < th; r++) {
        int y = y0 - c + r;
        uint8_t *out = hb + (size_t)r * rw;
        if (y < 0 || y >= g->h) {
            memset(out, 1, (size_t)rw);
            continue;
        }
        int count = 0;
        for (int x = x0 - c; x <= x0 + c; x++)
            count += terrain_blocked(g, k, x, y);
        for (int x = x0; x <= x1; x++) {
            out[x - x0] = count > 0;
            count -= terrain_blocked(g, k, x - c, y);
            count += terrain_blocked(g, k, x + c + 1, y);
        }
    }
    for (int i = 0; i < rw; i++) {
        int count = 0;
        for (int r = 0; r < 2 * c + 1; r++)
            count += hb[(size_t)r * rw + i];
        for (int j = 0; j < rh; j++) {
            blk[(size_t)j * rw + i] = count > 0;
            count -= hb[(size_t)j * rw + i];
            if (j + 2 * c + 1 < th)
                count += hb[(size_t)(j + 2 * c + 1) * rw + i];
        }
    }
    free(hb);
    return WF_OK;
}

/* Recomputes the derived planes over [x0, x1] x [y0, y1] for every class:
 * clearance-expanded terrain, border, then every obstruction whose box meets
 * the region. All work goes to a scratch buffer first, so a failed
 * allocation leaves the planes untouched. */
wf_status wf_grid_update_region(wf_grid *g, int x0, int y0, int x1, int y1)
{
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > g->w - 1) x1 = g->w - 1;
    if (y1 > g->h - 1) y1 = g->h - 1;
    if (x0 > x1 || y0 > y1)
        return WF_OK;
    if (g->batch_depth > 0) {
        mark_dirty(g, x0, y0, x1, y1);
        return WF_OK;
    }
    if (g->dirty) {
        /* a batch whose final update failed: finish it along with this one */
        if (g->dx0 < x0) x0 = g->dx0;
        if (g->dy0 < y0) y0 = g->dy0;
        if (g->dx1 > x1) x1 = g->dx1;
        if (g->dy1 > y1) y1 = g->dy1;
    }
    int rw = x1 - x0 + 1, rh = y1 - y0 + 1;
    size_t rcells = (size_t)rw * (size_t)rh;
    uint8_t *blk = malloc(rcells * (size_t)g->nclasses);
    if (!blk)
        return WF_ERR_NOMEM;
    for (int k = 0; k < g->nclasses; k++) {
        uint8_t *b = blk + rcells * (size_t)k;
        wf_status st = expand_terrain(g, k, b, x0, y0, x1, y1);
        for (size_t i = 0; st == WF_OK && i < g->nobs; i++) {
            const wf_obstruction *o = &g->obs[i];
            if (o->bx1 < x0 || o->bx0 > x1 || o->by1 < y0 || o->by0 > y1)
                continue;
            st = wf_rasterize(&o->shape, g->classes[k].clearance, b, x0, y0,
                              x1, y1);
        }
        if (st != WF_OK) {
            free(blk);
            return st;
        }
    }
    for (int k = 0; k < g->nclasses; k++) {
        const uint8_t *b = blk + rcells * (size_t)k;
        for (int y = y0; y <= y1; y++) {
            uint64_t *row = wf_plane_row(g, g->pass, k, y);
            const uint8_t *src = b + (size_t)(y - y0) * rw;
            unsigned tbit = (unsigned)(y + 1);
            uint64_t tm = (uint64_t)1 << (tbit & 63);
            for (int x = x0; x <= x1; x++) {
                unsigned bit = (unsigned)(x + 1);
                uint64_t m = (uint64_t)1 << (bit & 63);
                uint64_t *col = wf_plane_col(g, g->tpass, k, x) + (tbit >> 6);
                if (src[x - x0]) {
                    row[bit >> 6] &= ~m;
                    *col &= ~tm;
                } else {
                    row[bit >> 6] |= m;
                    *col |= tm;
                }
            }
        }
    }
    free(blk);
    g->dirty = 0;
    g->version++;
    unsigned slot = g->nchanges++ % WF_CHANGE_LOG;
    g->changes[slot].version = g->version;
    g->changes[slot].x0 = x0;
    g->changes[slot].y0 = y0;
    g->changes[slot].x1 = x1;
    g->changes[slot].y1 = y1;
    return WF_OK;
}

int wf_grid_changed_since(const wf_grid *g, uint64_t since, int *x0, int *y0,
                          int *x1, int *y1)
{
    if (since >= g->version)
        return 0;
    unsigned kept = g->nchanges < WF_CHANGE_LOG ? g->nchanges : WF_CHANGE_LOG;
    int found = 0;
    uint64_t oldest = UINT64_MAX;
    for (unsigned i = 0; i < kept; i++) {
        unsigned slot = (g->nchanges - 1 - i) % WF_CHANGE_LOG;
        uint64_t v = g->changes[slot].version;
        if (v < oldest)
            oldest = v;
        if (v <= since)
            continue;
        int a = g->changes[slot].x0, b = g->changes[slot].y0;
        int c = g->changes[slot].x1, d = g->changes[slot].y1;
        if (!found) {
            *x0 = a; *y0 = b; *x1 = c; *y1 = d;
            found = 1;
        } else {
            if (a < *x0) *x0 = a;
            if (b < *y0) *y0 = b;
            if (c > *x1) *x1 = c;
            if (d > *y1) *y1 = d;
        }
    }
    /* versions are consecutive per change, so the log reaches back to
     * `since` only if it still holds the entry right after it (cost edits
     * also bump the version; they are harmless gaps) */
    if (g->nchanges > WF_CHANGE_LOG && oldest > since + 1)
        return 2;
    return found ? 1 : 0;
}

wf_status wf_grid_rebuild(wf_grid *g)
{
    int depth = g->batch_depth;
    g->batch_depth = 0;
    wf_status st = wf_grid_update_region(g, 0, 0, g->w - 1, g->h - 1);
    g->batch_depth = depth;
    return st;
}

void wf_grid_begin_batch(wf_grid *g)
{
    g->batch_depth++;
}

wf_status wf_grid_end_batch(wf_grid *g)
{
    if (g->batch_depth == 0)
        return WF_ERR_ARG;
    if (--g->batch_depth > 0 || !g->dirty)
        return WF_OK;
    /* on failure the region stays pending and the next update or rebuild
     * finishes it */
    return wf_grid_update_region(g, g->dx0, g->dy0, g->dx1, g->dy1);
}

wf_status wf_grid_set_passable(wf_grid *g, int x, int y, int cls, int passable)
{
    if (!in_grid(g, x, y) || cls < -1 || cls >= g->nclasses)
        return WF_ERR_ARG;
    int k0 = cls < 0 ? 0 : cls, k1 = cls < 0 ? g->nclasses - 1 : cls;
    unsigned bit = (unsigned)(x + 1);
    uint64_t m = (uint64_t)1 << (bit & 63);
    int changed = 0;
    /* remember old words so a failed update can be undone */
    uint64_t old[WF_MAX_CLASSES];
    for (int k = k0; k <= k1; k++) {
        uint64_t *w = &wf_plane_row(g, g->terrain, k, y)[bit >> 6];
        old[k] = *w;
        uint64_t nw = passable ? (*w | m) : (*w & ~m);
        if (nw != *w) {
            *w = nw;
            changed = 1;
        }
    }
    if (!changed)
        return WF_OK;
    int c = g->max_clearance;
    wf_status st = wf_grid_update_region(g, x - c, y - c, x + c, y + c);
    if (st != WF_OK)
        for (int k = k0; k <= k1; k++)
            wf_plane_row(g, g->terrain, k, y)[bit >> 6] = old[k];
    return st;
}

wf_status wf_grid_set_cost(wf_grid *g, int x, int y, int cost)
{
    if (!in_grid(g, x, y) || cost < 1 || cost > WF_MAX_COST)
        return WF_ERR_ARG;
    size_t i = (size_t)y * (size_t)g->w + (size_t)x;
    if (!g->cost) {
        if (cost == 1)
            return WF_OK;
        g->cost = malloc((size_t)g->w * (size_t)g->h);
        if (!g->cost)
            return WF_ERR_NOMEM;
        memset(g->cost, 1, (size_t)g->w * (size_t)g->h);
    }
    int old = g->cost[i];
    if (old == cost)
        return WF_OK;
    g->cost_hist[old]--;
    g->cost_hist[cost]++;
    g->cost[i] = (uint8_t)cost;
    g->version++;
    return WF_OK;
}

int wf_grid_cost(const wf_grid *g, int x, int y)
{
    if (!in_grid(g, x, y))
        return 0;
    return g->cost ? g->cost[(size_t)y * (size_t)g->w + (size_t)x] : 1;
}

int wf_grid_uniform_cost(const wf_grid *g)
{
    return g->cost_hist[1] == (uint32_t)((int64_t)g->w * g->h);
}
