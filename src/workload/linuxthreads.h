/*
 * linuxthreads.h - pthread_create as LinuxThreads did it: through a thread
 * manager, the libc of every Linux system until NPTL (glibc 2.0-2.3,
 * 1996-2003; NPTL's first release, Sep 2002, needed kernel features that
 * came after 2.5.32, UNVERIFIED which, and distributions shipped it from
 * 2003).
 *
 * A process's first pthread_create clones a manager thread and sends it a
 * request on a pipe; every pthread_create then writes its request to that
 * pipe and suspends until the manager, having cloned the new thread,
 * restarts it with a signal.  So the manager is every thread's parent, a
 * new thread starts on the manager's CPU, and the creator sleeps through
 * each creation: a start-up of another shape than NPTL's, where the
 * creator clones the thread itself and runs on.  Which shape a 2002 run
 * had decides where its threads first land (chat's start-up,
 * docs/workloads.md, "Thread creation").
 *
 * Sources (glibc 2.2.5 linuxthreads, UNVERIFIED against a copy: none is at
 * hand; the structure as its pthread.c and manager.c have it):
 *   pthread.c __pthread_create_2_1: __pthread_initialize_manager() at the
 *     first call (pipe(), clone(__pthread_manager, CLONE_VM | CLONE_FS |
 *     CLONE_FILES | CLONE_SIGHAND), then a REQ_DEBUG request written to
 *     the pipe); the REQ_CREATE request written to the pipe; suspend(self)
 *     (sigsuspend until __pthread_sig_restart);
 *   manager.c __pthread_manager: reads the REQ_DEBUG request, then loops
 *     poll() on the pipe, read() a request; REQ_CREATE:
 *     pthread_handle_create (the thread's stack, then clone() with
 *     CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND and
 *     __pthread_sig_cancel, the thread's exit signal to the manager), then
 *     restart(creator): kill(pid, __pthread_sig_restart), a signal's plain
 *     wakeup (2.4.27 kernel/signal.c signal_wake_up -> wake_up_process).
 *
 * Omitted: poll()'s 2 s timeout (the manager's check that the main thread
 * lives; the model's manager blocks in read(), the same with one waiter);
 * the kernel work of the creator's sigprocmask(), the manager's poll()
 * and the thread's stack mmap(), guard page and descriptor's first page
 * fault; the exit signal each thread's death sends the manager, which
 * reaps it then (the model's manager reaps them when the process is done:
 * lt_done, in place of exit()'s REQ_PROCESS_EXIT); pthread_join and
 * REQ_FREE.  The request's size (sizeof(struct pthread_request),
 * LT_REQUEST_BYTES) and the manager's cache footprint
 * (LT_MANAGER_FOOTPRINT_KB) are estimates.
 */
#ifndef SL_WORKLOAD_LINUXTHREADS_H
#define SL_WORKLOAD_LINUXTHREADS_H

#include <stdbool.h>

#include "base/dlist.h"
#include "sim/sim.h"

/* struct pthread_request: a thread pointer, a kind, and the create
 * request's attribute, function, argument and signal mask (sigset_t, 128
 * bytes); its size is an estimate, UNVERIFIED */
#define LT_REQUEST_BYTES 148
/* What the manager touches of its own per request: its stack's top, the
 * request, the handle table's entry and the new thread's descriptor - not
 * its creator's footprint, which a clone would otherwise inherit (an
 * estimate, UNVERIFIED) */
#define LT_MANAGER_FOOTPRINT_KB 4

/* One pthread_create in progress, in the creating thread's own state. */
struct lt_create {
	unsigned char pc;
	struct sl_dlink link;		/* in the manager's queue of requests */
	const struct sl_prog *prog;	/* the new thread's program */
	void *state;
	const char *comm;
	struct sl_chan *restart;	/* the creator's restart signal */
};

/* One process's manager; lt_manager_init at the process's set-up. */
struct lt_manager {
	struct sl_chan *requests;	/* __pthread_manager_request's pipe */
	struct sl_dlist queued;		/* requests written, not yet served */
	bool started;			/* the manager has been cloned */
	unsigned char pc;		/* the manager's own step */
};

void lt_manager_init(struct sl_sim *sim, struct lt_manager *m);

/* The `pthreads` parameter of the workloads that create threads, as a
 * definition line for their tables (sl_param_choice: 1 = linuxthreads). */
#define LT_PTHREADS_PARAM \
	{ "pthreads", SL_PARAM_CHOICE, "nptl", 0, 0, "nptl|linuxthreads", \
	  "how pthread_create makes a thread: cloned by its creator (nptl), or by " \
	  "LinuxThreads' manager thread while the creator is suspended (the libc of " \
	  "every Linux until 2003)" }

/* One step of the calling thread's pthread_create(prog, state, comm): sets
 * *next and returns true while the call goes on, false once the thread
 * exists (c is then ready for the next call).  c->restart must have been
 * made by lt_create_init. */
bool lt_create_step(struct lt_manager *m, struct lt_create *c, const struct sl_prog *prog,
		    void *state, const char *comm, struct sl_action *next);
void lt_create_init(struct sl_sim *sim, struct lt_create *c);

/* The process creates no more threads: the action that tells the manager
 * so (the pipe's writing end closed), after which it reaps the threads as
 * they exit and then exits itself, to be reaped by the creator's wait().
 * (The real manager learns it from the process's exit, REQ_PROCESS_EXIT;
 * the model's creators wait() for their threads, which under LinuxThreads
 * are the manager's children.) */
struct sl_action lt_done(struct lt_manager *m);

#endif
