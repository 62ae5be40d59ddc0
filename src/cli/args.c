/*
 * args.c - option matching, value parsing and error printing shared by the
 * subcommands (see cli.h).
 */
#include "cli/cli.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/memsize.h"
#include "base/spec.h"
#include "cli/shard_cli.h"
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
		return sl_fail(err, "%s '%s': expected an integer seed from 0 to %ld", opt, text,
			       LONG_MAX);
	*seed = (uint64_t)v;
	return 0;
}

/* Every -o format, in the order messages list them; `needs` is the allow
 * flag a command must give for it (0: every command takes it). */
static const struct {
	const char *name;
	enum sl_format format;
	unsigned needs;
} formats[] = {
	{ "table", SL_FORMAT_TABLE, 0 },
	{ "json", SL_FORMAT_JSON, 0 },
	{ "csv", SL_FORMAT_CSV, CLI_FORMAT_CSV },
	{ "sdet", SL_FORMAT_TABLE, CLI_FORMAT_SDET },
	{ "sdet-percent", SL_FORMAT_TABLE, CLI_FORMAT_SDET },
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

int cli_parse_format(const char *opt, const char *text, unsigned allow,
		     enum sl_format *format, struct sl_err *err)
{
	char list[256] = "";
	size_t n = 0, used = 0, k = 0;

	for (size_t i = 0; i < NFORMATS; i++) {
		if ((formats[i].needs & allow) != formats[i].needs)
			continue;
		if (!strcmp(text, formats[i].name)) {
			*format = formats[i].format;
			return 0;
		}
		n++;
	}
	/* "a, b or c" */
	for (size_t i = 0; i < NFORMATS && used < sizeof(list); i++) {
		if ((formats[i].needs & allow) != formats[i].needs)
			continue;
		int w = snprintf(list + used, sizeof(list) - used, "%s%s",
				 k == 0 ? "" : k + 1 == n ? " or " : ", ", formats[i].name);
		used += w > 0 ? (size_t)w : 0;
		k++;
	}
	return sl_fail(err, "%s '%s': expected %s", opt, text, list);
}

int cli_parse_jobs(const char *opt, const char *text, int *jobs, struct sl_err *err)
{
	long v;

	if (sl_parse_long(text, &v) || v < 1 || v > SL_SWEEP_MAX_THREADS)
		return sl_fail(err, "%s '%s': expected a number of threads from 1 to %d", opt, text,
			       SL_SWEEP_MAX_THREADS);
	*jobs = (int)v;
	return 0;
}

int cli_progress_option(const char *arg, bool *quiet, bool *forced)
{
	if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
		*quiet = true;
		return 1;
	}
	if (!strcmp(arg, "--progress")) {
		*forced = true;
		return 1;
	}
	return 0;
}

int cli_how_option(const char *cmd, int argc, char **argv, int *i, bool *stats, bool *quiet,
		   bool *progress, const char **jobs_text, int *jobs, struct sl_err *err)
{
	int at = *i, m;
	const char *v;

	if (!strcmp(argv[*i], "--stats")) {
		*stats = true;
		m = 1;
	} else if (cli_progress_option(argv[*i], quiet, progress)) {
		m = 1;
	} else if ((m = cli_option(argc, argv, i, "-j", "--jobs", &v, err)) > 0) {
		if (cli_once(cmd, jobs_text, "-j", v, err) || cli_parse_jobs("-j", v, jobs, err))
			return -1;
	}
	if (m > 0)
		cli_shard_skip(at, *i - at + 1);
	return m;
}

/* "schedlab: 37/120 runs, 12.4 s, about 27.8 s left"; the caller holds the lock. */
static void progress_draw(struct cli_progress *p, double now)
{
	double elapsed = now - p->t0;

	fprintf(stderr, "%sschedlab: %ld/%ld runs, %.1f s", p->tty ? "\r" : "", p->done, p->total,
		elapsed);
	if (p->done && p->done < p->total)
		fprintf(stderr, ", about %.1f s left",
			elapsed / (double)p->done * (double)(p->total - p->done));
	fputs(p->tty ? "\033[K" : "\n", stderr);
	fflush(stderr);
	p->last = now;
}

