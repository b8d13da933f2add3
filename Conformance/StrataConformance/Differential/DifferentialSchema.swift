import Strata

/// The schema differential runs use: a notes app, deliberately not the conformance fixture, so the
/// random runs exercise shapes the cases were not written around.
///
/// - `Folder.notes` → `Note.folder`: an **ordered** to-many with **cascade**; `Note(folder, title)`
///   is unique (a composite over a to-one), `Folder.name` is unique.
/// - `Note.tags` ↔ `Tag.notes`: many-to-many, nullify from the note, **deny** from the tag.
/// - `Note.parent` ↔ `Note.children`: self-reference, nullify both ways.
/// - Attributes of every awkward kind: optional text, double (NaN, −0, ±∞), int extremes, bool.
public enum DifferentialSchema {
    /// The entity declarations.
    public static let entities: [Entity] = [
        Entity("Folder") {
            Attribute("name", .string, unique: true)
            Attribute("rank", .int, optional: true, indexed: true)
            Relationship.toMany("notes", "Note", inverse: "folder", ordered: true, deleteRule: .cascade)
        },
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string, optional: true)
            Attribute("score", .double, optional: true)
            Attribute("pinned", .bool, optional: true)
            Attribute("count", .int, optional: true)
            Relationship.toOne("folder", "Folder", inverse: "notes")
            Relationship.toMany("tags", "Tag", inverse: "notes")
            Relationship.toOne("parent", "Note", inverse: "children")
            Relationship.toMany("children", "Note", inverse: "parent")
            UniqueConstraint("folder", "title")
        },
        Entity("Tag") {
            Attribute("label", .string, unique: true)
            Attribute("weight", .double, optional: true)
            Relationship.toMany("notes", "Note", inverse: "tags", deleteRule: .deny)
        },
    ]

    /// The validated schema.
    public static let schema: Schema = {
        do { return try Schema(entities: entities) } catch { preconditionFailure("The differential schema is invalid: \(error)") }
    }()
}
