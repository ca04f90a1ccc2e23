/* rectplan_internal.h - arithmetic shared by the rectangle planner's files
 * (rectplan_room.c, rectplan.c, rectplan_smooth.c); not part of the API. */
#ifndef WF_RECTPLAN_INTERNAL_H
#define WF_RECTPLAN_INTERNAL_H

#include "fixmath.h"

/* Euclidean length of (dx, dy) in the units of dx, rounded down / up.
 * |dx|, |dy| < 2^31 keeps dx*dx + dy*dy inside 64 bits. */
static inline int64_t wf_rectplan_len_floor(int64_t dx, int64_t dy)
{
    return (int64_t)wf_isqrt64((uint64_t)(dx * dx) + (uint64_t)(dy * dy));
}

static inline int64_t wf_rectplan_len_ceil(int64_t dx, int64_t dy)
{
    uint64_t d2 = (uint64_t)(dx * dx) + (uint64_t)(dy * dy);
    uint64_t r = wf_isqrt64(d2);
    return (int64_t)(r * r < d2 ? r + 1 : r);
}

static inline wf_fix wf_rectplan_clamp(wf_fix v, wf_fix lo, wf_fix hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Smoothing by perturbation (rectplan_smooth.c). The chain is n points; point
 * i (0 < i < n-1, and n-1 when seg[n-1] is not a single point) may move
 * along the axis-aligned segment seg[i]; leg i (from point i to i+1)
 * costs its length times factor[i]. Records the chain after each step size
 * into stages (max_stages x n points) and their steps. Returns the number
 * of stages written. */
typedef struct wf_rsmooth {
    int n;
    wf_fix *x, *y;
    const wf_rect *seg;
    const uint32_t *factor;
    wf_fix step, min_step;
    wf_fix *stage_x, *stage_y, *stage_step;
    int max_stages;
} wf_rsmooth;

int wf_rectplan_smooth(const wf_rsmooth *s);

/* Number of stages wf_rectplan_smooth records for these steps. */
int wf_rectplan_smooth_levels(wf_fix step, wf_fix min_step);

#endif
