@_spi(StrataEngine) import Strata

/// What every save starts from, per entity, built once when the store opens and shared
/// copy-on-write with each save's transaction.
///
/// Why: building these arrays per save (`Array(repeating:count:)` reaches the standard library
/// unspecialized, about 700 instructions of generic-metadata lookup each) cost a one-record
/// update about 3,000 instructions before it did any work; a shared array is one retain, and a
/// save that inserts nothing never copies it.
@usableFromInline package struct SQLSaveStart: Sendable {
    /// `nil` per entity: no key assigned or first inserted yet.
    @usableFromInline package let noKeys: [Int64?]
    /// No temporary identifiers per entity.
    @usableFromInline package let noIdentifiers: [[PersistentIdentifier]]
    /// No positions in `writes` per entity.
    @usableFromInline package let noPositions: [[Int]]
    /// Per entity, whether a record can break a required to-one or a count bound, so the end
    /// of a save checks its relationships (`validate`).
    @usableFromInline package let needsRelationshipCheck: [Bool]
    /// Per entity, the to-one relationships an insert writes in its INSERT: those whose
    /// inverse is a to-many derived from this column, so setting the column is the whole edge.
    @usableFromInline package let directToOnes: [[Int]]
    /// Per entity, the properties some unique constraint covers: a write of other columns only
    /// cannot fail for a unique value, so it needs no `attempt` and may be queued
    /// (`SQLConnection.queueWrite`).
    @usableFromInline package let uniqueProperties: [Set<PropertyReference>]

    @inlinable
    package init(_ mapping: SQLMapping) {
        let schema = mapping.schema
        let count = schema.entities.count
        noKeys = Array(repeating: nil, count: count)
        noIdentifiers = Array(repeating: [], count: count)
        noPositions = Array(repeating: [], count: count)
        needsRelationshipCheck = schema.entities.map { e in
            e.relationships.contains { (!$0.isToMany && !$0.isOptional) || $0.minCount != nil || $0.maxCount != nil }
        }
        uniqueProperties = schema.entities.map { Set($0.uniqueConstraints.joined()) }
        directToOnes = schema.entities.map { entity in
            entity.relationships.indices.filter { r in
                guard case .column = mapping.tables[entity.index].relationships[r] else { return false }
                let destination = entity.destinationIndices[r]
                if case .inverseColumn = mapping.tables[destination].relationships[entity.inverseIndices[r]] { return true }
                return false
            }
        }
    }
}
