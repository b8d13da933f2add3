import Foundation

/// The C source of the power-loss recorder, an `LD_PRELOAD` library that logs every file change a
/// writer makes under one folder (`PowerLossLog` reads the log), and how to build it.
///
/// Why an interposer: `kill -9` keeps the page cache, so it proves nothing about power loss, and
/// this machine offers no file system whose unsynced writes can be dropped without root (no loop
/// mounts, no dm-log-writes in a container). SQLite, LMDB and the document backends all write
/// through libc's `write`/`pwrite`/`fsync`/`rename`, so the interposer sees every byte each one
/// writes, and every sync, in order.
public enum PowerLossRecorder {
    /// Compiles the recorder into `folder` with the C compiler on `PATH` (`cc`), returning the
    /// library's path.
    public static func build(in folder: URL) throws -> URL {
        let source = folder.appendingPathComponent("strata-powerloss-recorder.c")
        let library = folder.appendingPathComponent("strata-powerloss-recorder.so")
        try Data(Self.source.utf8).write(to: source)
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["cc", "-O2", "-shared", "-fPIC", "-o", library.path, source.path, "-ldl", "-lpthread"]
        try compiler.run()
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else { throw WorkloadError("cannot compile the power-loss recorder (cc exited with \(compiler.terminationStatus)); install a C compiler") }
        return library
    }

    /// The recorder's C source.
    static let source = #"""
// The power-loss recorder of `strata powerloss`, loaded with LD_PRELOAD into the writer.
// Logs every change to files under STRATA_POWERLOSS_ROOT (creates, writes, truncates, renames,
// unlinks, folder creation and every fsync/fdatasync) to STRATA_POWERLOSS_LOG, in call order, and
// the writer's standard output lines as marks, so the tester knows which saves were acknowledged
// before each operation. Records: op byte, u64 inode, i64 a, i64 b, u32 length + bytes, twice.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAXFD 65536
static char root[PATH_MAX];
static size_t rootLength;
static int logFd = -1;
static int marks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char tracked[MAXFD];  // 1: under root, 2: also synchronous (O_SYNC / O_DSYNC)

#define REAL(name) static __typeof__(name) *real_##name; if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static void put(const void *bytes, size_t count) {
    static ssize_t (*w)(int, const void *, size_t);
    if (!w) w = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    const char *p = bytes;
    while (count > 0) {
        ssize_t n = w(logFd, p, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) abort();  // a record lost would make every state after it a lie
        p += n; count -= (size_t)n;
    }
}

static void record(char op, uint64_t ino, int64_t a, int64_t b, const void *one, uint32_t oneLength, const void *two, uint32_t twoLength) {
    if (logFd < 0) return;
    int saved = errno;
    pthread_mutex_lock(&lock);
    put(&op, 1); put(&ino, 8); put(&a, 8); put(&b, 8);
    put(&oneLength, 4); if (oneLength) put(one, oneLength);
    put(&twoLength, 4); if (twoLength) put(two, twoLength);
    pthread_mutex_unlock(&lock);
    errno = saved;
}

