/* open.c - the open list of jump point search. On a uniform-cost grid the
 * open nodes share few distinct f values (jump points on paths of equal
 * octile length), so entries go into one bucket per f: pushing appends to
 * a bucket, and a bucket is sorted once, when its f becomes the lowest.
 * Nodes come off in the order of A*'s heap (search.c): lower f, then
 * higher g, then lower navcell index; so JPS expands what it did with the
 * heap, for less work a node.
 *
 * An improved node gets a new entry (in a lower bucket, since its f fell)
 * and its old one is left behind: by the time the old one is reached the
 * node is closed, and the entry is dropped.
 *
 * Most searches never need the buckets: until it holds WF_OPEN_SMALL
 * entries the open list is a small array kept sorted, the best entry last
 * (open.h), in the same order. */
#include "open.h"

void wf_open_reset(wf_search *s)
{
    s->nent = 0;
    s->ent_free = WF_NIL;
    s->cur = WF_NIL;
    s->curf = -1;
    s->nbkt = 0;
    s->nsmall = 0;
    s->bucketed = 0;
}

/* The small array is full: every entry moves to the buckets, which hold
 * the open list for the rest of the search. */
void wf_open_small_spill(wf_search *s)
{
    s->bucketed = 1;
    for (int k = 0; k < s->nsmall; k++)
        wf_open_bucket_add(s, s->small[k].f, s->small[k].g, s->small[k].node);
    s->nsmall = 0;
}

/* ------------------------------------------------------ bucket heap -- */

#define BKT_ARITY 4

/* Puts bucket b into slot i, moving the hint for its f along when the
 * hint pointed at slot `from`. */
static inline void bkt_put(wf_search *s, size_t i, const wf_open_bucket *b,
                           size_t from)
{
    s->bkt[i] = *b;
    unsigned h = wf_open_hash(b->f);
    if (s->bcache[h] == (uint32_t)from)
        s->bcache[h] = (uint32_t)i;
}

static size_t bkt_up(wf_search *s, size_t i, wf_open_bucket b, size_t from)
{
    while (i > 0) {
        size_t p = (i - 1) / BKT_ARITY;
        if (s->bkt[p].f <= b.f)
            break;
        bkt_put(s, i, &s->bkt[p], p);
        i = p;
    }
    bkt_put(s, i, &b, from);
    return i;
}

/* Removes the lowest bucket: the hole sinks along the lower children to a
 * leaf, and the last bucket fills it and rises. */
static void bkt_pop(wf_search *s)
{
    size_t n = --s->nbkt, i = 0;
    for (;;) {
        size_t c = BKT_ARITY * i + 1;
        if (c >= n)
            break;
        size_t best = c, end = n - c < BKT_ARITY ? n : c + BKT_ARITY;
        for (size_t k = c + 1; k < end; k++)
            if (s->bkt[k].f < s->bkt[best].f)
                best = k;
        bkt_put(s, i, &s->bkt[best], best);
        i = best;
    }
    if (i != n)
        bkt_up(s, i, s->bkt[n], n);
}

/* --------------------------------------------------------- entries -- */

static uint32_t list_merge(wf_open_entry *e, uint32_t a, uint32_t b)
{
    uint32_t head = WF_NIL, *tail = &head;
    while (a != WF_NIL && b != WF_NIL) {
        if (wf_open_before(&e[a], &e[b])) {
            *tail = a;
            tail = &e[a].next;
            a = e[a].next;
        } else {
            *tail = b;
            tail = &e[b].next;
            b = e[b].next;
        }
    }
    *tail = a != WF_NIL ? a : b;
    return head;
}

/* Sorts a list into bucket order: bottom-up merge sort, bin k holding a
 * sorted run of 2^k entries. */
static uint32_t list_sort(wf_open_entry *e, uint32_t head)
{
    uint32_t bin[32];
    int nbins = 0;
    while (head != WF_NIL) {
        uint32_t run = head;
        head = e[head].next;
        e[run].next = WF_NIL;
        int k = 0;
        for (; k < nbins && bin[k] != WF_NIL; k++) {
            run = list_merge(e, bin[k], run);
            bin[k] = WF_NIL;
        }
        if (k == nbins)
            nbins++;
        bin[k] = run;
    }
    uint32_t out = WF_NIL;
    for (int k = 0; k < nbins; k++)
        if (bin[k] != WF_NIL)
            out = list_merge(e, bin[k], out);
    return out;
}

/* Sorting a bucket of up to KEYS_MAX entries whose h = f - g stay below
 * 2^KEY_H_BITS goes through packed keys h << 26 | node (navcell indices
 * are below 2^26): ascending keys are the bucket order. */
#define KEYS_MAX 512
#define KEY_H_BITS 38
#define KEY_NODE_BITS 26

static void keys_insertion(uint64_t *k, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t v = k[i];
        size_t j = i;
        for (; j > 0 && k[j - 1] > v; j--)
            k[j] = k[j - 1];
        k[j] = v;
    }
}

/* Sorts k[0..n) ascending, using t (room for n keys) for the merges;
 * returns whichever of the two holds the result. */
