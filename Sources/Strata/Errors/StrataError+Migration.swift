extension StrataError.Code {
    /// A schema change that lightweight migration cannot make (a type change, a required value with
    /// no default…): it needs a custom migration stage. The error names the entity and property.
    public static let migrationRequired = StrataError.Code(rawValue: "migrationRequired")
}
