/*
 * dlist.h - an intrusive doubly linked list with a head and a tail.
 *
 * The kernel's list_head (include/linux/list.h), but with NULL at both
 * ends instead of a circular sentinel: a zeroed struct sl_dlist is an
 * empty list and a zeroed struct sl_dlink is off every list, so the
 * simulator's zero-allocated tasks and runqueues need no set-up.  An
 * object is on a list through a struct sl_dlink it embeds; sl_dlist_entry
 * finds the object from its link, as the kernel's list_entry does.
 *
 * Users: the engine's live tasks (creation order), each CPU's armed
 * hrtimer sleeps (hard-expiry order), cfs's per-runqueue cfs_tasks list
 * (most recently queued or picked first) and its RT lists (one per
 * priority, FIFO).
 */
#ifndef SL_BASE_DLIST_H
#define SL_BASE_DLIST_H

#include <stddef.h>
#include <stdint.h>

struct sl_dlink {
	struct sl_dlink *prev, *next;
};

struct sl_dlist {
	struct sl_dlink *head, *tail;
};

/* Put n after `after` (NULL: at the head). */
static inline void sl_dlist_insert_after(struct sl_dlist *l, struct sl_dlink *after,
					 struct sl_dlink *n)
{
	n->prev = after;
	n->next = after ? after->next : l->head;
	if (n->next)
		n->next->prev = n;
	else
		l->tail = n;
	if (after)
		after->next = n;
	else
		l->head = n;
}

static inline void sl_dlist_push_front(struct sl_dlist *l, struct sl_dlink *n)
{
	sl_dlist_insert_after(l, NULL, n);
}

static inline void sl_dlist_push_back(struct sl_dlist *l, struct sl_dlink *n)
{
	sl_dlist_insert_after(l, l->tail, n);
}

/* Take n off l; it is then off every list (both links NULL). */
static inline void sl_dlist_del(struct sl_dlist *l, struct sl_dlink *n)
{
	if (n->prev)
		n->prev->next = n->next;
	else
		l->head = n->next;
	if (n->next)
		n->next->prev = n->prev;
	else
		l->tail = n->prev;
	n->prev = n->next = NULL;
}

/* The links of l if it is whole - each link's prev the one before it,
 * the tail the last - and at most `max` of them (a loop ends there), else
 * -1: the shape every user's invariant check starts from. */
static inline long sl_dlist_check(const struct sl_dlist *l, long max)
{
	const struct sl_dlink *prev = NULL;
	long n = 0;

	for (const struct sl_dlink *k = l->head; k; prev = k, k = k->next)
		if (++n > max || k->prev != prev)
			return -1;
	return l->tail == prev ? n : -1;
}

/* The object at offset `off` before link l, NULL for a NULL link. */
static inline void *sl_dlist_obj(const struct sl_dlink *l, size_t off)
{
	return l ? (void *)((char *)(uintptr_t)l - off) : NULL;
}

/* The `type` whose `member` is link l (NULL stays NULL), as list_entry. */
#define sl_dlist_entry(l, type, member) ((type *)sl_dlist_obj((l), offsetof(type, member)))

#endif
