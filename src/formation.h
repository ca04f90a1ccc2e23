/* formation.h - formations (formation.c): slot shapes (line, column, box,
 * wedge, or the caller's list), the exact minimum-travel assignment of
 * members to slots (the Hungarian method), and a formation that follows a
 * path as one body: squeezing into a column where its shape does not fit
 * and re-forming after.
 *
 * Offsets are in the formation's own frame, Q16.16: x forward (along the
 * heading), y to the left. The anchor is the point the offsets hang from;
 * it walks the path at `pace` times the slowest member's speed (default
 * 3/4, so members have speed to spare to keep their slots round corners)
 * and waits while any member is more than `slack` from its slot. The
 * heading is the direction of the path segment the anchor is on.
 *
 * Each tick: the anchor advances (or waits); the shape's slot positions
 * are computed; if one of them is not clear ground for the class or the
 * straight segment from the anchor to it meets a blocked navcell
 * (wf_sweep_grid), the formation takes its column mode: slot k lies on
 * the path itself, k * spacing behind the anchor (the path start when the
 * anchor has not gone that far), so the members file through whatever
 * the path passes. It takes its shape again once the shape's slots have
 * been clear for `reform` ticks in a row. At each change of mode the
 * members are assigned to the new slots by minimum total travel. Members
 * then move straight toward their slots by at most their own speed, each
 * move tested by the swept rule against the grid (a blocked move slides
 * along x, then y, else stays), so no member ever enters blocked ground.
 * Members do not test each other: slots are spacing apart. */
#ifndef WF_FORMATION_H
#define WF_FORMATION_H

#include "wayfinder.h"

enum {
    WF_FORM_LINE = 0,   /* side by side, across the heading */
    WF_FORM_COLUMN,     /* one behind another */
    WF_FORM_BOX,        /* ceil(sqrt(n)) abreast, rows behind */
    WF_FORM_WEDGE,      /* a point, then pairs behind to either side */
    WF_FORM_COUNT
};

#define WF_FORM_MAX_MEMBERS 256
#define WF_FORM_MAX_POINTS  65536

/* The offsets of shape for n members, spacing apart [fixed], into ox, oy
 * (n each). The front member's slot is (0, 0) for column and wedge; line
 * and box are centred across. WF_ERR_ARG for a bad shape, n outside
 * [1, WF_FORM_MAX_MEMBERS] or spacing outside (0, 64]. */
wf_status wf_formation_offsets(int shape, int n, wf_fix spacing, wf_fix *ox,
                               wf_fix *oy);

/* The assignment of n members to n slots of least total cost (the
 * Hungarian method, O(n^3), exact with integer costs): cost[m * n + s]
 * >= 0, at most 2^40; slot_of[m] receives member m's slot; *total [opt]
 * the sum. WF_ERR_ARG for n outside [1, WF_FORM_MAX_MEMBERS] or a bad
 * cost, WF_ERR_NOMEM. */
wf_status wf_assign_min_cost(int n, const int64_t *cost, int *slot_of,
                             int64_t *total);

/* The same for members at (mx, my) and slots at (sx, sy) (n each,
 * |.| <= 8192), the cost being the distance [fixed, floor]. */
wf_status wf_assign_points(int n, const wf_fix *mx, const wf_fix *my,
                           const wf_fix *sx, const wf_fix *sy, int *slot_of,
                           int64_t *total);

typedef struct wf_formation_config {
    int n;                    /* members, [1, WF_FORM_MAX_MEMBERS] */
    const wf_fix *x, *y;      /* members' positions (n each) */
    const wf_fix *speed;      /* members' speeds, (0, 8] (n each) */
    const wf_fix *ox, *oy;    /* slot offsets (n each), |.| <= 256 */
    wf_fix spacing;           /* column spacing, (0, 64] */
    int npoints;              /* path points, [1, WF_FORM_MAX_POINTS] */
    const wf_fix *px, *py;    /* the path from its start */
    wf_fix pace;              /* anchor speed / slowest speed, (0, 1] */
    wf_fix slack;             /* the anchor waits beyond it, (0, 1024] */
    int reform;               /* ticks of clear shape before re-forming,
                                 [1, 10000] */
} wf_formation_config;

typedef struct wf_formation wf_formation;

/* Copies everything it needs; the anchor starts on the path's first
 * point in shape mode, members assigned by minimum travel to the slots
 * there. WF_ERR_ARG for a bad config, WF_ERR_NOMEM. */
wf_status wf_formation_create(wf_formation **out,
                              const wf_formation_config *cfg);
void wf_formation_destroy(wf_formation *f);

/* One tick on class cls of g (members must stand on clear ground:
 * WF_ERR_ARG otherwise, nothing moved). *arrived = 1 once the anchor is
 * at the path's end and every member within 1/16 of its slot.
 * WF_ERR_NOMEM (assigning the members on a change of mode) leaves the
 * formation as it was before the call. */
wf_status wf_formation_step(wf_formation *f, const wf_grid *g, int cls,
                            int *arrived);

typedef struct wf_formation_member {
    wf_fix x, y;              /* position */
    wf_fix sx, sy;            /* its slot's position this tick */
    int slot;                 /* its slot, 0-based, in the mode's slots */
} wf_formation_member;

int wf_formation_count(const wf_formation *f);
wf_status wf_formation_member_get(const wf_formation *f, int i,
                                  wf_formation_member *m);
/* 1 in column mode, 0 in shape mode. */
int wf_formation_squeezed(const wf_formation *f);
void wf_formation_anchor(const wf_formation *f, wf_fix *x, wf_fix *y,
                         wf_fix *speed);
int64_t wf_formation_ticks(const wf_formation *f);

#endif
