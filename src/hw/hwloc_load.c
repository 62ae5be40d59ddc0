/*
 * hwloc_load.c - machines described by hwloc: a synthetic string ("pack:2
 * core:1 pu:2", "node:4 pack:1 core:4 pu:1"), an XML file written by
 * lstopo, or the host's own topology (hwloc 2.x documentation).
 *
 * The walk: PUs sorted by OS index (Linux's CPU numbering), each mapped to
 * its Core and Package ancestors (a PU without a Core is its own core; a
 * machine without Packages is one package) and to the most local NUMA node
 * whose cpuset holds it.  Siblings take their core's node.  NUMA nodes
 * without CPUs (memory-only, CXL) are not part of the topology.  Its
 * last-level cache: the outermost data cache above it, where that holds
 * whole cores inside one package (llc_of, raw_cpu), else its package;
 * topo.c then bounds it by the NUMA node, as the kernel does.
 *
 * Distances: the first latency matrix between NUMA nodes, if any, rescaled
 * so the diagonal is 10 (SLIT convention) and made symmetric by averaging
 * (topo.h requires symmetry; real SLITs are symmetric almost always).
 * Clock: the "@ 2.40GHz" of the package's CPUModel string, else for the host
 * /proc/cpuinfo's "cpu MHz".  Caches: the L2 above the first CPU and the
 * outermost data cache above it (LLC).  Unknowns stay 0 for the caller.
 * Arch: the Machine object's "Architecture" info (uname's machine, which
 * hwloc records for the host and exports to XML): x86_64, ia64, or i386
 * to i686; any other (ppc64, aarch64, ...) or none is left to the caller.
 *
 * hwloc reports parse errors only to stderr and only when HWLOC_XML_VERBOSE
 * / HWLOC_SYNTHETIC_VERBOSE are set.  To give one clean line naming the
 * input and hwloc's reason, those are set for the duration of the call and
 * fd 2 is pointed at a temporary file, from which the first error line is
 * taken.  This touches process-wide state: machines are loaded at startup,
 * before any thread exists.
 *
 * hwloc 2.9 crashes on some damaged XML files.  xml_check.c refuses the
 * kinds known, with the line at fault; every XML file is then loaded once
 * in a child process (hw_hwloc_survives), so that a kind not yet known ends
 * in exit 2 and one line, not in a crash of schedlab.
 */
#include "hw/hw_internal.h"

#include <ctype.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/isolate.h"
#include "base/readfile.h"

/* ---- capturing hwloc's complaints ---- */

struct capture {
	FILE *file;
	int saved_fd;
	bool set_env[2];
};

static const char *const verbose_env[2] = { "HWLOC_XML_VERBOSE", "HWLOC_SYNTHETIC_VERBOSE" };

static void capture_begin(struct capture *c)
{
	fflush(stderr);
	c->saved_fd = -1;
	c->file = tmpfile();
	if (c->file) {
		c->saved_fd = dup(2);
		if (c->saved_fd >= 0 && dup2(fileno(c->file), 2) < 0) {
			close(c->saved_fd);
			c->saved_fd = -1;
		}
	}
	for (int i = 0; i < 2; i++) {
		/* verbose only while we capture: otherwise it would reach the user */
		c->set_env[i] = c->saved_fd >= 0 && !getenv(verbose_env[i]);
		if (c->set_env[i])
			setenv(verbose_env[i], "1", 0);
	}
}

/* "file.xml:15: parser error : Premature end..." -> "line 15: Premature end..." */
static void tidy_reason(const char *line, char *out, size_t len)
{
	const char *tag = strstr(line, ": parser error : ");
	if (tag) {
		const char *num = tag;
		while (num > line && isdigit((unsigned char)num[-1]))
			num--;
		int digits = (int)(tag - num) < 9 ? (int)(tag - num) : 9;
		snprintf(out, len, "line %.*s: %.200s", digits, num,
			 tag + strlen(": parser error : "));
		return;
	}
	if (!strncmp(line, "Synthetic string with ", 22))
		line += 22;
	else if (!strncmp(line, "Synthetic string ", 17))
		line += 17;
	snprintf(out, len, "%.200s", line);
}

