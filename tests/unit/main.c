/*
 * main.c - unit test runner: runs every SL_TEST (list generated at build
 * time) and prints "unit: N passed, N failed".
 *
 * Each test runs in a child process of its own, so that a crash (a signal,
 * an ASan/UBSan abort, an exit) is reported as a failure of that test, by
 * name, and the tests after it still run.  The child sends its CHECK counts
 * back through a pipe; a child that ends without sending them crashed.
 * Forking costs about 1 ms per test under ASan (303 tests: 13.1 s in one
 * process, 13.x s forked), so there is no per-group mode.
 *
 * Several tests run at once (one per CPU): each child's stdout and stderr
 * go to a file of its own, which the runner prints on stdout once that
 * test and every test before it have ended - the log reads the same
 * whatever the number of jobs.  The tests share nothing but the file
 * system, where each makes its own temporary names (mkstemp, mkdtemp).
 *
 *   build/test_runner [NAME]   run the tests whose name contains NAME
 *   SL_TEST_JOBS=N             N tests at once (default: the online CPUs,
 *                              at most 8; 1: one after the other)
 *   SL_TEST_NOFORK=1           run in this process (for a debugger)
 *   SL_TEST_TIMEOUT=S          kill a test after S seconds (default 600; a
 *                              hang, not a time limit: no test is near it)
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "tests_list.h"

int sl_test_passed, sl_test_failed;
const char *sl_test_current;

/* A test running in a child: its pid, the pipe its counts come back
 * through, and the file its stdout and stderr go to (printed whole when it
 * ends, in the tests' order, so that parallel runs log as serial ones). */
struct child {
	int test;
	pid_t pid;
	int counts_fd;
	FILE *out;
	bool ended;
	int status;	/* waitpid's, once ended */
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Start test i in a child whose output goes to a file of its own. */
static struct child start_child(int i, unsigned timeout)
{
	struct child c = { .test = i };
	int fd[2];

	c.out = tmpfile();
	if (!c.out)
		die("test_runner: tmpfile");
	if (pipe(fd))
		die("test_runner: pipe");
	fflush(stdout);
	fflush(stderr);
	c.pid = fork();
	if (c.pid < 0)
		die("test_runner: fork");
	if (c.pid == 0) {
		int counts[2];
		close(fd[0]);
		if (dup2(fileno(c.out), STDOUT_FILENO) < 0 || dup2(fileno(c.out), STDERR_FILENO) < 0)
			_exit(4);
		alarm(timeout);
		sl_test_current = sl_tests[i].name;
		sl_test_passed = sl_test_failed = 0;
		sl_tests[i].fn();
		counts[0] = sl_test_passed;
		counts[1] = sl_test_failed;
		/* exit(), not _exit(): LeakSanitizer's check at exit then
		 * names this test */
		exit(write(fd[1], counts, sizeof(counts)) == (ssize_t)sizeof(counts) ? 0 : 3);
	}
	close(fd[1]);
	c.counts_fd = fd[0];
	return c;
}

/* Child c has ended: print its output, add its counts, or one failure
 * if it crashed. */
static void finish_child(struct child *c)
{
	int status = c->status;
	int counts[2] = { 0, 0 };
	ssize_t got = 0, n;

	while (got < (ssize_t)sizeof(counts) &&
	       ((n = read(c->counts_fd, (char *)counts + got, sizeof(counts) - (size_t)got)) > 0 ||
		(n < 0 && errno == EINTR)))
		if (n > 0)
			got += n;
	close(c->counts_fd);
	rewind(c->out);
	char buf[8192];
	size_t k;
	while ((k = fread(buf, 1, sizeof(buf), c->out)) > 0)
		fwrite(buf, 1, k, stdout);
	fclose(c->out);
	fflush(stdout);
	bool ok = got == (ssize_t)sizeof(counts) && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (got == (ssize_t)sizeof(counts)) {
		sl_test_passed += counts[0];
		sl_test_failed += counts[1];
	}
	if (ok)
		return;
	sl_test_failed++;
	const char *name = sl_tests[c->test].name;
	const char *when = got == (ssize_t)sizeof(counts) ?
			   "after the test (a leak or a sanitizer report at exit?)" :
			   "before the end of the test";
	if (WIFSIGNALED(status))
		printf("FAIL %s: crashed: signal %d (%s)%s %s\n", name,
		       WTERMSIG(status), strsignal(WTERMSIG(status)),
		       WTERMSIG(status) == SIGALRM ? ", a hang: SL_TEST_TIMEOUT," : "", when);
	else
		printf("FAIL %s: crashed: exit status %d %s\n", name,
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1, when);
	fflush(stdout);
}

/* The selected tests and their children: file-scope, so that a child's
 * LeakSanitizer check at exit finds them reachable. */
static int *sel;
static struct child *kids;

/*
 * Run the selected tests, up to `jobs` at a time.  Each one's output is
 * printed when it and every test before it have ended, so the log is the
 * same whatever the number of jobs.
 */
static void run_all(int nsel, int jobs, unsigned timeout)
{
	int started = 0, printed = 0, running = 0;

	kids = calloc((size_t)nsel + 1, sizeof(*kids));
	if (!kids)
		die("test_runner: calloc");
	while (printed < nsel) {
		while (running < jobs && started < nsel) {
			kids[started] = start_child(sel[started], timeout);
			started++;
			running++;
		}
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			die("test_runner: waitpid");
		}
		for (int k = printed; k < started; k++)
			if (!kids[k].ended && kids[k].pid == pid) {
				kids[k].ended = true;
				kids[k].status = status;
				running--;
				break;
			}
		while (printed < started && kids[printed].ended)
			finish_child(&kids[printed++]);
	}
	free(kids);
}

/* SL_TEST_JOBS, else the online CPUs (at most 8). */
static int jobs_wanted(void)
{
	const char *env = getenv("SL_TEST_JOBS");
	if (env && *env) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);
		if (*end || v < 1 || v > 256) {
			fprintf(stderr, "test_runner: SL_TEST_JOBS=%s: a number of tests at once, "
				"1-256\n", env);
			exit(2);
		}
		return (int)v;
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 8 ? 8 : (int)n;
}

int main(int argc, char **argv)
{
	const char *nofork = getenv("SL_TEST_NOFORK");
	const char *tmo = getenv("SL_TEST_TIMEOUT");
	bool fork_each = !(nofork && *nofork && strcmp(nofork, "0"));
	unsigned timeout = 600;

	if (tmo && *tmo) {
		char *end;
		unsigned long v = strtoul(tmo, &end, 10);
		if (*end || v > 86400) {
			fprintf(stderr, "test_runner: SL_TEST_TIMEOUT=%s: seconds, 0-86400\n", tmo);
			return 2;
		}
		timeout = (unsigned)v;
	}
	int ntests = 0;
	while (sl_tests[ntests].name)
		ntests++;
	int nsel = 0;
	sel = malloc(sizeof(*sel) * (size_t)(ntests + 1));
	if (!sel)
		die("test_runner: malloc");
	for (int i = 0; i < ntests; i++)
		if (argc <= 1 || strstr(sl_tests[i].name, argv[1]))
			sel[nsel++] = i;
	if (fork_each) {
		run_all(nsel, jobs_wanted(), timeout);
	} else {
		for (int k = 0; k < nsel; k++) {
			sl_test_current = sl_tests[sel[k]].name;
			sl_tests[sel[k]].fn();
		}
	}
	free(sel);
	printf("unit: %d passed, %d failed\n", sl_test_passed, sl_test_failed);
	return sl_test_failed != 0;
}
