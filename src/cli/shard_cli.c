/*
 * shard_cli.c - the --shard K/N option of `run` and `reproduce`, and the
 * slice file they write instead of their results (report/shard.h).
 */
#include "cli/shard_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/spec.h"
#include "report/shard.h"

/* Where --shard and its value sat in argv, to leave them out of the
 * command line the slice file records. */
static int shard_at = -1, shard_len;

/* ... and the options that change how a command runs but not what it
 * prints (-j, --quiet, --progress, --stats): slices run with different
 * ones are still slices of one command. */
#define MAX_SKIPS 16
static struct skip { int at, len; } skips[MAX_SKIPS];
static int nskips;

void cli_shard_skip(int at, int len)
{
	if (nskips < MAX_SKIPS)
		skips[nskips++] = (struct skip){ at, len };
}

static bool skipped(int i)
{
	if (i >= shard_at && i < shard_at + shard_len)
		return true;
	for (int k = 0; k < nskips; k++)
		if (i >= skips[k].at && i < skips[k].at + skips[k].len)
			return true;
	return false;
}

int cli_shard_option(const char *cmd, int argc, char **argv, int *i, struct sl_err *err)
{
	static const char *given;
	const char *v, *slash;
	long k, n;
	int at = *i, m = cli_long_option(argc, argv, i, "--shard", &v, err);
	char kbuf[32];

	if (m <= 0)
		return m;
	if (cli_once(cmd, &given, "--shard", v, err))
		return -1;
	slash = strchr(v, '/');
	if (!slash || (size_t)(slash - v) >= sizeof(kbuf))
		return sl_fail(err, "%s: --shard '%s': expected K/N, slice K (from 0) of N", cmd, v);
	memcpy(kbuf, v, (size_t)(slash - v));
	kbuf[slash - v] = 0;
	if (sl_parse_long(slash + 1, &n) || n < 1 || n > SL_SHARD_MAX)
		return sl_fail(err, "%s: --shard '%s': expected N, the number of slices, from 1 "
			       "to %d", cmd, v, SL_SHARD_MAX);
	if (sl_parse_long(kbuf, &k) || k < 0 || k >= n)
		return sl_fail(err, "%s: --shard '%s': expected K from 0 to %ld (slices are "
			       "numbered from 0)", cmd, v, n - 1);
	shard_at = at;
	shard_len = *i - at + 1;
	sl_shard_set_slice((int)k, (int)n);
	return 1;
}

int cli_shard_check(const char *cmd, enum sl_format *format, const char *format_given,
		    const char *other, struct sl_err *err)
{
	if (sl_shard_mode() == SL_SHARD_MERGE) {
		*format = SL_FORMAT_JSON;	/* merge makes the -o json result */
		return 0;
	}
	if (sl_shard_mode() != SL_SHARD_SLICE)
		return 0;
	if (format_given && *format != SL_FORMAT_JSON)
		return sl_fail(err, "%s: --shard writes its slice as JSON, not -o %s ('schedlab "
			       "merge' makes the -o json result)", cmd, format_given);
	if (other)
		return sl_fail(err, "%s: --shard with %s (expected results only; run it "
			       "unsharded)", cmd, other);
	return 0;
}

bool cli_shard_slicing(void)
{
	return sl_shard_mode() == SL_SHARD_SLICE;
}

int cli_shard_finish(int argc, char **argv)
{
	char **rest = sl_xcalloc((unsigned long)argc + 1, sizeof(*rest));
	int n = 0;

	for (int i = 0; i < argc; i++)
		if (!skipped(i))
			rest[n++] = argv[i];
	sl_shard_write(stdout, n, rest);
	free(rest);
	sl_shard_reset();
	return cli_finish_output();
}
