// The standard workload on raw liblmdb, written as a careful C programmer would: the same named
// databases as the backend (records by big-endian key, a duplicate-sorted unique database on
// Item.name, an index on Item.category, the Owner.items list, key counters in strata.meta), one
// write transaction per save, a read transaction renewed per lookup, records decoded in place.
#include "lmdb_baseline.h"

#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

// Under callgrind each step is dumped on its own (`callgrind_annotate` per dump), so instruction
// counts per step can be compared with the backend's; outside valgrind this costs nothing.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define STEP(name) CALLGRIND_DUMP_STATS_AT(name)
#else
#define STEP(name) ((void)0)
#endif

#define NOTE_LEN 40
#define NAME_LEN 16
#define TAG_INT 2
#define TAG_STRING 4

typedef struct {
    MDB_env *env;
    MDB_dbi meta, owners, items, names, categories, lists;
} baseline;

/// An item as stored: fixed fields, then the name and the optional note.
typedef struct {
    int64_t key, category, owner;
    double price, created;
    const char *name, *note;
    uint16_t name_len, note_len;
} item;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t be64(uint64_t v) { return __builtin_bswap64(v); }

#define CHECK(call, what)                                                          \
    do {                                                                           \
        int rc_ = (call);                                                          \
        if (rc_ != 0) {                                                            \
            snprintf(error, error_size, "%s: %s", what, mdb_strerror(rc_));       \
            return -1;                                                             \
        }                                                                          \
    } while (0)

static const char note_text[] = "abcdefghijabcdefghijabcdefghijabcdefghij";

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
    const unsigned char *b = v->mv_data;
    if (v->mv_size < 36) return -1;
    memcpy(&it->category, b, 8);
    memcpy(&it->price, b + 8, 8);
    memcpy(&it->created, b + 16, 8);
    memcpy(&it->owner, b + 24, 8);
    memcpy(&it->name_len, b + 32, 2);
    size_t p = 34 + it->name_len;
    if (p + 2 > v->mv_size) return -1;
    it->name = (const char *)b + 34;
    uint16_t note;
    memcpy(&note, b + p, 2);
    it->note = note == 0xFFFF ? NULL : (const char *)b + p + 2;
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

static int open_databases(baseline *b, unsigned flags, char *error, size_t error_size) {
    MDB_txn *txn;
    CHECK(mdb_txn_begin(b->env, NULL, 0, &txn), "begin");
    unsigned dups = MDB_DUPSORT | MDB_DUPFIXED | MDB_CREATE;
    CHECK(mdb_dbi_open(txn, "strata.meta", MDB_CREATE, &b->meta), "open meta");
    CHECK(mdb_dbi_open(txn, "e.Owner", MDB_CREATE, &b->owners), "open owners");
    CHECK(mdb_dbi_open(txn, "e.Item", MDB_CREATE, &b->items), "open items");
    CHECK(mdb_dbi_open(txn, "u.Item.name", dups, &b->names), "open names");
    CHECK(mdb_dbi_open(txn, "i.Item.category", dups, &b->categories), "open categories");
    CHECK(mdb_dbi_open(txn, "r.Owner.items", dups, &b->lists), "open lists");
    CHECK(mdb_txn_commit(txn), "commit");
    (void)flags;
    return 0;
}

static int open_env(baseline *b, const char *dir, unsigned flags, char *error, size_t error_size) {
    CHECK(mdb_env_create(&b->env), "mdb_env_create");
    mdb_env_set_maxdbs(b->env, 16);
    mdb_env_set_mapsize(b->env, (size_t)1 << 32);
    CHECK(mdb_env_open(b->env, dir, flags | MDB_NOTLS, 0644), "mdb_env_open");
    return open_databases(b, flags, error, error_size);
}

static int put_counter(MDB_txn *txn, MDB_dbi meta, const char *name, int64_t next, char *error, size_t error_size) {
    MDB_val k = {strlen(name), (void *)name};
    uint64_t v = be64((uint64_t)next);
    MDB_val d = {8, &v};
    CHECK(mdb_put(txn, meta, &k, &d, 0), "counter");
    return 0;
}

