/*
 * machine.c - resolving a machine name: a preset, "host", an hwloc XML file,
 * or an hwloc synthetic string, in that order (DESIGN.md "MACHINE").
 *
 * Options may follow the name after a comma (outside parentheses, since
 * hwloc synthetic attributes such as "pu:2(indexes=0,2,1,3)" hold commas):
 *   noht          the noht boot option: one logical CPU per core
 *   smt=KIND      SMT pair model: netburst, modern, or off (siblings free)
 *   ratio=R       NUMA latency ratio at the largest node distance
 *   bw=B          per-node memory bandwidth in memory-bound task equivalents
 *   bus=GBS       the bus all CPUs of a node share, GB/s (converted to bw
 *                 by the machine's refill rate, speed_params.c)
 *   slit=N        uniform remote SLIT distance (what policies see)
 *   refill=F      scale every cache refill cost by F (NetBurst's 1 ms
 *                 full-L2 refill is the top of a 0.2-1 ms range)
 *   kcost=F       scale every kernel path cost (context switch, fork, exec,
 *                 exit, migration, the scheduler's scan and pick) by F: a
 *                 host's kernel-path speed is not its clock's (the same VM
 *                 type measured 1.6x apart on two days, docs/validation.md)
 *   ipi=US        latency of waking another CPU, us (a VM's halted vCPU:
 *                 ~20 us on the development host, docs/validation.md)
 *   seek=MS       the disk's average seek, ms (disk.c)
 *   xfer=MBS      the disk's media transfer rate, MB/s (disk.c)
 *   kmem=N|local  where the kernel's own memory lives: node N for every
 *                 task's kernel work (numaq-16: 0), or with each task's
 *                 own memory (every other preset)
 *   arch=A        the kernel's architecture, i386, ia64 or x86_64: HZ and
 *                 a few per-arch scheduler constants follow it (topo.h);
 *                 else the preset's, an hwloc XML's or the host's
 *                 Architecture info, or x86_64
 *   like=PRESET   a machine that is not a preset takes that preset's model
 *                 numbers (SMT pairs, kernel costs, refill, NUMA ratio and
 *                 bandwidth, disk, kernel memory; arch, clock, caches and
 *                 memory per node where hwloc reports none) instead of the
 *                 modern default: "numa:2 pack:4 core:1 pu:2,like=p4dpe-2x2ht"
 *                 for a two-node NetBurst box
 *   mhz=N         the clock, MHz: kernel path costs scale with it (the
 *                 workloads' work is in the machine's reference ns)
 * ratio, bw, slit and refill exist because those numbers are uncertain
 * (docs/model.md); ipi and kcost because they depend on where the machine
 * runs.  A name that is an existing file is taken whole.
 *
 * Machines that are not presets get the modern default profile
 * (presets.c), or like='s preset's, with the clock, caches and RAM hwloc
 * reported where it did.
 */
#include "hw/hw_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/spec.h"

#define MAX_BASE 4096

static const char options_help[] = "noht, smt=netburst|modern|off, ratio=R, slit=N, bw=B, bus=GBS, refill=F, kcost=F, ipi=US, seek=MS, xfer=MBS, kmem=N|local, arch=i386|ia64|x86_64, like=PRESET, mhz=N";

/* Every option's key, in options_help's order: a key's index is its bit
 * in split_options's set of the options seen. */
static const char *const option_keys[] = { "noht", "smt", "ratio", "slit", "bw", "bus", "refill",
					    "kcost", "ipi", "seek", "xfer", "kmem", "arch", "like",
					    "mhz" };

static int option_index(const char *opt)
{
	size_t key = strcspn(opt, "=");

	for (int i = 0; i < (int)(sizeof(option_keys) / sizeof(option_keys[0])); i++)
		if (strlen(option_keys[i]) == key && !strncmp(option_keys[i], opt, key))
			return i;
	return -1;
}

static bool is_key(const char *opt, const char *key)
{
	size_t n = strlen(key);
	return !strncmp(opt, key, n) && opt[n] == '=';
}

static int parse_option(struct hw_options *o, const char *opt, const char *what,
			struct sl_err *err)
{
	const char *val = strchr(opt, '=') ? strchr(opt, '=') + 1 : "";
	const char *expected = NULL;
	long l;
	double d;

