// The standard workload on raw liblmdb, written as a careful C programmer would: the same named
// databases as the backend (records by big-endian key, a duplicate-sorted unique database on
// Item.name, an index on Item.category, the Owner.items list, key counters in strata.meta), one
// write transaction per save, a read transaction renewed per lookup, records decoded in place.
#include "lmdb_baseline.h"
#include "strata_baseline_support.h"

#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NOTE_LEN 40
#define NAME_LEN 16
#define TAG_INT 2
#define TAG_STRING 4

typedef struct {
    MDB_env *env;
    MDB_dbi meta, owners, items, names, categories, lists;
    MDB_txn *read;  // reset between lookups, renewed by the next
    char directory[4000];
    unsigned flags;
    int records, failed, found;
    uint64_t rng;
    const char *only_step;
    strata_baseline_figures *figures;
    int64_t probes[10000], updates[100];
    // The insert's input, made before the clock starts, as the workload builds its snapshots
    // before timing the backend's save: item name keys (tag and 16 characters) and owner names.
    unsigned char *name_keys;
    char (*owner_names)[16];
    int *owner_name_lengths;
    int round;
    double sum;  // keeps decoded values alive
} baseline;

/// An item as stored: fixed fields, then the name and the optional note.
typedef struct {
    int64_t key, category, owner;
    double price, created;
    const char *name, *note;
    uint16_t name_len, note_len;
} item;

static const char note_text[] = "abcdefghijabcdefghijabcdefghijabcdefghij";

static void fail(baseline *b, const char *what, int rc) {
    if (b->failed) return;
    b->failed = 1;
    snprintf(b->figures->error, sizeof b->figures->error, "%s: %s", what, rc ? mdb_strerror(rc) : "wrong result");
}

#define TRY(call, what)                        \
    do {                                       \
        int rc_ = (call);                      \
        if (rc_ != 0) { fail(b, what, rc_); return; } \
    } while (0)

static uint64_t be64(uint64_t v) { return __builtin_bswap64(v); }

static size_t encode_item(unsigned char *buf, const item *it) {
    size_t p = 0;
    memcpy(buf + p, &it->category, 8); p += 8;
    memcpy(buf + p, &it->price, 8); p += 8;
    memcpy(buf + p, &it->created, 8); p += 8;
    memcpy(buf + p, &it->owner, 8); p += 8;
    memcpy(buf + p, &it->name_len, 2); p += 2;
    memcpy(buf + p, it->name, it->name_len); p += it->name_len;
    uint16_t note = it->note ? it->note_len : 0xFFFF;
    memcpy(buf + p, &note, 2); p += 2;
    if (it->note) { memcpy(buf + p, it->note, it->note_len); p += it->note_len; }
    return p;
}

static int decode_item(const MDB_val *v, item *it) {
    const unsigned char *d = v->mv_data;
    if (v->mv_size < 36) return -1;
    memcpy(&it->category, d, 8);
    memcpy(&it->price, d + 8, 8);
    memcpy(&it->created, d + 16, 8);
    memcpy(&it->owner, d + 24, 8);
    memcpy(&it->name_len, d + 32, 2);
    size_t p = 34 + it->name_len;
    if (p + 2 > v->mv_size) return -1;
    it->name = (const char *)d + 34;
    uint16_t note;
    memcpy(&note, d + p, 2);
    it->note = note == 0xFFFF ? NULL : (const char *)d + p + 2;
    it->note_len = note == 0xFFFF ? 0 : note;
    return 0;
}

static void name_key(unsigned char *key, int64_t index) {
    key[0] = TAG_STRING;
    snprintf((char *)key + 1, NAME_LEN + 1, "item-%011lld", (long long)index);
}

static void category_key(unsigned char *key, int64_t category) {
    key[0] = TAG_INT;
    uint64_t v = be64((uint64_t)category ^ (1ULL << 63));
    memcpy(key + 1, &v, 8);
}

