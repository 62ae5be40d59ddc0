/*
 * eventq.c - indexed 4-ary heap of events (see eventq.h).
 */
#include "sim/eventq.h"

#include <stdlib.h>

#include "base/err.h"

#define ARITY 4

/* The order (time, seq) as one 128-bit key: times are never negative
 * (events lie between 0 and past the horizon), so the unsigned compare is
 * the lexicographic one, done without branches - a sift's comparisons
 * are as good as random to a branch predictor.  A compiler without a
 * 128-bit integer (a GNU extension, not C11) gets the same order from a
 * pair. */
#ifdef __SIZEOF_INT128__
typedef unsigned __int128 heap_key;
static inline heap_key key(const struct sl_eventq_slot *a)
{
	return (heap_key)(uint64_t)a->time << 64 | a->seq;
}
static inline bool key_lt(heap_key a, heap_key b) { return a < b; }
#else
typedef struct { uint64_t time, seq; } heap_key;
static inline heap_key key(const struct sl_eventq_slot *a)
{
	return (heap_key){ (uint64_t)a->time, a->seq };
}
static inline bool key_lt(heap_key a, heap_key b)
{
	return a.time < b.time || (a.time == b.time && a.seq < b.seq);
}
#endif

static inline bool before(const struct sl_eventq_slot *a, const struct sl_eventq_slot *b)
{
	return key_lt(key(a), key(b));
}

static inline void place(struct sl_eventq *q, int i, struct sl_eventq_slot s)
{
	q->heap[i] = s;
	s.ev->heap_index = i;
}

/* Inlined into its callers (sl_eventq_schedule_seq's append, at three
 * in four events of a numaq-16 kernbench, and the cancel): a sift up is a
 * level or none in a queue of some 17 events, and its call was a quarter
 * of its instructions. */
static inline __attribute__((always_inline)) void sift_up(struct sl_eventq *q, int i)
{
	struct sl_eventq_slot s = q->heap[i];
	while (i > 0) {
		int parent = (i - 1) / ARITY;
		if (!before(&s, &q->heap[parent]))
			break;
		place(q, i, q->heap[parent]);
		i = parent;
	}
	place(q, i, s);
}

/* Inlined into the re-keying in place, the removal of a popped slot and
 * the batch rebuild, which call it most: the queue is small (about one
 * event per CPU: 17 on numaq-16), a sift goes down one or two levels, and
 * the call's frame was a fifth of its cost (a rebuild is four calls of
 * ~115 instructions; a completion re-queued into its popped slot, at the
 * root, goes to the bottom: 163 instructions a call, 16 of them the
 * frame's, in a numaq-16 hackbench).  The cancel calls the out-of-line
 * copy, sift_down.  Slot s goes down from the hole at i (whatever i holds
 * is overwritten): a removed slot's replacement goes straight to where it
 * ends. */
static inline __attribute__((always_inline)) void sift_hole_down(struct sl_eventq *q, int i,
								    struct sl_eventq_slot s)
{
	const struct sl_eventq_slot *h = q->heap;
	int n = q->n;
	for (;;) {
		int first = ARITY * i + 1;
		if (first >= n)
			break;
		int best = first;
		heap_key kb = key(&h[first]);
		if (first + ARITY <= n) {	/* all four children: no bounds tests */
			for (int c = first + 1; c < first + ARITY; c++) {
				heap_key kc = key(&h[c]);
				bool lt = key_lt(kc, kb);
				best = lt ? c : best;
				kb = lt ? kc : kb;
			}
		} else {
			for (int c = first + 1; c < n; c++) {
				heap_key kc = key(&h[c]);
				if (key_lt(kc, kb)) {
					best = c;
					kb = kc;
				}
			}
		}
		if (!key_lt(kb, key(&s)))
			break;
		place(q, i, h[best]);
		i = best;
	}
	place(q, i, s);
}

/* Slot i's own slot sifted down, not stored again where it stays: the
 * re-keying in place (sl_eventq_schedule_seq), where a later key most
 * often stays above its children.  Not in the batch rebuild, where most
 * slots stay too: inlined into sl_run_once there, it saved numaq-16 0.3 %
 * of its instructions but cost xeon-1600ht's chat 0.5 % elsewhere in the
 * loop (register allocation). */
static inline __attribute__((always_inline)) void sift_down_stay(struct sl_eventq *q, int i)
{
	struct sl_eventq_slot s = q->heap[i];
	const struct sl_eventq_slot *h = q->heap;
	int n = q->n, first = ARITY * i + 1;
	if (first >= n)
		return;
	int best = first;
	heap_key kb = key(&h[first]);
	for (int c = first + 1; c < first + ARITY && c < n; c++) {
		heap_key kc = key(&h[c]);
		bool lt = key_lt(kc, kb);
		best = lt ? c : best;
		kb = lt ? kc : kb;
	}
	if (!key_lt(kb, key(&s)))
		return;
	place(q, i, h[best]);
	sift_hole_down(q, best, s);
}

/* Slot i's own slot sifted down (the batch rebuild, the cancel). */
static inline __attribute__((always_inline)) void sift_down_inl(struct sl_eventq *q, int i)
{
	sift_hole_down(q, i, q->heap[i]);
}

