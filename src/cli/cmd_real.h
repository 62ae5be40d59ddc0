/*
 * cmd_real.h - the commands that run real processes (`real`, `validate`)
 * and the helpers they share (defined in cmd_real.c).
 */
#ifndef SL_CLI_CMD_REAL_H
#define SL_CLI_CMD_REAL_H

#include <stddef.h>

#include "base/err.h"
#include "real/real.h"

int cmd_real(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/* Parse -w and --cpus (NULL: every CPU we may use) into a bound workload
 * with its host-derived defaults resolved.  `cmd` names the command in
 * messages.  0 or -1 with err set. */
int cli_real_setup(const char *cmd, const char *workload, const char *cpus,
		   const struct sl_real_workload **w, struct sl_params *params,
		   struct sl_real_env *env, struct sl_err *err);

/* "real: Linux 6.1.0-18-amd64, CPUs 0-1": the column label of real runs. */
void cli_real_label(const struct sl_real_env *env, char *buf, size_t size);

/* --latency: find perf and the tracepoints and set env's hooks to record
 * each repetition with `rec` (cli_perf_rec_cleanup it after the run): 0,
 * or the exit code after one line on stderr. */
struct cli_perf_rec;
int cli_real_latency(struct cli_perf_rec *rec, const char *cmd, struct sl_real_env *env);

/* After an interrupted real run: print the error line, then die of the
 * signal (so the shell sees an interrupted command); returns 1 only if
 * the signal does not kill us. */
int cli_real_interrupted(const struct sl_err *err);

#endif
