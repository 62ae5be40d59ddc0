/*
 * test_base.c - base/: spec parsing and binding, PRNG streams, cpumasks,
 * the intrusive list.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpumask.h"
#include "base/dlist.h"
#include "base/pidmap.h"
#include "base/rng.h"
#include "base/rng_zig.h"
#include "base/spec.h"
#include "base/strmap.h"
#include "test.h"

static const struct sl_param_def defs[] = {
	{ .name = "jobs", .type = SL_PARAM_INT, .def = "2", .min = 0, .max = 100, .doc = "jobs" },
	{ .name = "size", .type = SL_PARAM_REAL, .def = "1.5", .min = 0.1, .max = 10, .doc = "size" },
	{ .name = "mode", .type = SL_PARAM_CHOICE, .def = "a", .choices = "a|bb|c", .doc = "mode" },
	{ .name = "file", .type = SL_PARAM_STRING, .def = NULL, .doc = "file" },
	{ .name = "tweak", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "on|off", .doc = "tweak" },
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
	CHECK(sl_param_int_or(&p, "jobs", 5) == 5);	/* not given: the caller's */
	CHECK(bind("x:jobs=7,mode=c,file=/tmp/a", &p, &err) == 0);
	CHECK(sl_param_int(&p, "jobs") == 7);
	CHECK(sl_param_given(&p, "jobs"));
	CHECK(sl_param_int_or(&p, "jobs", 5) == 7);
	CHECK(sl_param_choice(&p, "mode") == 2);
	CHECK(!strcmp(sl_param_str(&p, "file"), "/tmp/a"));
}

/* A knob whose default is derived (the version's, the machine's): the
 * caller's default until the user gives one, and then the user's. */
