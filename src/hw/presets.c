/*
 * presets.c - the machines of the 2002-2004 HT/NUMA debate, and a modern
 * two-socket SMT server, as named presets.
 *
 * Sources (docs/model.md has the full reasoning per number):
 * - p4dpe-2x2ht: Allan MacKinnon's box (LKML, 9 Sep 2002,
 *   <m24rczzkq8.fsf@everypoint.net>: Supermicro P4DPE-G2, 2 x 2.2 GHz Xeon
 *   HT, 512 KB L2, 8 GB).  CPU numbering: siblings adjacent, CPUs 0,1
 *   on package 0 and 2,3 on package 1 - seed 000 reports user time "per
 *   package" as "CPU0+1" and "CPU2+3".
 * - p4ht-3066: Con Kolivas's (LKML, 13 Dec 2003,
 *   <200312130157.36843.kernel@kolivas.org>: one P4 HT 3.066 GHz);
 *   Northwood, 512 KB L2.  RAM is not given: 1 GB chosen (only
 *   page-cache-sensitive workloads care).
 * - p4-2400: Bill Davidsen's (LKML, 3 Jan 2004, <3FF70241.1030307@tmr.com>:
 *   P4 2.4 GHz without HT, 256 MB); 512 KB L2.
 * - xeon-1600ht: Duc Vianney's (IBM developerWorks, "Hyper-Threading speeds
 *   Linux", Jan 2003: one Xeon MP 1.6 GHz HT, 2.5 GB).  Foster MP: 256 KB
 *   L2 and 1 MB on-die L3 [from Intel's Xeon MP line-up, unverified];
 *   l2_kb is the L2, which is what smp_tune_scheduling read.
 * - numaq-16: IBM's 16-way NUMA-Q of Hohnbaum's and Bligh's LKML posts
 *   (docs/model.md [NUMAQ]): 4 quads x 4 Pentium III Xeon, 16 GB; 700 MHz
 *   (the SDET model's reference CPU); 2 MB L2 [SKU unverified: 512 KB-2 MB
 *   were sold]; latency ratio 3.5 (the 3-4x average of Sequent's
 *   material).  SLIT 10/20: i386 NUMA-Q had no ACPI SLIT, so Linux's
 *   node_distance() fell back to LOCAL/REMOTE_DISTANCE
 *   (",slit=35" gives the 3-4x "average latency" view instead).
 *   Kernel memory on node 0: a 16 GB NUMA-Q's quads start at 0, 4, 8 and
 *   12 GB (2.6.11 arch/i386/kernel/numaq.c smp_dump_qct()); lowmem is the
 *   first 896 MB, so only node 0 gets ZONE_DMA and ZONE_NORMAL, the others
 *   ZONE_HIGHMEM alone (2.6.11 arch/i386/mm/discontig.c zone_sizes_init()).
 *   Slab (dentries, inodes, radix-tree nodes, vmas, rmap chains), kernel
 *   stacks, page-table upper levels, per-CPU data and the kernel image are
 *   lowmem, and a GFP_KERNEL allocation on node 2 falls back to node 0's
 *   ZONE_NORMAL (2.6.11 mm/page_alloc.c build_zonelists()).  Only the
 *   struct pages of nodes 1-3 are remapped into node-local memory (Bligh's
 *   KVA remap of Aug 2002, calculate_numa_remap_pages()).
 * - xeon-1800-2x2ht: J.A. Magallon's dual Xeon 1.8 GHz with HT (LKML, 16 Dec
 *   2002, <20021216223848.GA2994@werewolf.able.es>).  A 1.8 GHz Xeon DP with
 *   HT is a Prestonia (Northwood core): 512 KB L2, NetBurst.  RAM is not
 *   given: 1 GB chosen (only page-cache-sensitive workloads care).
 * - azusa-16: Erich Focht's NEC AzusA, 16 Itanium CPUs in 4 nodes of 4 (LKML,
 *   6 Oct 2002, <200210061851.45401.efocht@ess.nec.de>).  Clock and caches
 *   are not given in the post: 800 MHz Itanium (Merced) with 96 KB L2 and a
 *   4 MB L3 [the line's top SKU, unverified], 16 GB [unverified].  No
 *   Itanium kernel-cost profile exists: P6-era costs scaled by the clock.
 *   The two numbers numa_test depends on come from the same post's per-job
 *   logs (see below).
 * - xeon-2s-smt: a modern server: 2 sockets x 16 cores x 2 threads, SLIT
 *   10/21, latency ratio 1.45 (Intel MLC: 135 vs 194-202 ns).  Numbered as
 *   Linux numbers a modern Intel server: first threads of all cores (socket
 *   0, then socket 1), then their siblings, so CPU n and n+32 are siblings.
 *
 * Cache refill per migration level (docs/model.md [CACHE], constant
 * penalties): NetBurst 0.3 / 1.0 / 2.0 ms by core / package / node, modern
 * 0.05 / 0.2 / 0.4 ms; the in-place (decayed) refill, from memory, equals
 * the package level.  Each is the cost of a stated amount of lines
 * (`refill_kb`, docs/model.md "Which cache a refill refills"): the core
 * level an L2 from the package's LLC, the others the L2 from memory
 * unless the profile names another size (NetBurst's 512 KB, the AzusA's
 * 4 MB L3).
 * Shared bus (docs/model.md "NUMA locality"): the two dual-package Xeon
 * DP presets share one front-side bus and memory controller between their
 * packages, 400 MT/s x 8 bytes = 3.2 GB/s peak.  p4dpe-2x2ht's 2.2 GHz
 * Xeons of Sep 2002 are 400 MT/s parts on the board's E7500 chipset (the
 * 533 MT/s Xeon DP and its E7501 came in Nov 2002) [from Intel's line-up,
 * unverified].  The other presets keep a fitted node_bw or none (one
 * package per bus, or NUMA nodes whose bandwidth was measured).
 * Disks: no published report names its disk; every preset has disk.c's
 * 2002 7200 rpm default (a profile's .disk left zero).
 * Where an LLC lies beyond the L2 (xeon-1600ht's L3, modern L3s), lines
 * it still holds come back at the core level's cost (speed.c).
 */
