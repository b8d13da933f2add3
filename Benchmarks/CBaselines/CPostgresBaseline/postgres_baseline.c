// The standard workload (docs/workload.md) on libpq, as a careful C programmer writes it: the same
// tables, columns, indexes, foreign key and delete trigger as the StrataPostgres backend
// (docs/formats/postgres.md), in a namespace of its own; every statement with values prepared once
// (PQprepare with its parameter types) and run with binary parameters and binary results; each save
// one transaction that takes the same advisory write lock as the backend's, sent in pipeline mode:
// a one-statement save (update-one, unique-violation, cascade-delete) is BEGIN, the lock, the
// statement and COMMIT (or ROLLBACK) in one round trip, its outcome checked from the statement's
// own result (update-one: one row updated); the rows of a many-row save go in chunks of 512 with a
// sync point after each, BEGIN and the lock in the first and COMMIT in the last, as the backend's
// pipelines carry them; the server's own durability (synchronous_commit and fsync as the server
// has them, the same for both sides). So the backend's cost over this is the cost of Strata: its
// Swift code and any extra round trips.
#include "postgres_baseline.h"
#include "strata_baseline_support.h"

#include <endian.h>
#include <libpq-fe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OID_INT8 20
#define OID_FLOAT8 701
#define OID_BYTEA 17
#define PIPELINE_CHUNK 512

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
    PGconn *conn;
    const char *conninfo;
    char schema[64];
    char lock_sql[96];  // the advisory write lock, sent after BEGIN in a save's first pipeline
    int records;
    const char *only_step;
    strata_baseline_figures *figures;
    uint64_t rng;
    int failed;
    item_row *rows;  // the scan's result
    int row_count;
} baseline;

static const char *const note_text = "abcdefghijabcdefghijabcdefghijabcdefghij";
static const double epoch_since_2001 = 1700000000.0 - 978307200.0;
static int pipelined = 1;

void strata_postgres_baseline_set_pipelined(int value) { pipelined = value != 0; }

/// Sends a statement without parameters into the open pipeline.
static int send_command(baseline *b, const char *sql) {
    return PQsendQueryParams(b->conn, sql, 0, NULL, NULL, NULL, NULL, 1) == 1;
}

static void fail(baseline *b, const char *what, const char *message) {
    if (b->failed) return;
    b->failed = 1;
    if (!message) message = b->conn ? PQerrorMessage(b->conn) : "no connection";
    snprintf(b->figures->error, sizeof b->figures->error, "%s: %s", what, message);
}

/// Takes `result`: 1 when its status is `expected`, else records the failure.
static int check(baseline *b, PGresult *result, ExecStatusType expected, const char *what) {
    int ok = result && PQresultStatus(result) == expected;
    if (!ok) fail(b, what, result ? PQresultErrorMessage(result) : NULL);
    PQclear(result);
    return ok;
}

static int exec(baseline *b, const char *sql) {
    PGresult *result = PQexec(b->conn, sql);
    ExecStatusType status = PQresultStatus(result);
    return check(b, result, status == PGRES_TUPLES_OK ? PGRES_TUPLES_OK : PGRES_COMMAND_OK, sql);
}

static int prepare(baseline *b, const char *name, const char *sql, int count, const Oid *types) {
    return check(b, PQprepare(b->conn, name, sql, count, types), PGRES_COMMAND_OK, sql);
}

static void noticed(void *context, const char *message) { (void)context; (void)message; }

static int connect_database(baseline *b) {
    b->conn = PQconnectdb(b->conninfo);
    if (!b->conn || PQstatus(b->conn) != CONNECTION_OK) { fail(b, "connect", NULL); return 0; }
    PQsetNoticeProcessor(b->conn, noticed, NULL);
    char sql[160];
    snprintf(sql, sizeof sql, "SET search_path TO \"%s\"", b->schema);
    return exec(b, sql);
}

static void close_database(baseline *b) {
    PQfinish(b->conn);
    b->conn = NULL;
}

// ---- parameters and columns in binary --------------------------------------------------------