static void capture_end(struct capture *c, char *reason, size_t len)
{
	char line[512];

	reason[0] = 0;
	fflush(stderr);
	if (c->saved_fd >= 0) {
		dup2(c->saved_fd, 2);
		close(c->saved_fd);
	}
	for (int i = 0; i < 2; i++)
		if (c->set_env[i])
			unsetenv(verbose_env[i]);
	if (!c->file)
		return;
	rewind(c->file);
	while (!reason[0] && fgets(line, sizeof(line), c->file)) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] && strncmp(line, "Inserting a NUMA level", 22))
			tidy_reason(line, reason, len);
	}
	fclose(c->file);
}

/* ---- walking the loaded topology ---- */

static int by_os_index(const void *a, const void *b)
{
	unsigned x = (*(hwloc_obj_t const *)a)->os_index, y = (*(hwloc_obj_t const *)b)->os_index;
	return x < y ? -1 : x > y;
}

/* The NUMA node with the smallest cpuset holding pu (the most local one). */
static hwloc_obj_t local_node(hwloc_topology_t topo, hwloc_obj_t pu)
{
	hwloc_obj_t best = NULL, node = NULL;

	while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node)))
		if (node->cpuset && hwloc_bitmap_isset(node->cpuset, pu->os_index) &&
		    (!best || hwloc_bitmap_weight(node->cpuset) < hwloc_bitmap_weight(best->cpuset)))
			best = node;
	return best;
}

/* A key equal exactly for the same hwloc object (never 0). */
static uint64_t obj_key(hwloc_obj_t obj)
{
	return (uint64_t)(uintptr_t)obj;
}

/*
 * The first PU, in hwloc's logical order, whose cpuset is non-empty and
 * inside `set` - what hwloc_get_next_obj_inside_cpuset_by_type(topo, set,
 * HWLOC_OBJ_PU, NULL) returns - found without its walk from the first PU
 * (once per PU, that made loading 1,024 CPUs cost a million cpuset tests).
 * A PU inside `set` has its first bit in `set`, so only the PUs filed under
 * the bits of `set` are tested, with the helper's own test.
 */
struct pu_index {
	int n;
	int max_key;			/* largest first bit of any PU */
	struct pu_key { int key, logical; hwloc_obj_t pu; } *by_key;	/* by (key, logical) */
};

static int by_key(const void *a, const void *b)
{
	const struct pu_key *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->logical < y->logical ? -1 : x->logical > y->logical;
}

/* PUs with an empty cpuset are left out, as the helper skips them. */
static void pu_index_build(hwloc_topology_t topo, int n, struct pu_index *ix,
			   struct pu_key *keys)
{
	ix->n = 0;
	ix->max_key = -1;
	ix->by_key = keys;
	for (int i = 0; i < n; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
		int key = pu && pu->cpuset ? hwloc_bitmap_first(pu->cpuset) : -1;
		if (key < 0)
			continue;
		keys[ix->n++] = (struct pu_key){ key, i, pu };
		if (key > ix->max_key)
			ix->max_key = key;
	}
	qsort(keys, (size_t)ix->n, sizeof(keys[0]), by_key);
}

