/* graph_build.c - sectors and portals from a navcell grid: a flood fill
 * into regions, a cover of each region by boxes of one surface (greedy
 * boxes, or the leaves of a region quadtree), and portals along the
 * boxes' shared edges (method in wayfinder.h). */
#include <stdlib.h>
#include <string.h>

#include "wayfinder.h"

void wf_graph_boxes_free(wf_graph_boxes *b)
{
    if (!b) return;
    free(b->box);
    free(b->region);
    free(b->portal);
    memset(b, 0, sizeof *b);
}

typedef struct ibuf {
    int *v;
    size_t n, cap;
} ibuf;

static int push(ibuf *b, int x)
{
    if (b->n == b->cap) {
        size_t c = b->cap ? 2 * b->cap : 256;
        int *v = realloc(b->v, c * sizeof *v);
        if (!v) return 0;
        b->v = v;
        b->cap = c;
    }
    b->v[b->n++] = x;
    return 1;
}

/* Portals along one edge line of box k: cells (x, y) for t in [t0, t1)
 * outside the box; vertical when the line is x = fixed. */
static int edge_portals(ibuf *out, const int *cellbox, int w, int k, int line,
                        int t0, int t1, int vertical, int max_span)
{
    int t = t0;
    while (t < t1) {
        int c = vertical ? cellbox[(size_t)t * w + line] : cellbox[(size_t)line * w + t];
        int e = t + 1;
        while (e < t1 && e - t < max_span &&
               (vertical ? cellbox[(size_t)e * w + line]
                         : cellbox[(size_t)line * w + e]) == c)
            e++;
        if (c >= 0) {
            int rec[6] = { k, c, 0, 0, 0, 0 };
            if (vertical) {
                rec[2] = line; rec[3] = t; rec[4] = line; rec[5] = e;
            } else {
                rec[2] = t; rec[3] = line; rec[4] = e; rec[5] = line;
            }
            for (int i = 0; i < 6; i++)
                if (!push(out, rec[i])) return 0;
        }
        t = e;
    }
    return 1;
}

/* Marks the box [x, x1) x [y, y1) as box nbox and records it. */
static int add_box(ibuf *boxes, ibuf *regs, int *cellbox, const int *region,
                   int w, int x, int y, int x1, int y1, int sf, int nbox)
{
    for (int cy = y; cy < y1; cy++)
        for (int cx = x; cx < x1; cx++)
            cellbox[(size_t)cy * w + cx] = nbox;
    int rec[5] = { x, y, x1, y1, sf };
    for (int k = 0; k < 5; k++)
        if (!push(boxes, rec[k])) return 0;
    return push(regs, region[(size_t)y * w + x]);
}

typedef struct build {
    int w, h;
    const uint8_t *surface;
    int *region, *cellbox;
    ibuf boxes, regs;
    int nbox;
    int max_box;
} build;

/* Greedy: grow right along the row, then down while the row segment is. */
static int boxes_greedy(build *b)
{
    int w = b->w, h = b->h;
    const uint8_t *surface = b->surface;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            if (b->region[i] < 0 || b->cellbox[i] >= 0) continue;
            int sf = surface ? surface[i] : 0;
#define FREE_CELL(cx, cy) (b->region[(size_t)(cy) * w + (cx)] >= 0 && \
        b->cellbox[(size_t)(cy) * w + (cx)] < 0 && \
        (!surface || surface[(size_t)(cy) * w + (cx)] == sf))
            int x1 = x + 1;
            while (x1 < w && x1 - x < b->max_box && FREE_CELL(x1, y)) x1++;
            int y1 = y + 1;
            while (y1 < h && y1 - y < b->max_box) {
                int okrow = 1;
                for (int cx = x; cx < x1 && okrow; cx++)
                    okrow = FREE_CELL(cx, y1);
                if (!okrow) break;
                y1++;
            }
#undef FREE_CELL
            if (!add_box(&b->boxes, &b->regs, b->cellbox, b->region, w, x, y, x1, y1, sf,
                         b->nbox++))
                return 0;
        }
    return 1;
}

/* 1: every navcell of the clipped square is passable with surface *sf;
 * 0: none is passable; -1: mixed. */
static int uniform(const build *b, int x0, int y0, int x1, int y1, int *sf)
{
    size_t first = (size_t)y0 * b->w + x0;
    int pass = b->region[first] >= 0;
    *sf = b->surface ? b->surface[first] : 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            size_t i = (size_t)y * b->w + x;
            if ((b->region[i] >= 0) != pass) return -1;
            if (pass && b->surface && b->surface[i] != *sf) return -1;
        }
    return pass;
}

