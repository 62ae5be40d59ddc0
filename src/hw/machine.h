/*
 * machine.h - a simulated machine: topology (what the kernel sees) plus the
 * speed model's parameters (what the hardware really does).
 *
 * A machine is named by a preset ("p4dpe-2x2ht"), an hwloc synthetic string
 * ("pack:2 core:1 pu:2"), a path to an hwloc XML file, or "host".  Any of
 * them may carry the suffix ",noht" (the noht boot option: one logical CPU
 * per core), e.g. "p4dpe-2x2ht,noht".
 */
#ifndef SL_HW_MACHINE_H
#define SL_HW_MACHINE_H

#include "base/err.h"
#include "base/units.h"
#include "hw/speed.h"
#include "hw/topo.h"

/* The machine's one disk (hw default: a 2002 7200 rpm IDE disk; presets.c
 * says where the numbers come from).  Used only by workloads that do I/O
 * through sim/blockdev.h; a run that issues no request is unaffected. */
struct sl_disk_params {
	sl_time seek_ns;	/* average seek */
	sl_time rot_ns;		/* average rotational latency: half a turn */
	double mb_s;		/* media transfer rate, MB/s (decimal) */
};

struct sl_machine {
	char name[128];		/* as given by the user */
	char summary[224];	/* one line: "2 x 2.2 GHz Xeon HT (P4DPE-G2)" */
	struct sl_topo topo;
	struct sl_speed_model speed;
	unsigned mem_mb;	/* RAM, for workloads that care (page cache) */
	struct sl_disk_params disk;
};

/* Resolve a machine name (preset, synthetic string, XML path, "host",
 * optionally with ",noht").  Returns 0, or -1 with err set (exit 2 class
 * for bad input). */
int sl_machine_load(struct sl_machine *m, const char *name, struct sl_err *err);

/* Presets, for `schedlab list machines`. */
struct sl_machine_preset {
	const char *name;
	const char *summary;
	const char *arch;	/* the kernel's (sl_arch_name) */
};
const struct sl_machine_preset *sl_machine_presets(int *n);

#endif
