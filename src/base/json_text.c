/*
 * json_text.c - a JSON file's whole text parsed (json_text.h).
 */
#include "base/json_text.h"

#include <string.h>

static int line_of(const char *text, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off && text[i]; i++)
		line += text[i] == '\n';
	return line;
}

struct json_object *sl_json_parse_text(const char *what, const char *text, size_t len,
				       struct sl_err *err)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);

	json_tokener_free(tok);
	if (!root || jerr != json_tokener_success) {
		if (jerr == json_tokener_continue)
			sl_fail(err, "%s:%d: invalid JSON (unexpected end of file)", what,
				line_of(text, len));
		else
			sl_fail(err, "%s:%d: invalid JSON (%s)", what, line_of(text, end),
				json_tokener_error_desc(jerr));
		json_object_put(root);
		return NULL;
	}
	while (end < len && strchr(" \t\r\n", text[end]))
		end++;
	if (end < len) {
		sl_fail(err, "%s:%d: invalid JSON (text after the top-level object)", what,
			line_of(text, end));
		json_object_put(root);
		return NULL;
	}
	return root;
}