/* Region quadtree: a square that is not uniform splits into four, in the
 * order north-west, north-east, south-west, south-east. */
static int quad(build *b, int x, int y, int size)
{
    if (x >= b->w || y >= b->h) return 1;
    int x1 = x + size < b->w ? x + size : b->w;
    int y1 = y + size < b->h ? y + size : b->h;
    int sf;
    int u = uniform(b, x, y, x1, y1, &sf);
    if (u == 0) return 1;
    if (u == 1 && size <= b->max_box)
        return add_box(&b->boxes, &b->regs, b->cellbox, b->region, b->w, x, y, x1, y1, sf,
                       b->nbox++);
    int half = size / 2;
    return quad(b, x, y, half) && quad(b, x + half, y, half) &&
           quad(b, x, y + half, half) && quad(b, x + half, y + half, half);
}

static wf_status boxes_of(const wf_grid *g, int cls, const uint8_t *surface,
                          int max_span, int max_box, int use_quadtree,
                          wf_graph_boxes *out)
{
    if (!g || !out || cls < 0 || cls >= wf_grid_class_count(g) || max_span < 1 ||
        max_box < 1)
        return WF_ERR_ARG;
    memset(out, 0, sizeof *out);
    int w = wf_grid_width(g), h = wf_grid_height(g);
    size_t n = (size_t)w * (size_t)h;
    if (surface)
        for (size_t i = 0; i < n; i++)
            if (surface[i] >= WF_GRAPH_MAX_SURFACES) return WF_ERR_ARG;
    build b;
    memset(&b, 0, sizeof b);
    b.w = w;
    b.h = h;
    b.surface = surface;
    b.max_box = max_box;
    b.region = malloc(n * sizeof *b.region);
    b.cellbox = malloc(n * sizeof *b.cellbox);
    int *stack = malloc(n * sizeof *stack);
    ibuf ports = { 0, 0, 0 };
    wf_status st = WF_ERR_NOMEM;
    if (!b.region || !b.cellbox || !stack) goto done;
    for (size_t i = 0; i < n; i++) {
        int x = (int)(i % (size_t)w), y = (int)(i / (size_t)w);
        b.region[i] = wf_grid_is_passable(g, x, y, cls) ? -1 : -2;
        b.cellbox[i] = -1;
    }
    /* regions: 4-connected flood fill in row-major seed order */
    int nreg = 0;
    for (size_t i = 0; i < n; i++) {
        if (b.region[i] != -1) continue;
        size_t top = 0;
        stack[top++] = (int)i;
        b.region[i] = nreg;
        while (top > 0) {
            int c = stack[--top];
            int x = c % w, y = c / w;
            int nb[4] = { x > 0 ? c - 1 : -1, x + 1 < w ? c + 1 : -1,
                          y > 0 ? c - w : -1, y + 1 < h ? c + w : -1 };
            for (int k = 0; k < 4; k++)
                if (nb[k] >= 0 && b.region[nb[k]] == -1) {
                    b.region[nb[k]] = nreg;
                    stack[top++] = nb[k];
                }
        }
        nreg++;
    }
    if (use_quadtree) {
        int size = 1;
        while (size < w || size < h) size *= 2;
        if (!quad(&b, 0, 0, size)) goto done;
    } else if (!boxes_greedy(&b)) {
        goto done;
    }
    /* portals: right edge then bottom edge of each box, in box order */
    for (int k = 0; k < b.nbox; k++) {
        const int *bx = &b.boxes.v[5 * k];
        if (bx[2] < w &&
            !edge_portals(&ports, b.cellbox, w, k, bx[2], bx[1], bx[3], 1, max_span))
            goto done;
        if (bx[3] < h &&
            !edge_portals(&ports, b.cellbox, w, k, bx[3], bx[0], bx[2], 0, max_span))
            goto done;
    }
    out->nboxes = b.nbox;
    out->nregions = nreg;
    out->nportals = (int)(ports.n / 6);
    out->box = b.boxes.v;
    out->region = b.regs.v;
    out->portal = ports.v;
    b.boxes.v = b.regs.v = ports.v = NULL;
    if (!out->box) out->box = malloc(sizeof(int));
    if (!out->region) out->region = malloc(sizeof(int));
    if (!out->portal) out->portal = malloc(sizeof(int));
    st = (out->box && out->region && out->portal) ? WF_OK : WF_ERR_NOMEM;
    if (st != WF_OK) wf_graph_boxes_free(out);
done:
    free(b.region);
    free(b.cellbox);
    free(stack);
    free(b.boxes.v);
    free(b.regs.v);
    free(ports.v);
    return st;
}

