import Foundation
import Strata
import StrataFileSupport
import Testing

/// The shared journal: a torn tail is a save that never returned, damage anywhere else is corrupt,
/// and a writer's next append never follows a fragment.
struct JournalTests {
    static func lines(_ bodies: [String]) -> [UInt8] { bodies.flatMap { Journal.line(Array($0.utf8)) } }

    @Test func wholeLinesAreReadBack() throws {
        let bytes = Self.lines(["one", "two"])
        let scan = try Journal.scan(bytes, file: "j")
        #expect(scan.lines.map { String(decoding: $0.body, as: UTF8.self) } == ["one", "two"])
        #expect(scan.end == bytes.count && scan.tornBytes == 0 && !scan.needsLineEnd)
    }

    @Test func aTornTailIsNotALine() throws {
        let whole = Self.lines(["one"])
        let torn = whole + Array(Self.lines(["two, which was cut"]).prefix(20))
        let scan = try Journal.scan(torn, file: "j")
        #expect(scan.lines.count == 1)
        #expect(scan.end == whole.count && scan.tornBytes == 20)
    }

    @Test func aLineCutBeforeItsLineEndIsKeptAndCompletedLater() throws {
        let bytes = Array(Self.lines(["one", "two"]).dropLast())
        let scan = try Journal.scan(bytes, file: "j")
        #expect(scan.lines.count == 2 && scan.needsLineEnd && scan.end == bytes.count)
    }

    /// History lines (JSON and XML with history on) are kept apart from the save lines; one not
    /// followed by a save line is torn tail, wherever the write stopped after it.
    @Test func historyLinesAreKeptApartAndTornWithoutTheirSaveLine() throws {
        func historyLine(_ body: String) -> [UInt8] { Journal.line(Journal.historyPrefix + Array(body.utf8)) }
        let committed = historyLine("h1") + Self.lines(["one"]) + Self.lines(["two"]) + historyLine("h3") + Self.lines(["three"])
        let scan = try Journal.scan(committed, file: "j")
        #expect(scan.lines.map { String(decoding: $0.body, as: UTF8.self) } == ["one", "two", "three"])
        #expect(scan.history.map { String(decoding: $0.body, as: UTF8.self) } == ["h1", "h3"])
        #expect(scan.end == committed.count && scan.tornBytes == 0 && !scan.needsLineEnd)
        let next = historyLine("h4"), save = Self.lines(["four"])
        for torn in [next, Array(next.dropLast()), next + Array(save.prefix(20)), next + Array(save.dropLast(2))] {
            let cut = try Journal.scan(committed + torn, file: "j")
            #expect(cut.lines.count == 3 && cut.history.count == 2, "\(torn.count) bytes after the last save line")
            #expect(cut.end == committed.count && cut.tornBytes == torn.count && !cut.needsLineEnd)
        }
        let whole = try Journal.scan(committed + next + save, file: "j")
        #expect(whole.lines.count == 4 && whole.history.map { String(decoding: $0.body, as: UTF8.self) } == ["h1", "h3", "h4"])
    }

    @Test func everyFlippedBitOfAWholeLineIsCorrupt() throws {
        let bytes = Self.lines(["first line", "the last line, which must not read as torn"])
        for position in bytes.indices {
            for bit in [0, 3, 7] {
                var damaged = bytes
                damaged[position] ^= UInt8(1 << bit)
                #expect(throws: StrataError.self, "byte \(position) bit \(bit)") { try Journal.scan(damaged, file: "j") }
            }
        }
    }

    @Test func appendCutsATornTailFirstAndAddsAMissingLineEnd() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("j").path
        let whole = Self.lines(["one"])
        try Data(whole + Array("0123456789abcdef {\"torn".utf8)).write(to: URL(fileURLWithPath: path))
        var scan = try Journal.scan(try DurableFile.read(path)!, file: path)
        let end = try Journal.append(Journal.line(Array("two".utf8)), to: path, end: scan.end, needsLineEnd: scan.needsLineEnd)
        scan = try Journal.scan(try DurableFile.read(path)!, file: path)
        #expect(scan.lines.map { String(decoding: $0.body, as: UTF8.self) } == ["one", "two"] && scan.end == end && scan.tornBytes == 0)

        try Data(Self.lines(["one"]).dropLast()).write(to: URL(fileURLWithPath: path))
        scan = try Journal.scan(try DurableFile.read(path)!, file: path)
        _ = try Journal.append(Journal.line(Array("two".utf8)), to: path, end: scan.end, needsLineEnd: scan.needsLineEnd)
        #expect(try Journal.scan(try DurableFile.read(path)!, file: path).lines.count == 2)
    }
}
