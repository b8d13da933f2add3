import StrataModelMacros
import SwiftSyntaxMacroExpansion
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

    @Test func modelNeedsAClass() {
        var messages: [String] = []
        assertMacroExpansion("@Model struct Value {}", expandedSource: "", macroSpecs: modelMacros) { messages.append($0.message) }
        #expect(messages.joined(separator: "\n").contains("@Model applies to a class"))
    }

    /// SwiftData allows a non-final model class and an optional `@Transient` without a default.
    @Test func nonFinalClassesAndOptionalTransients() {
        var messages: [String] = []
        let source = "@Model class Open {\n    var name: String = \"\"\n    @Transient var cache: Int?\n    @Transient var other: Optional<String>\n}"
        // The expected text is left empty: the failure's diff shows the expansion, and no diagnostic.
        assertMacroExpansion(source, expandedSource: "", macroSpecs: modelMacros) { messages.append($0.message) }
        let all = messages.joined(separator: "\n")
        #expect(all.contains("public required init(_$fetched backingData: StrataModel.ModelBackingData)"))
        #expect(all.contains("public required init(from decoder: any Decoder) throws"))
        #expect(all.contains("extension Open: StrataModel.PersistentModel, Observation.Observable"))
        #expect(!all.contains("needs a default value") && !all.contains("must be final"))
        // A final class keeps plain initializers; a non-final one declaring init(from:) keeps its own.
        messages = []
        assertMacroExpansion("@Model final class Closed {\n    var name: String = \"\"\n}", expandedSource: "", macroSpecs: modelMacros) { messages.append($0.message) }
        #expect(messages.joined().contains("public init(_$fetched backingData:") && !messages.joined().contains("required"))
        messages = []
        assertMacroExpansion("@Model class Own {\n    var name: String = \"\"\n    required init(from decoder: any Decoder) throws { name = \"\" }\n}", expandedSource: "", macroSpecs: modelMacros) { messages.append($0.message) }
        #expect(!messages.joined().contains("throw StrataModel._modelDecodingRefused"))
        // A non-optional @Transient still needs one.
        messages = []
        assertMacroExpansion("@Model class Open {\n    @Transient var cache: Int\n}", expandedSource: "", macroSpecs: modelMacros) { messages.append($0.message) }
        #expect(messages.joined().contains("needs a default value"))
    }

    /// A subclass of a model already conforms to PersistentModel, so the compiler does not ask the
    /// macro for that conformance: the macro says inheritance is not supported.
    @Test func modelSubclassIsRefused() {
        var specs = modelMacros
        specs["Model"] = MacroSpec(type: ModelMacro.self, conformances: ["Observable"])
        var messages: [String] = []
        assertMacroExpansion("@Model class BusinessTrip: Trip {\n    var perDiem: Double = 0\n}", expandedSource: "", macroSpecs: specs) { messages.append($0.message) }
        #expect(messages.joined().contains("'BusinessTrip' inherits from a model class"))
        // Naming the protocol itself is not inheritance.
        messages = []
        assertMacroExpansion("@Model final class Plain: PersistentModel {\n    var a: Int = 0\n}", expandedSource: "", macroSpecs: specs) { messages.append($0.message) }
        #expect(!messages.joined().contains("inherits from a model class"))
    }
}
