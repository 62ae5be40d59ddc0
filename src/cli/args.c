/*
 * args.c - option matching, value parsing and error printing shared by the
 * subcommands (see cli.h).
 */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/memsize.h"
#include "base/spec.h"
#include "report/sweep.h"

int cli_report(const struct sl_err *err)
{
	fprintf(stderr, "schedlab: %s\n", err->msg);
	return err->kind == SL_ERR_INPUT ? EXIT_BAD_INPUT : EXIT_INTERNAL;
}

int cli_bad_input(const char *fmt, ...)
{
	va_list ap;

	fputs("schedlab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_BAD_INPUT;
}

bool cli_is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int cli_option(int argc, char **argv, int *i, const char *shortopt, const char *longopt,
	       const char **value, struct sl_err *err)
{
	const char *a = argv[*i];
	size_t slen = strlen(shortopt), llen = strlen(longopt);

	if (!strncmp(a, longopt, llen) && a[llen] == '=') {
		*value = a + llen + 1;
		return 1;
	}
	if (!strcmp(a, shortopt) || !strcmp(a, longopt)) {
		if (*i + 1 >= argc)
			return sl_fail(err, "option '%s': expected a value after it", a);
		*value = argv[++*i];
		return 1;
	}
	if (!strncmp(a, shortopt, slen) && a[slen]) {
		*value = a + slen;
		return 1;
	}
	return 0;
}

int cli_parse_reps(const char *opt, const char *text, int *reps, struct sl_err *err)
{
	long v;

	if (sl_parse_long(text, &v) || v < 1 || v > SL_SWEEP_MAX_REPS)
		return sl_fail(err, "%s '%s': expected a number of repetitions from 1 to %d",
			       opt, text, SL_SWEEP_MAX_REPS);
	*reps = (int)v;
	return 0;
}

int cli_parse_seed(const char *opt, const char *text, uint64_t *seed, struct sl_err *err)
{
	long v;

	if (sl_parse_long(text, &v) || v < 0)
		return sl_fail(err, "%s '%s': expected a non-negative integer seed", opt, text);
	*seed = (uint64_t)v;
	return 0;
}

int cli_parse_format(const char *opt, const char *text, bool allow_csv,
		     enum sl_format *format, struct sl_err *err)
{
	if (!strcmp(text, "table"))
		*format = SL_FORMAT_TABLE;
	else if (!strcmp(text, "json"))
		*format = SL_FORMAT_JSON;
	else if (allow_csv && !strcmp(text, "csv"))
		*format = SL_FORMAT_CSV;
	else
		return sl_fail(err, "%s '%s': expected %s", opt, text,
			       allow_csv ? "table, json or csv" : "table or json");
	return 0;
}

double cli_wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_print_stats(uint64_t events, double wall_s)
{
	fprintf(stderr, "schedlab: stats: %llu events in %.3f s wall clock (%.3g events/s)\n",
		(unsigned long long)events, wall_s, wall_s > 0 ? (double)events / wall_s : 0.0);
}

int cli_finish_output(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fputs("schedlab: error writing the output\n", stderr);
		return EXIT_INTERNAL;
	}
	return EXIT_OK;
}

int cli_long_option(int argc, char **argv, int *i, const char *longopt, const char **value,
		    struct sl_err *err)
{
	size_t len = strlen(longopt);

	if (!strncmp(argv[*i], longopt, len) && argv[*i][len] == '=') {
		*value = argv[*i] + len + 1;
		return 1;
	}
	if (strcmp(argv[*i], longopt))
		return 0;
	if (*i + 1 >= argc)
		return sl_fail(err, "option '%s': expected a value after it", longopt);
	*value = argv[++*i];
	return 1;
}

int cli_once(const char *cmd, const char **slot, const char *opt, const char *value,
	     struct sl_err *err)
{
	if (*slot)
		return sl_fail(err, "%s: %s given twice ('%s' and '%s'; expected one)", cmd, opt,
			       *slot, value);
	*slot = value;
	return 0;
}

int cli_reps_seed_format(int argc, char **argv, int *i, int *reps, uint64_t *seed,
			 enum sl_format *format, struct sl_err *err)
{
	const char *v;
	int m;

	if ((m = cli_option(argc, argv, i, "-r", "--reps", &v, err)))
		return m < 0 ? -1 : cli_parse_reps("-r", v, reps, err) ? -1 : 1;
	if ((m = cli_option(argc, argv, i, "-s", "--seed", &v, err)))
		return m < 0 ? -1 : cli_parse_seed("-s", v, seed, err) ? -1 : 1;
	if ((m = cli_option(argc, argv, i, "-o", "--output", &v, err)))
		return m < 0 ? -1 : cli_parse_format("-o", v, true, format, err) ? -1 : 1;
	return 0;
}

int cli_unexpected(const char *cmd, const char *arg, const char *options, struct sl_err *err)
{
	if (arg[0] == '-')
		return sl_fail(err, "%s: unknown option '%s' (expected %s)", cmd, arg, options);
	return sl_fail(err, "%s: unexpected argument '%s' (options are %s)", cmd, arg, options);
}

int cli_max_mem(const char *cmd, int argc, char **argv, int *i, struct sl_err *err)
{
	const char *v;
	uint64_t bytes;
	int m = cli_long_option(argc, argv, i, "--max-mem", &v, err);

	if (m <= 0)
		return m;
	if (sl_mem_limit_given())
		return sl_fail(err, "%s: --max-mem given twice (expected one)", cmd);
	if (sl_mem_parse("--max-mem", v, &bytes, err))
		return -1;
	sl_mem_set_limit(bytes);
	return 1;
}
