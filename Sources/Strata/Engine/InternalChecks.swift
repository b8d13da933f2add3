/// Internal consistency checks, compiled in only under the `STRATA_INTERNAL_CHECKS` condition (as
/// swift-collections' `COLLECTIONS_INTERNAL_CHECKS`): Package.swift defines it for debug builds, so
/// `swift build`, `swift test` and `make test` run with the checks and a release build has none.
///
/// What it turns on (docs/architecture.md, "Internal checks"): `_checkInvariants()` of `PagedArray`,
/// `ChunkedArray`, `ShardedDictionary` and `StoreState`, the last after every save of the shared
/// engine; checked casts where `_identicalCast` stands for `unsafeBitCast`.
enum InternalChecks {
    /// Whether the checks are compiled in.
    static var isEnabled: Bool {
        #if STRATA_INTERNAL_CHECKS
        true
        #else
        false
        #endif
    }
}

/// Stops with `message` when an internal invariant does not hold (a bug of Strata, never bad input).
/// Only called from code compiled under `STRATA_INTERNAL_CHECKS`.
@inline(__always)
func internalInvariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { preconditionFailure("Strata internal invariant: \(message())", file: file, line: line) }
}

/// `unsafeBitCast(value, to: U.self)` where the caller has proven `T` and `U` are the same type (a
/// generic fast path taken after `S.self == DefaultSnapshot.self`); under `STRATA_INTERNAL_CHECKS` a
/// checked cast that stops if they are not. Underscored: not API (docs/architecture.md).
@inline(__always)
public func _identicalCast<T, U>(_ value: T, to: U.Type) -> U {
    #if STRATA_INTERNAL_CHECKS
    guard let cast = value as? U else { preconditionFailure("Strata internal invariant: \(T.self) is not \(U.self)") }
    return cast
    #else
    return unsafeBitCast(value, to: U.self)
    #endif
}