static hwloc_obj_t first_pu_inside(const struct pu_index *ix, hwloc_const_cpuset_t set)
{
	hwloc_obj_t best = NULL;
	int best_logical = -1;

	for (int b = hwloc_bitmap_first(set); b >= 0 && b <= ix->max_key;
	     b = hwloc_bitmap_next(set, b)) {
		int lo = 0, hi = ix->n;
		while (lo < hi) {	/* the first entry with key >= b */
			int mid = lo + (hi - lo) / 2;
			if (ix->by_key[mid].key < b)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (int k = lo; k < ix->n && ix->by_key[k].key == b; k++) {
			const struct pu_key *e = &ix->by_key[k];
			if (best_logical >= 0 && e->logical >= best_logical)
				break;	/* sorted by logical index within a key */
			if (hwloc_bitmap_isincluded(e->pu->cpuset, set)) {
				best = e->pu;
				best_logical = e->logical;
				break;
			}
		}
	}
	return best;
}

/* pu's last-level cache: its data or unified cache ancestor of the
 * highest level (L3 on a chiplet, L2 on a Core 2 module), or NULL. */
static hwloc_obj_t llc_of(hwloc_obj_t pu)
{
	hwloc_obj_t llc = NULL;

	for (hwloc_obj_t o = pu->parent; o; o = o->parent)
		if (hwloc_obj_type_is_cache(o->type) &&
		    o->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION &&
		    (!llc || o->attr->cache.depth > llc->attr->cache.depth))
			llc = o;
	return llc;
}

static void raw_cpu(hwloc_topology_t topo, const struct pu_index *ix, hwloc_obj_t pu,
		    struct hw_raw_cpu *raw)
{
	hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
	hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pu);
	hwloc_obj_t first = core ? first_pu_inside(ix, core->cpuset) : pu;
	hwloc_obj_t node = local_node(topo, first ? first : pu);

	/* the objects themselves, not their gp_index: hwloc gives an XML
	 * object whose gp_index is missing the next free number, which an
	 * object later in the file may also carry (a fuzzed file put a
	 * core-less PU in another package's core that way) */
	raw->core_key = obj_key(core ? core : pu);
	raw->package_key = pkg ? obj_key(pkg) : 0;
	raw->node_key = node ? obj_key(node) : 0;
	/* The LLC counts where it holds whole cores inside one package;
	 * otherwise (a cache above the package, none known in hardware, or
	 * below the core, a file's per-thread cache) the package stands for
	 * it, as it does on every preset */
	hwloc_obj_t llc = llc_of(pu);
	bool nests = llc && llc->cpuset &&
		     (!pkg || (pkg->cpuset && hwloc_bitmap_isincluded(llc->cpuset, pkg->cpuset))) &&
		     (!core || (core->cpuset && hwloc_bitmap_isincluded(core->cpuset, llc->cpuset)));
	raw->llc_key = nests ? obj_key(llc) : 0;
}

static int build_topo(hwloc_topology_t topo, struct sl_topo *t, bool noht,
		      uint64_t node_keys[SL_MAX_NODES], const char *what, struct sl_err *err)
{
	int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);

	if (n <= 0)
		return sl_fail(err, "%s: no logical CPUs", what);
	if (n > HW_MAX_RAW_CPUS)
		return sl_fail(err, "%s: %d logical CPUs, at most %d supported", what, n, SL_MAX_CPUS);

	hwloc_obj_t pus[HW_MAX_RAW_CPUS];
	struct hw_raw_cpu raw[HW_MAX_RAW_CPUS];
	struct pu_index ix;
	for (int i = 0; i < n; i++)
		pus[i] = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
	qsort(pus, (size_t)n, sizeof(pus[0]), by_os_index);
	struct pu_key *keys = sl_xcalloc((unsigned long)n, sizeof(*keys));
	pu_index_build(topo, n, &ix, keys);
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		/* os_index.c bounded the text; this holds for the host too */
		if (pus[i]->os_index > HW_MAX_OS_INDEX)
			rc = sl_fail(err, "%s: PU OS index %u is out of range (0 to %d)",
				     what, pus[i]->os_index, HW_MAX_OS_INDEX);
		/* hwloc keeps two PUs of one index; Linux has one CPU per number */
		else if (i > 0 && pus[i]->os_index == pus[i - 1]->os_index)
			rc = sl_fail(err, "%s: two PUs have OS index %u", what,
				     pus[i]->os_index);
		else
			raw_cpu(topo, &ix, pus[i], &raw[i]);
	}
	free(keys);
	return rc ? rc : hw_topo_build(t, raw, n, noht, node_keys, what, err);
}

/* Dense node id of an hwloc NUMA node, or -1 if it holds none of our CPUs. */
static int node_id(const struct sl_topo *t, const uint64_t *node_keys, hwloc_obj_t node)
{
	for (int i = 0; i < t->nnodes; i++)
		if (node_keys[i] == obj_key(node))
			return i;
	return -1;
}

