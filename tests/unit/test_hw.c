/*
 * test_hw.c - the machines layer: presets, hwloc synthetic strings and XML
 * files, the noht option, error reports, and the speed model.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/readfile.h"
#include "checked_run.h"
#include "hw/hw_internal.h"
#include "hw/machine.h"
#include "test.h"

/* tests/data/machines/<file>, found from this source file's path. */
static const char *fixture(const char *file)
{
	static char path[1024];
	const char *src = __FILE__;
	const char *slash = strrchr(src, '/');
	int dir = slash ? (int)(slash - src) : 0;

	snprintf(path, sizeof(path), "%.*s%s../data/machines/%s", dir, src, slash ? "/" : "", file);
	return path;
}

static struct sl_machine mach;	/* large: keep it off the stack */

static int load(const char *name, struct sl_err *err)
{
	memset(err, 0, sizeof(*err));
	return sl_machine_load(&mach, name, err);
}

static bool mask_is(const sl_cpumask *m, const int *cpus, int n)
{
	sl_cpumask want;
	sl_cpumask_clear(&want);
	for (int i = 0; i < n; i++)
		sl_cpumask_set(&want, cpus[i]);
	return sl_cpumask_equal(m, &want);
}

static bool loads_ok(const char *name)
{
	struct sl_err err;
	int rc = load(name, &err);
	if (rc)
		fprintf(stderr, "  load '%s': %s\n", name, err.msg);
	return rc == 0 && sl_topo_check(&mach.topo, &err) == 0;
}

/* ---- presets ---- */

SL_TEST(hw_preset_p4dpe)
{
	CHECK(loads_ok("p4dpe-2x2ht"));
	const struct sl_topo *t = &mach.topo;
	CHECK(t->ncpus == 4 && t->ncores == 2 && t->npackages == 2 && t->nnodes == 1);
	CHECK(t->threads_per_core == 2);
	CHECK(mask_is(sl_topo_siblings(t, 0), (int[]){ 0, 1 }, 2));
	CHECK(mask_is(sl_topo_siblings(t, 3), (int[]){ 2, 3 }, 2));
	CHECK(mask_is(sl_topo_package(t, 1), (int[]){ 0, 1 }, 2));
	CHECK(t->cpu_thread[0] == 0 && t->cpu_thread[1] == 1);
	CHECK(t->cpu_khz == 2200000 && t->l2_kb == 512);
	CHECK(mach.mem_mb == 8192);
	CHECK(strstr(mach.summary, "2.2 GHz") != NULL);
}

SL_TEST(hw_preset_single_p4s)
{
	CHECK(loads_ok("p4ht-3066"));
	CHECK(mach.topo.ncpus == 2 && mach.topo.ncores == 1 && mach.topo.threads_per_core == 2);
	CHECK(mach.topo.cpu_khz == 3066000);
	CHECK(loads_ok("p4-2400"));
	CHECK(mach.topo.ncpus == 1 && mach.topo.threads_per_core == 1 && mach.mem_mb == 256);
	CHECK(loads_ok("xeon-1600ht"));
	CHECK(mach.topo.ncpus == 2 && mach.topo.npackages == 1);
	CHECK(mach.topo.l2_kb == 256 && mach.topo.llc_kb == 1024 && mach.mem_mb == 2560);
}

SL_TEST(hw_preset_numaq)
{
	CHECK(loads_ok("numaq-16"));
	const struct sl_topo *t = &mach.topo;
	CHECK(t->ncpus == 16 && t->ncores == 16 && t->npackages == 16 && t->nnodes == 4);
	CHECK(mask_is(sl_topo_node(t, 5), (int[]){ 4, 5, 6, 7 }, 4));
	CHECK(t->cpu_node[15] == 3);
	CHECK(t->node_distance[0][0] == 10 && t->node_distance[0][3] == 20);
	CHECK(fabs(mach.speed.numa_ratio[0][3] - 3.5) < 1e-9);
	CHECK(mach.speed.numa_ratio[2][2] == 1.0);
}

/* The published tables' machines: Magallon's dual Xeon 1.8 GHz HT and
 * Focht's AzusA, with the remote ratio and node bandwidth presets.c
 * derives from Focht's logs. */
SL_TEST(hw_preset_published_machines)
{
	CHECK(loads_ok("xeon-1800-2x2ht"));
	const struct sl_topo *t = &mach.topo;
	CHECK(t->ncpus == 4 && t->npackages == 2 && t->threads_per_core == 2 && t->nnodes == 1);
	CHECK(t->cpu_khz == 1800000 && t->l2_kb == 512);
	CHECK(mask_is(sl_topo_siblings(t, 2), (int[]){ 2, 3 }, 2));
	CHECK(loads_ok("azusa-16"));
	CHECK(t->ncpus == 16 && t->npackages == 16 && t->nnodes == 4 && t->threads_per_core == 1);
	CHECK(mask_is(sl_topo_node(t, 13), (int[]){ 12, 13, 14, 15 }, 4));
	CHECK(t->l2_kb == 96 && t->llc_kb == 4096 && t->cpu_khz == 800000);
	CHECK(fabs(mach.speed.numa_ratio[0][3] - 1.67) < 1e-9);
	CHECK(mach.speed.numa_ratio[1][1] == 1.0);
	CHECK(fabs(mach.speed.node_bw - 1.85) < 1e-9);
}

/* The dual-package Xeon DPs share one 3.2 GB/s front-side bus: node_bw is
 * the bus over what one fully memory-bound NetBurst CPU draws (its 512 KB
 * L2 from memory in 1 ms, 0.52 GB/s), 6.1 such tasks.  Two or four MEM
 * tasks (0.6 each) stay below it; bus= gives another bus in GB/s, bw= a
 * bandwidth in task equivalents wins over both, and a fitted node_bw
 * (numaq-16) is kept. */
SL_TEST(hw_shared_bus)
{
	double draw = 512.0 * 1024 / 1e6;	/* GB/s */

	CHECK(loads_ok("xeon-1800-2x2ht"));
	CHECK(fabs(mach.speed.node_bw - 3.2 / draw) < 1e-9);
	CHECK(sl_numa_contention(&mach.speed, 4 * 0.6) == 1.0);
	CHECK(loads_ok("p4dpe-2x2ht"));
	CHECK(fabs(mach.speed.node_bw - 3.2 / draw) < 1e-9);
	CHECK(loads_ok("xeon-1800-2x2ht,bus=0.4"));
	CHECK(fabs(mach.speed.node_bw - 0.4 / draw) < 1e-9);
	CHECK(sl_numa_contention(&mach.speed, 0.6) == 1.0);
	CHECK(sl_numa_contention(&mach.speed, 1.2) > 1.5);
	CHECK(loads_ok("xeon-1800-2x2ht,bus=0.4,refill=2"));	/* a slower refill draws less */
	CHECK(fabs(mach.speed.node_bw - 0.8 / draw) < 1e-9);
	CHECK(loads_ok("xeon-1800-2x2ht,bus=0.4,bw=3"));
	CHECK(mach.speed.node_bw == 3.0);
	CHECK(loads_ok("numaq-16,bus=100"));
	CHECK(mach.speed.node_bw > 100);
	CHECK(loads_ok("numaq-16"));
	CHECK(mach.speed.node_bw == 0.72);
	CHECK(loads_ok("p4ht-3066"));
	CHECK(mach.speed.node_bw == 0);
}

SL_TEST(hw_preset_xeon_2s_smt)
{
	CHECK(loads_ok("xeon-2s-smt"));
	const struct sl_topo *t = &mach.topo;
	CHECK(t->ncpus == 64 && t->ncores == 32 && t->npackages == 2 && t->nnodes == 2);
	/* Linux numbering on a modern Intel server: siblings n and n + 32 */
	CHECK(mask_is(sl_topo_siblings(t, 0), (int[]){ 0, 32 }, 2));
	CHECK(mask_is(sl_topo_siblings(t, 49), (int[]){ 17, 49 }, 2));
	CHECK(t->cpu_thread[32] == 1 && t->cpu_thread[31] == 0);
	CHECK(t->cpu_node[15] == 0 && t->cpu_node[16] == 1 && t->cpu_node[47] == 0);
	CHECK(sl_cpumask_weight(sl_topo_node(t, 0)) == 32);
	CHECK(t->node_distance[0][1] == 21);
	CHECK(fabs(mach.speed.numa_ratio[1][0] - 1.45) < 1e-9);
}

