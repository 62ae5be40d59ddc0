/*
 * registry.c - the real workloads' table, their parameters, the cache
 * directory and the run environment (see real.h).
 */
#include "real/real.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/memsize.h"
#include "real/cpus.h"

const struct sl_real_workload *const sl_real_workloads[] = {
	&sl_real_spin,
	&sl_real_hackbench,
	&sl_real_schedbench,
	&sl_real_kernbench,
	&sl_real_pingpong,
	&sl_real_schbench,
	&sl_real_rtapp,
	NULL,
};

const struct sl_real_workload *sl_real_find(const char *name)
{
	for (int i = 0; sl_real_workloads[i]; i++)
		if (!strcmp(sl_real_workloads[i]->name, name))
			return sl_real_workloads[i];
	return NULL;
}

int sl_real_parse(const char *text, const struct sl_real_workload **w,
		  struct sl_params *params, struct sl_err *err)
{
	struct sl_spec spec;
	char owner[96];

	if (sl_spec_parse(&spec, text, "workload", err))
		return -1;
	*w = sl_real_find(spec.name);
	if (!*w) {
		char known[256] = "";
		for (int i = 0; sl_real_workloads[i]; i++) {
			strncat(known, i ? ", " : "", sizeof(known) - strlen(known) - 1);
			strncat(known, sl_real_workloads[i]->name,
				sizeof(known) - strlen(known) - 1);
		}
		return sl_fail(err, "workload '%s': no real version of it (real workloads: %s)",
			       spec.name, known);
	}
	snprintf(owner, sizeof(owner), "workload '%s'", spec.name);
	return sl_spec_bind(params, &spec, (*w)->params, NULL, owner, err);
}

void sl_real_param_set(struct sl_params *p, const char *name, double value)
{
	for (int i = 0; i < p->n; i++) {
		if (strcmp(p->defs[i].name, name))
			continue;
		p->num[i] = value;
		snprintf(p->store[i], sizeof(p->store[i]), "%.10g", value);
		p->text[i] = p->store[i];
		return;
	}
	fprintf(stderr, "schedlab: internal error: no real parameter '%s'\n", name);
	abort();
}

void sl_real_spec_text(const struct sl_real_workload *w, const struct sl_params *p,
		       char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "%s", w->name);
	char sep = ':';

	for (int i = 0; i < p->n && len < size; i++) {
		if (!p->text[i] || (!p->given[i] && p->defs[i].def))
			continue;
		int n = snprintf(buf + len, size - len, "%c%s=%s", sep, p->defs[i].name,
				 p->text[i]);
		if (n < 0)
			break;
		len += (size_t)n;
		sep = ',';
	}
}

/* mkdir -p */
static int make_dirs(const char *path, struct sl_err *err)
{
	char buf[4096];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return sl_fail(err, "cache directory '%s': path too long", path);
	for (char *p = buf + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return sl_fail(err, "cache directory '%s': cannot create '%s': %s", path,
				       buf, strerror(errno));
		*p = c;
		if (!c)
			return 0;
	}
}

const char *sl_real_cache_dir(struct sl_err *err)
{
	static char dir[4096];
	const char *env = getenv("SCHEDLAB_CACHE");
	struct stat st;

	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else if ((env = getenv("XDG_CACHE_HOME")) && *env)
		snprintf(dir, sizeof(dir), "%s/schedlab", env);
	else if ((env = getenv("HOME")) && *env)
		snprintf(dir, sizeof(dir), "%s/.cache/schedlab", env);
	else {
		sl_fail(err, "no cache directory: set SCHEDLAB_CACHE (or HOME)");
		return NULL;
	}
	if (make_dirs(dir, err))
		return NULL;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		sl_fail(err, "cache directory '%s' is not a directory", dir);
		return NULL;
	}
	return dir;
}

int sl_real_env_init(struct sl_real_env *env, const cpu_set_t *cpus, struct sl_err *err)
{
	memset(env, 0, sizeof(*env));
	if (cpus) {
		env->cpus = *cpus;
		env->pinned = true;
	} else if (sl_real_cpus_allowed(&env->cpus, err)) {
		return -1;
	}
	env->ncpus = CPU_COUNT(&env->cpus);
	if (env->ncpus < 1)
		return sl_fail(err, "no CPU to run on");
	return 0;
}

int sl_real_check_mem(const char *cmd, const struct sl_real_workload *w,
		      const struct sl_params *p, const struct sl_real_env *env,
		      struct sl_err *err)
{
	uint64_t procs = 0, need, avail;
	char what[1200], detail[96], n[32], a[32];

	if (!w->mem)
		return 0;
	need = w->mem(p, env, &procs);
	avail = sl_mem_available();
	snprintf(detail, sizeof(detail), "%llu process%s", (unsigned long long)procs,
		 procs == 1 ? "" : "es");
	sl_real_spec_text(w, p, what, sizeof(what) - 32);
	if (need > sl_mem_limit()) {
		char full[1300];
		snprintf(full, sizeof(full), "%s: workload '%s'", cmd, what);
		return sl_mem_refuse(err, full, need, detail);
	}
	if (avail && need > avail) {
		sl_mem_format(need, n, sizeof(n));
		sl_mem_format(avail, a, sizeof(a));
		return sl_fail(err, "%s: workload '%s' would touch about %s of this host's memory "
			       "(%s), more than the %s it has available (MemAvailable in "
			       "/proc/meminfo)", cmd, what, n, detail, a);
	}
	return 0;
}
