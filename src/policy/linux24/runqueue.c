/*
 * linux24/runqueue.c - 2.4's one runqueue_head list, as an array in list
 * order: add_to_runqueue (tail, or head as earlier 2.4), move_last_runqueue
 * and del_from_runqueue (2.4.27 kernel/sched.c, include/linux/sched.h).
 * The array with holes and its compaction are only a cheaper list: the
 * order and the tasks are the kernel's (struct linux24, linux24.h).  The
 * dense copy the scan reads (s->dense) moves with it, slot for slot, and
 * its index (linux24_index_slot) follows every change of a slot.
 */
#include <stdlib.h>
#include <string.h>

#include "policy/linux24/linux24.h"

static void linux24_index_all(struct linux24 *s, int d, bool lists);

/*
 * The list is an array in list order, rq[rq_head..rq_len), with holes
 * where tasks left.  Close the holes, keeping the order; with head adds
 * (runqueue_add=head) the tasks go to the middle, leaving room for adds
 * at either end.
 */
static void linux24_compact(struct linux24 *s)
{
	int n = 0, words = (s->rq_cap + 63) / 64;

	/* the index follows the slots: out at the old places, in at the new
	 * (bitmaps of the new size if the list grew) */
	if (words != s->rq_words) {
		free(s->bits);
		s->rq_words = words;
		s->bits = sl_xcalloc((unsigned long)(LINUX24_BASES + s->ncpus) * (unsigned long)words,
				     sizeof(*s->bits));
	} else if (s->indexed) {
		linux24_index_all(s, -1, false);
	}
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
	if (s->indexed)
		linux24_index_all(s, 1, false);
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

/* Put p's slot e at position i in (d 1) or out (d -1) of the index's
 * bitmaps and, if lists, of its counts and its mm's list. */
void linux24_index_slot(struct linux24 *s, struct linux24_task *p, int i,
			const struct linux24_slot *e, int d, bool lists)
{
	if (e->base < -1)
		return;		/* hidden: never the scan's pick */
	int b = e->base + 1 < LINUX24_BASES ? e->base + 1 : LINUX24_BASES - 1;
	if (lists) {
		s->base_count[b] += d;
		if (d > 0 && b > s->top_base)
			s->top_base = b;
		while (s->top_base >= 0 && !s->base_count[s->top_base])
			s->top_base--;
	}
	uint64_t bit = (uint64_t)1 << (i & 63);
	uint64_t *bb = &linux24_base_bits(s, b)[i >> 6];
	uint64_t *cb = e->pcpu >= 0 ? &linux24_cpu_bits(s, e->pcpu)[i >> 6] : NULL;
	if (d > 0) {
		*bb |= bit;
		if (cb)
			*cb |= bit;
	} else {
		*bb &= ~bit;
		if (cb)
			*cb &= ~bit;
	}
	if (!lists || e->mm < 0)
		return;
	if (d < 0) {
		if (p->mm_prev)
			p->mm_prev->mm_next = p->mm_next;
		else
			s->mm_head[e->mm] = p->mm_next;
		if (p->mm_next)
			p->mm_next->mm_prev = p->mm_prev;
		s->mm_count[e->mm]--;
		return;
	}
	if (e->mm >= s->mm_cap) {
		int cap = s->mm_cap;
		while (s->mm_cap <= e->mm)
			s->mm_cap *= 2;
		s->mm_head = sl_xrealloc(s->mm_head, (unsigned long)s->mm_cap * sizeof(*s->mm_head));
		s->mm_count = sl_xrealloc(s->mm_count, (unsigned long)s->mm_cap * sizeof(*s->mm_count));
		for (int k = cap; k < s->mm_cap; k++) {
			s->mm_head[k] = NULL;
			s->mm_count[k] = 0;
		}
	}
	p->mm_prev = NULL;
	p->mm_next = s->mm_head[e->mm];
	if (p->mm_next)
		p->mm_next->mm_prev = p;
	s->mm_head[e->mm] = p;
	s->mm_count[e->mm]++;
}

/* Every slot in or out of the index: around a compaction, which moves
 * them (bitmaps only), or when the index is turned on or off. */
static void linux24_index_all(struct linux24 *s, int d, bool lists)
{
	for (int i = s->rq_head; i < s->rq_len; i++)
		if (s->rq[i])
			linux24_index_slot(s, s->rq[i], i, &s->dense[i], d, lists);
}

/*
 * The index pays for itself on a long runqueue only: below
 * LINUX24_INDEX_OFF queued tasks the scan reads the copy and the index is
 * not kept, from LINUX24_INDEX_ON on it is (test builds keep it from a
 * few tasks on, so that the tests run both scans and both turns).
 */
#ifdef SL_TESTING
#define LINUX24_INDEX_ON 4
#define LINUX24_INDEX_OFF 2
#else
#define LINUX24_INDEX_ON 96
#define LINUX24_INDEX_OFF 48
#endif

static void linux24_index_turn(struct linux24 *s)
{
	if (!s->indexed && s->nr_running >= LINUX24_INDEX_ON) {
		s->indexed = true;
		linux24_index_all(s, 1, true);
	} else if (s->indexed && s->nr_running < LINUX24_INDEX_OFF) {
		linux24_index_all(s, -1, true);
		s->indexed = false;
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
	linux24_count_slot(s, p, &s->dense[p->slot], 1);
	linux24_index_turn(s);
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
	linux24_count_slot(s, p, &s->dense[p->slot], -1);
	s->dense[p->slot] = (struct linux24_slot){ .base = LINUX24_HIDDEN, .pcpu = -1, .mm = -1 };
	/* the copy's scan reads every slot, holes too: trim them at the
	 * ends, and close them once they are a quarter of the tasks (a
	 * compaction costs a scan, and comes once per that many leavers);
	 * the index's reads a word of 64, and a compaction moves its bits:
	 * while it does most scans, the holes may be as many as the tasks */
	while (s->rq_len > s->rq_head && !s->rq[s->rq_len - 1])
		s->rq_len--;
	while (s->rq_head < s->rq_len && !s->rq[s->rq_head])
		s->rq_head++;
	linux24_index_turn(s);
	int holes = s->rq_len - s->rq_head - s->nr_running;
	if (holes > (s->indexed && s->index_lead > 0 ? s->nr_running + 16 : s->nr_running / 4 + 2))
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
