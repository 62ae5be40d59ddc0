/*
 * linuxthreads.c - LinuxThreads' thread manager: pthread_create through a
 * manager thread that clones each new thread (linuxthreads.h says what it
 * models and from which sources).
 */
#include "workload/linuxthreads.h"

enum { LT_FIRST, LT_DEBUG, LT_REQUEST, LT_SUSPEND, LT_RETURN };
enum { LTM_DEBUG, LTM_READ, LTM_CLONE, LTM_RESTART, LTM_REAP };

/* The manager: the debug request, then a request at a time until the pipe
 * is closed, then its children reaped, then exit. */
static void manager_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct lt_manager *m = t->prog_state;
	struct lt_create *c = m->queued.head ?
		sl_dlist_entry(m->queued.head, struct lt_create, link) : NULL;

	(void)sim;
	t->footprint_kb = LT_MANAGER_FOOTPRINT_KB;
	switch (m->pc) {
	case LTM_DEBUG:		/* __pthread_manager: "synchronize debugging" */
		m->pc = LTM_READ;
		*next = sl_act_chan(SL_ACT_CHAN_READ, m->requests, LT_REQUEST_BYTES);
		return;
	case LTM_READ:		/* poll(), then read() a request */
		m->pc = LTM_CLONE;
		*next = sl_act_chan(SL_ACT_CHAN_READ, m->requests, LT_REQUEST_BYTES);
		return;
	case LTM_CLONE:
		if (t->result <= 0) {	/* EOF: no more requests */
			m->pc = LTM_REAP;
			*next = sl_act_wait();
			return;
		}
		if (!c) {	/* the rest of a request served already (a read
				 * may take part of one): read on */
			*next = sl_act_chan(SL_ACT_CHAN_READ, m->requests, LT_REQUEST_BYTES);
			return;
		}
		m->pc = LTM_RESTART;
		*next = sl_act_fork(c->prog, c->state, c->comm, true);
		return;
	case LTM_RESTART:	/* restart(creator): its signal */
		sl_dlist_del(&m->queued, &c->link);
		m->pc = LTM_READ;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, c->restart, 1);
		return;
	default:		/* reap every thread, then exit */
		*next = t->result < 0 ? sl_act_exit() : sl_act_wait();
		return;
	}
}

static const struct sl_prog lt_manager_prog = { .name = "linuxthreads-manager",
						.step = manager_step };

void lt_manager_init(struct sl_sim *sim, struct lt_manager *m)
{
	*m = (struct lt_manager){ .requests = sl_pipe_new(sim, 0) };
}

void lt_create_init(struct sl_sim *sim, struct lt_create *c)
{
	/* a signal: a plain wakeup, never full */
	*c = (struct lt_create){ .restart = sl_chan_new(sim, 1L << 40, false) };
}

bool lt_create_step(struct lt_manager *m, struct lt_create *c, const struct sl_prog *prog,
		    void *state, const char *comm, struct sl_action *next)
{
	switch (c->pc) {
	case LT_FIRST:
		if (!m->started) {	/* __pthread_initialize_manager */
			m->started = true;
			c->pc = LT_DEBUG;
			*next = sl_act_fork(&lt_manager_prog, m, NULL, true);
			return true;
		}
		/* fall through */
	case LT_REQUEST:
		c->prog = prog;
		c->state = state;
		c->comm = comm;
		sl_dlist_push_back(&m->queued, &c->link);
		c->pc = LT_SUSPEND;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, m->requests, LT_REQUEST_BYTES);
		return true;
	case LT_DEBUG:		/* the manager's first request */
		c->pc = LT_REQUEST;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, m->requests, LT_REQUEST_BYTES);
		return true;
	case LT_SUSPEND:	/* suspend(self) until the manager's restart */
		c->pc = LT_RETURN;
		*next = sl_act_chan(SL_ACT_CHAN_READ, c->restart, 1);
		return true;
	default:
		c->pc = LT_FIRST;
		return false;
	}
}

struct sl_action lt_done(struct lt_manager *m)
{
	return sl_act_chan(SL_ACT_CHAN_CLOSE, m->requests, 0);
}
