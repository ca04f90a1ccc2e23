/* terrain.c - heightmap terrain: corner heights per terrain tile and a
 * water level, each navcell's height, slope and water depth by integer
 * bilinear interpolation, and the per-class planes of navcells whose slope
 * and depth the class's limits allow. Edits recompute only the tiles they
 * touch, then the grid's usual region update. docs/grid.md "Heightmap
 * terrain" states the formulas. */
#include <stdlib.h>
#include <string.h>

#include "grid_internal.h"

/* floor(a / b) for b > 0 */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b) != 0 && a < 0)
        q--;
    return q;
}

static int32_t corner(const wf_grid *g, int cx, int cy)
{
    return g->hm_heights[(size_t)cy * (size_t)(g->hm_w + 1) + (size_t)cx];
}

/* Navcell (x, y) lies in tile (i, j) = (x / T, y / T); its centre is at
 * a / D across and b / D down the tile, with D = 2T, a = 2 (x - iT) + 1,
 * b = 2 (y - jT) + 1. With the tile's corner heights h00 (i, j), h10
 * (i + 1, j), h01 (i, j + 1), h11 (i + 1, j + 1):
 *   height = floor((h00 (D-a)(D-b) + h10 a (D-b) + h01 (D-a) b + h11 a b) / D^2)
 *   gx = trunc(((h10 - h00)(D - b) + (h11 - h01) b) / (D T))
 *   gy = trunc(((h01 - h00)(D - a) + (h11 - h10) a) / (D T))
 *   slope = floor(sqrt(gx^2 + gy^2)),  depth = max(0, water - height)
 * all in Q16.16 (gx, gy: height per navcell). |heights| <= 2^30 keeps every
 * product below 2^49 and gx^2 + gy^2 below 2^63. */
void wf_grid_terrain_at(const wf_grid *g, int x, int y, int64_t *height,
                        int64_t *slope, int64_t *depth)
{
    if (!g->hm_heights) {
        *height = 0;
        *slope = 0;
        *depth = 0;
        return;
    }
    int64_t t = g->hm_tile, d = 2 * t;
    int i = x / g->hm_tile, j = y / g->hm_tile;
    int64_t a = 2 * (x - i * t) + 1, b = 2 * (y - j * t) + 1;
    int64_t h00 = corner(g, i, j), h10 = corner(g, i + 1, j);
    int64_t h01 = corner(g, i, j + 1), h11 = corner(g, i + 1, j + 1);
    int64_t num = h00 * (d - a) * (d - b) + h10 * a * (d - b)
                  + h01 * (d - a) * b + h11 * a * b;
    int64_t h = floor_div(num, d * d);
    int64_t gx = ((h10 - h00) * (d - b) + (h11 - h01) * b) / (d * t);
    int64_t gy = ((h01 - h00) * (d - a) + (h11 - h10) * a) / (d * t);
    uint64_t s2 = (uint64_t)(gx * gx) + (uint64_t)(gy * gy);
    int64_t dep = (int64_t)g->hm_water - h;
    *height = h;
    *slope = (int64_t)wf_isqrt64(s2);
    *depth = dep > 0 ? dep : 0;
}

static int allowed(const wf_class_def *c, int64_t slope, int64_t depth)
{
    if ((c->limits & WF_LIMIT_SLOPE) && slope > c->max_slope)
        return 0;
    if ((c->limits & WF_LIMIT_MIN_DEPTH) && depth < c->min_depth)
        return 0;
    if ((c->limits & WF_LIMIT_MAX_DEPTH) && depth > c->max_depth)
        return 0;
    return 1;
}

int wf_terrain_fill(const wf_grid *g, uint64_t *planes, int x0, int y0, int x1,
                    int y1)
{
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > g->w - 1) x1 = g->w - 1;
    if (y1 > g->h - 1) y1 = g->h - 1;
    int changed = 0;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            int64_t h, s, d;
            wf_grid_terrain_at(g, x, y, &h, &s, &d);
            unsigned bit = (unsigned)(x + 1);
            uint64_t m = (uint64_t)1 << (bit & 63);
            for (int k = 0; k < g->nclasses; k++) {
                uint64_t *w = &wf_plane_row(g, planes, k, y)[bit >> 6];
                uint64_t nw = allowed(&g->classes[k], s, d) ? (*w | m)
                                                             : (*w & ~m);
                if (nw != *w) {
                    *w = nw;
                    changed = 1;
                }
            }
        }
    return changed;
}

static int height_ok(wf_fix v)
{
    return v >= -WF_MAX_HEIGHT * WF_FIX_ONE && v <= WF_MAX_HEIGHT * WF_FIX_ONE;
}

