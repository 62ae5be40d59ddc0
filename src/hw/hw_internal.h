/*
 * hw_internal.h - the pieces hw/ assembles a machine from; private to hw/.
 *
 * A machine is a topology (from a preset's regular shape or from hwloc)
 * plus a profile: clock, caches, RAM and the speed-model parameters of a
 * processor generation.  machine.c resolves the name, the builders below
 * make the topology, and hw_speed_init() turns the profile into the
 * struct sl_speed_model the engine reads.  Sources: docs/model.md.
 */
#ifndef SL_HW_INTERNAL_H
#define SL_HW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/machine.h"

/* ---- topology building (topo.c) ---- */

/* One logical CPU before numbering: any keys that are equal exactly for
 * CPUs of the same core / package / node (the hwloc object, or a preset's
 * own indices), and for CPUs of one package sharing a last-level cache
 * (llc_key; 0 for all of a package whose CPUs share one, every preset's).
 * Given in CPU order. */
struct hw_raw_cpu {
	uint64_t core_key;
	uint64_t package_key;
	uint64_t node_key;
	uint64_t llc_key;
};

/* Most raw CPUs looked at (noht may then keep SL_MAX_CPUS of them: SMT4
 * at 1,024 cores).  hwloc's build of a topology grows with the square of
 * its PUs: 4,096 take it 0.5 s, 8,192 took 4-5 s (20 s under the fuzz
 * harness's sanitizers, which timed out on a synthetic string of 8,192). */
#define HW_MAX_RAW_CPUS (SL_MAX_CPUS * 4)

/* Fill the id arrays and masks of t from raw CPUs: dense ids assigned in
 * CPU order.  With noht only the first CPU of each core is kept and the
 * survivors are renumbered densely.  node_keys[id] receives the key of each
 * dense node id (to map distance matrices).  Clock, caches and distances
 * are left to the caller.  Messages start with `what` ("machine 'x'"). */
int hw_topo_build(struct sl_topo *t, const struct hw_raw_cpu *cpus, int n, bool noht,
		  uint64_t node_keys[SL_MAX_NODES], const char *what, struct sl_err *err);

/* Every remote node pair at distance `remote`, 10 on the diagonal. */
void hw_topo_uniform_distances(struct sl_topo *t, int remote);

/* ---- speed-model parameter sets (speed_params.c) ---- */

enum hw_smt_kind {
	HW_SMT_NETBURST,	/* docs/model.md [SMT] starting matrix */
	HW_SMT_MODERN,		/* Zen / Golden Cove calibration targets */
	HW_SMT_OFF,		/* siblings do not slow each other */
};

/* Kernel path costs at a reference clock (docs/model.md, "Kernel costs"). */
struct hw_kernel_costs {
	unsigned ref_mhz;
	sl_time ctx_switch_ns, fork_ns, exec_ns, exit_ns;
	sl_time ipi_ns;			/* bus latency: not scaled with the clock */
	sl_time migrate_ns, sched_scan_ns, sched_pick_ns;
};

extern const struct hw_kernel_costs hw_costs_netburst;
extern const struct hw_kernel_costs hw_costs_p6;
extern const struct hw_kernel_costs hw_costs_modern;

/* Where the kernel's own memory lives (docs/model.md "Kernel memory"). */
enum hw_kmem {
	HW_KMEM_OWN,		/* with each task's memory: kernel work at the task's speed */
	HW_KMEM_NODE0,		/* on node 0: i386 discontigmem, lowmem only there */
};

/* Everything about a machine except its shape. */
struct hw_profile {
	unsigned mhz, l2_kb, llc_kb, mem_mb;
	enum hw_smt_kind smt;
	sl_time refill_ns[4];		/* by enum sl_migr_level */
	unsigned refill_kb;		/* KB refill_ns[NONE, PACKAGE, NODE] bring
					 * back from memory (0: the L2; the core
					 * level always refills an L2) */
	unsigned evict_kb_per_ms;	/* how fast other tasks displace a footprint */
	const struct hw_kernel_costs *costs;
	int slit_remote;		/* SLIT for remote nodes when none is known */
	double far_ratio;		/* latency ratio at the largest SLIT distance */
	double node_bw;			/* per-node memory bandwidth (speed.h), 0 = unlimited */
	double bus_gbs;			/* the bus every CPU of a node shares, GB/s (peak);
					 * gives node_bw where that is 0 (speed_params.c) */
	struct sl_disk_params disk;	/* all 0: hw_disk_default */
	enum hw_kmem kernel_mem;	/* where the kernel's own memory lives */
	enum sl_arch arch;		/* the kernel's (0: i386) */
};