SL_TEST(hw_preset_list_all_load)
{
	int n = 0;
	const struct sl_machine_preset *p = sl_machine_presets(&n);
	CHECK(n >= 6);
	for (int i = 0; i < n; i++) {
		CHECKF(loads_ok(p[i].name), "%s", p[i].name);
		CHECK(p[i].summary && p[i].summary[0]);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(p[i].name, p[j].name) != 0);
	}
}

SL_TEST(hw_noht)
{
	CHECK(loads_ok("p4dpe-2x2ht,noht"));
	const struct sl_topo *t = &mach.topo;
	CHECK(t->ncpus == 2 && t->npackages == 2 && t->ncores == 2 && t->threads_per_core == 1);
	CHECK(mask_is(sl_topo_siblings(t, 1), (int[]){ 1 }, 1));
	CHECK(t->cpu_package[1] == 1);
	CHECK(strstr(mach.summary, "noht") != NULL);

	CHECK(loads_ok("xeon-2s-smt,noht"));
	CHECK(t->ncpus == 32 && t->npackages == 2 && t->nnodes == 2 && t->threads_per_core == 1);
	CHECK(t->cpu_node[16] == 1);

	CHECK(loads_ok("pack:2 core:2 pu:2,noht"));
	CHECK(t->ncpus == 4 && t->npackages == 2 && t->threads_per_core == 1);
	CHECK(loads_ok("p4-2400,noht"));
	CHECK(t->ncpus == 1);
}

/* ---- hwloc: synthetic strings, XML, host ---- */

SL_TEST(hw_synthetic)
{
	const struct sl_topo *t = &mach.topo;

	CHECK(loads_ok("pack:2 core:1 pu:2"));
	CHECK(t->ncpus == 4 && t->npackages == 2 && t->ncores == 2 && t->nnodes == 1);
	CHECK(mask_is(sl_topo_siblings(t, 2), (int[]){ 2, 3 }, 2));
	CHECK(mach.speed.smt_pair[SL_WC_INT][SL_WC_INT] < 1.0);	/* modern default */

	CHECK(loads_ok("node:4 pack:1 core:4 pu:1"));
	CHECK(t->ncpus == 16 && t->nnodes == 4 && t->npackages == 4 && t->threads_per_core == 1);
	CHECK(mask_is(sl_topo_node(t, 4), (int[]){ 4, 5, 6, 7 }, 4));

	CHECK(loads_ok("node:2 pack:1 core:8 pu:2"));
	CHECK(t->ncpus == 32 && t->nnodes == 2 && t->npackages == 2 && t->ncores == 16);
	CHECK(t->node_distance[0][1] == 20 && t->node_distance[1][1] == 10);
	CHECK(mach.speed.numa_ratio[0][1] > 1.0);
	CHECK(mask_is(sl_topo_siblings(t, 17), (int[]){ 16, 17 }, 2));

	CHECK(loads_ok("node:2 pack:1 core:8 pu:2,noht"));
	CHECK(t->ncpus == 16 && t->nnodes == 2);

	/* a synthetic string whose attributes hold commas */
	CHECK(loads_ok("pack:1 core:2 pu:2(indexes=0,2,1,3)"));
	CHECK(mask_is(sl_topo_siblings(t, 0), (int[]){ 0, 2 }, 2));
}

/* Last-level caches: where a package holds several (an L3 per chiplet),
 * each is its own group of CPUs inside the package; a package with one, or
 * none named, is one group, as on every preset. */
SL_TEST(hw_llc_groups)
{
	const struct sl_topo *t = &mach.topo;

	CHECK(loads_ok("pack:2 l3:2 core:2 pu:2"));
	CHECK(t->ncpus == 16 && t->npackages == 2 && t->nllcs == 4 && t->ncores == 8);
	CHECK(mask_is(sl_topo_llc(t, 5), (int[]){ 4, 5, 6, 7 }, 4));
	CHECK(mask_is(sl_topo_llc(t, 8), (int[]){ 8, 9, 10, 11 }, 4));
	CHECK(t->cpu_llc[3] == 0 && t->cpu_llc[4] == 1 && t->cpu_package[4] == 0);
	CHECK(strstr(mach.summary, "2 package(s), 4 last-level caches") != NULL);
	CHECK(sl_topo_check(t, &(struct sl_err){ 0 }) == 0);

	CHECK(loads_ok("pack:2 l3:2 core:2 pu:2,noht"));
	CHECK(t->ncpus == 8 && t->nllcs == 4);
	CHECK(mask_is(sl_topo_llc(t, 2), (int[]){ 2, 3 }, 2));

	/* one L3 per package, or no cache named: the package */
	CHECK(loads_ok("pack:2 l3:1 core:2 pu:2"));
	CHECK(t->nllcs == 2 && mask_is(sl_topo_llc(t, 0), (int[]){ 0, 1, 2, 3 }, 4));
	CHECK(strstr(mach.summary, "last-level") == NULL);
	CHECK(loads_ok("pack:2 core:2 pu:2"));
	CHECK(t->nllcs == 2 && mask_is(sl_topo_llc(t, 7), (int[]){ 4, 5, 6, 7 }, 4));
	/* a last level private to each core (an L2, no L3): the core's
	 * siblings share it, as cpu_llc_shared_mask says on such a CPU */
	CHECK(loads_ok("pack:1 core:2 l2:1 pu:2"));
	CHECK(t->nllcs == 2 && mask_is(sl_topo_llc(t, 3), (int[]){ 2, 3 }, 2));
	/* the same from an hwloc XML file (lstopo --input "pack:2 l3:2 core:2
	 * pu:2" --of xml): its L3Cache objects */
	CHECK(loads_ok(fixture("chiplets-2x2x2x2.xml")));
	CHECK(t->ncpus == 16 && t->nllcs == 4 && t->llc_kb == 16384);
	CHECK(mask_is(sl_topo_llc(t, 12), (int[]){ 12, 13, 14, 15 }, 4));
	CHECK(loads_ok("p4dpe-2x2ht"));
	CHECK(t->nllcs == 2 && mask_is(sl_topo_llc(t, 1), (int[]){ 0, 1 }, 2));
	CHECK(loads_ok("numaq-16"));
	CHECK(t->nllcs == 16);
	/* a package of two NUMA nodes (Intel's Sub-NUMA Clustering, AMD's
	 * NPS2): an LLC per node, as 6.12's match_llc() links no CPUs of two
	 * nodes, whether the package stands for the LLC or an L3 spans it */
	CHECK(loads_ok("pack:1 numa:2 core:4 pu:2"));
	CHECK(t->npackages == 1 && t->nnodes == 2 && t->nllcs == 2);
	CHECK(mask_is(sl_topo_llc(t, 9), (int[]){ 8, 9, 10, 11, 12, 13, 14, 15 }, 8));
	CHECK(strstr(mach.summary, "1 package(s), 2 last-level caches") != NULL);
	CHECK(loads_ok("pack:1 l3:1 numa:2 core:4 pu:1"));
	CHECK(t->nllcs == 2 && mask_is(sl_topo_llc(t, 0), (int[]){ 0, 1, 2, 3 }, 4));
	/* two L3s per package, each of two nodes: one LLC per node */
	CHECK(loads_ok("pack:2 l3:2 numa:2 core:2 pu:1"));
	CHECK(t->nnodes == 8 && t->nllcs == 8);
	CHECK(mask_is(sl_topo_llc(t, 3), (int[]){ 2, 3 }, 2));
}

SL_TEST(hw_xml_fixture)
{
	const struct sl_topo *t = &mach.topo;

	CHECK(loads_ok(fixture("2x2x2.xml")));
	CHECK(t->ncpus == 8 && t->ncores == 4 && t->npackages == 2 && t->nnodes == 1);
	/* PU OS indexes interleave threads: CPU n and n + 4 are siblings */
	CHECK(mask_is(sl_topo_siblings(t, 0), (int[]){ 0, 4 }, 2));
	CHECK(mask_is(sl_topo_package(t, 0), (int[]){ 0, 1, 4, 5 }, 4));
	CHECK(t->cpu_khz == 2400000);			/* from "@ 2.40GHz" */
	CHECK(t->l2_kb == 1024 && t->llc_kb == 8192);
	CHECK(t->nllcs == 2 && mask_is(sl_topo_llc(t, 4), (int[]){ 0, 1, 4, 5 }, 4));

	CHECK(loads_ok(fixture("numa4-dist.xml")));
	CHECK(t->ncpus == 8 && t->nnodes == 4);
	CHECK(t->node_distance[0][1] == 16 && t->node_distance[0][2] == 21);
	CHECK(t->node_distance[3][2] == 16);
	CHECK(fabs(mach.speed.numa_ratio[0][2] - 1.45) < 1e-9);
	CHECK(mach.speed.numa_ratio[0][1] > 1.0 && mach.speed.numa_ratio[0][1] < 1.45);

	CHECK(loads_ok(fixture("2x2x2.xml,noht")));
	CHECK(t->ncpus == 4 && t->npackages == 2 && t->threads_per_core == 1);
}

