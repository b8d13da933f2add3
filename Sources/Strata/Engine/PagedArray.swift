/// A sparse array keyed by positive primary keys, stored in fixed-size pages.
///
/// Primary keys grow from 1 and are never reused, so records sit densely in key order: lookup is two
/// array indexes, a scan visits keys in ascending order with no sort, and — what matters for saves —
/// a copy of the whole structure shares its pages, so changing one record in a copied state copies
/// one page (256 slots) and the page list, not the store.
struct PagedArray<Element: Sendable>: Sendable {
    static var pageShift: Int64 { 8 }
    static var pageSize: Int { 1 << 8 }

    private var pages: [[Element?]] = []
    /// How many keys hold an element.
    private(set) var count = 0

    subscript(key: Int64) -> Element? {
        get {
            guard key >= 0 else { return nil }
            let page = Int(key >> Self.pageShift)
            guard page < pages.count else { return nil }
            return pages[page][Int(key & Int64(Self.pageSize - 1))]
        }
        set {
            precondition(key >= 0, "primary keys are positive")
            let page = Int(key >> Self.pageShift)
            let slot = Int(key & Int64(Self.pageSize - 1))
            if page >= pages.count {
                guard newValue != nil else { return }
                pages.reserveCapacity(page + 1)
                while pages.count <= page { pages.append([Element?](repeating: nil, count: Self.pageSize)) }
            }
            let isPresent = newValue != nil
            // Swap the new value in and look at the old one in place: no copy of the old record.
            let wasPresent = Self.swap(&pages[page][slot], newValue)
            count += (isPresent ? 1 : 0) - (wasPresent ? 1 : 0)
        }
    }

    @inline(__always)
    private static func swap(_ slot: inout Element?, _ value: Element?) -> Bool {
        let old = slot.take()
        slot = value
        return old != nil
    }

    /// Applies `body` to each key and element in ascending key order; stops when it returns false.
    func forEach(_ body: (Int64, Element) throws -> Bool) rethrows {
        for (p, page) in pages.enumerated() {
            let base = Int64(p) << Self.pageShift
            for (slot, element) in page.enumerated() {
                if let element, try !body(base + Int64(slot), element) { return }
            }
        }
    }

    /// Changes the element at `key` in place, if present.
    mutating func modify(_ key: Int64, _ body: (inout Element) -> Void) {
        let page = Int(key >> Self.pageShift)
        let slot = Int(key & Int64(Self.pageSize - 1))
        guard key >= 0, page < pages.count, pages[page][slot] != nil else { return }
        body(&pages[page][slot]!)
    }
}