wf_status wf_graph_boxes_from_grid(const wf_grid *g, int cls,
                                   const uint8_t *surface, int max_span,
                                   int max_box, wf_graph_boxes *out)
{
    return boxes_of(g, cls, surface, max_span, max_box, 0, out);
}

wf_status wf_graph_quadtree_from_grid(const wf_grid *g, int cls,
                                      const uint8_t *surface, int max_span,
                                      int max_box, wf_graph_boxes *out)
{
    return boxes_of(g, cls, surface, max_span, max_box, 1, out);
}

wf_status wf_graph_boxes_in_rects(const wf_grid *g, int cls, const uint8_t *surface,
                                  int max_box, const int *rects, int nrects,
                                  wf_graph_boxes *out)
{
    if (!g || !out || cls < 0 || cls >= wf_grid_class_count(g) || max_box < 1 ||
        nrects < 0 || (nrects && !rects))
        return WF_ERR_ARG;
    memset(out, 0, sizeof *out);
    int w = wf_grid_width(g), h = wf_grid_height(g);
    int bx0 = w, by0 = h, bx1 = 0, by1 = 0;
    for (int r = 0; r < nrects; r++) {
        const int *q = &rects[4 * r];
        if (q[0] < 0 || q[1] < 0 || q[2] > w || q[3] > h || q[0] >= q[2] || q[1] >= q[3])
            return WF_ERR_ARG;
        if (q[0] < bx0) bx0 = q[0];
        if (q[1] < by0) by0 = q[1];
        if (q[2] > bx1) bx1 = q[2];
        if (q[3] > by1) by1 = q[3];
    }
    if (surface)
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
            if (surface[i] >= WF_GRAPH_MAX_SURFACES) return WF_ERR_ARG;
    ibuf boxes = { 0, 0, 0 };
    if (nrects == 0) {
        out->box = malloc(sizeof(int));
        out->region = malloc(sizeof(int));
        out->portal = malloc(sizeof(int));
        if (out->box && out->region && out->portal) return WF_OK;
        wf_graph_boxes_free(out);
        return WF_ERR_NOMEM;
    }
    int bw = bx1 - bx0, bh = by1 - by0;
    /* state per navcell of the bounding box: -1 outside the mask or
     * blocked, 0 free, 1 covered */
    signed char *st = malloc((size_t)bw * (size_t)bh);
    if (!st) return WF_ERR_NOMEM;
    memset(st, -1, (size_t)bw * (size_t)bh);
    for (int r = 0; r < nrects; r++) {
        const int *q = &rects[4 * r];
        for (int y = q[1]; y < q[3]; y++)
            for (int x = q[0]; x < q[2]; x++)
                st[(size_t)(y - by0) * bw + (x - bx0)] =
                    wf_grid_is_passable(g, x, y, cls) ? 0 : -1;
    }
    int nbox = 0;
    wf_status res = WF_ERR_NOMEM;
    for (int y = 0; y < bh; y++)
        for (int x = 0; x < bw; x++) {
            if (st[(size_t)y * bw + x] != 0) continue;
            size_t gi = (size_t)(y + by0) * w + (size_t)(x + bx0);
            int sf = surface ? surface[gi] : 0;
#define FREE_AT(cx, cy) (st[(size_t)(cy) * bw + (cx)] == 0 && (!surface || \
        surface[(size_t)((cy) + by0) * w + (size_t)((cx) + bx0)] == sf))
            int x1 = x + 1;
            while (x1 < bw && x1 - x < max_box && FREE_AT(x1, y)) x1++;
            int y1 = y + 1;
            while (y1 < bh && y1 - y < max_box) {
                int okrow = 1;
                for (int cx = x; cx < x1 && okrow; cx++) okrow = FREE_AT(cx, y1);
                if (!okrow) break;
                y1++;
            }