/* A distance matrix with a value no long holds (a fuzzed file: 2^64 - 1)
 * is out of range like any beyond 255, checked before the conversion
 * (UBSan caught the conversion): the machine falls back to SLIT 10/20. */
SL_TEST(hw_xml_distance_beyond_long)
{
	const struct sl_topo *t = &mach.topo;

	CHECK(loads_ok(fixture("numa4-dist-huge.xml")));
	CHECKF(t->nnodes == 4 && t->node_distance[0][1] == 20 && t->node_distance[0][0] == 10,
	       "%d nodes, distance 0-1 %d", t->nnodes, t->node_distance[0][1]);
}

/* An XML object without gp_index gets the next free number from hwloc,
 * which a later object may carry too (a fuzzed file: PU 2 without its Core
 * and without gp_index took Core 4's).  Cores are keyed by the objects, so
 * CPU 2 is a core of its own, not CPU 4's sibling across packages. */
SL_TEST(hw_xml_gp_index_clash)
{
	const struct sl_topo *t = &mach.topo;

	CHECK(loads_ok(fixture("gp-index-clash.xml")));
	CHECKF(t->ncpus == 8 && t->ncores == 8 && t->npackages == 4 && t->nnodes == 4,
	       "%d CPUs, %d cores, %d packages, %d nodes", t->ncpus, t->ncores, t->npackages,
	       t->nnodes);
	CHECK(mask_is(sl_topo_siblings(t, 2), (int[]){ 2 }, 1));
	CHECK(t->cpu_package[2] != t->cpu_package[4]);
}

/* The guard behind the object keys: CPUs that share a core key but not
 * its package or node are an impossible machine, refused with one line. */
SL_TEST(hw_topo_core_across_packages_refused)
{
	struct sl_topo t;
	struct sl_err err = { 0 };
	uint64_t node_keys[SL_MAX_NODES];
	const struct hw_raw_cpu ok[] = { { 1, 1, 1, 0 }, { 1, 1, 1, 0 }, { 2, 2, 2, 0 } };
	const struct hw_raw_cpu pkg[] = { { 1, 1, 1, 0 }, { 2, 1, 1, 0 }, { 1, 2, 1, 0 } };
	const struct hw_raw_cpu node[] = { { 1, 1, 1, 0 }, { 1, 1, 2, 0 } };

	CHECK(hw_topo_build(&t, ok, 3, false, node_keys, "m", &err) == 0 && t.ncores == 2);
	CHECK(hw_topo_build(&t, pkg, 3, false, node_keys, "m", &err) != 0);
	CHECKF(strstr(err.msg, "CPUs 0 and 2 share a core") != NULL, "%s", err.msg);
	err = (struct sl_err){ 0 };
	CHECK(hw_topo_build(&t, node, 2, false, node_keys, "m", &err) != 0);
	CHECKF(strstr(err.msg, "impossible machine") != NULL, "%s", err.msg);
}

/* A CPUModel whose clock does not fit (or is no clock) gives no clock: the
 * machine keeps its profile's, as with a model string without "@". */
static unsigned long xml_khz(const char *model)
{
	char src[16384], *text, path[] = "/tmp/schedlab-hw-XXXXXX";
	FILE *f = fopen(fixture("2x2x2.xml"), "r");
	size_t n = f ? fread(src, 1, sizeof(src) - 1, f) : 0;
	unsigned long khz = 0;

	if (f)
		fclose(f);
	src[n] = 0;
	char *at = strstr(src, "Intel(R) Xeon(R) CPU E5-2630 v3 @ 2.40GHz");
	int fd = mkstemp(path);
	if (!at || fd < 0)
		return 0;
	text = sl_xmalloc(n + 256);
	snprintf(text, n + 256, "%.*s%s%s", (int)(at - src), src, model,
		 at + strlen("Intel(R) Xeon(R) CPU E5-2630 v3 @ 2.40GHz"));
	/* only the first package's CPUModel is read */
	f = fdopen(fd, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
		if (loads_ok(path))
			khz = mach.topo.cpu_khz;
	}
	unlink(path);
	free(text);
	return khz;
}

SL_TEST(hw_xml_clock_checked_after_conversion)
{
	unsigned long none = xml_khz("Some CPU");

	CHECK(none > 0 && none != 2400000);
	CHECK(xml_khz("Some CPU @ 3.00GHz") == 3000000);
	CHECK(xml_khz("Some CPU @ 800MHz") == 800000);
	CHECKF(xml_khz("Some CPU @ 99999.9GHz") == none, "%lu", xml_khz("Some CPU @ 99999.9GHz"));
	CHECK(xml_khz("Some CPU @ 0x1p16GHz") == none);
	CHECK(xml_khz("Some CPU @ -2GHz") == none);
}

/* The fixture with an Architecture info on its Machine object (NULL:
 * none), loaded with `opts` appended: the arch it gets, or -1. */
static int xml_arch(const char *arch, const char *opts)
{
	char src[16384], path[] = "/tmp/schedlab-hw-XXXXXX", name[64];
	FILE *f = fopen(fixture("2x2x2.xml"), "r");
	size_t n = f ? fread(src, 1, sizeof(src) - 1, f) : 0;
	const char *anchor = "<info name=\"Backend\" value=\"Synthetic\"/>";
	int got = -1;

	if (f)
		fclose(f);
	src[n] = 0;
	char *at = strstr(src, anchor);
	int fd = mkstemp(path);
	if (!at || fd < 0)
		return -2;
	f = fdopen(fd, "w");
	if (f) {
		fprintf(f, "%.*s", (int)(at - src), src);
		if (arch)
			fprintf(f, "<info name=\"Architecture\" value=\"%s\"/>", arch);
		fputs(at, f);
		fclose(f);
		snprintf(name, sizeof(name), "%s%s", path, opts);
		if (loads_ok(name))
			got = (int)mach.topo.arch;
	}
	unlink(path);
	return got;
}

SL_TEST(hw_xml_arch)
{
	/* hwloc's record of uname's machine: ours, or x86_64 (modern) */
	CHECK(xml_arch("ia64", "") == SL_ARCH_IA64);
	CHECK(xml_arch("i686", "") == SL_ARCH_I386);
	CHECK(xml_arch("i386", "") == SL_ARCH_I386);
	CHECK(xml_arch("x86_64", "") == SL_ARCH_X86_64);
	CHECK(xml_arch("ppc64", "") == SL_ARCH_X86_64);
	CHECK(xml_arch("i786", "") == SL_ARCH_X86_64);
	CHECK(xml_arch(NULL, "") == SL_ARCH_X86_64);
	/* the option wins */
	CHECK(xml_arch("ia64", ",arch=i386") == SL_ARCH_I386);
}

SL_TEST(hw_host)
{
	CHECK(loads_ok("host"));
	CHECK(mach.topo.ncpus >= 1 && mach.topo.cpu_khz > 0);
	CHECK(strstr(mach.summary, "host") != NULL);
}

/* ---- errors ---- */

/* Load `name`, expect an input error naming `needle`, and nothing on stderr. */
static bool fails_with(const char *name, const char *needle)
{
	struct sl_err err;
	FILE *cap = tmpfile();
	int saved = dup(2);
	bool quiet = true;

	fflush(stderr);
	if (cap)
		dup2(fileno(cap), 2);
	int rc = load(name, &err);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (cap) {
		quiet = ftell(cap) == 0 && fseek(cap, 0, SEEK_END) == 0 && ftell(cap) == 0;
		fclose(cap);
	}
	bool ok = rc == -1 && err.kind == SL_ERR_INPUT && strstr(err.msg, needle) &&
		  !strchr(err.msg, '\n') && quiet;
	if (!ok)
		fprintf(stderr, "  '%s' -> rc %d kind %d quiet %d: %s\n", name, rc, err.kind, quiet, err.msg);
	return ok;
}

