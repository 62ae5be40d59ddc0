/*
 * cfs/timeline.c - the red-black tree of queued entities, ordered by
 * (vruntime, task id) and augmented with the earliest (deadline, task id)
 * of every subtree (see cfs/timeline.h).
 *
 * Sources: Linux lib/rbtree.c and include/linux/rbtree_augmented.h (the
 * augmented callbacks: propagate after a link or an unlink, recompute the
 * two nodes of every rotation); kernel/sched/fair.c of 6.6 (__pick_eevdf
 * over a vruntime-ordered tree, vruntime_eligible); CLRS chapter 13 for the
 * insert and erase fix-ups, written with NULL leaves.
 *
 * Omitted / simplified:
 *   - The kernel compares vruntimes as u64 differences (wrap-safe); here
 *     vruntimes are int64 ns starting near 0, which cannot wrap within a
 *     simulated run (2^63 ns).
 *   - Ties in vruntime or deadline are broken by task id (the kernel's
 *     order among equal keys is insertion order): deterministic by design.
 *   - The eligibility product (v - zero) * load is computed in 128 bits
 *     where the kernel uses s64.
 */
#include <stddef.h>

#include "policy/cfs/cfs.h"

static inline struct cfs_entity *cfs_node_se(const struct cfs_rb_node *n)
{
	return (struct cfs_entity *)((char *)n - offsetof(struct cfs_entity, node));
}

static bool cfs_tl_less(const struct cfs_rb_node *a, const struct cfs_rb_node *b)
{
	if (a->vruntime != b->vruntime)
		return a->vruntime < b->vruntime;
	return a->id < b->id;
}

/* The augmentation's order: (deadline, task id). */
static inline bool cfs_key_before(int64_t da, int ia, int64_t db, int ib)
{
	return da != db ? da < db : ia < ib;
}

static bool cfs_dl_before(const struct cfs_entity *a, const struct cfs_entity *b)
{
	if (a->deadline != b->deadline)
		return a->deadline < b->deadline;
	return a->task->id < b->task->id;
}

static struct cfs_entity *cfs_dl_min(struct cfs_entity *a, struct cfs_entity *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return cfs_dl_before(b, a) ? b : a;
}

static inline void cfs_tl_copy_min(struct cfs_rb_node *to, const struct cfs_rb_node *from)
{
	to->min_dl = from->min_dl;
	to->min_deadline = from->min_deadline;
	to->min_id = from->min_id;
}

/* min_deadline_update(): this node from its own entity and its children's
 * keys; true if its value changed. */
static bool cfs_tl_augment(struct cfs_rb_node *n)
{
	struct cfs_entity *m = cfs_node_se(n);
	int64_t d = n->deadline;
	int id = n->id;
	const struct cfs_rb_node *c;

	if ((c = n->left) && cfs_key_before(c->min_deadline, c->min_id, d, id)) {
		m = c->min_dl;
		d = c->min_deadline;
		id = c->min_id;
	}
	if ((c = n->right) && cfs_key_before(c->min_deadline, c->min_id, d, id)) {
		m = c->min_dl;
		d = c->min_deadline;
		id = c->min_id;
	}
	if (m == n->min_dl)
		return false;
	n->min_dl = m;
	n->min_deadline = d;
	n->min_id = id;
	return true;
}

/*
 * The augmented callbacks' propagate(): recompute from n up to (not
 * including) stop, and stop early where a node's value did not change, its
 * ancestors then seeing the same minimum below them as before.  Valid when
 * every change of the tree lies below n, as after a link or an unlink
 * (rb_erase_augmented's two-step walk for a moved successor: see erase).
 */
static void cfs_tl_propagate(struct cfs_rb_node *n, const struct cfs_rb_node *stop)
{
	while (n != stop && cfs_tl_augment(n))
		n = n->parent;
}

