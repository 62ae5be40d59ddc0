/*
 * test_isolate.c - base/isolate.h: a call that crashes or hangs in the
 * child is reported, not suffered, by the parent.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/isolate.h"
#include "test.h"

static int touched;

static int returns_arg(void *arg)
{
	touched = 1;	/* the child's copy: the parent's stays 0 */
	puts("a child's output goes to /dev/null");
	return *(int *)arg;
}

static int segfaults(void *arg)
{
	(void)arg;
	raise(SIGSEGV);
	return 0;
}

static int aborts(void *arg)
{
	(void)arg;
	abort();
}

static int hangs(void *arg)
{
	(void)arg;
	while (!touched)
		pause();
	return 0;
}

SL_TEST(isolate_returns_the_childs_value)
{
	int value = 7, status = -1;

	CHECK(sl_isolate(returns_arg, &value, 10, &status) == SL_ISOLATE_RETURNED);
	CHECK(status == 7);
	CHECK(touched == 0);
}

SL_TEST(isolate_reports_a_crash_as_its_signal)
{
	int status = -1;

	CHECK(sl_isolate(segfaults, NULL, 10, &status) == SL_ISOLATE_SIGNALED);
	CHECK(status == SIGSEGV);
	CHECK(sl_isolate(aborts, NULL, 10, &status) == SL_ISOLATE_SIGNALED);
	CHECK(status == SIGABRT);
}

SL_TEST(isolate_kills_a_child_past_its_time)
{
	int status = -1;

	CHECK(sl_isolate(hangs, NULL, 1, &status) == SL_ISOLATE_TIMED_OUT);
	CHECK(status == SIGALRM);
}