SL_TEST(base_spec_user_choice_else_derived_default)
{
	struct sl_params p;
	struct sl_err err = { 0 };
	CHECK(bind("x", &p, &err) == 0);
	CHECK(!sl_param_user_gave(&p, "tweak"));
	CHECK(sl_param_user_choice(&p, "tweak", 1) == 1);
	CHECK(sl_param_user_on(&p, "tweak", true));
	CHECK(!sl_param_user_on(&p, "tweak", false));
	CHECK(bind("x:tweak=off", &p, &err) == 0);
	CHECK(sl_param_user_gave(&p, "tweak"));
	CHECK(sl_param_user_choice(&p, "tweak", 0) == 1);
	CHECK(!sl_param_user_on(&p, "tweak", true));
	CHECK(bind("x:tweak=on", &p, &err) == 0);
	CHECK(sl_param_user_on(&p, "tweak", false));
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

/* A message quoting more of the user's input than the record holds keeps
 * its head and its tail, where it says what is wrong; escapes count. */
SL_TEST(base_err_long_messages_keep_head_and_reason)
{
	struct sl_err err = { 0 };
	size_t n = 100000;
	char *input = malloc(n + 1);

	CHECK(input != NULL);
	if (!input)
		return;
	memset(input, 'a', n);
	input[n] = 0;
	input[n - 1] = '\n';	/* escaped to two characters near the end */
	sl_fail(&err, "workload 'spin:seconds=%s': not a number", input);
	size_t len = strlen(err.msg);
	CHECKF(len == sizeof(err.msg) - 1, "length %zu", len);
	CHECKF(!strncmp(err.msg, "workload 'spin:seconds=aaa", 26), "got %.40s", err.msg);
	CHECK(strstr(err.msg, "a ... a") != NULL);
	const char *tail = "a\\n': not a number";
	CHECKF(!strcmp(err.msg + len - strlen(tail), tail), "got %s", err.msg + len - 20);
	/* a prefix keeps the reason too */
	sl_fail(&err, "%.*s: too long", 480, input);
	sl_err_prefix(&err, "policy '%s': ", "o1");
	len = strlen(err.msg);
	CHECK(!strncmp(err.msg, "policy 'o1': aaa", 16));
	CHECKF(!strcmp(err.msg + len - 10, ": too long"), "got %s", err.msg);
	free(input);
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

/* The ziggurat's tables (scripts/zig-tables.py): every layer has the
 * same area V, the base layer's rectangle plus the tail beyond R too. */
SL_TEST(base_rng_zig_layers_have_equal_areas)
{
	double tail = sqrt(M_PI / 2) * erfc(ZIG_R / sqrt(2));

	CHECK(zig_x[1] == ZIG_R && zig_x[ZIG_LAYERS] == 0);
	CHECKF(fabs(ZIG_R * exp(-ZIG_R * ZIG_R / 2) + tail - ZIG_V) < 1e-9 * ZIG_V,
	       "base layer %.12g", ZIG_R * exp(-ZIG_R * ZIG_R / 2) + tail);
	CHECKF(fabs(zig_x[0] * exp(-ZIG_R * ZIG_R / 2) - ZIG_V) < 1e-12, "x[0] %.12g", zig_x[0]);
	for (int i = 1; i < ZIG_LAYERS; i++) {
		double area = zig_x[i] * (exp(-zig_x[i + 1] * zig_x[i + 1] / 2) -
					  exp(-zig_x[i] * zig_x[i] / 2));
		CHECKF(fabs(area - ZIG_V) < 1e-9, "layer %d: area %.12g", i, area);
		CHECK(zig_r[i] == zig_x[i + 1] / zig_x[i]);
	}
}

/* sl_rng_normal against the normal law: 2 M draws binned by 0.1 over
 * [-4, 4] plus the two tails beyond, chi-square with 81 degrees of
 * freedom (mean 81, sd 12.7; 140 is p ~ 1e-5), and the draws beyond the
 * ziggurat's R (the tail sampler's) counted on their own. */
SL_TEST(base_rng_normal_follows_the_normal_law)
{
	enum { N = 2000000, BINS = 82 };
	static long count[BINS];
	struct sl_rng r;
	long beyond_r = 0;
	double sum = 0, sum2 = 0;

	memset(count, 0, sizeof(count));
	sl_rng_derive(&r, 11, 4, 5);
	for (long k = 0; k < N; k++) {
		double z = sl_rng_normal(&r);
		int b = z < -4 ? 0 : z >= 4 ? BINS - 1 : 1 + (int)floor((z + 4) * 10);
		count[b]++;
		beyond_r += fabs(z) > ZIG_R;
		sum += z;
		sum2 += z * z;
	}
	double chi2 = 0;
	for (int b = 0; b < BINS; b++) {
		double lo = b == 0 ? -INFINITY : -4 + (b - 1) / 10.0;
		double hi = b == BINS - 1 ? INFINITY : -4 + b / 10.0;
		double p = (erfc(-hi / sqrt(2)) - erfc(-lo / sqrt(2))) / 2;
		double e = p * N;
		chi2 += (count[b] - e) * (count[b] - e) / e;
	}
	CHECKF(chi2 < 140, "chi-square %.1f over %d bins", chi2, BINS);
	CHECKF(fabs(sum / N) < 0.003 && fabs(sum2 / N - 1) < 0.004, "mean %g, variance %g",
	       sum / N, sum2 / N);
	/* P(|Z| > R) = 5.76e-4: 1152 of 2 M, sd 34 */
	double want = erfc(ZIG_R / sqrt(2)) * N;
	CHECKF(fabs(beyond_r - want) < 5 * sqrt(want), "%ld beyond R, expected %.0f", beyond_r,
	       want);
}

struct dl_item {
	int id;
	struct sl_dlink link;
};

/* The ids on l, head to tail, as a string ("" for an empty list), after
 * checking that the tail's walk back gives the same ones. */
static const char *dl_ids(const struct sl_dlist *l)
{
	static char buf[32];
	char back[32];
	int n = 0, m = 0;

	for (const struct sl_dlink *k = l->head; k && n < 30; k = k->next)
		buf[n++] = (char)('0' + sl_dlist_entry(k, struct dl_item, link)->id);
	buf[n] = 0;
	for (const struct sl_dlink *k = l->tail; k && m < 30; k = k->prev)
		back[m++] = (char)('0' + sl_dlist_entry(k, struct dl_item, link)->id);
	for (int i = 0; i < m; i++)
		if (m != n || back[i] != buf[n - 1 - i])
			return "broken";
	return m == n ? buf : "broken";
}

SL_TEST(base_dlist_keeps_order_both_ways)
{
	struct dl_item it[5] = { { .id = 0 }, { .id = 1 }, { .id = 2 }, { .id = 3 }, { .id = 4 } };
	struct sl_dlist l = { 0 };

	CHECK(sl_dlist_entry(l.head, struct dl_item, link) == NULL);
	CHECK(strcmp(dl_ids(&l), "") == 0);
	sl_dlist_push_back(&l, &it[1].link);
	sl_dlist_push_back(&l, &it[3].link);
	sl_dlist_push_front(&l, &it[0].link);
	sl_dlist_insert_after(&l, &it[1].link, &it[2].link);
	sl_dlist_insert_after(&l, &it[3].link, &it[4].link);
	CHECK(strcmp(dl_ids(&l), "01234") == 0);
	CHECK(sl_dlist_entry(l.tail, struct dl_item, link) == &it[4]);
	sl_dlist_del(&l, &it[2].link);		/* the middle */
	CHECK(it[2].link.prev == NULL && it[2].link.next == NULL);
	CHECK(strcmp(dl_ids(&l), "0134") == 0);
	sl_dlist_del(&l, &it[0].link);		/* the head */
	sl_dlist_del(&l, &it[4].link);		/* the tail */
	CHECK(strcmp(dl_ids(&l), "13") == 0);
	sl_dlist_del(&l, &it[3].link);
	sl_dlist_del(&l, &it[1].link);
	CHECK(l.head == NULL && l.tail == NULL);
}

/* sl_dlist_check: a whole list's length, -1 for a back link, a tail or a
 * length that is wrong. */
SL_TEST(base_dlist_check_finds_a_broken_list)
{
	struct dl_item it[3] = { { .id = 0 }, { .id = 1 }, { .id = 2 } };
	struct sl_dlist l = { 0 };

	CHECK(sl_dlist_check(&l, 0) == 0);
	for (int i = 0; i < 3; i++)
		sl_dlist_push_back(&l, &it[i].link);
	CHECK(sl_dlist_check(&l, 3) == 3);
	CHECK(sl_dlist_check(&l, 2) == -1);	/* longer than allowed */
	it[2].link.prev = &it[0].link;		/* a back link skips one */
	CHECK(sl_dlist_check(&l, 3) == -1);
	it[2].link.prev = &it[1].link;
	l.tail = &it[1].link;			/* the tail short of the end */
	CHECK(sl_dlist_check(&l, 3) == -1);
	l.tail = &it[2].link;
	CHECK(sl_dlist_check(&l, 3) == 3);
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
	/* the inline popcount against the compiler's, on every bit pattern's
	 * extremes and a walk of mixed words */
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	CHECK(sl_popcount64(0) == 0 && sl_popcount64(~0ULL) == 64 && sl_popcount64(1ULL << 63) == 1);
	for (int i = 0; i < 1000; i++, x = x * 6364136223846793005ULL + 1442695040888963407ULL)
		CHECK(sl_popcount64(x) == __builtin_popcountll(x));
	sl_cpumask all = sl_cpumask_first_n(SL_MAX_CPUS);
	CHECK(sl_cpumask_weight(&all) == SL_MAX_CPUS && !sl_cpumask_empty(&all));
	sl_cpumask_clear(&all);
	sl_cpumask_set(&all, SL_MAX_CPUS - 1);
	CHECK(!sl_cpumask_empty(&all));
}

/* The bounded walks stop at `end` and intersect as for_each_cpu_and. */
SL_TEST(base_cpumask_bounded_walks)
{
	sl_cpumask a, b;
	sl_cpumask_clear(&a);
	sl_cpumask_clear(&b);
	for (int c = 0; c < 200; c += 3)
		sl_cpumask_set(&a, c);
	for (int c = 0; c < 200; c += 2)
		sl_cpumask_set(&b, c);
	int n = 0, sum = 0;
	sl_for_each_cpu_and_in(cpu, &a, &b, 0, 130) {
		CHECK(cpu % 6 == 0 && cpu < 130);
		n++, sum += cpu;
	}
	CHECK(n == 22 && sum == 6 * (21 * 22 / 2));
	CHECK(sl_cpumask_next_in(&a, 64, 200) == 66);
	CHECK(sl_cpumask_next_in(&a, 199, 200) == -1 && sl_cpumask_next_in(&a, 198, 199) == 198);
	CHECK(sl_cpumask_next_in(&a, 190, 192) == -1);	/* 192 is set but not before end */
	CHECK(sl_cpumask_next_and_in(&a, &b, 7, 64) == 12);
	sl_cpumask_set(&a, SL_MAX_CPUS - 1);
	CHECK(sl_cpumask_next_in(&a, 200, SL_MAX_CPUS) == SL_MAX_CPUS - 1);
	CHECK(sl_cpumask_intersects(&a, &b));
	sl_cpumask one, none;
	sl_cpumask_clear(&one);
	sl_cpumask_clear(&none);
	CHECK(sl_cpumask_at_most_one(&none) && !sl_cpumask_intersects(&a, &none));
	sl_cpumask_set(&one, 700);
	CHECK(sl_cpumask_at_most_one(&one) && !sl_cpumask_intersects(&one, &b));
	sl_cpumask_set(&one, 5);
	CHECK(!sl_cpumask_at_most_one(&one));
}

/* Keys are byte ranges (prefixes differ, the empty key is a key); each
 * lookup compares bytes about once, however many keys there are. */
SL_TEST(base_strmap_finds_and_counts)
{
	static char names[100000][16];
	struct sl_strmap m = { 0 };
	int added, all_added = 1, none_added = 0, all_found = 1;

	for (int i = 0; i < 100000; i++) {
		snprintf(names[i], sizeof(names[i]), "k%d", i);
		*sl_strmap_put(&m, names[i], strlen(names[i]), &added) = i;
		all_added &= added;
	}
	CHECK(all_added && m.count == 100000);
	CHECK(m.compares < 100);	/* distinct keys: the hashes differ */
	for (int i = 0; i < 100000; i++) {
		int *v = sl_strmap_find(&m, names[i], strlen(names[i]));
		all_found &= v && *v == i;
		(void)sl_strmap_put(&m, names[i], strlen(names[i]), &added);
		none_added |= added;
	}
	CHECK(all_found && !none_added);
	CHECKF(m.compares <= 2 * 100000 + 100, "%lu", m.compares);
	CHECK(sl_strmap_find(&m, "k1", 1) == NULL);		/* "k", a prefix */
	CHECK(sl_strmap_find(&m, "k100000", 7) == NULL);
	CHECK(sl_strmap_find(&m, "", 0) == NULL);
	*sl_strmap_put(&m, "", 0, &added) = -1;
	CHECK(added && *sl_strmap_find(&m, "x", 0) == -1);
	sl_strmap_free(&m);
	CHECK(m.count == 0 && sl_strmap_find(&m, "k1", 2) == NULL);
}

/* One rule for every number: a plain decimal, '-' allowed, nothing around
 * it (strtol/strtod took " 5" and "+5" but not "5 "). */
SL_TEST(base_numbers_are_plain_decimals)
{
	long l = 42;
	double d = 42;

	CHECK(sl_parse_long("5", &l) == 0 && l == 5);
	CHECK(sl_parse_long("-5", &l) == 0 && l == -5);
	CHECK(sl_parse_long("007", &l) == 0 && l == 7);
	l = 42;
	CHECK(sl_parse_long(" 5", &l) == -1 && sl_parse_long("5 ", &l) == -1);
	CHECK(sl_parse_long("+5", &l) == -1 && sl_parse_long("\t5", &l) == -1);
	CHECK(sl_parse_long("- 5", &l) == -1 && sl_parse_long("--5", &l) == -1);
	CHECK(sl_parse_long("0x10", &l) == -1 && sl_parse_long("", &l) == -1);
	CHECK(sl_parse_long("-", &l) == -1 && sl_parse_long("99999999999999999999", &l) == -1);
	CHECK(l == 42);

	CHECK(sl_parse_double("1.5", &d) == 0 && d == 1.5);
	CHECK(sl_parse_double("-.5", &d) == 0 && d == -0.5);
	CHECK(sl_parse_double("1e-3", &d) == 0 && d == 1e-3);
	CHECK(sl_parse_double("2e+2", &d) == 0 && d == 200);
	CHECK(sl_parse_double("3.", &d) == 0 && d == 3);
	d = 42;
	CHECK(sl_parse_double(" 1.5", &d) == -1 && sl_parse_double("1.5 ", &d) == -1);
	CHECK(sl_parse_double("+1.5", &d) == -1 && sl_parse_double("\n1", &d) == -1);
	CHECK(sl_parse_double("0x1p4", &d) == -1 && sl_parse_double("inf", &d) == -1);
	CHECK(sl_parse_double("nan", &d) == -1 && sl_parse_double(".", &d) == -1);
	CHECK(sl_parse_double("-e1", &d) == -1 && sl_parse_double("1e999", &d) == -1);
	CHECK(d == 42);

	/* through a spec: "jobs= 7" is refused, not read as 7 */
	struct sl_params p;
	struct sl_err err = { 0 };
	CHECK(bind("x:jobs= 7", &p, &err) == -1 && strstr(err.msg, "' 7' is not an integer"));
	CHECK(bind("x:size=+2", &p, &err) == -1 && strstr(err.msg, "'+2' is not a number"));
}

/* Labels reach tables and JSON: printable UTF-8 only. */
SL_TEST(base_text_printable)
{
	CHECK(sl_text_printable("plain", 100) == 5);
	CHECK(sl_text_printable("caf\xc3\xa9 \xf0\x9f\x98\x80", 100) == 10);	/* é, U+1F600 */
	CHECK(sl_text_printable("a\x1b[31m", 100) == 1);	/* ESC */
	CHECK(sl_text_printable("a\x7f", 100) == 1);		/* DEL */
	CHECK(sl_text_printable("a\xc2\x85", 100) == 1);	/* C1 NEL */
	CHECK(sl_text_printable("a\xff", 100) == 1);
	CHECK(sl_text_printable("a\xc3", 100) == 1);		/* cut sequence */
	CHECK(sl_text_printable("a\xc0\xaf", 100) == 1);	/* overlong '/' */
	CHECK(sl_text_printable("a\xed\xa0\x80", 100) == 1);	/* surrogate */
	CHECK(sl_text_printable("a\xf4\x90\x80\x80", 100) == 1);	/* beyond U+10FFFF */
	/* a prefix ends on a character boundary */
	CHECK(sl_text_printable("ab\xc3\xa9", 3) == 2);
	CHECK(sl_text_printable("ab\xc3\xa9", 4) == 4);
}

SL_TEST(base_pidmap_finds_what_it_was_given)
{
	struct sl_pidmap m = { 0 };

	CHECK(sl_pidmap_get(&m, 5) == -1);	/* empty */
	for (int pid = 1; pid <= 5000; pid++)	/* past several growths */
		sl_pidmap_put(&m, pid * 7919, pid);
	sl_pidmap_put(&m, 7919, -5);		/* a value replaced */
	bool ok = true;
	for (int pid = 2; pid <= 5000; pid++)
		ok &= sl_pidmap_get(&m, pid * 7919) == pid;
	CHECK(ok);
	CHECK(sl_pidmap_get(&m, 7919) == -5 && m.n == 5000);
	CHECK(sl_pidmap_get(&m, 7918) == -1);
	sl_pidmap_free(&m);
	CHECK(m.cap == 0 && sl_pidmap_get(&m, 7919) == -1);
}
