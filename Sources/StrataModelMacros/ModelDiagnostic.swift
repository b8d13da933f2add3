import SwiftDiagnostics

/// The compile-time errors of the model macros: each says what is wrong and what to write instead.
enum ModelDiagnostic: DiagnosticMessage {
    case notAClass
    case transientNeedsDefault
    case oneBindingPerLine
    case letProperty(String)
    case lazyProperty(String)
    case needsType(String)
    case unsupportedType(String, String, String)
    case reservedName(String)
    case keyPathsExpected(String)
    case notAnActor
    case modelSubclass(String)

    var message: String {
        switch self {
        case .notAClass: "@Model applies to a class; a struct or enum has no identity to persist."
        case .transientNeedsDefault: "A @Transient property needs a default value (an optional `var` needs none): objects fetched from the store are made without your initializer."
        case .oneBindingPerLine: "Declare one persisted property per line (`var a: Int` and `var b: Int`), with a name."
        case .letProperty(let name): "'\(name)' is a `let`: the store must be able to set it when it loads or refreshes the object. Make it a `var` (with `private(set)` if it must not change), or mark it @Transient."
        case .lazyProperty(let name): "'\(name)' is lazy; a lazy property is computed, not stored. Mark it @Transient or make it an ordinary `var`."
        case .needsType(let name): "'\(name)' needs an explicit type (`var \(name): String = …`): the schema is derived from the declared types."
        case .unsupportedType(let name, let type, let why): "'\(name)' of type '\(type)' cannot be stored: \(why). Mark it @Transient to keep it in memory only."
        case .reservedName(let name): "'\(name)' is a name the model layer generates; rename the property."
        case .keyPathsExpected(let macro): "\(macro) takes arrays of key paths, such as ([\\.name], [\\.first, \\.last])."
        case .notAnActor: "@ModelActor applies to an actor."
        case .modelSubclass(let name): "'\(name)' inherits from a model class: model inheritance (SwiftData's subclasses of a @Model class) is not supported, since Strata's schema has no entity inheritance. Make it a @Model class of its own, or keep one model with an enum property for the variants."
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "StrataModel", id: "\(self)".prefix { $0 != "(" }.description) }
    var severity: DiagnosticSeverity { .error }
}
