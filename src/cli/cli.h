/*
 * cli.h - the subcommands (git's builtin/ pattern: one file per command,
 * each `int cmd_NAME(int argc, char **argv)` returning the exit status)
 * and the small helpers they share for options and errors.
 *
 * Exit status: 0 success, 2 bad input (one line on stderr naming the
 * argument and what was expected), 1 internal failure.
 */
#ifndef SL_CLI_CLI_H
#define SL_CLI_CLI_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "report/output.h"
#include "report/sweep.h"

#define SL_VERSION "0.1"

enum {
	EXIT_OK = 0,
	EXIT_INTERNAL = 1,
	EXIT_BAD_INPUT = 2,
};

/* Dispatch argv[1] to its command; returns the exit status. */
int cli_main(int argc, char **argv);

int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_help(int argc, char **argv);
/* issue 13: saved results compared, and shards merged */
int cmd_compare(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* Add run's -p POLICY cells on `workload` to `s` (run, report): -1 + err
 * on a bad spec or a label used twice. */
struct sl_sweep;
int cli_run_add_policies(struct sl_sweep *s, const char *const *policy, int npolicies,
			 const char *workload, struct sl_err *err);
/* The command line as one string, for pages that show it (free it). */
char *cli_command_line(int argc, char **argv);

/* Usage text of a command (NULL if there is no such command). */
const char *cli_usage(const char *cmd);

/* Print "schedlab: <msg>" and return the exit status for err's kind. */
int cli_report(const struct sl_err *err);
/* Print "schedlab: <formatted>" and return EXIT_BAD_INPUT. */
int cli_bad_input(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Option matching.  cli_option() checks argv[*i] against "-x" / "--long":
 * accepts "-x VALUE", "-xVALUE", "--long VALUE" and "--long=VALUE".
 * Returns 1 and sets *value (advancing *i past a separate value) on a
 * match, 0 if argv[*i] is another argument, -1 with err set when the
 * value is missing.
 */
int cli_option(int argc, char **argv, int *i, const char *shortopt, const char *longopt,
	       const char **value, struct sl_err *err);
bool cli_is_help(const char *arg);
/* A long-only option: "--name VALUE" or "--name=VALUE" (no prefixes). */
int cli_long_option(int argc, char **argv, int *i, const char *longopt, const char **value,
		    struct sl_err *err);
/* Set *slot to an option's value that may be given only once; `cmd`
 * names the command in the message ("run: -m given twice ..."). */
int cli_once(const char *cmd, const char **slot, const char *opt, const char *value,
	     struct sl_err *err);
/* The -r, -s and -o values given so far (NULL: none), so that a second
 * one is refused as cli_once() refuses it, not silently preferred. */
struct cli_given {
	const char *reps, *seed, *format;
};
/* -r REPS, -s SEED, -o table|json|csv, as every running command takes
 * them: 1 matched, 0 another argument, -1 with err set. */
int cli_reps_seed_format(const char *cmd, int argc, char **argv, int *i, int *reps,
			 uint64_t *seed, enum sl_format *format, struct cli_given *given,
			 struct sl_err *err);
/* --max-mem SIZE (base/memsize.h), given at most once: sets the memory
 * limit runs are checked against.  1 matched, 0 another argument, -1
 * with err set. */
int cli_max_mem(const char *cmd, int argc, char **argv, int *i, struct sl_err *err);
/* The error for an argument no option matched: "CMD: unknown option
 * '-x' (expected OPTIONS)" or "CMD: unexpected argument 'x' (options are
 * OPTIONS)".  Returns -1. */
int cli_unexpected(const char *cmd, const char *arg, const char *options, struct sl_err *err);

/* Values, with messages naming the option: "-r 'abc': expected ...". */
int cli_parse_reps(const char *opt, const char *text, int *reps, struct sl_err *err);
int cli_parse_seed(const char *opt, const char *text, uint64_t *seed, struct sl_err *err);
/* Formats beyond table and json a command takes (cli_parse_format's allow). */
#define CLI_FORMAT_CSV 1u
#define CLI_FORMAT_SDET 2u	/* run's sdet and sdet-percent: tables */
/* The message lists the allowed formats from the table of formats. */
int cli_parse_format(const char *opt, const char *text, unsigned allow,
		     enum sl_format *format, struct sl_err *err);

/* -j N: worker threads, 1 to SL_SWEEP_MAX_THREADS. */
int cli_parse_jobs(const char *opt, const char *text, int *jobs, struct sl_err *err);

/*
 * The progress line on stderr (docs/experiments.md): runs done / total,
 * elapsed, an estimate of the rest.  Drawn in place when stderr is a
 * terminal; off otherwise, or with --quiet; --progress forces it (a line
 * per update).  Never on stdout, so results stay byte for byte the same.
 */
struct cli_progress {
	struct sl_sweep_progress base;	/* first: the sweep calls base.run_done */
	pthread_mutex_t lock;
	long done, total;
	double t0, last;
	bool on, tty;
};
/* --quiet / --progress: 1 matched, 0 another argument. */
int cli_progress_option(const char *arg, bool *quiet, bool *forced);
/* The options of run and reproduce that change how they run, not what
 * they print: --stats, --quiet, --progress, -j N (left out of a --shard
 * slice's command line: shard_cli.h).  1 matched (with -j's value), 0
 * another argument, -1 with err set. */
int cli_how_option(const char *cmd, int argc, char **argv, int *i, bool *stats, bool *quiet,
		   bool *progress, const char **jobs_text, int *jobs, struct sl_err *err);
void cli_progress_start(struct cli_progress *p, long total, bool quiet, bool forced);
/* The last line (and the newline a terminal needs). */
void cli_progress_end(struct cli_progress *p);
/* What to hand the sweeps: NULL when the line is off. */
static inline struct sl_sweep_progress *cli_progress_sink(struct cli_progress *p)
{
	return p->on ? &p->base : NULL;
}

/* Seconds on a monotonic clock, and this process's CPU seconds (all its
 * threads): for --stats only; results never use them. */
double cli_wall_seconds(void);
double cli_cpu_seconds(void);
/* The --stats line on stderr: events, wall and CPU seconds since the
 * start (CPU time is what a benchmark on a shared host compares). */
void cli_print_stats(const struct sl_event_counts *events, double wall_s, double cpu_s);
/* Flush stdout; a write error (full disk, closed pipe) is an internal failure. */
int cli_finish_output(void);

#endif