	if (!strcmp(opt, "noht")) {
		o->noht = true;
	} else if (is_key(opt, "smt")) {
		o->smt = !strcmp(val, "netburst") ? HW_SMT_NETBURST :
			 !strcmp(val, "modern") ? HW_SMT_MODERN :
			 !strcmp(val, "off") ? HW_SMT_OFF : -1;
		if (o->smt < 0)
			expected = "netburst, modern or off";
	} else if (is_key(opt, "ratio")) {
		if (sl_parse_double(val, &d) || d < 1.0 || d > 50.0)
			expected = "a number from 1 to 50";
		else
			o->ratio = d;
	} else if (is_key(opt, "bw")) {
		/* below a hundredth of a task every run crawls to the horizon */
		if (sl_parse_double(val, &d) || d < 0.01 || d > 1e6)
			expected = "a number from 0.01 to 1000000 (memory-bound tasks a node serves "
				   "at full speed)";
		else
			o->bw = d;
	} else if (is_key(opt, "bus")) {
		if (sl_parse_double(val, &d) || d < 0.01 || d > 1e6)
			expected = "a number of GB/s from 0.01 to 1000000 (the bus all CPUs of a "
				   "node share)";
		else
			o->bus_gbs = d;
	} else if (is_key(opt, "refill")) {
		if (sl_parse_double(val, &d) || d <= 0.0 || d > 100.0)
			expected = "a factor above 0, at most 100";
		else
			o->refill = d;
	} else if (is_key(opt, "kcost")) {
		if (sl_parse_double(val, &d) || d <= 0.0 || d > 100.0)
			expected = "a factor above 0, at most 100";
		else
			o->kcost = d;
	} else if (is_key(opt, "ipi")) {
		if (sl_parse_double(val, &d) || d <= 0.0 || d > 1e6)
			expected = "a positive number of microseconds";
		else
			o->ipi_us = d;
	} else if (is_key(opt, "seek")) {
		if (sl_parse_double(val, &d) || d <= 0.0 || d > 1000.0)
			expected = "a positive number of milliseconds, at most 1000";
		else
			o->seek_ms = d;
	} else if (is_key(opt, "xfer")) {
		if (sl_parse_double(val, &d) || d < 0.01 || d > 1e6)
			expected = "a number of MB/s from 0.01 to 1000000";
		else
			o->xfer_mb_s = d;
	} else if (is_key(opt, "kmem")) {
		if (!strcmp(val, "local"))
			o->kmem = -1;
		else if (sl_parse_long(val, &l) || l < 0 || l >= SL_MAX_NODES_SPEED)
			expected = "a node number or 'local'";
		else
			o->kmem = (int)l;
	} else if (is_key(opt, "arch")) {
		o->arch = sl_arch_parse(val);
		if (o->arch < 0)
			expected = "i386, ia64 or x86_64";
	} else if (is_key(opt, "like")) {
		o->like = hw_preset_find(val);
		if (!o->like) {
			char list[512];
			hw_preset_list(list, sizeof(list));
			return sl_fail(err, "%s: option '%s': expected a preset's name (%s)", what,
				       opt, list);
		}
	} else if (is_key(opt, "mhz")) {
		if (sl_parse_long(val, &l) || l < 1 || l > 100000)
			expected = "a clock in MHz, an integer from 1 to 100000";
		else
			o->mhz = (unsigned)l;
	} else if (is_key(opt, "slit")) {
		if (sl_parse_long(val, &l) || l < 11 || l > 254)
			expected = "an integer from 11 to 254";
		else
			o->slit = (int)l;
	} else {
		return sl_fail(err, "%s: unknown option '%s' (expected %s)", what, opt, options_help);
	}
	if (expected)
		return sl_fail(err, "%s: option '%s': expected %s", what, opt, expected);
	return 0;
}

/* Split "base,opt,opt" at commas outside parentheses. */
static int split_options(const char *name, char *base, struct hw_options *o,
			 const char *what, struct sl_err *err)
{
	int depth = 0;
	const char *p = name;

	for (; *p && !(*p == ',' && depth == 0); p++)
		depth += (*p == '(') - (*p == ')');
	if ((size_t)(p - name) >= MAX_BASE)
		return sl_fail(err, "%s: name too long", what);
	memcpy(base, name, (size_t)(p - name));
	base[p - name] = 0;
	unsigned seen = 0;	/* option_keys' bits */
	while (*p == ',') {
		char opt[64];
		const char *end = strchr(p + 1, ',');
		size_t len = end ? (size_t)(end - p - 1) : strlen(p + 1);
		if (len == 0 || len >= sizeof(opt))
			return sl_fail(err, "%s: malformed option list (expected %s after ',')",
				       what, options_help);
		memcpy(opt, p + 1, len);
		opt[len] = 0;
		if (parse_option(o, opt, what, err))
			return -1;
		/* a second value would silently win over the first (parse_option
		 * has refused any key not in option_keys) */
		int k = option_index(opt);
		unsigned bit = k >= 0 ? 1u << k : 0;
		if (seen & bit)
			return sl_fail(err, "%s: option '%.*s' given twice (expected one)", what,
				       (int)strcspn(opt, "="), opt);
		seen |= bit;
		p += 1 + len;
	}
	return 0;
}

