import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: turns a class into a persistent model.
///
/// Member role: the property ordinals, the observation registrar, the backing data, the schema
/// metadata, the key-path → name table, the initializer the store uses for fetched objects and
/// the per-property switches the context calls. Member-attribute role: `@_PersistedProperty` on
/// every persisted stored property. Extension role: `PersistentModel` and `Observable`.
public struct ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    static let reserved: Set<String> = ["persistentBackingData", "persistentModelID", "modelContext", "hasChanges", "isDeleted"]

    /// Expands the macro in this role.
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let type = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: ModelDiagnostic.notAClass))
            return []
        }
        // SwiftData allows non-final model classes; one that is not final gets `required`
        // initializers (a protocol's initializers must be, in a class that may be subclassed).
        let isFinal = type.modifiers.contains(where: { $0.name.text == "final" })
        let properties = ModelProperty.all(in: type.memberBlock.members) { context.diagnose($0) }
        for p in properties where reserved.contains(p.name) || p.name.hasPrefix("_$") {
            context.diagnose(Diagnostic(node: Syntax(type.name), message: ModelDiagnostic.reservedName(p.name)))
        }
        let name = type.name.text
        let constraints = constraintLists(in: type.memberBlock.members, context: context)
        var members = ModelMembers(className: name, properties: properties, unique: constraints.unique, indexes: constraints.indexes)
        if !isFinal {
            members.isFinal = false
            members.declaresDecoder = type.memberBlock.members.contains { member in
                member.decl.as(InitializerDeclSyntax.self)?.signature.parameterClause.parameters.first?.firstName.text == "from"
            }
        }
        return members.declarations
    }

    /// Expands the macro in this role.
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self), let variable = member.as(VariableDeclSyntax.self), !variable.has(attribute: "_PersistedProperty") else { return [] }
        // Diagnostics are reported once, by the member role.
        guard ModelProperty.from(variable, diagnose: { _ in }) != nil else { return [] }
        return ["@_PersistedProperty"]
    }

    /// Expands the macro in this role.
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else { return [] }
        // The compiler lists only the protocols the class does not conform to yet: a class that
        // already is a PersistentModel without saying so inherits it from a model superclass.
        let named = classDecl.inheritanceClause?.inheritedTypes.contains { $0.type.trimmedDescription.hasSuffix("PersistentModel") } ?? false
        if !named, !protocols.contains(where: { $0.trimmedDescription.hasSuffix("PersistentModel") }) {
            context.diagnose(Diagnostic(node: Syntax(classDecl.name), message: ModelDiagnostic.modelSubclass(classDecl.name.text)))
            return []
        }
        // `providingExtensionsOf` is the qualified name (`SchemaV1.Trip` for a model declared inside a
        // `VersionedSchema`); the bare class name would not resolve at file scope.
        let decl: DeclSyntax = "extension \(type.trimmed): StrataModel.PersistentModel, Observation.Observable {}"
        return [decl.cast(ExtensionDeclSyntax.self)]
    }

    /// The property names of `#Unique<T>(…)` and `#Index<T>(…)` lines in the class body, read from
    /// their key-path literals (`\.name` → "name"); the compiler has type-checked them already.
    static func constraintLists(in members: MemberBlockItemListSyntax, context: some MacroExpansionContext) -> (unique: [[String]], indexes: [[String]]) {
        var unique: [[String]] = [], indexes: [[String]] = []
        for member in members {
            guard let expansion = member.decl.as(MacroExpansionDeclSyntax.self) else { continue }
            let macro = expansion.macroName.text
            guard macro == "Unique" || macro == "Index" else { continue }
            var lists: [[String]] = []
            for argument in expansion.arguments {
                guard let array = argument.expression.as(ArrayExprSyntax.self) else {
                    context.diagnose(Diagnostic(node: Syntax(argument), message: ModelDiagnostic.keyPathsExpected("#\(macro)")))
                    continue
                }
                var names: [String] = []
                for element in array.elements {
                    guard let keyPath = element.expression.as(KeyPathExprSyntax.self), keyPath.components.count == 1,
                          let property = keyPath.components.first?.component.as(KeyPathPropertyComponentSyntax.self)
                    else {
                        context.diagnose(Diagnostic(node: Syntax(element), message: ModelDiagnostic.keyPathsExpected("#\(macro)")))
                        continue
                    }
                    names.append(ModelProperty.unescaped(property.declName.baseName.text))
                }
                lists.append(names)
            }
            if macro == "Unique" { unique += lists } else { indexes += lists }
        }
        return (unique, indexes)
    }
}
