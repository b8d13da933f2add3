import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_PersistedProperty`, which `@Model` puts on every persisted stored property: the property
/// becomes computed over a `_name` slot, with an init accessor (so the user's own `init` and
/// default values work unchanged), observation, change tracking and lazy loading.
public struct PersistedPropertyMacro: AccessorMacro, PeerMacro {
    /// Expands the macro in this role.
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let p = ModelProperty.from(variable, diagnose: { _ in }) else { return [] }
        let codec = "StrataModel._$codec((\(p.type.trimmedDescription)).self)"
        let ordinal = "_$Property.`\(p.name)`.rawValue"
        return [
            """
            @storageRestrictions(initializes: _\(raw: p.name))
            init(initialValue) {
                _\(raw: p.name) = StrataModel._PersistedProperty(initialValue)
            }
            """,
            """
            get {
                StrataModel._$access(&_$observationRegistrar, self, keyPath: \\.\(raw: p.name))
                return \(raw: codec).get(&_\(raw: p.name), self, \(raw: ordinal))
            }
            """,
            """
            set {
                StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \\.\(raw: p.name)) {
                    \(raw: codec).set(&_\(raw: p.name), newValue, self, \(raw: ordinal))
                }
                .apply()
            }
            """,
        ]
    }

    /// Expands the macro in this role.
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let p = ModelProperty.from(variable, diagnose: { _ in }) else { return [] }
        return ["private var _\(raw: p.name): StrataModel._PersistedProperty<\(p.type)>"]
    }
}

/// `@Attribute`, `@Relationship` and `@Transient`: markers `@Model` reads; they add nothing themselves.
public struct MarkerMacro: PeerMacro {
    /// Expands the macro in this role.
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

/// `#Unique<T>(…)` and `#Index<T>(…)`: `@Model` reads their key paths; the compiler has checked
/// them against `T`, so the expansion itself adds nothing.
public struct ConstraintMacro: DeclarationMacro {
    /// Expands the macro in this role.
    public static func expansion(of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext) throws -> [DeclSyntax] { [] }
}
