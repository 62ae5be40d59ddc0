/*
 * cmd_trace.c - `schedlab trace import FILE -o WORKLOAD.json [--all |
 * --pid PID ...]` and `schedlab trace record -o FILE [--] COMMAND...`.
 *
 * import turns the perf script (or ftrace) text of a scheduling trace into
 * the JSON the `trace` workload replays (trace/import.h) and says
 * on stderr, in one line, what it used, skipped and kept.
 *
 * record runs COMMAND under `perf sched record` (adding the exec and exit
 * tracepoints, which perf sched leaves out) and writes `perf script --ns`
 * of it, with the PID/TID column (threads): the text import reads.  It
 * needs perf and the kernel's sched tracepoints; if tracefs is not mounted
 * it tries to mount it (root only) and says what failed otherwise (exit
 * 1).  perf runs in a process group of its own, as `real`'s processes do
 * (real/proc.h): SIGINT, SIGTERM or SIGHUP sent to schedlab kill it and
 * the command, and nothing is left behind - no process, no temporary
 * directory, no partial FILE.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/outfile.h"
#include "cli/cli.h"
#include "cli/cmd_real.h"
#include "cli/perf_tools.h"
#include "real/ktree.h"
#include "real/proc.h"
#include "trace/import.h"
#include "trace/stats.h"

/* ---- import ---- */

static int parse_pid(const char *text, const char *what, int *pid, struct sl_err *err)
{
	long v;

	if (sl_parse_long(text, &v) || v < 1 || v > 0x7fffffffL)
		return sl_fail(err, "%s '%s': expected a process id (a positive integer)", what,
			       text);
	*pid = (int)v;
	return 0;
}

