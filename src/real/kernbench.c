/*
 * kernbench.c - real `kernbench`: `make -j N vmlinux` of a real kernel
 * tree, timed as kernbench 0.42 does it (linux-test-project/ltp,
 * utils/benchmark/kernbench-0.42; docs/workloads.md, kernbench): once, the tree is unpacked and configured (ktree.c) and one
 * untimed warm-up build builds the host tools and fills the page cache;
 * then every repetition is `make clean`, sync, and the timed build.  The
 * build's output goes to kernbench.log in the cache directory.
 */
#include "real/real.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "real/ktree.h"
#include "real/proc.h"

static const struct sl_param_def kb_params[] = {
	{ "jobs", SL_PARAM_INT, NULL, 0, 100000, NULL,
	  "make -j N; 0 = unlimited (make -j); default 2 x CPUs of the run (Bligh's N)" },
	{ "config", SL_PARAM_CHOICE, "tinyconfig", 0, 0, "tinyconfig|defconfig|allnoconfig",
	  "configuration target, made once per tree" },
	{ "src", SL_PARAM_STRING, SL_KTREE_DEFAULT_SRC, 0, 0, NULL,
	  "kernel tarball (unpacked once into the cache) or a kernel tree used in place" },
	{ "warmup", SL_PARAM_CHOICE, "auto", 0, 0, "auto|yes|no",
	  "untimed build before the timed ones: auto = only if the tree was never built" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};


static int make_main(void *arg)
{
	sl_ktree_clean_env();
	return sl_real_exec(arg);
}

/* The tree found by prepare(), for the repetitions; and the cache lock. */
static char kb_tree[4096];
static char kb_cache[4096];
static int kb_lock_fd = -1;

static int lock_cache(const char *cache, struct sl_err *err)
{
	char path[4200];

	if (kb_lock_fd >= 0)
		return 0;
	snprintf(path, sizeof(path), "%s/kernbench.lock", cache);
	kb_lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (kb_lock_fd < 0)
		return sl_fail_internal(err, "kernbench: cannot open '%s': %s", path,
					strerror(errno));
	if (flock(kb_lock_fd, LOCK_EX | LOCK_NB)) {
		close(kb_lock_fd);
		kb_lock_fd = -1;
		return sl_fail(err, "kernbench: another schedlab is building in '%s' (lock '%s')",
			       cache, path);
	}
	return 0;
}

/* Run `make ARGS...` in the tree, output to `out_fd`; usage if u. */
static int make(const struct sl_real_env *env, int out_fd, struct sl_real_usage *u,
		const char *const *argv, struct sl_err *err)
{
	struct sl_real_cmd cmd = { .argv = argv, .dir = kb_tree, .out_fd = out_fd };
	struct sl_real_procs ps;
	int rc = -1;

	if (sl_real_procs_begin(&ps, 1, env->pinned ? &env->cpus : NULL, err))
		return -1;
	if (sl_real_procs_spawn(&ps, true, make_main, &cmd, err) >= 0 &&
	    !sl_real_procs_wait(&ps, u, err))
		rc = 0;
	sl_real_procs_end(&ps);
	return rc;
}

static void jobs_flag(long jobs, char *buf, size_t size)
{
	if (jobs)
		snprintf(buf, size, "-j%ld", jobs);
	else
		snprintf(buf, size, "-j");
}

/* make clean; sync; [timed] make -jN vmlinux, logged. */
static int build(const struct sl_real_env *env, long jobs, struct sl_real_usage *u,
		 struct sl_err *err)
{
	const char *clean[] = { "make", "clean", NULL };
	char j[32], log[4200], tmp[4300];
	const char *argv[] = { "make", j, "vmlinux", NULL };
	int fd, rc;

	jobs_flag(jobs, j, sizeof(j));
	snprintf(log, sizeof(log), "%s/kernbench.log", kb_cache);
	snprintf(tmp, sizeof(tmp), "%s/.kernbench.log.tmp", kb_cache);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return sl_fail_internal(err, "kernbench: cannot write '%s': %s", tmp,
					strerror(errno));
	rc = make(env, fd, NULL, clean, err);
	if (!rc) {
		sync();
		rc = make(env, fd, u, argv, err);
	}
	close(fd);
	if (sl_real_interrupted()) {
		unlink(tmp);
		return -1;
	}
	rename(tmp, log);
	if (rc)
		sl_err_prefix(err, "kernbench: make in '%s' failed (log: %s): ", kb_tree, log);
	return rc;
}

static void kb_resolve(struct sl_params *p, const struct sl_real_env *env)
{
	if (!sl_param_given(p, "jobs"))
		sl_real_param_set(p, "jobs", 2.0 * env->ncpus);
}

static int kb_prepare(const struct sl_params *p, const struct sl_real_env *env,
		      struct sl_err *err)
{
	static const char *const configs[] = { "tinyconfig", "defconfig", "allnoconfig" };
	const char *cache = sl_real_cache_dir(err);
	int warmup = sl_param_choice(p, "warmup");

	if (!cache || lock_cache(cache, err))
		return -1;
	snprintf(kb_cache, sizeof(kb_cache), "%s", cache);
	if (sl_ktree_prepare(sl_param_str(p, "src"), configs[sl_param_choice(p, "config")],
			     kb_cache, env->pinned ? &env->cpus : NULL, kb_tree, sizeof(kb_tree),
			     err)) {
		if (!sl_real_interrupted() && err->kind == SL_ERR_INTERNAL)
			sl_err_prefix(err, "kernbench: ");
		return -1;
	}
	if (warmup == 2 || (warmup == 0 && sl_ktree_has(kb_tree, SL_KTREE_STAMP_WARM)))
		return 0;
	sl_ktree_unstamp(kb_tree, SL_KTREE_STAMP_WARM);
	if (build(env, env->ncpus, NULL, err))
		return -1;
	return sl_ktree_stamp(kb_tree, SL_KTREE_STAMP_WARM, "1", err);
}

static int kb_run(const struct sl_params *p, const struct sl_real_env *env,
		  struct sl_metrics *out, struct sl_err *err)
{
	struct sl_real_usage u;
	long jobs = sl_param_int(p, "jobs");

	if (build(env, jobs, &u, err))
		return -1;
	sl_real_usage_metrics(&u, out);
	sl_metrics_add(out, "jobs", "count", (double)jobs, 0);
	return 0;
}

const struct sl_real_workload sl_real_kernbench = {
	.name = "kernbench",
	.summary = "make -j N vmlinux of a real kernel (Debian's linux-source-6.1, tinyconfig)",
	.metric = "elapsed_s",
	.params = kb_params,
	.resolve = kb_resolve,
	.prepare = kb_prepare,
	.run = kb_run,
};
