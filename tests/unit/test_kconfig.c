/*
 * test_kconfig.c - real/kconfig.h: the host kernel's preemption model, HZ
 * and NO_HZ read from its .config, command line and debugfs, in the
 * kernel's order of authority, and the cfs knobs that say them.
 */
#include <stdio.h>
#include <string.h>

#include "policy/policy.h"
#include "real/kconfig.h"
#include "test.h"

static struct sl_kconfig config_of(const char *const *lines)
{
	struct sl_kconfig k = { .nohz = SL_KC_UNKNOWN };
	char text[2048] = "";

	for (; *lines; lines++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s\n", *lines);
	sl_kconfig_parse_config(&k, text);
	return k;
}

/* The knobs for k, checked to bind as cfs's. */
static void knobs_of(const struct sl_kconfig *k, char *knobs, size_t size, char *said,
		     size_t said_size)
{
	char spec[192], label[192];
	const struct sl_policy_ops *ops;
	struct sl_params params;
	struct sl_err err = { 0 };

	sl_kconfig_cfs_knobs(k, knobs, size, said, said_size);
	snprintf(spec, sizeof(spec), "cfs%s%s", knobs[0] ? ":" : "", knobs);
	CHECKF(sl_policy_parse(spec, &ops, &params, label, sizeof(label), &err) == 0,
	       "%s: %s", spec, err.msg);
}

/* This host's kind: Debian-like PREEMPT_DYNAMIC built with the NONE
 * default, HZ 250, NO_HZ_IDLE. */
static const char *const dynamic_none[] = {
	"#", "# Automatically generated file; DO NOT EDIT.",
	"CONFIG_NO_HZ_COMMON=y", "# CONFIG_HZ_PERIODIC is not set", "CONFIG_NO_HZ_IDLE=y",
	"CONFIG_PREEMPT_BUILD=y", "CONFIG_PREEMPT_NONE=y", "# CONFIG_PREEMPT_VOLUNTARY is not set",
	"# CONFIG_PREEMPT is not set", "CONFIG_PREEMPT_COUNT=y", "CONFIG_PREEMPTION=y",
	"CONFIG_PREEMPT_DYNAMIC=y", "CONFIG_HZ_250=y", "CONFIG_HZ=250", NULL,
};

SL_TEST(kconfig_dynamic_kernel_boots_with_its_build_choice)
{
	struct sl_kconfig k = config_of(dynamic_none);
	char knobs[128], said[512];
	enum sl_kconfig_source source;

	CHECK(k.config_read && k.dynamic && k.preemption && k.hz == 250 && k.nohz == SL_KC_YES);
	CHECK(sl_kconfig_model(&k, &source) == SL_HOST_PREEMPT_NONE);
	CHECK(source == SL_KC_FROM_CONFIG);
	knobs_of(&k, knobs, sizeof(knobs), said, sizeof(said));
	CHECKF(!strcmp(knobs, "preempt=none,preemption=on,hz=250,nohz=on"), "%s", knobs);
	CHECKF(strstr(said, "preemption none (CONFIG_PREEMPT_NONE, which PREEMPT_DYNAMIC boots") &&
	       strstr(said, "HZ 250"), "%s", said);
}

SL_TEST(kconfig_boot_parameter_counts_only_on_a_dynamic_kernel)
{
	struct sl_kconfig k = config_of(dynamic_none);
	char knobs[128];

	/* setup_preempt_mode(): a known mode replaces the build's */
	sl_kconfig_parse_cmdline(&k, "BOOT_IMAGE=/vmlinuz root=/dev/vda preempt=full quiet\n");
	CHECK(sl_kconfig_model(&k, NULL) == SL_HOST_PREEMPT_FULL);
	sl_kconfig_cfs_knobs(&k, knobs, sizeof(knobs), NULL, 0);
	CHECKF(!strncmp(knobs, "preempt=full,", 13), "%s", knobs);

	/* an unknown one is ignored with a warning, the earlier stands */
	sl_kconfig_parse_cmdline(&k, "preempt=fastest");
	CHECK(sl_kconfig_model(&k, NULL) == SL_HOST_PREEMPT_FULL);

	/* what follows "--" is init's */
	struct sl_kconfig k2 = config_of(dynamic_none);
	sl_kconfig_parse_cmdline(&k2, "quiet -- preempt=full nohz=off");
	CHECK(sl_kconfig_model(&k2, NULL) == SL_HOST_PREEMPT_NONE);
	CHECK(!k2.boot_nohz_off);

	/* a kernel without PREEMPT_DYNAMIC has no preempt= parameter */
	static const char *const voluntary[] = { "CONFIG_PREEMPT_VOLUNTARY=y", "CONFIG_HZ=1000",
						 NULL };
	struct sl_kconfig k3 = config_of(voluntary);
	sl_kconfig_parse_cmdline(&k3, "preempt=full nohz=off");
	CHECK(sl_kconfig_model(&k3, NULL) == SL_HOST_PREEMPT_VOLUNTARY);
	char said[512];
	knobs_of(&k3, knobs, sizeof(knobs), said, sizeof(said));
	/* voluntary runs as the model's none; no CONFIG_PREEMPTION; nohz=off
	 * at boot turns NO_HZ off whatever the build */
	CHECKF(!strcmp(knobs, "preempt=none,preemption=off,hz=1000,nohz=off"), "%s", knobs);
	CHECKF(strstr(said, "simulated as none") != NULL, "%s", said);
}

SL_TEST(kconfig_debugfs_mode_wins)
{
	struct sl_kconfig k = config_of(dynamic_none);
	enum sl_kconfig_source source;

	sl_kconfig_parse_cmdline(&k, "preempt=voluntary");
	/* sched_dynamic_show(): the current mode in parentheses */
	sl_kconfig_parse_debugfs_preempt(&k, "none voluntary (full) \n");
	CHECK(sl_kconfig_model(&k, &source) == SL_HOST_PREEMPT_FULL);
	CHECK(source == SL_KC_FROM_DEBUGFS);
	struct sl_kconfig k2 = { .nohz = SL_KC_UNKNOWN };
	sl_kconfig_parse_debugfs_preempt(&k2, "none (voluntary full");
	CHECK(sl_kconfig_model(&k2, NULL) == SL_HOST_PREEMPT_UNKNOWN);
}

SL_TEST(kconfig_unreadable_or_odd_values_leave_cfs_defaults)
{
	struct sl_kconfig k = { .nohz = SL_KC_UNKNOWN };
	char knobs[128], said[512];

	knobs_of(&k, knobs, sizeof(knobs), said, sizeof(said));
	CHECKF(knobs[0] == 0, "%s", knobs);
	CHECKF(strstr(said, "not readable") != NULL, "%s", said);

	/* a HZ cfs cannot take, or no number at all, gives no hz knob */
	static const char *const odd[] = { "CONFIG_HZ=24", "CONFIG_PREEMPT=y",
					   "CONFIG_HZ_PERIODIC=y", NULL };
	k = config_of(odd);
	knobs_of(&k, knobs, sizeof(knobs), said, sizeof(said));
	CHECKF(!strcmp(knobs, "preempt=full,preemption=off,nohz=off"), "%s", knobs);
	static const char *const junk[] = { "CONFIG_HZ=250x", "CONFIG_HZ=", "CONFIG_PREEMPT_NONE=m",
					    "CONFIG_PREEMPT_DYNAMICS=y", NULL };
	k = config_of(junk);
	CHECK(k.hz == 0 && !k.dynamic && sl_kconfig_model(&k, NULL) == SL_HOST_PREEMPT_UNKNOWN);
}
