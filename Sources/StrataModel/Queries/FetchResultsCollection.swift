/// SwiftData's `FetchResultsCollection`: the results of a completed fetch, as a random-access
/// collection whose elements are made a batch at a time as you reach them.
///
/// `ModelContext.fetch(_:batchSize:)` returns one of models and
/// `ModelContext.fetchIdentifiers(_:batchSize:)` one of identifiers. For models, the store is read
/// once, when the fetch is made: the collection holds what the store returned for every matching
/// record and makes (and registers in the context) the objects of one batch the first time an
/// index in it is read. So the results are those of one moment, like `fetch(_:)`'s, and reading
/// an element never fails: nothing is read from the store later. An object the context already
/// holds when its batch is made is the element as it is, with its current values.
///
/// Like the context it came from, a collection is not `Sendable`: use it where you use the context.
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    /// The type of a position in the collection: an offset from the first result.
    public typealias Index = Int

    /// The results, or where a position's result comes from.
    private let source: Source

    /// The elements themselves, or a loader that makes each batch once.
    private enum Source {
        case elements([Element])
        case batches(count: Int, element: (Int) -> Element)
    }

    /// A collection of elements already made.
    init(_ elements: [Element]) {
        source = .elements(elements)
    }

    /// A collection of `count` elements, each made by `element` (which makes its whole batch).
    init(count: Int, element: @escaping (Int) -> Element) {
        source = .batches(count: count, element: element)
    }

    /// The position of the first result (0).
    public var startIndex: Int { 0 }

    /// The position one past the last result: the number of results.
    public var endIndex: Int {
        switch source {
        case .elements(let elements): elements.count
        case .batches(let count, _): count
        }
    }

    /// The result at `position`, making its batch first if no index in it was read before.
    ///
    /// - Precondition: `position` is a valid index, as for any collection.
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < endIndex, "FetchResultsCollection index \(position) out of range 0..<\(endIndex)")
        switch source {
        case .elements(let elements): return elements[position]
        case .batches(_, let element): return element(position)
        }
    }
}
