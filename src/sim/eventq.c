/*
 * eventq.c - indexed binary heap of events (see eventq.h).
 */
#include "sim/eventq.h"

#include <stdlib.h>

#include "base/err.h"

static inline bool before(const struct sl_event *a, const struct sl_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline void place(struct sl_eventq *q, int i, struct sl_event *e)
{
	q->heap[i] = e;
	e->heap_index = i;
}

static void sift_up(struct sl_eventq *q, int i)
{
	struct sl_event *e = q->heap[i];
	while (i > 0) {
		int parent = (i - 1) / 2;
		if (!before(e, q->heap[parent]))
			break;
		place(q, i, q->heap[parent]);
		i = parent;
	}
	place(q, i, e);
}

static void sift_down(struct sl_eventq *q, int i)
{
	struct sl_event *e = q->heap[i];
	for (;;) {
		int child = 2 * i + 1;
		if (child >= q->n)
			break;
		if (child + 1 < q->n && before(q->heap[child + 1], q->heap[child]))
			child++;
		if (!before(q->heap[child], e))
			break;
		place(q, i, q->heap[child]);
		i = child;
	}
	place(q, i, e);
}

void sl_eventq_init(struct sl_eventq *q)
{
	q->n = 0;
	q->cap = 64;
	q->heap = sl_xmalloc(sizeof(*q->heap) * (unsigned long)q->cap);
	q->next_seq = 0;
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

void sl_eventq_schedule_seq(struct sl_eventq *q, struct sl_event *e, sl_time time, uint64_t seq)
{
	e->time = time;
	e->seq = seq;
	if (e->heap_index >= 0) {
		/* A later seq can only move it down among equal times; a new
		 * time may move it either way. */
		sift_up(q, e->heap_index);
		sift_down(q, e->heap_index);
		return;
	}
	if (q->n == q->cap) {
		q->cap *= 2;
		q->heap = sl_xrealloc(q->heap, sizeof(*q->heap) * (unsigned long)q->cap);
	}
	place(q, q->n++, e);
	sift_up(q, e->heap_index);
}

void sl_eventq_cancel(struct sl_eventq *q, struct sl_event *e)
{
	int i = e->heap_index;
	if (i < 0)
		return;
	e->heap_index = -1;
	struct sl_event *last = q->heap[--q->n];
	if (i == q->n)
		return;
	place(q, i, last);
	sift_up(q, i);
	sift_down(q, last->heap_index);
}

struct sl_event *sl_eventq_pop(struct sl_eventq *q)
{
	if (!q->n)
		return NULL;
	struct sl_event *top = q->heap[0];
	top->heap_index = -1;
	struct sl_event *last = q->heap[--q->n];
	if (q->n) {
		place(q, 0, last);
		sift_down(q, 0);
	}
	return top;
}