#include "hw/hw_internal.h"

#include <stdio.h>
#include <string.h>

enum hw_numbering {
	HW_NUM_SIBLINGS_ADJACENT,	/* cpu = core * threads + thread */
	HW_NUM_THREADS_LAST,		/* cpu = thread * cores + core */
};

struct hw_preset {
	const char *name;
	const char *summary;
	int nodes, packages_per_node, cores_per_package, threads_per_core;
	enum hw_numbering numbering;
	struct hw_profile profile;
};

#define MS(x) ((sl_time)((x) * SL_MSEC))

/* NetBurst: in-place 1.0 ms (from memory, no shared cache), core 0.3 ms
 * (never used: one core per package), package 1.0 ms, node 2.0 ms. */
#define NETBURST_REFILL { MS(1.0), MS(0.3), MS(1.0), MS(2.0) }
/* ... for a 512 KB L2 from memory over a 400-533 MT/s front-side bus:
 * the Xeon MP's 256 KB L2 (backed by its L3) refills per KB at the same
 * rate; its core level refills that L2 from the L3 (0.3 ms). */
#define NETBURST_REFILL_KB 512

static const struct hw_preset presets[] = {
	{
		.name = "p4dpe-2x2ht",
		.summary = "2 x 2.2 GHz Xeon HT, 512 KB L2, 8 GB (Supermicro P4DPE-G2)",
		.nodes = 1, .packages_per_node = 2, .cores_per_package = 1, .threads_per_core = 2,
		.numbering = HW_NUM_SIBLINGS_ADJACENT,
		.profile = {
			.mhz = 2200, .l2_kb = 512, .llc_kb = 512, .mem_mb = 8192,
			.smt = HW_SMT_NETBURST, .refill_ns = NETBURST_REFILL,
			.refill_kb = NETBURST_REFILL_KB,
			.evict_kb_per_ms = 200, .costs = &hw_costs_netburst,
			.slit_remote = 20, .far_ratio = 1.0,
			/* one 400 MT/s x 64-bit front-side bus for both
			 * packages (E7500 chipset), 3.2 GB/s */
			.bus_gbs = 3.2,
		},
	},
	{
		.name = "p4ht-3066",
		.summary = "1 x 3.066 GHz Pentium 4 HT, 512 KB L2, 1 GB",
		.nodes = 1, .packages_per_node = 1, .cores_per_package = 1, .threads_per_core = 2,
		.numbering = HW_NUM_SIBLINGS_ADJACENT,
		.profile = {
			.mhz = 3066, .l2_kb = 512, .llc_kb = 512, .mem_mb = 1024,
			.smt = HW_SMT_NETBURST, .refill_ns = NETBURST_REFILL,
			.refill_kb = NETBURST_REFILL_KB,
			.evict_kb_per_ms = 200, .costs = &hw_costs_netburst,
			.slit_remote = 20, .far_ratio = 1.0,
		},
	},
	{
		.name = "p4-2400",
		.summary = "1 x 2.4 GHz Pentium 4 (no HT), 512 KB L2, 256 MB",
		.nodes = 1, .packages_per_node = 1, .cores_per_package = 1, .threads_per_core = 1,
		.numbering = HW_NUM_SIBLINGS_ADJACENT,
		.profile = {
			.mhz = 2400, .l2_kb = 512, .llc_kb = 512, .mem_mb = 256,
			.smt = HW_SMT_NETBURST, .refill_ns = NETBURST_REFILL,
			.refill_kb = NETBURST_REFILL_KB,
			.evict_kb_per_ms = 200, .costs = &hw_costs_netburst,
			.slit_remote = 20, .far_ratio = 1.0,
		},
	},
	{
		.name = "xeon-1600ht",
		.summary = "1 x 1.6 GHz Xeon MP HT, 256 KB L2 + 1 MB L3, 2.5 GB",
		.nodes = 1, .packages_per_node = 1, .cores_per_package = 1, .threads_per_core = 2,
		.numbering = HW_NUM_SIBLINGS_ADJACENT,
		.profile = {
			.mhz = 1600, .l2_kb = 256, .llc_kb = 1024, .mem_mb = 2560,
			.smt = HW_SMT_NETBURST, .refill_ns = NETBURST_REFILL,
			.refill_kb = NETBURST_REFILL_KB,
			.evict_kb_per_ms = 200, .costs = &hw_costs_netburst,
			.slit_remote = 20, .far_ratio = 1.0,
		},
	},
	{
		.name = "numaq-16",
		.summary = "IBM NUMA-Q: 4 quads x 4 x 700 MHz Pentium III Xeon, 2 MB L2, 16 GB",
		.nodes = 4, .packages_per_node = 4, .cores_per_package = 1, .threads_per_core = 1,
		.numbering = HW_NUM_SIBLINGS_ADJACENT,
		.profile = {
			.mhz = 700, .l2_kb = 2048, .llc_kb = 2048, .mem_mb = 16384,
			/* no siblings: the SMT model is never consulted */
			.smt = HW_SMT_OFF,
			/* 65536 lines of 32 B x 180 ns / 4 outstanding misses ~ 3 ms;
			 * across the IQ-Link x 3.5 ~ 10 ms */
			.refill_ns = { MS(3.0), MS(3.0), MS(3.0), MS(10.0) },
			.evict_kb_per_ms = 60, .costs = &hw_costs_p6,
			.slit_remote = 20, .far_ratio = 3.5,
			/* One numa_test task per quad ~22 s, four per quad
			 * 50-56 s (Hohnbaum, docs/model.md [Hohnbaum03]):
			 * 0.4 + 0.6 k = 53/22 with
			 * k = 4 x 0.6 / bw gives bw = 0.72. */
			.node_bw = 0.72,
			/* i386 discontigmem: only node 0 has ZONE_NORMAL, so
			 * the kernel's own memory is there (see the header) */
			.kernel_mem = HW_KMEM_NODE0,
		},
	},
	{
		.name = "xeon-1800-2x2ht",
		.summary = "2 x 1.8 GHz Xeon HT (Prestonia), 512 KB L2, 1 GB",
		.nodes = 1, .packages_per_node = 2, .cores_per_package = 1, .threads_per_core = 2,
		.numbering = HW_NUM_SIBLINGS_ADJACENT,
		.profile = {
			.mhz = 1800, .l2_kb = 512, .llc_kb = 512, .mem_mb = 1024,
			.smt = HW_SMT_NETBURST, .refill_ns = NETBURST_REFILL,
			.refill_kb = NETBURST_REFILL_KB,
			.evict_kb_per_ms = 200, .costs = &hw_costs_netburst,
			.slit_remote = 20, .far_ratio = 1.0,
			/* the 1.8 GHz Xeon DP's 400 MT/s x 64-bit front-side
			 * bus, shared by both packages: 3.2 GB/s */
			.bus_gbs = 3.2,
		},
	},
	{
		.name = "azusa-16",
		.summary = "NEC AzusA: 4 nodes x 4 x 800 MHz Itanium, 96 KB L2, 4 MB L3, 16 GB",
		.nodes = 4, .packages_per_node = 4, .cores_per_package = 1, .threads_per_core = 1,
		.numbering = HW_NUM_SIBLINGS_ADJACENT,
		.profile = {
			.mhz = 800, .l2_kb = 96, .llc_kb = 4096, .mem_mb = 16384,
			.smt = HW_SMT_OFF, .arch = SL_ARCH_IA64,
			/* From memory: its 4 MB L3, 32768 lines of 128 B x
			 * ~250 ns / 4 outstanding ~ 2 ms; across nodes x
			 * far_ratio ~ 3.5 ms.  The core level refills the 96 KB
			 * L2 from the L3: 768 lines x ~26 ns (21 cycles at
			 * 800 MHz) / 4 ~ 5 us. */
			.refill_ns = { MS(2.0), MS(0.005), MS(2.0), MS(3.5) },
			.refill_kb = 4096,
			.evict_kb_per_ms = 60, .costs = &hw_costs_p6,
			.slit_remote = 20,
			/* Focht's logs: a numa_test task off its home node ran
			 * 1.35-1.45 x slower; 1 + 0.6 (r - 1) = 1.4 gives
			 * r = 1.67 (speed.h: m = 0.6 for MEM). */
			.far_ratio = 1.67,
			/* Home-node tasks took ~33 s with four running per node
			 * against ~28 s alone: 0.4 + 0.6 k = 33/28 with k =
			 * 4 x 0.6 / bw gives bw = 1.85. */
			.node_bw = 1.85,
		},
	},
	{
		.name = "xeon-2s-smt",
		.summary = "2 x 16-core 2.4 GHz Xeon SMT2 (Ice Lake-SP class), 1.25 MB L2, 24 MB L3, 256 GB",
		.nodes = 2, .packages_per_node = 1, .cores_per_package = 16, .threads_per_core = 2,
		.numbering = HW_NUM_THREADS_LAST,
		.profile = {
			.mhz = 2400, .l2_kb = 1280, .llc_kb = 24576, .mem_mb = 262144,
			.smt = HW_SMT_MODERN, .arch = SL_ARCH_X86_64,
			/* in place from memory 0.2 ms, as across packages; lines
			 * still in the L3 come back at the core level's 0.05 */
			.refill_ns = { MS(0.2), MS(0.05), MS(0.2), MS(0.4) },
			.evict_kb_per_ms = 500, .costs = &hw_costs_modern,
			.slit_remote = 21, .far_ratio = 1.45,
		},
	},
};

