/*
 * experiment_lines.h - the line of each field of a JSON text, so that an
 * experiment file's errors read "my.json:7: rows[0].workload: ..." as the
 * rt-app parser's do (workload/rtapp/parse.c finds its keys the same way:
 * json-c keeps no positions).
 *
 * Fields are named as the loader names them: object keys joined by '.',
 * array elements as [i] ("rows[2].published.2.5.33").  A field not found
 * (a missing key, a key written with escapes) falls back to the nearest
 * enclosing one that is.
 */
#ifndef SL_REPORT_EXPERIMENT_LINES_H
#define SL_REPORT_EXPERIMENT_LINES_H

struct sl_json_lines;

/* Scan `text` (already parsed by json-c, so well formed). */
struct sl_json_lines *sl_json_lines_scan(const char *text);
/* The line of `field`, or of its nearest enclosing field; 0: none. */
int sl_json_lines_find(const struct sl_json_lines *l, const char *field);
void sl_json_lines_free(struct sl_json_lines *l);

#endif
