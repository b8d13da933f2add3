import Foundation

/// A `PredicateExpressions` node the translator understands. Every supported node type conforms
/// (see `PredicateExpressions+Translation.swift`); a node that does not is refused by name.
protocol TranslatableExpression {
    /// The node as a term, its children translated through `translator`.
    func strataTerm(_ translator: PredicateTranslator) throws -> PredicateTerm
}

/// Turns a Foundation `Predicate<T>` into the core's `FetchPredicate`, or throws
/// `unsupportedPredicate` naming the first construct it cannot express.
///
/// Walks the expression tree through `TranslatableExpression` conformances: no descriptions are
/// parsed and no reflection is used. Key paths are named by the table `@Model` generates.
final class PredicateTranslator {
    /// What each variable of the tree stands for: the predicate's object, an optional's unwrapped
    /// value, the element of a to-many test, or a known value (an element of a captured array).
    /// A list, not a dictionary: a predicate binds one to three variables, and the first
    /// dictionary of a key type a process makes checks the key's `Hashable` conformance with a
    /// scan of every conformance record (about 400,000 instructions; see `term`).
    private var bindings: [(key: PredicateExpressions.VariableID, term: PredicateTerm)] = []
    /// The scope paths are being read in: 0 for the object, one more per enclosing to-many test.
    private(set) var scope = 0
    /// The model type of the predicate, for messages.
    private let modelName: String
    /// The model type of the predicate's own variable (`$0`).
    private let model: any PersistentModel.Type

    private init(model: any PersistentModel.Type) {
        self.model = model
        self.modelName = "\(model)"
    }

    /// The core predicate equivalent to `predicate`.
    ///
    /// - Throws: `unsupportedPredicate` for a construct with no store equivalent.
    static func translate<T: PersistentModel>(_ predicate: Predicate<T>) throws -> FetchPredicate {
        let translator = PredicateTranslator(model: T.self)
        translator.bind(predicate.variable.key, to: .property(PropertyReference(scope: 0, components: [], end: .model(T.self))))
        return try translator.condition(translator.term(predicate.expression))
    }

    // MARK: Walking

    /// The term of a child expression whose type is known here.
    ///
    /// The leaves of almost every predicate — a captured value, a variable, a key path on the
    /// predicate's object (`$0.category`) — are recognized by comparing `E` with their concrete
    /// types and translated by a direct call. Every other node goes through its
    /// `TranslatableExpression` conformance (`anyTerm`), whose first cast per node type makes the
    /// Swift runtime scan every conformance record of the process (about half a million
    /// instructions each in a program linking Foundation, once per type and process): four such
    /// casts for `$0.category == wanted`, one (the `==`) now. The result is the same either way.
    func term<E: PredicateExpression>(_ expression: E) throws -> PredicateTerm {
        if E.self == PredicateExpressions.Value<E.Output>.self {
            return try (expression as! PredicateExpressions.Value<E.Output>).strataTerm(self)
        }
        if E.self == PredicateExpressions.Variable<E.Output>.self {
            return try (expression as! PredicateExpressions.Variable<E.Output>).strataTerm(self)
        }
        if let term = try Self.keyPathOnObject(model, expression, self) { return term }
        return try anyTerm(expression)
    }

    /// `expression` translated directly if it is a key path applied to a variable of the model
    /// type `M`; `nil` otherwise.
    private static func keyPathOnObject<M: PersistentModel, E: PredicateExpression>(_: M.Type, _ expression: E, _ t: PredicateTranslator) throws -> PredicateTerm? {
        typealias OnObject = PredicateExpressions.KeyPath<PredicateExpressions.Variable<M>, E.Output>
        guard E.self == OnObject.self else { return nil }
        return try (expression as! OnObject).strataTerm(t)
    }

    /// The term of a child expression of any type, found through its `TranslatableExpression`
    /// conformance; a node without one is refused by name.
    func anyTerm(_ expression: Any) throws -> PredicateTerm {
        guard let node = expression as? any TranslatableExpression else { throw unsupported(Self.constructName(of: expression)) }
        return try node.strataTerm(self)
    }

    /// The value of `node` computed now, when every child is a known value; `nil` otherwise.
    func folded<E: PredicateExpression>(_ node: E, _ children: PredicateTerm...) throws -> PredicateTerm? {
        for child in children { guard case .constant = child else { return nil } }
        return .constant(try node.evaluate(PredicateBindings()))
    }

    /// Binds a variable while its scope is translated.
    func bind(_ key: PredicateExpressions.VariableID, to term: PredicateTerm) {
        if let i = bindings.firstIndex(where: { $0.key == key }) { bindings[i].term = term } else { bindings.append((key, term)) }
    }

    /// The term a variable stands for.
    func variable(_ key: PredicateExpressions.VariableID) throws -> PredicateTerm {
        guard let binding = bindings.first(where: { $0.key == key }) else { throw unsupported("a variable defined outside the predicate") }
        return binding.term
    }

    /// Translates `body` one scope deeper (inside a to-many test).
    func nested<R>(_ body: () throws -> R) rethrows -> R {
        scope += 1
        defer { scope -= 1 }
        return try body()
    }

    /// The store path of a reference used at the current scope.
    ///
    /// - Throws: `unsupportedPredicate` when a to-many test refers to the enclosing object.
    func path(_ reference: PropertyReference) throws -> PropertyPath {
        guard reference.scope == scope else {
            throw unsupported("a to-many test that refers to the enclosing object (\(reference.summary))")
        }
        return reference.path
    }

