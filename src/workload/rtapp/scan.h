/*
 * scan.h - a scanner of an rt-app file's raw text, for what json-c's
 * tree does not keep (private to parse.c): the line of a key (json-c
 * gives no positions), a key repeated in one object (json-c keeps only the
 * last), and the keys workgen numbers ("run", "run" -> "run", "run#2") or
 * completes (a bare "suspend") before rt-app reads a file.  It reads
 * json-c's dialect: comments, either quote, escapes decoded as json-c
 * decodes them.
 */
#ifndef SL_WORKLOAD_RTAPP_SCAN_H
#define SL_WORKLOAD_RTAPP_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* An edit of the text: at offset `at` (the closing quote of a repeated
 * key) insert "#n"; n = 0 inserts ` : ""` after a bare "suspend". */
struct rt_scan_rename {
	size_t at;
	int n;
};

struct rt_scan {
	/* what to look for: the path of a key to find, or NULL to find a
	 * repeated key (or, with `bare`, workgen's bare "suspend" keys) */
	const char *const *want;
	int nwant;
	bool rename;			/* repeated events and phases get numbered */
	bool bare;			/* find workgen's bare "suspend" keys (into ren) */
	/* which keys name events, that may repeat in a phase (as written) */
	bool (*event_key)(const char *s, size_t n);

	int line;			/* result: the key's line (0: not found) */
	char dup[256];			/* result: path of the repeated key */
	int nren, capren;
	struct rt_scan_rename *ren;	/* result: the edits, in text order; caller frees */
	unsigned long compares;		/* result: key comparisons made (rt_key_compares) */
	int nowned, capowned;
	char **owned;			/* decoded keys, freed before rt_scan_text returns */
};

/* Walk `text` and report each object key with its line: stops at the
 * wanted key or the first repeated key that may not repeat. */
void rt_scan_text(struct rt_scan *sc, const char *text, size_t len);

#endif