typedef struct params {
    const char *values[9];
    int lengths[9];
    int formats[9];
    uint64_t words[9];  // big-endian int8 and float8 values
} params;

static void put_int(params *p, int i, int64_t value) {
    p->words[i] = htobe64((uint64_t)value);
    p->values[i] = (const char *)&p->words[i];
    p->lengths[i] = 8;
    p->formats[i] = 1;
}

static void put_double_bits(params *p, int i, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    p->words[i] = htobe64(bits);
    p->values[i] = (const char *)&p->words[i];
    p->lengths[i] = 8;
    p->formats[i] = 1;
}

static void put_bytes(params *p, int i, const char *bytes, int length) {
    p->values[i] = bytes;
    p->lengths[i] = length;
    p->formats[i] = 1;
}

static void put_null(params *p, int i) {
    p->values[i] = NULL;
    p->lengths[i] = 0;
    p->formats[i] = 1;
}

/// A double as the backend stores it: NaN and -0 also in the `__bits` companion column.
static void put_double(params *p, int value_index, int bits_index, double value) {
    if (isnan(value) || (value == 0 && signbit(value))) {
        uint64_t bits;
        memcpy(&bits, &value, sizeof bits);
        if (isnan(value)) put_null(p, value_index); else put_double_bits(p, value_index, 0);
        put_int(p, bits_index, (int64_t)bits);
    } else {
        put_double_bits(p, value_index, value);
        put_null(p, bits_index);
    }
}

static int64_t column_int(const PGresult *r, int row, int column) {
    uint64_t word;
    memcpy(&word, PQgetvalue(r, row, column), sizeof word);
    return (int64_t)be64toh(word);
}

static double column_float(const PGresult *r, int row, int column) {
    uint64_t word;
    memcpy(&word, PQgetvalue(r, row, column), sizeof word);
    word = be64toh(word);
    double value;
    memcpy(&value, &word, sizeof value);
    return value;
}

static double column_double(const PGresult *r, int row, int value_index, int bits_index) {
    if (!PQgetisnull(r, row, bits_index)) {
        int64_t bits = column_int(r, row, bits_index);
        double value;
        memcpy(&value, &bits, sizeof value);
        return value;
    }
    return column_float(r, row, value_index);
}

static char *column_text(const PGresult *r, int row, int column) {
    if (PQgetisnull(r, row, column)) return NULL;
    int length = PQgetlength(r, row, column);
    char *copy = malloc((size_t)length + 1);
    memcpy(copy, PQgetvalue(r, row, column), (size_t)length);
    copy[length] = 0;
    return copy;
}

static void read_item(const PGresult *r, int row, item_row *item) {
    item->key = column_int(r, row, 0);
    item->name = column_text(r, row, 1);
    item->category = column_int(r, row, 2);
    item->price = column_double(r, row, 3, 4);
    item->created_at = column_double(r, row, 5, 6);
    item->note = column_text(r, row, 7);
    item->owner = PQgetisnull(r, row, 8) ? 0 : column_int(r, row, 8);
}

static void free_item(item_row *row) {
    free(row->name);
    free(row->note);
}

#define ITEM_COLUMNS "\"_pk\", \"name\", \"category\", \"price\", \"price__bits\", \"createdAt\", \"createdAt__bits\", \"note\", \"owner\""

static void item_name(char buffer[32], int index) { snprintf(buffer, 32, "item-%011d", index); }

// ---- running statements ----------------------------------------------------------------------

static PGresult *run_prepared(baseline *b, const char *name, int count, const params *p) {
    return PQexecPrepared(b->conn, name, count, p->values, p->lengths, p->formats, 1);
}

static int run_command(baseline *b, const char *name, int count, const params *p, const char *what) {
    return check(b, run_prepared(b, name, count, p), PGRES_COMMAND_OK, what);
}

/// Builds row `i`'s parameters of a many-row save.
typedef void (*row_builder)(baseline *b, int i, params *p, char text[32]);

