/*
 * hackbench.h - our own C implementation of the hackbench pattern (Rusty
 * Russell's 2001 program, as rt-tests and perf bench sched messaging keep
 * it): G groups of F receivers and F senders; every sender writes L
 * messages of S bytes to each receiver of its group over a UNIX socket
 * pair or a pipe.  Used by the `hackbench` real workload and as the
 * disturbance inside real `schedbench` (numa_test's "hackbench 20").
 */
#ifndef SL_REAL_HACKBENCH_H
#define SL_REAL_HACKBENCH_H

#include <stdbool.h>
#include <stddef.h>

struct sl_real_hb {
	int groups, fds, loops, size;
	int readsize;		/* bytes a receiver asks per read; at most `size`
				 * (or 0): the rest of one message, as hackbench */
	bool pipe;		/* pipes instead of socket pairs */
};

/* Bytes a receiver that has read `done` bytes asks for in its next read:
 * the rest of the current message, as hackbench's receiver
 * (read(fd, data + done, DATASIZE - done)), or readsize when that is
 * larger than a message (whatever is queued, up to it). */
size_t sl_real_hb_read_want(const struct sl_real_hb *hb, size_t done);

/*
 * Run it in the calling process (a child of schedlab, leading its own
 * process group): fork every sender and receiver, let them all get ready,
 * start the clock, release them, wait for all.  *time_s gets hackbench's
 * "Time:", from the release to the last exit.  Returns an exit status:
 * 0, or non-zero if a process could not be created or failed.
 */
int sl_real_hb_main(const struct sl_real_hb *hb, double *time_s);

/* A root process for sl_real_procs_spawn(): sleeps delay_s, runs
 * sl_real_hb_main() and writes its time (a double) to result_fd. */
struct sl_real_hb_root {
	struct sl_real_hb hb;
	double delay_s;
	int result_fd;
};
int sl_real_hb_root(void *root);

#endif