static void cfs_tl_replace_child(struct cfs_timeline *tl, struct cfs_rb_node *parent,
				 struct cfs_rb_node *old, struct cfs_rb_node *new)
{
	if (!parent)
		tl->root = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

static void cfs_tl_rotate_left(struct cfs_timeline *tl, struct cfs_rb_node *x)
{
	struct cfs_rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->parent = x->parent;
	cfs_tl_replace_child(tl, x->parent, x, y);
	y->left = x;
	x->parent = y;
	/* the augmented rotate callback: y now spans what x spanned */
	cfs_tl_copy_min(y, x);
	cfs_tl_augment(x);
}

static void cfs_tl_rotate_right(struct cfs_timeline *tl, struct cfs_rb_node *x)
{
	struct cfs_rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->parent = x->parent;
	cfs_tl_replace_child(tl, x->parent, x, y);
	y->right = x;
	x->parent = y;
	cfs_tl_copy_min(y, x);
	cfs_tl_augment(x);
}

static inline bool cfs_is_red(const struct cfs_rb_node *n)
{
	return n && n->red;
}

void cfs_tl_init(struct cfs_timeline *tl)
{
	tl->root = tl->leftmost = NULL;
	tl->nr = 0;
}

static void cfs_tl_insert_fixup(struct cfs_timeline *tl, struct cfs_rb_node *z)
{
	struct cfs_rb_node *p;

	while ((p = z->parent) && p->red) {
		struct cfs_rb_node *g = p->parent;

		if (p == g->left) {
			struct cfs_rb_node *u = g->right;
			if (cfs_is_red(u)) {
				p->red = u->red = false;
				g->red = true;
				z = g;
				continue;
			}
			if (z == p->right) {
				z = p;
				cfs_tl_rotate_left(tl, z);
				p = z->parent;
			}
			p->red = false;
			g->red = true;
			cfs_tl_rotate_right(tl, g);
		} else {
			struct cfs_rb_node *u = g->left;
			if (cfs_is_red(u)) {
				p->red = u->red = false;
				g->red = true;
				z = g;
				continue;
			}
			if (z == p->left) {
				z = p;
				cfs_tl_rotate_right(tl, z);
				p = z->parent;
			}
			p->red = false;
			g->red = true;
			cfs_tl_rotate_left(tl, g);
		}
	}
	tl->root->red = false;
}

void cfs_tl_insert(struct cfs_timeline *tl, struct cfs_entity *se)
{
	struct cfs_rb_node *n = &se->node, *parent = NULL;
	struct cfs_rb_node **link = &tl->root;
	bool leftmost = true;

	n->vruntime = se->vruntime;
	n->deadline = se->deadline;
	n->id = se->task->id;

	while (*link) {
		parent = *link;
		if (cfs_tl_less(n, parent)) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}
	n->parent = parent;
	n->left = n->right = NULL;
	n->red = true;
	n->min_dl = se;
	n->min_deadline = n->deadline;
	n->min_id = n->id;
	*link = n;
	if (leftmost)
		tl->leftmost = n;
	tl->nr++;
	/* propagate(): every ancestor gains se alone, so the walk up ends at
	 * the first one whose minimum stays before it */
	for (; parent && cfs_key_before(n->deadline, n->id, parent->min_deadline, parent->min_id);
	     parent = parent->parent)
		cfs_tl_copy_min(parent, n);
	cfs_tl_insert_fixup(tl, n);
}

static struct cfs_rb_node *cfs_tl_next_node(const struct cfs_rb_node *n)
{
	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (struct cfs_rb_node *)n;
	}
	while (n->parent && n == n->parent->right)
		n = n->parent;
	return n->parent;
}

/* Put v where u was (u's subtree links are the caller's business). */
static void cfs_tl_transplant(struct cfs_timeline *tl, struct cfs_rb_node *u,
			      struct cfs_rb_node *v)
{
	cfs_tl_replace_child(tl, u->parent, u, v);
	if (v)
		v->parent = u->parent;
}

