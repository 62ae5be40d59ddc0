/*
 * linux24/runqueue.c - 2.4's one runqueue_head list, as an array in list
 * order: add_to_runqueue (tail, or head as earlier 2.4), move_last_runqueue
 * and del_from_runqueue (2.4.27 kernel/sched.c, include/linux/sched.h).
 * The array with holes and its compaction are only a cheaper list: the
 * order and the tasks are the kernel's (struct linux24, linux24.h).  The
 * dense copy the scan reads (s->dense) moves with it, slot for slot.
 */
#include <string.h>

#include "policy/linux24/linux24.h"

/*
 * The list is an array in list order, rq[rq_head..rq_len), with holes
 * where tasks left.  Close the holes, keeping the order; with head adds
 * (runqueue_add=head) the tasks go to the middle, leaving room for adds
 * at either end.
 */
static void linux24_compact(struct linux24 *s)
{
	int n = 0;

	for (int i = s->rq_head; i < s->rq_len; i++)
		if (s->rq[i]) {
			s->dense[n] = s->dense[i];
			s->rq[n++] = s->rq[i];
		}
	int front = s->add_head ? (s->rq_cap - n) / 2 : 0;
	if (front > 0) {
		memmove(s->rq + front, s->rq, (size_t)n * sizeof(*s->rq));
		memmove(s->dense + front, s->dense, (size_t)n * sizeof(*s->dense));
	}
	for (int i = front; i < front + n; i++)
		s->rq[i]->slot = i;
	s->rq_head = front;
	s->rq_len = front + n;
}

/* Room for one more at the tail (at_head false) or the head: close the
 * holes if they are half the list, else (or if that is not enough) grow. */
static void linux24_make_room(struct linux24 *s, bool at_head)
{
	while (at_head ? s->rq_head == 0 : s->rq_len == s->rq_cap) {
		int used = s->rq_len - s->rq_head;
		if (used - s->nr_running < used / 2 || s->nr_running + 2 > s->rq_cap) {
			s->rq_cap *= 2;
			s->rq = sl_xrealloc(s->rq, (unsigned long)s->rq_cap * sizeof(*s->rq));
			s->dense = sl_xrealloc(s->dense,
					       (unsigned long)s->rq_cap * sizeof(*s->dense));
		}
		linux24_compact(s);	/* with head adds, room at both ends */
	}
}

static void linux24_queue(struct linux24 *s, struct linux24_task *p, bool at_head)
{
	linux24_make_room(s, at_head);
	p->slot = at_head ? --s->rq_head : s->rq_len++;
	s->rq[p->slot] = p;
	p->queued = true;
	s->nr_running++;
	s->dense[p->slot] = linux24_slot_of(p);
	s->nr_partial += s->dense[p->slot].partial;
}

/* add_to_runqueue: 2.4.27 list_add_tail, earlier 2.4 list_add. */
void linux24_add_to_runqueue(struct linux24 *s, struct linux24_task *p)
{
	linux24_queue(s, p, s->add_head);
}

static void linux24_unlink(struct linux24 *s, struct linux24_task *p)
{
	s->rq[p->slot] = NULL;
	p->queued = false;
	s->nr_running--;
	s->nr_partial -= s->dense[p->slot].partial;
	s->dense[p->slot] = (struct linux24_slot){ .base = LINUX24_HIDDEN, .pcpu = -1, .mm = -1 };
	/* the scan reads every slot, holes too: trim them at the ends, and
	 * close them once they are a quarter of the tasks (a compaction
	 * costs a scan, and comes once per that many leavers) */
	while (s->rq_len > s->rq_head && !s->rq[s->rq_len - 1])
		s->rq_len--;
	while (s->rq_head < s->rq_len && !s->rq[s->rq_head])
		s->rq_head++;
	if (s->rq_len - s->rq_head - s->nr_running > s->nr_running / 4 + 2)
		linux24_compact(s);
}

/* move_last_runqueue: behind every task now queued (RR, RT yield), at
 * the tail whatever add_to_runqueue does. */
void linux24_move_last(struct linux24 *s, struct linux24_task *p)
{
	if (!p->queued)
		return;
	linux24_unlink(s, p);
	linux24_queue(s, p, false);
}

void linux24_del_from_runqueue(struct linux24 *s, struct linux24_task *p)
{
	if (!p->queued)
		return;
	linux24_unlink(s, p);
}
