/*
 * cfs/timeline.h - the timeline of policy `cfs`: an intrusive red-black
 * tree of the queued (not running) entities of one runqueue, ordered by
 * (vruntime, task id), with the leftmost node cached (rb_root_cached) and
 * every node augmented with the entity of earliest (deadline, task id) in
 * its subtree, so that EEVDF's pick - the earliest virtual deadline among
 * the eligible entities, which are a prefix of the vruntime order - takes
 * O(log n).  This is the layout of Linux 6.6's EEVDF tree (sorted by
 * vruntime, augmented by min_deadline); the nodes live in the tasks'
 * private areas, so nothing is allocated.
 *
 * Sources: kernel/sched/fair.c of 6.6 (__enqueue_entity, __pick_eevdf,
 * min_deadline_update), lib/rbtree.c and include/linux/rbtree_augmented.h
 * for the algorithm (CLRS insert and erase fix-ups).
 */
#ifndef SL_POLICY_CFS_TIMELINE_H
#define SL_POLICY_CFS_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

struct cfs_entity;
struct sl_err;

/*
 * A node keeps copies of its entity's keys, set when it is inserted (they
 * do not change while it is), and its subtree's minimum as that entity's
 * key beside its pointer: walking, linking and recomputing read the nodes
 * alone, the fields they read first, not the entities around them.
 */
struct cfs_rb_node {
	struct cfs_rb_node *left, *right;
	int64_t vruntime;		/* the entity's, for the order */
	int64_t deadline;		/* the entity's */
	int id;				/* its task's id (ties) */
	int min_id;			/* min_dl's task id */
	int64_t min_deadline;		/* min_dl's deadline */
	struct cfs_rb_node *parent;
	struct cfs_entity *min_dl;	/* earliest (deadline, id) in this subtree */
	bool red;
};

struct cfs_timeline {
	struct cfs_rb_node *root;
	struct cfs_rb_node *leftmost;
	int nr;
};

/* Eligibility as EEVDF defines it: (vruntime - zero) * load <= avg, where
 * avg is the load-weighted sum of (v_i - zero) over the competing
 * entities and load their total weight (vruntime_eligible()). */
struct cfs_eligible {
	int64_t zero;
	int64_t avg;
	int64_t load;
};

void cfs_tl_init(struct cfs_timeline *tl);
/* se->vruntime and se->deadline must not change while it is inserted. */
void cfs_tl_insert(struct cfs_timeline *tl, struct cfs_entity *se);
void cfs_tl_erase(struct cfs_timeline *tl, struct cfs_entity *se);

struct cfs_entity *cfs_tl_first(const struct cfs_timeline *tl);
struct cfs_entity *cfs_tl_next(const struct cfs_entity *se);

bool cfs_tl_eligible(const struct cfs_eligible *el, int64_t vruntime);
/* The earliest-deadline entity among the eligible ones, or NULL if none. */
struct cfs_entity *cfs_tl_pick_eevdf(const struct cfs_timeline *tl, const struct cfs_eligible *el);

/* Check order, colours, black heights, parent links, the cached leftmost,
 * the augmentation and the count.  Returns 0 or -1 with err set. */
int cfs_tl_check(const struct cfs_timeline *tl, int cpu, struct sl_err *err);

#endif
