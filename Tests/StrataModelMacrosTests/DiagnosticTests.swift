import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What the macros refuse at compile time, and the message each refusal gives.
@Suite struct DiagnosticTests {
    /// Expands `@Model final class Bad { <property> }` and expects exactly one error.
    func expectRefused(_ property: String, _ message: String, column: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let source = "@Model final class Bad {\n    \(property)\n}"
        var diagnostics: [DiagnosticSpec] = []
        assertMacroExpansion(source, expandedSource: "", diagnostics: [], macroSpecs: modelMacros) { failure in
            diagnostics.append(DiagnosticSpec(message: failure.message, line: 0, column: 0))
        }
        let messages = diagnostics.map(\.message).joined(separator: "\n")
        #expect(messages.contains(message), "no diagnostic '\(message)' in: \(messages)", sourceLocation: sourceLocation)
        #expect(messages.contains("2:\(column)"), "the diagnostic is not at 2:\(column): \(messages)", sourceLocation: sourceLocation)
    }

    @Test func unsupportedTypes() {
        expectRefused("var callback: () -> Void", "'callback' of type '() -> Void' cannot be stored: a function cannot be stored", column: 19)
        expectRefused("var point: (Int, Int)", "'point' of type '(Int, Int)' cannot be stored: a tuple cannot be stored; use a Codable struct", column: 16)
        expectRefused("var anything: Any", "'anything' of type 'Any' cannot be stored: 'Any' has no fixed shape to store", column: 19)
        expectRefused("var shape: any Shape", "an existential or opaque type has no fixed shape to store", column: 16)
        expectRefused("var handlers: [String: (Int) -> Void]", "a function cannot be stored", column: 19)
        expectRefused("var maybe: Int??", "a double optional cannot tell its two nils apart", column: 16)
    }

    @Test func propertiesThatCannotBePersisted() {
        expectRefused("let id: UUID", "'id' is a `let`", column: 5)
        expectRefused("@Transient var cache: Int", "A @Transient property needs a default value", column: 20)
        expectRefused("var made = makeValue()", "'made' needs an explicit type", column: 9)
        expectRefused("lazy var big: [Int] = []", "'big' is lazy", column: 5)
    }

    @Test func modelNeedsAFinalClass() {
        var messages: [String] = []
        for source in ["@Model class Open {}", "@Model struct Value {}"] {
            assertMacroExpansion(source, expandedSource: "", macroSpecs: modelMacros) { messages.append($0.message) }
        }
        let all = messages.joined(separator: "\n")
        #expect(all.contains("@Model classes must be final"))
        #expect(all.contains("@Model applies to a class"))
    }
}
