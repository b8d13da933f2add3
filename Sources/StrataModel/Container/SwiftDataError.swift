/// SwiftData's error type, with the members Apple documents, for code that catches them:
/// `catch SwiftDataError.unsupportedPredicate { … }`.
///
/// Strata throws `StrataError` (its one taxonomy, with a code and the context); `SwiftDataError`
/// only matches them, through `~=`, where a Strata code means what a SwiftData error means:
///
/// | SwiftDataError | matches StrataError codes |
/// |---|---|
/// | `unsupportedPredicate` | `unsupportedPredicate` |
/// | `loadIssueModelContainer` | `corruptStore`, `schemaMismatch`, `storeLocked` |
///
/// The other members match only themselves (Strata never throws them): fetch options Strata
/// supports (`includePendingChangesWithBatchSize`, `sortingPendingChangesWithIdentifiers`), key
/// paths and sort descriptors it reports as `unsupportedPredicate`, history (its own issue) and
/// migrations (`unknownSchema`, `backwardMigration`), and configuration errors of file names Linux
/// accepts.
public struct SwiftDataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The member's name.
    let name: String
    /// The Strata codes this error stands for.
    let codes: Set<StrataError.Code>

    private init(_ name: String, _ codes: Set<StrataError.Code> = []) {
        self.name = name
        self.codes = codes
    }

    /// The member's name.
    public var description: String { "SwiftDataError.\(name)" }

    /// A fetch asked for pending changes with a batch size.
    public static let includePendingChangesWithBatchSize = SwiftDataError("includePendingChangesWithBatchSize")
    /// A fetch asked for identifiers sorted with pending changes.
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError("sortingPendingChangesWithIdentifiers")
    /// A key path the store cannot use.
    public static let unsupportedKeyPath = SwiftDataError("unsupportedKeyPath")
    /// A predicate the store cannot run (Strata: `StrataError.Code.unsupportedPredicate`).
    public static let unsupportedPredicate = SwiftDataError("unsupportedPredicate", [.unsupportedPredicate])
    /// A sort descriptor the store cannot use.
    public static let unsupportedSortDescriptor = SwiftDataError("unsupportedSortDescriptor")
    /// A history token too old to use.
    public static let historyTokenExpired = SwiftDataError("historyTokenExpired", [.historyTokenExpired])
    /// A history fetch request that is not valid.
    public static let invalidTransactionFetchRequest = SwiftDataError("invalidTransactionFetchRequest")
    /// A configuration's file name holds characters a file name cannot.
    public static let configurationFileNameContainsInvalidCharacters = SwiftDataError("configurationFileNameContainsInvalidCharacters")
    /// A configuration's schema names entities the container's lacks.
    public static let configurationSchemaNotFoundInContainerSchema = SwiftDataError("configurationSchemaNotFoundInContainerSchema")
    /// The container could not load its store (Strata: `corruptStore`, `schemaMismatch`, `storeLocked`).
    public static let loadIssueModelContainer = SwiftDataError("loadIssueModelContainer", [.corruptStore, .schemaMismatch, .storeLocked])
    /// A migration would go to an older schema version.
    public static let backwardMigration = SwiftDataError("backwardMigration")
    /// The store's schema is none the migration plan knows.
    public static let unknownSchema = SwiftDataError("unknownSchema")

    /// Whether `rhs` is this error, or a `StrataError` whose code this error stands for.
    public static func ~= (lhs: SwiftDataError, rhs: any Error) -> Bool {
        if let same = rhs as? SwiftDataError { return same == lhs }
        if let strata = rhs as? StrataError { return lhs.codes.contains(strata.code) }
        return false
    }
}