SL_TEST(hw_errors_files)
{
	CHECK(fails_with(fixture("broken.xml"), "broken.xml"));
	CHECK(fails_with(fixture("broken.xml"), "line "));	/* hwloc's reason */
	CHECK(fails_with(fixture("no-such.xml"), "no-such.xml"));
	CHECK(fails_with("/nonexistent/dir/m.xml", "no such file"));
	CHECK(fails_with(fixture(""), "directory"));
	/* files hwloc 2.9 crashes on (found by tests/fuzz/): refused first */
	CHECK(fails_with(fixture("pu-no-complete-cpuset.xml"),
			 "line 10: object 'PU' has cpuset but no complete_cpuset"));
	CHECK(fails_with(fixture("node-no-complete-nodeset.xml"),
			 "line 5: object 'NUMANode' has nodeset but no complete_nodeset"));
	/* ... and on a set that is not a bitmap (found by a longer run) */
	CHECK(fails_with(fixture("bad-bitmap.xml"),
			 "line 4: object 'Machine' has complete_cpuset '0x0`00000ff', not an hwloc "
			 "bitmap"));
	/* a PU without os_index: hwloc sized a bitmap by 2^32-1 (half a GB
	 * touched, seconds; found by the machine_xml harness) */
	CHECK(fails_with(fixture("pu-no-os-index.xml"), "line 10: object 'PU' has no os_index"));
	/* a version 1 file's NUMA node without a cpuset: a crash in
	 * hwloc_topology_load (found by the machine_xml harness) */
	CHECK(fails_with(fixture("node-no-cpuset-v1.xml"), "line 5: object 'NUMANode' has no cpuset"));
}

/* The CPU count a synthetic string asks for, known before hwloc builds
 * it: bare arities count ("42200" alone kept hwloc busy for minutes). */
SL_TEST(hw_synthetic_cpus_counted_before_hwloc)
{
	CHECK(hw_synthetic_cpus("pack:2 core:2 pu:2", NULL) == 8);
	CHECK(hw_synthetic_cpus("42200", NULL) == 42200);
	CHECK(hw_synthetic_cpus("4 2", NULL) == 8);
	CHECK(hw_synthetic_cpus("pack:2 4", NULL) == 8);
	CHECK(hw_synthetic_cpus("pack:2 core:1 pu:2(indexes=0,1,2,3)", NULL) == 4);
	CHECK(hw_synthetic_cpus("numa:2 [numa(memory=1GB)] pack:1 pu:3", NULL) == 6);
	CHECK(hw_synthetic_cpus("pack:1] pu:218888881", NULL) == 0);	/* "1]" is no count */
	/* an unclosed bracket hid the levels after it, which hwloc read */
	CHECK(hw_synthetic_cpus("pa[k:188pu:218888881", NULL) == 0);
	CHECK(hw_synthetic_cpus("pack:2 pu:2(indexes=0,1", NULL) == 0);
	CHECK(fails_with("pa[k:188pu:218888881", "'[' at '[k:188pu:218888881' is never closed"));
	CHECK(fails_with("42200", "42200 logical CPUs, at most"));
}

SL_TEST(hw_errors_names)
{
	CHECK(fails_with("garbage", "'garbage'"));
	CHECK(fails_with("garbage", "p4dpe-2x2ht"));		/* lists the presets */
	CHECK(fails_with("p4dpe-2x2ht,bogus", "bogus"));
	CHECK(fails_with("p4dpe-2x2ht,", "option"));
	CHECK(fails_with("p4dpe-2x2ht,smt=fast", "smt"));
	CHECK(fails_with("numaq-16,ratio=0.5", "ratio"));
	CHECK(fails_with("numaq-16,slit=5", "slit"));
	CHECK(fails_with("host,ipi=0", "ipi"));
	CHECK(fails_with("p4dpe-2x2ht,refill=-1", "factor"));
	CHECK(fails_with("host,kcost=0", "factor"));
	CHECK(fails_with("host,kcost=fast", "kcost"));
	CHECK(fails_with("p4dpe-2x2ht,bus=0", "GB/s"));
	/* so small that every run crawls to the horizon */
	CHECK(fails_with("p4dpe-2x2ht,bus=1e-300", "from 0.01"));
	CHECK(fails_with("numaq-16,bw=0.001", "from 0.01"));
	CHECK(fails_with("xeon-1600ht,xfer=1e-300", "from 0.01"));
	/* a second value would silently win */
	CHECK(fails_with("p4dpe-2x2ht,noht,noht", "option 'noht' given twice"));
	CHECK(fails_with("p4dpe-2x2ht,smt=netburst,ratio=2,smt=off", "option 'smt' given twice"));
	CHECK(loads_ok("numaq-16,bw=0.01,ratio=2,slit=20"));
	CHECK(fails_with("p4dpe-2x2ht,ipi=fast", "microseconds"));
	CHECK(fails_with("azusa-16,arch=itanium", "i386, ia64 or x86_64"));
	CHECK(fails_with("host,arch=", "arch"));
	CHECK(fails_with("pack:1100 pu:1", "1100"));
	CHECK(fails_with("pack:16 core:32 pu:4", "2048"));
	CHECK(fails_with("pack:100000 core:100000 pu:100000", "at most"));
	CHECK(fails_with("pack:2 core:1 pu:0", "pack:2 core:1 pu:0"));
	CHECK(fails_with("", "empty"));
	/* without noht the count is final: refused before hwloc builds it
	 * (a flat "7009" took hwloc 4 s, 20 s under the fuzz harness) */
	CHECK(fails_with("7009", "7009 logical CPUs, at most 1024 supported"));
	CHECK(fails_with("core:1 pu:1025", "1025 logical CPUs, at most 1024"));
	/* with noht, at most 4096 are built (8192 took hwloc 4-5 s) */
	CHECK(fails_with("pack:16 core:64 pu:8,noht", "8192 logical CPUs before noht, at most 4096"));
	/* 4096 PUs, 1024 after noht: fits */
	CHECK(loads_ok("pack:16 core:64 pu:4,noht"));
	CHECK(mach.topo.ncpus == 1024);
	/* the issue's 1,024-CPU machine: 16 nodes of 32 SMT2 cores */
	CHECK(loads_ok("numa:16 pack:1 core:32 pu:2"));
	CHECK(mach.topo.ncpus == 1024 && mach.topo.nnodes == 16 && mach.topo.ncores == 512);
}

/* ---- OS indexes: bounded before hwloc builds bitmaps that size ---- */

SL_TEST(hw_synthetic_indexes_checked)
{
	/* hwloc spent a minute and 4.4 GB on these; refused from the text now */
	CHECK(fails_with("pu:2(indexes=4294967295,4294967294)", "out of range (0 to 8191)"));
	CHECK(fails_with("pu:2(indexes=0,8192)", "OS index 8192"));
	CHECK(fails_with("pack:2 [numa(indexes=0,9000)] core:2 pu:2", "9000"));
	/* hwloc kept one object per index: four CPUs became one */
	CHECK(fails_with("pu:4(indexes=0,0,0,0)", "OS index 0 given twice"));
	CHECK(fails_with("pu:2(indexes=01,1)", "OS index 1 given twice"));
	/* hwloc dropped a short list and ignored extra indexes, silently */
	CHECK(fails_with("pu:4(indexes=0,1)", "2 OS index(es) for 4 object(s)"));
	CHECK(fails_with("pack:2 core:1 pu:2(indexes=0,4,1,5,2,6,3,7)", "8 OS index(es) for 4"));
	CHECK(fails_with("pu:2(indexes=0,,1)", "decimal OS indexes"));
	/* an interleaving hwloc only warns about is refused with its reason */
	CHECK(fails_with("pu:2(indexes=100000*2)", "interleaving"));
	/* in range: the largest index is fine, CPUs follow OS index order */
	CHECK(loads_ok("pu:2(indexes=8191,0)"));
	CHECK(mach.topo.ncpus == 2);
	CHECK(loads_ok("pack:2 core:1 pu:2(indexes=0,2,1,3)"));
	CHECK(mask_is(sl_topo_package(&mach.topo, 0), (int[]){ 0, 2 }, 2));
	CHECK(loads_ok("pu:4(indexes=2*2:1*2)"));
}

/* The CPU count is estimated before hwloc builds the machine: hwloc read
 * "0x10000" as 65536 where the estimate read 0, and built 2^32 objects. */
SL_TEST(hw_synthetic_counts_are_plain)
{
	CHECK(fails_with("pack:0x10000 core:0x10000 pu:1", "'0x10000' after ':' is not a count"));
	CHECK(fails_with("pack:0x2 pu:1", "'0x2' after ':' is not a count"));
	CHECK(fails_with("pack:+2 pu:1", "'+2'"));
	CHECK(fails_with("pack:02 pu:1", "'02'"));
	CHECK(fails_with("pack: 2 pu:1", "after ':' is not a count"));
	/* no number at all: hwloc's own refusal, with the presets */
	CHECK(fails_with("pack:x pu:1", "p4dpe-2x2ht"));
	CHECK(loads_ok("pack:2 l2:1(size=1MB) core:2 pu:2"));
	CHECK(mach.topo.ncpus == 8);
}

