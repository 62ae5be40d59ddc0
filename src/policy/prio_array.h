/*
 * prio_array.h - the O(1) scheduler's priority array (2.6.0 kernel/sched.c struct prio_array): a
 * 140-bit bitmap and 140 FIFO lists, one per priority (0 = highest, 100..139
 * for SCHED_OTHER).  Bit i is set exactly when list i is non-empty, so the
 * best queued task is "first set bit, head of that list" in constant time.
 *
 * The lists are intrusive: a task embeds a struct sl_prio_node in its
 * policy-private area, so enqueueing and dequeueing never allocate.  The
 * node remembers the priority it was queued at; a task's priority may only
 * change while it is off the array, as in the kernel.
 *
 * Sources: 2.6.0 kernel/sched.c (struct prio_array: bitmap + lists;
 * schedule()'s pick = sched_find_first_bit, head of that list;
 * load_balance() walks priorities from the highest, each list from the
 * tail); Ingo Molnar's F3/A9 patches (the HT pickup walks forward past
 * tasks it may not take).
 *
 * Omitted / simplified:
 *   - The kernel's bitmap has a delimiter bit at MAX_PRIO so that the bit
 *     search needs no bound; here the search is bounded explicitly.
 */
#ifndef SL_POLICY_PRIO_ARRAY_H
#define SL_POLICY_PRIO_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

#define SL_MAX_RT_PRIO 100
#define SL_MAX_PRIO 140		/* also the idle task's priority */
#define SL_PRIO_WORDS ((SL_MAX_PRIO + 63) / 64)

struct sl_prio_node {
	struct sl_prio_node *next, *prev;
	int prio;		/* list it is on (or was last on) */
};

struct sl_prio_array {
	int nr_active;
	uint64_t bitmap[SL_PRIO_WORDS];
	struct sl_prio_node queue[SL_MAX_PRIO];	/* list heads */
};

void sl_prio_array_init(struct sl_prio_array *a);

/* Queue n at the tail of list `prio` (enqueue_task). */
void sl_prio_array_enqueue(struct sl_prio_array *a, struct sl_prio_node *n, int prio);
/* Queue n at the head of list `prio`. */
void sl_prio_array_enqueue_head(struct sl_prio_array *a, struct sl_prio_node *n, int prio);
/* Queue n just in front of `pos` (which is on a), at pos's priority: the
 * forked child before its parent (list_add_tail on the parent's run_list). */
void sl_prio_array_enqueue_before(struct sl_prio_array *a, struct sl_prio_node *n,
				  struct sl_prio_node *pos);
/* Take n off a (dequeue_task).  n->prio stays valid. */
void sl_prio_array_dequeue(struct sl_prio_array *a, struct sl_prio_node *n);

/* First priority >= from with a non-empty list, or SL_MAX_PRIO. */
int sl_prio_array_next_prio(const struct sl_prio_array *a, int from);

/* The head of the highest-priority list, or NULL when empty: O(1). */
struct sl_prio_node *sl_prio_array_first(const struct sl_prio_array *a);
/* Forward order (the order schedule() prefers tasks): the next node of n's
 * list, else the head of the next non-empty priority; NULL at the end. */
struct sl_prio_node *sl_prio_array_next(const struct sl_prio_array *a,
					const struct sl_prio_node *n);

/* Steal order (load_balance): priorities from the highest, each list from
 * its tail (most recently queued, assumed cache-coldest) to its head.
 * Compute the successor before dequeueing a node. */
struct sl_prio_node *sl_prio_array_first_tailwise(const struct sl_prio_array *a);
struct sl_prio_node *sl_prio_array_next_tailwise(const struct sl_prio_array *a,
						 const struct sl_prio_node *n);

static inline bool sl_prio_array_empty(const struct sl_prio_array *a)
{
	return a->nr_active == 0;
}

/* Consistency: counts, bitmap and links agree.  Returns the number of
 * queued nodes, or -1. */
int sl_prio_array_check(const struct sl_prio_array *a);

#endif
