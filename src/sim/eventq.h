/*
 * eventq.h - the pending-event set: an indexed 4-ary min-heap ordered by
 * (time, insertion sequence).
 *
 * Events are embedded in the objects they belong to (a CPU's "burst done"
 * event, a task's sleep timer, the global tick), so re-timing an event is
 * an O(log n) sift in place rather than a cancel-and-insert, and nothing is
 * allocated per event.  The heap's slots hold each event's key (time,
 * sequence) beside its pointer, so a sift compares without following
 * pointers, and four children per node halve the levels a pop goes down
 * (the four keys share a cache line or two).  The sequence number makes
 * ties deterministic: equal times pop in the order they were
 * (re)scheduled; (time, sequence) is a total order, so the pop order does
 * not depend on the heap's shape.
 */
#ifndef SL_SIM_EVENTQ_H
#define SL_SIM_EVENTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/units.h"

struct sl_event {
	sl_time time;
	uint64_t seq;
	int heap_index;		/* -1 when not queued */
	uint8_t kind;		/* owner-defined */
	int cpu;		/* owner-defined */
	void *obj;		/* owner-defined */
};

struct sl_eventq_slot {
	sl_time time;
	uint64_t seq;
	struct sl_event *ev;
};

/*
 * The pop leaves the popped event's slot where it is, its pointer swapped
 * for `hole`'s, which stands in for it in the heap (the sifts move it as
 * any other) while the event itself counts as not queued: the event
 * popped is most often queued again before the next one is taken (a CPU's
 * completion re-timed for its next burst, 95 % of a chat run's events),
 * and then takes its slot back and is re-keyed in place, one sift where
 * the pop's sift and the append's made two; otherwise the slot is removed
 * when the queue is next looked at (sl_eventq_peek, sl_eventq_pop).
 */
struct sl_eventq {
	struct sl_eventq_slot *heap;
	int n, cap;			/* n counts the hole's slot too */
	uint64_t next_seq;
	struct sl_event *popped;	/* the event whose slot `hole` keeps, or NULL */
	struct sl_event hole;
};

void sl_eventq_init(struct sl_eventq *q);
void sl_eventq_free(struct sl_eventq *q);
static inline void sl_event_init(struct sl_event *e, uint8_t kind, int cpu, void *obj)
{
	e->time = 0;
	e->seq = 0;
	e->heap_index = -1;
	e->kind = kind;
	e->cpu = cpu;
	e->obj = obj;
}
static inline bool sl_event_queued(const struct sl_event *e) { return e->heap_index >= 0; }

/* Queue e at `time`, or move it there if already queued. */
void sl_eventq_schedule(struct sl_eventq *q, struct sl_event *e, sl_time time);
/* A (re)scheduling decided now but carried out later: take its place in
 * the tie order now (sl_eventq_take_seq), queue it with that place later
 * (sl_eventq_schedule_seq).  Until then the event keeps its old place, so
 * nothing may pop meanwhile. */
static inline uint64_t sl_eventq_take_seq(struct sl_eventq *q) { return q->next_seq++; }
/* n consecutive places, the first returned (given out later). */
static inline uint64_t sl_eventq_take_seqs(struct sl_eventq *q, uint64_t n)
{
	uint64_t first = q->next_seq;
	q->next_seq += n;
	return first;
}
void sl_eventq_schedule_seq(struct sl_eventq *q, struct sl_event *e, sl_time time, uint64_t seq);
/*
 * Many (re)schedulings at once: sl_eventq_batch_set puts each event's new
 * key in its slot (or a new slot at the end) without restoring the heap
 * order, and sl_eventq_batch_end restores it for all of them in one pass
 * (Floyd's heap construction, O(n)).  Cheaper than a sift each once a
 * sizeable share of the queue moves (sl_eventq_batch_pays).  The pop order
 * is the same either way: (time, seq) is a total order.  Nothing may be
 * popped, scheduled or cancelled between the two.
 */
void sl_eventq_batch_set(struct sl_eventq *q, struct sl_event *e, sl_time time, uint64_t seq);
void sl_eventq_batch_end(struct sl_eventq *q);
/* Whether re-keying k events of q in one batch costs less than k sifts:
 * a rebuild visits every node with children (a quarter of the slots), a
 * sift about two levels. */
static inline bool sl_eventq_batch_pays(const struct sl_eventq *q, int k)
{
	return 8 * k >= q->n;
}
void sl_eventq_cancel(struct sl_eventq *q, struct sl_event *e);
/* The slot of the last event popped, kept in case it came back, taken out
 * of the heap. */
void sl_eventq_drop_hole(struct sl_eventq *q);
/* Earliest event (NULL if none), without removing it. */
static inline struct sl_event *sl_eventq_peek(struct sl_eventq *q)
{
	if (q->popped)
		sl_eventq_drop_hole(q);
	return q->n ? q->heap[0].ev : NULL;
}
struct sl_event *sl_eventq_pop(struct sl_eventq *q);

#endif
