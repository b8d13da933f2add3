@_spi(StrataEngine) import Strata

/// One entity's record layout, worked out once when a store opens (`LMDBContext.shapes`): where
/// each value of a version-4 record sits (docs/formats/lmdb.md, "Records"), and the steps of the
/// fast check of versions 2 and 3.
///
/// A version-4 record puts every fixed-width value at an offset that depends only on the schema
/// and ends the variable-length ones with a table of offsets, so checking a record is its
/// checksum and a few compares (no walk over tags), and reading one value reads only that value.
final class LMDBRecordShape: Sendable {
    let entity: EntitySchema
    /// Each attribute's `LMDBRecordCodec.checkStep(of:)` (record versions 2 and 3).
    let steps: [UInt16]
    /// How many to-one relationships the entity has.
    let toOneCount: Int
    /// Bytes of presence bits after the checksum: one bit per attribute, then one per to-one.
    let presenceBytes: Int
    /// The bits of the last presence byte that no value uses (a sound record has them clear).
    let unusedPresenceBits: UInt8
    /// Per attribute: its slot's offset from the record's start (a fixed-width value), or `~j`
    /// for the `j`th variable-length attribute (string, data, URL).
    let slots: [Int]
    /// Per attribute: its slot's width (bool 1; int, double, date 8; UUID 16), 0 when variable.
    let widths: [Int]
    /// Per relationship: its to-one's number `t` (presence bit `attributes.count + t`, slot at
    /// `toOneStart + 8 t`), or −1 for a to-many.
    let toOneNumbers: [Int]
    /// Where the to-one slots start; a version-4 check returns it as the record's `links`.
    let toOneStart: Int
    /// Where the table of variable-length ends starts (after the to-one slots).
    let endsStart: Int
    /// How many variable-length attributes the entity has (entries of the ends table).
    let variableCount: Int
    /// The offsets of the bool slots (a stored bool is 0 or 1).
    let bools: [Int]
    /// The indices of URL attributes: only the full check parses a URL.
    let urls: [Int]

    init(_ entity: EntitySchema) {
        self.entity = entity
        let types = entity.attributeTypes
        steps = types.map(LMDBRecordCodec.checkStep(of:))
        var toOneNumbers: [Int] = []
        var toOnes = 0
        for isToMany in entity.relationshipIsToMany {
            toOneNumbers.append(isToMany ? -1 : toOnes)
            if !isToMany { toOnes += 1 }
        }
        self.toOneNumbers = toOneNumbers
        toOneCount = toOnes
        let bits = types.count + toOnes
        presenceBytes = (bits + 7) / 8
        unusedPresenceBits = bits % 8 == 0 ? 0 : ~UInt8((1 << (bits % 8)) - 1)
        var offset = 5 + presenceBytes
        var slots: [Int] = [], widths: [Int] = [], bools: [Int] = [], urls: [Int] = []
        var variables = 0
        for (i, type) in types.enumerated() {
            if let width = Self.width(of: type) {
                slots.append(offset)
                widths.append(width)
                if type == .bool { bools.append(offset) }
                offset += width
            } else {
                slots.append(~variables)
                widths.append(0)
                variables += 1
                if type == .url { urls.append(i) }
            }
        }
        self.slots = slots
        self.widths = widths
        self.bools = bools
        self.urls = urls
        toOneStart = offset
        endsStart = offset + 8 * toOnes
        variableCount = variables
    }

    /// The width of a fixed-width value of `type` in a version-4 record, `nil` for a
    /// variable-length one.
    static func width(of type: AttributeType) -> Int? {
        switch type {
        case .bool: 1
        case .int, .double, .date: 8
        case .uuid: 16
        case .string, .data, .url: nil
        }
    }

    /// How wide each entry of the ends table is in a record of `count` bytes: 2 bytes up to
    /// 65,535, 4 above (the encoder picks the narrow form whenever the record fits it).
    @inline(__always)
    static func endWidth(_ count: Int) -> Int { count > 0xFFFF ? 4 : 2 }
}
