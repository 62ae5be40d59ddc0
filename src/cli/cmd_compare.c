/*
 * cmd_compare.c - `schedlab compare BASELINE.json OTHER.json [...]
 * [--metric NAME ...]`: saved results of run, real and reproduce side by
 * side, mmtests-style, with Welch's t-test marking the significant
 * differences (report/compare.h).  Every file is read and checked before
 * anything is printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/compare.h"

int cmd_compare(int argc, char **argv)
{
	const char **paths = sl_xcalloc((unsigned long)argc, sizeof(*paths));
	const char **metrics = sl_xcalloc((unsigned long)argc, sizeof(*metrics));
	struct sl_cmp_file *files = NULL;
	struct sl_err err = { 0 };
	int npaths = 0, nmetrics = 0, nloaded = 0, rc;

	if (argc == 2 && cli_is_help(argv[1])) {
		fputs(cli_usage("compare"), stdout);
		rc = cli_finish_output();
		goto out;
	}
	for (int i = 1; i < argc; i++) {
		const char *v;
		int m = cli_long_option(argc, argv, &i, "--metric", &v, &err);
		if (m < 0) {
			rc = cli_report(&err);
			goto out;
		}
		if (m) {
			metrics[nmetrics++] = v;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			rc = cli_bad_input("compare: unknown option '%s' (expected --metric NAME)",
					   argv[i]);
			goto out;
		}
		paths[npaths++] = argv[i];
	}
	if (npaths < 2) {
		rc = cli_bad_input("compare: expected a baseline and at least one other result "
				   "file (got %d)", npaths);
		goto out;
	}
	files = sl_xcalloc((unsigned long)npaths, sizeof(*files));
	for (; nloaded < npaths; nloaded++)
		if (sl_cmp_load(&files[nloaded], paths[nloaded], &err)) {
			rc = cli_report(&err);
			nloaded++;
			goto out;
		}
	if (sl_cmp_print(stdout, files, npaths, metrics, nmetrics, &err)) {
		rc = cli_report(&err);
		goto out;
	}
	rc = cli_finish_output();
out:
	for (int i = 0; i < nloaded; i++)
		sl_cmp_free(&files[i]);
	free(files);
	free(paths);
	free(metrics);
	return rc;
}
