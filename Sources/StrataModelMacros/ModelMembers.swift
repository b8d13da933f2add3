import SwiftSyntax

/// The members `@Model` adds to a class, as source text.
///
/// Every per-property operation is a `switch` over ordinals that calls the property's codec,
/// `_$codec((Type).self)`: the codec is picked by overload resolution on the declared type
/// (storable value, raw-value enum, `Codable` document, model, optional or array of a model), so
/// the macro never has to guess from the type's spelling whether `Trip?` is a relationship.
struct ModelMembers {
    let className: String
    let properties: [ModelProperty]
    let unique: [[String]]
    let indexes: [[String]]
    /// Whether the class is final; a non-final one gets `required` initializers.
    var isFinal = true
    /// Whether a non-final class declares its own `init(from:)` (then none is generated).
    var declaresDecoder = false

    var declarations: [DeclSyntax] {
        [ordinals, registrar, backingStorage, backing, newBacking, metadata, constraints, keyPathNames, keyPaths, fetchedInit, encode, assign, refault, inverse]
            + (isFinal || declaresDecoder ? [] : [decoderInit])
    }

    /// `Decodable`'s initializer, which a non-final class must declare itself (`required`): it
    /// refuses, like the default every final model gets from `PersistentModel`.
    private var decoderInit: DeclSyntax {
        """
        /// Always throws: model objects are made by a `ModelContext` (`insert`, `fetch`, `model(for:)`).
        public required init(from decoder: any Decoder) throws {
            throw StrataModel._modelDecodingRefused(\(raw: className).self, decoder)
        }
        """
    }

    private func codec(_ p: ModelProperty) -> String { "StrataModel._$codec((\(p.type.trimmedDescription)).self)" }
    private func quoted(_ s: String) -> String { "\"\(s)\"" }

    private var ordinals: DeclSyntax {
        // An enum without cases cannot declare a raw type: a model with no persisted property (a
        // marker entity, SwiftData accepts it) gets the enum without one.
        guard !properties.isEmpty else {
            return """
                /// The ordinals of the persisted properties: this model has none.
                public enum _$Property: CaseIterable {}
                """
        }
        let cases = "case " + properties.map { "`\($0.name)`" }.joined(separator: ", ")
        return """
            /// The ordinals of the persisted properties, in declaration order.
            public enum _$Property: Int, CaseIterable { \(raw: cases) }
            """
    }

    /// Made on first observation (`StrataModel._$access`), not per object: see `LazyObservation.swift`.
    private var registrar: DeclSyntax {
        """
        /// The object's observation registrar, made when a property is first read.
        @exclusivity(unchecked) private var _$observationRegistrar: Observation.ObservationRegistrar? = nil
        """
    }

    /// The backing data is stored optional and empty by default, because a stored property's
    /// default runs in every designated initializer, `init(_$fetched:)` included: a default
    /// `ModelBackingData(for:)` made a temporary identifier and looked the type up for every
    /// fetched object, then threw both away (docs/benchmarks.md, "Issue 31, session 13"). A
    /// fetched object gets the context's backing data in `init(_$fetched:)`; an object made by
    /// your code gets its own, with a temporary identifier, the first time anything reads it.
    /// The storage is read and written only here and in `init(_$fetched:)`, by single loads and
    /// stores that never overlap, so it skips the run-time exclusivity check (as the registrar).
    private var backingStorage: DeclSyntax {
        """
        /// The backing data: the context's for a fetched object, made on first use for a new one.
        @exclusivity(unchecked) private var _$backingData: StrataModel.ModelBackingData? = nil
        """
    }

    /// The getter reads the storage; making a new object's backing data is a method of its own,
    /// not inlined, so the getter is a load and a test without a call frame (read on every
    /// property change and by every save; with the making inline, the getter saved and restored
    /// five registers on every read: callgrind on the model-level insert).
    private var backing: DeclSyntax {
        """
        /// The model's identity, context and change tracking.
        public var persistentBackingData: StrataModel.ModelBackingData {
            _$backingData ?? _$newBackingData()
        }
        """
    }

    private var newBacking: DeclSyntax {
        """
        /// Makes a new object's backing data, with a temporary identifier, when it is first used.
        @inline(never) private func _$newBackingData() -> StrataModel.ModelBackingData {
            let made = StrataModel.ModelBackingData(for: \(raw: className).self)
            _$backingData = made
            return made
        }
        """
    }

    private var metadata: DeclSyntax {
        let lines = properties.enumerated().map { n, p -> String in
            var arguments = [quoted(p.name), "ordinal: \(n)"]
            if let value = p.initializer {
                if isLiteral(value) {
                    arguments.append("default: \(value.trimmedDescription)")
                } else if !value.is(NilLiteralExprSyntax.self) {
                    arguments.append("initial: { \(value.trimmedDescription) }")
                }
            }
            for list in [p.attributeOptions, p.relationshipOptions] {
                for argument in list ?? [] { arguments.append(argument.with(\.trailingComma, nil).trimmedDescription) }
            }
            return "\(codec(p)).describe(\(arguments.joined(separator: ", ")))"
        }
        return """
            /// The persisted properties, as the schema sees them.
            public static var schemaMetadata: [StrataModel.ModelPropertyMetadata] {
                [\(raw: lines.map { "\n        " + $0 }.joined(separator: ","))
                ]
            }
            """
    }

