import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// Reads the files a manifest names back into a state, checking every row.
struct CSVLoader {
    let layout: CSVLayout
    let folder: CSVFolder

    private struct Row {
        var attributes: [Value]
        var toOne: [Int: Int64?]
        var order: [Int: Int]
    }

    /// Reads every table the manifest names (checking each file's checksum first) into a state,
    /// and checks that every reference names a record the store holds.
    func load(_ manifest: CSVManifest) throws -> StoreState {
        let schema = layout.schema
        let files = try chunkFiles(manifest)
        var rows: [[Int64: Row]] = Array(repeating: [:], count: schema.entities.count)
        for entity in schema.entities {
            rows[entity.index] = try readEntity(entity, files: files[entity.name] ?? [], manifest)
        }
        var state = StoreState(schema: schema, storeIdentifier: manifest.storeIdentifier)
        // To-many lists come from the rows that point back (ordered by their order column) or from pair files.
        var lists: [[Int64: [Int: [(Int64, Int)]]]] = Array(repeating: [:], count: schema.entities.count)
        for entity in schema.entities {
            for (key, row) in rows[entity.index] {
                for (r, target) in row.toOne {
                    guard let target else { continue }
                    let destination = entity.destinationIndices[r], inverse = entity.inverseIndices[r]
                    guard schema.entities[destination].relationships[inverse].isToMany else { continue }
                    lists[destination][target, default: [:]][inverse, default: []].append((key, row.order[r] ?? Int(key)))
                }
            }
        }
        for pair in layout.pairs {
            let leftOrdered = pair.left.entity.relationships[pair.left.relationship].isOrdered
            let rightOrdered = pair.right.entity.relationships[pair.right.relationship].isOrdered
            // A symmetric pair's file holds each edge from both ends already.
            let symmetric = pair.isSymmetric
            for (chunk, file) in files[pair.name] ?? [] {  // none: no pairs
                for (line, fields) in try table(file, header: pair.header, manifest) {
                    func key(_ column: Int) throws -> Int64 {
                        guard let k = Int64(fields[column].text) else { throw corrupt(file, line, column + 1, "'\(fields[column].text)' is not a key") }
                        return k
                    }
                    let a = try key(0), b = try key(1)
                    if let chunk, !CSVChunks.range(chunk).contains(a) { throw corrupt(file, line, 1, "key \(a) does not belong in chunk \(chunk)") }
                    var column = 2
                    var positionA = Int(b), positionB = Int(a)
                    if leftOrdered { positionA = Int(fields[column].text) ?? positionA; column += 1 }
                    if rightOrdered { positionB = Int(fields[column].text) ?? positionB }
                    lists[pair.left.entity.index][a, default: [:]][pair.left.relationship, default: []].append((b, positionA))
                    if !symmetric { lists[pair.right.entity.index][b, default: [:]][pair.right.relationship, default: []].append((a, positionB)) }
                }
            }
        }
        for entity in schema.entities {
            for (key, row) in rows[entity.index].sorted(by: { $0.key < $1.key }) {
                let links: [Link] = entity.relationships.indices.map { r in
                    if !entity.relationships[r].isToMany { return .one(row.toOne[r] ?? nil) }
                    let members = lists[entity.index][key]?[r] ?? []
                    return .many(members.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0))
                }
                try state.load(entity, key: key, record: StoredRecord(attributes: row.attributes, links: links))
            }
            state.setNextPrimaryKey(entity, atLeast: manifest.nextKeys[entity.name] ?? 1)
        }
        try state.finishLoading()
        try state.verifyReferences(file: folder.url.path)
        return state
    }

    /// The manifest's files by table, with their chunks, in chunk order. Format 3 names chunks of
    /// tables the schema has; formats 1 and 2 name whole tables.
    private func chunkFiles(_ manifest: CSVManifest) throws -> [String: [(chunk: Int64?, file: String)]] {
        let tables = Set(layout.schema.entities.map(\.name) + layout.pairs.map(\.name))
        var files: [String: [(chunk: Int64?, file: String)]] = [:]
        for (name, file) in manifest.files {
            guard let (table, chunk) = CSVChunks.parse(name), tables.contains(table), (chunk != nil) == (manifest.version >= 3) else {
                throw StrataError(.corruptStore, "The manifest names '\(name)', which is not a table of this schema's format-\(manifest.version) layout.", file: folder.manifestPath)
            }
            files[table, default: []].append((chunk, file))
        }
        return files.mapValues { $0.sorted { ($0.chunk ?? 0) < ($1.chunk ?? 0) } }
    }

    private func corrupt(_ file: String, _ line: Int, _ column: Int, _ what: String) -> StrataError {
        StrataError(.corruptStore, "\(file), line \(line), column \(column): \(what).", file: folder.url.appendingPathComponent(file).path, line: line, column: column)
    }

    /// The data rows of a file whose header must hold exactly `header` (in any order), reordered to it.
    private func table(_ file: String, header: [String], _ manifest: CSVManifest) throws -> [(Int, [CSVField])] {
        let path = folder.path(file)
        guard let bytes = try DurableFile.read(path) else {
            throw StrataError(.corruptStore, "The file \(file) named by the manifest is missing.", file: path)
        }
        if manifest.version >= 2, manifest.checksums[file] != Checksum.hex(bytes) {
            throw StrataError(.corruptStore, "\(file) does not match the checksum the manifest holds for it: it was damaged, edited or swapped. Restore it from a backup.", file: path)
        }
        let parsed = try CSVParser(file: path).rows(Data(bytes))
        guard let first = parsed.first else { throw corrupt(file, 1, 1, "the header row is missing") }
        var positions: [Int] = []
        for name in header {
            guard let i = first.fields.firstIndex(where: { $0.text == name }) else { throw corrupt(file, 1, first.fields.count + 1, "the column '\(name)' is missing") }
            positions.append(i)
        }
        for (i, field) in first.fields.enumerated() where !header.contains(field.text) {
            throw corrupt(file, 1, i + 1, "unknown column '\(field.text)'")
        }
        return try parsed.dropFirst().map { line, fields in
            guard fields.count == header.count else { throw corrupt(file, line, min(fields.count, header.count) + 1, "\(fields.count) fields where the header has \(header.count)") }
            return (line, positions.map { fields[$0] })
        }
    }

    private func readEntity(_ entity: EntitySchema, files: [(chunk: Int64?, file: String)], _ manifest: CSVManifest) throws -> [Int64: Row] {
        let header = layout.header(entity)
        let toOnes = layout.toOneColumns(entity)
        var rows: [Int64: Row] = [:]
        for (chunk, file) in files {
            for (line, fields) in try table(file, header: header, manifest) {
                guard let key = Int64(fields[0].text) else { throw corrupt(file, line, 1, "'\(fields[0].text)' is not a key") }
                if let chunk, !CSVChunks.range(chunk).contains(key) { throw corrupt(file, line, 1, "key \(key) does not belong in chunk \(chunk)") }
                var attributes: [Value] = []
                for (i, type) in entity.attributeTypes.enumerated() {
                    guard let value = CSVFieldCodec.decode(fields[i + 1], type) else {
                        throw corrupt(file, line, i + 2, "'\(fields[i + 1].text)' is not a \(type.rawValue) for '\(entity.attributes[i].name)'")
                    }
                    attributes.append(value)
                }
                var column = entity.attributes.count + 1
                var row = Row(attributes: attributes, toOne: [:], order: [:])
                for (r, ordered) in toOnes {
                    let text = fields[column].text
                    if text.isEmpty {
                        row.toOne[r] = .some(nil)
                    } else {
                        guard let target = Int64(text) else { throw corrupt(file, line, column + 1, "'\(text)' is not a key") }
                        row.toOne[r] = target
                    }
                    column += 1
                    if ordered {
                        if let position = Int(fields[column].text) { row.order[r] = position }
                        column += 1
                    }
                }
                guard rows.updateValue(row, forKey: key) == nil else { throw corrupt(file, line, 1, "key \(key) appears twice") }
            }
        }
        return rows
    }
}
