import Foundation

/// Which context a request comes from (SwiftData's `EditingState`), so a store that keeps
/// per-context state can tell contexts apart.
///
/// Strata's contexts do not reach a custom store individually (the adapter sits behind the core
/// store contract): every request of one container carries the container's editing state, and a
/// save's carries the saving context's `author`.
public struct EditingState: Sendable, Identifiable {
    /// The state's identity.
    public let id: UUID
    /// The author of the changes, if the context named one.
    public var author: String?

    init(id: UUID = UUID(), author: String? = nil) {
        self.id = id
        self.author = author
    }
}
