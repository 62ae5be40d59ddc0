/*
 * topo.c - building and checking struct sl_topo: the machine as the kernel
 * saw it (CPU -> core/LLC/package/node maps, sibling masks, SLIT distances).
 *
 * Ids are dense and assigned in CPU order (the first CPU of core k+1 comes
 * after the first CPU of core k), as topo.h promises.  CPU order itself is
 * the caller's: presets follow how Linux numbered the real box, hwloc
 * topologies use the OS index of each PU (Linux's numbering).  The "noht"
 * boot option of 2.4/2.6 kept one logical CPU per physical package
 * (Vianney's 2.4.19 runs: HT disabled "through the boot option noht");
 * here it keeps the first CPU of every core and renumbers the survivors
 * densely.
 */
#include "hw/hw_internal.h"

#include <string.h>

#define SLIT_LOCAL 10
#define SLIT_MAX 255

/* Index of key in keys[0..*n), appending it if new. */
static int key_id(uint64_t *keys, int *n, uint64_t key)
{
	for (int i = *n - 1; i >= 0; i--)
		if (keys[i] == key)
			return i;
	keys[*n] = key;
	return (*n)++;
}

static void topo_reset(struct sl_topo *t)
{
	memset(t, 0, sizeof(*t));
}

/* Index of the LLC (package id, node id, key) in llcs[0..*n), appending it
 * if new: an LLC is counted within its package and its NUMA node, so that
 * one never spans two of either.  The node as Linux has it: 6.12's
 * match_llc() (arch/x86/kernel/smpboot.c) never links CPUs of two nodes
 * in cpu_llc_shared_mask - outright on Intel's Sub-NUMA Clustering, and
 * through topology_sane()'s "not on the same node! Ignoring dependency"
 * elsewhere - so a package of several nodes (SNC, AMD's NPS modes) has an
 * LLC per node at least, whatever cache the hardware shares. */
struct llc_key {
	int package, node;
	uint64_t key;
};

static int llc_id(struct llc_key *llcs, int *n, int package, int node, uint64_t key)
{
	for (int i = *n - 1; i >= 0; i--)
		if (llcs[i].package == package && llcs[i].node == node && llcs[i].key == key)
			return i;
	llcs[*n] = (struct llc_key){ package, node, key };
	return (*n)++;
}

/* Count the CPUs kept (all, or the first of each core with noht). */
static int kept_cpus(const struct hw_raw_cpu *cpus, int n, bool noht, bool *keep)
{
	int kept = 0;

	for (int i = 0; i < n; i++) {
		keep[i] = true;
		for (int j = 0; noht && j < i; j++)
			if (cpus[j].core_key == cpus[i].core_key) {
				keep[i] = false;
				break;
			}
		kept += keep[i];
	}
	return kept;
}

static int assign_ids(struct sl_topo *t, const struct hw_raw_cpu *cpus, int n,
		      const bool *keep, uint64_t node_keys[SL_MAX_NODES],
		      const char *what, struct sl_err *err)
{
	uint64_t core_keys[SL_MAX_CPUS], pkg_keys[SL_MAX_CPUS], nkeys[SL_MAX_CPUS];
	struct llc_key llcs[SL_MAX_CPUS];
	int cpu = 0;

	for (int i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		t->cpu_core[cpu] = key_id(core_keys, &t->ncores, cpus[i].core_key);
		t->cpu_package[cpu] = key_id(pkg_keys, &t->npackages, cpus[i].package_key);
		t->cpu_node[cpu] = key_id(nkeys, &t->nnodes, cpus[i].node_key);
		if (t->nnodes > SL_MAX_NODES)
			return sl_fail(err, "%s: more than %d NUMA nodes with CPUs",
				       what, SL_MAX_NODES);
		t->cpu_llc[cpu] = llc_id(llcs, &t->nllcs, t->cpu_package[cpu], t->cpu_node[cpu],
					 cpus[i].llc_key);
		cpu++;
	}
	t->ncpus = cpu;
	memcpy(node_keys, nkeys, sizeof(uint64_t) * (size_t)t->nnodes);
	return 0;
}

