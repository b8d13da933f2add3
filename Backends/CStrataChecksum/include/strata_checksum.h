// CRC32C (Castagnoli) for the LMDB backend's record checksum (record version 3,
// docs/formats/lmdb.md): the CPU's `crc32` instruction where it has one, chosen at run time, and a
// portable table otherwise. No build flag: the instruction is enabled per function in the .c file.
#ifndef STRATA_CHECKSUM_H
#define STRATA_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// 1 when the CPU has the `crc32` instruction (SSE4.2), set once while the program loads; 0
/// before that and on every other CPU (the table gives the same values, slower).
extern int strata_crc32c_has_instruction;

/// `strata_crc32c_keyed` with the instruction; call only when `strata_crc32c_has_instruction`.
uint32_t strata_crc32c_keyed_instruction(uint64_t key, const void *bytes, size_t count);

/// `strata_crc32c_keyed` with the table, whatever the CPU.
uint32_t strata_crc32c_keyed_portable(uint64_t key, const void *bytes, size_t count);

/// The CRC32C of `key` (its 8 bytes, little-endian) followed by `count` bytes at `bytes`: the
/// checksum of a version-3 record stored under `key`. The standard CRC32C (reflected polynomial
/// 0x82F63B78, initial value and final xor 0xFFFFFFFF) of that byte sequence. Inline, so a caller
/// pays one flag test and one call (every scanned record calls it).
static inline uint32_t strata_crc32c_keyed(uint64_t key, const void *bytes, size_t count) {
    if (strata_crc32c_has_instruction) return strata_crc32c_keyed_instruction(key, bytes, count);
    return strata_crc32c_keyed_portable(key, bytes, count);
}

/// The CRC32C of `count` bytes at `bytes` continued from `crc`, the CRC32C of the bytes before them
/// (0 for none): `strata_crc32c(strata_crc32c(0, a, n), b, m)` is the CRC32C of `a` then `b`.
uint32_t strata_crc32c(uint32_t crc, const void *bytes, size_t count);

/// `strata_crc32c` with the portable table, whatever the CPU (tests compare it with the instruction).
uint32_t strata_crc32c_portable(uint32_t crc, const void *bytes, size_t count);

/// Whether `strata_crc32c` and `strata_crc32c_keyed` use the CPU's `crc32` instruction (SSE4.2).
int strata_crc32c_uses_instruction(void);

#endif
