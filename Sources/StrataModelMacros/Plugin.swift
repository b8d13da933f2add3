import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that hosts the model macros.
@main
struct StrataModelMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [
        ModelMacro.self, PersistedPropertyMacro.self, MarkerMacro.self, ConstraintMacro.self, ModelActorMacro.self,
    ]
}