static void fill_masks(struct sl_topo *t)
{
	int seen[SL_MAX_CPUS] = { 0 };	/* siblings met so far, per core */

	t->all_cpus = sl_cpumask_first_n(t->ncpus);
	t->threads_per_core = 0;
	for (int cpu = 0; cpu < t->ncpus; cpu++) {
		int core = t->cpu_core[cpu];

		t->cpu_thread[cpu] = seen[core]++;
		if (seen[core] > t->threads_per_core)
			t->threads_per_core = seen[core];
		sl_cpumask_set(&t->core_cpus[core], cpu);
		sl_cpumask_set(&t->llc_cpus[t->cpu_llc[cpu]], cpu);
		sl_cpumask_set(&t->package_cpus[t->cpu_package[cpu]], cpu);
		sl_cpumask_set(&t->node_cpus[t->cpu_node[cpu]], cpu);
	}
}

int hw_topo_build(struct sl_topo *t, const struct hw_raw_cpu *cpus, int n, bool noht,
		  uint64_t node_keys[SL_MAX_NODES], const char *what, struct sl_err *err)
{
	bool keep[HW_MAX_RAW_CPUS];

	topo_reset(t);
	if (n <= 0)
		return sl_fail(err, "%s: no logical CPUs", what);
	if (n > HW_MAX_RAW_CPUS)
		return sl_fail(err, "%s: %d logical CPUs, at most %d supported",
			       what, n, SL_MAX_CPUS);
	int kept = kept_cpus(cpus, n, noht, keep);
	if (kept > SL_MAX_CPUS)
		return sl_fail(err, "%s: %d logical CPUs%s, at most %d supported",
			       what, kept, noht ? " after noht" : "", SL_MAX_CPUS);
	if (assign_ids(t, cpus, n, keep, node_keys, what, err))
		return -1;
	/* a core lies in one package and one node: anything else is an
	 * impossible machine (hwloc's own objects nest; this guards the keys).
	 * Each CPU is held against its core's first CPU. */
	int first[SL_MAX_CPUS];
	for (int k = 0; k < t->ncores; k++)
		first[k] = -1;
	for (int b = 0; b < t->ncpus; b++) {
		int a = first[t->cpu_core[b]];
		if (a < 0)
			first[t->cpu_core[b]] = b;
		else if (t->cpu_package[a] != t->cpu_package[b] || t->cpu_node[a] != t->cpu_node[b] ||
			 t->cpu_llc[a] != t->cpu_llc[b])
			return sl_fail(err, "%s: CPUs %d and %d share a core but not its "
				       "package, node and last-level cache: an impossible machine",
				       what, a, b);
	}
	fill_masks(t);
	hw_topo_uniform_distances(t, 20);
	return 0;
}

void hw_topo_uniform_distances(struct sl_topo *t, int remote)
{
	for (int a = 0; a < t->nnodes; a++)
		for (int b = 0; b < t->nnodes; b++)
			t->node_distance[a][b] = a == b ? SLIT_LOCAL : remote;
}

/* ---- checking ---- */

/* A topology that fails these checks is our bug, not the user's input. */
#define BROKEN(...) sl_fail_internal(err, "topology: " __VA_ARGS__)


static int check_counts(const struct sl_topo *t, struct sl_err *err)
{
	if (t->ncpus < 1 || t->ncpus > SL_MAX_CPUS)
		return BROKEN("%d CPUs (expected 1..%d)", t->ncpus, SL_MAX_CPUS);
	if (t->ncores < 1 || t->ncores > t->ncpus)
		return BROKEN("%d cores for %d CPUs", t->ncores, t->ncpus);
	if (t->npackages < 1 || t->npackages > t->ncpus)
		return BROKEN("%d packages for %d CPUs", t->npackages, t->ncpus);
	if (t->nllcs < t->npackages || t->nllcs > t->ncores)
		return BROKEN("%d last-level caches for %d packages and %d cores", t->nllcs,
			      t->npackages, t->ncores);
	if (t->nnodes < 1 || t->nnodes > SL_MAX_NODES || t->nnodes > t->ncpus)
		return BROKEN("%d nodes for %d CPUs", t->nnodes, t->ncpus);
	sl_cpumask all = sl_cpumask_first_n(t->ncpus);
	if (!sl_cpumask_equal(&all, &t->all_cpus))
		return BROKEN("all_cpus is not CPUs 0..%d", t->ncpus - 1);
	if (!t->cpu_khz || !t->l2_kb || !t->llc_kb)
		return BROKEN("clock or cache size missing");
	return 0;
}

/* One level (core, package or node): ids in range, assigned in CPU order,
 * and each id's mask holds exactly the CPUs that map to it. */
