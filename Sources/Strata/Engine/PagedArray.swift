/// A sparse array keyed by non-negative primary keys, stored in pages of 256 keys.
///
/// Memory follows the number of elements, never the size of the keys: only pages holding at least
/// one element exist, and a page with few elements keeps them compactly (slot numbers beside
/// elements) instead of in 256 slots. A store whose key counter reached 100,000,000 through
/// insert/delete churn, or a damaged file naming key `Int64.max − 1`, costs what its records cost.
///
/// Keys grow from 1 and are never reused, so in an ordinary store the pages are contiguous: finding
/// a page is one subtraction and one comparison (the page's number minus the first page's), with a
/// binary search only for stores with gaps. A copy of the whole structure shares its pages, so
/// changing one record in a copied state copies one page and one chunk of 64 page entries
/// (`ChunkedArray`), not the store and not the whole page list.
struct PagedArray<Element: Sendable>: Sendable {
    static var pageShift: Int64 { 8 }
    static var pageSize: Int { 1 << 8 }
    /// A compact page with more elements than this becomes dense (at most 256/32 = 8 slots per element).
    static var denseAbove: Int { 32 }
    /// A dense page with fewer elements than this becomes compact again (hysteresis against flapping).
    static var compactBelow: Int { 16 }

    /// The numbers (key >> 8) of the pages that exist, ascending; parallel to `pages`.
    private var numbers: [Int64] = []
    private var pages = ChunkedArray<Page>()
    /// How many keys hold an element.
    private(set) var count = 0

    /// One page: either dense (`slots` has 256 entries) or compact (`slots` is empty and `offsets`
    /// lists the occupied slots in ascending order, parallel to `elements`).
    struct Page: Sendable {
        var slots: [Element?] = []
        var offsets: [UInt8] = []
        var elements: [Element] = []
        var count = 0

        var isDense: Bool { !slots.isEmpty }

        /// Where `slot` is, or would be inserted, in a compact page's `offsets`.
        func position(_ slot: UInt8) -> (index: Int, found: Bool) { PagedArray.search(offsets, slot) }

        /// Puts `value` into a dense page's `slot`; whether the slot was empty. One access to the
        /// page (one uniqueness check down the page list), where three separate writes made three.
        @inline(__always)
        mutating func putDense(_ value: consuming Element, _ slot: Int) -> Bool {
            // Swap the new value in and look at the old one in place: no copy of the old record.
            var old: Element? = value
            swap(&old, &slots[slot])
            if old != nil { return false }
            count += 1
            return true
        }

        @inline(__always)
        func element(_ slot: Int) -> Element? {
            if isDense { return slots[slot] }
            let (i, found) = position(UInt8(truncatingIfNeeded: slot))
            return found ? elements[i] : nil
        }
    }

    /// The index in `pages` of page `number`, if it exists.
    @inline(__always)
    private func pageIndex(_ number: Int64) -> Int? {
        guard let first = numbers.first else { return nil }
        let guess = number &- first
        if guess >= 0, guess < Int64(numbers.count), numbers[Int(guess)] == number { return Int(guess) }
        let (i, found) = insertionPoint(number)
        return found ? i : nil
    }

    private func insertionPoint(_ number: Int64) -> (Int, Bool) { Self.search(numbers, number) }

