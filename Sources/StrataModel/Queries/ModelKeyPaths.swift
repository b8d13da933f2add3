import Synchronization

/// Names key paths of model types. Linux key paths carry no names at run time, so every answer
/// comes from comparing with key paths the code itself writes: the table `@Model` generates
/// (`propertyName(for:)`, `_$keyPath`) and the few the model layer knows (`persistentModelID`).
enum ModelKeyPaths {
    /// Whether `keyPath` is `\M.persistentModelID` or `\M.id` of the model type `type`.
    static func isIdentifier(_ keyPath: AnyKeyPath, of type: any PersistentModel.Type) -> Bool {
        // `\M.id` alone names `Identifiable.id` (of type `M.ID`), never equal to a model's
        // `\Note.id`; typed as `PersistentIdentifier` it names `PersistentModel.id`, as the
        // model's own key path does.
        func paths<M: PersistentModel>(_: M.Type) -> [AnyKeyPath] {
            let id: KeyPath<M, PersistentIdentifier> = \M.id
            return [\M.persistentModelID, id]
        }
        return paths(type).contains(keyPath)
    }

    /// Whether `keyPath` reads the raw value of the raw-value type `type` (`$0.priority.rawValue`).
    ///
    /// `\R.rawValue` written generically names the protocol requirement, not the enum's own
    /// property, so the two never compare equal; instead the key path is applied to sample values
    /// (every case of a `CaseIterable` type, or the values made from small integer raw values) and
    /// must return each one's raw value. A string-backed enum that is not `CaseIterable` has no
    /// samples and is refused (compare with the enum value instead).
    static func isRawValue(_ keyPath: AnyKeyPath, of type: Any.Type) -> Bool {
        guard let raw = type as? any RawRepresentable.Type else { return false }
        func check<R: RawRepresentable>(_: R.Type) -> Bool {
            guard let path = keyPath as? KeyPath<R, R.RawValue> else { return false }
            let samples = Self.samples(of: R.self)
            return !samples.isEmpty && samples.allSatisfy {
                PredicateConstants.storedValue($0[keyPath: path]) == PredicateConstants.storedValue($0.rawValue)
            }
        }
        return check(raw)
    }

    /// Values of a raw-value type to test key paths on.
    private static func samples<R: RawRepresentable>(of type: R.Type) -> [R] {
        if let all = (R.self as? any CaseIterable.Type).map({ cases($0) }) { return all.compactMap { $0 as? R } }
        guard let integer = R.RawValue.self as? any BinaryInteger.Type else { return [] }
        func make<I: BinaryInteger>(_: I.Type) -> [R] {
            (-16...256).compactMap { I(exactly: $0) }.compactMap { R(rawValue: $0 as! R.RawValue) }
        }
        return make(integer)
    }

    private static func cases<C: CaseIterable>(_: C.Type) -> [Any] { C.allCases.map { $0 as Any } }

    /// Whether two key paths designate the same components. `==` also compares an internal
    /// reference-prefix flag that differs between a literal `\Note.folder?.name` and the same path
    /// built by `appending`, so a candidate built that way is matched by type and component hash.
    static func same(_ candidate: AnyKeyPath, _ keyPath: AnyKeyPath) -> Bool {
        candidate == keyPath || (type(of: candidate) == type(of: keyPath) && candidate.hashValue == keyPath.hashValue)
    }

    /// The property names a key path of `type` designates: one name for a persisted property, or a
    /// chain through to-one relationships (`\Note.folder?.name` → `["folder", "name"]`, up to
    /// `maximumDepth` relationships). `nil` if it designates none.
    static func propertyPath(_ keyPath: AnyKeyPath, of type: any PersistentModel.Type) -> [String]? {
        // A property of `type` itself is named by the generated table, without the cache: the first
        // entry of the cache's dictionary type checks `CacheKey: Hashable` with a scan of every
        // conformance record of the process (about 400,000 instructions, in the first sorted fetch).
        if let name = type.propertyName(for: keyPath) { return [name] }
        let key = CacheKey(type: ObjectIdentifier(type), keyPath: keyPath)
        if let known = cache.withLock({ $0[key] }) { return known }
        let found = search(keyPath, from: type)
        if let found { cache.withLock { $0[key] = found } }
        return found
    }

    /// How many to-one relationships a sort path may go through.
    static let maximumDepth = 3

    private struct CacheKey: Hashable, @unchecked Sendable {
        let type: ObjectIdentifier
        let keyPath: AnyKeyPath
    }

    private static let cache = Mutex<[CacheKey: [String]]>([:])

    /// Tries the property's own names, then every chain of to-one relationships, building each
    /// candidate from the generated pieces (`\Note.folder` + `\Folder?.?.name`) and comparing.
    private static func search(_ keyPath: AnyKeyPath, from type: any PersistentModel.Type) -> [String]? {
        // Breadth first over (prefix key path, names, type at the end, whether an optional was crossed).
        var frontier: [(AnyKeyPath, [String], any PersistentModel.Type, Bool)] = []
        let info = ModelTypeInfo.of(type)
        for ordinal in info.relationshipOrdinals {
            guard let r = info.properties[ordinal].relationship, !r.isToMany, let start = type._$keyPath(ordinal, optionalRoot: false) else { continue }
            frontier.append((start, [info.properties[ordinal].name], r.destination, r.isOptional))
        }
        for _ in 0..<maximumDepth {
            var next: [(AnyKeyPath, [String], any PersistentModel.Type, Bool)] = []
            for (prefix, names, destination, optional) in frontier {
                let target = ModelTypeInfo.of(destination)
                for (ordinal, property) in target.properties.enumerated() {
                    guard let piece = destination._$keyPath(ordinal, optionalRoot: optional), let candidate = prefix.appending(path: piece) else { continue }
                    switch property.kind {
                    case .attribute:
                        if same(candidate, keyPath) { return names + [property.name] }
                    case .relationship(let r) where !r.isToMany:
                        next.append((candidate, names + [property.name], r.destination, optional || r.isOptional))
                    case .relationship:
                        continue
                    }
                }
            }
            frontier = next
        }
        return nil
    }
}