static void open_env(baseline *b) {
    TRY(mdb_env_create(&b->env), "mdb_env_create");
    mdb_env_set_maxdbs(b->env, 16);
    mdb_env_set_mapsize(b->env, (size_t)1 << 32);
    TRY(mdb_env_open(b->env, b->directory, b->flags | MDB_NOTLS, 0644), "mdb_env_open");
    MDB_txn *txn;
    TRY(mdb_txn_begin(b->env, NULL, 0, &txn), "begin");
    unsigned dups = MDB_DUPSORT | MDB_DUPFIXED | MDB_CREATE;
    TRY(mdb_dbi_open(txn, "strata.meta", MDB_CREATE, &b->meta), "open meta");
    TRY(mdb_dbi_open(txn, "e.Owner", MDB_CREATE, &b->owners), "open owners");
    TRY(mdb_dbi_open(txn, "e.Item", MDB_CREATE, &b->items), "open items");
    TRY(mdb_dbi_open(txn, "u.Item.name", dups, &b->names), "open names");
    TRY(mdb_dbi_open(txn, "i.Item.category", dups, &b->categories), "open categories");
    TRY(mdb_dbi_open(txn, "r.Owner.items", dups, &b->lists), "open lists");
    TRY(mdb_txn_commit(txn), "commit");
    TRY(mdb_txn_begin(b->env, NULL, MDB_RDONLY, &b->read), "begin read");
    mdb_txn_reset(b->read);
}

static void put_counter(baseline *b, MDB_txn *txn, const char *name, int64_t next) {
    MDB_val k = {strlen(name), (void *)name};
    uint64_t v = be64((uint64_t)next);
    MDB_val d = {8, &v};
    TRY(mdb_put(txn, b->meta, &k, &d, 0), "counter");
}

// ---- steps -------------------------------------------------------------------------------------

static void step_insert(void *context) {
    baseline *b = context;
    const double epoch = 1700000000.0 - 978307200.0;  // the workload's epoch, in seconds since 2001
    int owners = b->records / 100;
    MDB_txn *txn;
    TRY(mdb_txn_begin(b->env, NULL, 0, &txn), "begin");
    unsigned char buf[256], ckey[9];
    for (int i = 0; i < owners; i++) {
        uint64_t k64 = be64((uint64_t)(i + 1));
        MDB_val k = {8, &k64}, d = {(size_t)b->owner_name_lengths[i], b->owner_names[i]};
        TRY(mdb_put(txn, b->owners, &k, &d, MDB_APPEND), "insert owner");
    }
    for (int i = 0; i < b->records; i++) {
        item it = {.key = i + 1, .category = i % 100, .owner = i / 100 + 1, .price = i * 0.25, .created = epoch + i,
                   .name_len = NAME_LEN, .note = (i % 2) ? NULL : note_text, .note_len = NOTE_LEN};
        unsigned char *nkey = b->name_keys + (size_t)i * (NAME_LEN + 1);
        it.name = (const char *)nkey + 1;
        uint64_t k64 = be64((uint64_t)it.key), o64 = be64((uint64_t)it.owner);
        MDB_val k = {8, &k64}, d = {encode_item(buf, &it), buf};
        TRY(mdb_put(txn, b->items, &k, &d, MDB_APPEND), "insert item");
        MDB_val nk = {NAME_LEN + 1, nkey};
        TRY(mdb_put(txn, b->names, &nk, &k, MDB_NOOVERWRITE), "unique name");
        category_key(ckey, it.category);
        MDB_val ck = {9, ckey};
        TRY(mdb_put(txn, b->categories, &ck, &k, 0), "index category");
        MDB_val ok = {8, &o64};
        TRY(mdb_put(txn, b->lists, &ok, &k, MDB_NODUPDATA), "owner items");
    }
    put_counter(b, txn, "next.Owner", owners + 1);
    put_counter(b, txn, "next.Item", b->records + 1);
    if (b->failed) { mdb_txn_abort(txn); return; }
    TRY(mdb_txn_commit(txn), "commit insert");
}

