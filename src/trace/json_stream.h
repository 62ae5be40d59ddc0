/*
 * json_stream.h - JSON written as it is produced, in json-c's pretty layout.
 *
 * `trace import` writes a workload of millions of ops; building it as a
 * json-c tree first took about ten times the size of the text (docs/
 * robustness.md, "Files").  This writer emits each value as it comes, with
 * no memory but the nesting, byte for byte as json_object_to_json_string_ext
 * (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
 * JSON_C_TO_STRING_NOSLASHESCAPE) lays out the same tree (json-c 0.16):
 * two-space indents, one member or element a line, `"key": value`, an
 * empty container as its brackets on two lines, strings escaped as json-c
 * escapes them.
 */
#ifndef SL_TRACE_JSON_STREAM_H
#define SL_TRACE_JSON_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SL_JSON_STREAM_DEPTH 16

struct sl_json_stream {
	FILE *f;
	int depth;				/* containers open */
	bool any[SL_JSON_STREAM_DEPTH];		/* the open container has a value */
};

void sl_json_stream_init(struct sl_json_stream *s, FILE *f);
/* Open an object ('{') or array ('['): a member `key` of the open object,
 * or (key NULL) an element of the open array or the top value. */
void sl_json_open(struct sl_json_stream *s, const char *key, char bracket);
void sl_json_close(struct sl_json_stream *s, char bracket);
void sl_json_int(struct sl_json_stream *s, const char *key, int64_t v);
void sl_json_str(struct sl_json_stream *s, const char *key, const char *v);
void sl_json_bool(struct sl_json_stream *s, const char *key, bool v);
void sl_json_null(struct sl_json_stream *s, const char *key);

#endif
