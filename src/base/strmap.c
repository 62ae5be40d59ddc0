/*
 * strmap.c - string-keyed hash map (see strmap.h): FNV-1a hashes, linear
 * probing, doubled when half full.
 */
#include "base/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static struct sl_strmap_slot *lookup(struct sl_strmap *m, const char *s, size_t n, uint64_t h)
{
	size_t mask = m->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct sl_strmap_slot *slot = &m->slots[i];
		if (!slot->s)
			return slot;
		if (slot->hash == h && slot->n == n) {
			m->compares++;
			if (!memcmp(slot->s, s, n))
				return slot;
		}
	}
}

static void grow(struct sl_strmap *m)
{
	struct sl_strmap old = *m;

	m->cap = old.cap ? 2 * old.cap : 16;
	m->slots = sl_xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].s)
			*lookup(m, old.slots[i].s, old.slots[i].n, old.slots[i].hash) = old.slots[i];
	free(old.slots);
}

int *sl_strmap_find(struct sl_strmap *m, const char *s, size_t n)
{
	if (!m->cap)
		return NULL;
	struct sl_strmap_slot *slot = lookup(m, s, n, hash_bytes(s, n));
	return slot->s ? &slot->value : NULL;
}

int *sl_strmap_put(struct sl_strmap *m, const char *s, size_t n, int *added)
{
	uint64_t h = hash_bytes(s, n);

	if (2 * (m->count + 1) > m->cap)
		grow(m);
	struct sl_strmap_slot *slot = lookup(m, s, n, h);
	*added = !slot->s;
	if (!slot->s) {
		*slot = (struct sl_strmap_slot){ .s = s, .n = n, .hash = h, .value = 0 };
		m->count++;
	}
	return &slot->value;
}

void sl_strmap_free(struct sl_strmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
