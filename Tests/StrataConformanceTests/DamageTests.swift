import Foundation
@testable import StrataConformance
import Testing

/// `strata fuzz` accepts an earlier save only after a damage a crash could leave: a beginning of an
/// append-only file (`Damage.leavesPrefix`). Found by the issue 29 long run: 3 bytes deleted at the
/// very end of a JSON journal (its last line end included) are a cut, but counted as "silently
/// earlier save" because only the `truncate` kind was called a cut.
struct DamageTests {
    /// Applies `kind` with seeds 1...200 to a fresh 40-byte file; returns each damaged file's bytes
    /// and whether the damage says it left a prefix.
    static func outcomes(_ kind: DamageKind) throws -> [(bytes: [UInt8], leavesPrefix: Bool)] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("journal")
        return try (1...200 as ClosedRange<UInt64>).map { seed in
            try Data(Self.original).write(to: file)
            var random = SeededGenerator(state: seed)
            let damage = try Damage.apply(kind, to: dir, earlier: [], random: &random)
            return ([UInt8](try Data(contentsOf: file)), damage.leavesPrefix)
        }
    }

    static let original = Array("0123456789abcdefghijklmnopqrstuvwxyz!?\n\n".utf8)

    @Test(arguments: [DamageKind.truncate, .deleteBytes, .insertBytes, .bitFlip])
    func aDamageLeavesAPrefixExactlyWhenTheFileIsABeginningOfWhatItHeld(kind: DamageKind) throws {
        let outcomes = try Self.outcomes(kind)
        for (bytes, leavesPrefix) in outcomes {
            #expect(leavesPrefix == (bytes.count < Self.original.count && Self.original.starts(with: bytes)), "\(kind): \(bytes.count) bytes")
        }
        if kind == .deleteBytes {
            #expect(outcomes.contains { $0.leavesPrefix }, "some deletions reach the end of the file")
            #expect(outcomes.contains { !$0.leavesPrefix }, "most do not")
        }
    }
}
