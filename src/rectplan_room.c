/* rectplan_room.c - the obstacles of one room for the rectangle planner: boundary,
 * wall scan, thin walls and the seven object rules. */
#include <stdlib.h>
#include <string.h>

#include "rectplan_internal.h"

/* r grown by margin on every side. */
static wf_rect rect_inflate(wf_rect r, wf_fix margin)
{
    r.x0 -= margin;
    r.y0 -= margin;
    r.x1 += margin;
    r.y1 += margin;
    return r;
}

wf_area wf_area_inflate(wf_area a, wf_fix margin)
{
    if (a.kind == WF_AREA_TERRAIN && a.penalty != WF_IMPASSABLE)
        return a;
    a.r = rect_inflate(a.r, margin);
    /* walls are edges: with no width to grow by they still need an inside,
     * or free rectangles would run across them */
    if (a.kind == WF_AREA_WALL) {
        if (a.r.x0 == a.r.x1) {
            a.r.x0--;
            a.r.x1++;
        }
        if (a.r.y0 == a.r.y1) {
            a.r.y0--;
            a.r.y1++;
        }
    }
    return a;
}

static int rect_ok(const wf_rect *r)
{
    return r->x0 <= r->x1 && r->y0 <= r->y1 && r->x0 >= -WF_RECTPLAN_LIMIT
           && r->y0 >= -WF_RECTPLAN_LIMIT && r->x1 <= WF_RECTPLAN_LIMIT
           && r->y1 <= WF_RECTPLAN_LIMIT;
}

static wf_status check_room(const wf_room *room)
{
    if (!room || room->width < 1 || room->height < 1
        || room->width > WF_ROOM_MAX_SIDE || room->height > WF_ROOM_MAX_SIDE
        || (int64_t)room->width * room->height > WF_ROOM_MAX_TILES
        || !room->rooms || (room->nwalls && !room->walls)
        || (room->nobjects && !room->objects))
        return WF_ERR_ARG;
    for (size_t k = 0; k < room->nwalls; k++) {
        const int32_t *w = room->walls + 4 * k;
        if (w[0] < 0 || w[1] < 0 || w[2] < 0 || w[3] < 0
            || w[0] > room->width || w[2] > room->width
            || w[1] > room->height || w[3] > room->height
            || (w[0] != w[2] && w[1] != w[3])
            || (w[0] == w[2] && w[1] == w[3]))
            return WF_ERR_ARG;
    }
    for (size_t k = 0; k < room->nobjects; k++) {
        const wf_room_object *o = room->objects + k;
        if (!rect_ok(&o->box)
            || (o->penalty != WF_IMPASSABLE && o->penalty > WF_PENALTY_MAX))
            return WF_ERR_ARG;
    }
    return WF_OK;
}

/* Everything the wall scan needs, on the caller's stack. */
typedef struct scan {
    const wf_room *room;
    int32_t id;
    int bx0, by0, bx1, by1;   /* room box, inclusive tiles */
    int bw, bh;
    uint8_t *covered;         /* bw*bh, tiles already in a wall rectangle */
    wf_area *out;
    size_t cap, n;
} scan;

static int routable(const scan *s, int x, int y)
{
    size_t i = (size_t)y * (size_t)s->room->width + (size_t)x;
    return s->room->rooms[i] == s->id || (s->room->doors && s->room->doors[i]);
}

static int blocked_free(const scan *s, int x, int y)
{
    return !routable(s, x, y)
           && !s->covered[(size_t)(y - s->by0) * (size_t)s->bw
                          + (size_t)(x - s->bx0)];
}

static wf_status emit(scan *s, int x0, int y0, int x1, int y1,
                      wf_area_kind kind, wf_fix dx, wf_fix dy)
{
    if (s->n >= s->cap)
        return WF_ERR_FULL;
    wf_area *a = s->out + s->n++;
    a->r.x0 = WF_FIX(x0) - dx;
    a->r.y0 = WF_FIX(y0) - dy;
    a->r.x1 = WF_FIX(x1) + dx;
    a->r.y1 = WF_FIX(y1) + dy;
    a->penalty = WF_IMPASSABLE;
    a->kind = kind;
    a->object = -1;
    return WF_OK;
}

/* The room box: tiles of the room and door tiles beside one of them. */
static int room_box(scan *s)
{
    const wf_room *r = s->room;
    int found = 0;
    for (int y = 0; y < r->height; y++)
        for (int x = 0; x < r->width; x++) {
            size_t i = (size_t)y * (size_t)r->width + (size_t)x;
            int in = r->rooms[i] == s->id;
            if (!in && r->doors && r->doors[i]) {
                in = (x > 0 && r->rooms[i - 1] == s->id)
                     || (x + 1 < r->width && r->rooms[i + 1] == s->id)
                     || (y > 0 && r->rooms[i - (size_t)r->width] == s->id)
                     || (y + 1 < r->height
                         && r->rooms[i + (size_t)r->width] == s->id);
            }
            if (!in)
                continue;
            if (!found || x < s->bx0) s->bx0 = x;
            if (!found || x > s->bx1) s->bx1 = x;
            if (!found || y < s->by0) s->by0 = y;
            if (!found || y > s->by1) s->by1 = y;
            found = 1;
        }
    return found;
}

