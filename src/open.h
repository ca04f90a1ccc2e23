/* open.h - the hot half of JPS's open list (open.c): pushing an entry and
 * taking the best one, inlined into the search loop. */
#ifndef WF_OPEN_H
#define WF_OPEN_H

#include "search_internal.h"

static inline unsigned wf_open_hash(int64_t f)
{
    return (unsigned)(((uint64_t)f * UINT64_C(0x9E3779B97F4A7C15)) >> 54)
           & (WF_OPEN_CACHE - 1);
}

/* Entry a comes before entry b inside a bucket: higher g, then lower
 * navcell index. */
static inline int wf_open_before(const wf_open_entry *a,
                                 const wf_open_entry *b)
{
    return (a->g > b->g) | ((a->g == b->g) & (a->node < b->node));
}

/* open.c: the rare paths */
uint32_t wf_open_alloc_slow(wf_search *s);
void wf_open_insert(wf_search *s, uint32_t i);
void wf_open_new_bucket(wf_search *s, int64_t f, uint32_t i);
int wf_open_next_bucket(wf_search *s);
void wf_open_small_spill(wf_search *s);

static WF_ALWAYS_INLINE void wf_open_bucket_add(wf_search *s, int64_t f, int64_t g,
                                      uint32_t node);

/* The small open list is sorted, the best entry last: taking it is a
 * decrement, and an entry goes in past the ones that come before it. */
static inline void wf_open_small_add(wf_search *s, int64_t f, int64_t g,
                                     uint32_t node)
{
    wf_heap_item it;
    it.f = f;
    it.g = g;
    it.node = node;
    it.pad = 0;
    int i = s->nsmall++;
    while (i > 0 && wf_heap_item_before(&s->small[i - 1], &it)) {
        s->small[i] = s->small[i - 1];
        i--;
    }
    s->small[i] = it;
}

/* Adds an entry for node `node`, whose g was just set to g, at f. */
static inline void wf_open_add(wf_search *s, int64_t f, int64_t g,
                               uint32_t node)
{
    if (s->bucketed) {
        wf_open_bucket_add(s, f, g, node);
    } else if (s->nsmall < WF_OPEN_SMALL) {
        wf_open_small_add(s, f, g, node);
    } else {
        wf_open_small_spill(s);
        wf_open_bucket_add(s, f, g, node);
    }
}

static WF_ALWAYS_INLINE void wf_open_bucket_add(wf_search *s, int64_t f, int64_t g,
                                      uint32_t node)
{
    uint32_t i = s->ent_free;
    if (i != WF_NIL)
        s->ent_free = s->ent[i].next;
    else if (s->nent < s->ent_cap)
        i = s->nent++;
    else
        i = wf_open_alloc_slow(s);
    wf_open_entry *e = &s->ent[i];
    e->g = g;
    e->node = node;
    if (f == s->curf) {
        /* the lowest f: its sorted list, nearly always at the front */
        uint32_t c = s->cur;
        if (c == WF_NIL || wf_open_before(e, &s->ent[c])) {
            e->next = c;
            s->cur = i;
        } else {
            wf_open_insert(s, i);
        }
        return;
    }
    uint32_t b = s->bcache[wf_open_hash(f)];
    if (b < s->nbkt && s->bkt[b].f == f) {
        e->next = s->bkt[b].head;
        s->bkt[b].head = i;
    } else {
        wf_open_new_bucket(s, f, i);
    }
}

/* Takes the best open node into *u and closes it (as wf_pop); 0 when
 * there is none or the expansion limit is reached. */
static inline int wf_open_take(wf_run *r, uint32_t *u)
{
    wf_search *s = r->s;
    uint8_t closed = (uint8_t)(s->mgen + 1);
    uint32_t i;
    if (!s->bucketed) {
        const wf_heap_item *top;
        for (;;) {
            if (s->nsmall == 0)
                return 0;
            top = &s->small[s->nsmall - 1];
            if (s->mark[top->node] != closed)
                break;
            s->nsmall--;                /* left behind by an improvement */
        }
        if (r->expanded >= r->limit) {
            r->stopped = 1;
            return 0;
        }
        *u = top->node;
        if (r->track)
            wf_run_track(r, *u, top->f, top->g);
        s->mark[*u] = closed;
        s->nsmall--;
        r->expanded++;
        return 1;
    }
    for (;;) {
        i = s->cur;
        if (i == WF_NIL) {
            if (!wf_open_next_bucket(s))
                return 0;
            continue;
        }
        if (s->mark[s->ent[i].node] != closed)
            break;
        s->cur = s->ent[i].next;        /* left behind by an improvement */
        s->ent[i].next = s->ent_free;
        s->ent_free = i;
    }
    if (r->expanded >= r->limit) {
        r->stopped = 1;
        return 0;
    }
    wf_open_entry *e = &s->ent[i];
    *u = e->node;
#if defined(__GNUC__)
    /* the next node's records are likely needed after this expansion */
    if (e->next != WF_NIL) {
        uint32_t v = s->ent[e->next].node;
        WF_PREFETCH(&s->mark[v]);
        WF_PREFETCH(&s->jslot[v]);
    }
#endif
    if (r->track)
        wf_run_track(r, e->node, s->curf, e->g);
    s->mark[e->node] = closed;
    s->cur = e->next;
    e->next = s->ent_free;
    s->ent_free = i;
    r->expanded++;
    return 1;
}

#endif