/* Logical CPUs a synthetic string asks for: the product of its arities,
 * "type:N" or a bare "N" (hwloc takes "4 2" as levels of default types).
 * Checked before hwloc builds a topology of that size: "42200" alone took
 * hwloc minutes (found by tests/fuzz/).  Each arity must be a plain
 * decimal count: hwloc reads "+2", " 2" and "0x10000" too, and an estimate
 * that read them otherwise let hwloc build 2^32 objects.  0 if one is not,
 * *bad then pointing at it, or if a '(' or '[' is never closed, *bad at
 * the bracket: what it would hide is not counted, and hwloc read levels
 * in it ("pa[k:188pu:218888881" ran for minutes, found by tests/fuzz/). */
unsigned long hw_synthetic_cpus(const char *s, const char **bad)
{
	unsigned long n = 1;
	int depth = 0;
	const char *open = NULL;	/* the outermost bracket still open */

	for (const char *p = s; *p; p++) {
		bool token_start = p == s || isspace((unsigned char)p[-1]);
		if (depth == 0 && (*p == '(' || *p == '['))
			open = p;
		depth += (*p == '(' || *p == '[') - (*p == ')' || *p == ']');
		if (depth < 0)
			depth = 0;	/* a stray ')' must not hide the levels after it */
		if (depth != 0)
			continue;
		const char *arity = *p == ':' ? p + 1
				  : token_start && isdigit((unsigned char)*p) ? p : NULL;
		if (!arity)
			continue;
		if (isalpha((unsigned char)*arity) || *arity == '_')
			continue;	/* no number hwloc could read: it refuses the string */
		const char *q = arity;
		unsigned long k = 0;
		while (isdigit((unsigned char)*q)) {
			k = k > (1UL << 40) ? k : k * 10 + (unsigned long)(*q - '0');
			q++;
		}
		if (q == arity || *arity == '0' ||
		    (*q && *q != '(' && *q != '[' && !isspace((unsigned char)*q))) {
			if (bad)
				*bad = arity;
			return 0;
		}
		n = n > (1UL << 40) / k ? 1UL << 40 : n * k;
		p = q - 1;	/* past the number */
	}
	if (depth > 0) {
		if (bad)
			*bad = open;
		return 0;
	}
	return n;
}

static void describe(struct sl_machine *m, const char *source, const struct hw_options *o)
{
	const struct sl_topo *t = &m->topo;
	char llcs[48] = "", like[48] = "";

	if (sl_topo_llcs_split_packages(t))
		snprintf(llcs, sizeof(llcs), ", %d last-level caches", t->nllcs);
	if (o->like)
		snprintf(like, sizeof(like), "; like %s", hw_preset_name(o->like));
	snprintf(m->summary, sizeof(m->summary),
		 "%s: %d CPUs = %d package(s)%s, %d core(s), %d thread(s)/core; %d node(s); %u MHz%s%s",
		 source, t->ncpus, t->npackages, llcs, t->ncores, t->threads_per_core, t->nnodes,
		 t->cpu_khz / 1000, like, o->noht ? " (noht)" : "");
}

static int load_hwloc(struct sl_machine *m, enum hw_source src, const char *arg,
		      const struct hw_options *o, const char *what, struct sl_err *err)
{
	const struct hw_profile *p = o->like ? hw_preset_profile(o->like) : &hw_profile_default;
	struct sl_topo *t = &m->topo;
	struct hw_found found;

	if (hw_hwloc_load(t, &found, src, arg, o->noht, what, err))
		return -1;
	if (o->slit > 0)
		hw_topo_uniform_distances(t, o->slit);
	else if (!found.distances)
		hw_topo_uniform_distances(t, p->slit_remote);
	t->cpu_khz = (o->mhz ? o->mhz : found.mhz ? found.mhz : p->mhz) * 1000;
	t->l2_kb = found.l2_kb ? found.l2_kb : p->l2_kb;
	t->llc_kb = found.llc_kb ? found.llc_kb : t->l2_kb > p->llc_kb ? t->l2_kb : p->llc_kb;
	t->arch = o->arch >= 0 ? (enum sl_arch)o->arch
		  : found.arch >= 0 ? (enum sl_arch)found.arch : p->arch;
	unsigned node_mb = o->like ? hw_preset_mem_per_node_mb(o->like) : p->mem_mb;
	m->mem_mb = found.mem_mb ? found.mem_mb : node_mb * (unsigned)t->nnodes;
	hw_speed_init(&m->speed, t, p, o);
	hw_disk_init(m, p, o);
	describe(m, src == HW_SRC_HOST ? "host" :
		    src == HW_SRC_XML ? "hwloc XML" : "hwloc synthetic", o);
	return 0;
}

