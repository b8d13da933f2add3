/// Observation for `@Model` objects, with each object's `ObservationRegistrar` made the first time
/// one of its properties is read, not when the object is made.
///
/// A registrar is two heap blocks of Observation's own (`ObservationRegistrar()`, about 500
/// instructions): made for every fetched object, it was a seventh of a full fetch's work
/// (callgrind on `StrataPeers --only strata-model --step scan`; docs/benchmarks.md, "Issue 31").
/// An object nobody reads can have no observer: an observer is installed by reading a property
/// inside `withObservationTracking` (or an `Observations` sequence), and the read makes the
/// registrar (`_$access`). So a change to an object without a registrar has nobody to tell, and
/// `_$withMutation` runs the change alone; once one exists, both behave as `ObservationRegistrar`'s.
///
/// The generated storage is `@exclusivity(unchecked)`: it is touched only by these two functions,
/// which never overlap an access to it (Observation calls back into no model code while it records
/// an access).

/// Makes `registrar` if it is missing, then records the read of `keyPath` (a property getter).
@inlinable
public func _$access<Subject: Observable, Member>(
    _ registrar: inout ObservationRegistrar?, _ subject: Subject, keyPath: KeyPath<Subject, Member>
) {
    if registrar == nil { registrar = ObservationRegistrar() }
    registrar.unsafelyUnwrapped.access(subject, keyPath: keyPath)
}

/// Runs `mutation` as a change of `keyPath`, telling observers if `registrar` exists (a property
/// setter; a refault; an inverse's change). Without one nobody observes, and the key path is not
/// even made.
@inlinable
public func _$withMutation<Subject: Observable, Member, T>(
    _ registrar: ObservationRegistrar?, of subject: Subject, keyPath: @autoclosure () -> KeyPath<Subject, Member>,
    _ mutation: () throws -> T
) rethrows -> T {
    guard let registrar else { return try mutation() }
    return try registrar.withMutation(of: subject, keyPath: keyPath(), mutation)
}
