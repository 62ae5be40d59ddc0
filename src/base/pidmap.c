/*
 * pidmap.c - the pid map of pidmap.h (Fibonacci hashing, linear probing).
 */
#include "base/pidmap.h"

#include <stdlib.h>

#include "base/err.h"

static int slot(const struct sl_pidmap *m, int pid)
{
	unsigned h = ((unsigned)pid * 2654435761u) & (unsigned)(m->cap - 1);

	while (m->key[h] && m->key[h] != pid)
		h = (h + 1) & (unsigned)(m->cap - 1);
	return (int)h;
}

static void grow(struct sl_pidmap *m)
{
	int *k = m->key, *v = m->val, n = m->cap;

	m->cap = n ? n * 2 : 1024;
	m->key = sl_xcalloc((unsigned long)m->cap, sizeof(int));
	m->val = sl_xcalloc((unsigned long)m->cap, sizeof(int));
	for (int i = 0; i < n; i++)
		if (k[i]) {
			int s = slot(m, k[i]);
			m->key[s] = k[i];
			m->val[s] = v[i];
		}
	free(k);
	free(v);
}

int sl_pidmap_get(const struct sl_pidmap *m, int pid)
{
	if (!m->cap)
		return -1;
	int s = slot(m, pid);
	return m->key[s] ? m->val[s] : -1;
}

void sl_pidmap_put(struct sl_pidmap *m, int pid, int val)
{
	if (2 * (m->n + 1) > m->cap)
		grow(m);
	int s = slot(m, pid);
	if (!m->key[s])
		m->n++;
	m->key[s] = pid;
	m->val[s] = val;
}

void sl_pidmap_free(struct sl_pidmap *m)
{
	free(m->key);
	free(m->val);
	m->key = m->val = NULL;
	m->cap = m->n = 0;
}
