/* graph_build.c - sectors and portals from a navcell grid: a flood fill
 * into regions, a greedy cover of each region by boxes of one surface,
 * and portals along the boxes' shared edges (method in wayfinder.h). */
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

wf_status wf_graph_boxes_from_grid(const wf_grid *g, int cls,
                                   const uint8_t *surface, int max_span,
                                   wf_graph_boxes *out)
{
    if (!g || !out || cls < 0 || cls >= wf_grid_class_count(g) || max_span < 1)
        return WF_ERR_ARG;
    memset(out, 0, sizeof *out);
    int w = wf_grid_width(g), h = wf_grid_height(g);
    size_t n = (size_t)w * (size_t)h;
    if (surface)
        for (size_t i = 0; i < n; i++)
            if (surface[i] >= WF_GRAPH_MAX_SURFACES) return WF_ERR_ARG;
    int *region = malloc(n * sizeof *region);
    int *cellbox = malloc(n * sizeof *cellbox);
    int *stack = malloc(n * sizeof *stack);
    ibuf boxes = { 0, 0, 0 }, regs = { 0, 0, 0 }, ports = { 0, 0, 0 };
    wf_status st = WF_ERR_NOMEM;
    if (!region || !cellbox || !stack) goto done;
    for (size_t i = 0; i < n; i++) {
        int x = (int)(i % (size_t)w), y = (int)(i / (size_t)w);
        region[i] = wf_grid_is_passable(g, x, y, cls) ? -1 : -2;
        cellbox[i] = -1;
    }
    /* regions: 4-connected flood fill in row-major seed order */
    int nreg = 0;
    for (size_t i = 0; i < n; i++) {
        if (region[i] != -1) continue;
        size_t top = 0;
        stack[top++] = (int)i;
        region[i] = nreg;
        while (top > 0) {
            int c = stack[--top];
            int x = c % w, y = c / w;
            int nb[4] = { x > 0 ? c - 1 : -1, x + 1 < w ? c + 1 : -1,
                          y > 0 ? c - w : -1, y + 1 < h ? c + w : -1 };
            for (int k = 0; k < 4; k++)
                if (nb[k] >= 0 && region[nb[k]] == -1) {
                    region[nb[k]] = nreg;
                    stack[top++] = nb[k];
                }
        }
        nreg++;
    }
    /* boxes: grow right, then down */
    int nbox = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            if (region[i] < 0 || cellbox[i] >= 0) continue;
            int sf = surface ? surface[i] : 0;
#define FREE_CELL(cx, cy) (region[(size_t)(cy) * w + (cx)] >= 0 && \
        cellbox[(size_t)(cy) * w + (cx)] < 0 && \
        (!surface || surface[(size_t)(cy) * w + (cx)] == sf))
            int x1 = x + 1;
            while (x1 < w && FREE_CELL(x1, y)) x1++;
            int y1 = y + 1;
            while (y1 < h) {
                int okrow = 1;
                for (int cx = x; cx < x1 && okrow; cx++)
                    okrow = FREE_CELL(cx, y1);
                if (!okrow) break;
                y1++;
            }
#undef FREE_CELL
            for (int cy = y; cy < y1; cy++)
                for (int cx = x; cx < x1; cx++)
                    cellbox[(size_t)cy * w + cx] = nbox;
            int rec[5] = { x, y, x1, y1, sf };
            for (int k = 0; k < 5; k++)
                if (!push(&boxes, rec[k])) goto done;
            if (!push(&regs, region[i])) goto done;
            nbox++;
        }
    /* portals: right edge then bottom edge of each box, in box order */
    for (int k = 0; k < nbox; k++) {
        const int *b = &boxes.v[5 * k];
        if (b[2] < w && !edge_portals(&ports, cellbox, w, k, b[2], b[1], b[3], 1, max_span))
            goto done;
        if (b[3] < h && !edge_portals(&ports, cellbox, w, k, b[3], b[0], b[2], 0, max_span))
            goto done;
    }
    out->nboxes = nbox;
    out->nregions = nreg;
    out->nportals = (int)(ports.n / 6);
    out->box = boxes.v;
    out->region = regs.v;
    out->portal = ports.v;
    boxes.v = regs.v = ports.v = NULL;
    if (!out->box) out->box = malloc(sizeof(int));
    if (!out->region) out->region = malloc(sizeof(int));
    if (!out->portal) out->portal = malloc(sizeof(int));
    st = (out->box && out->region && out->portal) ? WF_OK : WF_ERR_NOMEM;
    if (st != WF_OK) wf_graph_boxes_free(out);
done:
    free(region);
    free(cellbox);
    free(stack);
    free(boxes.v);
    free(regs.v);
    free(ports.v);
    return st;
}