static void step_reopen(void *context) {
    baseline *b = context;
    open_env(b);
    if (b->failed) return;
    MDB_stat st;
    TRY(mdb_txn_renew(b->read), "renew");
    TRY(mdb_stat(b->read, b->owners, &st), "stat");
    mdb_txn_reset(b->read);
}

static void step_fetch_by_id(void *context) {
    baseline *b = context;
    for (int i = 0; i < 10000; i++) {
        TRY(mdb_txn_renew(b->read), "renew");
        uint64_t k64 = be64((uint64_t)b->probes[i]);
        MDB_val k = {8, &k64}, v;
        TRY(mdb_get(b->read, b->items, &k, &v), "fetch-by-id");
        item it;
        if (decode_item(&v, &it) != 0) { fail(b, "fetch-by-id decode", 0); return; }
        b->sum += it.price + it.name_len;
        mdb_txn_reset(b->read);
    }
}

static void step_scan(void *context) {
    baseline *b = context;
    MDB_cursor *cur;
    int count = 0;
    TRY(mdb_txn_renew(b->read), "renew");
    TRY(mdb_cursor_open(b->read, b->items, &cur), "cursor");
    MDB_val k, v;
    for (int rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        item it;
        if (decode_item(&v, &it) != 0) { fail(b, "scan decode", 0); break; }
        b->sum += it.price + it.name_len;
        count++;
    }
    mdb_cursor_close(cur);
    mdb_txn_reset(b->read);
    b->found = count;
}

static int price_descending(const void *x, const void *y) {
    const item *a = x, *c = y;
    if (a->price != c->price) return a->price > c->price ? -1 : 1;
    return (a->key > c->key) - (a->key < c->key);
}

static void step_filter(void *context) {
    baseline *b = context;
    item *hits = malloc(sizeof(item) * (size_t)(b->records / 100 + 1));
    int found = 0;
    MDB_cursor *cur;
    TRY(mdb_txn_renew(b->read), "renew");
    TRY(mdb_cursor_open(b->read, b->categories, &cur), "cursor");
    unsigned char ckey[9];
    category_key(ckey, 42);
    MDB_val ck = {9, ckey}, id;
    for (int rc = mdb_cursor_get(cur, &ck, &id, MDB_SET_KEY); rc == 0 && found <= b->records / 100; rc = mdb_cursor_get(cur, &ck, &id, MDB_NEXT_DUP)) {
        MDB_val rv;
        if (mdb_get(b->read, b->items, &id, &rv) != 0 || decode_item(&rv, &hits[found]) != 0) { fail(b, "filter read", 0); break; }
        uint64_t key;
        memcpy(&key, id.mv_data, 8);
        hits[found++].key = (int64_t)be64(key);
    }
    mdb_cursor_close(cur);
    qsort(hits, (size_t)found, sizeof(item), price_descending);
    if (found > 0) b->sum += hits[0].price;
    free(hits);
    mdb_txn_reset(b->read);
    b->found = found;
}

/// Reads an item and files it under a new price, in `txn`.
static int reprice(baseline *b, MDB_txn *txn, int64_t key, double price) {
    uint64_t k64 = be64((uint64_t)key);
    MDB_val k = {8, &k64}, v;
    int rc = mdb_get(txn, b->items, &k, &v);
    if (rc != 0) { fail(b, "read item", rc); return -1; }
    item it;
    if (decode_item(&v, &it) != 0) { fail(b, "decode item", 0); return -1; }
    unsigned char buf[256];
    it.price = price;
    MDB_val d = {encode_item(buf, &it), buf};
    rc = mdb_put(txn, b->items, &k, &d, 0);
    if (rc != 0) { fail(b, "write item", rc); return -1; }
    return 0;
}

