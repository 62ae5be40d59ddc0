/*
 * perf_tools.h - perf and the kernel's sched tracepoints, for the commands
 * that record real scheduling: `trace record` (perf sched record of one
 * command) and `real --latency` / `validate --latency` (a system-wide
 * recording around each repetition, read back as the wait percentiles
 * every simulated run reports).
 */
#ifndef SL_CLI_PERF_TOOLS_H
#define SL_CLI_PERF_TOOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/err.h"
#include "real/real.h"

/* The path of `name` found in $PATH (or `name` itself with a '/') into
 * buf; false if there is no such executable. */
bool cli_find_program(const char *name, char *buf, size_t size);
/* True if the sched tracepoint `name` (e.g. "sched_process_exec") exists. */
bool cli_have_sched_event(const char *name);
/* The sched tracepoints, mounting tracefs (or debugfs) if need be: 0, or
 * EXIT_INTERNAL after one line on stderr saying what failed (`cmd` names
 * the command). */
int cli_need_tracepoints(const char *cmd);

/*
 * `perf sched record -a`, started disabled and switched on and off through
 * perf's control pipes (--control fd:CTL,ACK), so that exactly the
 * repetition is recorded: set up before the processes start, off once they
 * are reaped.  One recording per repetition; its tasks are the ones the
 * schedlab process forked (trace/stats.h, the tree of a pid).
 */
struct cli_perf_rec {
	char perf[4096];	/* perf's path */
	pid_t pid;		/* perf, 0 when not running */
	int ctl, ack;		/* our ends of its control pipes, -1: closed */
	char dir[4096];		/* temporary directory of perf.data, "" if none */
	char data[4200];
};

/* Find perf and the tracepoints: 0, or EXIT_INTERNAL after one line. */
int cli_perf_rec_init(struct cli_perf_rec *r, const char *cmd);
/* The hooks of struct sl_real_env that record each repetition and add
 * wakeup_lat_us_* and runq_delay_us_* of its processes to its metrics;
 * `arg` is the struct cli_perf_rec. */
int cli_perf_rec_rep_begin(void *arg, struct sl_err *err);
int cli_perf_rec_rep_end(void *arg, struct sl_metrics *out, struct sl_err *err);
/* Stop perf if it runs and remove its files (after any outcome). */
void cli_perf_rec_cleanup(struct cli_perf_rec *r);

#endif