#define NPRESETS ((int)(sizeof(presets) / sizeof(presets[0])))

/*
 * Machines named by an hwloc synthetic string, an XML file or "host": a
 * modern server, since that is what such descriptions usually come from.
 * Clock, caches and RAM are defaults only where hwloc knew nothing.
 */
const struct hw_profile hw_profile_default = {
	.mhz = 2500, .l2_kb = 1024, .llc_kb = 16384, .mem_mb = 4096,
	.smt = HW_SMT_MODERN, .arch = SL_ARCH_X86_64,
	.refill_ns = { MS(0.2), MS(0.05), MS(0.2), MS(0.4) },
	.evict_kb_per_ms = 500, .costs = &hw_costs_modern,
	.slit_remote = 20, .far_ratio = 1.45,
};

static struct sl_machine_preset preset_list[NPRESETS];

const struct sl_machine_preset *sl_machine_presets(int *n)
{
	for (int i = 0; i < NPRESETS; i++) {
		preset_list[i].name = presets[i].name;
		preset_list[i].summary = presets[i].summary;
		preset_list[i].arch = sl_arch_name(presets[i].profile.arch);
	}
	*n = NPRESETS;
	return preset_list;
}

const struct hw_preset *hw_preset_find(const char *name)
{
	for (int i = 0; i < NPRESETS; i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

void hw_preset_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; i < NPRESETS && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 presets[i].name);
}