static bool fill_from_matrix(struct sl_topo *t, const uint64_t *node_keys,
			     const struct hwloc_distances_s *d)
{
	int seen = 0, at[SL_MAX_NODES];
	double raw[SL_MAX_NODES][SL_MAX_NODES];

	for (unsigned i = 0; i < d->nbobjs; i++) {
		int id = node_id(t, node_keys, d->objs[i]);
		if (id >= 0) {
			at[id] = (int)i;
			seen++;
		}
	}
	if (seen != t->nnodes)
		return false;
	for (int a = 0; a < t->nnodes; a++)
		for (int b = 0; b < t->nnodes; b++)
			raw[a][b] = (double)d->values[at[a] * d->nbobjs + at[b]];
	for (int a = 0; a < t->nnodes; a++) {
		if (raw[a][a] <= 0)
			return false;
		for (int b = 0; b < t->nnodes; b++) {
			double ab = 10.0 * raw[a][b] / raw[a][a], ba = 10.0 * raw[b][a] / raw[b][b];
			double v = a == b ? 10 : (ab + ba) / 2 + 0.5;
			/* range-checked as a double: a hostile matrix's ratio
			 * may be far beyond what a long holds (or NaN) */
			if (!(v >= 10 && v < 256))
				return false;
			t->node_distance[a][b] = (int)v;
		}
	}
	return true;
}

static bool read_distances(hwloc_topology_t topo, struct sl_topo *t, const uint64_t *node_keys)
{
	struct hwloc_distances_s *dist[8];
	unsigned nr = 8;
	bool ok = false;

	if (t->nnodes < 2)
		return false;
	if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, dist,
					HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) < 0)
		return false;
	if (nr > 8)
		nr = 8;
	for (unsigned i = 0; i < nr; i++) {
		if (!ok)
			ok = fill_from_matrix(t, node_keys, dist[i]);
		hwloc_distances_release(topo, dist[i]);
	}
	return ok;
}

/* "Intel(R) Xeon(R) CPU E5-2630 v3 @ 2.40GHz" -> 2400 */
static unsigned mhz_from_model(const char *model)
{
	const char *at = model ? strstr(model, "@ ") : NULL;
	char *end;

	if (!at)
		return 0;
	double v = strtod(at + 2, &end), mhz;
	if (!strncmp(end, "GHz", 3))
		mhz = v * 1000;
	else if (!strncmp(end, "MHz", 3))
		mhz = v;
	else
		return 0;
	/* the converted value, not the text: "@ 99999.9GHz" or "@ 0x1p16GHz"
	 * must not wrap the kHz clock; beyond 100 GHz is no clock at all */
	if (!(mhz >= 1 && mhz <= 100000))
		return 0;
	return (unsigned)(mhz + 0.5);
}

static unsigned host_mhz(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	double mhz = 0;

	if (!f)
		return 0;
	while (mhz <= 0 && fgets(line, sizeof(line), f))
		if (!strncmp(line, "cpu MHz", 7) && strchr(line, ':'))
			mhz = strtod(strchr(line, ':') + 1, NULL);
	fclose(f);
	return mhz > 0 && mhz < 100000 ? (unsigned)(mhz + 0.5) : 0;
}

static void read_arch(hwloc_topology_t topo, struct hw_found *found)
{
	const char *a = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "Architecture");

	found->arch = -1;
	if (!a)
		return;
	if (a[0] == 'i' && a[1] >= '3' && a[1] <= '6' && !strcmp(a + 2, "86"))
		found->arch = SL_ARCH_I386;	/* i386 to i686 */
	else
		found->arch = sl_arch_parse(a);
}

static void read_clock(hwloc_topology_t topo, enum hw_source src, struct hw_found *found)
{
	hwloc_obj_t obj = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);

	if (!obj)
		obj = hwloc_get_root_obj(topo);
	found->mhz = mhz_from_model(hwloc_obj_get_info_by_name(obj, "CPUModel"));
	if (!found->mhz && src == HW_SRC_HOST)
		found->mhz = host_mhz();
}

/* A cache size that would wrap the KB count, or round to 0 KB ("unknown",
 * the profile's), is refused rather than read as another size. */
