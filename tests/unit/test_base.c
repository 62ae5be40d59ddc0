/*
 * test_base.c - base/: spec parsing and binding, PRNG streams, cpumasks.
 */
#include <math.h>
#include <string.h>

#include "base/cpumask.h"
#include "base/rng.h"
#include "base/spec.h"
#include "test.h"

static const struct sl_param_def defs[] = {
	{ .name = "jobs", .type = SL_PARAM_INT, .def = "2", .min = 0, .max = 100, .doc = "jobs" },
	{ .name = "size", .type = SL_PARAM_REAL, .def = "1.5", .min = 0.1, .max = 10, .doc = "size" },
	{ .name = "mode", .type = SL_PARAM_CHOICE, .def = "a", .choices = "a|bb|c", .doc = "mode" },
	{ .name = "file", .type = SL_PARAM_STRING, .def = NULL, .doc = "file" },
	{ 0 },
};

static int bind(const char *text, struct sl_params *p, struct sl_err *err)
{
	struct sl_spec spec;
	if (sl_spec_parse(&spec, text, "thing", err))
		return -1;
	return sl_spec_bind(p, &spec, defs, NULL, "thing", err);
}

SL_TEST(base_spec_defaults_and_values)
{
	struct sl_params p;
	struct sl_err err = { 0 };
	CHECK(bind("x", &p, &err) == 0);
	CHECK(sl_param_int(&p, "jobs") == 2);
	CHECK(sl_param_real(&p, "size") == 1.5);
	CHECK(sl_param_choice(&p, "mode") == 0);
	CHECK(sl_param_str(&p, "file") == NULL);
	CHECK(!sl_param_given(&p, "jobs"));
	CHECK(bind("x:jobs=7,mode=c,file=/tmp/a", &p, &err) == 0);
	CHECK(sl_param_int(&p, "jobs") == 7);
	CHECK(sl_param_given(&p, "jobs"));
	CHECK(sl_param_choice(&p, "mode") == 2);
	CHECK(!strcmp(sl_param_str(&p, "file"), "/tmp/a"));
}

SL_TEST(base_spec_rejects_bad_input)
{
	static const char *bad[] = {
		"x:jobs=abc", "x:jobs=-1", "x:jobs=101", "x:jobs=2.5", "x:size=0",
		"x:size=1e999", "x:mode=b", "x:nope=1", "x:jobs", "x:", ":jobs=1",
		"x:jobs=1,", "x:jobs=1,jobs=2", "x:jobs=", "x:=3",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sl_params p;
		struct sl_err err = { 0 };
		CHECKF(bind(bad[i], &p, &err) == -1 && err.kind == SL_ERR_INPUT && err.msg[0],
		       "'%s' was accepted", bad[i]);
		CHECKF(!strchr(err.msg, '\n'), "multi-line message for '%s'", bad[i]);
	}
}

/* Messages quote user text (keys, names); control characters in it are
 * escaped so that a message is always one line. */
SL_TEST(base_err_messages_are_one_line)
{
	struct sl_err err = { 0 };

	CHECK(sl_fail(&err, "f:%d: key '%s'", 3, "a\nb\tc\x01" "d\x7f") == -1);
	CHECK(err.kind == SL_ERR_INPUT);
	CHECKF(!strcmp(err.msg, "f:3: key 'a\\nb\\tc\\x01d\\x7f'"), "got %s", err.msg);
	sl_err_prefix(&err, "%s: ", "w\r");
	CHECKF(!strcmp(err.msg, "w\\r: f:3: key 'a\\nb\\tc\\x01d\\x7f'"), "got %s", err.msg);
	CHECK(sl_fail_internal(&err, "%s", "x\ny") == -1);
	CHECK(err.kind == SL_ERR_INTERNAL && !strcmp(err.msg, "x\\ny"));
}

SL_TEST(base_rng_streams_are_independent_and_repeatable)
{
	struct sl_rng a, b, c;
	sl_rng_derive(&a, 42, 1, 7);
	sl_rng_derive(&b, 42, 1, 7);
	sl_rng_derive(&c, 42, 1, 8);
	uint64_t xa = sl_rng_next(&a), xb = sl_rng_next(&b), xc = sl_rng_next(&c);
	CHECK(xa == xb);
	CHECK(xa != xc);
	double sum = 0;
	for (int i = 0; i < 10000; i++) {
		double u = sl_rng_uniform(&a);
		CHECK(u >= 0 && u < 1);
		sum += u;
	}
	CHECK(sum / 10000 > 0.48 && sum / 10000 < 0.52);
	double med[2001];
	for (int i = 0; i < 2001; i++)
		med[i] = sl_rng_lognormal(&b, 3.0, 0.5);
	int below = 0;
	for (int i = 0; i < 2001; i++)
		below += med[i] < 3.0;
	CHECK(below > 900 && below < 1100);
}

SL_TEST(base_rng_vary_keeps_the_mean)
{
	struct sl_rng a, b;
	sl_rng_derive(&a, 7, 2, 3);
	sl_rng_derive(&b, 7, 2, 3);
	/* no spread, or nothing to vary: the value itself, and no draw */
	CHECK(sl_rng_vary(&a, 5.0, 0) == 5.0 && sl_rng_vary(&a, 0, 0.3) == 0);
	CHECK(sl_rng_next(&a) == sl_rng_next(&b));
	double sum = 0;
	for (int i = 0; i < 20000; i++)
		sum += sl_rng_vary(&a, 10.0, 0.5);
	CHECKF(fabs(sum / 20000 - 10.0) < 0.15, "mean %g", sum / 20000);
}

SL_TEST(base_cpumask_ops)
{
	sl_cpumask m;
	sl_cpumask_clear(&m);
	CHECK(sl_cpumask_empty(&m));
	sl_cpumask_set(&m, 3);
	sl_cpumask_set(&m, 64);
	sl_cpumask_set(&m, 255);
	CHECK(sl_cpumask_weight(&m) == 3);
	CHECK(sl_cpumask_first(&m) == 3);
	CHECK(sl_cpumask_next(&m, 4) == 64);
	CHECK(sl_cpumask_next(&m, 65) == 255);
	int seen = 0;
	sl_for_each_cpu(cpu, &m)
		seen += cpu;
	CHECK(seen == 3 + 64 + 255);
	sl_cpumask_unset(&m, 64);
	CHECK(!sl_cpumask_test(&m, 64));
	sl_cpumask f = sl_cpumask_first_n(4);
	sl_cpumask both = sl_cpumask_and(f, &m);
	CHECK(sl_cpumask_weight(&both) == 1 && sl_cpumask_test(&both, 3));
}