/// Reads the pipeline's results up to its next sync point. Result `checked` (counted from 0; -1 for
/// none) must be a command that changed exactly one row; a result that failed with SQLSTATE
/// `expected_state` (NULL for none) is expected, and then must come. Any other failure fails the
/// run; the statements after a failure are skipped by the server (PGRES_PIPELINE_ABORTED).
static void read_to_sync(baseline *b, const char *what, int checked, const char *expected_state) {
    int index = 0, expected_seen = 0;
    for (;;) {
        PGresult *result = PQgetResult(b->conn);
        if (!result) {
            if (PQstatus(b->conn) != CONNECTION_OK) { fail(b, what, NULL); return; }
            continue;  // the end of one query's results
        }
        ExecStatusType status = PQresultStatus(result);
        if (status == PGRES_PIPELINE_SYNC) { PQclear(result); break; }
        if (status == PGRES_FATAL_ERROR && expected_state) {
            const char *state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
            if (state && strcmp(state, expected_state) == 0) expected_seen = 1;
            else fail(b, what, PQresultErrorMessage(result));
        } else if (status == PGRES_PIPELINE_ABORTED) {
            if (!expected_seen) fail(b, what, "a pipelined statement was aborted");
        } else if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
            fail(b, what, PQresultErrorMessage(result));
        } else if (index == checked && strcmp(PQcmdTuples(result), "1") != 0) {
            fail(b, what, "the statement did not change exactly one row");
        }
        PQclear(result);
        index++;
    }
    if (expected_state && !expected_seen) fail(b, what, "the expected failure did not come");
}

/// Sends BEGIN and the write lock into the open pipeline.
static int send_begin(baseline *b) { return send_command(b, "BEGIN") && send_command(b, b->lock_sql); }

/// Runs prepared statement `name` for the rows `first`, `first + stride`, … below `end`, as one
/// transaction: pipelined in chunks (each ended by a sync point), BEGIN and the lock in the first
/// chunk and COMMIT in the last; or, unpipelined, one round trip per statement.
static void run_rows(baseline *b, const char *name, int count, int first, int end, int stride, row_builder build, const char *what) {
    params p;
    char text[32];
    if (!pipelined) {
        if (!exec(b, "BEGIN") || !exec(b, b->lock_sql)) return;
        for (int i = first; i < end && !b->failed; i += stride) {
            build(b, i, &p, text);
            run_command(b, name, count, &p, what);
        }
        if (!b->failed) exec(b, "COMMIT");
        return;
    }
    if (PQenterPipelineMode(b->conn) != 1) { fail(b, "pipeline mode", NULL); return; }
    if (!send_begin(b)) fail(b, what, NULL);
    for (int start = first; start < end && !b->failed; start += PIPELINE_CHUNK * stride) {
        int stop = start + PIPELINE_CHUNK * stride;
        if (stop > end) stop = end;
        for (int i = start; i < stop; i += stride) {
            build(b, i, &p, text);
            if (PQsendQueryPrepared(b->conn, name, count, p.values, p.lengths, p.formats, 1) != 1) { fail(b, what, NULL); break; }
        }
        if (stop >= end && !b->failed && !send_command(b, "COMMIT")) fail(b, what, NULL);
        if (b->failed || PQpipelineSync(b->conn) != 1) { fail(b, "pipeline sync", NULL); break; }
        read_to_sync(b, what, -1, NULL);
    }
    PQexitPipelineMode(b->conn);
}

/// One save of one prepared statement in one round trip: BEGIN, the lock, `name` with `p`, then
/// COMMIT, one sync point. With `expected_state`, the statement must fail so; the transaction is
/// then rolled back in the same round trip (a ROLLBACK after a second sync point, which ends the
/// skipping of the failed part). With `one_row`, the statement must change exactly one row.
static void run_save(baseline *b, const char *name, int count, const params *p, int one_row, const char *expected_state, const char *what) {
    if (PQenterPipelineMode(b->conn) != 1) { fail(b, "pipeline mode", NULL); return; }
    int sent = send_begin(b) && PQsendQueryPrepared(b->conn, name, count, p->values, p->lengths, p->formats, 1) == 1;
    if (sent && !expected_state) sent = send_command(b, "COMMIT") && PQpipelineSync(b->conn) == 1;
    if (sent && expected_state) sent = PQpipelineSync(b->conn) == 1 && send_command(b, "ROLLBACK") && PQpipelineSync(b->conn) == 1;
    if (!sent) fail(b, what, NULL);
    else {
        read_to_sync(b, what, one_row ? 2 : -1, expected_state);
        if (expected_state) read_to_sync(b, what, -1, NULL);
    }
    PQexitPipelineMode(b->conn);
}

