/*
 * xml_check.c - XML topologies that hwloc cannot be given.
 *
 * hwloc 2.9 (Debian 12's libhwloc15) crashes in hwloc_topology_load() on
 * an XML file where an object has a cpuset but no complete_cpuset (a PU),
 * or a nodeset but no complete_nodeset (a NUMA node): `hwloc-info --input
 * FILE` dies the same way.  lstopo always writes these attributes in
 * pairs, so such a file was edited by hand or damaged; it is refused here,
 * before hwloc reads it, with the line of the object.  Found by the
 * machine_xml fuzz harness (tests/fuzz/).
 *
 * libxml2 (hwloc's own XML backend) reads the bytes hwloc will be given
 * (hwloc_load.c reads the file once, for both), without network,
 * DTD loading or entity substitution.  A file it cannot parse is left to
 * hwloc, whose message names the line of the error.
 */
#include "hw/hw_internal.h"

#include <libxml/xmlreader.h>

/* Attributes that must come together on an <object>. */
static const char *const pairs[][2] = {
	{ "cpuset", "complete_cpuset" },
	{ "nodeset", "complete_nodeset" },
};

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
	}
	xmlFreeTextReader(r);
	return rc;
}
