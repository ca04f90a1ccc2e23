/* placement.c - building placement: whether a footprint, over-estimated by
 * a margin, lies wholly on navcells the class accepts. */
#include "wayfinder.h"

wf_status wf_grid_check_building(const wf_grid *g, const wf_shape *fp, int cls,
                                 wf_fix margin, int *ok, int *bx, int *by)
{
    *ok = 0;
    if (!g || !fp || cls < 0 || cls >= wf_grid_class_count(g) || margin < 0
        || margin > WF_FIX(64) || fp->hw < 0 || fp->hh < 0
        || (int64_t)fp->hw + margin > WF_FIX(WF_MAX_SIDE)
        || (int64_t)fp->hh + margin > WF_FIX(WF_MAX_SIDE))
        return WF_ERR_ARG;
    wf_goal grown;
    wf_goal_square(&grown, fp->cx, fp->cy, fp->hw + margin, fp->hh + margin,
                   fp->ux, fp->uy);
    int x0, y0, x1, y1;
    wf_goal_bounds(&grown, &x0, &y0, &x1, &y1);
    for (int j = y0; j <= y1; j++)
        for (int i = x0; i <= x1; i++)
            if (wf_goal_contains(&grown, i, j) && !wf_grid_is_passable(g, i, j, cls)) {
                if (bx) *bx = i;
                if (by) *by = j;
                return WF_OK;
            }
    *ok = 1;
    return WF_OK;
}