// ---- steps -------------------------------------------------------------------------------------

static void owner_row(baseline *b, int i, params *p, char text[32]) {
    (void)b;
    int length = snprintf(text, 32, "owner-%d", i);
    put_int(p, 0, i + 1);
    put_bytes(p, 1, text, length);
}

static void item_row_values(baseline *b, int i, params *p, char text[32]) {
    (void)b;
    item_name(text, i);
    put_int(p, 0, i + 1);
    put_bytes(p, 1, text, 16);
    put_int(p, 2, i % 100);
    put_double(p, 3, 4, i * 0.25);
    put_double(p, 5, 6, epoch_since_2001 + i);
    if (i % 2 == 1) put_null(p, 7); else put_bytes(p, 7, note_text, 40);
    put_int(p, 8, i / 100 + 1);
}

static void step_insert(void *context) {
    baseline *b = context;
    // One transaction: the owners, then the items, in pipelined chunks of 512 rows each ended by a
    // sync point; BEGIN and the lock go in the first chunk, COMMIT in the last.
    int owners = b->records / 100, total = owners + b->records;
    params p;
    char text[32];
    if (!pipelined) {
        if (!exec(b, "BEGIN") || !exec(b, b->lock_sql)) return;
        for (int i = 0; i < total && !b->failed; i++) {
            if (i < owners) { owner_row(b, i, &p, text); run_command(b, "owner_insert", 2, &p, "owner insert"); }
            else { item_row_values(b, i - owners, &p, text); run_command(b, "item_insert", 9, &p, "item insert"); }
        }
        if (!b->failed) exec(b, "COMMIT");
        return;
    }
    if (PQenterPipelineMode(b->conn) != 1) { fail(b, "pipeline mode", NULL); return; }
    if (!send_begin(b)) fail(b, "insert", NULL);
    for (int start = 0; start < total && !b->failed; start += PIPELINE_CHUNK) {
        int stop = start + PIPELINE_CHUNK < total ? start + PIPELINE_CHUNK : total;
        for (int i = start; i < stop; i++) {
            int sent;
            if (i < owners) { owner_row(b, i, &p, text); sent = PQsendQueryPrepared(b->conn, "owner_insert", 2, p.values, p.lengths, p.formats, 1); }
            else { item_row_values(b, i - owners, &p, text); sent = PQsendQueryPrepared(b->conn, "item_insert", 9, p.values, p.lengths, p.formats, 1); }
            if (sent != 1) { fail(b, "insert", NULL); break; }
        }
        if (stop >= total && !b->failed && !send_command(b, "COMMIT")) fail(b, "insert", NULL);
        if (b->failed || PQpipelineSync(b->conn) != 1) { fail(b, "pipeline sync", NULL); break; }
        read_to_sync(b, "insert", -1, NULL);
    }
    PQexitPipelineMode(b->conn);
}

static void step_reopen(void *context) {
    baseline *b = context;
    if (!connect_database(b)) return;
    PGresult *count = PQexecParams(b->conn, "SELECT COUNT(*) FROM \"Owner\"", 0, NULL, NULL, NULL, NULL, 1);
    if (PQresultStatus(count) != PGRES_TUPLES_OK || PQntuples(count) != 1) fail(b, "reopen count", PQresultErrorMessage(count));
    PQclear(count);
}

