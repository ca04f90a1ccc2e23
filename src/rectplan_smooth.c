/* rectplan_smooth.c - smoothing by perturbation: each point of a chain slides
 * along its shared edge by a step both ways while that lowers the route's
 * cost; then the step halves. Every point stays on its edge, so every leg
 * stays inside the node it crosses. */
#include "rectplan_internal.h"

#define MAX_PASSES 1000000   /* per step size; each accepted move lowers an
                                integer cost, so this is never reached */

int wf_rectplan_smooth_levels(wf_fix step, wf_fix min_step)
{
    int n = 0;
    for (wf_fix s = step; s >= min_step && s > 0; s /= 2)
        n++;
    return n;
}

/* Cost of the legs that meet point i when it sits at (x, y). */
static int64_t local_cost(const wf_rsmooth *s, int i, wf_fix x, wf_fix y)
{
    int64_t c = 0;
    if (i > 0)
        c += wf_rectplan_len_floor((int64_t)x - s->x[i - 1], (int64_t)y - s->y[i - 1])
             * (int64_t)s->factor[i - 1];
    if (i + 1 < s->n)
        c += wf_rectplan_len_floor((int64_t)s->x[i + 1] - x, (int64_t)s->y[i + 1] - y)
             * (int64_t)s->factor[i];
    return c;
}

static wf_fix slide(wf_fix v, int dir, wf_fix step, wf_fix lo, wf_fix hi)
{
    int64_t t = (int64_t)v + (int64_t)dir * step;
    return (wf_fix)(t < lo ? lo : t > hi ? hi : t);
}

int wf_rectplan_smooth(const wf_rsmooth *s)
{
    int stages = 0;
    for (wf_fix step = s->step; step >= s->min_step && step > 0; step /= 2) {
        int improved = 1;
        for (int pass = 0; improved && pass < MAX_PASSES; pass++) {
            improved = 0;
            /* points in chain order; + before - */
            for (int i = 1; i < s->n; i++) {
                const wf_rect *g = s->seg + i;
                int vertical = g->x0 == g->x1;
                if (g->x0 == g->x1 && g->y0 == g->y1)
                    continue;
                int64_t cur = local_cost(s, i, s->x[i], s->y[i]);
                for (int dir = 1; dir >= -1; dir -= 2) {
                    wf_fix x = s->x[i], y = s->y[i];
                    if (vertical)
                        y = slide(y, dir, step, g->y0, g->y1);
                    else
                        x = slide(x, dir, step, g->x0, g->x1);
                    if (x == s->x[i] && y == s->y[i])
                        continue;
                    int64_t c = local_cost(s, i, x, y);
                    if (c < cur) {
                        s->x[i] = x;
                        s->y[i] = y;
                        cur = c;
                        improved = 1;
                    }
                }
            }
        }
        if (stages < s->max_stages) {
            for (int i = 0; i < s->n; i++) {
                s->stage_x[(size_t)stages * (size_t)s->n + (size_t)i] = s->x[i];
                s->stage_y[(size_t)stages * (size_t)s->n + (size_t)i] = s->y[i];
            }
            s->stage_step[stages] = step;
            stages++;
        }
    }
    return stages;
}