/* RAM or a cache that mem_mb / l2_kb cannot hold, or that rounds to 0, is
 * refused rather than wrapped or taken for "unknown" (the profile's). */
SL_TEST(hw_memory_and_caches_checked)
{
	CHECK(fails_with("pack:1 l2:1(size=4398046511104KB) pu:1", "an L2 cache of"));
	CHECK(fails_with("pack:1 l2:1(size=100) pu:1", "an L2 cache of 100 bytes (expected 1 KB"));
	CHECK(loads_ok("pack:1 l3:1(size=32MB) l2:1(size=1MB) pu:1"));
	CHECK(mach.topo.l2_kb == 1000000 / 1024 && mach.topo.llc_kb == 32000000 / 1024);
	CHECK(fails_with("numa:1(memory=4096TB) pu:1", "3906250000 MB of memory, at most"));
	CHECK(fails_with("numa:1(memory=1kB) pu:1", "1000 bytes of memory, at least 1 MB"));
	CHECK(loads_ok("numa:2(memory=1GB) pu:1"));
	CHECK(mach.mem_mb == 2000000000ULL >> 20);
}

/* The 2x2x2.xml fixture with `from` replaced by `to`, written to path. */
static bool xml_variant(char *path, const char *from, const char *to)
{
	char src[16384];
	FILE *f = fopen(fixture("2x2x2.xml"), "r");
	size_t n = f ? fread(src, 1, sizeof(src) - 1, f) : 0;
	int fd = mkstemp(path);

	if (f)
		fclose(f);
	src[n] = 0;
	char *at = strstr(src, from);
	if (!at || fd < 0 || !(f = fdopen(fd, "w")))
		return false;
	fprintf(f, "%.*s%s%s", (int)(at - src), src, to, at + strlen(from));
	fclose(f);
	return true;
}

/* Loading the fixture edited so fails with needle. */
static bool xml_fails_with(const char *from, const char *to, const char *needle)
{
	char path[] = "/tmp/schedlab-hw-XXXXXX";
	bool ok = xml_variant(path, from, to) && fails_with(path, needle);

	unlink(path);
	return ok;
}

SL_TEST(hw_xml_indexes_checked)
{
	const char *pu7 = "type=\"PU\" os_index=\"7\"";
	char path[] = "/tmp/schedlab-hw-XXXXXX";

	/* 6.5 s and 983 MB inside hwloc_topology_load(); refused from the text */
	CHECK(xml_fails_with(pu7, "type=\"PU\" os_index=\"4000000000\"",
			     "line 40: os_index 4000000000 is out of range (0 to 8191)"));
	CHECK(xml_fails_with(pu7, "type=\"PU\" os_index = '9000'", "os_index 9000"));
	/* hwloc keeps both PUs of one index */
	CHECK(xml_fails_with(pu7, "type=\"PU\" os_index=\"3\"", "two PUs have OS index 3"));
	/* what libxml2 would decode, the scan cannot read: refused */
	CHECK(xml_fails_with(pu7, "type=\"PU\" os_index=\"&#55;\"", "plain decimal number"));
	CHECK(xml_fails_with("<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">",
			     "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\" [<!ENTITY i \"7\">]>",
			     "internal DTD subset"));
	CHECK(xml_fails_with("encoding=\"UTF-8\"", "encoding=\"IBM037\"", "encoding"));
	/* hwloc 2.9's libxml2 reader crashed on a DOCTYPE without a system id */
	CHECK(xml_fails_with("<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">", "<!DOCTYPE topology>",
			     "system identifier"));
	/* in range, quoted either way, spaced: loads */
	CHECK(xml_variant(path, pu7, "type=\"PU\"\n os_index = '8191'") && loads_ok(path));
	CHECK(mach.topo.ncpus == 8);
	unlink(path);
}

SL_TEST(hw_options)
{
	CHECK(loads_ok("p4dpe-2x2ht,smt=off"));
	CHECK(mach.speed.smt_pair[SL_WC_INT][SL_WC_INT] == 1.0);
	CHECK(loads_ok("pack:1 core:1 pu:2,smt=netburst"));
	CHECK(fabs(mach.speed.smt_pair[SL_WC_INT][SL_WC_INT] - 0.58) < 1e-9);
	CHECK(loads_ok("numaq-16,slit=35,ratio=2"));
	CHECK(mach.topo.node_distance[1][2] == 35);
	CHECK(fabs(mach.speed.numa_ratio[1][2] - 2.0) < 1e-9);
	CHECK(loads_ok("p4dpe-2x2ht,noht,smt=modern"));
	CHECK(mach.topo.ncpus == 2);
	CHECK(loads_ok("p4dpe-2x2ht,ipi=19.5"));
	CHECK(mach.speed.ipi_ns == 19500);
	CHECK(loads_ok("p4dpe-2x2ht,refill=0.2"));
	CHECK(mach.speed.refill_ns[SL_MIGR_NONE] == 200 * SL_USEC);
	CHECK(mach.speed.refill_ns[SL_MIGR_NODE] == 400 * SL_USEC);
	/* kcost scales the kernel paths, not the IPI or the refill */
	CHECK(loads_ok("p4dpe-2x2ht"));
	sl_time ctx = mach.speed.ctx_switch_ns, fork = mach.speed.fork_ns;
	sl_time ipi = mach.speed.ipi_ns, refill = mach.speed.refill_ns[SL_MIGR_NONE];
	CHECK(loads_ok("p4dpe-2x2ht,kcost=0.5"));
	CHECK(llabs(mach.speed.ctx_switch_ns - ctx / 2) <= 1 &&
	      llabs(mach.speed.fork_ns - fork / 2) <= 1);
	CHECK(mach.speed.ipi_ns == ipi && mach.speed.refill_ns[SL_MIGR_NONE] == refill);
	/* the kernel's arch: the presets' own, modern machines x86_64, or the option */
	CHECK(loads_ok("p4dpe-2x2ht") && mach.topo.arch == SL_ARCH_I386);
	CHECK(loads_ok("numaq-16") && mach.topo.arch == SL_ARCH_I386);
	CHECK(loads_ok("azusa-16") && mach.topo.arch == SL_ARCH_IA64);
	CHECK(loads_ok("xeon-2s-smt") && mach.topo.arch == SL_ARCH_X86_64);
	CHECK(loads_ok("pack:2 core:1 pu:2") && mach.topo.arch == SL_ARCH_X86_64);
	CHECK(loads_ok("pack:2 core:1 pu:2,arch=i386") && mach.topo.arch == SL_ARCH_I386);
	CHECK(loads_ok("numaq-16,arch=ia64") && mach.topo.arch == SL_ARCH_IA64);
	CHECK(!strcmp(sl_arch_name(SL_ARCH_X86_64), "x86_64"));
	for (int a = 0; a < SL_NARCH; a++)
		CHECK(sl_arch_parse(sl_arch_name((enum sl_arch)a)) == a);
	CHECK(sl_arch_parse("i686") == -1 && sl_arch_parse("") == -1);
}

/* ---- like= and mhz= ---- */

/* Every preset whose CPUs hwloc numbers as the preset does (siblings
 * adjacent), beside the synthetic string of its topology. */
static const struct { const char *preset, *synthetic; } like_pairs[] = {
	{ "p4dpe-2x2ht", "pack:2 core:1 pu:2" },
	{ "p4ht-3066", "pack:1 core:1 pu:2" },
	{ "p4-2400", "pack:1 core:1 pu:1" },
	{ "xeon-1600ht", "pack:1 core:1 pu:2" },
	{ "numaq-16", "numa:4 pack:4 core:1 pu:1" },
	{ "xeon-1800-2x2ht", "pack:2 core:1 pu:2" },
	{ "azusa-16", "numa:4 pack:4 core:1 pu:1" },
};

/*
 * like=PRESET gives a machine that is not a preset the preset's model
 * numbers: a preset's own topology, as a synthetic string with like=, is
 * that preset to the byte (speed model, clock, caches, memory, disk,
 * arch, distances), and runs as it does.
 */