static int read_caches(hwloc_topology_t topo, struct hw_found *found, const char *what,
		       struct sl_err *err)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, 0);

	if (!pu)
		pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, 0);
	for (hwloc_obj_t o = pu ? pu->parent : NULL; o; o = o->parent) {
		if (!hwloc_obj_type_is_cache(o->type) ||
		    o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION)
			continue;
		unsigned long long bytes = o->attr->cache.size;
		if (bytes / 1024 > HW_MAX_CACHE_KB || (bytes && bytes < 1024))
			return sl_fail(err, "%s: an L%u cache of %llu bytes (expected 1 KB to %u KB)",
				       what, o->attr->cache.depth, bytes, HW_MAX_CACHE_KB);
		if (o->attr->cache.depth == 2 && !found->l2_kb)
			found->l2_kb = (unsigned)(bytes / 1024);
	}
	/* the size of the cache the topology groups CPUs by (raw_cpu); one of
	 * unknown size (0) leaves the profile's */
	hwloc_obj_t llc = pu ? llc_of(pu) : NULL;
	if (llc)
		found->llc_kb = (unsigned)(llc->attr->cache.size / 1024);
	return 0;
}

/* RAM in MB; 0 (unknown, the profile's is used) when hwloc has none.  A
 * size that would wrap mem_mb, or round to 0 MB, is refused rather than
 * read as another size or as unknown. */
static int read_memory(hwloc_topology_t topo, struct hw_found *found, const char *what,
		       struct sl_err *err)
{
	unsigned long long bytes = hwloc_get_root_obj(topo)->total_memory;

	if (bytes >> 20 > HW_MAX_MEM_MB)
		return sl_fail(err, "%s: %llu MB of memory, at most %u MB (1 PiB)", what,
			       bytes >> 20, HW_MAX_MEM_MB);
	if (bytes && bytes >> 20 == 0)
		return sl_fail(err, "%s: %llu bytes of memory, at least 1 MB", what, bytes);
	found->mem_mb = (unsigned)(bytes >> 20);
	return 0;
}

/* ---- loading ---- */

/* The whole XML file, NUL-terminated, or NULL with err set.  hwloc is given
 * these bytes, not the path, so that os_index.c checks exactly what hwloc
 * parses (libxml2 would also inflate a gzip file behind our back). */
static char *read_xml(const char *path, size_t *len, const char *what, struct sl_err *err)
{
	char *xml = sl_read_text(path, HW_MAX_XML_BYTES, what, "UTF-8 XML, as lstopo writes",
				 len, err);
	if (xml && !*len) {
		free(xml);
		sl_fail(err, "%s: empty file, expected an hwloc XML topology", what);
		return NULL;
	}
	return xml;
}

static int set_source(hwloc_topology_t topo, enum hw_source src, const char *arg, size_t len)
{
	switch (src) {
	case HW_SRC_XML:	/* arg is the file's text */
		return hwloc_topology_set_xmlbuffer(topo, arg, (int)len);
	case HW_SRC_SYNTHETIC:
		return hwloc_topology_set_synthetic(topo, arg);
	case HW_SRC_HOST:
		break;
	}
	return 0;
}

/* ---- surviving hwloc ---- */

/* Longest an XML file may take hwloc in the trial load: a file within
 * HW_MAX_XML_BYTES loads in well under a second, 20 s under the fuzz
 * harness's sanitizers at the most PUs there are. */
#define HW_TRIAL_SECONDS 60

struct trial {
	const char *xml;
	size_t len;
};

static int trial_load(void *arg)
{
	const struct trial *t = arg;
	hwloc_topology_t topo;

	if (hwloc_topology_init(&topo) < 0)
		return 1;
	int rc = set_source(topo, HW_SRC_XML, t->xml, t->len);
	if (rc == 0)
		rc = hwloc_topology_load(topo);
	hwloc_topology_destroy(topo);
	return rc ? 1 : 0;
}

/* hwloc 2.9 crashes on damaged XML files of kinds xml_check.c cannot all
 * foresee (the fuzz harness keeps finding new ones), so the file is first
 * loaded in a child process (base/isolate.h): one that kills the child is
 * refused here instead of killing schedlab.  A child that merely fails
 * passes, and the load below words hwloc's reason. */
