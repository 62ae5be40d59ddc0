/*
 * ktree.h - a kernel source tree for real kernbench: Debian's
 * linux-source tarball unpacked once into the cache directory (into a
 * temporary directory first, renamed into place only when complete), or a
 * tree given as a directory and used in place; configured once with a
 * make target such as tinyconfig.  Stamp files in the tree record what was
 * done, each written to a temporary file and renamed.
 */
#ifndef SL_REAL_KTREE_H
#define SL_REAL_KTREE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

#define SL_KTREE_DEFAULT_SRC "/usr/src/linux-source-6.1.tar.xz"

/* Stamps in the tree. */
#define SL_KTREE_STAMP_UNPACKED ".schedlab-unpacked"
#define SL_KTREE_STAMP_CONFIG ".schedlab-config"	/* holds the config target */
#define SL_KTREE_STAMP_WARM ".schedlab-warm"		/* a full build has run */

/*
 * Find or make the tree for `src` (a tarball or a directory) under
 * `cache`, and configure it with `make CONFIG` unless its config stamp
 * already names CONFIG.  `tree` receives its path.  Commands run on
 * `cpus` (NULL: any).  0, or -1 with err set (a missing source is bad
 * input).
 */
int sl_ktree_prepare(const char *src, const char *config, const char *cache,
		     const cpu_set_t *cpus, char *tree, size_t size, struct sl_err *err);

/* Does tree/name exist? */
bool sl_ktree_has(const char *tree, const char *name);
/* Write tree/name holding `text` (temporary file + rename). */
int sl_ktree_stamp(const char *tree, const char *name, const char *text, struct sl_err *err);
/* Remove tree/name if present. */
void sl_ktree_unstamp(const char *tree, const char *name);

/* rm -rf path (no symlinks followed). */
void sl_ktree_remove(const char *path);

/* The environment variables a parent make passes down (MAKEFLAGS with its
 * job server, MAKELEVEL, MFLAGS) are dropped so that `make -j N` in the
 * tree is measured alone; call in the child before exec. */
void sl_ktree_clean_env(void);

#endif