/// The statements of the later steps, prepared once after the reopen (before any clock starts).
static void prepare_statements(baseline *b) {
    const Oid key[] = { OID_INT8 };
    const Oid update[] = { OID_FLOAT8, OID_INT8, OID_INT8 };
    const Oid item[] = { OID_INT8, OID_BYTEA, OID_INT8, OID_FLOAT8, OID_INT8, OID_FLOAT8, OID_INT8, OID_BYTEA, OID_INT8 };
    prepare(b, "by_id", "SELECT " ITEM_COLUMNS " FROM \"Item\" WHERE \"_pk\" = $1", 1, key);
    prepare(b, "scan", "SELECT " ITEM_COLUMNS " FROM \"Item\" ORDER BY \"_pk\"", 0, NULL);
    prepare(b, "filter", "SELECT " ITEM_COLUMNS " FROM \"Item\" WHERE \"category\" = $1 ORDER BY \"price\" DESC NULLS LAST, \"_pk\"", 1, key);
    prepare(b, "update", "UPDATE \"Item\" SET \"price\" = $1, \"price__bits\" = $2 WHERE \"_pk\" = $3", 3, update);
    prepare(b, "item_insert", "INSERT INTO \"Item\" (" ITEM_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", 9, item);
    prepare(b, "delete_owners", "DELETE FROM \"Owner\" WHERE \"_pk\" <= $1", 1, key);
}

typedef struct probes { baseline *b; int64_t *keys; int count; } probes;

static void step_fetch_by_id(void *context) {
    probes *q = context;
    baseline *b = q->b;
    params p;
    item_row row;
    for (int i = 0; i < q->count && !b->failed; i++) {
        put_int(&p, 0, q->keys[i]);
        PGresult *r = run_prepared(b, "by_id", 1, &p);
        if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) { fail(b, "fetch-by-id", PQresultErrorMessage(r)); PQclear(r); break; }
        read_item(r, 0, &row);
        free_item(&row);
        PQclear(r);
    }
}

static void step_scan(void *context) {
    baseline *b = context;
    PGresult *r = run_prepared(b, "scan", 0, NULL);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) { fail(b, "scan", PQresultErrorMessage(r)); PQclear(r); return; }
    int count = PQntuples(r);
    b->rows = malloc(sizeof(item_row) * (size_t)(count > 0 ? count : 1));
    for (int i = 0; i < count; i++) read_item(r, i, &b->rows[i]);
    b->row_count = count;
    PQclear(r);
    if (count != b->records) fail(b, "scan count", "not every item came back");
}

static void step_filter(void *context) {
    baseline *b = context;
    params p;
    put_int(&p, 0, 42);
    PGresult *r = run_prepared(b, "filter", 1, &p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) { fail(b, "filter", PQresultErrorMessage(r)); PQclear(r); return; }
    int count = PQntuples(r);
    item_row *rows = malloc(sizeof(item_row) * (size_t)(count > 0 ? count : 1));
    for (int i = 0; i < count; i++) read_item(r, i, &rows[i]);
    PQclear(r);
    if (count != b->records / 100) fail(b, "filter count", "not every item of category 42 came back");
    for (int i = 0; i < count; i++) free_item(&rows[i]);
    free(rows);
}

typedef struct one_update { baseline *b; int64_t key; double price; } one_update;

static void step_update_one(void *context) {
    one_update *u = context;
    params p;
    put_double(&p, 0, 1, u->price);
    put_int(&p, 2, u->key);
    run_save(u->b, "update", 3, &p, 1, NULL, "update-one");
}

/// update-one's next round: scanned row `index` gets `price`.
static void pick_update(void *context, int index, double price) {
    one_update *u = context;
    u->key = u->b->rows[index].key;
    u->price = price;
}

static void batch_row(baseline *b, int i, params *p, char text[32]) {
    (void)text;
    put_double(p, 0, 1, -(double)i);
    put_int(p, 2, b->rows[i].key);
}

static void step_update_batch(void *context) {
    baseline *b = context;
    run_rows(b, "update", 3, 0, b->row_count, 10, batch_row, "update-batch");
}

static void step_unique_violation(void *context) {
    baseline *b = context;
    params p;
    char text[32];
    item_row_values(b, 7, &p, text);
    put_int(&p, 0, (int64_t)b->records + 1);
    run_save(b, "item_insert", 9, &p, 0, "23505", "unique-violation (a duplicate name must fail with 23505)");
}

