// The system libxml2 (Debian's libxml2-dev), as the StrataXML backend sees it.
//
// Debian builds libxml2 with ICU, and <libxml/encoding.h> then includes the system <unicode/...>
// headers, which clash with the toolchain's own ICU module ("'UErrorCode' has different definitions
// in different modules") as soon as Foundation is imported anywhere in the build. Strata hands
// libxml2 UTF-8 only, so the ICU part is not needed: undefine it before anything includes encoding.h.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <string.h>

/// A parser context over `length` bytes at `bytes` that reports to the SAX2 handler `sax` (copied)
/// with `user` as every callback's context; `NULL` if libxml2 cannot allocate one.
///
/// Options: no network access, no DTD loading, no entity substitution (the defaults, spelled out),
/// so a hostile document cannot reach outside or expand entities.
static inline xmlParserCtxtPtr strata_xml_context(const char *bytes, int length, const xmlSAXHandler *sax, void *user) {
    xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(bytes, length);
    if (ctxt == NULL) return NULL;
    xmlSAXHandlerPtr copy = (xmlSAXHandlerPtr)xmlMalloc(sizeof(xmlSAXHandler));
    if (copy == NULL) { xmlFreeParserCtxt(ctxt); return NULL; }
    memcpy(copy, sax, sizeof(xmlSAXHandler));
    if (ctxt->sax != NULL) xmlFree(ctxt->sax);
    ctxt->sax = copy;
    ctxt->userData = user;
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET);
    ctxt->replaceEntities = 0;
    ctxt->loadsubset = 0;
    ctxt->validate = 0;
    return ctxt;
}

/// Parses the whole document; 1 if it was well-formed and no callback stopped the parser.
static inline int strata_xml_parse(xmlParserCtxtPtr ctxt) {
    xmlParseDocument(ctxt);
    return ctxt->wellFormed && !ctxt->disableSAX ? 1 : 0;
}