static int check_level(const struct sl_topo *t, const char *what, const int *ids, int nids,
		       const sl_cpumask *masks, struct sl_err *err)
{
	int next_new = 0;

	for (int cpu = 0; cpu < t->ncpus; cpu++) {
		int id = ids[cpu];
		if (id < 0 || id >= nids)
			return BROKEN("CPU %d has %s id %d of %d", cpu, what, id, nids);
		if (id > next_new)
			return BROKEN("%s ids not in CPU order at CPU %d", what, cpu);
		if (id == next_new)
			next_new++;
	}
	int total = 0;
	for (int id = 0; id < nids; id++) {
		total += sl_cpumask_weight(&masks[id]);
		sl_for_each_cpu(cpu, &masks[id])
			if (cpu >= t->ncpus || ids[cpu] != id)
				return BROKEN("%s %d mask holds CPU %d", what, id, cpu);
	}
	if (total != t->ncpus || next_new != nids)
		return BROKEN("%s masks do not cover CPUs 0..%d", what, t->ncpus - 1);
	return 0;
}

/* Siblings share a last-level cache, a package and a node; thread
 * indices count 0, 1, ... */
static int check_cores(const struct sl_topo *t, struct sl_err *err)
{
	int max_threads = 0;

	for (int core = 0; core < t->ncores; core++) {
		int first = sl_cpumask_first(&t->core_cpus[core]), thread = 0;
		sl_for_each_cpu(cpu, &t->core_cpus[core]) {
			if (t->cpu_package[cpu] != t->cpu_package[first] ||
			    t->cpu_node[cpu] != t->cpu_node[first] ||
			    t->cpu_llc[cpu] != t->cpu_llc[first])
				return BROKEN("core %d spans packages, nodes or caches", core);
			if (t->cpu_thread[cpu] != thread++)
				return BROKEN("CPU %d has thread index %d", cpu, t->cpu_thread[cpu]);
		}
		if (thread > max_threads)
			max_threads = thread;
	}
	if (t->threads_per_core != max_threads)
		return BROKEN("threads_per_core %d, cores have up to %d",
			      t->threads_per_core, max_threads);
	return 0;
}

/* A last-level cache lies in one package. */
static int check_llcs(const struct sl_topo *t, struct sl_err *err)
{
	for (int l = 0; l < t->nllcs; l++) {
		int first = sl_cpumask_first(&t->llc_cpus[l]);
		sl_for_each_cpu(cpu, &t->llc_cpus[l]) {
			if (t->cpu_package[cpu] != t->cpu_package[first])
				return BROKEN("last-level cache %d spans packages", l);
			if (t->cpu_node[cpu] != t->cpu_node[first])
				return BROKEN("last-level cache %d spans NUMA nodes", l);
		}
	}
	return 0;
}

static int check_distances(const struct sl_topo *t, struct sl_err *err)
{
	for (int a = 0; a < t->nnodes; a++)
		for (int b = 0; b < t->nnodes; b++) {
			int d = t->node_distance[a][b];
			if (a == b ? d != SLIT_LOCAL : d < SLIT_LOCAL || d > SLIT_MAX)
				return BROKEN("node distance %d-%d is %d", a, b, d);
			if (d != t->node_distance[b][a])
				return BROKEN("node distances %d-%d not symmetric", a, b);
		}
	return 0;
}

static const char *const arch_names[SL_NARCH] = {
	[SL_ARCH_I386] = "i386", [SL_ARCH_IA64] = "ia64", [SL_ARCH_X86_64] = "x86_64",
};

const char *sl_arch_name(enum sl_arch arch)
{
	return (unsigned)arch < SL_NARCH ? arch_names[arch] : "?";
}

int sl_arch_parse(const char *name)
{
	for (int a = 0; a < SL_NARCH; a++)
		if (!strcmp(name, arch_names[a]))
			return a;
	return -1;
}

int sl_topo_check(const struct sl_topo *t, struct sl_err *err)
{
	if (check_counts(t, err) ||
	    check_level(t, "core", t->cpu_core, t->ncores, t->core_cpus, err) ||
	    check_level(t, "LLC", t->cpu_llc, t->nllcs, t->llc_cpus, err) ||
	    check_level(t, "package", t->cpu_package, t->npackages, t->package_cpus, err) ||
	    check_level(t, "node", t->cpu_node, t->nnodes, t->node_cpus, err) ||
	    check_cores(t, err) || check_llcs(t, err) || check_distances(t, err))
		return -1;
	return 0;
}
