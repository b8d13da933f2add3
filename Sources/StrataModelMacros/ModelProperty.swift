import SwiftDiagnostics
import SwiftSyntax

/// One stored property of a `@Model` class as the macros see it: its name, its declared type and
/// the options of its `@Attribute` / `@Relationship` markers.
struct ModelProperty {
    let name: String
    let type: TypeSyntax
    let initializer: ExprSyntax?
    let attributeOptions: LabeledExprListSyntax?
    let relationshipOptions: LabeledExprListSyntax?

    /// The persisted stored properties of a class, in declaration order; problems are diagnosed
    /// through `context` and the offending property left out.
    static func all(in members: MemberBlockItemListSyntax, diagnose: (Diagnostic) -> Void) -> [ModelProperty] {
        var result: [ModelProperty] = []
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), let property = from(variable, diagnose: diagnose) else { continue }
            result.append(property)
        }
        return result
    }

    /// The property declared by `variable`, or `nil` if it is not persisted (static, computed,
    /// `@Transient`) or cannot be (diagnosed).
    static func from(_ variable: VariableDeclSyntax, diagnose: (Diagnostic) -> Void) -> ModelProperty? {
        if variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) { return nil }
        guard let binding = variable.bindings.first else { return nil }
        if let accessors = binding.accessorBlock {
            switch accessors.accessors {
            case .getter: return nil
            case .accessors(let list):
                if list.contains(where: { ["get", "set", "_read", "_modify", "init"].contains($0.accessorSpecifier.text) }) { return nil }
            }
        }
        // `@Attribute(.ephemeral)`: SwiftData tracks it and does not persist it; kept in memory
        // only, as `@Transient` (docs/models.md says what differs).
        let ephemeral = variable.arguments(of: "Attribute")?.contains { $0.label == nil && $0.expression.trimmedDescription == ".ephemeral" } ?? false
        if variable.has(attribute: "Transient") || ephemeral {
            // An optional `var` starts as nil without an initializer, in Swift as in SwiftData.
            if binding.initializer == nil, !(variable.bindingSpecifier.text == "var" && isOptional(binding.typeAnnotation?.type)) {
                diagnose(Diagnostic(node: Syntax(binding), message: ModelDiagnostic.transientNeedsDefault))
            }
            return nil
        }
        guard variable.bindings.count == 1, let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
            diagnose(Diagnostic(node: Syntax(variable), message: ModelDiagnostic.oneBindingPerLine))
            return nil
        }
        if variable.bindingSpecifier.text == "let" {
            diagnose(Diagnostic(node: Syntax(variable.bindingSpecifier), message: ModelDiagnostic.letProperty(pattern.identifier.text)))
            return nil
        }
        if variable.modifiers.contains(where: { $0.name.text == "lazy" }) {
            diagnose(Diagnostic(node: Syntax(variable), message: ModelDiagnostic.lazyProperty(pattern.identifier.text)))
            return nil
        }
        let name = unescaped(pattern.identifier.text)
        let type: TypeSyntax
        if let annotation = binding.typeAnnotation?.type {
            type = annotation.trimmed
        } else if let inferred = binding.initializer.flatMap({ literalType(of: $0.value) }) {
            type = inferred
        } else {
            diagnose(Diagnostic(node: Syntax(binding), message: ModelDiagnostic.needsType(name)))
            return nil
        }
        if let problem = unsupported(type) {
            diagnose(Diagnostic(node: Syntax(binding.typeAnnotation?.type ?? type), message: ModelDiagnostic.unsupportedType(name, type.trimmedDescription, problem)))
            return nil
        }
        return ModelProperty(
            name: name, type: type, initializer: binding.initializer?.value.trimmed,
            attributeOptions: variable.arguments(of: "Attribute"), relationshipOptions: variable.arguments(of: "Relationship"))
    }

    /// An identifier without the backticks a keyword used as a name needs (`` `default` `` →
    /// `default`): the property's name in the schema, and what generated code writes after `_`,
    /// a dot or inside its own backticks, where the bare keyword is valid.
    static func unescaped(_ text: String) -> String {
        guard text.count > 2, text.hasPrefix("`"), text.hasSuffix("`") else { return text }
        return String(text.dropFirst().dropLast())
    }

    /// Whether a declared type is optional (`T?`, `T!`, `Optional<T>`): such a `var` is nil
    /// until set, so it needs no initializer.
    static func isOptional(_ type: TypeSyntax?) -> Bool {
        guard let type else { return false }
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == "Optional" }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text == "Optional" && member.baseType.trimmedDescription == "Swift" }
        return false
    }

    /// The type of a literal initializer, for `var count = 0`.
    private static func literalType(of expr: ExprSyntax) -> TypeSyntax? {
        if expr.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expr.is(FloatLiteralExprSyntax.self) { return "Double" }
        if expr.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if expr.is(StringLiteralExprSyntax.self) { return "String" }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" { return literalType(of: prefix.expression) }
        return nil
    }

    /// Why a type can never be stored, or `nil` if it may be (the type checker has the last word:
    /// a named type that is neither a storable value, a raw-value enum, `Codable` nor a model
    /// fails to compile at the generated schema line).
    static func unsupported(_ type: TypeSyntax) -> String? {
        if type.is(FunctionTypeSyntax.self) { return "a function cannot be stored" }
        if let tuple = type.as(TupleTypeSyntax.self) {
            if tuple.elements.count == 1, let only = tuple.elements.first { return unsupported(only.type) }
            return "a tuple cannot be stored; use a Codable struct"
        }
        if type.is(SomeOrAnyTypeSyntax.self) { return "an existential or opaque type has no fixed shape to store" }
        if type.is(MetatypeTypeSyntax.self) { return "a metatype cannot be stored" }
        if type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return "use an optional (`?`) instead of `!`" }
        if let optional = type.as(OptionalTypeSyntax.self) {
            if optional.wrappedType.is(OptionalTypeSyntax.self) { return "a double optional cannot tell its two nils apart in a store" }
            return unsupported(optional.wrappedType)
        }
        if let array = type.as(ArrayTypeSyntax.self) { return unsupported(array.element) }
        if let dictionary = type.as(DictionaryTypeSyntax.self) { return unsupported(dictionary.key) ?? unsupported(dictionary.value) }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            switch identifier.name.text {
            case "Any", "AnyObject", "AnyHashable": return "'\(identifier.name.text)' has no fixed shape to store"
            case "Character": return "store it as a String"
            case "NSObject", "NSNumber", "NSString", "NSData", "NSDate": return "store the Swift value type instead"
            case "Optional", "Array":
                if let argument = identifier.genericArgumentClause?.arguments.first, case .type(let inner) = argument.argument { return unsupported(inner) }
            default: break
            }
        }
        return nil
    }
}

extension VariableDeclSyntax {
    /// Whether the declaration carries `@name` (also `@StrataModel.name`).
    func has(attribute name: String) -> Bool {
        attributes.contains { element in
            guard case .attribute(let a) = element else { return false }
            return a.attributeName.trimmedDescription == name || a.attributeName.trimmedDescription.hasSuffix(".\(name)")
        }
    }

    /// The arguments of `@name(...)`, an empty list for `@name` without parentheses, `nil` if absent.
    func arguments(of name: String) -> LabeledExprListSyntax? {
        for element in attributes {
            guard case .attribute(let a) = element else { continue }
            let written = a.attributeName.trimmedDescription
            guard written == name || written.hasSuffix(".\(name)") else { continue }
            if case .argumentList(let list)? = a.arguments { return list }
            return LabeledExprListSyntax([])
        }
        return nil
    }
}