static int cmp_price_desc(const void *a, const void *b) {
    const item *x = a, *y = b;
    if (x->price != y->price) return x->price > y->price ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/// Reads an item and files it under a new price, in `txn`.
static int reprice(MDB_txn *txn, MDB_dbi items, int64_t key, double price, char *error, size_t error_size) {
    uint64_t k64 = be64((uint64_t)key);
    MDB_val k = {8, &k64}, v;
    CHECK(mdb_get(txn, items, &k, &v), "read item");
    item it;
    if (decode_item(&v, &it) != 0) { snprintf(error, error_size, "bad item"); return -1; }
    unsigned char buf[256];
    it.price = price;
    MDB_val d = {encode_item(buf, &it), buf};
    CHECK(mdb_put(txn, items, &k, &d, 0), "write item");
    return 0;
}

int strata_lmdb_baseline_run(const char *dir, int records, unsigned env_flags,
                             const int64_t *probes, int probe_count,
                             const int64_t *updates, int update_count,
                             strata_lmdb_figures *out, char *error, size_t error_size) {
    baseline b;
    if (open_env(&b, dir, env_flags, error, error_size) != 0) return -1;
    const double epoch = 1700000000.0 - 978307200.0;  // the workload's epoch, since 2001
    int owners = records / 100;

    STEP("raw-setup");
    // 1. insert: one write transaction.
    double t = now();
    MDB_txn *txn;
    CHECK(mdb_txn_begin(b.env, NULL, 0, &txn), "begin");
    unsigned char buf[256], nkey[NAME_LEN + 2], ckey[9];
    for (int i = 0; i < owners; i++) {
        uint64_t k64 = be64((uint64_t)(i + 1));
        int n = snprintf((char *)buf, sizeof buf, "owner-%d", i);
        MDB_val k = {8, &k64}, d = {(size_t)n, buf};
        CHECK(mdb_put(txn, b.owners, &k, &d, MDB_APPEND), "insert owner");
    }
    for (int i = 0; i < records; i++) {
        item it;
        it.key = i + 1;
        it.category = i % 100;
        it.price = i * 0.25;
        it.created = epoch + i;
        it.owner = i / 100 + 1;
        name_key(nkey, i);
        it.name = (const char *)nkey + 1;
        it.name_len = NAME_LEN;
        it.note = (i % 2) ? NULL : note_text;
        it.note_len = NOTE_LEN;
        uint64_t k64 = be64((uint64_t)it.key), o64 = be64((uint64_t)it.owner);
        MDB_val k = {8, &k64}, d = {encode_item(buf, &it), buf};
        CHECK(mdb_put(txn, b.items, &k, &d, MDB_APPEND), "insert item");
        MDB_val nk = {NAME_LEN + 1, nkey};
        CHECK(mdb_put(txn, b.names, &nk, &k, MDB_NOOVERWRITE), "unique name");
        category_key(ckey, it.category);
        MDB_val ck = {9, ckey};
        CHECK(mdb_put(txn, b.categories, &ck, &k, 0), "index category");
        MDB_val ok = {8, &o64};
        CHECK(mdb_put(txn, b.lists, &ok, &k, MDB_NODUPDATA), "owner items");
    }
    if (put_counter(txn, b.meta, "next.Owner", owners + 1, error, error_size) ||
        put_counter(txn, b.meta, "next.Item", records + 1, error, error_size)) return -1;
    CHECK(mdb_txn_commit(txn), "commit insert");
    out->insert = (owners + records) / (now() - t);

    STEP("raw-insert");
    // 2. reopen
    mdb_env_close(b.env);
    t = now();
    if (open_env(&b, dir, env_flags, error, error_size) != 0) return -1;
    MDB_stat st;
    CHECK(mdb_txn_begin(b.env, NULL, MDB_RDONLY, &txn), "begin read");
    CHECK(mdb_stat(txn, b.owners, &st), "stat");
    mdb_txn_reset(txn);
    out->reopen_ms = (now() - t) * 1000;

    STEP("raw-reopen");
    // 3. fetch-by-id: each lookup in a renewed read transaction, the item decoded.
    double sum = 0;
    t = now();
    for (int i = 0; i < probe_count; i++) {
        CHECK(mdb_txn_renew(txn), "renew");
        uint64_t k64 = be64((uint64_t)probes[i]);
        MDB_val k = {8, &k64}, v;
        CHECK(mdb_get(txn, b.items, &k, &v), "fetch-by-id");
        item it;
        if (decode_item(&v, &it) != 0) { snprintf(error, error_size, "bad item"); return -1; }
        sum += it.price;
        mdb_txn_reset(txn);
    }
    out->fetch_by_id = probe_count / (now() - t);

    STEP("raw-fetch-by-id");
    // 4. scan
    CHECK(mdb_txn_renew(txn), "renew");
    MDB_cursor *cur;
    int count = 0;
    t = now();
    CHECK(mdb_cursor_open(txn, b.items, &cur), "cursor");
    MDB_val k, v;
    for (int rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        item it;
        if (decode_item(&v, &it) != 0) { snprintf(error, error_size, "bad item"); return -1; }
        sum += it.price;
        count++;
    }
    mdb_cursor_close(cur);
    out->scan = count / (now() - t);
    if (count != records) { snprintf(error, error_size, "scan found %d", count); return -1; }

    STEP("raw-scan");
    // 5. filter: category == 42 through the index, sorted by price descending.
    t = now();
    item *hits = malloc(sizeof(item) * (size_t)(records / 100 + 1));
    int found = 0;
    CHECK(mdb_cursor_open(txn, b.categories, &cur), "cursor");
    category_key(ckey, 42);
    MDB_val ck = {9, ckey}, id;
    for (int rc = mdb_cursor_get(cur, &ck, &id, MDB_SET_KEY); rc == 0; rc = mdb_cursor_get(cur, &ck, &id, MDB_NEXT_DUP)) {
        MDB_val rv;
        CHECK(mdb_get(txn, b.items, &id, &rv), "filter read");
        if (decode_item(&rv, &hits[found]) != 0) { snprintf(error, error_size, "bad item"); return -1; }
        uint64_t key;
        memcpy(&key, id.mv_data, 8);
        hits[found++].key = (int64_t)be64(key);
    }
    mdb_cursor_close(cur);
    qsort(hits, (size_t)found, sizeof(item), cmp_price_desc);
    out->filter_ms = (now() - t) * 1000;
    free(hits);
    mdb_txn_abort(txn);
    if (found != records / 100) { snprintf(error, error_size, "filter found %d", found); return -1; }

    STEP("raw-filter");
    // 6. update-one: a write transaction per save.
    double *durations = malloc(sizeof(double) * (size_t)update_count);
    for (int r = 0; r < update_count; r++) {
        t = now();
        CHECK(mdb_txn_begin(b.env, NULL, 0, &txn), "begin");
        if (reprice(txn, b.items, updates[r], r + 0.5, error, error_size) != 0) return -1;
        CHECK(mdb_txn_commit(txn), "commit update-one");
        durations[r] = (now() - t) * 1000;
    }
    qsort(durations, (size_t)update_count, sizeof(double), cmp_double);
    out->update_one_ms = update_count % 2 ? durations[update_count / 2] : (durations[update_count / 2 - 1] + durations[update_count / 2]) / 2;
    free(durations);

    STEP("raw-update-one");
    // 7. update-batch: every tenth item in one save.
    t = now();
    CHECK(mdb_txn_begin(b.env, NULL, 0, &txn), "begin");
    for (int i = 0; i < records; i += 10)
        if (reprice(txn, b.items, i + 1, -(double)i, error, error_size) != 0) return -1;
    CHECK(mdb_txn_commit(txn), "commit update-batch");
    out->update_batch = (records / 10) / (now() - t);

    STEP("raw-update-batch");
    // 8. unique-violation: the name of item 7 is taken; the save is aborted.
    t = now();
    CHECK(mdb_txn_begin(b.env, NULL, 0, &txn), "begin");
    name_key(nkey, 7);
    uint64_t fresh = be64((uint64_t)records + 1);
    MDB_val nk = {NAME_LEN + 1, nkey}, fv = {8, &fresh};
    if (mdb_put(txn, b.names, &nk, &fv, MDB_NOOVERWRITE) != MDB_KEYEXIST) { snprintf(error, error_size, "duplicate accepted"); return -1; }
    mdb_txn_abort(txn);
    out->unique_violation_ms = (now() - t) * 1000;

    STEP("raw-unique-violation");
    // 9. cascade-delete: 10 owners and their items, with their unique and index entries.
    t = now();
    CHECK(mdb_txn_begin(b.env, NULL, 0, &txn), "begin");
    CHECK(mdb_cursor_open(txn, b.lists, &cur), "cursor");
    for (int64_t o = 1; o <= 10; o++) {
        uint64_t o64 = be64((uint64_t)o);
        MDB_val ok = {8, &o64}, iv;
        for (int rc = mdb_cursor_get(cur, &ok, &iv, MDB_SET_KEY); rc == 0; rc = mdb_cursor_get(cur, &ok, &iv, MDB_NEXT_DUP)) {
            uint64_t ik = 0;
            memcpy(&ik, iv.mv_data, 8);
            MDB_val key = {8, &ik}, rv;
            CHECK(mdb_get(txn, b.items, &key, &rv), "read doomed item");
            item it;
            if (decode_item(&rv, &it) != 0) { snprintf(error, error_size, "bad item"); return -1; }
            unsigned char name[NAME_LEN + 1];
            name[0] = TAG_STRING;
            memcpy(name + 1, it.name, NAME_LEN);
            MDB_val nk2 = {NAME_LEN + 1, name};
            CHECK(mdb_del(txn, b.names, &nk2, &key), "delete name");
            category_key(ckey, it.category);
            MDB_val ck2 = {9, ckey};
            CHECK(mdb_del(txn, b.categories, &ck2, &key), "delete category");
            CHECK(mdb_del(txn, b.items, &key, NULL), "delete item");
        }
        CHECK(mdb_del(txn, b.lists, &ok, NULL), "delete list");
        CHECK(mdb_del(txn, b.owners, &ok, NULL), "delete owner");
    }
    mdb_cursor_close(cur);
    CHECK(mdb_txn_commit(txn), "commit cascade");
    out->cascade_delete_ms = (now() - t) * 1000;

    STEP("raw-cascade-delete");
    // 10. size
    mdb_env_close(b.env);
    char path[4096];
    struct stat s;
    out->size_bytes = 0;
    snprintf(path, sizeof path, "%s/data.mdb", dir);
    if (stat(path, &s) == 0) out->size_bytes += (double)s.st_size;
    snprintf(path, sizeof path, "%s/lock.mdb", dir);
    if (stat(path, &s) == 0) out->size_bytes += (double)s.st_size;
    if (sum == 0.123456789) fprintf(stderr, "%f\n", sum);  // keeps the decoded values alive
    return 0;
}