static int import_args(int argc, char **argv, const char **in, const char **out,
		       struct sl_trace_import_opts *o, struct sl_err *err)
{
	for (int i = 1; i < argc; i++) {
		const char *v;
		int m;

		if (!strcmp(argv[i], "--all")) {
			if (o->npids)
				return sl_fail(err, "trace import: --all and --pid exclude each other");
			o->select = SL_SELECT_ALL;
			continue;
		}
		if ((m = cli_option(argc, argv, &i, "-o", "--output", &v, err))) {
			if (m < 0)
				return -1;
			if (*out)
				return sl_fail(err, "trace import: -o given twice ('%s' and '%s')",
					       *out, v);
			*out = v;
			continue;
		}
		if (!strcmp(argv[i], "--pid") || !strncmp(argv[i], "--pid=", 6)) {
			if (argv[i][5] == '=')
				v = argv[i] + 6;
			else if (i + 1 < argc)
				v = argv[++i];
			else
				return sl_fail(err, "option '--pid': expected a value after it");
			if (o->select == SL_SELECT_ALL)
				return sl_fail(err, "trace import: --all and --pid exclude each other");
			if (o->npids == SL_TRACE_MAX_PIDS)
				return sl_fail(err, "trace import: at most %d --pid", SL_TRACE_MAX_PIDS);
			if (parse_pid(v, "trace import: --pid", &o->pids[o->npids], err))
				return -1;
			o->npids++;
			o->select = SL_SELECT_PIDS;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			return sl_fail(err, "trace import: unknown option '%s' (expected -o, --all "
				       "or --pid)", argv[i]);
		if (*in)
			return sl_fail(err, "trace import: unexpected argument '%s' (one trace file "
				       "only)", argv[i]);
		*in = argv[i];
	}
	if (!*in)
		return sl_fail(err, "trace import: missing the trace FILE (perf script output)");
	if (!*out)
		return sl_fail(err, "trace import: missing -o WORKLOAD.json");
	return 0;
}

/* The one summary line. */
static void import_summary(const struct sl_trace_import_stats *st)
{
	fprintf(stderr, "schedlab: trace import: %ld lines, %ld events used, %ld skipped",
		st->lines, st->used, st->skipped);
	for (int i = 0; i < st->nnames; i++)
		fprintf(stderr, "%s%ld %s", i ? ", " : " (", st->names[i].count, st->names[i].name);
	if (st->nnames)
		fputs(st->skipped > 0 && st->nnames == SL_TRACE_SKIP_NAMES ? ", ...)" : ")", stderr);
	fprintf(stderr, "; %d of %d tasks kept", st->tasks_kept, st->tasks_seen);
	if (st->command)
		fprintf(stderr, " (the recorded command '%s', pid %d, and its descendants)",
			st->command_comm, st->command_pid);
	fprintf(stderr, "; %.3f s of CPU time in %.3f s on %d CPUs\n", st->cpu_ns / 1e9,
		st->span_ns / 1e9, st->cpus);
}

/* The repairs' warning (docs/traces.md "Repairs"), one line, if any. */
static void import_warning(const struct sl_trace_import_stats *st)
{
	if (!st->repaired_tasks)
		return;
	fprintf(stderr, "schedlab: trace import: warning: repaired %d task%s (%ld run%s cut "
		"where another task showed on the CPU, %d task%s never switched in): dropped "
		"%.6f s of CPU time", st->repaired_tasks, st->repaired_tasks == 1 ? "" : "s",
		st->cuts, st->cuts == 1 ? "" : "s", st->never_switched,
		st->never_switched == 1 ? "" : "s", st->dropped_ns / 1e9);
	for (int i = 0; i < st->ndrops; i++)
		fprintf(stderr, "%s%s pid %d %.6f s", i ? ", " : ": ", st->drops[i].comm,
			st->drops[i].pid, st->drops[i].ns / 1e9);
	if (st->repaired_tasks > st->ndrops)
		fputs(", ...", stderr);
	fputc('\n', stderr);
}

static int trace_import(int argc, char **argv)
{
	struct sl_trace_import_opts o = { .select = SL_SELECT_AUTO };
	struct sl_trace_import_stats st;
	struct sl_err err = { 0 };
	const char *in = NULL, *out = NULL;
	FILE *f;

	if (import_args(argc, argv, &in, &out, &o, &err))
		return cli_report(&err);
	f = strcmp(in, "-") ? fopen(in, "r") : stdin;
	if (!f)
		return cli_bad_input("trace import: %s: cannot read it (%s)", in, strerror(errno));
	int rc = sl_trace_import_to(f, in, out, &o, &st, &err);
	if (f != stdin)
		fclose(f);
	if (rc)
		return cli_report(&err);
	import_summary(&st);
	import_warning(&st);
	return EXIT_OK;
}

/* ---- stats ---- */

static int trace_stats(int argc, char **argv)
{
	struct sl_trace_stats st;
	struct sl_err err = { 0 };
	const char *in = NULL;
	int tree = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--tree")) {
			if (tree)
				return cli_bad_input("trace stats: --tree given twice");
			if (i + 1 >= argc)
				return cli_bad_input("trace stats: --tree needs a process id");
			if (parse_pid(argv[++i], "trace stats: --tree", &tree, &err))
				return cli_report(&err);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_bad_input("trace stats: unknown option '%s' (expected --tree PID)",
					     argv[i]);
		} else if (in) {
			return cli_bad_input("trace stats: expected one trace file ('-': standard "
					     "input), got more");
		} else {
			in = argv[i];
		}
	}
	if (!in)
		return cli_bad_input("trace stats: expected one trace file ('-': standard input), "
				     "got none");
	FILE *f = strcmp(in, "-") ? fopen(in, "r") : stdin;
	if (!f)
		return cli_bad_input("trace stats: %s: cannot read it (%s)", in, strerror(errno));
	int rc = sl_trace_stats_read_tree(f, in, tree, &st, &err);
	if (f != stdin)
		fclose(f);
	if (!rc)
		sl_trace_stats_print(stdout, &st);
	sl_trace_stats_free(&st);
	return rc ? cli_report(&err) : cli_finish_output();
}

/* ---- record ---- */

/* A child of record: perf, in its own process group (real/proc.h), with
 * the terminal if we had it (so that ^C and the terminal's input go to
 * perf and the command, as they would without us), stdout on out_fd
 * (-1: ours).  Async-signal-safe calls only. */
struct rec_cmd {
	char *const *argv;
	int out_fd;
	bool tty;		/* hand it the terminal */
};

static void give_terminal(pid_t pgid)
{
	sigset_t ttou, old;

	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);	/* a background group may take it back */
	sigprocmask(SIG_BLOCK, &ttou, &old);
	tcsetpgrp(STDIN_FILENO, pgid);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static int rec_exec(void *arg)
{
	const struct rec_cmd *c = arg;

	if (c->tty)
		give_terminal(getpgrp());	/* also here: before it reads it */
	if (c->out_fd >= 0 && dup2(c->out_fd, STDOUT_FILENO) < 0)
		return 127;
	execv(c->argv[0], c->argv);
	return 127;
}

