/*
 * rtapp.h - rt-app JSON files as a workload: `rtapp:file=PATH`.  See
 * rtapp.c for the model and docs/workloads.md ("rtapp") for the grammar
 * accepted, the metrics and what is omitted.
 */
#ifndef SL_WORKLOAD_RTAPP_H
#define SL_WORKLOAD_RTAPP_H

#include "workload/workload.h"

extern const struct sl_workload_ops sl_workload_rtapp;

/* How a file's repeated keys are read, by the simulation and by the real
 * rt-app `validate` runs alike (parse.c, rt_config_load_keys). */
#define SL_RTAPP_KEYS_PARAM \
	{ "keys", SL_PARAM_CHOICE, "workgen", 0, 0, "workgen|rt-app", \
	  "repeated keys in an object: workgen numbers them in order (as it hands files to " \
	  "rt-app); rt-app: json-c keeps each once, at its first place, with its last value" }

#endif
