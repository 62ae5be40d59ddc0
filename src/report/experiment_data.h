/*
 * experiment_data.h - the experiment files (experiments/NAME.json) compiled
 * into the binary by scripts/embed-experiments.sh.
 */
#ifndef SL_REPORT_EXPERIMENT_DATA_H
#define SL_REPORT_EXPERIMENT_DATA_H

struct sl_experiment_file {
	const char *name;	/* file name without .json: "seed-000" */
	const char *path;	/* path in the source tree */
	const char *text;	/* the JSON text */
};

/* Terminated by an entry with name == NULL. */
extern const struct sl_experiment_file sl_experiment_files[];

#endif