static void sift_down(struct sl_eventq *q, int i)
{
	sift_down_inl(q, i);
}

void sl_eventq_init(struct sl_eventq *q)
{
	q->n = 0;
	q->cap = 64;
	q->heap = sl_xmalloc(sizeof(*q->heap) * (unsigned long)q->cap);
	q->next_seq = 0;
	q->popped = NULL;
	sl_event_init(&q->hole, 0, -1, NULL);
}

void sl_eventq_free(struct sl_eventq *q)
{
	free(q->heap);
	q->heap = NULL;
	q->n = q->cap = 0;
}

void sl_eventq_schedule(struct sl_eventq *q, struct sl_event *e, sl_time time)
{
	sl_eventq_schedule_seq(q, e, time, q->next_seq++);
}

/* Put e (not queued) at the end of the heap array; its index. */
static int append(struct sl_eventq *q, struct sl_event *e, sl_time time, uint64_t seq)
{
	if (q->n == q->cap) {
		q->cap *= 2;
		q->heap = sl_xrealloc(q->heap, sizeof(*q->heap) * (unsigned long)q->cap);
	}
	int i = q->n++;
	q->heap[i] = (struct sl_eventq_slot){ time, seq, e };
	e->heap_index = i;
	return i;
}

/* e, the event last popped, queued again: it takes back the slot the
 * hole kept for it (still with e's old key, which the caller replaces as
 * for any event queued); its index. */
static inline int take_hole(struct sl_eventq *q, struct sl_event *e)
{
	int i = q->hole.heap_index;
	q->heap[i].ev = e;
	e->heap_index = i;
	q->hole.heap_index = -1;
	q->popped = NULL;
	return i;
}

void sl_eventq_schedule_seq(struct sl_eventq *q, struct sl_event *e, sl_time time, uint64_t seq)
{
	e->time = time;
	e->seq = seq;
	int i = e->heap_index;
	if (i < 0 && e == q->popped)
		i = take_hole(q, e);
	if (i >= 0) {
		/* A later time or seq can only move it down; an earlier time
		 * only up. */
		struct sl_eventq_slot old = q->heap[i];
		q->heap[i].time = time;
		q->heap[i].seq = seq;
		if (before(&q->heap[i], &old))
			sift_up(q, i);
		else
			sift_down_stay(q, i);
		return;
	}
	sift_up(q, append(q, e, time, seq));
}

void sl_eventq_batch_set(struct sl_eventq *q, struct sl_event *e, sl_time time, uint64_t seq)
{
	e->time = time;
	e->seq = seq;
	int i = e->heap_index;
	if (i < 0 && e == q->popped)
		i = take_hole(q, e);
	if (i >= 0) {
		q->heap[i].time = time;
		q->heap[i].seq = seq;
		return;
	}
	append(q, e, time, seq);
}

void sl_eventq_batch_end(struct sl_eventq *q)
{
	int n = q->n;

	/* every node with children, the deepest first: each sift_down then
	 * finds heaps below it.  (n read once: the sifts store heap_index,
	 * an int, so the loop's test read q->n again at every node.) */
	if (n < 2)
		return;
	for (int i = (n - 2) / ARITY; i >= 0; i--)
		sift_down_inl(q, i);
}

void sl_eventq_cancel(struct sl_eventq *q, struct sl_event *e)
{
	int i = e->heap_index;
	if (i < 0)
		return;
	e->heap_index = -1;
	struct sl_eventq_slot last = q->heap[--q->n];
	if (i == q->n)
		return;
	struct sl_eventq_slot gone = q->heap[i];
	place(q, i, last);
	if (before(&last, &gone))
		sift_up(q, i);
	else
		sift_down(q, i);
}

/* The popped event was not queued again before the next look at the
 * queue: its slot goes, as a cancelled event's does. */
void sl_eventq_drop_hole(struct sl_eventq *q)
{
	int i = q->hole.heap_index;
	q->hole.heap_index = -1;
	q->popped = NULL;
	struct sl_eventq_slot last = q->heap[--q->n];
	if (i == q->n)
		return;
	/* last goes down from the slot (the root, unless a sift or a rebuild
	 * moved the hole: keys queued meanwhile are later than the popped
	 * one's in the engine, not necessarily elsewhere), placed once,
	 * where it ends; up only if it belongs above the slot */
	if (i > 0 && before(&last, &q->heap[i])) {
		place(q, i, last);
		sift_up(q, i);
		return;
	}
	sift_hole_down(q, i, last);
}

struct sl_event *sl_eventq_pop(struct sl_eventq *q)
{
	if (q->popped)
		sl_eventq_drop_hole(q);
	if (!q->n)
		return NULL;
	struct sl_event *top = q->heap[0].ev;
	top->heap_index = -1;
	/* its slot stays, under the hole (eventq.h): never returned, since
	 * the peek and the pop drop it first, so events come out in the
	 * same (time, seq) order */
	q->heap[0].ev = &q->hole;
	q->hole.heap_index = 0;
	q->popped = top;
	return top;
}
