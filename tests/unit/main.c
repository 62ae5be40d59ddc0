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
 *   build/test_runner [NAME]   run the tests whose name contains NAME
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

/* Run test i in a child; add its counts, or one failure if it crashed. */
static void run_forked(int i, unsigned timeout)
{
	int fd[2];
	int counts[2] = { 0, 0 };

	fflush(stdout);
	fflush(stderr);
	if (pipe(fd)) {
		perror("test_runner: pipe");
		exit(1);
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("test_runner: fork");
		exit(1);
	}
	if (pid == 0) {
		close(fd[0]);
		alarm(timeout);
		sl_test_passed = sl_test_failed = 0;
		sl_tests[i].fn();
		counts[0] = sl_test_passed;
		counts[1] = sl_test_failed;
		/* exit(), not _exit(): LeakSanitizer's check at exit then
		 * names this test */
		exit(write(fd[1], counts, sizeof(counts)) == (ssize_t)sizeof(counts) ? 0 : 3);
	}
	close(fd[1]);
	ssize_t got = 0, n;
	while (got < (ssize_t)sizeof(counts) &&
	       ((n = read(fd[0], (char *)counts + got, sizeof(counts) - (size_t)got)) > 0 ||
		(n < 0 && errno == EINTR)))
		if (n > 0)
			got += n;
	close(fd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	bool ok = got == (ssize_t)sizeof(counts) && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (got == (ssize_t)sizeof(counts)) {
		sl_test_passed += counts[0];
		sl_test_failed += counts[1];
	}
	if (ok)
		return;
	sl_test_failed++;
	const char *when = got == (ssize_t)sizeof(counts) ?
			   "after the test (a leak or a sanitizer report at exit?)" :
			   "before the end of the test";
	if (WIFSIGNALED(status))
		fprintf(stderr, "FAIL %s: crashed: signal %d (%s)%s %s\n", sl_tests[i].name,
			WTERMSIG(status), strsignal(WTERMSIG(status)),
			WTERMSIG(status) == SIGALRM ? ", a hang: SL_TEST_TIMEOUT," : "", when);
	else
		fprintf(stderr, "FAIL %s: crashed: exit status %d %s\n", sl_tests[i].name,
			WIFEXITED(status) ? WEXITSTATUS(status) : -1, when);
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
	for (int i = 0; sl_tests[i].name; i++) {
		if (argc > 1 && !strstr(sl_tests[i].name, argv[1]))
			continue;
		sl_test_current = sl_tests[i].name;
		if (fork_each)
			run_forked(i, timeout);
		else
			sl_tests[i].fn();
	}
	printf("unit: %d passed, %d failed\n", sl_test_passed, sl_test_failed);
	return sl_test_failed != 0;
}
