// libxml2's SAX2 parser alone over a Strata XML store file, counting only: the physical limit
// the StrataXML backend's `reopen` is measured against (`strata bench --backend xml --baseline`).
#ifndef STRATA_XML_BASELINE_H
#define STRATA_XML_BASELINE_H

#include <stddef.h>
#include <stdint.h>

/// What one parse saw.
typedef struct {
    int64_t elements;     // start tags
    int64_t attributes;   // attributes of those tags
    int64_t text_bytes;   // bytes of character data
    int64_t file_bytes;   // bytes read
} strata_xml_counts;

/// Reads the file at `path` into memory and parses it with libxml2's SAX2 parser (the options the
/// backend uses: no network, no DTD loading, no entity substitution), counting elements, attributes
/// and text bytes and building nothing. The file is read the way the backend reads it (one buffer).
/// Returns 0, or -1 with a message in `error`.
int strata_xml_baseline_parse(const char *path, strata_xml_counts *out, char *error, size_t error_size);

#endif
