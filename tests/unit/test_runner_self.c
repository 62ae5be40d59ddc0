/*
 * test_runner_self.c - the runner's own isolation (main.c): with
 * SL_TEST_CRASH set, runner_crash_* dies the way a broken test does (a
 * signal, an ASan abort through a bad free, an early exit) and the runner
 * must report each by name as a failure and still run runner_zz_after_crashes.
 * tests/run.sh runs `SL_TEST_CRASH=1 build/test_runner runner_` and checks
 * that.  Without SL_TEST_CRASH they pass.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static const char *crash_mode(void)
{
	const char *m = getenv("SL_TEST_CRASH");
	return m && *m ? m : NULL;
}

SL_TEST(runner_crash_signal)
{
	CHECK(1);
	if (crash_mode())
		raise(SIGSEGV);
}

SL_TEST(runner_crash_bad_free)
{
	CHECK(1);
	if (crash_mode()) {
		/* the shape of test_workload.c's old failure path: freeing
		 * what was never allocated (ASan aborts) */
		char *volatile p = (char *)&sl_test_passed;
		free(p);
	}
}

SL_TEST(runner_crash_exit)
{
	CHECK(1);
	if (crash_mode())
		exit(0);
}

SL_TEST(runner_zz_after_crashes)
{
	CHECK(1);
}