static const uint64_t *keys_sort(uint64_t *k, uint64_t *t, size_t n)
{
    const size_t run = 16;
    for (size_t i = 0; i < n; i += run)
        keys_insertion(k + i, n - i < run ? n - i : run);
    for (size_t w = run; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n;
            size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi) {
                uint64_t x = k[a], y = k[b];
                int take = y < x;
                t[o++] = take ? y : x;
                a += (size_t)!take;
                b += (size_t)take;
            }
            while (a < mid)
                t[o++] = k[a++];
            while (b < hi)
                t[o++] = k[b++];
        }
        uint64_t *swap = k;
        k = t;
        t = swap;
    }
    return k;
}

/* Sorts the list at head into bucket order; f is the bucket's. The
 * entries keep their places in the list and get their contents in order. */
static uint32_t bucket_sort(wf_open_entry *e, uint32_t head, int64_t f)
{
    uint64_t a[KEYS_MAX], b[KEYS_MAX];
    size_t n = 0;
    for (uint32_t i = head; i != WF_NIL; i = e[i].next) {
        uint64_t h = (uint64_t)(f - e[i].g);
        if (n == KEYS_MAX || h >> KEY_H_BITS)
            return list_sort(e, head);
        a[n++] = h << KEY_NODE_BITS | e[i].node;
    }
    /* entries are pushed at the front, so the list runs from the newest;
     * keys pushed later tend to be larger: reversed, they are nearly in
     * order already */
    for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
        uint64_t t = a[i];
        a[i] = a[j - 1];
        a[j - 1] = t;
    }
    const uint64_t *k = keys_sort(a, b, n);
    size_t j = 0;
    for (uint32_t i = head; i != WF_NIL; i = e[i].next, j++) {
        e[i].g = f - (int64_t)(k[j] >> KEY_NODE_BITS);
        e[i].node = (uint32_t)(k[j] & (((uint64_t)1 << KEY_NODE_BITS) - 1));
    }
    return head;
}

/* Unlinks the entries of list *head whose node is no longer open with the
 * entry's g, onto the free list. */
static void list_prune(wf_search *s, uint32_t *head)
{
    uint32_t *link = head;
    while (*link != WF_NIL) {
        uint32_t i = *link;
        uint32_t v = s->ent[i].node;
        if (s->mark[v] == s->mgen && wf_jps_rec(s, v)->g == s->ent[i].g) {
            link = &s->ent[i].next;
        } else {
            *link = s->ent[i].next;
            s->ent[i].next = s->ent_free;
            s->ent_free = i;
        }
    }
}

/* Frees the entries of nodes that improved or closed since, and drops the
 * buckets left empty. Called when the pool or the bucket heap is full; the
 * live entries (one per open node) are fewer than the navcells, and so are
 * the buckets holding them, so both have room afterwards. */
static WF_NOINLINE void compact(wf_search *s)
{
    list_prune(s, &s->cur);
    size_t m = 0;
    for (size_t i = 0; i < s->nbkt; i++) {
        list_prune(s, &s->bkt[i].head);
        if (s->bkt[i].head != WF_NIL)
            s->bkt[m++] = s->bkt[i];
    }
    s->nbkt = 0;
    for (size_t i = 0; i < m; i++) {
        s->nbkt++;
        bkt_up(s, i, s->bkt[i], i);
    }
}

/* Called with the free list empty (wf_open_bucket_add). */
uint32_t wf_open_alloc_slow(wf_search *s)
{
    if (s->nent == s->ent_cap)
        compact(s);
    uint32_t i = s->ent_free;
    if (i != WF_NIL) {
        s->ent_free = s->ent[i].next;
        return i;
    }
    return s->nent++;
}

void wf_open_insert(wf_search *s, uint32_t i)
{
    wf_open_entry *e = s->ent;
    uint32_t *link = &s->cur;
    while (*link != WF_NIL && wf_open_before(&e[*link], &e[i]))
        link = &e[*link].next;
    e[i].next = *link;
    *link = i;
}

void wf_open_new_bucket(wf_search *s, int64_t f, uint32_t i)
{
    if (s->nbkt == s->ncells)
        compact(s);     /* entry i is in no list yet: compaction keeps it */
    wf_open_bucket nb;
    nb.f = f;
    nb.head = i;
    nb.pad = 0;
    s->ent[i].next = WF_NIL;
    unsigned h = wf_open_hash(f);
    s->bcache[h] = (uint32_t)s->nbkt;
    bkt_up(s, s->nbkt, nb, s->nbkt);
    s->nbkt++;
}

/* Makes the lowest bucket (with any other bucket of the same f) the
 * current, sorted list. 0 when there is none. */
int wf_open_next_bucket(wf_search *s)
{
    if (s->nbkt == 0)
        return 0;
    int64_t f = s->bkt[0].f;
    uint32_t head = s->bkt[0].head;
    bkt_pop(s);
    while (s->nbkt > 0 && s->bkt[0].f == f) {
        /* never empty: a bucket is made holding an entry, entries are
         * only added to it, and compaction drops the buckets it empties */
        uint32_t more = s->bkt[0].head;
        bkt_pop(s);
        uint32_t t = more;
        while (s->ent[t].next != WF_NIL)
            t = s->ent[t].next;
        s->ent[t].next = head;
        head = more;
    }
    s->curf = f;
    s->cur = bucket_sort(s->ent, head, f);
    return 1;
}
