import Strata

/// The suite's one canonical domain, a small library system that uses every relationship shape and
/// delete rule, so each promise of the contract has something to act on.
///
/// - `Library.books` → `Book.library`: to-many with **cascade**; the to-one is **required**.
/// - `Library.shelves` → `Shelf.library`: **ordered** to-many with cascade.
/// - `Book.chapters` → `Chapter.book`: a second cascade level (Library → Book → Chapter).
/// - `Book.authors` ↔ `Author.books`: **many-to-many** with **nullify**; `Author.favorites` ↔
///   `Book.fans`: a many-to-many **ordered** on one side.
/// - `Shelf.books` → `Book.shelf`: **deny**, with `maxCount` 3.
/// - `Author.mentor` ↔ `Author.students`: **self-reference**.
/// - `Book.sequel` ↔ `Book.prequel`: one-to-one self-reference.
/// - `Part.next` ↔ `Part.previous`: cascade both ways, so a ring of parts is a **cascade cycle**.
/// - `Tag.notes` ↔ `Note.tag`: **noAction** both ways (a deleted tag leaves its notes' references
///   dangling; a deleted note disappears from its tag's list, since a to-many never lists a deleted record).
/// - `Team.members` → `Player.team`: `minCount` 1, `maxCount` 3.
/// - `Member.friends` and `Member.partner`: relationships that are **their own inverse** (a
///   symmetric many-to-many and a symmetric one-to-one), nullify.
/// - Unique: `Library.name` and `Book.isbn` (single; isbn optional), `Book(library, title)`
///   (composite with a to-one), `Author(name, country)` (composite, country optional).
/// - `Reading.value`: a unique Double (−0 and +0 collide, NaN never does).
/// - `Sample`: one optional attribute of every type, for round-trips and fetches.
public enum FixtureDomain {
    /// The fixture's entity declarations.
    public static let entities: [Entity] = [
        Entity("Library") {
            Attribute("name", .string, unique: true)
            Attribute("city", .string, optional: true)
            Relationship.toMany("books", "Book", inverse: "library", deleteRule: .cascade)
            Relationship.toMany("shelves", "Shelf", inverse: "library", ordered: true, deleteRule: .cascade)
        },
        Entity("Book") {
            Attribute("title", .string)
            Attribute("isbn", .string, optional: true, unique: true)
            Attribute("pages", .int, default: 0, indexed: true)
            Relationship.toOne("library", "Library", inverse: "books", optional: false)
            Relationship.toMany("authors", "Author", inverse: "books")
            Relationship.toOne("shelf", "Shelf", inverse: "books")
            Relationship.toMany("chapters", "Chapter", inverse: "book", ordered: true, deleteRule: .cascade)
            Relationship.toOne("sequel", "Book", inverse: "prequel")
            Relationship.toOne("prequel", "Book", inverse: "sequel")
            Relationship.toMany("fans", "Author", inverse: "favorites")
            UniqueConstraint("library", "title")
        },
        Entity("Chapter") {
            Attribute("title", .string)
            Relationship.toOne("book", "Book", inverse: "chapters", optional: false)
        },
        Entity("Author") {
            Attribute("name", .string)
            Attribute("country", .string, optional: true)
            Relationship.toMany("books", "Book", inverse: "authors")
            Relationship.toMany("favorites", "Book", inverse: "fans", ordered: true)
            Relationship.toOne("mentor", "Author", inverse: "students")
            Relationship.toMany("students", "Author", inverse: "mentor")
            UniqueConstraint("name", "country")
        },
        Entity("Shelf") {
            Attribute("label", .string)
            Relationship.toOne("library", "Library", inverse: "shelves")
            Relationship.toMany("books", "Book", inverse: "shelf", deleteRule: .deny, maxCount: 3)
        },
        Entity("Part") {
            Attribute("name", .string)
            Relationship.toOne("next", "Part", inverse: "previous", deleteRule: .cascade)
            Relationship.toOne("previous", "Part", inverse: "next", deleteRule: .cascade)
        },
        Entity("Tag") {
            Attribute("name", .string, unique: true)
            Relationship.toMany("notes", "Note", inverse: "tag", deleteRule: .noAction)
        },
        Entity("Note") {
            Attribute("text", .string)
            Relationship.toOne("tag", "Tag", inverse: "notes", deleteRule: .noAction)
        },
        Entity("Team") {
            Attribute("name", .string)
            Relationship.toMany("members", "Player", inverse: "team", minCount: 1, maxCount: 3)
        },
        Entity("Player") {
            Attribute("name", .string)
            Relationship.toOne("team", "Team", inverse: "members")
        },
        Entity("Member") {
            Attribute("name", .string)
            Relationship.toMany("friends", "Member", inverse: "friends")
            Relationship.toOne("partner", "Member", inverse: "partner")
        },
        Entity("Reading") {
            Attribute("value", .double, optional: true, unique: true)
        },
        Entity("Sample") {
            Attribute("label", .string)
            Attribute("flag", .bool, optional: true)
            Attribute("int", .int, optional: true)
            Attribute("double", .double, optional: true)
            Attribute("string", .string, optional: true)
            Attribute("date", .date, optional: true)
            Attribute("data", .data, optional: true)
            Attribute("uuid", .uuid, optional: true)
            Attribute("url", .url, optional: true)
            Attribute("count", .int, default: 7)
        },
    ]

    /// The validated fixture schema.
    public static let schema: Schema = {
        do { return try Schema(entities: entities) } catch { preconditionFailure("The fixture schema is invalid: \(error)") }
    }()

    /// The fixture with one extra attribute on `Sample`: a different fingerprint, for schema-mismatch cases.
    public static let changedSchema: Schema = {
        var changed = entities
        changed[changed.count - 1].attributes.append(Attribute("extra", .string, optional: true))
        do { return try Schema(entities: changed) } catch { preconditionFailure("The changed fixture schema is invalid: \(error)") }
    }()
}