static void step_update_one(void *context) {
    baseline *b = context;
    MDB_txn *txn;
    TRY(mdb_txn_begin(b->env, NULL, 0, &txn), "begin");
    if (reprice(b, txn, b->updates[b->round], b->round + 0.5) != 0) { mdb_txn_abort(txn); return; }
    TRY(mdb_txn_commit(txn), "commit update-one");
}

static void step_update_batch(void *context) {
    baseline *b = context;
    MDB_txn *txn;
    TRY(mdb_txn_begin(b->env, NULL, 0, &txn), "begin");
    for (int i = 0; i < b->records; i += 10)
        if (reprice(b, txn, i + 1, -(double)i) != 0) { mdb_txn_abort(txn); return; }
    TRY(mdb_txn_commit(txn), "commit update-batch");
}

static void step_unique_violation(void *context) {
    baseline *b = context;
    MDB_txn *txn;
    TRY(mdb_txn_begin(b->env, NULL, 0, &txn), "begin");
    unsigned char nkey[NAME_LEN + 2];
    name_key(nkey, 7);
    uint64_t fresh = be64((uint64_t)b->records + 1);
    MDB_val nk = {NAME_LEN + 1, nkey}, fv = {8, &fresh};
    if (mdb_put(txn, b->names, &nk, &fv, MDB_NOOVERWRITE) != MDB_KEYEXIST) fail(b, "a duplicate name was accepted", 0);
    mdb_txn_abort(txn);
}

static void step_cascade_delete(void *context) {
    baseline *b = context;
    MDB_txn *txn;
    MDB_cursor *cur;
    TRY(mdb_txn_begin(b->env, NULL, 0, &txn), "begin");
    TRY(mdb_cursor_open(txn, b->lists, &cur), "cursor");
    for (int64_t o = 1; o <= 10 && !b->failed; o++) {
        uint64_t o64 = be64((uint64_t)o);
        MDB_val ok = {8, &o64}, iv;
        for (int rc = mdb_cursor_get(cur, &ok, &iv, MDB_SET_KEY); rc == 0; rc = mdb_cursor_get(cur, &ok, &iv, MDB_NEXT_DUP)) {
            uint64_t ik = 0;
            memcpy(&ik, iv.mv_data, 8);
            MDB_val key = {8, &ik}, rv;
            item it;
            if (mdb_get(txn, b->items, &key, &rv) != 0 || decode_item(&rv, &it) != 0) { fail(b, "read doomed item", 0); break; }
            unsigned char name[NAME_LEN + 1], ckey[9];
            name[0] = TAG_STRING;
            memcpy(name + 1, it.name, NAME_LEN);
            MDB_val nk = {NAME_LEN + 1, name};
            category_key(ckey, it.category);
            MDB_val ck = {9, ckey};
            if (mdb_del(txn, b->names, &nk, &key) || mdb_del(txn, b->categories, &ck, &key) || mdb_del(txn, b->items, &key, NULL)) {
                fail(b, "delete item", 0);
                break;
            }
        }
        // The cursor pointed `ok` into the page; delete by our own copy of the key.
        MDB_val list = {8, &o64}, owner = {8, &o64};
        if (!b->failed && (mdb_del(txn, b->lists, &list, NULL) || mdb_del(txn, b->owners, &owner, NULL))) fail(b, "delete owner", 0);
    }
    mdb_cursor_close(cur);
    if (b->failed) { mdb_txn_abort(txn); return; }
    TRY(mdb_txn_commit(txn), "commit cascade");
}

// ---- driver ------------------------------------------------------------------------------------

/// Runs `body` timed, inside `strata_measure` unless another step was chosen; returns seconds.
static double timed(baseline *b, const char *name, void (*body)(void *)) {
    return strata_timed(b->only_step, name, body, b);
}