__attribute__((constructor)) static void start(void) {
    const char *r = getenv("STRATA_POWERLOSS_ROOT"), *l = getenv("STRATA_POWERLOSS_LOG");
    if (!r || !l || !realpath(r, root)) return;
    rootLength = strlen(root);
    marks = getenv("STRATA_POWERLOSS_MARKS") != NULL;
    static int (*o)(const char *, int, ...);
    o = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    logFd = o(l, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
}

// The absolute, lexically normalised path of `path` relative to `dirfd`.
static int absolute(int dirfd, const char *path, char *out) {
    char base[PATH_MAX];
    if (path[0] == '/') base[0] = 0;
    else if (dirfd == AT_FDCWD) { if (!getcwd(base, sizeof base)) return 0; }
    else {
        char link[64]; snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
        ssize_t n = readlink(link, base, sizeof base - 1);
        if (n < 0) return 0;
        base[n] = 0;
    }
    char joined[2 * PATH_MAX];
    snprintf(joined, sizeof joined, "%s/%s", base, path);
    // normalise: drop "." and empty parts, resolve ".."
    char *parts[512]; int count = 0; char *save = NULL;
    for (char *p = strtok_r(joined, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
        if (!strcmp(p, ".")) continue;
        if (!strcmp(p, "..")) { if (count) count--; continue; }
        if (count < 512) parts[count++] = p;
    }
    out[0] = 0;
    size_t used = 0;
    for (int i = 0; i < count; i++) {
        size_t n = strlen(parts[i]);
        if (used + n + 2 >= PATH_MAX) return 0;
        out[used++] = '/'; memcpy(out + used, parts[i], n); used += n; out[used] = 0;
    }
    if (!count) strcpy(out, "/");
    return 1;
}

static int underRoot(const char *path) {
    return logFd >= 0 && !strncmp(path, root, rootLength) && (path[rootLength] == 0 || path[rootLength] == '/');
}

static uint64_t inodeOf(int fd) { struct stat s; return fstat(fd, &s) == 0 ? (uint64_t)s.st_ino : 0; }

static int opened(int dirfd, const char *path, int flags, mode_t mode, int (*call)(int, const char *, int, mode_t)) {
    char full[PATH_MAX];
    if (logFd < 0 || !absolute(dirfd, path, full) || !underRoot(full)) return call(dirfd, path, flags, mode);
    struct stat s;
    int existed = stat(full, &s) == 0;
    int fd = call(dirfd, path, flags, mode);
    if (fd < 0 || fd >= MAXFD) return fd;
    tracked[fd] = (flags & (O_SYNC | O_DSYNC)) ? 2 : 1;
    uint64_t ino = inodeOf(fd);
    if (!existed) record('C', ino, 0, 0, full, (uint32_t)strlen(full), NULL, 0);
    else if ((flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY) record('T', ino, 0, 0, full, (uint32_t)strlen(full), NULL, 0);
    return fd;
}

static int callOpenat(int dirfd, const char *path, int flags, mode_t mode) { REAL(openat); return real_openat(dirfd, path, flags, mode); }

int open(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | __O_TMPFILE)) { va_list v; va_start(v, flags); mode = va_arg(v, mode_t); va_end(v); }
    return opened(AT_FDCWD, path, flags, mode, callOpenat);
}
int open64(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | __O_TMPFILE)) { va_list v; va_start(v, flags); mode = va_arg(v, mode_t); va_end(v); }
    return opened(AT_FDCWD, path, flags, mode, callOpenat);
}
int openat(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | __O_TMPFILE)) { va_list v; va_start(v, flags); mode = va_arg(v, mode_t); va_end(v); }
    return opened(dirfd, path, flags, mode, callOpenat);
}
int openat64(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | __O_TMPFILE)) { va_list v; va_start(v, flags); mode = va_arg(v, mode_t); va_end(v); }
    return opened(dirfd, path, flags, mode, callOpenat);
}
int __open_2(const char *path, int flags) { return opened(AT_FDCWD, path, flags, 0, callOpenat); }
int __open64_2(const char *path, int flags) { return opened(AT_FDCWD, path, flags, 0, callOpenat); }
int creat(const char *path, mode_t mode) { return opened(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode, callOpenat); }
int creat64(const char *path, mode_t mode) { return opened(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode, callOpenat); }

int close(int fd) { REAL(close); if (fd >= 0 && fd < MAXFD) tracked[fd] = 0; return real_close(fd); }

static void wrote(int fd, int64_t offset, const void *bytes, ssize_t n) {
    if (n <= 0) return;
    uint64_t ino = inodeOf(fd);
    record('W', ino, offset, 0, bytes, (uint32_t)n, NULL, 0);
    if (tracked[fd] == 2) record('S', ino, 0, 0, NULL, 0, NULL, 0);
}

static int isTracked(int fd) { return fd >= 0 && fd < MAXFD && tracked[fd]; }