/* x (possibly NULL) under xp carries an extra black. */
static void cfs_tl_erase_fixup(struct cfs_timeline *tl, struct cfs_rb_node *x,
			       struct cfs_rb_node *xp)
{
	while (x != tl->root && !cfs_is_red(x)) {
		if (x == xp->left) {
			struct cfs_rb_node *w = xp->right;
			if (w->red) {
				w->red = false;
				xp->red = true;
				cfs_tl_rotate_left(tl, xp);
				w = xp->right;
			}
			if (!cfs_is_red(w->left) && !cfs_is_red(w->right)) {
				w->red = true;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!cfs_is_red(w->right)) {
				w->left->red = false;
				w->red = true;
				cfs_tl_rotate_right(tl, w);
				w = xp->right;
			}
			w->red = xp->red;
			xp->red = false;
			w->right->red = false;
			cfs_tl_rotate_left(tl, xp);
		} else {
			struct cfs_rb_node *w = xp->left;
			if (w->red) {
				w->red = false;
				xp->red = true;
				cfs_tl_rotate_right(tl, xp);
				w = xp->left;
			}
			if (!cfs_is_red(w->left) && !cfs_is_red(w->right)) {
				w->red = true;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!cfs_is_red(w->left)) {
				w->right->red = false;
				w->red = true;
				cfs_tl_rotate_left(tl, w);
				w = xp->left;
			}
			w->red = xp->red;
			xp->red = false;
			w->left->red = false;
			cfs_tl_rotate_right(tl, xp);
		}
		x = tl->root;
		break;
	}
	if (x)
		x->red = false;
}

void cfs_tl_erase(struct cfs_timeline *tl, struct cfs_entity *se)
{
	struct cfs_rb_node *z = &se->node, *x, *xp, *moved = NULL;
	bool removed_red;

	if (tl->leftmost == z)
		tl->leftmost = cfs_tl_next_node(z);
	if (!z->left || !z->right) {
		x = z->left ? z->left : z->right;
		xp = z->parent;
		removed_red = z->red;
		cfs_tl_transplant(tl, z, x);
	} else {
		struct cfs_rb_node *y = z->right;
		while (y->left)
			y = y->left;
		moved = y;
		removed_red = y->red;
		x = y->right;
		if (y->parent == z) {
			xp = y;
		} else {
			xp = y->parent;
			cfs_tl_transplant(tl, y, y->right);
			y->right = z->right;
			y->right->parent = y;
		}
		cfs_tl_transplant(tl, z, y);
		y->left = z->left;
		y->left->parent = y;
		y->red = z->red;
	}
	tl->nr--;
	/*
	 * Every subtree that changed lies on the path from xp to the root.
	 * A successor y moved into z's place: below it the path lost y, at
	 * and above it z; y starts from z's old value (the augmented copy
	 * callback) so that the walk above it can stop early, and the walk
	 * below it ends at y.
	 */
	if (moved) {
		cfs_tl_copy_min(moved, z);
		if (xp != moved)
			cfs_tl_propagate(xp, moved);
		cfs_tl_propagate(moved, NULL);
	} else {
		cfs_tl_propagate(xp, NULL);
	}
	if (!removed_red)
		cfs_tl_erase_fixup(tl, x, xp);
	z->parent = z->left = z->right = NULL;
	z->min_dl = NULL;
}

struct cfs_entity *cfs_tl_first(const struct cfs_timeline *tl)
{
	return tl->leftmost ? cfs_node_se(tl->leftmost) : NULL;
}

struct cfs_entity *cfs_tl_next(const struct cfs_entity *se)
{
	struct cfs_rb_node *n = cfs_tl_next_node(&se->node);

	return n ? cfs_node_se(n) : NULL;
}

bool cfs_tl_eligible(const struct cfs_eligible *el, int64_t vruntime)
{
	return (__int128)el->avg >= (__int128)(vruntime - el->zero) * el->load;
}

/*
 * Eligible entities are a prefix of the vruntime order: an eligible node
 * makes its whole left subtree eligible, so the best of those is its
 * min_dl; then look right.  An ineligible node sends us left.
 */
