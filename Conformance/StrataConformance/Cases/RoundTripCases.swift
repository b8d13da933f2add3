import Foundation
import Strata

extension ConformanceSuite {
    /// Edge values of every attribute type; each must come back bit for bit, before and after reopen.
    /// Required: a backend may leave a value out only by not declaring the capability listed with it
    /// (`largeValues`), which skips the case and shows in the report.
    static let roundTripValues: [(id: String, attribute: String, value: Value, needs: StoreCapabilities)] = {
        let long = String(repeating: "Strata ✓ ", count: 120_000)
        var bytes = [UInt8](repeating: 0, count: 3 * 1024 * 1024)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13) }
        return [
            ("bool-true", "flag", .bool(true), []),
            ("bool-false", "flag", .bool(false), []),
            ("int64-min", "int", .int(.min), []),
            ("int64-max", "int", .int(.max), []),
            ("int-zero", "int", .int(0), []),
            ("double-negative-zero", "double", .double(-0.0), []),
            ("double-infinity", "double", .double(.infinity), []),
            ("double-negative-infinity", "double", .double(-.infinity), []),
            ("double-nan", "double", .double(.nan), []),
            ("double-nan-payload", "double", .double(-Double(nan: 0x5_1234, signaling: false)), []),
            ("double-extremes", "double", .double(.leastNonzeroMagnitude), []),
            ("double-max", "double", .double(.greatestFiniteMagnitude), []),
            ("double-precise", "double", .double(0.1 + 0.2), []),
            ("string-empty", "string", .string(""), []),
            ("string-long", "string", .string(long), .largeValues),
            ("string-unicode-emoji", "string", .string("Ünïcødé 日本語 👩‍👩‍👧‍👦 🇫🇷 e\u{301}"), []),
            ("string-quotes-commas-newlines", "string", .string("a \"quoted\", value\nwith\r\nlines\tand 'tabs'"), []),
            ("string-markup", "string", .string("<tag attr=\"x\">&amp; & < > ]]> </tag>"), []),
            ("string-nul", "string", .string("before\u{0}after\u{0}"), []),
            ("string-spaces", "string", .string("  leading and trailing  "), []),
            ("date-subsecond", "date", .date(Date(timeIntervalSince1970: 1_700_000_000.123456)), []),
            ("date-distant", "date", .date(Date(timeIntervalSinceReferenceDate: -63_000_000_000.5)), []),
            ("data-empty", "data", .data(Data()), []),
            ("data-large", "data", .data(Data(bytes)), .largeValues),
            ("uuid", "uuid", .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), []),
            ("url", "url", .url(URL(string: "https://example.com/a%20b/ü?q=1&r=%3C#frag")!), []),
            ("url-file", "url", .url(URL(fileURLWithPath: "/tmp/some folder/file.txt")), []),
        ]
    }()

    static let roundTripCases: [ConformanceCase] = {
        var cases = roundTripValues.map { entry in
            ConformanceCase(entry.id, .roundTrip, requires: entry.needs, declarable: entry.needs, "\(entry.attribute) = \(entry.value) round-trips exactly.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "rt", entry.attribute: entry.value]))[0]
                try ctx.checkEqual(try ctx.get(id)[entry.attribute], entry.value, "\(entry.attribute) read back")
                if ctx.store.capabilities.contains(.persistence) {
                    try ctx.reopen()
                    try ctx.checkEqual(try ctx.get(id)[entry.attribute], entry.value, "\(entry.attribute) after reopen")
                }
            }
        }
        cases.append(ConformanceCase("nil-in-every-optional", .roundTrip, "nil in every optional attribute stays nil, distinct from empty values.") { ctx in
            let empty = ctx.new("Sample", ["label": "empty", "string": "", "data": .data(Data())])
            let ids = try ctx.insert(ctx.new("Sample", ["label": "nils"]), empty)
            for _ in 0..<2 {
                let nils = try ctx.get(ids[0])
                for a in ctx.entity("Sample").attributes where a.isOptional {
                    try ctx.checkEqual(nils[a.name], .null, "\(a.name) left nil")
                }
                try ctx.checkEqual(try ctx.get(ids[1])["string"], .string(""), "empty string (not nil)")
                try ctx.checkEqual(try ctx.get(ids[1])["data"], .data(Data()), "empty data (not nil)")
                guard ctx.store.capabilities.contains(.persistence) else { break }
                try ctx.reopen()
            }
        })
        cases.append(ConformanceCase("defaults-applied", .roundTrip, "A new snapshot starts with the schema's defaults and keeps them.") { ctx in
            let id = try ctx.insert(ctx.new("Sample", ["label": "d"]))[0]
            try ctx.checkEqual(try ctx.get(id)["count"], .int(7), "count default")
        })
        cases.append(ConformanceCase("update-to-nil-and-back", .roundTrip, "An update can set an optional to nil and back.") { ctx in
            let id = try ctx.insert(ctx.new("Sample", ["label": "u", "int": 5]))[0]
            var record = try ctx.get(id)
            record["int"] = .null
            try ctx.save(updated: [record])
            try ctx.checkEqual(try ctx.get(id)["int"], .null, "int after update to nil")
            record["int"] = 9
            try ctx.save(updated: [record])
            try ctx.checkEqual(try ctx.get(id)["int"], .int(9), "int after update back")
        })
        return cases
    }()
}