static int64_t positionForWrite(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0 && (flags & O_APPEND)) { struct stat s; return fstat(fd, &s) == 0 ? s.st_size : 0; }
    return lseek(fd, 0, SEEK_CUR);
}

ssize_t write(int fd, const void *bytes, size_t count) {
    REAL(write);
    if (fd == 1 && marks && logFd >= 0) {
        ssize_t n = real_write(fd, bytes, count);
        if (n > 0) record('M', 0, 0, 0, bytes, (uint32_t)n, NULL, 0);
        return n;
    }
    if (!isTracked(fd)) return real_write(fd, bytes, count);
    int64_t at = positionForWrite(fd);
    ssize_t n = real_write(fd, bytes, count);
    wrote(fd, at, bytes, n);
    return n;
}
ssize_t pwrite(int fd, const void *bytes, size_t count, off_t offset) {
    REAL(pwrite);
    ssize_t n = real_pwrite(fd, bytes, count, offset);
    if (isTracked(fd)) wrote(fd, offset, bytes, n);
    return n;
}
ssize_t pwrite64(int fd, const void *bytes, size_t count, off64_t offset) {
    REAL(pwrite64);
    ssize_t n = real_pwrite64(fd, bytes, count, offset);
    if (isTracked(fd)) wrote(fd, offset, bytes, n);
    return n;
}
static void wroteVector(int fd, int64_t at, const struct iovec *v, int count, ssize_t n) {
    for (int i = 0; i < count && n > 0; i++) {
        ssize_t part = (ssize_t)v[i].iov_len < n ? (ssize_t)v[i].iov_len : n;
        wrote(fd, at, v[i].iov_base, part);
        at += part; n -= part;
    }
}
ssize_t writev(int fd, const struct iovec *v, int count) {
    REAL(writev);
    if (!isTracked(fd)) return real_writev(fd, v, count);
    int64_t at = positionForWrite(fd);
    ssize_t n = real_writev(fd, v, count);
    wroteVector(fd, at, v, count, n);
    return n;
}
ssize_t pwritev(int fd, const struct iovec *v, int count, off_t offset) {
    REAL(pwritev);
    ssize_t n = real_pwritev(fd, v, count, offset);
    if (isTracked(fd)) wroteVector(fd, offset, v, count, n);
    return n;
}
ssize_t pwritev64(int fd, const struct iovec *v, int count, off64_t offset) {
    REAL(pwritev64);
    ssize_t n = real_pwritev64(fd, v, count, offset);
    if (isTracked(fd)) wroteVector(fd, offset, v, count, n);
    return n;
}
int ftruncate(int fd, off_t size) {
    REAL(ftruncate);
    int r = real_ftruncate(fd, size);
    if (r == 0 && isTracked(fd)) record('T', inodeOf(fd), size, 0, NULL, 0, NULL, 0);
    return r;
}
int ftruncate64(int fd, off64_t size) {
    REAL(ftruncate64);
    int r = real_ftruncate64(fd, size);
    if (r == 0 && isTracked(fd)) record('T', inodeOf(fd), size, 0, NULL, 0, NULL, 0);
    return r;
}
int fallocate(int fd, int mode, off_t offset, off_t length) {
    REAL(fallocate);
    struct stat before; int known = isTracked(fd) && fstat(fd, &before) == 0;
    int r = real_fallocate(fd, mode, offset, length);
    if (r == 0 && known && mode == 0 && offset + length > before.st_size) record('T', inodeOf(fd), offset + length, 0, NULL, 0, NULL, 0);
    return r;
}
int posix_fallocate(int fd, off_t offset, off_t length) {
    REAL(posix_fallocate);
    struct stat before; int known = isTracked(fd) && fstat(fd, &before) == 0;
    int r = real_posix_fallocate(fd, offset, length);
    if (r == 0 && known && offset + length > before.st_size) record('T', inodeOf(fd), offset + length, 0, NULL, 0, NULL, 0);
    return r;
}

