import Foundation

/// A value as the PostgreSQL backend binds and reads it: SQL NULL, a 64-bit integer (`bigint`), a
/// double (`double precision`), text or bytes (both `bytea`: PostgreSQL's `text` cannot hold NUL,
/// which Strata strings may contain, and `bytea` compares byte for byte as the contract orders text).
///
/// The same five cases as the shared SQL layer's `SQLValue`, which replaces it once the PostgreSQL
/// store is written on that layer.
enum PostgresValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// A 64-bit integer (`int8`).
    case integer(Int64)
    /// A double (`float8`).
    case real(Double)
    /// UTF-8 text, bound as `bytea`.
    case text(String)
    /// Bytes (`bytea`).
    case blob(Data)
}