    // MARK: Conditions

    /// A term used as a Boolean.
    func condition(_ term: PredicateTerm) throws -> FetchPredicate {
        switch term {
        case .condition(let predicate):
            return predicate
        case .constant(let value):
            guard let b = value as? Bool else { throw unsupported("\(term.summary) used as a condition") }
            return .constant(b)
        case .property(let reference):
            guard case .attribute = reference.end else { throw unsupported("\(reference.summary) used as a condition") }
            return .compare(try path(reference), .equal, .bool(true))
        case .conditional(let test, let a, let b):
            return .or([.and([test, try condition(a)]), .and([.not(test), try condition(b)])])
        case .optionalCondition, .count:
            throw unsupported("\(term.summary) used as a condition (compare it with a value)")
        }
    }

    /// `reference == nil` as a store test.
    func isNil(_ reference: PropertyReference) throws -> FetchPredicate {
        switch reference.end {
        case .attribute, .model:
            // The object itself is never nil.
            return reference.components.isEmpty ? .constant(false) : .isNil(try path(reference))
        case .identifier:
            return reference.components.isEmpty ? .constant(false) : .isNil(try path(reference))
        case .toMany:
            throw unsupported("a nil test on the to-many relationship \(reference.summary)")
        }
    }

    // MARK: Key paths

    /// `root[keyPath: keyPath]`, where `root` is a property term.
    ///
    /// `member` is asked only where the answer matters (a key path into a to-many relationship or
    /// a stored value): Foundation's `KeyPath.kind` casts the root type to `Collection`, a
    /// conformance scan the first time for each model type.
    func keyPath(_ keyPath: AnyKeyPath, on root: PredicateTerm, rootType: Any.Type, member: () -> CollectionMember?) throws -> PredicateTerm {
        guard case .property(let reference) = root else { throw unsupported("a key path applied to \(root.summary)") }
        switch reference.end {
        case .model(let type):
            if ModelKeyPaths.isIdentifier(keyPath, of: type) {
                return .property(PropertyReference(scope: reference.scope, components: reference.components, end: .identifier))
            }
            guard let name = type.propertyName(for: keyPath),
                  let property = ModelTypeInfo.of(type).properties.first(where: { $0.name == name })
            else {
                throw unsupported("a key path to a property of \(type) that is not persisted (transient or computed)")
            }
            switch property.kind {
            case .attribute:
                return .property(reference.appending(name, .attribute, valueType: Swift.type(of: keyPath).valueType))
            case .relationship(let r):
                return .property(reference.appending(name, r.isToMany ? .toMany(r.destination) : .model(r.destination)))
            }
        case .toMany:
            switch member() {
            case .count: return .count(reference)
            case .isEmpty: return .condition(try toManyIsEmpty(reference))
            default: throw unsupported("a key path into the to-many relationship \(reference.summary) other than count and isEmpty")
            }
        case .attribute:
            if ModelKeyPaths.isRawValue(keyPath, of: rootType) {  // enums are stored by raw value
                var raw = reference
                raw.valueType = Swift.type(of: keyPath).valueType
                return .property(raw)
            }
            let kind = member()
            if kind == .isEmpty, rootType == String.self {
                return .condition(.compare(try path(reference), .equal, .string("")))
            }
            throw unsupported("a key path into the stored value \(reference.summary) (\(kind.map { "\($0)" } ?? "a member of \(rootType)"))")
        case .identifier:
            throw unsupported("a key path into the identifier \(reference.summary)")
        }
    }

    // MARK: Errors

    /// The refusal of a construct, thrown at fetch time before any store work.
    func unsupported(_ construct: String) -> StrataError {
        StrataError(
            .unsupportedPredicate,
            "A #Predicate on \(modelName) uses \(construct), which Strata cannot translate into a store query. See docs/queries.md for what is supported.",
            entity: modelName)
    }

    /// A readable name for an expression node type: `Arithmetic<…>` becomes "arithmetic (+, -, *)".
    static func constructName(of expression: Any) -> String {
        let full = String(describing: type(of: expression))
        let base = String(full.prefix { $0 != "<" })
        let known: [String: String] = [
            "Arithmetic": "arithmetic (+, -, *) on stored values",
            "IntDivision": "division on stored values", "FloatDivision": "division on stored values",
            "IntRemainder": "a remainder (%) on stored values", "UnaryMinus": "negation (-) of a stored value",
            "Filter": "filter", "SequenceMaximum": "max()", "SequenceMinimum": "min()",
            "StringContainsRegex": "a regular expression", "CollectionIndexSubscript": "a subscript",
            "CollectionRangeSubscript": "a range subscript", "DictionaryKeySubscript": "a dictionary subscript",
            "DictionaryKeyDefaultValueSubscript": "a dictionary subscript",
            "ConditionalCast": "a type cast (as?)", "ForceCast": "a type cast (as!)", "TypeCheck": "a type check (is)",
            "PredicateEvaluate": "the evaluation of another predicate", "ExpressionEvaluate": "the evaluation of an expression",
            "StringCaseInsensitiveCompare": "caseInsensitiveCompare", "StringLocalizedCompare": "localizedCompare",
        ]
        return known[base] ?? "the construct \(base)"
    }
}

/// The collection members a key path can name that the store can answer (Foundation's
/// `CommonKeyPathKind`, which is a different type for each key path expression type).
enum CollectionMember {
    /// `.count`
    case count
    /// `.isEmpty`
    case isEmpty
}
