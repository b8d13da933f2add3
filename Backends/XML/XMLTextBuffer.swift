import Foundation

/// The character data of the element being read, copied out of libxml2's callbacks (whose bytes are
/// valid only during the call) into one allocation reused for every element of a parse.
///
/// A plain pointer and count: emptying it is one store, where `Array.removeAll(keepingCapacity:)`
/// does real work per element of a store file (limit: Benchmarks/Thresholds/xml-reopen.txt). No
/// run-time exclusivity checks on its state: one parse, one thread, and no access overlaps another
/// (see `XMLStoreReader`).
final class XMLTextBuffer {
    #if !STRATA_INTERNAL_CHECKS  // debug builds check exclusivity here (docs/architecture.md, "Internal checks")
    @exclusivity(unchecked)
    #endif
    private var storage: UnsafeMutablePointer<UInt8>
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var capacity: Int
    /// How many bytes it holds.
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// The bytes held, valid until the next `append` or `removeAll`.
    var bytes: XMLBytes { XMLBytes(start: storage, count: count) }

    var isEmpty: Bool { count == 0 }

    /// Adds `more` at the end, growing the allocation when needed.
    func append(_ more: XMLBytes) {
        guard let source = more.baseAddress, more.count > 0 else { return }
        if count + more.count > capacity {
            var grown = capacity * 2
            while grown < count + more.count { grown *= 2 }
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            larger.update(from: storage, count: count)
            storage.deallocate()
            storage = larger
            capacity = grown
        }
        (storage + count).update(from: source, count: more.count)
        count += more.count
    }

    /// Forgets the bytes, keeping the allocation.
    func removeAll() { count = 0 }
}
