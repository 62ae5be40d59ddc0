/*
 * pidmap.h - a hash map from positive ints (pids) to ints (indexes), for
 * the trace readers that find a task's record once per line.  Open
 * addressing, grown to stay at most half full: O(1) expected per lookup
 * whatever the trace.
 */
#ifndef SL_BASE_PIDMAP_H
#define SL_BASE_PIDMAP_H

struct sl_pidmap {
	int *key, *val;		/* key 0: empty slot */
	int cap, n;		/* cap: 0 or a power of two, n <= cap / 2 */
};

/* The value of `pid` (> 0), or -1. */
int sl_pidmap_get(const struct sl_pidmap *m, int pid);
/* Set the value of `pid` (> 0), adding it if absent. */
void sl_pidmap_put(struct sl_pidmap *m, int pid, int val);
void sl_pidmap_free(struct sl_pidmap *m);

#endif
