/* orca.h - optimal reciprocal collision avoidance for units (orca.c), in
 * Q16.16 fixed point, called by the unit simulation (units.c) when a
 * simulation is made with avoidance = "orca".
 *
 * How it works. Each neighbour B of a moving unit A, seen as a disc of
 * radius R = r_A + r_B (the disc inside the two units' grown square),
 * makes one half-plane of velocities: the velocities that, if A keeps
 * them and B keeps its last one, do not bring the two within R of each
 * other in the next T ticks (the time horizon). The half-plane's edge is
 * found from the truncated cone of colliding relative velocities (apex at
 * the origin, its end cap the disc of radius R / T round relPos / T): u
 * is the smallest change of the relative velocity that takes it out of
 * the cone, n the outward normal there, and the half-plane is
 *
 *     { v : (v - (v_A + share * u)) . n >= 0 }
 *
 * with share one half when B is walking an order too (it takes the other
 * half: reciprocity) and one when B stands idle (it will not move, A
 * takes all of it). Two units already within R get the half-plane that
 * separates them within one tick instead.
 *
 * A then takes the velocity nearest its preferred one inside every
 * half-plane and within its speed: the incremental 2-D linear program
 * (half-planes added in order; when the current optimum leaves a new one,
 * the optimum moves to the best point on that half-plane's edge, a 1-D
 * program). When the half-planes leave nothing (a dense crowd), the
 * fallback 3-D program takes the velocity that violates the worst
 * half-plane least, again incrementally, by 2-D programs on the bisectors.
 *
 * Everything is integer: positions and velocities Q16.16 in int64,
 * directions unit vectors in Q16.16, products Q32.32; a line's point is
 * kept its nearest to the origin and at most WF_ORCA_FAR from it, so no
 * product overflows. The result is the same bit for bit on every
 * compiler, optimisation level and Lua version. The half-planes only
 * choose; the swept rule of units.c still decides every move. */
#ifndef WF_ORCA_H
#define WF_ORCA_H

#include "wayfinder.h"

#define WF_ORCA_MAX_NEIGHBOURS 16  /* half-planes per query, at most */
#define WF_ORCA_HORIZON 8          /* [ticks] time horizon T */

/* A neighbour: its position, its velocity of the last tick, the combined
 * radius, and whether it avoids too. */
typedef struct wf_orca_other {
    wf_fix x, y;          /* [fixed] position */
    wf_fix vx, vy;        /* [fixed per tick] its last displacement */
    wf_fix radius;        /* [fixed] r_mover + r_other, > 0 */
    int share;            /* 1: it walks an order (half each); 0: idle */
} wf_orca_other;

/* The ORCA velocity of a unit at (x, y) whose velocity of the last tick
 * was (vx, vy), preferring (px, py), at most `speed` long, among n
 * neighbours (n <= WF_ORCA_MAX_NEIGHBOURS, in the caller's order: the
 * order decides ties), looking `horizon` ticks ahead (1 to 64; others
 * mean WF_ORCA_HORIZON). Writes it to out[0], out[1]. Returns 1 when every
 * half-plane holds it, 0 when the 3-D fallback chose it (the least worst
 * violation).
 * |x - nb.x|, |y - nb.y| below 2^22 (64 navcells),
 * velocities and speed below 2^20 (16 navcells a tick). */
int wf_orca_velocity(wf_fix x, wf_fix y, wf_fix vx, wf_fix vy, wf_fix px,
                     wf_fix py, wf_fix speed, const wf_orca_other *nb, int n,
                     int horizon, wf_fix *out);

#endif
