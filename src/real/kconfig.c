/*
 * kconfig.c - the running kernel's preemption model, HZ and NO_HZ (see
 * kconfig.h).  Sources: 6.12 kernel/Kconfig.preempt (the choice
 * PREEMPT_NONE / PREEMPT_VOLUNTARY / PREEMPT, PREEMPT_DYNAMIC, which
 * selects PREEMPTION), kernel/sched/core.c (setup_preempt_mode(): preempt=
 * none|voluntary|full, anything else ignored with a warning;
 * preempt_dynamic_init(): the build's choice when none was given),
 * kernel/sched/debug.c (sched_dynamic_show(): "none voluntary (full) "),
 * kernel/time/tick-sched.c (nohz=off).  6.13 added a fourth model, lazy
 * (CONFIG_PREEMPT_LAZY, preempt=lazy), read alike (not in the tree at
 * hand; UNVERIFIED beyond its name).
 */
#include "real/kconfig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "base/readfile.h"

/* A .config is about 10,000 lines of under 100 bytes; a file past this is
 * not one, and is not read further. */
#define KCONFIG_MAX_BYTES (4u << 20)
#define KCONFIG_LINE 512
/* /proc/cmdline is at most COMMAND_LINE_SIZE (2,048 on x86) */
#define KCONFIG_SMALL_BYTES (64u << 10)

static const char *const preempt_names[] = {
	[SL_HOST_PREEMPT_UNKNOWN] = "unknown", [SL_HOST_PREEMPT_NONE] = "none",
	[SL_HOST_PREEMPT_VOLUNTARY] = "voluntary", [SL_HOST_PREEMPT_FULL] = "full",
	[SL_HOST_PREEMPT_LAZY] = "lazy",
};

/* The mode named by the n bytes at s (a boot parameter's or debugfs's
 * word), or unknown. */
static enum sl_host_preempt model_named(const char *s, size_t n)
{
	for (int m = SL_HOST_PREEMPT_NONE; m <= SL_HOST_PREEMPT_LAZY; m++)
		if (strlen(preempt_names[m]) == n && !strncmp(s, preempt_names[m], n))
			return (enum sl_host_preempt)m;
	return SL_HOST_PREEMPT_UNKNOWN;
}

const char *sl_host_preempt_name(enum sl_host_preempt m)
{
	return preempt_names[m];
}

/* The option a .config line sets to y, or NULL; *value its value text. */
static bool config_option(const char *line, const char *name, const char **value)
{
	size_t n = strlen(name);

	if (strncmp(line, name, n) || line[n] != '=')
		return false;
	*value = line + n + 1;
	return true;
}

static bool is_yes(const char *value)
{
	return value[0] == 'y' && (value[1] == 0 || value[1] == '\n' || value[1] == '\r');
}

void sl_kconfig_parse_config_line(struct sl_kconfig *k, const char *line)
{
	static const struct { const char *opt; enum sl_host_preempt m; } choice[] = {
		{ "CONFIG_PREEMPT_NONE", SL_HOST_PREEMPT_NONE },
		{ "CONFIG_PREEMPT_VOLUNTARY", SL_HOST_PREEMPT_VOLUNTARY },
		{ "CONFIG_PREEMPT_LAZY", SL_HOST_PREEMPT_LAZY },
		{ "CONFIG_PREEMPT", SL_HOST_PREEMPT_FULL },
		/* PREEMPT_RT is fully preemptible, and not dynamic */
		{ "CONFIG_PREEMPT_RT", SL_HOST_PREEMPT_FULL },
	};
	const char *v;

	if (strncmp(line, "CONFIG_", 7) && strncmp(line, "# CONFIG_", 9))
		return;
	k->config_read = true;
	for (size_t i = 0; i < sizeof(choice) / sizeof(choice[0]); i++)
		if (config_option(line, choice[i].opt, &v) && is_yes(v))
			k->config_model = choice[i].m;
	if (config_option(line, "CONFIG_PREEMPT_DYNAMIC", &v) && is_yes(v))
		k->dynamic = true;
	if (config_option(line, "CONFIG_PREEMPTION", &v) && is_yes(v))
		k->preemption = true;
	if (config_option(line, "CONFIG_HZ", &v)) {
		char *end;
		errno = 0;
		long hz = strtol(v, &end, 10);
		/* the kernel offers 100, 250, 300 and 1000; anything else is
		 * not a value this file can be trusted for */
		if (!errno && end != v && (*end == 0 || *end == '\n' || *end == '\r') &&
		    hz >= 24 && hz <= 10000)
			k->hz = (int)hz;
	}
	if ((config_option(line, "CONFIG_NO_HZ_IDLE", &v) ||
	     config_option(line, "CONFIG_NO_HZ_FULL", &v)) && is_yes(v))
		k->nohz = SL_KC_YES;
	if (config_option(line, "CONFIG_HZ_PERIODIC", &v) && is_yes(v))
		k->nohz = SL_KC_NO;
}

