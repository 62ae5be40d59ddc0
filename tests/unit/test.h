/*
 * test.h - a minimal unit-test harness.  Each test is a function declared
 * with SL_TEST(name); scripts/gen-tests.sh collects them into the runner.
 * CHECK records a pass or a failure (with file:line) and carries on.
 */
#ifndef SL_TESTS_TEST_H
#define SL_TESTS_TEST_H

#include <stdio.h>

extern int sl_test_passed, sl_test_failed;
extern const char *sl_test_current;

#define SL_TEST(name) void sl_test_##name(void); void sl_test_##name(void)

#define CHECK(cond) do { \
	if (cond) sl_test_passed++; \
	else { sl_test_failed++; \
		fprintf(stderr, "FAIL %s (%s:%d): %s\n", sl_test_current, __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECKF(cond, ...) do { \
	if (cond) sl_test_passed++; \
	else { sl_test_failed++; \
		fprintf(stderr, "FAIL %s (%s:%d): %s: ", sl_test_current, __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
} while (0)

#endif
