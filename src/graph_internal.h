/* graph_internal.h - the layout of wf_graph shared by graph.c (building,
 * lookup) and graph_search.c (the solver). Not part of the public API. */
#ifndef WF_GRAPH_INTERNAL_H
#define WF_GRAPH_INTERNAL_H

#include "wayfinder.h"

struct wf_graph {
    int ns, np;
    wf_graph_sector *sec;
    wf_graph_portal *por;
    wf_fix *anchor;          /* [4 * np]: a's anchor x, y, b's anchor x, y */
    int *adj_start;          /* [ns + 1] CSR: portals touching each sector */
    int *adj;                /* portal indices, ascending per sector */
    int *links;              /* portals without WF_PORTAL_WALK, ascending */
    int nlinks;
    /* bucket grid for wf_graph_locate */
    wf_fix bx0, by0;         /* origin */
    int64_t bside;           /* bucket side [fixed] */
    int bw, bh;
    int *bstart;             /* [bw * bh + 1] */
    int *bsec;
    uint64_t version;
};

/* ceil and floor of the Euclidean distance in fixed units. */
int64_t wf_graph_dist_ceil(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by);
int64_t wf_graph_dist_floor(wf_fix ax, wf_fix ay, wf_fix bx, wf_fix by);

#endif
