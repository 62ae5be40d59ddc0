/*
 * kconfig.h - the running kernel's scheduler configuration, as far as the
 * simulated counterpart of a real run needs it: the preemption model, HZ
 * and NO_HZ (docs/validation.md, "The host's kernel").
 *
 * `validate` compares real runs on this host with the simulation of the
 * same workload under `cfs`, whose knobs default to 6.12's defaults and a
 * fully preemptible kernel (cfs.md, `preempt`).  A host kernel built or
 * booted otherwise (Debian's and many VMs' kernels boot "Dynamic Preempt:
 * none" or "voluntary") would be compared with a kernel it is not; so
 * validate reads what the host runs and gives the simulation those knobs.
 *
 * Where it is read, in order of authority:
 *   1. /sys/kernel/debug/sched/preempt (PREEMPT_DYNAMIC's current mode,
 *      which root may change at run time; "none (voluntary) full": the
 *      one in parentheses), when debugfs is mounted and readable;
 *   2. preempt= on /proc/cmdline, with PREEMPT_DYNAMIC (6.12
 *      kernel/sched/core.c setup_preempt_mode; arguments after "--" go to
 *      init, not the kernel);
 *   3. the build's choice (CONFIG_PREEMPT_NONE, _VOLUNTARY, _LAZY or
 *      CONFIG_PREEMPT), which PREEMPT_DYNAMIC boots with when no preempt=
 *      is given (preempt_dynamic_init), from /proc/config.gz
 *      (CONFIG_IKCONFIG_PROC) or /boot/config-RELEASE.
 * HZ is CONFIG_HZ; NO_HZ is CONFIG_NO_HZ_IDLE or _FULL unless nohz=off is
 * on the command line (or CONFIG_HZ_PERIODIC).  CONFIG_PREEMPTION is
 * cfs's `preemption` knob.  What cannot be read stays unknown, and the
 * simulation keeps cfs's default for it.
 */
#ifndef SL_REAL_KCONFIG_H
#define SL_REAL_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

enum sl_host_preempt {
	SL_HOST_PREEMPT_UNKNOWN,
	SL_HOST_PREEMPT_NONE,
	SL_HOST_PREEMPT_VOLUNTARY,
	SL_HOST_PREEMPT_FULL,
	SL_HOST_PREEMPT_LAZY,
};

enum sl_kconfig_tristate { SL_KC_UNKNOWN = -1, SL_KC_NO = 0, SL_KC_YES = 1 };

struct sl_kconfig {
	/* from the build's .config (config_read: one was read) */
	bool config_read;
	enum sl_host_preempt config_model;	/* the Kconfig preemption choice */
	bool dynamic;				/* CONFIG_PREEMPT_DYNAMIC */
	bool preemption;			/* CONFIG_PREEMPTION */
	int hz;					/* CONFIG_HZ; 0: not given */
	enum sl_kconfig_tristate nohz;		/* NO_HZ_IDLE or _FULL against HZ_PERIODIC */
	/* from /proc/cmdline */
	enum sl_host_preempt boot_model;	/* preempt= */
	bool boot_nohz_off;			/* nohz=off */
	/* from debugfs */
	enum sl_host_preempt runtime_model;
	char config_path[128];			/* where the .config came from */
};

/* One line of a kernel .config: "CONFIG_X=y", "CONFIG_HZ=250" or "# CONFIG_X
 * is not set"; anything else is ignored.  Sets config_read. */
void sl_kconfig_parse_config_line(struct sl_kconfig *k, const char *line);

/* A whole .config's text, line by line (it is cut into lines in place). */
void sl_kconfig_parse_config(struct sl_kconfig *k, char *text);

/* The text of /proc/cmdline: preempt= and nohz=off, up to a "--". */
void sl_kconfig_parse_cmdline(struct sl_kconfig *k, const char *cmdline);

/* The text of /sys/kernel/debug/sched/preempt: the mode in parentheses. */
void sl_kconfig_parse_debugfs_preempt(struct sl_kconfig *k, const char *text);

/* Read all three from the running kernel (what cannot be read is left
 * unknown; nothing here fails). */
void sl_kconfig_read_host(struct sl_kconfig *k);

/* Where the preemption model was read (the order of authority above). */
enum sl_kconfig_source {
	SL_KC_FROM_NOTHING,
	SL_KC_FROM_DEBUGFS,
	SL_KC_FROM_BOOT,
	SL_KC_FROM_CONFIG,
};

/* The preemption model the kernel runs with, and where that was read
 * (source may be NULL); SL_HOST_PREEMPT_UNKNOWN if nothing says. */
enum sl_host_preempt sl_kconfig_model(const struct sl_kconfig *k, enum sl_kconfig_source *source);

/* "none", "voluntary", "full", "lazy" or "unknown". */
const char *sl_host_preempt_name(enum sl_host_preempt m);

/* cfs's knobs for what is known, comma-separated ("preempt=none,
 * preemption=on,hz=250,nohz=on"; "" when nothing is), and a sentence for
 * humans saying what was read and how it maps (voluntary and lazy are run
 * as `none`, the model's nearest: cfs.md).  Either buffer may be NULL. */
void sl_kconfig_cfs_knobs(const struct sl_kconfig *k, char *knobs, size_t knobs_size,
			  char *said, size_t said_size);

#endif
