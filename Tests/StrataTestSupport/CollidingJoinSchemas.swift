import Strata

/// Two versions of a schema for the SQL join-name tests (docs/formats/sqlite.md, "Join table
/// names"): `v1` has one many-to-many pair, `A.b_c` ↔ `X.y_z`; `v2` adds `A_b.c` ↔ `X_y.z`, whose
/// plain join name is the same, so a migration from `v1` renames the first pair's table.
public enum CollidingJoinSchemas {
    /// The pair alone.
    public static let v1 = try! Schema(entities: [
        Entity("A") { Attribute("name", .string); Relationship.toMany("b_c", "X", inverse: "y_z") },
        Entity("X") { Attribute("name", .string); Relationship.toMany("y_z", "A", inverse: "b_c") },
    ], version: Schema.Version(1, 0, 0))

    /// `v1` and the pair whose plain name collides with it.
    public static let v2 = try! Schema(entities: v1.entities.map(\.declaration) + [
        Entity("A_b") { Relationship.toMany("c", "X_y", inverse: "z") },
        Entity("X_y") { Relationship.toMany("z", "A_b", inverse: "c") },
    ], version: Schema.Version(2, 0, 0))
}
