/*
 * trace/chrome.c - Chrome trace-event JSON output (see trace/chrome.h).
 *
 * Every event after the header's metadata begins with ",\n", so the array
 * stays valid however the run ends.  Strings are escaped here (task names
 * come from workload files and imported traces); nothing is allocated.
 */
#include "trace/chrome.h"

#include <inttypes.h>

/* Write s as a JSON string. */
static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else if (*p >= 0x80)
			fputc('?', out);	/* comms are ASCII; never emit invalid UTF-8 */
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

/* ns as microseconds with nanosecond decimals. */
static void put_us(FILE *out, sl_time ns)
{
	if (ns < 0)
		ns = 0;
	fprintf(out, "%" PRId64 ".%03" PRId64, (int64_t)(ns / 1000), (int64_t)(ns % 1000));
}

void sl_chrome_header(FILE *out, const struct sl_machine *m, const char *title)
{
	const struct sl_topo *t = &m->topo;

	fprintf(out, "{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"generator\":\"schedlab\","
		"\"machine\":");
	put_string(out, m->name);
	fputs(",\"summary\":", out);
	put_string(out, m->summary);
	fputs(",\"title\":", out);
	put_string(out, title);
	fputs("},\n\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
	      "\"args\":{\"name\":", out);
	put_string(out, m->name);
	fputs("}}", out);
	for (int c = 0; c < t->ncpus; c++) {
		char name[128], llc[32] = "";
		if (sl_topo_llcs_split_packages(t))
			snprintf(llc, sizeof(llc), ", LLC %d", t->cpu_llc[c]);
		snprintf(name, sizeof(name), "CPU %d (core %d%s, package %d, node %d)", c,
			 t->cpu_core[c], llc, t->cpu_package[c], t->cpu_node[c]);
		fprintf(out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
			"\"args\":{\"name\":", c);
		put_string(out, name);
		fprintf(out, "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
			"\"args\":{\"sort_index\":%d}}", c, c);
	}
}

void sl_chrome_slice(FILE *out, int cpu, const char *comm, int pid, sl_time start, sl_time end)
{
	fputs(",\n{\"name\":", out);
	put_string(out, comm);
	fputs(",\"cat\":\"run\",\"ph\":\"X\",\"ts\":", out);
	put_us(out, start);
	fputs(",\"dur\":", out);
	put_us(out, end - start);
	fprintf(out, ",\"pid\":1,\"tid\":%d,\"args\":{\"pid\":%d}}", cpu, pid);
}

void sl_chrome_instant(FILE *out, int cpu, sl_time ts, const char *name, const char *ctx_comm,
		       int ctx_pid, const char *detail)
{
	fputs(",\n{\"name\":", out);
	put_string(out, name);
	fputs(",\"cat\":\"sched\",\"ph\":\"i\",\"s\":\"t\",\"ts\":", out);
	put_us(out, ts);
	fprintf(out, ",\"pid\":1,\"tid\":%d,\"args\":{\"ctx\":", cpu);
	put_string(out, ctx_comm);
	fprintf(out, ",\"ctx_pid\":%d,\"detail\":", ctx_pid);
	put_string(out, detail);
	fputs("}}", out);
}

void sl_chrome_footer(FILE *out, sl_time end)
{
	fputs("\n],\n\"schedlab_end_us\":", out);
	put_us(out, end);
	fputs("}\n", out);
}