static void step_cascade_delete(void *context) {
    baseline *b = context;
    params p;
    put_int(&p, 0, 10);
    run_save(b, "delete_owners", 1, &p, 0, NULL, "cascade-delete");
}

// ---- driver ------------------------------------------------------------------------------------

/// Runs `body` timed, inside `strata_measure` unless another step was chosen; returns seconds.
static double timed(baseline *b, const char *name, void (*body)(void *), void *context) {
    return strata_timed(b->only_step, name, body, context);
}

/// The backend's tables for the workload's schema (docs/formats/postgres.md, "Tables"), with the
/// delete trigger that keeps the largest deleted key (the backend's `strata_keys`).
static int create_tables(baseline *b) {
    char sql[256];
    snprintf(sql, sizeof sql, "CREATE SCHEMA \"%s\"; SET search_path TO \"%s\"", b->schema, b->schema);
    return exec(b, sql) && exec(b,
        "CREATE TABLE \"Owner\" (\"_pk\" BIGINT PRIMARY KEY, \"name\" BYTEA);"
        "CREATE TABLE \"Item\" (\"_pk\" BIGINT PRIMARY KEY, \"name\" BYTEA, \"category\" BIGINT,"
        " \"price\" DOUBLE PRECISION, \"price__bits\" BIGINT, \"createdAt\" DOUBLE PRECISION, \"createdAt__bits\" BIGINT,"
        " \"note\" BYTEA, \"owner\" BIGINT);"
        "CREATE INDEX \"Item__owner\" ON \"Item\"(\"owner\");"
        "CREATE UNIQUE INDEX \"Item__unique_0\" ON \"Item\"(\"name\");"
        "CREATE INDEX \"Item__index_0\" ON \"Item\"(\"category\");"
        "ALTER TABLE \"Item\" ADD FOREIGN KEY (\"owner\") REFERENCES \"Owner\"(\"_pk\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;"
        "CREATE TABLE \"strata_keys\" (\"table\" bytea PRIMARY KEY, \"last\" bigint NOT NULL);"
        "CREATE FUNCTION strata_note_deleted_keys() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN "
        " EXECUTE format('INSERT INTO %1$I.\"strata_keys\" (\"table\", \"last\") SELECT convert_to($1, ''UTF8''), max(\"_pk\") FROM deleted HAVING count(*) > 0"
        " ON CONFLICT (\"table\") DO UPDATE SET \"last\" = GREATEST(%1$I.\"strata_keys\".\"last\", EXCLUDED.\"last\")', TG_TABLE_SCHEMA) USING TG_TABLE_NAME;"
        " RETURN NULL; END $body$;"
        "CREATE TRIGGER strata_keys AFTER DELETE ON \"Owner\" REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION strata_note_deleted_keys();"
        "CREATE TRIGGER strata_keys AFTER DELETE ON \"Item\" REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION strata_note_deleted_keys()");
}