size_t wf_room_obstacles_cap(const wf_room *room, const wf_room_scan *q)
{
    scan s;
    memset(&s, 0, sizeof s);
    s.room = room;
    s.id = q->room;
    if (check_room(room) != WF_OK || !room_box(&s))
        return 0;
    size_t bw = (size_t)(s.bx1 - s.bx0 + 1), bh = (size_t)(s.by1 - s.by0 + 1);
    size_t tiles = bw * bh;
    /* wall scan: at most one rectangle per tile; thin walls: at most one
     * run per tile edge */
    return 4 + tiles + 2 * tiles + bw + bh + room->nobjects;
}

static wf_status wall_scan(scan *s)
{
    for (int y = s->by0; y <= s->by1; y++)
        for (int x = s->bx0; x <= s->bx1; x++) {
            if (!blocked_free(s, x, y))
                continue;
            int x1 = x;
            while (x1 + 1 <= s->bx1 && blocked_free(s, x1 + 1, y))
                x1++;
            int y1 = y;
            for (;;) {
                if (y1 + 1 > s->by1)
                    break;
                int all = 1;
                for (int k = x; k <= x1 && all; k++)
                    all = blocked_free(s, k, y1 + 1);
                if (!all)
                    break;
                y1++;
            }
            for (int j = y; j <= y1; j++)
                memset(s->covered + (size_t)(j - s->by0) * (size_t)s->bw
                       + (size_t)(x - s->bx0), 1, (size_t)(x1 - x + 1));
            wf_status st = emit(s, x, y, x1 + 1, y1 + 1, WF_AREA_WALL, 0, 0);
            if (st != WF_OK)
                return st;
            x = x1;
        }
    return WF_OK;
}

/* Thin walls on the edges between two routable tiles of the box. Edge
 * bitmaps: h[(j - by0) * bw + (i - bx0)] is the edge on line y = j from
 * x = i to i+1 (j in (by0, by1]); v[(j - by0) * (bw + 1) + (i - bx0)] the
 * edge on line x = i from y = j to j+1 (i in (bx0, bx1]). */
static wf_status thin_walls(scan *s)
{
    const wf_room *r = s->room;
    size_t hn = (size_t)(s->bh + 1) * (size_t)s->bw;
    size_t vn = (size_t)s->bh * (size_t)(s->bw + 1);
    uint8_t *h = calloc(hn + vn, 1);
    if (!h)
        return WF_ERR_NOMEM;
    uint8_t *v = h + hn;
    for (size_t k = 0; k < r->nwalls; k++) {
        const int32_t *w = r->walls + 4 * k;
        if (w[1] == w[3]) {
            int j = w[1], a = w[0] < w[2] ? w[0] : w[2];
            int b = w[0] < w[2] ? w[2] : w[0];
            if (j <= s->by0 || j > s->by1)
                continue;
            for (int i = a; i < b; i++)
                if (i >= s->bx0 && i <= s->bx1)
                    h[(size_t)(j - s->by0) * (size_t)s->bw
                      + (size_t)(i - s->bx0)] = 1;
        } else {
            int i = w[0], a = w[1] < w[3] ? w[1] : w[3];
            int b = w[1] < w[3] ? w[3] : w[1];
            if (i <= s->bx0 || i > s->bx1)
                continue;
            for (int j = a; j < b; j++)
                if (j >= s->by0 && j <= s->by1)
                    v[(size_t)(j - s->by0) * (size_t)(s->bw + 1)
                      + (size_t)(i - s->bx0)] = 1;
        }
    }
    wf_status st = WF_OK;
    for (int j = s->by0 + 1; j <= s->by1 && st == WF_OK; j++)
        for (int i = s->bx0; i <= s->bx1 && st == WF_OK; i++) {
            int i1 = i;
            while (i1 <= s->bx1
                   && h[(size_t)(j - s->by0) * (size_t)s->bw
                        + (size_t)(i1 - s->bx0)]
                   && routable(s, i1, j - 1) && routable(s, i1, j))
                i1++;
            if (i1 > i) {
                st = emit(s, i, j, i1, j, WF_AREA_WALL, 0, 0);
                i = i1;
            }
        }
    for (int i = s->bx0 + 1; i <= s->bx1 && st == WF_OK; i++)
        for (int j = s->by0; j <= s->by1 && st == WF_OK; j++) {
            int j1 = j;
            while (j1 <= s->by1
                   && v[(size_t)(j1 - s->by0) * (size_t)(s->bw + 1)
                        + (size_t)(i - s->bx0)]
                   && routable(s, i - 1, j1) && routable(s, i, j1))
                j1++;
            if (j1 > j) {
                st = emit(s, i, j, i, j1, WF_AREA_WALL, 0, 0);
                j = j1;
            }
        }
    free(h);
    return st;
}

