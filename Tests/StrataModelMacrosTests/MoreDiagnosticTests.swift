import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The remaining refusals of the macros: names the layer generates, several bindings on one line,
/// `#Unique` / `#Index` arguments that are not key-path arrays, `@ModelActor` on a non-actor.
@Suite struct MoreDiagnosticTests {
    /// The diagnostics' messages when expanding `source`.
    func messages(_ source: String) -> String {
        var messages: [String] = []
        assertMacroExpansion(source, expandedSource: "", macroSpecs: modelMacros) { messages.append($0.message) }
        return messages.joined(separator: "\n")
    }

    @Test func reservedNames() {
        #expect(messages("@Model final class Bad {\n    var persistentBackingData: Int = 0\n}").contains("'persistentBackingData' is a name the model layer generates"))
        #expect(messages("@Model final class Bad {\n    var _$secret: Int = 0\n}").contains("'_$secret' is a name the model layer generates"))
    }

    @Test func oneBindingPerLine() {
        #expect(messages("@Model final class Bad {\n    var a: Int = 0, b: Int = 1\n}").contains("Declare one persisted property per line"))
    }

    @Test func constraintsTakeKeyPathArrays() {
        #expect(messages("@Model final class Bad {\n    var a: Int = 0\n    #Unique<Bad>(\\.a)\n}").contains("#Unique takes arrays of key paths"))
        #expect(messages("@Model final class Bad {\n    var a: Int = 0\n    #Index<Bad>([\"a\"])\n}").contains("#Index takes arrays of key paths"))
        #expect(messages("@Model final class Bad {\n    var a: Int = 0\n    #Unique<Bad>([\\.a.b])\n}").contains("#Unique takes arrays of key paths"))
    }

    @Test func modelActorNeedsAnActor() {
        #expect(messages("@ModelActor final class Worker {}").contains("@ModelActor applies to an actor."))
    }

    @Test func unsupportedTypesInsideContainers() {
        let found = messages("@Model final class Bad {\n    var handlers: [() -> Void] = []\n    var pair: (Int, String)? = nil\n}")
        #expect(found.contains("'handlers' of type '[() -> Void]' cannot be stored: a function cannot be stored"))
        #expect(found.contains("'pair' of type '(Int, String)?' cannot be stored: a tuple cannot be stored"))
    }
}