/*
 * While perf's group has the terminal, job control is ours to pass on:
 * when ^Z stops perf's group, take the terminal back and stop ourselves,
 * so that the shell gets it; once continued (fg), hand it back and
 * continue the group.  Returns when perf has ended (not reaped: that is
 * sl_real_procs_wait's) or a signal interrupted us.
 */
static void follow_stops(pid_t pid)
{
	for (;;) {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WSTOPPED | WNOWAIT) < 0) {
			if (errno == EINTR && !sl_real_interrupted())
				continue;
			return;
		}
		if (si.si_code != CLD_STOPPED)
			return;
		waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOHANG);	/* seen */
		give_terminal(getpgrp());
		raise(SIGTSTP);		/* discarded if no shell can continue us */
		give_terminal(pid);
		kill(-pid, SIGCONT);
	}
}

/*
 * Run argv to its end; its wait status, or -1 with err set: it could not
 * be started, it could not be waited for, or a signal interrupted us
 * (sl_real_interrupted(); perf's group was killed and reaped).
 */
static int run(char *const *argv, int out_fd, struct sl_err *err)
{
	struct rec_cmd c = { .argv = argv, .out_fd = out_fd };
	struct sl_real_procs ps;
	int status = -1;
	pid_t pid;

	c.tty = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
	fflush(NULL);
	if (sl_real_procs_begin(&ps, 1, NULL, err))
		return -1;
	pid = sl_real_procs_spawn(&ps, false, rec_exec, &c, err);
	if (pid > 0) {
		if (c.tty) {
			give_terminal(pid);
			follow_stops(pid);
		}
		/* a status other than 0 is perf's answer, not a failure here */
		if ((sl_real_procs_wait(&ps, NULL, err) == 0 || !sl_real_interrupted()) &&
		    !ps.child[0].live)
			status = ps.child[0].status;
		if (c.tty)
			give_terminal(getpgrp());
	}
	sl_real_procs_end(&ps);
	return status;
}

static const char *status_text(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "signal %d", WTERMSIG(status));
	else
		snprintf(buf, size, "status %d", status);
	return buf;
}

/* A command word as a shell would need it: quoted unless plain. */
static void put_word(FILE *f, const char *w)
{
	bool plain = *w != 0;

	for (const char *p = w; *p && plain; p++)
		plain = isalnum((unsigned char)*p) || strchr("_./=:,+-@%", *p);
	if (plain) {
		fprintf(f, " %s", w);
		return;
	}
	fputs(" '", f);
	for (const char *p = w; *p; p++)
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	fputc('\'', f);
}

/*
 * perf sched record -o TMPDIR/perf.data [-e exec -e exit -e wait] -- COMMAND; then
 * perf script into OUT (written beside and renamed: base/outfile.h).  A
 * SIGINT, SIGTERM or SIGHUP sent to us kills perf and the command (their
 * process group), removes the temporary directory and OUT's temporary
 * file, and ends us by that signal (exit 128 + signal), as `real` does.
 */