struct cfs_entity *cfs_tl_pick_eevdf(const struct cfs_timeline *tl, const struct cfs_eligible *el)
{
	struct cfs_entity *best = NULL;
	int64_t best_dl = 0;
	int best_id = 0;

	/* The earliest (deadline, id) of the whole tree, if eligible, is the
	 * earliest of the eligible ones: one test instead of the walk (6.12's
	 * pick_eevdf takes its earliest-deadline leftmost the same way).  It
	 * answers most picks of a long queue, the walk costing a 128-bit
	 * product per level. */
	const struct cfs_rb_node *r = tl->root;
	if (r && cfs_tl_eligible(el, r->min_dl->node.vruntime))
		return r->min_dl;

	for (struct cfs_rb_node *n = tl->root; n;) {
		if (cfs_tl_eligible(el, n->vruntime)) {
			if (!best || cfs_key_before(n->deadline, n->id, best_dl, best_id)) {
				best = cfs_node_se(n);
				best_dl = n->deadline;
				best_id = n->id;
			}
			const struct cfs_rb_node *l = n->left;
			if (l && cfs_key_before(l->min_deadline, l->min_id, best_dl, best_id)) {
				best = l->min_dl;
				best_dl = l->min_deadline;
				best_id = l->min_id;
			}
			n = n->right;
		} else {
			n = n->left;
		}
	}
	return best;
}

/* ---- consistency ---- */

struct cfs_tl_walk {
	int count;
	const struct cfs_entity *prev;
	const char *bad;
};

/* Black height of n's subtree, or -1 (w->bad says why). */
static int cfs_tl_check_node(const struct cfs_rb_node *n, const struct cfs_rb_node *parent,
			     struct cfs_tl_walk *w)
{
	if (!n)
		return 0;
	if (n->parent != parent) {
		w->bad = "parent link";
		return -1;
	}
	if (n->red && cfs_is_red(parent)) {
		w->bad = "red node with a red parent";
		return -1;
	}
	int lh = cfs_tl_check_node(n->left, n, w);
	if (lh < 0)
		return -1;
	const struct cfs_entity *se = cfs_node_se(n);
	if (w->prev && !cfs_tl_less(&w->prev->node, n)) {
		w->bad = "order";
		return -1;
	}
	w->prev = se;
	w->count++;
	int rh = cfs_tl_check_node(n->right, n, w);
	if (rh < 0)
		return -1;
	if (lh != rh) {
		w->bad = "black height";
		return -1;
	}
	struct cfs_entity *m = cfs_node_se(n);
	if (n->left)
		m = cfs_dl_min(m, n->left->min_dl);
	if (n->right)
		m = cfs_dl_min(m, n->right->min_dl);
	if (n->min_dl != m) {
		w->bad = "min_deadline augmentation";
		return -1;
	}
	if (n->vruntime != se->vruntime || n->deadline != se->deadline ||
	    n->id != se->task->id || n->min_deadline != m->deadline ||
	    n->min_id != m->task->id) {
		w->bad = "cached key";
		return -1;
	}
	return lh + !n->red;
}

int cfs_tl_check(const struct cfs_timeline *tl, int cpu, struct sl_err *err)
{
	struct cfs_tl_walk w = { 0 };

	if (cfs_is_red(tl->root))
		return sl_fail_internal(err, "cfs: timeline of CPU %d has a red root", cpu);
	if (cfs_tl_check_node(tl->root, NULL, &w) < 0)
		return sl_fail_internal(err, "cfs: timeline of CPU %d: bad %s", cpu, w.bad);
	if (w.count != tl->nr)
		return sl_fail_internal(err, "cfs: timeline of CPU %d holds %d, counts %d", cpu,
					w.count, tl->nr);
	const struct cfs_rb_node *l = tl->root;
	while (l && l->left)
		l = l->left;
	if (l != tl->leftmost)
		return sl_fail_internal(err, "cfs: timeline of CPU %d: stale leftmost", cpu);
	return 0;
}
