/*
 * strmap.h - a hash map from byte strings to ints, for loaders that look
 * names up once per name read (duplicate keys of a JSON object, resource
 * names of an rt-app file).
 *
 * A linear search there is quadratic in the input: 200,000 rt-app events
 * or resources took one to two minutes and the 16 MB file cap allowed
 * hours.  Open addressing with the full hash kept per slot: a lookup
 * compares bytes only with a key of the same 64-bit hash, so it costs O(1)
 * expected whatever the input.  Keys are not copied: the bytes must
 * outlive the map (they point into the text being loaded).
 */
#ifndef SL_BASE_STRMAP_H
#define SL_BASE_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct sl_strmap_slot {
	const char *s;			/* NULL: empty */
	size_t n;
	uint64_t hash;
	int value;
};

struct sl_strmap {
	struct sl_strmap_slot *slots;
	size_t cap, count;		/* cap: 0 or a power of two, count <= cap / 2 */
	unsigned long compares;		/* byte comparisons made, for tests of the cost */
};

/* The value of key s[0..n), or NULL if absent. */
int *sl_strmap_find(struct sl_strmap *m, const char *s, size_t n);
/* The value of key s[0..n), inserted as 0 if absent (*added then true). */
int *sl_strmap_put(struct sl_strmap *m, const char *s, size_t n, int *added);
void sl_strmap_free(struct sl_strmap *m);

#endif