void sl_kconfig_parse_cmdline(struct sl_kconfig *k, const char *cmdline)
{
	const char *p = cmdline;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			return;
		size_t n = strcspn(p, " \t\n");
		/* what follows "--" is init's, not the kernel's */
		if (n == 2 && !strncmp(p, "--", 2))
			return;
		if (n > 8 && !strncmp(p, "preempt=", 8)) {
			enum sl_host_preempt m = model_named(p + 8, n - 8);
			/* setup_preempt_mode() ignores a mode it does not know */
			if (m != SL_HOST_PREEMPT_UNKNOWN)
				k->boot_model = m;
		}
		if (n == 8 && !strncmp(p, "nohz=off", 8))
			k->boot_nohz_off = true;
		p += n;
	}
}

void sl_kconfig_parse_debugfs_preempt(struct sl_kconfig *k, const char *text)
{
	const char *open = strchr(text, '('), *close = open ? strchr(open, ')') : NULL;

	if (close)
		k->runtime_model = model_named(open + 1, (size_t)(close - open - 1));
}

void sl_kconfig_parse_config(struct sl_kconfig *k, char *text)
{
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		sl_kconfig_parse_config_line(k, line);
		line = nl ? nl + 1 : NULL;
	}
}

/* A .config, gzip'd (/proc/config.gz) or plain (/boot: zlib reads a file
 * that is not gzip'd as it is), a line at a time, up to KCONFIG_MAX_BYTES
 * of text; whether one was read. */
static bool read_config(struct sl_kconfig *k, const char *path)
{
	gzFile f = gzopen(path, "rb");
	char line[KCONFIG_LINE];
	size_t total = 0;

	if (!f)
		return false;
	while (total < KCONFIG_MAX_BYTES && gzgets(f, line, sizeof(line))) {
		total += strlen(line) + 1;
		sl_kconfig_parse_config_line(k, line);
	}
	gzclose(f);
	if (k->config_read)
		snprintf(k->config_path, sizeof(k->config_path), "%s", path);
	return k->config_read;
}

/* A /proc or debugfs file's text to `parse`, if it can be read. */
static void read_small(struct sl_kconfig *k, const char *path,
		       void (*parse)(struct sl_kconfig *, const char *))
{
	struct sl_file_text t;

	if (sl_read_file(path, KCONFIG_SMALL_BYTES, &t) != SL_READ_OK)
		return;
	parse(k, t.text);
	free(t.text);
}

void sl_kconfig_read_host(struct sl_kconfig *k)
{
	char path[sizeof(k->config_path)];
	struct utsname u;

	*k = (struct sl_kconfig){ .nohz = SL_KC_UNKNOWN };
	if (!read_config(k, "/proc/config.gz") && uname(&u) == 0 &&
	    snprintf(path, sizeof(path), "/boot/config-%s", u.release) < (int)sizeof(path))
		read_config(k, path);
	read_small(k, "/proc/cmdline", sl_kconfig_parse_cmdline);
	read_small(k, "/sys/kernel/debug/sched/preempt", sl_kconfig_parse_debugfs_preempt);
}

enum sl_host_preempt sl_kconfig_model(const struct sl_kconfig *k, enum sl_kconfig_source *source)
{
	enum sl_kconfig_source dummy;

	if (!source)
		source = &dummy;
	*source = SL_KC_FROM_DEBUGFS;
	if (k->runtime_model != SL_HOST_PREEMPT_UNKNOWN)
		return k->runtime_model;
	/* preempt= means something only to a PREEMPT_DYNAMIC kernel; without
	 * a .config to say so, a kernel that took it is one */
	*source = SL_KC_FROM_BOOT;
	if (k->boot_model != SL_HOST_PREEMPT_UNKNOWN && (k->dynamic || !k->config_read))
		return k->boot_model;
	*source = SL_KC_FROM_CONFIG;
	if (k->config_read && k->config_model != SL_HOST_PREEMPT_UNKNOWN)
		return k->config_model;
	*source = SL_KC_FROM_NOTHING;
	return SL_HOST_PREEMPT_UNKNOWN;
}

