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
        let (willSet, didSet) = observers(of: variable, type: p.type.trimmedDescription)
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
            set {\(raw: willSet)
                StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \\.\(raw: p.name)) {
                    \(raw: codec).set(&_\(raw: p.name), newValue, self, \(raw: ordinal))
                }
                .apply()\(raw: didSet)
            }
            """,
        ]
    }

    /// The property's own `willSet` and `didSet` observers as code for the generated setter: each
    /// body becomes a local function run before (with the new value) and after (with the value read
    /// before the change) the store, so observers run on every set as Swift runs them, and not
    /// during initialization. The getter and setter the macro adds replace the observers, which the
    /// compiler would otherwise drop without a word.
    private static func observers(of variable: VariableDeclSyntax, type: String) -> (willSet: String, didSet: String) {
        guard case .accessors(let list)? = variable.bindings.first?.accessorBlock?.accessors,
              let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { return ("", "") }
        var willSet = "", didSet = ""
        for accessor in list {
            let body = accessor.body?.statements.trimmedDescription ?? ""
            switch accessor.accessorSpecifier.text {
            case "willSet":
                let parameter = accessor.parameters?.name.text ?? "newValue"
                willSet = "\n    func _$willSet(_ \(parameter): \(type)) {\n\(body)\n    }\n    _$willSet(newValue)"
            case "didSet":
                let parameter = accessor.parameters?.name.text ?? "oldValue"
                didSet = "\n    func _$didSet(_ \(parameter): \(type)) {\n\(body)\n    }\n    _$didSet(_$oldValue)"
            default:
                continue
            }
        }
        if !didSet.isEmpty { willSet += "\n    let _$oldValue = self.\(name)" }
        return (willSet, didSet)
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
