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

static enum sl_host_preempt model_named(const char *s, size_t n)
{
	static const struct { const char *name; enum sl_host_preempt m; } names[] = {
		{ "none", SL_HOST_PREEMPT_NONE }, { "voluntary", SL_HOST_PREEMPT_VOLUNTARY },
		{ "full", SL_HOST_PREEMPT_FULL }, { "lazy", SL_HOST_PREEMPT_LAZY },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == n && !strncmp(s, names[i].name, n))
			return names[i].m;
	return SL_HOST_PREEMPT_UNKNOWN;
}

const char *sl_host_preempt_name(enum sl_host_preempt m)
{
	switch (m) {
	case SL_HOST_PREEMPT_NONE: return "none";
	case SL_HOST_PREEMPT_VOLUNTARY: return "voluntary";
	case SL_HOST_PREEMPT_FULL: return "full";
	case SL_HOST_PREEMPT_LAZY: return "lazy";
	case SL_HOST_PREEMPT_UNKNOWN: break;
	}
	return "unknown";
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

/* Feed each line of a .config's text to the parser. */
static void parse_config_text(struct sl_kconfig *k, char *text)
{
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		sl_kconfig_parse_config_line(k, line);
		line = nl ? nl + 1 : NULL;
	}
}

/* /proc/config.gz, whose lines zlib gives back one at a time, up to
 * KCONFIG_MAX_BYTES of text. */
static bool read_config_gz(struct sl_kconfig *k, const char *path)
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
	return k->config_read;
}

static bool read_config_plain(struct sl_kconfig *k, const char *path)
{
	struct sl_file_text t;

	if (sl_read_file(path, KCONFIG_MAX_BYTES, &t) != SL_READ_OK)
		return false;
	parse_config_text(k, t.text);
	free(t.text);
	return k->config_read;
}

/* A small file's first size - 1 bytes (a /proc or debugfs one). */
static bool read_small(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	size_t n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = 0;
	return n > 0;
}

void sl_kconfig_read_host(struct sl_kconfig *k)
{
	char buf[4096], path[sizeof(k->config_path)];
	struct utsname u;

	*k = (struct sl_kconfig){ .nohz = SL_KC_UNKNOWN };
	if (read_config_gz(k, "/proc/config.gz"))
		snprintf(k->config_path, sizeof(k->config_path), "/proc/config.gz");
	else if (uname(&u) == 0 &&
		 snprintf(path, sizeof(path), "/boot/config-%s", u.release) < (int)sizeof(path) &&
		 read_config_plain(k, path))
		snprintf(k->config_path, sizeof(k->config_path), "%s", path);
	if (read_small("/proc/cmdline", buf, sizeof(buf)))
		sl_kconfig_parse_cmdline(k, buf);
	if (read_small("/sys/kernel/debug/sched/preempt", buf, sizeof(buf)))
		sl_kconfig_parse_debugfs_preempt(k, buf);
}

enum sl_host_preempt sl_kconfig_model(const struct sl_kconfig *k, const char **source)
{
	const char *dummy;

	if (!source)
		source = &dummy;
	if (k->runtime_model != SL_HOST_PREEMPT_UNKNOWN) {
		*source = "/sys/kernel/debug/sched/preempt";
		return k->runtime_model;
	}
	/* preempt= means something only to a PREEMPT_DYNAMIC kernel; without
	 * a .config to say so, a kernel that took it is one */
	if (k->boot_model != SL_HOST_PREEMPT_UNKNOWN && (k->dynamic || !k->config_read)) {
		*source = "preempt= at boot";
		return k->boot_model;
	}
	if (k->config_read && k->config_model != SL_HOST_PREEMPT_UNKNOWN) {
		static const char *const dynamic_default[] = {
			[SL_HOST_PREEMPT_NONE] = "CONFIG_PREEMPT_NONE, which PREEMPT_DYNAMIC boots "
						 "with: no preempt= at boot",
			[SL_HOST_PREEMPT_VOLUNTARY] = "CONFIG_PREEMPT_VOLUNTARY, which PREEMPT_DYNAMIC "
						      "boots with: no preempt= at boot",
			[SL_HOST_PREEMPT_FULL] = "CONFIG_PREEMPT, which PREEMPT_DYNAMIC boots with: "
						 "no preempt= at boot",
			[SL_HOST_PREEMPT_LAZY] = "CONFIG_PREEMPT_LAZY, which PREEMPT_DYNAMIC boots "
						 "with: no preempt= at boot",
		}, *const built[] = {
			[SL_HOST_PREEMPT_NONE] = "CONFIG_PREEMPT_NONE",
			[SL_HOST_PREEMPT_VOLUNTARY] = "CONFIG_PREEMPT_VOLUNTARY",
			[SL_HOST_PREEMPT_FULL] = "CONFIG_PREEMPT or PREEMPT_RT",
			[SL_HOST_PREEMPT_LAZY] = "CONFIG_PREEMPT_LAZY",
		};
		*source = (k->dynamic ? dynamic_default : built)[k->config_model];
		return k->config_model;
	}
	*source = "nothing read";
	return SL_HOST_PREEMPT_UNKNOWN;
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
	char kb[128] = "", text[512], hz[32];
	const char *source;
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
	snprintf(text, sizeof(text), "host kernel: preemption %s (%s)%s", sl_host_preempt_name(m),
		 source, m == SL_HOST_PREEMPT_VOLUNTARY || m == SL_HOST_PREEMPT_LAZY
		 ? "; simulated as none, the model's nearest" : "");
	if (k->config_read)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), ", HZ %s, NO_HZ %s (%s)",
			 hz_ok ? hz + 3 : "not in cfs's range", nohz == SL_KC_YES ? "idle"
			 : nohz == SL_KC_NO ? "off" : "unknown", k->config_path);
	snprintf(said, said_size, "%s", text);
}
