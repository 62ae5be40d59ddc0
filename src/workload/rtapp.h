/*
 * rtapp.h - rt-app JSON files as a workload: `rtapp:file=PATH`.  See
 * rtapp.c for the model and docs/workloads.md ("rtapp") for the grammar
 * accepted, the metrics and what is omitted.
 */
#ifndef SL_WORKLOAD_RTAPP_H
#define SL_WORKLOAD_RTAPP_H

#include "workload/workload.h"

extern const struct sl_workload_ops sl_workload_rtapp;

#endif
