/// `SortKey`'s stored form: `path` and `order` as before comparators existed, `comparator` only
/// when it is not the default, so older encoded keys decode as byte order and byte-order keys
/// encode exactly as they always did.
extension SortKey: Codable {
    private enum CodingKeys: String, CodingKey {
        case path, order, comparator
    }

    /// Decodes a key; a missing comparator is `.byteOrder`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decode(PropertyPath.self, forKey: .path)
        order = try c.decode(SortOrder.self, forKey: .order)
        comparator = try c.decodeIfPresent(StringComparator.self, forKey: .comparator) ?? .byteOrder
    }

    /// Encodes a key, leaving out a default comparator.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(order, forKey: .order)
        if comparator != .byteOrder { try c.encode(comparator, forKey: .comparator) }
    }
}
