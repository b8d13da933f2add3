// The standard workload (docs/workload.md) on the SQLite C API, as a careful C programmer writes it:
// SQLITE_OPEN_NOMUTEX, every statement prepared once (transaction control included), static binds,
// the same tables, columns, indexes and pragmas as the StrataSQLite backend (docs/formats/sqlite.md),
// so the backend's cost over this is the cost of Strata itself.
#include "strata_baselines.h"
#include "strata_baseline_support.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/// One item read back, as an application would keep it: values and owned copies of the text.
typedef struct item_row {
    int64_t key;
    char *name;
    int64_t category;
    double price;
    double created_at;
    char *note;
    int64_t owner;
} item_row;

typedef struct baseline {
    sqlite3 *db;
    char path[4096];
    int records;
    const char *only_step;
    strata_baseline_figures *figures;
    uint64_t rng;
    int failed;
    sqlite3_stmt *begin, *commit, *rollback;
    item_row *rows;  // the scan's result
    int row_count;
} baseline;

static const char *const note_text = "abcdefghijabcdefghijabcdefghijabcdefghij";
static const double epoch_since_2001 = 1700000000.0 - 978307200.0;

static void fail(baseline *b, const char *what) {
    if (b->failed) return;
    b->failed = 1;
    snprintf(b->figures->error, sizeof b->figures->error, "%s: %s", what, b->db ? sqlite3_errmsg(b->db) : "no database");
}

static sqlite3_stmt *prepare(baseline *b, const char *sql) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v3(b->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK) fail(b, sql);
    return stmt;
}

static int step_done(baseline *b, sqlite3_stmt *stmt, const char *what) {
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE) { fail(b, what); return 0; }
    return 1;
}

static int exec(baseline *b, const char *sql) {
    if (sqlite3_exec(b->db, sql, NULL, NULL, NULL) != SQLITE_OK) { fail(b, sql); return 0; }
    return 1;
}

/// `PRAGMA synchronous` of the next runs: FULL (power-loss safe, the default) or NORMAL (process-crash safe).
static int synchronous_full = 1;

void strata_sqlite_baseline_set_power_loss_safe(int power_loss_safe) { synchronous_full = power_loss_safe != 0; }

