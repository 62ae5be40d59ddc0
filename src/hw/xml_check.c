/*
 * xml_check.c - XML topologies that hwloc cannot be given.
 *
 * hwloc 2.9 (Debian 12's libhwloc15) crashes in hwloc_topology_load() on
 * an XML file where an object has a cpuset but no complete_cpuset (a PU),
 * or a nodeset but no complete_nodeset (a NUMA node): `hwloc-info --input
 * FILE` dies the same way.  lstopo always writes these attributes in
 * pairs, so such a file was edited by hand or damaged; it is refused here,
 * before hwloc reads it, with the line of the object.  It crashes too on a
 * set attribute that is not a bitmap (complete_cpuset="0x0`00000ff"), so
 * every cpuset and nodeset attribute must be one as lstopo writes them:
 * hex words, each with or without "0x" and of 1 to 8 digits, joined by
 * ',', maybe after hwloc's "0xf...f," for an infinite set.  A PU or NUMA
 * node without an os_index, which hwloc takes as 2^32-1 and then sizes a
 * bitmap by (half a GB touched, seconds), is refused too.  And an object
 * other than an I/O or Misc one without a cpuset: hwloc refuses it in a
 * version 2 file ("invalid normal object ... without cpuset") but crashes
 * on it in a version 1 file (a NUMA node there is a normal object), and
 * lstopo writes a cpuset for every such object in either.  Found by the
 * machine_xml fuzz harness (tests/fuzz/).
 *
 * libxml2 (hwloc's own XML backend) reads the bytes hwloc will be given
 * (hwloc_load.c reads the file once, for both), without network,
 * DTD loading or entity substitution.  A file it cannot parse is left to
 * hwloc, whose message names the line of the error.
 */
#include "hw/hw_internal.h"

#include <ctype.h>
#include <string.h>

#include <libxml/xmlreader.h>

/* Attributes that must come together on an <object>. */
static const char *const pairs[][2] = {
	{ "cpuset", "complete_cpuset" },
	{ "nodeset", "complete_nodeset" },
};

/* The objects that have no cpuset (I/O and Misc); every other has one. */
static const char *const setless[] = { "Bridge", "PCIDev", "OSDev", "Misc" };

static bool needs_cpuset(const xmlChar *type)
{
	for (size_t i = 0; i < sizeof(setless) / sizeof(setless[0]); i++)
		if (xmlStrEqual(type, BAD_CAST setless[i]))
			return false;
	return true;
}

/* The sets of an <object>, in hwloc's bitmap syntax. */
static const char *const sets[] = {
	"cpuset", "complete_cpuset", "allowed_cpuset", "nodeset", "complete_nodeset",
	"allowed_nodeset",
};

static bool is_bitmap(const char *s)
{
	if (!strncmp(s, "0xf...f", 7)) {
		s += 7;
		if (!*s)
			return true;
		if (*s++ != ',')
			return false;
	}
	for (;;) {
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			s += 2;
		int n = 0;
		while (isxdigit((unsigned char)*s)) {
			s++;
			n++;
		}
		if (n < 1 || n > 8)
			return false;
		if (!*s)
			return true;
		if (*s++ != ',')
			return false;
	}
}

static bool has_attr(xmlTextReaderPtr r, const char *name)
{
	xmlChar *v = xmlTextReaderGetAttribute(r, BAD_CAST name);
	bool has = v != NULL;

	xmlFree(v);
	return has;
}

int hw_xml_check(const char *buf, size_t len, const char *what, struct sl_err *err)
{
	if (len > (size_t)HW_MAX_XML_BYTES)
		return 0;	/* refused by the reader already */
	xmlTextReaderPtr r = xmlReaderForMemory(buf, (int)len, NULL, NULL,
						XML_PARSE_NONET | XML_PARSE_NOERROR |
						XML_PARSE_NOWARNING);
	int rc = 0;

	if (!r)
		return 0;
	while (rc == 0 && xmlTextReaderRead(r) == 1) {
		if (xmlTextReaderNodeType(r) != XML_READER_TYPE_ELEMENT ||
		    !xmlStrEqual(xmlTextReaderConstName(r), BAD_CAST "object"))
			continue;
		for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]) && rc == 0; i++) {
			if (!has_attr(r, pairs[i][0]) || has_attr(r, pairs[i][1]))
				continue;
			xmlChar *type = xmlTextReaderGetAttribute(r, BAD_CAST "type");
			rc = sl_fail(err, "%s: line %d: object '%s' has %s but no %s (hwloc cannot "
				     "load such a file; lstopo writes both)", what,
				     (int)xmlGetLineNo(xmlTextReaderCurrentNode(r)),
				     type ? (const char *)type : "?", pairs[i][0], pairs[i][1]);
			xmlFree(type);
		}
		xmlChar *otype = xmlTextReaderGetAttribute(r, BAD_CAST "type");
		if (rc == 0 && otype && needs_cpuset(otype) && !has_attr(r, "cpuset"))
			rc = sl_fail(err, "%s: line %d: object '%s' has no cpuset (hwloc cannot load "
				     "such a file; lstopo writes one for every object but I/O and "
				     "Misc ones)", what, (int)xmlGetLineNo(xmlTextReaderCurrentNode(r)),
				     (const char *)otype);
		if (rc == 0 && otype && (xmlStrEqual(otype, BAD_CAST "PU") ||
			      xmlStrEqual(otype, BAD_CAST "NUMANode")) && !has_attr(r, "os_index"))
			rc = sl_fail(err, "%s: line %d: object '%s' has no os_index (lstopo writes "
				     "one for every PU and NUMA node; hwloc would take it as "
				     "index 2^32-1 and size its bitmaps by it)", what,
				     (int)xmlGetLineNo(xmlTextReaderCurrentNode(r)),
				     (const char *)otype);
		xmlFree(otype);
		for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]) && rc == 0; i++) {
			xmlChar *v = xmlTextReaderGetAttribute(r, BAD_CAST sets[i]);
			if (v && !is_bitmap((const char *)v)) {
				xmlChar *type = xmlTextReaderGetAttribute(r, BAD_CAST "type");
				rc = sl_fail(err, "%s: line %d: object '%s' has %s '%s', not an hwloc "
					     "bitmap (hex words joined by ',', as lstopo writes them)",
					     what, (int)xmlGetLineNo(xmlTextReaderCurrentNode(r)),
					     type ? (const char *)type : "?", sets[i], (const char *)v);
				xmlFree(type);
			}
			xmlFree(v);
		}
	}
	xmlFreeTextReader(r);
	return rc;
}