    private var constraints: DeclSyntax {
        func literal(_ lists: [[String]]) -> String { "[" + lists.map { "[" + $0.map(quoted).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]" }
        return """
            /// The `#Unique` and `#Index` declarations, by property name.
            public static var schemaConstraints: StrataModel.ModelConstraints { StrataModel.ModelConstraints(unique: \(raw: literal(unique)), indexes: \(raw: literal(indexes))) }
            """
    }

    private var keyPathNames: DeclSyntax {
        let lines = properties.map { "if keyPath == \\\(className).\($0.name) as AnyKeyPath { return \(quoted($0.name)) }" }
        return """
            /// The name of the persisted property a key path designates (Linux key paths carry no names).
            public static func propertyName(for keyPath: AnyKeyPath) -> String? {
                \(raw: lines.joined(separator: "\n    "))
                return nil
            }
            """
    }

    private var keyPaths: DeclSyntax {
        let lines = properties.enumerated().map { n, p in
            "case \(n): return optionalRoot ? (\\\(className)?.?.\(p.name) as AnyKeyPath) : (\\\(className).\(p.name) as AnyKeyPath)"
        }
        return """
            /// The key path of a persisted property, from the model or from an optional of it (to match
            /// sort key paths through to-one relationships, which Linux cannot name at run time).
            public static func _$keyPath(_ ordinal: Int, optionalRoot: Bool) -> AnyKeyPath? {
                switch ordinal {
                \(raw: (lines + ["default: return nil"]).joined(separator: "\n    "))
                }
            }
            """
    }

    private var fetchedInit: DeclSyntax {
        let lines = properties.map { "_\($0.name) = .fault" }
        return """
            /// Makes the object for a record the store holds, with the backing data the context made
            /// for it; properties load on first access.
            public \(raw: isFinal ? "" : "required ")init(_$fetched backingData: StrataModel.ModelBackingData) {
                \(raw: (lines + ["_$backingData = backingData"]).joined(separator: "\n    "))
            }
            """
    }

    private func cases(_ body: (Int, ModelProperty) -> String) -> String {
        properties.enumerated().map { "case \($0): \(body($0, $1))" }.joined(separator: "\n    ")
    }

    private var encode: DeclSyntax {
        """
        /// The current value of a property for a save (`.stored` when not loaded, hence unchanged).
        public func _$encode(_ ordinal: Int) -> StrataModel._PropertyValue {
            switch ordinal {
            \(raw: cases { _, p in "return \(codec(p)).encode(_\(p.name))" })
            default: return .stored
            }
        }
        """
    }

    private var assign: DeclSyntax {
        """
        /// Sets an attribute from a stored value (upserts copy values this way); relationships ignore it.
        public func _$assign(_ ordinal: Int, _ value: Strata.Value) throws {
            switch ordinal {
            \(raw: cases { n, p in "try \(codec(p)).assign(&_\(p.name), value, self, \(n))" })
            default: break
            }
        }
        """
    }

    private var refault: DeclSyntax {
        let lines = properties.map { "StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \\.\($0.name)) { _\($0.name).refault() }" }
        return """
            /// Drops every loaded value, so the next access reads the stored record.
            public func _$refault() {
                \(raw: lines.joined(separator: "\n    "))
            }
            """
    }

    private var inverse: DeclSyntax {
        """
        /// Applies the other side of a relationship change to this object's relationship `ordinal`.
        public func _$inverse(_ ordinal: Int, _ change: StrataModel._InverseChange) {
            switch ordinal {
            \(raw: cases { n, p in "StrataModel._$withMutation(_$observationRegistrar, of: self, keyPath: \\.\(p.name)) { \(codec(p)).inverse(&_\(p.name), change, self, \(n)) }.apply()" })
            default: break
            }
        }
        """
    }

    /// Whether a default value is a literal, recorded in the schema; other defaults (`.now`,
    /// `UUID()`, `.normal`, `[]`) are not, since a schema default must not change between runs:
    /// they initialize new objects, and a migration adding the property fills them in once
    /// (`initial:`).
    private func isLiteral(_ expr: ExprSyntax) -> Bool {
        if expr.is(IntegerLiteralExprSyntax.self) || expr.is(FloatLiteralExprSyntax.self) || expr.is(BooleanLiteralExprSyntax.self) { return true }
        if let string = expr.as(StringLiteralExprSyntax.self) { return string.segments.allSatisfy { $0.is(StringSegmentSyntax.self) } }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" { return isLiteral(prefix.expression) }
        return false
    }
}