static void synced(int fd) {
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    path[n > 0 ? n : 0] = 0;
    record('S', inodeOf(fd), 0, 0, path, (uint32_t)strlen(path), NULL, 0);
}
int fsync(int fd) { REAL(fsync); int r = real_fsync(fd); if (r == 0 && isTracked(fd)) synced(fd); return r; }
int fdatasync(int fd) { REAL(fdatasync); int r = real_fdatasync(fd); if (r == 0 && isTracked(fd)) synced(fd); return r; }

static void named(char op, int dirfd, const char *path, int olddirfd, const char *old) {
    char full[PATH_MAX], from[PATH_MAX];
    if (logFd < 0 || !absolute(dirfd, path, full)) return;
    if (old) {
        if (!absolute(olddirfd, old, from) || !(underRoot(full) || underRoot(from))) return;
        record(op, 0, 0, 0, from, (uint32_t)strlen(from), full, (uint32_t)strlen(full));
    } else if (underRoot(full)) {
        struct stat s; uint64_t ino = op == 'D' && stat(full, &s) == 0 ? (uint64_t)s.st_ino : 0;
        record(op, ino, 0, 0, full, (uint32_t)strlen(full), NULL, 0);
    }
}
int rename(const char *old, const char *new) { REAL(rename); int r = real_rename(old, new); if (r == 0) named('R', AT_FDCWD, new, AT_FDCWD, old); return r; }
int renameat(int olddir, const char *old, int newdir, const char *new) { REAL(renameat); int r = real_renameat(olddir, old, newdir, new); if (r == 0) named('R', newdir, new, olddir, old); return r; }
int renameat2(int olddir, const char *old, int newdir, const char *new, unsigned flags) { REAL(renameat2); int r = real_renameat2(olddir, old, newdir, new, flags); if (r == 0) named('R', newdir, new, olddir, old); return r; }
int link(const char *old, const char *new) { REAL(link); int r = real_link(old, new); if (r == 0) named('L', AT_FDCWD, new, AT_FDCWD, old); return r; }
int linkat(int olddir, const char *old, int newdir, const char *new, int flags) { REAL(linkat); int r = real_linkat(olddir, old, newdir, new, flags); if (r == 0) named('L', newdir, new, olddir, old); return r; }
int unlink(const char *path) { REAL(unlink); int r = real_unlink(path); if (r == 0) named('U', AT_FDCWD, path, 0, NULL); return r; }
int unlinkat(int dirfd, const char *path, int flags) { REAL(unlinkat); int r = real_unlinkat(dirfd, path, flags); if (r == 0) named((flags & AT_REMOVEDIR) ? 'U' : 'U', dirfd, path, 0, NULL); return r; }
int rmdir(const char *path) { REAL(rmdir); int r = real_rmdir(path); if (r == 0) named('U', AT_FDCWD, path, 0, NULL); return r; }
int mkdir(const char *path, mode_t mode) { REAL(mkdir); int r = real_mkdir(path, mode); if (r == 0) named('D', AT_FDCWD, path, 0, NULL); return r; }
int mkdirat(int dirfd, const char *path, mode_t mode) { REAL(mkdirat); int r = real_mkdirat(dirfd, path, mode); if (r == 0) named('D', dirfd, path, 0, NULL); return r; }

static int made(char *template, int fd) {
    char full[PATH_MAX];
    if (fd >= 0 && fd < MAXFD && absolute(AT_FDCWD, template, full) && underRoot(full)) {
        tracked[fd] = 1;
        record('C', inodeOf(fd), 0, 0, full, (uint32_t)strlen(full), NULL, 0);
    }
    return fd;
}
int mkstemp(char *template) { REAL(mkstemp); return made(template, real_mkstemp(template)); }
int mkostemp(char *template, int flags) { REAL(mkostemp); return made(template, real_mkostemp(template, flags)); }
int mkstemp64(char *template) { REAL(mkstemp64); return made(template, real_mkstemp64(template)); }
"""#
}
