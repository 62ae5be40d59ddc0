/*
 * json_member.h - a JSON object's member of an expected type, for the
 * readers of schedlab's own result files (compare, merge): NULL when the
 * key is missing or holds another type, which each reader reports in its
 * own words.
 */
#ifndef SL_REPORT_JSON_MEMBER_H
#define SL_REPORT_JSON_MEMBER_H

#include <json.h>

static inline struct json_object *sl_json_member(struct json_object *o, const char *key,
						 json_type type)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

/* The string value of `key`, or NULL. */
static inline const char *sl_json_str_member(struct json_object *o, const char *key)
{
	struct json_object *v = sl_json_member(o, key, json_type_string);

	return v ? json_object_get_string(v) : NULL;
}

#endif