int strata_postgres_baseline(const char *conninfo, int records, const char *only_step, strata_baseline_figures *figures) {
    baseline b = {0};
    b.conninfo = conninfo ? conninfo : "";
    b.records = records;
    b.only_step = only_step;
    b.figures = figures;
    b.rng = 42;
    memset(figures, 0, sizeof *figures);
    if (records < 1000 || records % 100 != 0) { snprintf(figures->error, sizeof figures->error, "records must be a multiple of 100, at least 1000"); return -1; }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    snprintf(b.schema, sizeof b.schema, "strata_raw_%ld_%lx", (long)getpid(), (unsigned long)now.tv_nsec);
    // The backend's write lock is an advisory lock on a key of the namespace; any key serves here.
    snprintf(b.lock_sql, sizeof b.lock_sql, "SELECT pg_advisory_xact_lock(%lld)", (long long)(0x5354524154410000ll + getpid()));

    b.conn = PQconnectdb(b.conninfo);
    if (!b.conn || PQstatus(b.conn) != CONNECTION_OK) { fail(&b, "connect", NULL); goto done; }
    PQsetNoticeProcessor(b.conn, noticed, NULL);
    if (!create_tables(&b)) goto done;
    const Oid owner[] = { OID_INT8, OID_BYTEA };
    const Oid item[] = { OID_INT8, OID_BYTEA, OID_INT8, OID_FLOAT8, OID_INT8, OID_FLOAT8, OID_INT8, OID_BYTEA, OID_INT8 };
    if (!prepare(&b, "owner_insert", "INSERT INTO \"Owner\" (\"_pk\", \"name\") VALUES ($1, $2)", 2, owner)) goto done;
    if (!prepare(&b, "item_insert", "INSERT INTO \"Item\" (" ITEM_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", 9, item)) goto done;

    figures->insert_per_second = (records + records / 100) / timed(&b, "insert", step_insert, &b);
    if (b.failed) goto done;

    close_database(&b);
    figures->reopen_ms = timed(&b, "reopen", step_reopen, &b) * 1000;
    if (b.failed) goto done;
    prepare_statements(&b);
    if (b.failed) goto done;

    probes q = { &b, strata_probe_keys(&b.rng, records, 10000), 10000 };
    figures->fetch_by_id_per_second = q.count / timed(&b, "fetch-by-id", step_fetch_by_id, &q);
    free(q.keys);
    if (b.failed) goto done;

    figures->scan_per_second = records / timed(&b, "scan", step_scan, &b);
    if (b.failed) goto done;

    figures->filter_ms = timed(&b, "filter", step_filter, &b) * 1000;
    if (b.failed) goto done;

    one_update u = { &b, 0, 0 };
    figures->update_one_ms = strata_update_one_median(b.only_step, &b.rng, records, 100, pick_update, step_update_one, &u, &b.failed);
    if (b.failed) goto done;

    figures->update_batch_per_second = (records / 10) / timed(&b, "update-batch", step_update_batch, &b);
    if (b.failed) goto done;

    figures->unique_violation_ms = timed(&b, "unique-violation", step_unique_violation, &b) * 1000;
    if (b.failed) goto done;

    figures->cascade_delete_ms = timed(&b, "cascade-delete", step_cascade_delete, &b) * 1000;
    if (b.failed) goto done;
    PGresult *left = PQexecParams(b.conn, "SELECT COUNT(*)::int8, pg_total_relation_size('\"Owner\"') + pg_total_relation_size('\"Item\"') FROM \"Item\"", 0, NULL, NULL, NULL, NULL, 1);
    if (PQresultStatus(left) != PGRES_TUPLES_OK || column_int(left, 0, 0) != records - 1000) fail(&b, "the cascade did not delete 1,000 items", NULL);
    else figures->size_bytes = (double)column_int(left, 0, 1);
    PQclear(left);

done:
    for (int i = 0; i < b.row_count; i++) free_item(&b.rows[i]);
    free(b.rows);
    // Whatever happened, the namespace goes (on a fresh connection if this one is broken or gone).
    if (!b.conn || PQstatus(b.conn) != CONNECTION_OK || PQtransactionStatus(b.conn) != PQTRANS_IDLE) {
        if (b.conn) close_database(&b);
        b.conn = PQconnectdb(b.conninfo);
    }
    if (b.conn && PQstatus(b.conn) == CONNECTION_OK) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP SCHEMA IF EXISTS \"%s\" CASCADE", b.schema);
        PQclear(PQexec(b.conn, sql));
    }
    if (b.conn) close_database(&b);
    return b.failed ? -1 : 0;
}

int strata_postgres_server_durability(const char *conninfo) {
    PGconn *conn = PQconnectdb(conninfo ? conninfo : "");
    int level = -1;
    if (conn && PQstatus(conn) == CONNECTION_OK) {
        PGresult *r = PQexec(conn, "SELECT current_setting('fsync'), current_setting('synchronous_commit')");
        if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
            const char *fsync = PQgetvalue(r, 0, 0), *commit = PQgetvalue(r, 0, 1);
            // on, local, remote_write, remote_apply: the commit waits at least for the local WAL.
            int committed = strcmp(commit, "off") != 0;
            level = !committed ? 0 : strcmp(fsync, "on") == 0 ? 2 : 1;
        }
        PQclear(r);
    }
    PQfinish(conn);
    return level;
}