static int record(const char *perf, const char *out, char **cmd, int ncmd)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], data[4200], why[64];
	char *args[16 + 256];
	int n = 0, status, rc = EXIT_INTERNAL;
	struct sl_err err = { 0 };
	struct sl_outfile f;
	struct stat sb;

	if (sl_outfile_open(&f, out, "trace record -o", &err))
		return cli_report(&err);
	snprintf(dir, sizeof(dir), "%s/schedlab-perf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	sl_real_signals_install();
	if (!mkdtemp(dir)) {
		fprintf(stderr, "schedlab: trace record: cannot make a temporary directory %s "
			"(%s)\n", dir, strerror(errno));
		sl_real_signals_restore();
		sl_outfile_abort(&f);
		return EXIT_INTERNAL;
	}
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	args[n++] = (char *)perf;
	args[n++] = "sched";
	args[n++] = "record";
	args[n++] = "-q";
	args[n++] = "-o";
	args[n++] = data;
	if (cli_have_sched_event("sched_process_exec")) {
		args[n++] = "-e";
		args[n++] = "sched:sched_process_exec";
	}
	if (cli_have_sched_event("sched_process_exit")) {
		args[n++] = "-e";
		args[n++] = "sched:sched_process_exit";
	}
	if (cli_have_sched_event("sched_process_wait")) {	/* reaps: a replay's credits */
		args[n++] = "-e";
		args[n++] = "sched:sched_process_wait";
	}
	args[n++] = "--";
	for (int i = 0; i < ncmd; i++)
		args[n++] = cmd[i];
	args[n] = NULL;
	status = run(args, -1, &err);
	if (status < 0) {
		rc = sl_real_interrupted() ? rc : cli_report(&err);
		goto out;
	}
	if (stat(data, &sb) || sb.st_size == 0) {
		fprintf(stderr, "schedlab: trace record: perf sched record failed (%s)\n",
			status_text(status, why, sizeof(why)));
		goto out;
	}
	fprintf(f.f, "# schedlab trace record --");
	for (int i = 0; i < ncmd; i++)
		put_word(f.f, cmd[i]);
	fprintf(f.f, "\n");
	fflush(f.f);
	/* pid and tid: the task column shows "PID/TID", and the import tells
	 * a thread (of its parent's group) from a process */
	char *script[] = { (char *)perf, "script", "-i", data, "--ns", "-F",
			   "comm,pid,tid,cpu,time,event,trace", NULL };
	int st = run(script, fileno(f.f), &err);
	if (st < 0) {
		rc = sl_real_interrupted() ? rc : cli_report(&err);
		goto out;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "schedlab: trace record: perf script failed (%s)\n",
			status_text(st, why, sizeof(why)));
		goto out;
	}
	if (sl_real_interrupted()) {	/* after perf script ended: still no file */
		sl_fail_internal(&err, "trace record: interrupted by SIG%s",
				 sigabbrev_np(sl_real_interrupted()));
		goto out;
	}
	if (sl_outfile_commit(&f, "trace record -o", &err)) {
		rc = cli_report(&err);
		goto out;
	}
	fprintf(stderr, "schedlab: trace record: wrote %s; %s %s\n", out, cmd[0],
		status_text(status, why, sizeof(why)));
	rc = EXIT_OK;
out:
	sl_outfile_abort(&f);
	sl_ktree_remove(dir);	/* perf.data and whatever else perf left there */
	sl_real_signals_restore();
	if (sl_real_interrupted())
		return cli_real_interrupted(&err);	/* dies of the signal */
	return rc;
}

static int trace_record(int argc, char **argv)
{
	const char *out = NULL;
	char perf[4096], prog[4096];
	struct sl_err err = { 0 };
	int i;

	for (i = 1; i < argc; i++) {
		const char *v;
		int m;

		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if ((m = cli_option(argc, argv, &i, "-o", "--output", &v, &err))) {
			if (m < 0)
				return cli_report(&err);
			if (out)
				return cli_bad_input("trace record: -o given twice ('%s' and '%s')",
						     out, v);
			out = v;
			continue;
		}
		if (argv[i][0] == '-')
			return cli_bad_input("trace record: unknown option '%s' (expected -o FILE, "
					     "then the command)", argv[i]);
		break;
	}
	if (!out)
		return cli_bad_input("trace record: missing -o FILE");
	if (i >= argc)
		return cli_bad_input("trace record: missing the COMMAND to record");
	if (argc - i > 256)
		return cli_bad_input("trace record: at most 256 command words");
	if (!cli_find_program(argv[i], prog, sizeof(prog)))
		return cli_bad_input("trace record: command '%s' not found", argv[i]);
	if (!cli_find_program("perf", perf, sizeof(perf))) {
		fputs("schedlab: trace record: perf not found in PATH (Debian: apt-get install "
		      "linux-perf)\n", stderr);
		return EXIT_INTERNAL;
	}
	int rc = cli_need_tracepoints("trace record");
	if (rc)
		return rc;
	return record(perf, out, argv + i, argc - i);
}

int cmd_trace(int argc, char **argv)
{
	if (argc < 2)
		return cli_bad_input("trace: expected 'import', 'record' or 'stats' (see 'schedlab "
				     "help trace')");
	if (cli_is_help(argv[1]) || (argc == 3 && cli_is_help(argv[2]))) {
		fputs(cli_usage("trace"), stdout);
		return cli_finish_output();
	}
	if (!strcmp(argv[1], "import"))
		return trace_import(argc - 1, argv + 1);
	if (!strcmp(argv[1], "record"))
		return trace_record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stats"))
		return trace_stats(argc - 1, argv + 1);
	return cli_bad_input("trace: unknown subcommand '%s' (expected import, record or stats)",
			     argv[1]);
}