static void progress_run_done(struct sl_sweep_progress *base)
{
	struct cli_progress *p = (struct cli_progress *)base;
	double now = cli_wall_seconds();

	pthread_mutex_lock(&p->lock);
	p->done++;
	/* a terminal's line at most 10 times a second; a log's once a second */
	if (p->done < p->total && now - p->last >= (p->tty ? 0.1 : 1.0))
		progress_draw(p, now);
	pthread_mutex_unlock(&p->lock);
}

void cli_progress_start(struct cli_progress *p, long total, bool quiet, bool forced)
{
	memset(p, 0, sizeof(*p));
	pthread_mutex_init(&p->lock, NULL);
	p->tty = isatty(STDERR_FILENO);
	p->on = !quiet && (forced || p->tty);
	p->total = total;
	p->t0 = p->last = cli_wall_seconds();
	if (p->on) {
		p->base.run_done = progress_run_done;
		progress_draw(p, p->t0);
	}
}

void cli_progress_end(struct cli_progress *p)
{
	if (p->on) {
		progress_draw(p, cli_wall_seconds());
		if (p->tty)
			fputc('\n', stderr);
	}
	pthread_mutex_destroy(&p->lock);
}

double cli_wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double cli_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_print_stats(const struct sl_event_counts *events, double wall_s, double cpu_s)
{
	fprintf(stderr, "schedlab: stats: %llu events in %.3f s wall clock, %.6f s CPU "
		"(%.3g events/s)\n", (unsigned long long)events->total, wall_s, cpu_s,
		wall_s > 0 ? (double)events->total / wall_s : 0.0);
	/* a second line, so that scripts reading the first keep working */
	fprintf(stderr, "schedlab: stats: events by kind:");
	for (int k = 0; k < SL_EVK_COUNT; k++)
		fprintf(stderr, "%s %s %llu (%.1f %%)", k ? "," : "", sl_event_kind_name(k),
			(unsigned long long)events->kind[k],
			events->total ? 100.0 * (double)events->kind[k] / (double)events->total : 0.0);
	fputc('\n', stderr);
	double per = events->total ? 1.0 / (double)events->total : 0.0;
	fprintf(stderr, "schedlab: stats: %llu completions timed (%.2f per event), %llu node "
		"re-timings for bandwidth contention (%.2f per event), %llu program steps (%.2f "
		"per event)\n",
		(unsigned long long)events->bursts_timed, (double)events->bursts_timed * per,
		(unsigned long long)events->node_retimes, (double)events->node_retimes * per,
		(unsigned long long)events->steps, (double)events->steps * per);
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

int cli_reps_seed_format(const char *cmd, int argc, char **argv, int *i, int *reps,
			 uint64_t *seed, enum sl_format *format, struct cli_given *given,
			 struct sl_err *err)
{
	const char *v;
	int m;

	if ((m = cli_option(argc, argv, i, "-r", "--reps", &v, err)))
		return m < 0 || cli_once(cmd, &given->reps, "-r", v, err) ||
		       cli_parse_reps("-r", v, reps, err) ? -1 : 1;
	if ((m = cli_option(argc, argv, i, "-s", "--seed", &v, err)))
		return m < 0 || cli_once(cmd, &given->seed, "-s", v, err) ||
		       cli_parse_seed("-s", v, seed, err) ? -1 : 1;
	if ((m = cli_option(argc, argv, i, "-o", "--output", &v, err)))
		return m < 0 || cli_once(cmd, &given->format, "-o", v, err) ||
		       cli_parse_format("-o", v, CLI_FORMAT_CSV, format, err) ? -1 : 1;
	return 0;
}

int cli_unexpected(const char *cmd, const char *arg, const char *options, struct sl_err *err)
{
	if (arg[0] == '-')
		return sl_fail(err, "%s: unknown option '%s' (expected %s)", cmd, arg, options);
	return sl_fail(err, "%s: unexpected argument '%s' (options are %s)", cmd, arg, options);
}

char *cli_command_line(int argc, char **argv)
{
	size_t len = sizeof("schedlab");
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = sl_xmalloc(len);
	strcpy(s, "schedlab");
	for (int i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
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