#undef FREE_AT
            for (int cy = y; cy < y1; cy++)
                for (int cx = x; cx < x1; cx++) st[(size_t)cy * bw + cx] = 1;
            int rec[5] = { x + bx0, y + by0, x1 + bx0, y1 + by0, sf };
            for (int k = 0; k < 5; k++)
                if (!push(&boxes, rec[k])) goto done;
            nbox++;
        }
    out->nboxes = nbox;
    out->box = boxes.v ? boxes.v : malloc(sizeof(int));
    boxes.v = NULL;
    out->region = malloc(sizeof(int));
    out->portal = malloc(sizeof(int));
    res = (out->box && out->region && out->portal) ? WF_OK : WF_ERR_NOMEM;
    if (res != WF_OK) wf_graph_boxes_free(out);
done:
    free(st);
    free(boxes.v);
    return res;
}

/* The region quadtree again, visiting only the squares that meet one of
 * the rectangles: what an incremental update of a quadtree graph
 * re-covers. Leaves depend only on their own navcells, so a leaf met here
 * is the leaf a full build makes. */
typedef struct quad_in {
    const wf_grid *g;
    int cls, w, h, max_box;
    const uint8_t *surface;
    const int *rects;
    int nrects;
    ibuf boxes;
} quad_in;

static int meets(const quad_in *q, int x0, int y0, int x1, int y1)
{
    for (int r = 0; r < q->nrects; r++) {
        const int *c = &q->rects[4 * r];
        if (c[0] < x1 && x0 < c[2] && c[1] < y1 && y0 < c[3]) return 1;
    }
    return 0;
}

static int quad_part(quad_in *q, int x, int y, int size)
{
    if (x >= q->w || y >= q->h) return 1;
    int x1 = x + size < q->w ? x + size : q->w;
    int y1 = y + size < q->h ? y + size : q->h;
    if (!meets(q, x, y, x1, y1)) return 1;
    int pass = wf_grid_is_passable(q->g, x, y, q->cls);
    int sf = q->surface ? q->surface[(size_t)y * q->w + x] : 0;
    int mixed = 0;
    for (int cy = y; cy < y1 && !mixed; cy++)
        for (int cx = x; cx < x1; cx++) {
            int p = wf_grid_is_passable(q->g, cx, cy, q->cls);
            if (p != pass || (p && q->surface && q->surface[(size_t)cy * q->w + cx] != sf)) {
                mixed = 1;
                break;
            }
        }
    if (!mixed && !pass) return 1;
    if (!mixed && size <= q->max_box) {
        int rec[5] = { x, y, x1, y1, sf };
        for (int k = 0; k < 5; k++)
            if (!push(&q->boxes, rec[k])) return 0;
        return 1;
    }
    int half = size / 2;
    return quad_part(q, x, y, half) && quad_part(q, x + half, y, half) &&
           quad_part(q, x, y + half, half) && quad_part(q, x + half, y + half, half);
}

wf_status wf_graph_quadtree_in_rects(const wf_grid *g, int cls, const uint8_t *surface,
                                     int max_box, const int *rects, int nrects,
                                     wf_graph_boxes *out)
{
    if (!g || !out || cls < 0 || cls >= wf_grid_class_count(g) || max_box < 1 ||
        nrects < 0 || (nrects && !rects))
        return WF_ERR_ARG;
    memset(out, 0, sizeof *out);
    quad_in q;
    memset(&q, 0, sizeof q);
    q.g = g;
    q.cls = cls;
    q.w = wf_grid_width(g);
    q.h = wf_grid_height(g);
    q.max_box = max_box;
    q.surface = surface;
    q.rects = rects;
    q.nrects = nrects;
    for (int r = 0; r < nrects; r++) {
        const int *c = &rects[4 * r];
        if (c[0] < 0 || c[1] < 0 || c[2] > q.w || c[3] > q.h || c[0] >= c[2] || c[1] >= c[3])
            return WF_ERR_ARG;
    }
    if (surface)
        for (size_t i = 0; i < (size_t)q.w * (size_t)q.h; i++)
            if (surface[i] >= WF_GRAPH_MAX_SURFACES) return WF_ERR_ARG;
    int size = 1;
    while (size < q.w || size < q.h) size *= 2;
    if (!quad_part(&q, 0, 0, size)) {
        free(q.boxes.v);
        return WF_ERR_NOMEM;
    }
    out->nboxes = (int)(q.boxes.n / 5);
    out->box = q.boxes.v ? q.boxes.v : malloc(sizeof(int));
    out->region = malloc(sizeof(int));
    out->portal = malloc(sizeof(int));
    if (out->box && out->region && out->portal) return WF_OK;
    wf_graph_boxes_free(out);
    return WF_ERR_NOMEM;
}
