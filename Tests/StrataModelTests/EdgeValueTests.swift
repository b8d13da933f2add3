import Foundation
import StrataModel
import Testing

/// An enum with associated values: stored as a `Codable` document.
enum EdgeShape: Codable, Hashable {
    case point
    case circle(radius: Double)
    case label(String, count: Int)
}

/// Every property type an app declares, for values at their edges.
@Model final class EdgeValue {
    var label: String
    var text: String = ""
    var optionalText: String? = nil
    var number: Double = 0
    var optionalNumber: Double? = nil
    var single: Float = 0
    var integer: Int = 0
    var tiny: Int8 = 0
    var unsigned: UInt64 = 0
    var word: UInt = 0
    var decimal: Decimal = 0
    var when: Date = Date(timeIntervalSinceReferenceDate: 0)
    var blob: Data = Data()
    var optionalBlob: Data? = nil
    var link: URL? = nil
    var identifier: UUID? = nil
    var shape: EdgeShape? = nil
    var numbers: [Int]? = nil
    var texts: [String] = []
    init(label: String) { self.label = label }
}

/// Long unique and indexed strings: LMDB cuts value keys at 500 bytes.
@Model final class LongKey {
    @Attribute(.unique) var key: String
    var tag: String
    var owner: String = ""
    #Index<LongKey>([\.tag])
    #Unique<LongKey>([\.owner, \.tag])
    init(key: String, tag: String) { self.key = key; self.tag = tag }
}

/// Values at the edges of every property type, saved through the model layer, reopened and
/// compared bit for bit on every backend; and sorts and predicates over them compared with Swift.
@Suite struct EdgeValueTests {
    static var controlCharacters: String { String(String.UnicodeScalarView((0...0x1F).map { Unicode.Scalar($0)! })) }

    /// (label, value) for the text property.
    static let texts: [(String, String)] = [
        ("empty", ""),
        ("controls", "a" + controlCharacters + "\u{7F}z"),
        ("nul-only", "\u{0}"),
        ("crlf", "line\r\nline\rline\n"),
        ("lone-cr-end", "end\r"),
        ("quotes", "\"\",\"a\",'b',\\\"c\\"),
        ("tabs", "\t\tx\t"),
        ("unicode-lines", "a\u{85}b\u{2028}c\u{2029}d"),
        ("bom", "\u{FEFF}start"),
        ("nonchars", "x\u{FFFE}\u{FFFF}y"),
        ("emoji", "👩‍👩‍👧‍👦🇫🇷e\u{301}\u{301}\u{20DD}"),
        ("markup", "<![CDATA[x]]>&#0;&amp;</value>"),
        ("json", "{\"a\":[1,2,\"\\u0000\"]}"),
        ("spaces", "   "),
        ("backslash-zero", "\\0\\\\0"),
        ("long", String(repeating: "ab,\"\n\u{1}é", count: 120_000)),  // 1 MB
    ]

    static let doubles: [(String, Double)] = [
        ("neg-zero", -0.0), ("nan", .nan), ("neg-nan", -.nan), ("snan-payload", Double(nan: 7, signaling: true)),
        ("inf", .infinity), ("neg-inf", -.infinity), ("subnormal", .leastNonzeroMagnitude),
        ("neg-subnormal", -Double.leastNonzeroMagnitude), ("min-normal", .leastNormalMagnitude),
        ("max", .greatestFiniteMagnitude), ("neg-max", -.greatestFiniteMagnitude), ("tenth", 0.1),
    ]

    static let floats: [Float] = [-0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1, Float(nan: 3, signaling: false)]

