/* steer.h - steering behaviours for a group of agents (steer.c): seek,
 * flee, arrive, pursuit, evasion, wander, separation, alignment and
 * cohesion, combined with integer weights, in Q16.16 fixed point.
 *
 * How to use it:
 *   wf_steer_config cfg; wf_steer_config_default(&cfg);
 *   wf_steer *s; if (wf_steer_create(&s, &cfg) != WF_OK) ...
 *   int i; wf_steer_add(s, x, y, 0, 0, &i);
 *   int w[WF_STEER_COUNT] = {0}; w[WF_STEER_SEEK] = 1; wf_steer_set_weights(s, i, w);
 *   wf_steer_set_point(s, i, tx, ty);
 *   each tick: wf_steer_step(s, grid_or_NULL, cls, &blocked);
 *   wf_steer_destroy(s);
 *
 * Every behaviour returns a steering force (an acceleration per tick,
 * Q16.16 world units per tick per tick): the desired velocity minus the
 * agent's velocity, as Reynolds describes it. Lengths are integer square
 * roots (wf_isqrt64), scalings truncate toward zero, sums over neighbours
 * are exact int64 additions, so the result does not depend on the order
 * the neighbours are met in; the outcome is bit-identical everywhere.
 *
 * A step first computes every agent's force from the state before the
 * step (so the order of agents does not matter there), then moves agents
 * in index order: v += force (the weighted sum, its length cut to
 * max_accel), |v| cut to the agent's own max speed, and the move p -> p + v is tested with
 * the one swept rule (sweep.c): against the grid for the agent's centre
 * (wf_sweep_grid) and, when radius > 0, against the square of half size
 * 2 * radius round every other agent's current position (wf_sweep_square).
 * A blocked move tries its x part alone, then its y part alone (sliding
 * along a wall, dropping the blocked component of the velocity); when
 * both are blocked the agent stays and its velocity becomes zero. Agents
 * that start apart therefore never touch, and none leaves passable ground.
 *
 * Neighbours (separation, alignment, cohesion, the collision test) come
 * from a bucket grid of cell size neighbour_radius rebuilt each step: a
 * query reads the 3 x 3 buckets round the agent, never all pairs. */
#ifndef WF_STEER_H
#define WF_STEER_H

#include "wayfinder.h"

enum {
    WF_STEER_SEEK = 0,   /* toward the target point at max_speed */
    WF_STEER_FLEE,       /* away from the target point at max_speed */
    WF_STEER_ARRIVE,     /* seek, slowing linearly within slow_radius */
    WF_STEER_PURSUE,     /* seek the target agent's predicted position */
    WF_STEER_EVADE,      /* flee the target agent's predicted position */
    WF_STEER_WANDER,     /* seek a point on a circle ahead, jittered */
    WF_STEER_SEPARATE,   /* away from neighbours within separation_radius */
    WF_STEER_ALIGN,      /* match the neighbours' mean velocity */
    WF_STEER_COHERE,     /* seek the neighbours' mean position */
    WF_STEER_COUNT
};

#define WF_STEER_MAX_WEIGHT  1000
#define WF_STEER_MAX_AGENTS  65536
#define WF_STEER_POS_LIMIT   WF_FIX(8192)   /* [fixed] |x|, |y| of an agent */
#define WF_STEER_MAX_LOOKAHEAD 10000        /* [ticks] */

typedef struct wf_steer_config {
    wf_fix max_speed;          /* [fixed] per tick, (0, 8] */
    wf_fix max_accel;          /* [fixed] per tick per tick, (0, 8] */
    wf_fix slow_radius;        /* [fixed] arrive slows within it, (0, 1024] */
    wf_fix neighbour_radius;   /* [fixed] (0, 64], and when radius > 0 at
                                  least 2 * radius + 2 * max_speed */
    wf_fix separation_radius;  /* [fixed] (0, neighbour_radius] */
    int lookahead;             /* [ticks] cap of the prediction, [0, 10000] */
    wf_fix wander_distance;    /* [fixed] circle centre ahead, [0, 64] */
    wf_fix wander_radius;      /* [fixed] circle radius, [0, 64] */
    int64_t wander_jitter;     /* [angle units, WF_ANGLE_ONE a radian]
                                  largest turn a tick, [0, 4 radians] */
    wf_fix radius;             /* [fixed] body half size, [0, 8]; 0: agents
                                  pass through each other */
    uint32_t seed;             /* wander generator seed */
    int capacity;              /* agents, [1, WF_STEER_MAX_AGENTS] */
} wf_steer_config;