/* Options after the machine name: "p4dpe-2x2ht,noht,smt=off". */
struct hw_options {
	bool noht;
	int smt;		/* enum hw_smt_kind, or -1 = the profile's */
	double ratio;		/* > 0: overrides far_ratio */
	int slit;		/* > 0: uniform remote SLIT distance */
	double bw;		/* > 0: overrides node_bw */
	double bus_gbs;		/* > 0: overrides bus_gbs (and a profile's node_bw) */
	double ipi_us;		/* > 0: overrides ipi_ns (waking another CPU) */
	double refill;		/* > 0: scales every refill_ns level */
	double kcost;		/* > 0: scales every kernel path cost (not the IPI) */
	double seek_ms;		/* > 0: overrides the disk's average seek */
	double xfer_mb_s;	/* > 0: overrides the disk's transfer rate */
	int kmem;		/* node of the kernel's memory; -1 = each task's own;
				 * HW_KMEM_PROFILE = the profile's */
	int arch;		/* enum sl_arch, or -1 = the profile's */
	const struct hw_preset *like;	/* like=: the preset whose model numbers a
					 * machine that is not a preset takes
					 * (NULL: hw_profile_default) */
	unsigned mhz;		/* > 0: the clock, overriding the profile's and hwloc's */
};

#define HW_KMEM_PROFILE (-2)

/* The disk of machines whose profile names none (presets.c). */
extern const struct sl_disk_params hw_disk_default;
/* m->disk from the profile's disk (or the default) and the options. */
void hw_disk_init(struct sl_machine *m, const struct hw_profile *p, const struct hw_options *o);

/* Set every field of s from the profile (and option overrides) for the
 * topology t, whose clock, l2_kb and distances must be final. */
void hw_speed_init(struct sl_speed_model *s, const struct sl_topo *t,
		   const struct hw_profile *p, const struct hw_options *o);

/* ---- presets (presets.c) ---- */

struct hw_preset;

const struct hw_preset *hw_preset_find(const char *name);
/* Build m's topology, summary, profile and speed model from a preset. */
int hw_preset_load(struct sl_machine *m, const struct hw_preset *p,
		   const struct hw_options *o, struct sl_err *err);
/* "p4dpe-2x2ht, p4ht-3066, ..." for error messages. */
void hw_preset_list(char *buf, size_t len);
/* A preset's name, model numbers and memory per node (like=). */
const char *hw_preset_name(const struct hw_preset *p);
const struct hw_profile *hw_preset_profile(const struct hw_preset *p);
unsigned hw_preset_mem_per_node_mb(const struct hw_preset *p);
/* The profile of machines that are not presets (synthetic strings, XML
 * files, the host): a modern server. */
extern const struct hw_profile hw_profile_default;

/* ---- hwloc (hwloc_load.c) ---- */

enum hw_source {
	HW_SRC_HOST,
	HW_SRC_XML,
	HW_SRC_SYNTHETIC,
};

/* What hwloc knew besides the shape; 0 = unknown. */
struct hw_found {
	unsigned mhz;
	unsigned l2_kb, llc_kb;
	unsigned mem_mb;
	bool distances;		/* t->node_distance filled from hwloc */
	int arch;		/* enum sl_arch from the root's Architecture info,
				 * or -1: not given, or not one of ours */
};

/* Load a topology with hwloc.  Errors name `what` ("machine file 'x'"),
 * with hwloc's own reason where it gave one; hwloc's stderr is swallowed. */
int hw_hwloc_load(struct sl_topo *t, struct hw_found *found, enum hw_source src,
		  const char *arg, bool noht, const char *what, struct sl_err *err);

/* ---- OS indexes, checked before hwloc builds bitmaps that size (os_index.c) ---- */

/* The largest OS index (PU, core or NUMA node number) a machine may use:
 * Linux's largest CPU number (NR_CPUS 8192 with CONFIG_MAXSMP).  Bitmaps
 * of this size cost hwloc 1 KB each. */
#define HW_MAX_OS_INDEX 8191
/* The largest cache, KB (1 TiB; l2_kb and llc_kb are unsigned). */
#define HW_MAX_CACHE_KB (1u << 30)
/* The most RAM a machine may have, MB (mem_mb is unsigned). */
#define HW_MAX_MEM_MB (1u << 30)
/* The largest hwloc XML file read (lstopo's XML of a 2048-CPU machine with
 * its PCI devices is a few MB); it is read whole into memory. */
#define HW_MAX_XML_BYTES (16 << 20)

/* Every "indexes=" list of a synthetic string: in range, no duplicates,
 * one index per object of its level. */
int hw_synthetic_check_indexes(const char *s, const char *what, struct sl_err *err);
/* An XML text hwloc will parse: ASCII-compatible, no internal DTD subset,
 * every os_index a plain decimal number in range. */
int hw_xml_check_indexes(const char *buf, size_t len, const char *what, struct sl_err *err);

/* Logical CPUs an hwloc synthetic string asks for (machine.c), capped at
 * 2^40: checked before hwloc is given the string.  0 if an arity is not a
 * plain decimal count; *bad (if bad is not NULL) then points at it. */
unsigned long hw_synthetic_cpus(const char *s, const char **bad);

/* Refuse an XML topology (the file's bytes) hwloc would crash on
 * (xml_check.c); 0 when it looks loadable or cannot be parsed (hwloc then
 * says why). */
int hw_xml_check(const char *buf, size_t len, const char *what, struct sl_err *err);

/* Refuse an XML topology (the file's bytes) that kills hwloc: it is loaded
 * first in a child process (hwloc_load.c), which catches the kinds of
 * damage hw_xml_check does not know yet.  0 when hwloc survived it. */
int hw_hwloc_survives(const char *xml, size_t len, const char *what, struct sl_err *err);

#endif