/* Where the model was read, in words. */
static void source_text(const struct sl_kconfig *k, enum sl_kconfig_source source, char *buf,
			size_t size)
{
	static const char *const option[] = {
		[SL_HOST_PREEMPT_NONE] = "CONFIG_PREEMPT_NONE",
		[SL_HOST_PREEMPT_VOLUNTARY] = "CONFIG_PREEMPT_VOLUNTARY",
		[SL_HOST_PREEMPT_FULL] = "CONFIG_PREEMPT or PREEMPT_RT",
		[SL_HOST_PREEMPT_LAZY] = "CONFIG_PREEMPT_LAZY",
	};

	if (source == SL_KC_FROM_DEBUGFS)
		snprintf(buf, size, "/sys/kernel/debug/sched/preempt");
	else if (source == SL_KC_FROM_BOOT)
		snprintf(buf, size, "preempt= at boot");
	else if (source == SL_KC_FROM_CONFIG)
		snprintf(buf, size, "%s%s", option[k->config_model], k->dynamic
			 ? ", which PREEMPT_DYNAMIC boots with: no preempt= at boot" : "");
	else
		snprintf(buf, size, "nothing read");
}

/* Append ",TEXT" (or TEXT to an empty buffer). */
static void add_knob(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf);

	if (len < size)
		snprintf(buf + len, size - len, "%s%s", len ? "," : "", text);
}

void sl_kconfig_cfs_knobs(const struct sl_kconfig *k, char *knobs, size_t knobs_size,
			  char *said, size_t said_size)
{
	char kb[128] = "", text[512], hz[32], from[128];
	enum sl_kconfig_source source;
	enum sl_host_preempt m = sl_kconfig_model(k, &source);

	if (m != SL_HOST_PREEMPT_UNKNOWN)
		/* cfs's model knows at once (full) or at the return to user
		 * space (none); voluntary adds preemption points where a call
		 * begins (might_sleep), and lazy waits for the tick or the
		 * return to user space: both nearer none (cfs.md, preempt) */
		add_knob(kb, sizeof(kb), m == SL_HOST_PREEMPT_FULL ? "preempt=full" : "preempt=none");
	if (k->config_read)
		add_knob(kb, sizeof(kb), k->preemption ? "preemption=on" : "preemption=off");
	/* cfs's hz knob takes 100..1000, every value the kernel offers */
	bool hz_ok = k->hz >= 100 && k->hz <= 1000;
	if (hz_ok) {
		snprintf(hz, sizeof(hz), "hz=%d", k->hz);
		add_knob(kb, sizeof(kb), hz);
	}
	enum sl_kconfig_tristate nohz = k->boot_nohz_off ? SL_KC_NO : k->nohz;
	if (nohz != SL_KC_UNKNOWN)
		add_knob(kb, sizeof(kb), nohz == SL_KC_YES ? "nohz=on" : "nohz=off");
	if (knobs)
		snprintf(knobs, knobs_size, "%s", kb);
	if (!said)
		return;
	if (!k->config_read && m == SL_HOST_PREEMPT_UNKNOWN) {
		snprintf(said, said_size, "host kernel: configuration not readable (no /proc/config.gz, "
			 "/boot/config-RELEASE or preempt=): cfs's defaults");
		return;
	}
	source_text(k, source, from, sizeof(from));
	snprintf(text, sizeof(text), "host kernel: preemption %s (%s)%s", sl_host_preempt_name(m),
		 from, m == SL_HOST_PREEMPT_VOLUNTARY || m == SL_HOST_PREEMPT_LAZY
		 ? "; simulated as none, the model's nearest" : "");
	if (k->config_read) {
		if (hz_ok)
			snprintf(hz, sizeof(hz), "%d", k->hz);
		else
			snprintf(hz, sizeof(hz), "not in cfs's range");
		snprintf(text + strlen(text), sizeof(text) - strlen(text), ", HZ %s, NO_HZ %s (%s)",
			 hz, nohz == SL_KC_YES ? "idle" : nohz == SL_KC_NO ? "off" : "unknown",
			 k->config_path);
	}
	snprintf(said, said_size, "%s", text);
}
