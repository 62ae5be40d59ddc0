/*
 * main.c - unit test runner: runs every SL_TEST (list generated at build
 * time) and prints "unit: N passed, N failed".
 */
#include <stdio.h>
#include <string.h>

#include "test.h"
#include "tests_list.h"

int sl_test_passed, sl_test_failed;
const char *sl_test_current;

int main(int argc, char **argv)
{
	for (int i = 0; sl_tests[i].name; i++) {
		if (argc > 1 && !strstr(sl_tests[i].name, argv[1]))
			continue;
		sl_test_current = sl_tests[i].name;
		sl_tests[i].fn();
	}
	printf("unit: %d passed, %d failed\n", sl_test_passed, sl_test_failed);
	return sl_test_failed != 0;
}