int strata_lmdb_baseline(const char *directory, int records, unsigned env_flags, const char *only_step, strata_baseline_figures *figures) {
    baseline *b = calloc(1, sizeof(baseline));
    if (!b) return -1;
    memset(figures, 0, sizeof *figures);
    b->figures = figures;
    b->records = records;
    b->flags = env_flags;
    b->only_step = only_step;
    b->rng = 42;
    snprintf(b->directory, sizeof b->directory, "%s", directory);
    if (records < 1000 || records % 100 != 0) { snprintf(figures->error, sizeof figures->error, "records must be a multiple of 100, at least 1000"); free(b); return -1; }

    b->name_keys = malloc((size_t)records * (NAME_LEN + 1) + 1);
    b->owner_names = malloc(sizeof *b->owner_names * (size_t)(records / 100));
    b->owner_name_lengths = malloc(sizeof(int) * (size_t)(records / 100));
    if (!b->name_keys || !b->owner_names || !b->owner_name_lengths) {
        snprintf(figures->error, sizeof figures->error, "out of memory");
        free(b->name_keys); free(b->owner_names); free(b->owner_name_lengths); free(b);
        return -1;
    }
    // name_key writes a terminating NUL after the 17 bytes; the next key (or the spare byte) takes it.
    for (int i = 0; i < records; i++) name_key(b->name_keys + (size_t)i * (NAME_LEN + 1), i);
    for (int i = 0; i < records / 100; i++) b->owner_name_lengths[i] = snprintf(b->owner_names[i], sizeof b->owner_names[i], "owner-%d", i);

    open_env(b);
    if (!b->failed) figures->insert_per_second = (records + records / 100) / timed(b, "insert", step_insert);
    if (!b->failed) {
        mdb_txn_abort(b->read);
        mdb_env_close(b->env);
        figures->reopen_ms = timed(b, "reopen", step_reopen) * 1000;
    }
    for (int i = 0; i < 10000; i++) b->probes[i] = (int64_t)(strata_next_random(&b->rng) % (uint64_t)records) + 1;
    for (int i = 0; i < 100; i++) b->updates[i] = (int64_t)(strata_next_random(&b->rng) % (uint64_t)records) + 1;
    if (!b->failed) figures->fetch_by_id_per_second = 10000 / timed(b, "fetch-by-id", step_fetch_by_id);
    if (!b->failed) {
        figures->scan_per_second = records / timed(b, "scan", step_scan);
        if (b->found != records) fail(b, "scan found a wrong count", 0);
    }
    if (!b->failed) {
        figures->filter_ms = timed(b, "filter", step_filter) * 1000;
        if (b->found != records / 100) fail(b, "filter found a wrong count", 0);
    }
    if (!b->failed) {
        double durations[100];
        for (b->round = 0; b->round < 100 && !b->failed; b->round++) durations[b->round] = timed(b, "update-one", step_update_one) * 1000;
        figures->update_one_ms = strata_median(durations, 100);
    }
    if (!b->failed) figures->update_batch_per_second = (records / 10) / timed(b, "update-batch", step_update_batch);
    if (!b->failed) figures->unique_violation_ms = timed(b, "unique-violation", step_unique_violation) * 1000;
    if (!b->failed) figures->cascade_delete_ms = timed(b, "cascade-delete", step_cascade_delete) * 1000;
    if (b->env) {
        mdb_txn_abort(b->read);
        mdb_env_close(b->env);
    }
    char path[4096];
    struct stat s;
    snprintf(path, sizeof path, "%s/data.mdb", directory);
    if (stat(path, &s) == 0) figures->size_bytes += (double)s.st_size;
    snprintf(path, sizeof path, "%s/lock.mdb", directory);
    if (stat(path, &s) == 0) figures->size_bytes += (double)s.st_size;
    if (b->sum == 0.123456789) fprintf(stderr, "%f\n", b->sum);
    int failed = b->failed;
    free(b->name_keys);
    free(b->owner_names);
    free(b->owner_name_lengths);
    free(b);
    return failed ? -1 : 0;
}
