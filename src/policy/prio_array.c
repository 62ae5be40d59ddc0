/*
 * prio_array.c - the O(1) priority array: bitmap + FIFO lists (see
 * prio_array.h for what it models and its sources).
 */
#include <stddef.h>

#include "policy/prio_array.h"

static inline void prio_set_bit(struct sl_prio_array *a, int prio)
{
	a->bitmap[prio >> 6] |= 1ULL << (prio & 63);
}

static inline void prio_clear_bit(struct sl_prio_array *a, int prio)
{
	a->bitmap[prio >> 6] &= ~(1ULL << (prio & 63));
}

static inline bool prio_list_empty(const struct sl_prio_array *a, int prio)
{
	return a->queue[prio].next == &a->queue[prio];
}

void sl_prio_array_init(struct sl_prio_array *a)
{
	a->nr_active = 0;
	for (int i = 0; i < SL_PRIO_WORDS; i++)
		a->bitmap[i] = 0;
	for (int p = 0; p < SL_MAX_PRIO; p++) {
		a->queue[p].next = a->queue[p].prev = &a->queue[p];
		a->queue[p].prio = p;
	}
}

static void prio_link(struct sl_prio_node *n, struct sl_prio_node *prev,
		      struct sl_prio_node *next)
{
	n->prev = prev;
	n->next = next;
	prev->next = n;
	next->prev = n;
}

void sl_prio_array_enqueue(struct sl_prio_array *a, struct sl_prio_node *n, int prio)
{
	struct sl_prio_node *head = &a->queue[prio];

	n->prio = prio;
	prio_link(n, head->prev, head);
	prio_set_bit(a, prio);
	a->nr_active++;
}

void sl_prio_array_enqueue_head(struct sl_prio_array *a, struct sl_prio_node *n, int prio)
{
	struct sl_prio_node *head = &a->queue[prio];

	n->prio = prio;
	prio_link(n, head, head->next);
	prio_set_bit(a, prio);
	a->nr_active++;
}

void sl_prio_array_enqueue_before(struct sl_prio_array *a, struct sl_prio_node *n,
				  struct sl_prio_node *pos)
{
	n->prio = pos->prio;
	prio_link(n, pos->prev, pos);
	prio_set_bit(a, n->prio);
	a->nr_active++;
}

void sl_prio_array_dequeue(struct sl_prio_array *a, struct sl_prio_node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n->prev = NULL;
	a->nr_active--;
	if (prio_list_empty(a, n->prio))
		prio_clear_bit(a, n->prio);
}

int sl_prio_array_next_prio(const struct sl_prio_array *a, int from)
{
	while (from < SL_MAX_PRIO) {
		uint64_t w = a->bitmap[from >> 6] >> (from & 63);
		if (w) {
			int p = from + __builtin_ctzll(w);
			return p < SL_MAX_PRIO ? p : SL_MAX_PRIO;
		}
		from = (from | 63) + 1;
	}
	return SL_MAX_PRIO;
}

struct sl_prio_node *sl_prio_array_first(const struct sl_prio_array *a)
{
	int p = sl_prio_array_next_prio(a, 0);

	return p < SL_MAX_PRIO ? a->queue[p].next : NULL;
}

struct sl_prio_node *sl_prio_array_next(const struct sl_prio_array *a,
					const struct sl_prio_node *n)
{
	if (n->next != &a->queue[n->prio])
		return n->next;
	int p = sl_prio_array_next_prio(a, n->prio + 1);
	return p < SL_MAX_PRIO ? a->queue[p].next : NULL;
}

struct sl_prio_node *sl_prio_array_first_tailwise(const struct sl_prio_array *a)
{
	int p = sl_prio_array_next_prio(a, 0);

	return p < SL_MAX_PRIO ? a->queue[p].prev : NULL;
}

struct sl_prio_node *sl_prio_array_next_tailwise(const struct sl_prio_array *a,
						 const struct sl_prio_node *n)
{
	if (n->prev != &a->queue[n->prio])
		return n->prev;
	int p = sl_prio_array_next_prio(a, n->prio + 1);
	return p < SL_MAX_PRIO ? a->queue[p].prev : NULL;
}

int sl_prio_array_check(const struct sl_prio_array *a)
{
	int total = 0;

	for (int p = 0; p < SL_MAX_PRIO; p++) {
		const struct sl_prio_node *head = &a->queue[p];
		int n = 0;
		for (const struct sl_prio_node *x = head->next; x != head; x = x->next) {
			if (x->next->prev != x || x->prio != p || ++n > 1000000)
				return -1;
		}
		bool bit = (a->bitmap[p >> 6] >> (p & 63)) & 1;
		if (bit != (n > 0))
			return -1;
		total += n;
	}
	return total == a->nr_active ? total : -1;
}