    static let dates: [Date] = [
        .distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: 0.000_000_1),
        Date(timeIntervalSince1970: 1_700_000_000.000_123_4), Date(timeIntervalSinceReferenceDate: -1e12),
        Date(timeIntervalSinceReferenceDate: 1e15), Date(timeIntervalSinceReferenceDate: -0.0),
    ]

    static let decimals: [Decimal] = [
        Decimal(string: "12345678901234567890123456789012345678")!,
        Decimal(string: "-0.0000000000000000000000000000000000001")!,
        Decimal(string: "3.14159265358979323846264338327950288")!,
        Decimal.greatestFiniteMagnitude, Decimal.leastNonzeroMagnitude, Decimal(0),
    ]

    static func sameBits(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }

    @Test(arguments: ModelBackend.all) func edgeValuesComeBackExactly(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let types: [any PersistentModel.Type] = [EdgeValue.self]
        var large = Data(count: 1 << 20)
        for i in large.indices { large[i] = UInt8(truncatingIfNeeded: i &* 31 &+ i >> 9) }
        do {
            let context = ModelContext(try backend.open(fixture.directory, types))
            for (label, text) in Self.texts {
                let v = EdgeValue(label: "text-" + label)
                v.text = text
                v.optionalText = text
                v.texts = label == "long" ? [] : [text, text]
                context.insert(v)
            }
            /// One record per value, labelled `prefix-name`, with `set` giving it the value.
            func insert<V>(_ prefix: String, _ values: [(String, V)], _ set: (EdgeValue, V) -> Void) {
                for (name, value) in values {
                    let v = EdgeValue(label: "\(prefix)-\(name)")
                    set(v, value)
                    context.insert(v)
                }
            }
            func numbered<V>(_ values: [V]) -> [(String, V)] { values.enumerated().map { ("\($0.offset)", $0.element) } }
            insert("double", Self.doubles) { $0.number = $1; $0.optionalNumber = $1 }
            insert("float", numbered(Self.floats)) { $0.single = $1 }
            insert("date", numbered(Self.dates)) { $0.when = $1 }
            insert("decimal", numbered(Self.decimals)) { $0.decimal = $1 }
            let ints = EdgeValue(label: "ints-max")
            ints.integer = .max
            ints.tiny = .max
            ints.unsigned = .max
            ints.word = .max
            context.insert(ints)
            let mins = EdgeValue(label: "ints-min")
            mins.integer = .min
            mins.tiny = .min
            mins.unsigned = UInt64(Int64.max) + 1
            context.insert(mins)
            let blobs = EdgeValue(label: "blobs")
            blobs.blob = large
            blobs.optionalBlob = Data()
            blobs.link = URL(string: "https://example.com/a%20b/%C3%BC?q=%26&x#frag")
            blobs.identifier = UUID(uuidString: "00000000-0000-0000-0000-000000000000")
            blobs.shape = .label("a,\"b\"\n", count: -1)
            blobs.numbers = []
            context.insert(blobs)
            let nils = EdgeValue(label: "nils")
            nils.shape = .circle(radius: .infinity)
            nils.numbers = [Int.min, Int.max]
            nils.link = URL(fileURLWithPath: "/tmp/a b/ü.txt")
            context.insert(nils)
            try context.save()
        }
        for pass in ["first open", "reopen"] {
            let container = try backend.open(fixture.directory, types)
            let context = ModelContext(container)
            let all = try context.fetch(FetchDescriptor<EdgeValue>())
            let byLabel = Dictionary(uniqueKeysWithValues: all.map { ($0.label, $0) })
            for (label, text) in Self.texts {
                let v = try #require(byLabel["text-" + label], "\(pass)")
                #expect(Array(v.text.utf8) == Array(text.utf8), "\(backend) \(pass): text \(label)")
                #expect(v.optionalText.map { Array($0.utf8) } == Array(text.utf8), "\(backend) \(pass): optional text \(label)")
                #expect(label == "long" || v.texts.map { Array($0.utf8) } == [Array(text.utf8), Array(text.utf8)], "\(backend) \(pass): text array \(label)")
            }
            for (label, d) in Self.doubles {
                let v = try #require(byLabel["double-" + label])
                #expect(Self.sameBits(v.number, d), "\(backend) \(pass): double \(label) read \(v.number)")
                #expect(v.optionalNumber.map { Self.sameBits($0, d) } == true, "\(backend) \(pass): optional double \(label)")
            }
            for (n, f) in Self.floats.enumerated() {
                let v = try #require(byLabel["float-\(n)"])
                #expect(v.single.bitPattern == f.bitPattern, "\(backend) \(pass): float \(f) read \(v.single)")
            }
            for (n, date) in Self.dates.enumerated() {
                let v = try #require(byLabel["date-\(n)"])
                #expect(Self.sameBits(v.when.timeIntervalSinceReferenceDate, date.timeIntervalSinceReferenceDate), "\(backend) \(pass): date \(date.timeIntervalSinceReferenceDate) read \(v.when.timeIntervalSinceReferenceDate)")
            }
            for (n, d) in Self.decimals.enumerated() {
                let v = try #require(byLabel["decimal-\(n)"])
                #expect(v.decimal == d, "\(backend) \(pass): decimal \(d) read \(v.decimal)")
            }
            let ints = try #require(byLabel["ints-max"]), mins = try #require(byLabel["ints-min"])
            #expect(ints.integer == .max && ints.tiny == .max && ints.unsigned == .max && ints.word == .max, "\(backend) \(pass)")
            #expect(mins.integer == .min && mins.tiny == .min && mins.unsigned == UInt64(Int64.max) + 1, "\(backend) \(pass)")
            let blobs = try #require(byLabel["blobs"]), nils = try #require(byLabel["nils"])
            #expect(blobs.blob == large && blobs.optionalBlob == Data(), "\(backend) \(pass): data")
            #expect(blobs.link == URL(string: "https://example.com/a%20b/%C3%BC?q=%26&x#frag"), "\(backend) \(pass): url")
            #expect(blobs.identifier == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
            #expect(blobs.shape == .label("a,\"b\"\n", count: -1) && blobs.numbers == [], "\(backend) \(pass)")
            #expect(nils.optionalBlob == nil && nils.optionalText == nil && nils.optionalNumber == nil && nils.identifier == nil, "\(backend) \(pass)")
            #expect(nils.shape == .circle(radius: .infinity) && nils.numbers == [Int.min, Int.max], "\(backend) \(pass)")
            #expect(nils.link == URL(fileURLWithPath: "/tmp/a b/ü.txt"), "\(backend) \(pass): file url")
            // Equality predicates find each value again.
            for (label, text) in Self.texts where label != "long" {
                let found = try context.fetch(FetchDescriptor<EdgeValue>(predicate: #Predicate { $0.text == text })).map(\.label).filter { $0.hasPrefix("text-") }
                #expect(found == ["text-" + label], "\(backend) \(pass): text == \(label) found \(found)")
            }
        }
    }

    /// Sorts and comparisons over edge doubles, optional values and strings agree with Swift's.
    @Test(arguments: ModelBackend.all) func sortsAndComparisonsOverEdgeValues(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let types: [any PersistentModel.Type] = [EdgeValue.self]
        let numbers: [Double?] = [1, nil, -.infinity, .nan, -0.0, 0.0, .infinity, .leastNonzeroMagnitude, -1, nil, .greatestFiniteMagnitude]
        let texts = ["b", "B", "a", "é", "e\u{301}", "", "Z", "ä", "a\u{0}", "a\u{1}", "ab", "😀", "\u{FFFF}"]
        do {
            let context = ModelContext(try backend.open(fixture.directory, types))
            for (n, d) in numbers.enumerated() {
                let v = EdgeValue(label: String(format: "%02d", n))
                v.optionalNumber = d
                v.number = d ?? 0
                v.text = texts[n % texts.count]
                v.optionalText = n % 3 == 0 ? nil : texts[(n + 5) % texts.count]
                v.when = Date(timeIntervalSinceReferenceDate: Double(n) * 0.000_1)
                context.insert(v)
            }
            for n in numbers.count..<texts.count {
                let v = EdgeValue(label: String(format: "%02d", n))
                v.text = texts[n]
                context.insert(v)
            }
            try context.save()
        }
        let context = ModelContext(try backend.open(fixture.directory, types))
        let all = try context.fetch(FetchDescriptor<EdgeValue>())
        func labels(_ d: FetchDescriptor<EdgeValue>) throws -> [String] { try context.fetch(d).map(\.label) }
        /// The core's documented order: nil first, then numbers, NaN after +inf; ties by key (insertion).
        func rank(_ d: Double?) -> (Int, Double) {
            guard let d else { return (0, 0) }
            return d.isNaN ? (2, 0) : (1, d == 0 ? 0 : d)
        }
        let expectedAscending = all.enumerated().sorted { a, b in
            let ra = rank(a.element.optionalNumber), rb = rank(b.element.optionalNumber)
            return ra != rb ? (ra.0 != rb.0 ? ra.0 < rb.0 : ra.1 < rb.1) : a.offset < b.offset
        }.map(\.element.label)
        #expect(try labels(FetchDescriptor(sortBy: [SortDescriptor(\.optionalNumber)])) == expectedAscending, "\(backend): optional doubles ascending")
        let expectedDescending = all.enumerated().sorted { a, b in
            let ra = rank(a.element.optionalNumber), rb = rank(b.element.optionalNumber)
            return ra != rb ? (ra.0 != rb.0 ? ra.0 > rb.0 : ra.1 > rb.1) : a.offset < b.offset
        }.map(\.element.label)
        #expect(try labels(FetchDescriptor(sortBy: [SortDescriptor(\.optionalNumber, order: .reverse)])) == expectedDescending, "\(backend): optional doubles descending")
        let byText = all.enumerated().sorted { a, b in
            let x = Array(a.element.text.utf8), y = Array(b.element.text.utf8)
            return x != y ? x.lexicographicallyPrecedes(y) : a.offset < b.offset
        }.map(\.element.label)
        #expect(try labels(FetchDescriptor(sortBy: [SortDescriptor(\.text)])) == byText, "\(backend): strings by bytes")
        let byDate = all.sorted { $0.when < $1.when || ($0.when == $1.when && $0.label < $1.label) }.map(\.label)
        #expect(try labels(FetchDescriptor(sortBy: [SortDescriptor(\.when), SortDescriptor(\.label)])) == byDate, "\(backend): dates 0.1 ms apart")

        let nan = Double.nan
        for bound in [0.0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, 1] {
            let swiftLess = all.filter { ($0.optionalNumber ?? .nan) < bound }.map(\.label).sorted()
            #expect(try labels(FetchDescriptor(predicate: #Predicate { ($0.optionalNumber ?? nan) < bound })).sorted() == swiftLess, "\(backend): < \(bound)")
            let swiftGreaterEqual = all.filter { $0.number >= bound }.map(\.label).sorted()
            #expect(try labels(FetchDescriptor(predicate: #Predicate { $0.number >= bound })).sorted() == swiftGreaterEqual, "\(backend): >= \(bound)")
            let swiftNotEqual = all.filter { $0.number != bound }.map(\.label).sorted()
            #expect(try labels(FetchDescriptor(predicate: #Predicate { $0.number != bound })).sorted() == swiftNotEqual, "\(backend): != \(bound)")
        }
        for t in texts {
            let less = all.filter { Array($0.text.utf8).lexicographicallyPrecedes(Array(t.utf8)) }.map(\.label).sorted()
            #expect(try labels(FetchDescriptor(predicate: #Predicate { $0.text < t })).sorted() == less, "\(backend): text < \(t.debugDescription)")
            let optionalEqual = all.filter { $0.optionalText.map { Array($0.utf8) == Array(t.utf8) } ?? false }.map(\.label).sorted()
            #expect(try labels(FetchDescriptor(predicate: #Predicate { $0.optionalText == t })).sorted() == optionalEqual, "\(backend): optionalText == \(t.debugDescription)")
        }
        let cutoff = Date(timeIntervalSinceReferenceDate: 0.000_35)
        #expect(try context.fetchCount(FetchDescriptor(predicate: #Predicate<EdgeValue> { $0.when > cutoff })) == all.filter { $0.when > cutoff }.count, "\(backend): sub-millisecond date comparison")
        #expect(try context.fetchCount(FetchDescriptor(predicate: #Predicate<EdgeValue> { $0.optionalText == nil })) == all.filter { $0.optionalText == nil }.count)
    }

    /// Case-insensitive and Finder-like orders, searches and edge doubles give every backend the
    /// memory backend's answer, over texts where case mapping, NUL, marks and digits differ.
    @Test(arguments: ModelBackend.all.filter { $0.name != "memory" }) func textAndNumberQueriesAgreeWithMemory(_ backend: ModelBackend) throws {
        let texts = ["ΟΔΟΣ", "οδοσ", "İstanbul", "i\u{307}stanbul", "STRASSE", "straße", "a\u{0}B", "A\u{0}b", "a10", "a9", "A9", "e\u{301}", "é", "É",
                     "👩‍👩‍👧‍👦", "x\u{FFFF}", "", "Ǆ", "ǆ", "ﬁ", "FI", "%_", "a%b"]
        let numbers: [Double?] = [.nan, -0.0, 0.0, nil, -.infinity, .infinity, -.nan, .leastNonzeroMagnitude, 1, nil]
        let memory = try #require(ModelBackend.all.first { $0.name == "memory" })
        let fixtures = [try ModelFixture(memory), try ModelFixture(backend)]
        var contexts: [ModelContext] = []
        for fixture in fixtures {
            let context = ModelContext(try fixture.backend.open(fixture.directory, [EdgeValue.self]))
            for (n, text) in texts.enumerated() {
                let v = EdgeValue(label: String(format: "%02d", n))
                v.text = text
                v.optionalText = n % 4 == 0 ? nil : texts[(n * 7) % texts.count]
                v.optionalNumber = numbers[n % numbers.count]
                v.number = numbers[(n + 3) % numbers.count] ?? -0.0
                context.insert(v)
            }
            try context.save()
            contexts.append(ModelContext(try fixture.backend.open(fixture.directory, [EdgeValue.self])))
        }
        func both(_ d: FetchDescriptor<EdgeValue>) throws -> ([String], [String]) {
            (try contexts[0].fetch(d).map(\.label), try contexts[1].fetch(d).map(\.label))
        }
        for comparator in [StringComparator.caseInsensitive, .localizedStandard, .byteOrder] {
            for order in [Strata.SortOrder.ascending, .descending] {
                var d = FetchDescriptor<EdgeValue>()
                d.sortKeys = [SortKey(\EdgeValue.text, order: order, comparator: comparator)]
                let (expected, found) = try both(d)
                #expect(found == expected, "\(backend): text \(comparator) \(order)")
                d.sortKeys = [SortKey(\EdgeValue.optionalText, order: order, comparator: comparator), SortKey(\EdgeValue.optionalNumber, order: order)]
                d.fetchOffset = 3
                d.fetchLimit = 9
                let (expectedWindow, foundWindow) = try both(d)
                #expect(foundWindow == expectedWindow, "\(backend): optional text \(comparator) \(order), then optional number, windowed")
            }
        }
        for t in texts + ["σ", "ss", "i", "İ", "\u{0}", "\u{301}", "_", "%"] {
            for (name, predicate) in [
                ("localizedStandardContains", #Predicate<EdgeValue> { $0.text.localizedStandardContains(t) }),
                ("contains", #Predicate<EdgeValue> { $0.text.contains(t) }),
                ("starts(with:)", #Predicate<EdgeValue> { $0.text.starts(with: t) }),
                ("== optional", #Predicate<EdgeValue> { $0.optionalText == t }),
            ] {
                let (expected, found) = try both(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.label)]))
                #expect(found == expected, "\(backend): \(name) \(t.debugDescription)")
            }
        }
        for order in [Foundation.SortOrder.forward, .reverse] {
            let (expected, found) = try both(FetchDescriptor(sortBy: [SortDescriptor(\.optionalNumber, order: order), SortDescriptor(\.number, order: order)]))
            #expect(found == expected, "\(backend): optional doubles then doubles \(order)")
        }
        for bound in [0.0, -0.0, .nan, .infinity] {
            let (expected, found) = try both(FetchDescriptor(predicate: #Predicate { $0.number == bound || $0.optionalNumber == bound }, sortBy: [SortDescriptor(\.label)]))
            #expect(found == expected, "\(backend): == \(bound)")
        }
    }

    /// Unique and indexed strings longer than an LMDB key, sharing long prefixes.
    @Test(arguments: ModelBackend.all) func longUniqueAndIndexedStrings(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let types: [any PersistentModel.Type] = [LongKey.self]
        let prefix = String(repeating: "p", count: 498)
        let keys = [prefix + "é", prefix + "éa", prefix + "éb", prefix + "e", prefix, prefix + "\u{0}", String(repeating: "é", count: 400) + "x", String(repeating: "é", count: 400) + "y", "short"]
        do {
            let context = ModelContext(try backend.open(fixture.directory, types))
            for (n, key) in keys.enumerated() {
                let record = LongKey(key: key, tag: key + (n % 2 == 0 ? "0" : "1"))
                record.owner = n < 4 ? prefix + "owner" : "o"
                context.insert(record)
            }
            try context.save()
        }
        let context = ModelContext(try backend.open(fixture.directory, types))
        #expect(try context.fetchCount(FetchDescriptor<LongKey>()) == keys.count, "\(backend): every distinct long key was stored")
        for key in keys {
            #expect(try context.fetch(FetchDescriptor<LongKey>(predicate: #Predicate { $0.key == key })).map(\.key) == [key], "\(backend): key == \(key.suffix(3).debugDescription)")
            for bound in [key + "0", key + "1", key] {
                for (name, predicate, swift) in [
                    ("<", #Predicate<LongKey> { $0.tag < bound }, { (t: String) in Array(t.utf8).lexicographicallyPrecedes(Array(bound.utf8)) }),
                    (">=", #Predicate<LongKey> { $0.tag >= bound }, { (t: String) in !Array(t.utf8).lexicographicallyPrecedes(Array(bound.utf8)) }),
                    (">", #Predicate<LongKey> { $0.tag > bound }, { (t: String) in Array(bound.utf8).lexicographicallyPrecedes(Array(t.utf8)) }),
                    ("<=", #Predicate<LongKey> { $0.tag <= bound }, { (t: String) in !Array(bound.utf8).lexicographicallyPrecedes(Array(t.utf8)) }),
                    ("==", #Predicate<LongKey> { $0.tag == bound }, { (t: String) in Array(t.utf8) == Array(bound.utf8) }),
                ] as [(String, Predicate<LongKey>, (String) -> Bool)] {
                    let expected = keys.enumerated().map { n, k in k + (n % 2 == 0 ? "0" : "1") }.filter(swift).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                    let found = try context.fetch(FetchDescriptor<LongKey>(predicate: predicate, sortBy: [SortDescriptor(\.tag)])).map(\.tag)
                    #expect(found == expected, "\(backend): tag \(name) bound ending \(bound.suffix(3).debugDescription)")
                }
            }
        }
        for key in [keys[0], keys[4], keys[6]] {
            context.insert(LongKey(key: key, tag: "dup"))
            #expect(throws: StrataError.self, "\(backend): a second \(key.suffix(3).debugDescription) collides") { try context.save() }
            context.rollback()
        }
        let twin = LongKey(key: "twin", tag: keys[1] + "1")
        twin.owner = prefix + "owner"
        context.insert(twin)
        #expect(throws: StrataError.self, "\(backend): the composite (owner, tag) collides") { try context.save() }
        context.rollback()
        let first = try #require(try context.fetch(FetchDescriptor<LongKey>(predicate: #Predicate { $0.key == "short" })).first)
        first.key = keys[2] + "c"
        try context.save()
        #expect(try ModelContext(context.container).fetch(FetchDescriptor<LongKey>(predicate: #Predicate { $0.key > "short" })).count == keys.filter { $0 > "short" }.count)
        let moved = keys[2] + "c"
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<LongKey>(predicate: #Predicate { $0.key == moved })) == 1)
    }
}
