import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ModelActor`: an actor with its own `ModelContext` on a container, as in SwiftData.
///
/// Adds `modelExecutor`, `modelContainer` and `init(modelContainer:)`, as SwiftData's does, and the
/// `ModelActor` conformance (which gives `modelContext`, the executor's). The actor runs on a
/// `DefaultSerialModelExecutor` holding a fresh context; objects stay on it, identifiers cross.
public struct ModelActorMacro: MemberMacro, ExtensionMacro {
    /// Expands the macro in this role.
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: ModelDiagnostic.notAnActor))
            return []
        }
        return [
            """
            /// The executor this actor runs on, holding its context (`modelContext`).
            public nonisolated let modelExecutor: any StrataModel.ModelExecutor
            """,
            """
            /// The container this actor's context works on.
            public nonisolated let modelContainer: StrataModel.ModelContainer
            """,
            """
            /// Makes the actor with a fresh context on `modelContainer`, run by its own serial executor.
            public init(modelContainer: StrataModel.ModelContainer) {
                let modelContext = StrataModel.ModelContext(modelContainer)
                self.modelExecutor = StrataModel.DefaultSerialModelExecutor(modelContext: modelContext)
                self.modelContainer = modelContainer
            }
            """,
        ]
    }

    /// Expands the macro in this role.
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self) else { return [] }
        let decl: DeclSyntax = "extension \(type.trimmed): StrataModel.ModelActor {}"
        return [decl.cast(ExtensionDeclSyntax.self)]
    }
}