    /// Binary search of a sorted array: where `value` is, or would be inserted.
    @inline(__always)
    static func search<T: Comparable>(_ sorted: [T], _ value: T) -> (index: Int, found: Bool) {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) >> 1
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return (low, low < sorted.count && sorted[low] == value)
    }

    subscript(key: Int64) -> Element? {
        @inline(__always)
        get {
            guard key >= 0, let p = pageIndex(key >> Self.pageShift) else { return nil }
            return pages[p].element(Int(key & Int64(Self.pageSize - 1)))
        }
        set {
            precondition(key >= 0, "primary keys are positive")
            let number = key >> Self.pageShift
            let slot = Int(key & Int64(Self.pageSize - 1))
            if let newValue { put(newValue, number, slot) } else { remove(number, slot) }
        }
    }

    /// Whether `key` holds an element; looks at the slot without copying the element out.
    func contains(_ key: Int64) -> Bool {
        guard key >= 0, let p = pageIndex(key >> Self.pageShift) else { return false }
        let slot = Int(key & Int64(Self.pageSize - 1))
        if pages[p].isDense { return pages[p].slots[slot] != nil }
        return pages[p].position(UInt8(truncatingIfNeeded: slot)).found
    }

    /// Makes dense, ahead of the puts, the pages that keys `keys` will fill, where they lie past the
    /// last page and fill more than `denseAbove` of its slots: a bulk insert (a save's new keys)
    /// then writes each element into its slot, instead of growing a compact page element by
    /// element and converting it. The caller must put every key of `keys` before anyone reads the
    /// structure's allocation (a page stays empty until then).
    mutating func prepareDensePages(for keys: Range<Int64>) {
        guard !keys.isEmpty, keys.lowerBound >= 0 else { return }
        var number = keys.lowerBound >> Self.pageShift
        while number <= (keys.upperBound - 1) >> Self.pageShift {
            // Offsets from the page's first key: its end may lie past `Int64.max` (the last page).
            let first = number << Self.pageShift
            let filled = min(keys.upperBound - first, Int64(Self.pageSize)) - max(keys.lowerBound - first, 0)
            if filled > Int64(Self.denseAbove), (numbers.last ?? -1) < number {
                numbers.append(number)
                pages.append(Page(slots: [Element?](repeating: nil, count: Self.pageSize)))
            }
            number += 1
        }
    }

    private mutating func put(_ value: consuming Element, _ number: Int64, _ slot: Int) {
        let p: Int
        if let existing = pageIndex(number) {
            p = existing
        } else {
            // Keys usually grow, so a new page usually goes at the end.
            let i = (numbers.last ?? -1) < number ? numbers.count : insertionPoint(number).0
            numbers.insert(number, at: i)
            pages.insert(Page(), at: i)
            p = i
        }
        if pages[p].isDense {
            if pages[p].putDense(value, slot) { count += 1 }
            return
        }
        let (i, found) = pages[p].position(UInt8(truncatingIfNeeded: slot))
        if found {
            pages[p].elements[i] = value
            return
        }
        pages[p].offsets.insert(UInt8(truncatingIfNeeded: slot), at: i)
        pages[p].elements.insert(value, at: i)
        pages[p].count += 1
        count += 1
        if pages[p].count > Self.denseAbove { makeDense(p) }
    }

    private mutating func remove(_ number: Int64, _ slot: Int) {
        guard let p = pageIndex(number) else { return }
        if pages[p].isDense {
            guard pages[p].slots[slot].take() != nil else { return }
        } else {
            let (i, found) = pages[p].position(UInt8(truncatingIfNeeded: slot))
            guard found else { return }
            pages[p].offsets.remove(at: i)
            pages[p].elements.remove(at: i)
        }
        pages[p].count -= 1
        count -= 1
        if pages[p].count == 0 {
            numbers.remove(at: p)
            pages.remove(at: p)
        } else if pages[p].isDense, pages[p].count < Self.compactBelow {
            makeCompact(p)
        }
    }

    private mutating func makeDense(_ p: Int) {
        var slots = [Element?](repeating: nil, count: Self.pageSize)
        for (offset, element) in zip(pages[p].offsets, pages[p].elements) { slots[Int(offset)] = element }
        pages[p] = Page(slots: slots, count: pages[p].count)
    }

    private mutating func makeCompact(_ p: Int) {
        var page = Page(count: pages[p].count)
        page.offsets.reserveCapacity(page.count)
        page.elements.reserveCapacity(page.count)
        for (slot, element) in pages[p].slots.enumerated() {
            if let element {
                page.offsets.append(UInt8(truncatingIfNeeded: slot))
                page.elements.append(element)
            }
        }
        pages[p] = page
    }

    /// Applies `body` to each key and element in ascending key order; stops when it returns false.
    func forEach(_ body: (Int64, Element) throws -> Bool) rethrows {
        for (number, page) in zip(numbers, pages) {
            let base = number << Self.pageShift
            if page.isDense {
                for (slot, element) in page.slots.enumerated() {
                    if let element, try !body(base + Int64(slot), element) { return }
                }
            } else {
                for (offset, element) in zip(page.offsets, page.elements) {
                    if try !body(base + Int64(offset), element) { return }
                }
            }
        }
    }

    /// Changes the element at `key` in place, if present.
    mutating func modify(_ key: Int64, _ body: (inout Element) -> Void) {
        guard key >= 0, let p = pageIndex(key >> Self.pageShift) else { return }
        let slot = Int(key & Int64(Self.pageSize - 1))
        if pages[p].isDense {
            guard pages[p].slots[slot] != nil else { return }
            body(&pages[p].slots[slot]!)
        } else {
            let (i, found) = pages[p].position(UInt8(truncatingIfNeeded: slot))
            guard found else { return }
            body(&pages[p].elements[i])
        }
    }

    /// How many element slots are allocated (dense pages count 256 each): what the structure costs,
    /// which must follow `count`, never the size of the keys.
    var allocatedSlots: Int {
        pages.reduce(0) { $0 + ($1.isDense ? $1.slots.count : $1.elements.count) }
    }

    /// Checks the layout (under `STRATA_INTERNAL_CHECKS`; nothing otherwise): page numbers ascending
    /// and parallel to the pages, each page dense (256 slots, no compact lists) or compact (offsets
    /// ascending and parallel to the elements, at most `denseAbove` of them), each page's count its
    /// elements' number and never 0, and `count` their sum. Dense pages `prepareDensePages` made ahead
    /// of a bulk insert are full again when the insert ends, which is when this runs.
    func _checkInvariants() {
        #if STRATA_INTERNAL_CHECKS
        pages._checkInvariants()
        internalInvariant(numbers.count == pages.count, "PagedArray: \(numbers.count) page numbers for \(pages.count) pages")
        var total = 0
        for (i, page) in pages.enumerated() {
            internalInvariant(i == 0 || numbers[i - 1] < numbers[i], "PagedArray: page numbers not ascending at \(i)")
            if page.isDense {
                internalInvariant(page.slots.count == Self.pageSize, "PagedArray: a dense page of \(page.slots.count) slots")
                internalInvariant(page.offsets.isEmpty && page.elements.isEmpty, "PagedArray: a dense page with compact lists")
                internalInvariant(page.slots.lazy.filter { $0 != nil }.count == page.count, "PagedArray: a dense page's count is not its elements'")
            } else {
                internalInvariant(page.offsets.count == page.elements.count && page.elements.count == page.count, "PagedArray: a compact page's lists and count differ")
                internalInvariant(page.count <= Self.denseAbove, "PagedArray: a compact page of \(page.count) elements, over \(Self.denseAbove)")
                internalInvariant(zip(page.offsets, page.offsets.dropFirst()).allSatisfy { $0 < $1 }, "PagedArray: a compact page's offsets not ascending")
            }
            internalInvariant(page.count > 0, "PagedArray: an empty page \(numbers[i]) kept")
            total += page.count
        }
        internalInvariant(total == count, "PagedArray: count \(count), pages hold \(total)")
        #endif
    }
}
