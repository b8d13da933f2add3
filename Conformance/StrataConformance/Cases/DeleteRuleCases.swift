import Strata

extension ConformanceSuite {
    static let deleteRuleCases: [ConformanceCase] = {
        let c = ConformanceCategory.deleteRules.cases(requiring: [])
        /// A library with `books` books of `chapters` chapters each; returns (library, books, chapters).
        @Sendable func library(_ ctx: CaseContext, _ name: String = "L", books: Int, chapters: Int) throws -> (PersistentIdentifier, [PersistentIdentifier], [PersistentIdentifier]) {
            let lib = ctx.new("Library", ["name": .string(name)])
            var records = [lib]
            var bookRecords: [SuiteRecord] = []
            var chapterRecords: [SuiteRecord] = []
            for b in 0..<books {
                let book = ctx.new("Book", ["title": .string("\(name)-b\(b)")], ["library": .toOne(lib.id)])
                bookRecords.append(book)
                for c in 0..<chapters {
                    chapterRecords.append(ctx.new("Chapter", ["title": .string("c\(c)")], ["book": .toOne(book.id)]))
                }
            }
            records += bookRecords + chapterRecords
            let ids = try ctx.insert(records)
            return (ids[0], Array(ids[1..<(1 + books)]), Array(ids[(1 + books)...]))
        }
        return [
            c("cascade-deletes-targets", "Cascade deletes the targets: they are gone when fetched, and counted as deleted.") { ctx in
                let (lib, books, _) = try library(ctx, books: 3, chapters: 0)
                let result = try ctx.delete(lib)
                for b in books { try ctx.check(try ctx.find(b) == nil, "Book \(b) still exists after its library was deleted (cascade).") }
                try ctx.checkEqual(try ctx.count("Book"), 0, "books left")
                try ctx.checkEqual(result.deleted, Set([lib] + books), "deleted identifiers in the result")
            },
            c("cascade-multi-level", "Cascade goes on recursively: library → books → chapters.") { ctx in
                let (lib, books, chapters) = try library(ctx, books: 3, chapters: 4)
                let (other, otherBooks, otherChapters) = try library(ctx, "Other", books: 1, chapters: 2)
                let result = try ctx.delete(lib)
                try ctx.checkEqual(try ctx.count("Chapter"), otherChapters.count, "chapters left")
                try ctx.checkEqual(Set(try ctx.store.fetchIdentifiers(FetchDescriptor(entity: "Book"))), Set(otherBooks), "books left")
                try ctx.checkEqual(result.deleted, Set([lib] + books + chapters), "deleted identifiers")
                try ctx.check(try ctx.find(other) != nil, "The other library was deleted too.")
            },
            c("cascade-unloaded-targets", requires: .persistence, "Cascade applies to records the client never fetched, after reopen.") { ctx in
                let (lib, _, _) = try library(ctx, books: 5, chapters: 2)
                try ctx.reopen()
                let library = SuiteRecord(id: lib, entity: ctx.entity("Library"), attributes: [.string("L"), .null], relationships: [.toMany([]), .toMany([])])
                try ctx.save(deleted: [library])
                try ctx.checkEqual(try ctx.count("Book") + ctx.count("Chapter"), 0, "books and chapters left")
            },
            c("cascade-cycle-ends", "Cascade around a cycle deletes each member once and stops.") { ctx in
                let parts = (0..<4).map { ctx.new("Part", ["name": .string("p\($0)")]) }
                var ring = parts
                for i in ring.indices { ring[i].set("next", to: parts[(i + 1) % parts.count].id) }
                let outsider = ctx.new("Part", ["name": "alone"])
                let ids = try ctx.insert(ring + [outsider])
                let result = try ctx.delete(ids[1])
                try ctx.checkEqual(try ctx.store.fetchIdentifiers(FetchDescriptor(entity: "Part")), [ids[4]], "parts left")
                try ctx.checkEqual(result.deleted, Set(ids[0..<4]), "deleted identifiers")
            },
            c("cascade-chain-both-ways", "Cascade follows a chain in both directions from the middle.") { ctx in
                var parts = (0..<5).map { ctx.new("Part", ["name": .string("p\($0)")]) }
                for i in 0..<4 { parts[i].set("next", to: parts[i + 1].id) }
                let ids = try ctx.insert(parts)
                try ctx.delete(ids[2])
                try ctx.checkEqual(try ctx.count("Part"), 0, "parts left")
            },
            c("cascade-long-chain-and-ring", "Cascade through a chain and a ring of 1,500 records each deletes them all: no recursion limit (SQLite's trigger depth is 1,000).") { ctx in
                let length = 1_500
                var chain = (0..<length).map { ctx.new("Part", ["name": .string("c\($0)")]) }
                for i in 0..<(length - 1) { chain[i].set("next", to: chain[i + 1].id) }
                var ring = (0..<length).map { ctx.new("Part", ["name": .string("r\($0)")]) }
                for i in ring.indices { ring[i].set("next", to: ring[(i + 1) % length].id) }
                let ids = try ctx.insert(chain + ring + [ctx.new("Part", ["name": "alone"])])
                let result = try ctx.delete(ids[0], ids[length + length / 2])
                try ctx.checkEqual(try ctx.store.fetchIdentifiers(FetchDescriptor(entity: "Part")), [ids[2 * length]], "parts left")
                try ctx.checkEqual(result.deleted.count, 2 * length, "deleted identifiers")
            },
            c("nullify-to-many-inverse", "Nullify removes the deleted record from the inverse to-many.") { ctx in
                let (lib, books, _) = try library(ctx, books: 3, chapters: 0)
                try ctx.delete(books[1])
                try ctx.checkEqual(try ctx.get(lib).targets("books"), [books[0], books[2]], "library.books")
            },
            c("nullify-to-one-inverse", "Nullify empties the inverse to-one of the targets.") { ctx in
                let mentor = ctx.new("Author", ["name": "M"])
                let student = ctx.new("Author", ["name": "S"], ["mentor": .toOne(mentor.id)])
                let ids = try ctx.insert(mentor, student)
                let result = try ctx.delete(ids[0])
                try ctx.checkEqual(try ctx.get(ids[1]).target("mentor"), nil, "student.mentor")
                try ctx.check(result.changed[ids[1]] != nil, "The result does not report the nullified student.")
            },
            c("nullify-many-to-many", requires: .manyToMany, "Nullify removes the deleted record from every many-to-many partner.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let books = (0..<3).map { ctx.new("Book", ["title": .string("b\($0)")], ["library": .toOne(lib.id)]) }
                let authors = (0..<2).map { ctx.new("Author", ["name": .string("a\($0)")], ["books": .toMany(books.map(\.id))]) }
                let ids = try ctx.insert([lib] + books + authors)
                try ctx.delete(ids[4])
                for b in ids[1...3] { try ctx.checkEqual(try ctx.get(b).targets("authors"), [ids[5]], "book.authors") }
                try ctx.delete(ids[1])
                try ctx.checkEqual(try ctx.get(ids[5]).targets("books").sorted(), [ids[2], ids[3]], "author.books")
            },
            c("nullify-required-fails", "Nullify that would empty a required to-one fails the save.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(lib.id)])
                let chapter = ctx.new("Chapter", ["title": "C"], ["book": .toOne(book.id)])
                let ids = try ctx.insert(lib, book, chapter)
                var c = try ctx.get(ids[2])
                c.set("book", to: nil)
                try ctx.expectError(.missingRequiredRelationship, "a chapter leaving its book") { try ctx.save(updated: [c]) }
            },
            c("deny-fails-with-targets", "Deny fails the whole save while targets exist, naming the record and relationship.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let shelf = ctx.new("Shelf", ["label": "S"])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(lib.id), "shelf": .toOne(shelf.id)])
                let spare = ctx.new("Sample", ["label": "spare"])
                let ids = try ctx.insert(lib, shelf, book, spare)
                let before = try ctx.everything()
                let error = try ctx.expectError(.deleteDenied, "deleting a shelf that holds a book") {
                    try ctx.save(deleted: [try ctx.get(ids[3]), try ctx.get(ids[1])])
                }
                try ctx.checkEqual(error.properties, ["books"], "error properties")
                try ctx.check(error.identifiers.contains(ids[1]), "The error does not name the shelf: \(error.identifiers).")
                try ctx.expectUnchanged(before, "denied delete")
            },
            c("deny-allows-without-targets", "Deny allows the delete when no target exists.") { ctx in
                let shelf = try ctx.insert(ctx.new("Shelf", ["label": "S"]))[0]
                try ctx.delete(shelf)
                try ctx.checkEqual(try ctx.count("Shelf"), 0, "shelves left")
            },
            c("deny-allows-targets-deleted-together", "Deny allows the delete when the targets are deleted in the same save.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let shelf = ctx.new("Shelf", ["label": "S"])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(lib.id), "shelf": .toOne(shelf.id)])
                let ids = try ctx.insert(lib, shelf, book)
                try ctx.delete(ids[1], ids[2])
                try ctx.checkEqual(try ctx.count("Shelf") + ctx.count("Book"), 0, "shelves and books left")
            },
            c("deny-inside-cascade", "A cascade that reaches a deny with outside targets fails entirely.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let other = ctx.new("Library", ["name": "O"])
                let shelf = ctx.new("Shelf", ["label": "S"], ["library": .toOne(lib.id)])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(other.id), "shelf": .toOne(shelf.id)])
                let ids = try ctx.insert(lib, other, shelf, book)
                let before = try ctx.everything()
                try ctx.expectError(.deleteDenied, "a library whose cascaded shelf holds another library's book") { try ctx.delete(ids[0]) }
                try ctx.expectUnchanged(before, "denied cascade")
            },
            c("no-action-leaves-dangling", "noAction deletes the record and leaves the targets' references pointing at it.") { ctx in
                let tag = ctx.new("Tag", ["name": "t"])
                let notes = (0..<2).map { ctx.new("Note", ["text": .string("n\($0)")], ["tag": .toOne(tag.id)]) }
                let ids = try ctx.insert([tag] + notes)
                let result = try ctx.delete(ids[0])
                try ctx.check(try ctx.find(ids[0]) == nil, "The tag still exists.")
                try ctx.checkEqual(result.deleted, [ids[0]], "deleted identifiers (no cascade)")
                for n in ids[1...] { try ctx.checkEqual(try ctx.get(n).target("tag"), ids[0], "note.tag (dangling by contract)") }
                var note = try ctx.get(ids[1])
                note["text"] = "edited"
                try ctx.save(updated: [note])
                try ctx.checkEqual(try ctx.get(ids[1]).target("tag"), ids[0], "note.tag after an unrelated update")
            },
            c("no-action-to-many-drops-deleted", "noAction towards a to-many: the deleted record leaves the list (a list never shows deleted records).") { ctx in
                let tag = ctx.new("Tag", ["name": "t"])
                let notes = (0..<3).map { ctx.new("Note", ["text": .string("n\($0)")], ["tag": .toOne(tag.id)]) }
                let ids = try ctx.insert([tag] + notes)
                let result = try ctx.delete(ids[2])
                try ctx.checkEqual(try ctx.get(ids[0]).targets("notes").sorted(), [ids[1], ids[3]], "tag.notes")
                try ctx.checkEqual(result.deleted, [ids[2]], "deleted identifiers")
            },
            c("delete-with-update-same-save", "Deletes apply after the inserts and updates of the same save.") { ctx in
                let (lib, books, _) = try library(ctx, books: 2, chapters: 0)
                let (other, _, _) = try library(ctx, "O", books: 0, chapters: 0)
                var moved = try ctx.get(books[0])
                moved.set("library", to: other)
                try ctx.save(updated: [moved], deleted: [try ctx.get(lib)])
                try ctx.checkEqual(try ctx.store.fetchIdentifiers(FetchDescriptor(entity: "Book")), [books[0]], "books left")
                try ctx.checkEqual(try ctx.get(other).targets("books"), [books[0]], "other library's books")
            },
        ]
    }()
}