int hw_hwloc_survives(const char *xml, size_t len, const char *what, struct sl_err *err)
{
	struct trial t = { xml, len };
	int status;

	switch (sl_isolate(trial_load, &t, HW_TRIAL_SECONDS, &status)) {
	case SL_ISOLATE_RETURNED:
		return 0;
	case SL_ISOLATE_SIGNALED:
		return sl_fail(err, "%s: hwloc crashed reading this file (signal %d, %s); it "
			       "is damaged or was edited by hand: lstopo writes files hwloc can "
			       "read", what, status, strsignal(status));
	case SL_ISOLATE_TIMED_OUT:
		return sl_fail(err, "%s: hwloc did not finish reading this file in %d s; it "
			       "is damaged or was edited by hand: lstopo writes files hwloc can "
			       "read", what, HW_TRIAL_SECONDS);
	case SL_ISOLATE_UNAVAILABLE:
		break;
	}
	return sl_fail_internal(err, "%s: cannot start a process to try hwloc on this file: %s",
				what, strerror(status));
}

static int open_topology(hwloc_topology_t *topo, enum hw_source src, const char *arg,
			 size_t len, const char *what, struct sl_err *err)
{
	struct capture cap;
	char reason[256];

	if (src == HW_SRC_XML &&
	    (hw_xml_check(arg, len, what, err) || hw_hwloc_survives(arg, len, what, err)))
		return -1;
	if (hwloc_topology_init(topo) < 0)
		return sl_fail_internal(err, "%s: hwloc_topology_init failed", what);
	capture_begin(&cap);
	int rc = set_source(*topo, src, arg, len);
	if (rc == 0)
		rc = hwloc_topology_load(*topo);
	capture_end(&cap, reason, sizeof(reason));
	/* hwloc only warns, and falls back to its default numbering, when a
	 * synthetic "indexes=" interleaving is wrong: nothing silently defaulted */
	if (rc == 0 && !(src == HW_SRC_SYNTHETIC && reason[0]))
		return 0;
	hwloc_topology_destroy(*topo);
	if (src == HW_SRC_SYNTHETIC) {	/* the last resort: the name is none of the forms */
		char presets[512];
		hw_preset_list(presets, sizeof(presets));
		return sl_fail(err, "%s: not a preset, 'host', an hwloc XML file or a valid hwloc "
			       "synthetic string (hwloc: %s); presets: %s", what,
			       reason[0] ? reason : "rejected", presets);
	}
	if (src == HW_SRC_HOST)
		return sl_fail_internal(err, "%s: hwloc cannot read this machine's topology%s%s",
					what, reason[0] ? ": " : "", reason);
	return sl_fail(err, "%s: not a valid hwloc XML topology%s%s%s", what,
		       reason[0] ? " (" : "", reason, reason[0] ? ")" : "");
}

int hw_hwloc_load(struct sl_topo *t, struct hw_found *found, enum hw_source src,
		  const char *arg, bool noht, const char *what, struct sl_err *err)
{
	hwloc_topology_t topo;
	uint64_t node_keys[SL_MAX_NODES];

	char *xml = NULL;
	size_t len = 0;
	int rc;

	memset(found, 0, sizeof(*found));
	if (src == HW_SRC_XML &&
	    (!(xml = read_xml(arg, &len, what, err)) ||
	     hw_xml_check_indexes(xml, len, what, err))) {
		free(xml);
		return -1;
	}
	rc = open_topology(&topo, src, xml ? xml : arg, len, what, err);
	free(xml);	/* hwloc is done with it after the load */
	if (rc)
		return -1;
	rc = build_topo(topo, t, noht, node_keys, what, err);
	if (rc == 0) {
		found->distances = read_distances(topo, t, node_keys);
		read_clock(topo, src, found);
		read_arch(topo, found);
		rc = read_caches(topo, found, what, err);
		/* hwloc invents 1 GB per node for synthetic strings without memory= */
		if (rc == 0 && (src != HW_SRC_SYNTHETIC || strstr(arg, "memory=")))
			rc = read_memory(topo, found, what, err);
	}
	hwloc_topology_destroy(topo);
	return rc;
}
