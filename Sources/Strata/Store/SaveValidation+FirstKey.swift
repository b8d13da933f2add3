/// A save's chosen first keys (`SaveRequest.firstKeys`, the `chosenKeys` capability): one home for
/// the rule, so every backend refuses the same requests with the same words.
extension SaveValidation {
    /// The key the save's first insert of `entity` takes: `next`, the entity's next key, or the
    /// key the request chooses for it (`chosen`), which must not be below `next`: every key below
    /// it is held or was given out, and keys are never reused. A chosen key at or past `keyLimit`
    /// is refused by `assignKey` (`keysExhausted`), as a counter there is.
    @inlinable
    public static func firstKey(of entity: EntitySchema, next: Int64, chosen: Int64?) throws -> Int64 {
        guard let chosen else { return next }
        guard chosen >= next else {
            throw StrataError(
                .invalidRequest,
                "The save chooses key \(chosen) for its first insert of '\(entity.name)', below the next key \(next): every key below it is held or was given out, and keys are never reused.",
                entity: entity.name)
        }
        return chosen
    }
}