const char *hw_preset_name(const struct hw_preset *p)
{
	return p->name;
}

const struct hw_profile *hw_preset_profile(const struct hw_preset *p)
{
	return &p->profile;
}

unsigned hw_preset_mem_per_node_mb(const struct hw_preset *p)
{
	return p->profile.mem_mb / (unsigned)p->nodes;
}

/* The preset's CPUs in Linux's order, as raw keys (core, package, node,
 * LLC). */
static int preset_cpus(const struct hw_preset *p, struct hw_raw_cpu *cpus)
{
	int packages = p->nodes * p->packages_per_node;
	int cores = packages * p->cores_per_package;
	int n = cores * p->threads_per_core;

	for (int cpu = 0; cpu < n; cpu++) {
		int core = p->numbering == HW_NUM_THREADS_LAST ? cpu % cores
							       : cpu / p->threads_per_core;
		int package = core / p->cores_per_package;
		cpus[cpu].core_key = (uint64_t)core;
		cpus[cpu].package_key = (uint64_t)package;
		cpus[cpu].node_key = (uint64_t)(package / p->packages_per_node);
		cpus[cpu].llc_key = 0;	/* each preset's LLC is its package's */
	}
	return n;
}

int hw_preset_load(struct sl_machine *m, const struct hw_preset *p,
		   const struct hw_options *o, struct sl_err *err)
{
	struct hw_raw_cpu cpus[SL_MAX_CPUS];
	uint64_t node_keys[SL_MAX_NODES];
	struct sl_topo *t = &m->topo;
	char what[sizeof(m->name) + 16];

	snprintf(what, sizeof(what), "machine '%s'", m->name);
	if (o->like)
		return sl_fail(err, "%s: option 'like=%s': a preset has model numbers of its own "
			       "(like= gives them to an hwloc synthetic string, an XML file or host)",
			       what, hw_preset_name(o->like));
	int n = preset_cpus(p, cpus);
	if (hw_topo_build(t, cpus, n, o->noht, node_keys, what, err))
		return -1;
	hw_topo_uniform_distances(t, o->slit > 0 ? o->slit : p->profile.slit_remote);
	t->cpu_khz = (o->mhz ? o->mhz : p->profile.mhz) * 1000;
	t->l2_kb = p->profile.l2_kb;
	t->llc_kb = p->profile.llc_kb;
	t->arch = o->arch >= 0 ? (enum sl_arch)o->arch : p->profile.arch;
	m->mem_mb = p->profile.mem_mb;
	char clock[32] = "";
	if (o->mhz)	/* the summary names the preset's own clock */
		snprintf(clock, sizeof(clock), ", clocked at %u MHz", o->mhz);
	snprintf(m->summary, sizeof(m->summary), "%s%s%s", p->summary, clock,
		 o->noht ? " (noht)" : "");
	hw_speed_init(&m->speed, t, &p->profile, o);
	hw_disk_init(m, &p->profile, o);
	return 0;
}