wf_status wf_grid_set_heightmap(wf_grid *g, int tile, int tw, int th,
                                const wf_fix *heights, wf_fix water)
{
    int32_t *nh = NULL;
    if (heights) {
        if (tile < 1 || tile > WF_MAX_TILE || !height_ok(water))
            return WF_ERR_ARG;
        if (tw != (g->w + tile - 1) / tile || th != (g->h + tile - 1) / tile)
            return WF_ERR_ARG;
        size_t n = (size_t)(tw + 1) * (size_t)(th + 1);
        for (size_t i = 0; i < n; i++)
            if (!height_ok(heights[i]))
                return WF_ERR_ARG;
        nh = malloc(n * sizeof(int32_t));
        if (!nh)
            return WF_ERR_NOMEM;
        memcpy(nh, heights, n * sizeof(int32_t));
    } else if (!g->hm_heights) {
        return WF_OK;   /* nothing to remove */
    }
    uint64_t *nok = NULL;
    size_t total = g->plane_words * (size_t)g->nclasses;
    if (g->hm_ok) {
        nok = malloc(total * sizeof(uint64_t));
        if (!nok) {
            free(nh);
            return WF_ERR_NOMEM;
        }
        memcpy(nok, g->hm_ok, total * sizeof(uint64_t));
    }
    /* swap the new state in; put the old one back if the update fails */
    int32_t *oh = g->hm_heights;
    uint64_t *ook = g->hm_ok;
    int ot = g->hm_tile, ow = g->hm_w, oht = g->hm_h;
    wf_fix owater = g->hm_water;
    g->hm_heights = nh;
    g->hm_tile = nh ? tile : 0;
    g->hm_w = nh ? tw : 0;
    g->hm_h = nh ? th : 0;
    g->hm_water = nh ? water : 0;
    wf_status st = WF_OK;
    if (nok) {
        g->hm_ok = nok;
        if (wf_terrain_fill(g, nok, 0, 0, g->w - 1, g->h - 1))
            st = wf_grid_update_region(g, 0, 0, g->w - 1, g->h - 1);
    }
    if (st != WF_OK) {
        g->hm_heights = oh;
        g->hm_ok = ook;
        g->hm_tile = ot;
        g->hm_w = ow;
        g->hm_h = oht;
        g->hm_water = owater;
        free(nh);
        free(nok);
        return st;
    }
    free(oh);
    free(ook);
    return WF_OK;
}

wf_status wf_grid_set_height(wf_grid *g, int cx, int cy, wf_fix height)
{
    if (!g->hm_heights || cx < 0 || cy < 0 || cx > g->hm_w || cy > g->hm_h
        || !height_ok(height))
        return WF_ERR_ARG;
    int32_t *slot = &g->hm_heights[(size_t)cy * (size_t)(g->hm_w + 1)
                                   + (size_t)cx];
    int32_t old = *slot;
    if (old == height)
        return WF_OK;
    *slot = height;
    if (!g->hm_ok)
        return WF_OK;
    /* the corner shapes the (up to) four tiles around it */
    int t = g->hm_tile;
    int x0 = (cx - 1) * t, x1 = (cx + 1) * t - 1;
    int y0 = (cy - 1) * t, y1 = (cy + 1) * t - 1;
    if (!wf_terrain_fill(g, g->hm_ok, x0, y0, x1, y1))
        return WF_OK;
    int c = g->max_clearance;
    wf_status st = wf_grid_update_region(g, x0 - c, y0 - c, x1 + c, y1 + c);
    if (st != WF_OK) {
        *slot = old;
        (void)wf_terrain_fill(g, g->hm_ok, x0, y0, x1, y1);
    }
    return st;
}

wf_status wf_grid_set_water(wf_grid *g, wf_fix water)
{
    if (!g->hm_heights || !height_ok(water))
        return WF_ERR_ARG;
    if (water == g->hm_water)
        return WF_OK;
    size_t n = (size_t)(g->hm_w + 1) * (size_t)(g->hm_h + 1);
    int32_t *copy = malloc(n * sizeof(int32_t));
    if (!copy)
        return WF_ERR_NOMEM;
    memcpy(copy, g->hm_heights, n * sizeof(int32_t));
    wf_status st = wf_grid_set_heightmap(g, g->hm_tile, g->hm_w, g->hm_h, copy,
                                         water);
    free(copy);
    return st;
}

int wf_grid_heightmap(const wf_grid *g, int *tile, int *tw, int *th,
                      wf_fix *water)
{
    if (!g->hm_heights)
        return 0;
    *tile = g->hm_tile;
    *tw = g->hm_w;
    *th = g->hm_h;
    *water = g->hm_water;
    return 1;
}

wf_fix wf_grid_corner_height(const wf_grid *g, int cx, int cy)
{
    if (!g->hm_heights || cx < 0 || cy < 0 || cx > g->hm_w || cy > g->hm_h)
        return 0;
    return corner(g, cx, cy);
}
