/*
 * ktree.c - the kernel source tree of real kernbench (see ktree.h).
 */
#include "real/ktree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "real/proc.h"

static int join(char *buf, size_t size, const char *a, const char *b, struct sl_err *err)
{
	if ((size_t)snprintf(buf, size, "%s/%s", a, b) >= size)
		return sl_fail(err, "path too long: '%s/%s'", a, b);
	return 0;
}

bool sl_ktree_has(const char *tree, const char *name)
{
	char path[4096];

	return !join(path, sizeof(path), tree, name, NULL) && access(path, F_OK) == 0;
}

int sl_ktree_stamp(const char *tree, const char *name, const char *text, struct sl_err *err)
{
	char path[4096], tmp[4200];
	FILE *f;

	if (join(path, sizeof(path), tree, name, err))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return sl_fail_internal(err, "cannot write '%s': %s", tmp, strerror(errno));
	fputs(text, f);
	if (fclose(f) || rename(tmp, path)) {
		int e = errno;
		unlink(tmp);
		return sl_fail_internal(err, "cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

void sl_ktree_unstamp(const char *tree, const char *name)
{
	char path[4096];

	if (!join(path, sizeof(path), tree, name, NULL))
		unlink(path);
}

static int stamp_is(const char *tree, const char *name, const char *text)
{
	char path[4096], buf[256] = "";
	FILE *f;

	if (join(path, sizeof(path), tree, name, NULL) || !(f = fopen(path, "r")))
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !strcmp(buf, text);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void sl_ktree_remove(const char *path)
{
	nftw(path, rm_entry, 64, FTW_DEPTH | FTW_PHYS);
}

void sl_ktree_clean_env(void)
{
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKELEVEL");
	unsetenv("MAKEFILES");
	unsetenv("GNUMAKEFLAGS");
}

/* Leftovers of an unpack that was killed before its rename. */
static void remove_stale_unpacks(const char *cache)
{
	DIR *d = opendir(cache);
	struct dirent *e;
	char path[4096];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, ".unpack-", 8) &&
		    !join(path, sizeof(path), cache, e->d_name, NULL))
			sl_ktree_remove(path);
	closedir(d);
}

/* The only directory inside `dir`: the tarball's top directory. */
static int top_dir(const char *dir, char *name, size_t size, struct sl_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return sl_fail_internal(err, "cannot read '%s': %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && n++ == 0)
			snprintf(name, size, "%s", e->d_name);
	closedir(d);
	if (n != 1)
		return sl_fail_internal(err, "the kernel tarball did not unpack into one "
					"directory");
	return 0;
}

/* "linux-source-6.1" from ".../linux-source-6.1.tar.xz". */
static void tree_name(const char *src, char *buf, size_t size)
{
	static const char *const ext[] = { ".tar.xz", ".tar.gz", ".tar.bz2", ".tgz", ".tar" };
	const char *base = strrchr(src, '/');

	snprintf(buf, size, "%s", base ? base + 1 : src);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t n = strlen(buf), k = strlen(ext[i]);
		if (n > k && !strcmp(buf + n - k, ext[i])) {
			buf[n - k] = 0;
			return;
		}
	}
}

static int unpack(const char *src, const char *cache, const char *tree,
		  const cpu_set_t *cpus, struct sl_err *err)
{
	char tmp[4096], top[256], from[4096];
	const char *argv[] = { "tar", "-xf", src, "-C", tmp, NULL };
	struct sl_real_cmd cmd = { .argv = argv, .out_fd = -1 };

	remove_stale_unpacks(cache);
	if (join(tmp, sizeof(tmp), cache, ".unpack-XXXXXX", err))
		return -1;
	if (!mkdtemp(tmp))
		return sl_fail_internal(err, "cannot create a directory in '%s': %s", cache,
					strerror(errno));
	if (sl_real_run_cmd(&cmd, cpus, NULL, err) ||
	    top_dir(tmp, top, sizeof(top), err) ||
	    join(from, sizeof(from), tmp, top, err) ||
	    sl_ktree_stamp(from, SL_KTREE_STAMP_UNPACKED, src, err))
		goto fail;
	if (rename(from, tree)) {
		sl_fail_internal(err, "cannot rename '%s' to '%s': %s", from, tree,
				 strerror(errno));
		goto fail;
	}
	rmdir(tmp);
	return 0;
fail:
	sl_ktree_remove(tmp);
	return -1;
}

static int configure(const char *tree, const char *config, const cpu_set_t *cpus,
		     struct sl_err *err)
{
	const char *argv[] = { "make", "-s", config, NULL };
	struct sl_real_cmd cmd = { .argv = argv, .dir = tree, .out_fd = -1 };

	sl_ktree_unstamp(tree, SL_KTREE_STAMP_CONFIG);
	sl_ktree_unstamp(tree, SL_KTREE_STAMP_WARM);
	if (sl_real_run_cmd(&cmd, cpus, NULL, err))
		return -1;
	return sl_ktree_stamp(tree, SL_KTREE_STAMP_CONFIG, config, err);
}

int sl_ktree_prepare(const char *src, const char *config, const char *cache,
		     const cpu_set_t *cpus, char *tree, size_t size, struct sl_err *err)
{
	struct stat st;
	char name[256];

	if (stat(src, &st))
		return sl_fail(err, "kernbench: src '%s': %s (the Debian package "
			       "linux-source-6.1 provides it: scripts/install-validate-deps.sh)",
			       src, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		if ((size_t)snprintf(tree, size, "%s", src) >= size)
			return sl_fail(err, "kernbench: src '%s': path too long", src);
		if (!sl_ktree_has(tree, "Makefile") || !sl_ktree_has(tree, "Kconfig"))
			return sl_fail(err, "kernbench: src '%s': not a kernel source tree "
				       "(expected a Makefile and a Kconfig in it)", src);
	} else {
		tree_name(src, name, sizeof(name));
		if (join(tree, size, cache, name, err))
			return -1;
		if (!sl_ktree_has(tree, SL_KTREE_STAMP_UNPACKED)) {
			if (access(tree, F_OK) == 0)
				return sl_fail(err, "kernbench: '%s' exists but was not "
					       "unpacked by schedlab; move it away or give src=%s",
					       tree, tree);
			if (unpack(src, cache, tree, cpus, err))
				return -1;
		}
	}
	if (stamp_is(tree, SL_KTREE_STAMP_CONFIG, config))
		return 0;
	return configure(tree, config, cpus, err);
}