static int open_database(baseline *b) {
    if (sqlite3_open_v2(b->path, &b->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        fail(b, "open");
        return 0;
    }
    if (!exec(b, synchronous_full ? "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL" : "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")) return 0;
    b->begin = prepare(b, "BEGIN IMMEDIATE");
    b->commit = prepare(b, "COMMIT");
    b->rollback = prepare(b, "ROLLBACK");
    return !b->failed;
}

static void close_database(baseline *b) {
    sqlite3_finalize(b->begin);
    sqlite3_finalize(b->commit);
    sqlite3_finalize(b->rollback);
    b->begin = b->commit = b->rollback = NULL;
    sqlite3_close_v2(b->db);
    b->db = NULL;
}

/// A double as the backend stores it: NaN and -0 go to the `__bits` companion column.
static void bind_double(sqlite3_stmt *stmt, int value_index, int bits_index, double value) {
    if (isnan(value) || (value == 0 && signbit(value))) {
        int64_t bits;
        memcpy(&bits, &value, sizeof bits);
        if (isnan(value)) sqlite3_bind_null(stmt, value_index); else sqlite3_bind_double(stmt, value_index, 0);
        sqlite3_bind_int64(stmt, bits_index, bits);
    } else {
        sqlite3_bind_double(stmt, value_index, value);
        sqlite3_bind_null(stmt, bits_index);
    }
}

static double column_double(sqlite3_stmt *stmt, int value_index, int bits_index) {
    if (sqlite3_column_type(stmt, bits_index) != SQLITE_NULL) {
        int64_t bits = sqlite3_column_int64(stmt, bits_index);
        double value;
        memcpy(&value, &bits, sizeof value);
        return value;
    }
    return sqlite3_column_double(stmt, value_index);
}

static char *column_text(sqlite3_stmt *stmt, int index) {
    const unsigned char *text = sqlite3_column_text(stmt, index);
    if (!text) return NULL;
    int length = sqlite3_column_bytes(stmt, index);
    char *copy = malloc((size_t)length + 1);
    memcpy(copy, text, (size_t)length + 1);
    return copy;
}

static void read_item(sqlite3_stmt *stmt, item_row *row) {
    row->key = sqlite3_column_int64(stmt, 0);
    row->name = column_text(stmt, 1);
    row->category = sqlite3_column_int64(stmt, 2);
    row->price = column_double(stmt, 3, 4);
    row->created_at = column_double(stmt, 5, 6);
    row->note = column_text(stmt, 7);
    row->owner = sqlite3_column_int64(stmt, 8);
}

static void free_item(item_row *row) {
    free(row->name);
    free(row->note);
}

#define ITEM_COLUMNS "\"_pk\", \"name\", \"category\", \"price\", \"price__bits\", \"createdAt\", \"createdAt__bits\", \"note\", \"owner\""

static void item_name(char buffer[32], int index) { snprintf(buffer, 32, "item-%011d", index); }

// ---- steps -------------------------------------------------------------------------------------

static void step_insert(void *context) {
    baseline *b = context;
    int owners = b->records / 100;
    if (!step_done(b, b->begin, "BEGIN")) return;
    sqlite3_stmt *owner = prepare(b, "INSERT INTO \"Owner\" (\"_pk\", \"name\") VALUES (?, ?)");
    sqlite3_stmt *item = prepare(b, "INSERT INTO \"Item\" (\"_pk\", \"name\", \"category\", \"price\", \"price__bits\", \"createdAt\", \"createdAt__bits\", \"note\", \"owner\") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    char text[32];
    for (int i = 0; i < owners && !b->failed; i++) {
        int length = snprintf(text, sizeof text, "owner-%d", i);
        sqlite3_bind_int64(owner, 1, i + 1);
        sqlite3_bind_text(owner, 2, text, length, SQLITE_STATIC);
        step_done(b, owner, "owner insert");
    }
    for (int i = 0; i < b->records && !b->failed; i++) {
        item_name(text, i);
        sqlite3_bind_int64(item, 1, i + 1);
        sqlite3_bind_text(item, 2, text, 16, SQLITE_STATIC);
        sqlite3_bind_int64(item, 3, i % 100);
        bind_double(item, 4, 5, i * 0.25);
        bind_double(item, 6, 7, epoch_since_2001 + i);
        if (i % 2 == 1) sqlite3_bind_null(item, 8); else sqlite3_bind_text(item, 8, note_text, 40, SQLITE_STATIC);
        sqlite3_bind_int64(item, 9, i / 100 + 1);
        step_done(b, item, "item insert");
    }
    sqlite3_finalize(owner);
    sqlite3_finalize(item);
    if (!b->failed) step_done(b, b->commit, "COMMIT");
}

static void step_reopen(void *context) {
    baseline *b = context;
    if (!open_database(b)) return;
    sqlite3_stmt *count = prepare(b, "SELECT COUNT(*) FROM \"Owner\"");
    if (sqlite3_step(count) != SQLITE_ROW) fail(b, "reopen count");
    sqlite3_finalize(count);
}

typedef struct probes { baseline *b; int64_t *keys; int count; } probes;

static void step_fetch_by_id(void *context) {
    probes *p = context;
    baseline *b = p->b;
    sqlite3_stmt *stmt = prepare(b, "SELECT " ITEM_COLUMNS " FROM \"Item\" WHERE \"_pk\" = ?");
    item_row row;
    for (int i = 0; i < p->count && !b->failed; i++) {
        sqlite3_bind_int64(stmt, 1, p->keys[i]);
        if (sqlite3_step(stmt) != SQLITE_ROW) { fail(b, "fetch-by-id"); break; }
        read_item(stmt, &row);
        free_item(&row);
        sqlite3_reset(stmt);
    }
    sqlite3_finalize(stmt);
}

static void step_scan(void *context) {
    baseline *b = context;
    sqlite3_stmt *stmt = prepare(b, "SELECT " ITEM_COLUMNS " FROM \"Item\" ORDER BY \"_pk\"");
    int capacity = b->records;
    b->rows = malloc(sizeof(item_row) * (size_t)capacity);
    b->row_count = 0;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        if (b->row_count == capacity) { capacity *= 2; b->rows = realloc(b->rows, sizeof(item_row) * (size_t)capacity); }
        read_item(stmt, &b->rows[b->row_count++]);
    }
    sqlite3_finalize(stmt);
    if (b->row_count != b->records) fail(b, "scan count");
}

static void step_filter(void *context) {
    baseline *b = context;
    sqlite3_stmt *stmt = prepare(b, "SELECT " ITEM_COLUMNS " FROM \"Item\" WHERE \"category\" = ? ORDER BY \"price\" DESC, \"_pk\"");
    sqlite3_bind_int64(stmt, 1, 42);
    item_row *rows = malloc(sizeof(item_row) * (size_t)(b->records / 100 + 1));
    int count = 0;
    while (sqlite3_step(stmt) == SQLITE_ROW && count <= b->records / 100) read_item(stmt, &rows[count++]);
    sqlite3_finalize(stmt);
    if (count != b->records / 100) fail(b, "filter count");
    for (int i = 0; i < count; i++) free_item(&rows[i]);
    free(rows);
}

typedef struct one_update { baseline *b; sqlite3_stmt *stmt; int64_t key; double price; } one_update;

static void step_update_one(void *context) {
    one_update *u = context;
    if (!step_done(u->b, u->b->begin, "BEGIN")) return;
    bind_double(u->stmt, 1, 2, u->price);
    sqlite3_bind_int64(u->stmt, 3, u->key);
    if (step_done(u->b, u->stmt, "update-one")) step_done(u->b, u->b->commit, "COMMIT");
}

/// update-one's next round: scanned row `index` gets `price`.
static void pick_update(void *context, int index, double price) {
    one_update *u = context;
    u->key = u->b->rows[index].key;
    u->price = price;
}

static void step_update_batch(void *context) {
    baseline *b = context;
    if (!step_done(b, b->begin, "BEGIN")) return;
    sqlite3_stmt *stmt = prepare(b, "UPDATE \"Item\" SET \"price\" = ?, \"price__bits\" = ? WHERE \"_pk\" = ?");
    for (int i = 0; i < b->records && !b->failed; i += 10) {
        bind_double(stmt, 1, 2, -(double)i);
        sqlite3_bind_int64(stmt, 3, i + 1);
        step_done(b, stmt, "update-batch");
    }
    sqlite3_finalize(stmt);
    if (!b->failed) step_done(b, b->commit, "COMMIT");
}

static void step_unique_violation(void *context) {
    baseline *b = context;
    if (!step_done(b, b->begin, "BEGIN")) return;
    sqlite3_stmt *stmt = prepare(b, "INSERT INTO \"Item\" (\"name\", \"category\", \"price\", \"price__bits\", \"createdAt\", \"createdAt__bits\", \"note\", \"owner\") VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    char name[32];
    item_name(name, 7);
    sqlite3_bind_text(stmt, 1, name, 16, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, 7);
    bind_double(stmt, 3, 4, 7 * 0.25);
    bind_double(stmt, 5, 6, epoch_since_2001 + 7);
    sqlite3_bind_null(stmt, 7);
    sqlite3_bind_int64(stmt, 8, 1);
    int rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    if ((rc & 0xff) != SQLITE_CONSTRAINT) fail(b, "a duplicate name was accepted");
    step_done(b, b->rollback, "ROLLBACK");
}

static void step_cascade_delete(void *context) {
    baseline *b = context;
    if (!step_done(b, b->begin, "BEGIN")) return;
    sqlite3_stmt *stmt = prepare(b, "DELETE FROM \"Owner\" WHERE \"_pk\" <= ?");
    sqlite3_bind_int64(stmt, 1, 10);
    step_done(b, stmt, "cascade-delete");
    sqlite3_finalize(stmt);
    if (!b->failed) step_done(b, b->commit, "COMMIT");
}

// ---- driver ------------------------------------------------------------------------------------

/// Runs `body` timed, inside `strata_measure` unless another step was chosen; returns seconds.
static double timed(baseline *b, const char *name, void (*body)(void *), void *context) {
    return strata_timed(b->only_step, name, body, context);
}

int strata_sqlite_baseline(const char *directory, int records, const char *only_step, strata_baseline_figures *figures) {
    baseline b = {0};
    b.records = records;
    b.only_step = only_step;
    b.figures = figures;
    b.rng = 42;
    memset(figures, 0, sizeof *figures);
    snprintf(b.path, sizeof b.path, "%s/raw.sqlite", directory);
    if (records < 1000 || records % 100 != 0) { snprintf(figures->error, sizeof figures->error, "records must be a multiple of 100, at least 1000"); return -1; }

    // What the backend does once per process: no memory statistics, whose mutex every allocation
    // takes. SQLITE_MISUSE when SQLite is already initialized (the backend ran first): no matter.
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (!open_database(&b)) goto done;
    if (!exec(&b, "PRAGMA journal_mode = WAL;"
                  "CREATE TABLE \"Owner\" (\"_pk\" INTEGER PRIMARY KEY AUTOINCREMENT, \"name\" TEXT);"
                  "CREATE TABLE \"Item\" (\"_pk\" INTEGER PRIMARY KEY AUTOINCREMENT, \"name\" TEXT, \"category\" INTEGER,"
                  " \"price\" REAL, \"price__bits\" INTEGER, \"createdAt\" REAL, \"createdAt__bits\" INTEGER, \"note\" TEXT,"
                  " \"owner\" INTEGER REFERENCES \"Owner\"(\"_pk\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED);"
                  "CREATE INDEX \"Item__owner\" ON \"Item\"(\"owner\");"
                  "CREATE UNIQUE INDEX \"Item__unique_0\" ON \"Item\"(\"name\");"
                  "CREATE INDEX \"Item__index_0\" ON \"Item\"(\"category\");")) goto done;

    figures->insert_per_second = (records + records / 100) / timed(&b, "insert", step_insert, &b);
    if (b.failed) goto done;

    close_database(&b);
    figures->reopen_ms = timed(&b, "reopen", step_reopen, &b) * 1000;
    if (b.failed) goto done;

    probes p = { &b, strata_probe_keys(&b.rng, records, 10000), 10000 };
    figures->fetch_by_id_per_second = p.count / timed(&b, "fetch-by-id", step_fetch_by_id, &p);
    free(p.keys);
    if (b.failed) goto done;

    figures->scan_per_second = records / timed(&b, "scan", step_scan, &b);
    if (b.failed) goto done;

    figures->filter_ms = timed(&b, "filter", step_filter, &b) * 1000;
    if (b.failed) goto done;

    one_update u = { &b, prepare(&b, "UPDATE \"Item\" SET \"price\" = ?, \"price__bits\" = ? WHERE \"_pk\" = ?"), 0, 0 };
    figures->update_one_ms = strata_update_one_median(b.only_step, &b.rng, records, 100, pick_update, step_update_one, &u, &b.failed);
    sqlite3_finalize(u.stmt);
    if (b.failed) goto done;

    figures->update_batch_per_second = (records / 10) / timed(&b, "update-batch", step_update_batch, &b);
    if (b.failed) goto done;

    figures->unique_violation_ms = timed(&b, "unique-violation", step_unique_violation, &b) * 1000;
    if (b.failed) goto done;

    figures->cascade_delete_ms = timed(&b, "cascade-delete", step_cascade_delete, &b) * 1000;
    if (b.failed) goto done;
    sqlite3_stmt *left = prepare(&b, "SELECT COUNT(*) FROM \"Item\"");
    if (sqlite3_step(left) != SQLITE_ROW || sqlite3_column_int64(left, 0) != records - 1000) fail(&b, "the cascade did not delete 1,000 items");
    sqlite3_finalize(left);
    figures->size_bytes = 0;
    const char *suffixes[] = { "", "-wal", "-shm" };
    for (int i = 0; i < 3; i++) {
        char file[4200];
        struct stat info;
        snprintf(file, sizeof file, "%s%s", b.path, suffixes[i]);
        if (stat(file, &info) == 0) figures->size_bytes += (double)info.st_size;
    }

done:
    for (int i = 0; i < b.row_count; i++) free_item(&b.rows[i]);
    free(b.rows);
    if (b.db) close_database(&b);
    return b.failed ? -1 : 0;
}
