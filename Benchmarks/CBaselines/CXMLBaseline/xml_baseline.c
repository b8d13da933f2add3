#include "strata_xml_baseline.h"

#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                     const xmlChar **attributes) {
    (void)localname; (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces; (void)nb_defaulted; (void)attributes;
    strata_xml_counts *c = ((xmlParserCtxtPtr)ctx)->_private;
    c->elements += 1;
    c->attributes += nb_attributes;
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)ctx; (void)localname; (void)prefix; (void)uri;
}

static void on_text(void *ctx, const xmlChar *ch, int len) {
    (void)ch;
    strata_xml_counts *c = ((xmlParserCtxtPtr)ctx)->_private;
    c->text_bytes += len;
}

static void on_error(void *ctx, xmlErrorPtr error) { (void)ctx; (void)error; }

int strata_xml_baseline_parse(const char *path, strata_xml_counts *out, char *error, size_t error_size) {
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { snprintf(error, error_size, "open %s: %s", path, strerror(errno)); return -1; }
    struct stat st;
    if (fstat(fd, &st) != 0) { snprintf(error, error_size, "stat: %s", strerror(errno)); close(fd); return -1; }
    char *bytes = malloc((size_t)st.st_size + 1);
    if (bytes == NULL) { snprintf(error, error_size, "out of memory"); close(fd); return -1; }
    size_t have = 0;
    while (have < (size_t)st.st_size) {
        ssize_t n = read(fd, bytes + have, (size_t)st.st_size - have);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { snprintf(error, error_size, "read: %s", strerror(errno)); free(bytes); close(fd); return -1; }
        have += (size_t)n;
    }
    close(fd);
    out->file_bytes = (int64_t)have;

    xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(bytes, (int)have);
    if (ctxt == NULL) { snprintf(error, error_size, "xmlCreateMemoryParserCtxt failed"); free(bytes); return -1; }
    xmlSAXHandlerPtr sax = xmlMalloc(sizeof(xmlSAXHandler));
    memset(sax, 0, sizeof *sax);
    sax->initialized = XML_SAX2_MAGIC;
    sax->startElementNs = on_start;
    sax->endElementNs = on_end;
    sax->characters = on_text;
    sax->serror = on_error;
    if (ctxt->sax != NULL) xmlFree(ctxt->sax);
    ctxt->sax = sax;
    ctxt->userData = ctxt;  // the callbacks find the counts through the context
    ctxt->_private = out;
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET);
    xmlParseDocument(ctxt);
    int ok = ctxt->wellFormed;
    if (!ok) {
        xmlErrorPtr e = xmlCtxtGetLastError(ctxt);
        snprintf(error, error_size, "not well-formed at line %d: %s", e ? e->line : 0, e && e->message ? e->message : "?");
    }
    xmlFreeParserCtxt(ctxt);
    free(bytes);
    return ok ? 0 : -1;
}