/* Squared distance from (x, y) to the closed box. */
static uint64_t box_dist2(const wf_rect *b, wf_fix x, wf_fix y)
{
    int64_t dx = x < b->x0 ? (int64_t)b->x0 - x : x > b->x1 ? (int64_t)x - b->x1 : 0;
    int64_t dy = y < b->y0 ? (int64_t)b->y0 - y : y > b->y1 ? (int64_t)y - b->y1 : 0;
    return (uint64_t)(dx * dx) + (uint64_t)(dy * dy);
}

static wf_skip object_rule(const wf_room_object *o, const wf_room_scan *q)
{
    if (o->flags & WF_OBJ_START)
        return WF_SKIP_START;
    if (q->near && (o->flags & WF_OBJ_DEST))
        return WF_SKIP_DEST;
    if (o->room != q->room)
        return WF_SKIP_OTHER_ROOM;
    if (o->flags & WF_OBJ_CONTAINED)
        return WF_SKIP_CONTAINED;
    if (o->flags & WF_OBJ_WALK_OVER)
        return WF_SKIP_WALK_OVER;
    if ((o->flags & WF_OBJ_PERSON) && q->ignore_people >= 0
        && box_dist2(&o->box, q->gx, q->gy)
               <= (uint64_t)((int64_t)q->ignore_people * q->ignore_people))
        return WF_SKIP_PERSON;
    if (o->flags & WF_OBJ_PERSON) {
        wf_rect b = rect_inflate(o->box, q->margin);
        if (b.x0 < q->sx && q->sx < b.x1 && b.y0 < q->sy && q->sy < b.y1)
            return WF_SKIP_OVERLAP;
    }
    return WF_SKIP_ADDED;
}

wf_status wf_room_obstacles(const wf_room *room, const wf_room_scan *q,
                            wf_area *out, size_t cap, size_t *n,
                            wf_rect *bounds, uint8_t *skips)
{
    wf_status st = check_room(room);
    if (st != WF_OK)
        return st;
    if (!q || !n || !bounds || (cap && !out) || q->margin < 0
        || q->margin > WF_RECTPLAN_MAX_WIDTH / 2)
        return WF_ERR_ARG;
    *n = 0;
    scan s;
    memset(&s, 0, sizeof s);
    s.room = room;
    s.id = q->room;
    s.out = out;
    s.cap = cap;
    if (!room_box(&s))
        return WF_ERR_NOTFOUND;
    s.bw = s.bx1 - s.bx0 + 1;
    s.bh = s.by1 - s.by0 + 1;
    bounds->x0 = WF_FIX(s.bx0 - 1);
    bounds->y0 = WF_FIX(s.by0 - 1);
    bounds->x1 = WF_FIX(s.bx1 + 2);
    bounds->y1 = WF_FIX(s.by1 + 2);
    int ox0 = s.bx0 - 1, oy0 = s.by0 - 1, ox1 = s.bx1 + 2, oy1 = s.by1 + 2;
    if ((st = emit(&s, ox0, oy0, ox1, oy0 + 1, WF_AREA_BOUNDARY, 0, 0)) != WF_OK
        || (st = emit(&s, ox0, oy1 - 1, ox1, oy1, WF_AREA_BOUNDARY, 0, 0)) != WF_OK
        || (st = emit(&s, ox0, oy0 + 1, ox0 + 1, oy1 - 1, WF_AREA_BOUNDARY, 0, 0))
               != WF_OK
        || (st = emit(&s, ox1 - 1, oy0 + 1, ox1, oy1 - 1, WF_AREA_BOUNDARY, 0, 0))
               != WF_OK)
        return st;
    s.covered = calloc((size_t)s.bw * (size_t)s.bh, 1);
    if (!s.covered)
        return WF_ERR_NOMEM;
    st = wall_scan(&s);
    free(s.covered);
    if (st == WF_OK)
        st = thin_walls(&s);
    for (size_t k = 0; k < room->nobjects && st == WF_OK; k++) {
        const wf_room_object *o = room->objects + k;
        wf_skip why = object_rule(o, q);
        if (skips)
            skips[k] = (uint8_t)why;
        if (why != WF_SKIP_ADDED)
            continue;
        if (s.n >= s.cap) {
            st = WF_ERR_FULL;
            break;
        }
        wf_area *a = out + s.n++;
        a->r = o->box;
        a->penalty = o->penalty;
        a->kind = (o->flags & WF_OBJ_PERSON) ? WF_AREA_PERSON : WF_AREA_OBJECT;
        a->object = (int32_t)k;
    }
    *n = s.n;
    return st;
}
