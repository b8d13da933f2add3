import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ModelActor`: an actor with its own `ModelContext` on a container, as in SwiftData.
///
/// Adds `modelContainer`, `modelContext` and `init(modelContainer:)`, and the `ModelActor`
/// conformance. The context is created on the actor and never leaves it; identifiers cross.
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
            /// The container this actor's context works on.
            public nonisolated let modelContainer: StrataModel.ModelContainer
            """,
            """
            /// This actor's own context; use it only on the actor.
            public let modelContext: StrataModel.ModelContext
            """,
            """
            /// Makes the actor with a fresh context on `modelContainer`.
            public init(modelContainer: StrataModel.ModelContainer) {
                self.modelContainer = modelContainer
                self.modelContext = StrataModel.ModelContext(modelContainer)
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
