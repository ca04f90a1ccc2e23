/* grid_internal.h - the grid's own structure, read by the files that work
 * on its bit planes (grid, rasterizing, regions, map loading, search); not
 * part of the API. Passability is kept as bit planes (one per class) so
 * scanners read 64 navcells per load. */
#ifndef WF_GRID_INTERNAL_H
#define WF_GRID_INTERNAL_H

#include "fixmath.h"

#define WF_CHANGE_LOG 16

typedef struct wf_obstruction {
    uint32_t id;
    wf_shape shape;
    int bx0, by0, bx1, by1;     /* navcell box it may block, any class */
} wf_obstruction;

struct wf_grid {
    int w, h, nclasses;
    wf_class_def classes[WF_MAX_CLASSES];
    int max_clearance;
    int border;
    wf_border_shape border_shape;
    int32_t *row_lo, *row_hi;   /* per row: terrain allowed for x in [lo, hi] */
    int words;                  /* uint64 words per padded row */
    size_t plane_words;         /* words per plane, (h + 2) rows */
    uint64_t *terrain;          /* nclasses planes: 1 = terrain passable */
    uint64_t *pass;             /* nclasses planes: 1 = passable (derived) */
    int twords;                 /* words per padded column of tpass */
    size_t tplane_words;        /* words per transposed plane, (w + 2) cols */
    uint64_t *tpass;            /* pass transposed (column-major), so that
                                   vertical scans read 64 navcells a load */
    uint8_t *cost;              /* NULL while every cost is 1 */
    uint32_t cost_hist[WF_MAX_COST + 1];
    wf_obstruction *obs;        /* sorted by id */
    size_t nobs, obs_cap;
    uint32_t next_id;
    int batch_depth;
    int dirty;                  /* a region is pending inside a batch */
    int dx0, dy0, dx1, dy1;
    uint64_t version;
    uint64_t serial;            /* unique in the process (wf_grid_create) */
    /* change log: the last WF_CHANGE_LOG recomputed regions */
    struct { uint64_t version; int x0, y0, x1, y1; } changes[WF_CHANGE_LOG];
    unsigned nchanges;          /* total ever logged */
    /* heightmap terrain (terrain.c); hm_tile 0 while there is none */
    int hm_tile, hm_w, hm_h;    /* navcells per tile side; tiles across, down */
    int32_t *hm_heights;        /* (hm_w + 1) * (hm_h + 1) corners, Q16.16 */
    wf_fix hm_water;
    int hm_limited;             /* some class has WF_LIMIT_* bits */
    uint64_t *hm_ok;            /* nclasses planes, only when hm_limited:
                                   1 = the class's limits allow the navcell */
};


static inline uint64_t *wf_plane_row(const wf_grid *g, const uint64_t *planes,
                                     int cls, int y)
{
    return (uint64_t *)planes + (size_t)cls * g->plane_words
           + (size_t)(y + 1) * (size_t)g->words;
}

/* Column x of a transposed plane: bit (y + 1) is navcell (x, y). Columns
 * -1 and width exist and are all zero. */
static inline uint64_t *wf_plane_col(const wf_grid *g, const uint64_t *planes,
                                     int cls, int x)
{
    return (uint64_t *)planes + (size_t)cls * g->tplane_words
           + (size_t)(x + 1) * (size_t)g->twords;
}

static inline int wf_bit(const uint64_t *row, int x)
{
    unsigned b = (unsigned)(x + 1);
    return (int)((row[b >> 6] >> (b & 63)) & 1u);
}

static inline int wf_passable_fast(const wf_grid *g, int cls, int x, int y)
{
    return wf_bit(wf_plane_row(g, g->pass, cls, y), x);
}
/* raster.c */
/* The distance (Q16.16) within which shape s blocks a navcell for a class
 * of clearance `clearance` navcells: never below (3 - min(w, h)) / 2, so
 * narrow shapes stay solid at every rotation. */
wf_fix wf_effective_clearance(const wf_shape *s, int clearance);
/* The navcell box [*x0, *x1] x [*y0, *y1] (unclipped) that shape s, grown
 * by `extra`, may touch. */
void wf_shape_box(const wf_shape *s, wf_fix extra, int *x0, int *y0, int *x1,
                  int *y1);
/* Writes 1 into blk (row-major over the region [rx0, rx1] x [ry0, ry1])
 * for every navcell that shape s blocks for a class of clearance
 * `clearance`. Returns WF_ERR_NOMEM or WF_OK. */
wf_status wf_rasterize(const wf_shape *s, int clearance, uint8_t *blk,
                       int rx0, int ry0, int rx1, int ry1);

/* grid.c */
wf_status wf_grid_update_region(wf_grid *g, int x0, int y0, int x1, int y1);

/* terrain.c */
/* Writes the hm_ok bits of every class over [x0, x1] x [y0, y1] (clipped)
 * into planes (hm_ok or a copy of its layout) from the current heightmap
 * (or flat and dry without one). Returns 1 when a bit changed. */
int wf_terrain_fill(const wf_grid *g, uint64_t *planes, int x0, int y0, int x1,
                    int y1);

#endif
