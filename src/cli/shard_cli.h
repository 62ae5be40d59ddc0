/*
 * shard_cli.h - `--shard K/N` as `run` and `reproduce` take it
 * (report/shard.h; docs/scale-out.md).
 */
#ifndef SL_CLI_SHARD_CLI_H
#define SL_CLI_SHARD_CLI_H

#include <stdbool.h>

#include "cli/cli.h"

/* --shard K/N at argv[*i], given at most once: puts this process in slice
 * mode.  1 matched, 0 another argument, -1 with err set. */
int cli_shard_option(const char *cmd, int argc, char **argv, int *i, struct sl_err *err);
/* After parsing: a slice is JSON only (-o FORMAT given as `format_given`)
 * and results only (`other`: an option that writes something else, such
 * as "--trace", or NULL); under merge, the format becomes JSON. */
int cli_shard_check(const char *cmd, enum sl_format *format, const char *format_given,
		    const char *other, struct sl_err *err);
bool cli_shard_slicing(void);
/* argv[at .. at+len-1] is an option that changes how the command runs,
 * not what it prints (-j N, --quiet, --progress, --stats): left out of the
 * command line a slice records, so slices may differ in it. */
void cli_shard_skip(int at, int len);
/* Write the slice file on stdout (the command line less --shard and the
 * skipped options). */
int cli_shard_finish(int argc, char **argv);

#endif