static int load_file(struct sl_machine *m, const char *path, const struct hw_options *o,
		     struct sl_err *err)
{
	char what[MAX_BASE + 32];
	struct stat st;

	snprintf(what, sizeof(what), "machine file '%s'", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return sl_fail(err, "%s: is a directory, expected an hwloc XML file", what);
	FILE *f = fopen(path, "r");
	if (!f)
		return sl_fail(err, "%s: cannot read it (%s)", what, strerror(errno));
	fclose(f);
	return load_hwloc(m, HW_SRC_XML, path, o, what, err);
}

static bool looks_like_path(const char *s)
{
	size_t n = strlen(s);
	return strchr(s, '/') || (n > 4 && !strcmp(s + n - 4, ".xml"));
}

static int load_synthetic(struct sl_machine *m, const char *base, const struct hw_options *o,
			  const char *what, struct sl_err *err)
{
	const char *bad = NULL;
	unsigned long cpus = hw_synthetic_cpus(base, &bad);

	if (!cpus && (*bad == '(' || *bad == '['))
		return sl_fail(err, "%s: not a preset, and its '%c' at '%.20s' is never closed, "
			       "as an hwloc synthetic string's must be", what, *bad, bad);
	if (!cpus)
		return sl_fail(err, "%s: not a preset, and '%.*s' after ':' is not a count of an "
			       "hwloc synthetic string (expected 1, 2, ...)", what,
			       (int)strcspn(bad, " \t\n("), bad);
	/* Only noht can bring more PUs than SL_MAX_CPUS down to that many;
	 * without it the count is final, so refuse it before hwloc, whose
	 * insertion of one wide level is quadratic (a flat "7009" took 4 s,
	 * found by the machine fuzz harness). */
	if (!o->noht && cpus > SL_MAX_CPUS)
		return sl_fail(err, "%s: %lu logical CPUs, at most %d supported",
			       what, cpus, SL_MAX_CPUS);
	if (cpus > HW_MAX_RAW_CPUS)
		return sl_fail(err, "%s: %lu logical CPUs before noht, at most %d looked at "
			       "(and %d simulated)", what, cpus, HW_MAX_RAW_CPUS, SL_MAX_CPUS);
	if (hw_synthetic_check_indexes(base, what, err))
		return -1;
	return load_hwloc(m, HW_SRC_SYNTHETIC, base, o, what, err);
}

int sl_machine_load(struct sl_machine *m, const char *name, struct sl_err *err)
{
	struct hw_options o = { .noht = false, .smt = -1, .ratio = 0, .slit = 0, .bw = 0,
				 .bus_gbs = 0,
				 .ipi_us = 0, .refill = 0, .kcost = 0, .seek_ms = 0,
				 .xfer_mb_s = 0, .kmem = HW_KMEM_PROFILE, .arch = -1 };
	char base[MAX_BASE], what[MAX_BASE + 16];
	struct stat st;

	memset(m, 0, sizeof(*m));
	if (!name || !*name)
		return sl_fail(err, "machine: empty name (expected a preset, 'host', an hwloc XML "
			       "file or an hwloc synthetic string)");
	snprintf(m->name, sizeof(m->name), "%s", name);
	if (stat(name, &st) == 0)
		return load_file(m, name, &o, err);

	snprintf(what, sizeof(what), "machine '%.*s'", MAX_BASE, name);
	if (split_options(name, base, &o, what, err))
		return -1;
	const struct hw_preset *p = hw_preset_find(base);
	int rc;
	if (p)
		rc = hw_preset_load(m, p, &o, err);
	else if (!strcmp(base, "host"))
		rc = load_hwloc(m, HW_SRC_HOST, NULL, &o, "machine 'host'", err);
	else if (stat(base, &st) == 0)
		rc = load_file(m, base, &o, err);
	else if (looks_like_path(base))
		return sl_fail(err, "machine file '%s': no such file", base);
	else
		rc = load_synthetic(m, base, &o, what, err);
	if (rc == 0 && o.kmem >= m->topo.nnodes)
		return sl_fail(err, "%s: option 'kmem=%d': the machine has %d node(s), 0 to %d",
			       what, o.kmem, m->topo.nnodes, m->topo.nnodes - 1);
	return rc;
}
