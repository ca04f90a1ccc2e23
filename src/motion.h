/* motion.h - route-following polish shared by the unit simulation
 * (units.c) and the house walker (walker.c): the heading that turns at a
 * bounded rate, the speed that ramps by accel and slows on arrival, the
 * look-ahead that skips a sub-goal in plain sight, and the curved corner.
 * Integer arithmetic only (Q16.16 positions), so every machine agrees.
 *
 * The caller says what "passable" means through a fit test: fit(ctx, A, B)
 * returns 1 when its agent may move straight from A to B (units: the
 * swept grid test of their class; people: walls, closed doors, boxes and
 * the world's border). Nothing here moves an agent: the caller still
 * sweeps every step it takes. */
#ifndef WF_MOTION_H
#define WF_MOTION_H

#include "wayfinder.h"

typedef int (*wf_motion_fit)(void *ctx, wf_fix ax, wf_fix ay, wf_fix bx,
                             wf_fix by);

/* Points a rounded corner puts in place of the corner point: the entry A,
 * seven points on the curve, the exit B. */
#define WF_CORNER_POINTS 9
/* [fixed] the largest corner_radius, units and people alike */
#define WF_CORNER_MAX_RADIUS WF_FIX(16)
/* [fixed] a corner is rounded only when its entry lies at least this far
 * from it: shorter curves would not show */
#define WF_CORNER_MIN ((wf_fix)4096)   /* 1/16 */

/* Look-ahead: while the point after *next (of the n points xy) is in
 * plain sight (fit from (x, y)), skips *next, at most 8 points a call.
 * Returns how many it skipped. */
int wf_motion_skip(const wf_fix *xy, int n, int *next, wf_fix x, wf_fix y,
                   wf_motion_fit fit, void *ctx);

/* The length along the points xy[next..n) from (x, y) to the last one. */
int64_t wf_motion_left(const wf_fix *xy, int n, int next, wf_fix x, wf_fix y);

/* Turns the heading (*hx, *hy), a Q16.16 unit vector, towards (dx, dy) by
 * at most rate (units of 2^-40 radian, > 0). Returns 1 when the way
 * differs from the heading by more than rate (the heading turned by rate
 * and the agent should stop while it turns), 0 when the heading now
 * points along (dx, dy) (or (dx, dy) is zero). */
int wf_motion_turn(wf_fix *hx, wf_fix *hy, int64_t dx, int64_t dy,
                   int64_t rate);

/* The length to walk this tick, from the current speed cur [fixed per
 * tick], the full speed, the length left to the end of the route and
 * the options (0: off): the target is speed, 0 while turning, cut inside
 * arrive_radius to speed * left / arrive_radius (at least speed / 16
 * and 2^-16),
 * with accel also to the speed the agent can still brake from
 * ((sqrt(a^2 + 8 a left) - a) / 2, at least a), then moved from cur by at
 * most accel. left is read only when accel or arrive_radius is set. */
int64_t wf_motion_speed(int64_t cur, int64_t speed, int64_t left,
                        wf_fix accel, wf_fix arrive_radius, int turning);

/* The curved corner: the agent at P heads for corner C, then for N. A
 * curve from A (on CP, d from C) to B (on CN, d from C), tangent to both
 * legs there, replaces C: the cubic Bezier with control points
 * A + k (C - A) and B + k (C - B), walked as the 8 chords between
 * WF_CORNER_POINTS points (A, B and 7 on the curve). k = 2/3 is the inside
 * curve (the quadratic through control point C: it cuts the corner);
 * k = 2 the wide one, which swings out round C (for a corner the way
 * hugs, where the inside is an obstacle). d = min(radius, |PC|, |CN| / 2).
 * Tried in order: inside at d, inside at d / 2, wide at d, wide at d / 2;
 * the first
 * whose every chord and both straight legs P->A and B->N pass fit is
 * taken, else the corner stays sharp. Writes the points (x, y pairs)
 * into out (2 * WF_CORNER_POINTS values) and returns WF_CORNER_POINTS, or
 * 0 for a sharp corner (also when the way runs straight on, or the curve's
 * d falls below WF_CORNER_MIN, 4 * WF_CORNER_MIN for the wide one: a
 * smaller swing would be a wobble, not a curve). */
int wf_motion_corner(wf_fix px, wf_fix py, wf_fix cx, wf_fix cy, wf_fix nx,
                     wf_fix ny, wf_fix radius, wf_motion_fit fit, void *ctx,
                     wf_fix *out);

#endif