typedef struct wf_steer wf_steer;

/* Defaults: max_speed 0.25, max_accel 0.0625, slow_radius 2,
 * neighbour_radius 2, separation_radius 1, lookahead 30 ticks, wander
 * distance 2, radius 1, jitter 0.25 radian, radius 0, seed 1, capacity
 * 1024. */
void wf_steer_config_default(wf_steer_config *cfg);

/* WF_ERR_ARG for a config out of range, WF_ERR_NOMEM; *out owned by the
 * caller until wf_steer_destroy (NULL-safe). */
wf_status wf_steer_create(wf_steer **out, const wf_steer_config *cfg);
void wf_steer_destroy(wf_steer *s);
const wf_steer_config *wf_steer_get_config(const wf_steer *s);

/* Appends an agent (weights all zero, no target); *index its 0-based
 * index. WF_ERR_FULL past capacity, WF_ERR_ARG for a position beyond
 * WF_STEER_POS_LIMIT or a speed beyond max_speed. */
wf_status wf_steer_add(wf_steer *s, wf_fix x, wf_fix y, wf_fix vx, wf_fix vy,
                       int *index);
int wf_steer_count(const wf_steer *s);
/* Sets / reads an agent's state; same limits as wf_steer_add. */
wf_status wf_steer_set_state(wf_steer *s, int i, wf_fix x, wf_fix y,
                             wf_fix vx, wf_fix vy);
wf_status wf_steer_get_state(const wf_steer *s, int i, wf_fix *x, wf_fix *y,
                             wf_fix *vx, wf_fix *vy);
/* Weights in [0, WF_STEER_MAX_WEIGHT], WF_STEER_COUNT of them. */
wf_status wf_steer_set_weights(wf_steer *s, int i, const int *w);
/* The agent's own top speed [fixed] in (0, cfg max_speed] (the group's
 * max_speed when never set); its velocity is cut to it at once. */
wf_status wf_steer_set_speed(wf_steer *s, int i, wf_fix speed);
wf_fix wf_steer_get_speed(const wf_steer *s, int i);
/* Target point of seek, flee and arrive. */
wf_status wf_steer_set_point(wf_steer *s, int i, wf_fix tx, wf_fix ty);
/* Target agent of pursue and evade (j = -1: none; j != i). */
wf_status wf_steer_set_quarry(wf_steer *s, int i, int j);
/* The wander angle [angle units, in [0, 2 pi)] and generator state. */
wf_status wf_steer_get_wander(const wf_steer *s, int i, int64_t *angle,
                              uint32_t *rng);

/* One behaviour's force for agent i from the current state (wander does
 * not advance its angle here). Zero when the behaviour has nothing to act
 * on (no target, no neighbour, at the target). */
wf_status wf_steer_force(wf_steer *s, int i, int kind, wf_fix *ax,
                         wf_fix *ay);
/* Where pursue and evade aim for agent i: the quarry's position plus its
 * velocity times T ticks, T = distance / max_speed cut to lookahead
 * (T in Q16.16). WF_ERR_NOTFOUND when i has no quarry. */
wf_status wf_steer_predict(wf_steer *s, int i, wf_fix *px, wf_fix *py);

/* One tick for every agent (see the header comment). g [opt]: when not
 * NULL every move is checked against class cls of g, and an agent must
 * stand on passable ground (WF_ERR_ARG otherwise, nothing moved).
 * *blocked [opt]: agents whose move was cut. WF_ERR_NOMEM leaves the
 * group unchanged. */
wf_status wf_steer_step(wf_steer *s, const wf_grid *g, int cls, int *blocked);
/* Ticks stepped so far. */
int64_t wf_steer_ticks(const wf_steer *s);

#endif
