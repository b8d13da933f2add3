import Foundation

/// Models are `Codable` so that a `#Predicate` can capture one: Foundation's predicate tree takes
/// only `Codable` values (`$0.folder == work` holds `work` as a value node). SwiftData's models
/// are not, which is why SwiftData code compares `persistentModelID`s instead; both forms work here.
///
/// The defaults encode an object as its identifier and refuse to decode (an object comes from a
/// context, not from bytes). A model that implements `Codable` itself keeps its own implementation.
extension PersistentModel {
    /// Encodes the object's `persistentModelID`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(persistentModelID)
    }

    /// Always throws: model objects are made by a `ModelContext` (`insert`, `fetch`, `model(for:)`).
    public init(from decoder: any Decoder) throws {
        throw _modelDecodingRefused(Self.self, decoder)
    }
}

/// The error every model's `init(from:)` throws (generated into non-final model classes).
public func _modelDecodingRefused(_ type: Any.Type, _ decoder: any Decoder) -> DecodingError {
    DecodingError.dataCorrupted(DecodingError.Context(
        codingPath: decoder.codingPath,
        debugDescription: "\(type) is a model: get objects from a ModelContext (decode an identifier and call model(for:))."))
}
