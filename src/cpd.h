/* cpd.h - first-move tables for grids (the compressed path database idea).
 *
 * For one source navcell, wf_cpd_first_moves runs a Dijkstra search over a
 * passability map with the grid's step rules (eight directions, a diagonal
 * only when both orthogonal neighbours are passable, orthogonal step
 * WF_COST_SCALE, diagonal WF_COST_DIAG) and writes, for every navcell, the
 * direction of the first step of a cheapest path to it. wf_cpd_runs then
 * compresses such a row into runs of equal moves over the navcells in
 * row-major order, where blocked navcells take whatever move extends the
 * current run. Nothing here allocates after wf_cpd_new.
 *
 * Directions: 0 (+1,0) 1 (-1,0) 2 (0,+1) 3 (0,-1) 4 (+1,+1) 5 (-1,+1)
 * 6 (+1,-1) 7 (-1,-1); WF_CPD_NONE for the source itself and for navcells
 * it cannot reach. Ties: cells settle by cost, then by lower index; a step
 * replaces a known one only when strictly cheaper; directions are tried in
 * the order above.
 */
#ifndef WF_CPD_H
#define WF_CPD_H

#include <stddef.h>
#include <stdint.h>

#define WF_CPD_NONE 8
#define WF_CPD_MAX_SIDE 4096

typedef struct wf_cpd wf_cpd;

/* Scratch for searches on a w x h map ([1, WF_CPD_MAX_SIDE] each); NULL when
 * out of memory or out of range. Owned by the caller; free with wf_cpd_free. */
wf_cpd *wf_cpd_new(int w, int h);
void wf_cpd_free(wf_cpd *c);   /* NULL is fine */

/* pass: w*h bytes, nonzero = passable, row-major. source: a cell index in
 * [0, w*h). moves: w*h bytes, written. Returns the number of cells reached
 * (0 when the source is blocked). */
int32_t wf_cpd_first_moves(wf_cpd *c, const unsigned char *pass, int32_t source,
                           unsigned char *moves);

/* Compresses moves (w*h bytes, as written above) into runs: starts[k] the
 * first cell index of run k, ms[k] its move; blocked cells (pass == 0)
 * join the run before them (or the first run). Capacity: w*h runs always
 * suffice. Returns the run count. */
int32_t wf_cpd_runs(const unsigned char *pass, const unsigned char *moves, int32_t cells,
                    int32_t *starts, unsigned char *ms);

/* A 32-bit FNV-1a hash of n bytes, for passability maps and file checks. */
uint32_t wf_cpd_hash(const unsigned char *bytes, size_t n);

#endif
