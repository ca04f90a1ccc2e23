/* avoid.h - local avoidance for units (avoid.c): a sampled velocity
 * obstacle in Q16.16 fixed point, called by the unit simulation (units.c)
 * when a simulation is made with avoidance on.
 *
 * How it works. Each tick a moving unit has a preferred velocity p (towards
 * its next waypoint, at most its speed). avoid.c makes a fixed list of
 * candidate velocities from p: p turned by k * 22.5 degrees for k = 0, +1,
 * -1, +2, -2, ..., +4, -4 (positive turns are clockwise as the grid is
 * drawn, y growing downward: the mover's right; never more than a right
 * angle, so a unit never backs away before another and lets it push
 * through: it stops and the stall rule of units.c decides who gives
 * way), each at the full and at half the preferred speed, and the zero
 * velocity last; 19 in all. Each
 * candidate v gets a score, lower is better:
 *
 *   score = |v - p| + 4 * |p| / (t + 1)   (+ |p| / 16 for a left turn)
 *
 * where t is the earliest time of contact, within the horizon H (16 ticks,
 * or the ticks to the end of the path when fewer; Q16.16 ticks), between the unit moving at v and any neighbour moving at
 * its own last velocity, against the neighbour's square grown by both
 * radii and WF_AVOID_MARGIN (1/8, the spawning margin), or by both radii
 * alone when the unit already stands within that margin (so it may still
 * close in on a goal beside a neighbour); no contact within H adds nothing.
 * So a candidate that keeps clear wins over one that meets someone soon,
 * stopping (score |p|) wins over meeting someone within three ticks, and
 * between equals the right turn and then the
 * lower candidate index win: the documented, deterministic tie-break that
 * makes two units meeting head-on both keep right instead of stepping the
 * same way. The contact time is exact: slab entry and exit times compared
 * as fractions with 64-bit products, one integer division at the end.
 *
 * The velocity obstacle only ranks; safety is the swept rule's. units.c
 * tries the candidates best first and takes the first whose move passes
 * wf_sweep_grid for the unit's class, keeps the next waypoint in sight,
 * and meets no other unit's grown square, so the invariant "never overlap,
 * never on blocked ground" holds whatever the ranking says.
 *
 * Every value is an integer; the result is the same bit for bit on every
 * compiler, optimisation level and Lua version. */
#ifndef WF_AVOID_H
#define WF_AVOID_H

#include "wayfinder.h"

#define WF_AVOID_CANDIDATES 19      /* velocities ranked per query */
#define WF_AVOID_MAX_NEIGHBOURS 16  /* nearest neighbours considered */
#define WF_AVOID_HORIZON 16         /* [ticks] look-ahead for contacts */
#define WF_AVOID_MARGIN (WF_FIX_ONE / 8)  /* [fixed] kept beyond touching */

/* A neighbour: its position, the half size of its square grown by the
 * mover's radius, and its velocity of the last tick. */
typedef struct wf_avoid_other {
    wf_fix x, y;          /* [fixed] position */
    wf_fix half;          /* [fixed] r_mover + r_other, > 0 */
    wf_fix vx, vy;        /* [fixed per tick] its last displacement */
} wf_avoid_other;

/* The earliest time in [0, horizon] [Q16.16 ticks] at which a point
 * starting at the origin and moving (wx, wy) per tick meets the closed
 * square of half size `half` centred on (px, py); -1 when it does not
 * within horizon ticks. A point already inside the square meets it at 0
 * when a tick's move brings it nearer the centre in Chebyshev distance
 * (max(|dx|, |dy|), the square's own), never otherwise.
 * |px|, |py|, |half| at most 2^24; |wx|, |wy| at most 2^22. */
int64_t wf_avoid_contact(int64_t px, int64_t py, int64_t wx, int64_t wy,
                         int64_t half, int64_t horizon);

/* Ranks the candidates for a unit at (x, y) with preferred velocity
 * (px, py) among n neighbours (n <= WF_AVOID_MAX_NEIGHBOURS), looking
 * `horizon` ticks ahead (1 to WF_AVOID_HORIZON; other values mean
 * WF_AVOID_HORIZON; units.c passes the ticks to the end of the path when
 * that is nearer, so a unit about to stop does not fear what lies beyond
 * its goal): writes the
 * candidate velocities, best first, as x, y pairs into out (room for
 * 2 * WF_AVOID_CANDIDATES values) and returns how many (1 when p is zero:
 * only the zero velocity). *clear gets 1 when the preferred velocity
 * itself meets no neighbour within the horizon. */
int wf_avoid_rank(wf_fix x, wf_fix y, wf_fix px, wf_fix py,
                  const wf_avoid_other *nb, int n, int horizon, wf_fix *out,
                  int *clear);

#endif