SL_TEST(hw_like_a_preset_is_that_preset)
{
	static struct sl_speed_model speed;
	static struct sl_topo topo;
	char name[96];

	for (size_t i = 0; i < sizeof(like_pairs) / sizeof(like_pairs[0]); i++) {
		if (!loads_ok(like_pairs[i].preset))
			continue;
		memcpy(&speed, &mach.speed, sizeof(speed));
		memcpy(&topo, &mach.topo, sizeof(topo));
		unsigned mem = mach.mem_mb;
		struct sl_disk_params disk = mach.disk;
		snprintf(name, sizeof(name), "%s,like=%s", like_pairs[i].synthetic,
			 like_pairs[i].preset);
		if (!loads_ok(name))
			continue;
		CHECKF(!memcmp(&speed, &mach.speed, sizeof(speed)), "%s: speed model", name);
		CHECKF(topo.cpu_khz == mach.topo.cpu_khz && topo.l2_kb == mach.topo.l2_kb &&
		       topo.llc_kb == mach.topo.llc_kb && topo.arch == mach.topo.arch &&
		       topo.ncpus == mach.topo.ncpus && topo.nnodes == mach.topo.nnodes,
		       "%s: clock, caches, arch, CPUs, nodes", name);
		CHECKF(!memcmp(topo.node_distance, mach.topo.node_distance,
			       sizeof(topo.node_distance)), "%s: node distances", name);
		CHECKF(mem == mach.mem_mb && !memcmp(&disk, &mach.disk, sizeof(disk)),
		       "%s: memory %u / %u MB, disk", name, mem, mach.mem_mb);
		CHECKF(strstr(mach.summary, "; like ") != NULL, "%s: summary '%s'", name,
		       mach.summary);
	}
	/* without like= the same string is a modern machine */
	CHECK(loads_ok("pack:2 core:1 pu:2"));
	CHECK(memcmp(&speed, &mach.speed, sizeof(speed)) != 0);

	/* and runs as the preset does: the same elapsed, to the ns */
	struct sl_metrics a, b;
	const char *w = "kernbench:jobs=3,size=5";
	if (checked_run("p4dpe-2x2ht", "o1:version=2.5.33", w, 1, &a, NULL) &&
	    checked_run("pack:2 core:1 pu:2,like=p4dpe-2x2ht", "o1:version=2.5.33", w, 1, &b,
			NULL)) {
		const struct sl_metric *ea = sl_metrics_find(&a, "elapsed_s");
		const struct sl_metric *eb = sl_metrics_find(&b, "elapsed_s");
		CHECKF(ea && eb && ea->value == eb->value, "elapsed %.9f / %.9f s",
		       ea ? ea->value : -1, eb ? eb->value : -1);
	}
}

/* Memory per node, not the whole: like=numaq-16 on two nodes has 8 GB;
 * hwloc's own figures win (an XML's clock), mhz= over both. */
SL_TEST(hw_like_and_mhz)
{
	CHECK(loads_ok("numa:2 pack:4 core:1 pu:1,like=numaq-16"));
	CHECK(mach.mem_mb == 8192 && mach.topo.cpu_khz == 700000);
	CHECK(mach.speed.kernel_node == 0);	/* NUMA-Q: the kernel's memory on node 0 */
	/* the clock scales the kernel paths */
	CHECK(loads_ok("pack:2 core:1 pu:2,like=p4dpe-2x2ht"));
	sl_time ctx = mach.speed.ctx_switch_ns;
	CHECK(loads_ok("pack:2 core:1 pu:2,like=p4dpe-2x2ht,mhz=4400"));
	CHECK(mach.topo.cpu_khz == 4400000);
	/* faster, not twice as fast: the part of a path that waits on memory
	 * (KCOST_CLOCK_SHARE) does not scale */
	CHECKF(mach.speed.ctx_switch_ns < ctx && mach.speed.ctx_switch_ns > ctx / 2,
	       "context switch %lld ns at 4.4 GHz, %lld at 2.2", (long long)mach.speed.ctx_switch_ns,
	       (long long)ctx);
	CHECK(loads_ok("p4ht-3066,mhz=2800"));
	CHECK(mach.topo.cpu_khz == 2800000 && strstr(mach.summary, "clocked at 2800 MHz"));
	CHECK(loads_ok("pack:1 core:2 pu:1,mhz=1000") && mach.topo.cpu_khz == 1000000);
	/* an XML file: NetBurst pairs; its clock if it reports one, else
	 * the preset's */
	CHECK(loads_ok(fixture("2x2x2.xml")));
	unsigned xml_khz = mach.topo.cpu_khz;
	char name[512];
	snprintf(name, sizeof(name), "%s,like=p4-2400", fixture("2x2x2.xml"));
	CHECK(loads_ok(name));
	CHECK(fabs(mach.speed.smt_pair[SL_WC_INT][SL_WC_INT] - 0.58) < 1e-9);
	CHECKF(mach.topo.cpu_khz == (xml_khz == 2500000 ? 2400000 : xml_khz),
	       "clock %u kHz (the XML alone: %u)", mach.topo.cpu_khz, xml_khz);

	/* bad input: one line naming the option and what was expected */
	struct sl_err err;
	CHECK(load("p4dpe-2x2ht,like=numaq-16", &err) != 0 &&
	      strstr(err.msg, "a preset has model numbers of its own"));
	CHECK(load("pack:2 core:1 pu:2,like=p4", &err) != 0 &&
	      strstr(err.msg, "expected a preset's name (p4dpe-2x2ht,"));
	CHECK(load("pack:2 core:1 pu:2,like=", &err) != 0);
	CHECK(load("pack:2 core:1 pu:2,like=host", &err) != 0);
	CHECK(load("pack:2 core:1 pu:2,like=p4-2400,like=numaq-16", &err) != 0 &&
	      strstr(err.msg, "given twice"));
	CHECK(load("p4dpe-2x2ht,mhz=0", &err) != 0 && strstr(err.msg, "from 1 to 100000"));
	CHECK(load("p4dpe-2x2ht,mhz=100001", &err) != 0);
	CHECK(load("p4dpe-2x2ht,mhz=2.2e3", &err) != 0);
	CHECK(load("p4dpe-2x2ht,mhz=-5", &err) != 0);
}

SL_TEST(hw_topo_check_catches)
{
	struct sl_err err;
	struct sl_topo *t = sl_xmalloc(sizeof(*t));

	CHECK(loads_ok("numaq-16"));
	*t = mach.topo;
	CHECK(sl_topo_check(t, &err) == 0);
	sl_cpumask_set(&t->core_cpus[0], 5);
	CHECK(sl_topo_check(t, &err) == -1);
	*t = mach.topo;
	t->node_distance[0][1] = 30;
	CHECK(sl_topo_check(t, &err) == -1);
	*t = mach.topo;
	t->cpu_node[0] = 1;
	CHECK(sl_topo_check(t, &err) == -1);
	*t = mach.topo;
	t->threads_per_core = 2;
	CHECK(sl_topo_check(t, &err) == -1);
	*t = mach.topo;
	t->cpu_llc[1] = 0;		/* CPU 1 in CPU 0's LLC, masks unchanged */
	CHECK(sl_topo_check(t, &err) == -1);
	CHECK(loads_ok("pack:2 l3:2 core:2 pu:1"));
	*t = mach.topo;
	CHECK(sl_topo_check(t, &err) == 0);
	/* an LLC across the packages: CPU 4 moved into LLC 1 */
	sl_cpumask_unset(&t->llc_cpus[2], 4);
	sl_cpumask_set(&t->llc_cpus[1], 4);
	t->cpu_llc[4] = 1;
	CHECK(sl_topo_check(t, &err) == -1);
	/* an LLC across the NUMA nodes of one package: the LLCs of
	 * "pack:1 numa:2 core:2" merged (CPUs 2, 3 into LLC 0) */
	CHECK(loads_ok("pack:1 numa:2 core:2 pu:1"));
	*t = mach.topo;
	CHECK(t->nllcs == 2 && sl_topo_check(t, &err) == 0);
	for (int cpu = 2; cpu < 4; cpu++) {
		sl_cpumask_unset(&t->llc_cpus[1], cpu);
		sl_cpumask_set(&t->llc_cpus[0], cpu);
		t->cpu_llc[cpu] = 0;
	}
	t->nllcs = 1;
	CHECK(sl_topo_check(t, &err) == -1 && strstr(err.msg, "spans NUMA nodes"));
	free(t);
}

SL_TEST(hw_load_deterministic)
{
	static struct sl_machine a;
	CHECK(loads_ok("node:2 pack:1 core:8 pu:2"));
	a = mach;
	CHECK(loads_ok("node:2 pack:1 core:8 pu:2"));
	CHECK(memcmp(&a, &mach, sizeof(a)) == 0);
}

