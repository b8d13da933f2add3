import StrataModelMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

let modelMacros: [String: MacroSpec] = [
    "Model": MacroSpec(type: ModelMacro.self, conformances: ["PersistentModel", "Observable"]),
    "_PersistedProperty": MacroSpec(type: PersistedPropertyMacro.self),
    "Attribute": MacroSpec(type: MarkerMacro.self),
    "Relationship": MacroSpec(type: MarkerMacro.self),
    "Transient": MacroSpec(type: MarkerMacro.self),
    "Unique": MacroSpec(type: ConstraintMacro.self),
    "Index": MacroSpec(type: ConstraintMacro.self),
    "ModelActor": MacroSpec(type: ModelActorMacro.self, conformances: ["ModelActor"]),
]

/// Runs an expansion check, reporting a mismatch as a Swift Testing issue.
func expectExpansion(_ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], sourceLocation: SourceLocation = #_sourceLocation) {
    assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: modelMacros) { failure in
        Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
    }
}
