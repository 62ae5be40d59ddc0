/*
 * json_stream.c - JSON written as it is produced, in json-c's pretty
 * layout (see json_stream.h).
 */
#include "trace/json_stream.h"

#include <inttypes.h>
#include <stdlib.h>

void sl_json_stream_init(struct sl_json_stream *s, FILE *f)
{
	s->f = f;
	s->depth = 0;
	s->any[0] = false;
}

/* As json-c's json_escape_str with JSON_C_TO_STRING_NOSLASHESCAPE. */
static void put_string(FILE *f, const char *v)
{
	static const char hex[] = "0123456789abcdef";

	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		switch (*p) {
		case '\b': fputs("\\b", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\f': fputs("\\f", f); break;
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		default:
			if (*p < ' ')
				fprintf(f, "\\u00%c%c", hex[*p >> 4], hex[*p & 0xf]);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void indent(FILE *f, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", f);
}

/* Before a value: the separator, the indent and the key. */
static void start(struct sl_json_stream *s, const char *key)
{
	if (s->depth > 0) {
		fputs(s->any[s->depth] ? ",\n" : "\n", s->f);
		s->any[s->depth] = true;
		indent(s->f, s->depth);
	}
	if (key) {
		put_string(s->f, key);
		fputs(": ", s->f);
	}
}

void sl_json_open(struct sl_json_stream *s, const char *key, char bracket)
{
	start(s, key);
	fputc(bracket, s->f);
	if (s->depth + 1 >= SL_JSON_STREAM_DEPTH)
		abort();	/* a caller's bug: its documents are shallower */
	s->any[++s->depth] = false;
}

void sl_json_close(struct sl_json_stream *s, char bracket)
{
	fputc('\n', s->f);
	indent(s->f, --s->depth);
	fputc(bracket, s->f);
}

void sl_json_int(struct sl_json_stream *s, const char *key, int64_t v)
{
	start(s, key);
	fprintf(s->f, "%" PRId64, v);
}

void sl_json_str(struct sl_json_stream *s, const char *key, const char *v)
{
	start(s, key);
	put_string(s->f, v);
}

void sl_json_bool(struct sl_json_stream *s, const char *key, bool v)
{
	start(s, key);
	fputs(v ? "true" : "false", s->f);
}

void sl_json_null(struct sl_json_stream *s, const char *key)
{
	start(s, key);
	fputs("null", s->f);
}