/* ---- speed model ---- */

static double pair(enum sl_wclass a, enum sl_wclass b)
{
	return sl_speed_smt(&mach.speed, a, &b, 1);
}

SL_TEST(hw_speed_smt_netburst)
{
	CHECK(loads_ok("p4dpe-2x2ht"));
	CHECK(sl_speed_smt(&mach.speed, SL_WC_INT, NULL, 0) == 1.0);
	CHECK(fabs(pair(SL_WC_INT, SL_WC_INT) - 0.58) < 1e-9);
	CHECK(2 * pair(SL_WC_INT, SL_WC_INT) > 1.0);
	CHECK(2 * pair(SL_WC_CACHE, SL_WC_CACHE) < 1.0);
	CHECK(pair(SL_WC_MEM, SL_WC_MEM) * 2 > 2 * pair(SL_WC_INT, SL_WC_INT));
	CHECK(pair(SL_WC_INT, SL_WC_SPIN) >= 0.9);
	for (int a = 0; a < SL_WC_COUNT; a++)
		for (int b = 0; b < SL_WC_COUNT; b++)
			CHECK(pair(a, b) > 0 && pair(a, b) <= 1.0);
}

SL_TEST(hw_speed_smt_modern)
{
	CHECK(loads_ok("xeon-2s-smt"));
	double ii = 2 * pair(SL_WC_INT, SL_WC_INT);
	CHECK(ii >= 1.20 && ii <= 1.35);
	CHECK(pair(SL_WC_CACHE, SL_WC_CACHE) * 2 < 1.0);
	/* three siblings (SMT4 synthetic machines): the demand formula */
	enum sl_wclass others[3] = { SL_WC_INT, SL_WC_INT, SL_WC_INT };
	double s4 = sl_speed_smt(&mach.speed, SL_WC_INT, others, 3);
	CHECK(s4 > 0 && s4 < sl_speed_smt(&mach.speed, SL_WC_INT, others, 2));
	CHECK(fabs(s4 - 0.97 / (4 * 0.9 * 0.85)) < 1e-9);
}

SL_TEST(hw_speed_numa)
{
	CHECK(loads_ok("numaq-16"));
	CHECK(sl_speed_numa(&mach.speed, SL_WC_MEM, 1, 1, 1.0) == 1.0);
	double mem = sl_speed_numa(&mach.speed, SL_WC_MEM, 0, 2, 1.0);
	CHECK(mem < 1.0 && fabs(mem - 1.0 / (1 + 0.6 * 2.5)) < 1e-9);	/* 0.40 */
	CHECK(sl_speed_numa(&mach.speed, SL_WC_INT, 0, 2, 1.0) > mem);
	CHECK(sl_speed_numa(&mach.speed, SL_WC_SPIN, 0, 2, 1.0) == 1.0);
	CHECK(sl_speed_numa(&mach.speed, SL_WC_MEM, 0, -1, 1.0) == 1.0);	/* no home yet */
	CHECK(loads_ok("xeon-2s-smt"));
	double modern = sl_speed_numa(&mach.speed, SL_WC_MEM, 0, 1, 1.0);
	CHECK(modern > mem && modern < 1.0);
}

SL_TEST(hw_cache_warmth)
{
	CHECK(loads_ok("p4dpe-2x2ht"));
	const struct sl_speed_model *s = &mach.speed;
	unsigned l2 = mach.topo.l2_kb;
	CHECK(sl_cache_warmth(0, l2) == 1.0);
	double prev = 1.0;
	for (double kb = 16; kb < 8 * l2; kb *= 2) {
		double w = sl_cache_warmth(kb, l2);
		CHECK(w < prev && w > 0);
		prev = w;
	}
	CHECK(fabs(sl_cache_warmth(l2, l2) - exp(-1)) < 1e-9);
	/* cold past SL_CACHE_COLD cache sizes, without exp(); invisible to
	 * readers, which take 1 - warmth: exp() there rounds away */
	CHECK(sl_cache_warmth(SL_CACHE_COLD * l2, l2) == 0.0);
	CHECK(sl_cache_warmth(1e6 * l2, l2) == 0.0);
	CHECK(sl_cache_warmth(0.99 * SL_CACHE_COLD * l2, l2) > 0.0);
	CHECK(1.0 - exp(-SL_CACHE_COLD) == 1.0);
	/* a task touches lines at the machine's rate, never more than its
	 * footprint: a small tool cannot flush a compiler's cache */
	CHECK(sl_cache_touched_kb(s, 0, 256) == 0);
	double ms = sl_cache_touched_kb(s, SL_MSEC, 100000);
	CHECK(ms > 50 && ms < 1000);
	CHECK(sl_cache_touched_kb(s, 100 * SL_MSEC, 32) == 32);
	CHECK(sl_cache_touched_kb(s, SL_MSEC / 2, 100000) < ms);
}

SL_TEST(hw_cache_refill)
{
	static const char *const machines[] = { "p4dpe-2x2ht", "xeon-2s-smt", "numaq-16" };
	for (int i = 0; i < 3; i++) {
		CHECK(loads_ok(machines[i]));
		const struct sl_speed_model *s = &mach.speed;
		unsigned l2 = mach.topo.l2_kb;
		/* an SMT sibling shares the caches: a hot task refills nothing */
		CHECK(sl_cache_refill(s, SL_MIGR_NONE, 1.0, l2, false) == 0);
		sl_time core = sl_cache_refill(s, SL_MIGR_CORE, 0, l2, false);
		sl_time pkg = sl_cache_refill(s, SL_MIGR_PACKAGE, 0, l2, false);
		sl_time node = sl_cache_refill(s, SL_MIGR_NODE, 0, l2, false);
		CHECKF(0 < core && core <= pkg && pkg < node, "%s", machines[i]);
		/* a decayed footprint refills in place; half warm, half the cost */
		sl_time cold = sl_cache_refill(s, SL_MIGR_NONE, 0, l2, false);
		sl_time half = sl_cache_refill(s, SL_MIGR_NONE, 0.5, l2, false);
		CHECK(cold > 0 && llabs(2 * half - cold) <= 1);
		CHECK(llabs(2 * sl_cache_refill(s, SL_MIGR_PACKAGE, 0, l2 / 2, false) - pkg) <= 1);
		CHECK(sl_cache_refill(s, SL_MIGR_NODE, 0, 0, false) == 0);
		/* a move to another package loses every cached line: up to the
		 * LLC's worth (xeon-2s-smt's 24 MB L3), an L2's where that is
		 * the last level */
		unsigned llc = mach.topo.llc_kb;
		CHECK(sl_cache_refill(s, SL_MIGR_PACKAGE, 0, 4 * llc, false) ==
		      sl_cache_refill(s, SL_MIGR_PACKAGE, 0, llc, false));
		CHECKF(llabs(sl_cache_refill(s, SL_MIGR_PACKAGE, 0, llc, false) -
			     (sl_time)llround((double)pkg * llc / l2)) <= 1, "%s", machines[i]);
		/* to another core of the package, the L2 alone (from the LLC) */
		CHECK(sl_cache_refill(s, SL_MIGR_CORE, 0, 4 * l2, false) == core);
	}
}

SL_TEST(hw_cache_lost_kb)
{
	/* what fits comes back whole; a larger hot set, a cache's worth */
	CHECK(sl_cache_lost_kb(300, 512, false) == 300 && sl_cache_lost_kb(300, 512, true) == 300);
	CHECK(sl_cache_lost_kb(512, 512, true) == 512);
	CHECK(sl_cache_lost_kb(20480, 2048, false) == 2048);
	/* touched at random: C - (F - C) ln(F / (F - C)); 20 MB in 2 MB,
	 * 2048 - 18432 ln(10/9) = 106 KB, about C^2 / 2F */
	double walker = sl_cache_lost_kb(20480, 2048, true);
	CHECKF(fabs(walker - (2048 - 18432 * log(20480.0 / 18432))) < 1e-9 && walker > 100 &&
	       walker < 110, "%f", walker);
	/* just past the cache it is nearly all of it; far past, nearly none */
	CHECK(sl_cache_lost_kb(513, 512, true) > 0.98 * 512);
	CHECK(sl_cache_lost_kb(1 << 20, 512, true) < 0.26);
	double prev = 512;
	for (unsigned f = 600; f < 1 << 16; f *= 2) {
		double kb = sl_cache_lost_kb(f, 512, true);
		CHECKF(kb > 0 && kb < prev, "%u KB: %f", f, kb);
		prev = kb;
	}
}

