// The raw floor under the CSV backend's reopen: one pass over the bytes of a CSV table, RFC 4180
// quoting (quoted fields may hold commas, CR, LF and doubled quotes), counting records and fields
// and building nothing — what any reader must at least do before it can hold a single record.
#include <stddef.h>
#include "strata_baselines.h"

int strata_csv_count(const unsigned char *bytes, size_t length, int64_t *records, int64_t *fields) {
    int64_t rows = 0, cells = 0;
    size_t i = 0;
    int row_open = 0;  // a record has started (at least one byte of it seen)
    while (i < length) {
        row_open = 1;
        if (bytes[i] == '"') {  // quoted field: up to the closing quote that is not doubled
            i++;
            for (;;) {
                if (i >= length) return -1;  // unterminated quote
                if (bytes[i] == '"') {
                    if (i + 1 < length && bytes[i + 1] == '"') { i += 2; continue; }
                    i++;
                    break;
                }
                i++;
            }
        } else {
            while (i < length && bytes[i] != ',' && bytes[i] != '\r' && bytes[i] != '\n') i++;
        }
        cells++;
        if (i >= length) break;
        if (bytes[i] == ',') { i++; if (i == length) { cells++; } continue; }
        if (bytes[i] == '\r') i++;
        if (i < length && bytes[i] == '\n') i++;
        rows++;
        row_open = 0;
    }
    if (row_open) rows++;
    *records = rows;
    *fields = cells;
    return 0;
}
