/// The one error type every Strata store throws.
///
/// A struct with an open `code` plus context, not an enum, so new codes can be added without breaking
/// callers (the lesson of swift-nio's public enums). Every backend maps its native failure onto a
/// code: a SQLite UNIQUE failure and a JSON-store duplicate both raise `.uniqueConstraintViolation`
/// with the entity, the properties and the identifier of the record collided with.
///
/// ```swift
/// do { try store.save(request) }
/// catch let error as StrataError where error.code == .uniqueConstraintViolation {
///     print(error.identifiers)   // the record that already holds the value
/// }
/// ```
public struct StrataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The classification of the failure; compare with the static members.
    public var code: Code
    /// What happened and what to do about it, in one or two sentences.
    public var message: String
    /// The entity concerned, when there is one.
    public var entity: String?
    /// The properties concerned (the attributes of a unique constraint, a relationship…).
    public var properties: [String]
    /// The records concerned: for a unique violation, the record collided with.
    public var identifiers: [PersistentIdentifier]
    /// The file concerned, for on-disk failures.
    public var file: String?
    /// A byte offset into `file`, when known.
    public var offset: Int?
    /// A 1-based line in `file`, when known.
    public var line: Int?
    /// A 1-based column in `file`, when known.
    public var column: Int?
    /// The failure as the library underneath reported it (SQLite result code, LMDB return code,
    /// `errno`), when the error comes from one.
    public var native: NativeError?

    /// Makes an error; backends fill in every piece of context they have.
    public init(
        _ code: Code, _ message: String, entity: String? = nil, properties: [String] = [],
        identifiers: [PersistentIdentifier] = [], file: String? = nil, offset: Int? = nil,
        line: Int? = nil, column: Int? = nil, native: NativeError? = nil
    ) {
        self.code = code
        self.message = message
        self.entity = entity
        self.properties = properties
        self.identifiers = identifiers
        self.file = file
        self.offset = offset
        self.line = line
        self.column = column
        self.native = native
    }

    /// `code: message [entity.properties] [identifiers] [file:line:column @offset] [native domain code: message]`.
    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let entity { text += " [entity \(entity)" + (properties.isEmpty ? "" : " \(properties.joined(separator: ", "))") + "]" }
        if !identifiers.isEmpty { text += " [" + identifiers.map(\.description).joined(separator: ", ") + "]" }
        if let file {
            text += " [\(file)" + (line.map { ":\($0)" } ?? "") + (column.map { ":\($0)" } ?? "")
                + (offset.map { " @\($0)" } ?? "") + "]"
        }
        if let native { text += " [\(native)]" }
        return text
    }

    /// An error code. Open for extension: a backend may define its own with `Code(rawValue:)`.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable {
        /// The stable name of the code, used in reports and JSON output.
        public let rawValue: String
        /// Makes a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A save would give two records the same values for a unique constraint.
        public static let uniqueConstraintViolation = Code(rawValue: "uniqueConstraintViolation")
        /// A delete was refused because a `deny` relationship still has targets.
        public static let deleteDenied = Code(rawValue: "deleteDenied")
        /// A required to-one relationship would be left empty.
        public static let missingRequiredRelationship = Code(rawValue: "missingRequiredRelationship")
        /// A non-optional attribute was given no value.
        public static let missingRequiredValue = Code(rawValue: "missingRequiredValue")
        /// A to-many relationship would hold fewer or more targets than its bounds allow.
        public static let relationshipCountViolation = Code(rawValue: "relationshipCountViolation")
        /// An identifier names no record this store holds (unknown, deleted, temporary, or another store's).
        public static let unknownIdentifier = Code(rawValue: "unknownIdentifier")
        /// An entity name that the schema does not declare.
        public static let unknownEntity = Code(rawValue: "unknownEntity")
        /// A property name that the entity does not declare.
        public static let unknownProperty = Code(rawValue: "unknownProperty")
        /// A value of the wrong type for its property, or a snapshot of the wrong shape.
        public static let typeMismatch = Code(rawValue: "typeMismatch")
        /// The store holds data written with a different schema.
        public static let schemaMismatch = Code(rawValue: "schemaMismatch")
        /// The schema itself is inconsistent (a missing inverse, a duplicate name…).
        public static let invalidSchema = Code(rawValue: "invalidSchema")
        /// The store's files are damaged, truncated or not a store of this kind.
        public static let corruptStore = Code(rawValue: "corruptStore")
        /// Another writer holds the store.
        public static let storeLocked = Code(rawValue: "storeLocked")
        /// A save on a store opened read-only.
        public static let readOnlyStore = Code(rawValue: "readOnlyStore")
        /// The backend does not support what was asked.
        public static let unsupported = Code(rawValue: "unsupported")
        /// An entity's key counter reached its limit (`Int64.max`): keys are never reused, so no
        /// further insert is possible. Reported instead of an arithmetic overflow.
        public static let keysExhausted = Code(rawValue: "keysExhausted")
        /// An I/O failure that is none of the above (disk full, permission denied…).
        public static let ioFailure = Code(rawValue: "ioFailure")
        /// The request itself is malformed (a record inserted or updated twice, a permanent identifier on an insert).
        public static let invalidRequest = Code(rawValue: "invalidRequest")
        /// A query construct (a `#Predicate` expression of the model layer) that has no store
        /// translation; the message names it. Thrown before any store work.
        public static let unsupportedPredicate = Code(rawValue: "unsupportedPredicate")
        /// A conflict-checked update found a property changed by another save since it was read.
        public static let writeConflict = Code(rawValue: "writeConflict")
        /// A history fetch from a token older than the oldest transaction the store still keeps
        /// (`deleteHistory` removed the ones after it): SwiftData's "history token expired". Fetch
        /// from the start again instead of missing changes silently.
        public static let historyTokenExpired = Code(rawValue: "historyTokenExpired")
    }
}

extension StrataError.Code {
    /// Lets `catch StrataError.Code.deleteDenied` patterns match thrown errors.
    public static func ~= (code: StrataError.Code, error: any Error) -> Bool {
        (error as? StrataError)?.code == code
    }
}