SL_TEST(hw_cache_refill_against_the_cache_it_refills)
{
	/* The AzusA's refill costs are its 4 MB L3's from memory (2 ms), and
	 * its 96 KB L2's from the L3 (5 us): a 16 KB task that lost its L2
	 * lines but not the L3's pays microseconds, and from memory 16/4096
	 * of 2 ms; a 20 MB walker moved to another CPU of its node refills
	 * what it lost of the L3, a fifth of it touched at random. */
	CHECK(loads_ok("azusa-16"));
	const struct sl_speed_model *s = &mach.speed;
	CHECK(s->l2_kb == 96 && s->llc_kb == 4096 && s->refill_ref_kb[SL_MIGR_NONE] == 4096 &&
	      s->refill_ref_kb[SL_MIGR_CORE] == 96);
	sl_time from_l3 = sl_cache_refill_in_place(s, 0, 1, 16, false);
	sl_time from_mem = sl_cache_refill_in_place(s, 0, 0, 16, false);
	CHECKF(from_l3 > 0 && from_l3 < 2 * SL_USEC, "%lld ns", (long long)from_l3);
	CHECKF(llabs(from_mem - 2 * SL_MSEC * 16 / 4096) <= 1, "%lld ns", (long long)from_mem);
	sl_time walker = sl_cache_refill(s, SL_MIGR_PACKAGE, 0, 20480, true);
	double lost = 4096 - 16384 * log(20480.0 / 16384);
	CHECKF(llabs(walker - (sl_time)llround(lost / 4096 * 2 * SL_MSEC)) <= 1 &&
	       walker > SL_MSEC / 10 && walker < SL_MSEC / 4, "%lld ns", (long long)walker);
	CHECK(sl_cache_refill(s, SL_MIGR_PACKAGE, 0, 20480, false) == 2 * SL_MSEC);
	/* in place, a walker whose L2 and L3 both lost everything pays what
	 * a move does */
	CHECK(llabs(sl_cache_refill_in_place(s, 0, 0, 20480, true) - walker) <= 1);
	/* the most any dispatch can charge: a full L3 from another node */
	CHECK(llabs((sl_time)sl_cache_refill_max(s) - (sl_time)(3.5 * SL_MSEC)) <= 1);
}

SL_TEST(hw_cache_refill_in_place_with_an_l3)
{
	/* xeon-1600ht: 256 KB L2 and 1 MB L3.  Lines the L2 lost but the L3
	 * holds come back at the core level's rate (0.3 ms per L2), lines
	 * both lost at memory's (NetBurst's 1 ms per 512 KB, so 0.5 ms per
	 * L2); the two mix in proportion. */
	CHECK(loads_ok("xeon-1600ht"));
	const struct sl_speed_model *s = &mach.speed;
	unsigned l2 = mach.topo.l2_kb;
	CHECK(mach.topo.llc_kb > l2 && s->refill_ref_kb[SL_MIGR_NONE] == 512);
	sl_time from_l3 = sl_cache_refill_in_place(s, 0, 1, l2, false);
	sl_time from_mem = sl_cache_refill_in_place(s, 0, 0, l2, false);
	CHECK(from_l3 == s->refill_ns[SL_MIGR_CORE] && from_mem == s->refill_ns[SL_MIGR_NONE] / 2);
	CHECK(from_mem == sl_cache_refill(s, SL_MIGR_NONE, 0, l2, false));
	sl_time mixed = sl_cache_refill_in_place(s, 0, 0.5, l2, false);
	CHECK(llabs(2 * mixed - from_l3 - from_mem) <= 1);
	/* the L3 never lost more of the L2's part than the L2 did */
	CHECK(sl_cache_refill_in_place(s, 0.75, 0, l2, false) ==
	      sl_cache_refill(s, SL_MIGR_NONE, 0.75, l2, false));
	CHECK(sl_cache_refill_in_place(s, 1, 0, l2, false) == 0);
	CHECK(llabs(2 * sl_cache_refill_in_place(s, 0, 1, l2 / 2, false) - from_l3) <= 1);
	/* but the part beyond the L2 is the L3's alone: lost from it, it
	 * comes back from memory however warm the L2 is */
	CHECK(sl_cache_refill_in_place(s, 1, 0, 4 * l2, false) ==
	      sl_cache_refill(s, SL_MIGR_NONE, 0, 3 * l2, false));
}

SL_TEST(hw_kernel_costs)
{
	CHECK(loads_ok("p4dpe-2x2ht"));
	struct sl_speed_model p4dpe = mach.speed;
	sl_time spawn = p4dpe.fork_ns + p4dpe.exec_ns + p4dpe.exit_ns;
	CHECK(spawn >= 200 * SL_USEC && spawn <= 1000 * SL_USEC);
	CHECK(p4dpe.ctx_switch_ns >= SL_USEC && p4dpe.ctx_switch_ns <= 10 * SL_USEC);
	CHECK(p4dpe.sched_scan_ns > 0 && p4dpe.sched_pick_ns > 0 && p4dpe.ipi_ns > 0);
	CHECK(loads_ok("p4ht-3066"));
	CHECK(mach.speed.ctx_switch_ns < p4dpe.ctx_switch_ns);	/* faster clock */
	CHECK(loads_ok("numaq-16"));
	CHECK(mach.speed.fork_ns > p4dpe.fork_ns);
}

SL_TEST(hw_wclass_names)
{
	CHECK(!strcmp(sl_wclass_name(SL_WC_INT), "int"));
	CHECK(!strcmp(sl_wclass_name(SL_WC_CACHE), "cache"));
	CHECK(!strcmp(sl_wclass_name(SL_WC_SPIN), "spin"));
	for (int a = 0; a < SL_WC_COUNT; a++)
		for (int b = 0; b < a; b++)
			CHECK(strcmp(sl_wclass_name(a), sl_wclass_name(b)) != 0);
}

/* Memory split over nodes (sim/first_touch.c): one part is sl_speed_numa
 * to the bit; two parts stall in proportion, each at its node's latency
 * ratio and contention. */
SL_TEST(hw_speed_numa_mix)
{
	struct sl_err err = { 0 };

	CHECK(sl_machine_load(&mach, "numaq-16", &err) == 0);
	const struct sl_speed_model *s = &mach.speed;
	double cont[4] = { 1.0, 1.7, 1.0, 2.5 };
	struct sl_mem_share one = { 3, 1.0 };
	for (int run = 0; run < 4; run++)
		CHECK(sl_speed_numa_mix(s, SL_WC_MEM, run, &one, 1, cont) ==
		      sl_speed_numa(s, SL_WC_MEM, run, 3, cont[3]));
	struct sl_mem_share two[2] = { { 1, 0.25 }, { 3, 0.75 } };
	double mi = s->mem_intensity[SL_WC_MEM];
	double want = 1.0 / (1 - mi + mi * (0.25 * 1.7 + 0.75 * s->numa_ratio[1][3] * 2.5));
	CHECK(fabs(sl_speed_numa_mix(s, SL_WC_MEM, 1, two, 2, cont) - want) < 1e-12);
}

/* The files hw_xml_check refuses crash hwloc itself; given to hwloc past
 * that check, the trial load in a child refuses them all the same, and
 * passes a sound file. */
SL_TEST(hw_xml_hwloc_crash_isolated)
{
	static const char *const crashers[] = {
		"bad-bitmap.xml", "node-no-cpuset-v1.xml", "pu-no-complete-cpuset.xml",
		"node-no-complete-nodeset.xml",
	};
	struct sl_file_text f;
	struct sl_err err;

	for (size_t i = 0; i < sizeof(crashers) / sizeof(crashers[0]); i++) {
		CHECK(sl_read_file(fixture(crashers[i]), 1 << 20, &f) == SL_READ_OK);
		memset(&err, 0, sizeof(err));
		CHECKF(hw_hwloc_survives(f.text, f.len, crashers[i], &err) != 0, "%s", crashers[i]);
		CHECKF(err.kind == SL_ERR_INPUT && strstr(err.msg, "hwloc crashed reading"),
		       "%s: %s", crashers[i], err.msg);
		free(f.text);
	}
	CHECK(sl_read_file(fixture("2x2x2.xml"), 1 << 20, &f) == SL_READ_OK);
	memset(&err, 0, sizeof(err));
	CHECKF(hw_hwloc_survives(f.text, f.len, "2x2x2.xml", &err) == 0, "%s", err.msg);
	free(f.text);
}
