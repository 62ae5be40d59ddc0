/*
 * json_text.h - a JSON file's whole text parsed by json-c, for the readers
 * of JSON files (an experiment, a result for compare, a shard for merge, a
 * trace workload): the root, or NULL with err saying "WHAT:LINE: invalid JSON (...)", the line
 * being where json-c stopped - at a syntax error, at the end of a text cut
 * short, or at text after the top-level value.
 */
#ifndef SL_BASE_JSON_TEXT_H
#define SL_BASE_JSON_TEXT_H

#include <json.h>
#include <stddef.h>

#include "base/err.h"

struct json_object *sl_json_parse_text(const char *what, const char *text, size_t len,
				       struct sl_err *err);

#endif
