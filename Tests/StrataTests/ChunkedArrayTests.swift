import Testing
@_spi(StrataEngine) @testable import Strata

/// The page list's chunked storage behaves exactly like an `Array` under inserts and removals
/// anywhere, and a copy shares what it does not change.
struct ChunkedArrayTests {
    @Test func matchesAnArrayUnderRandomInsertsAndRemovals() {
        var chunked = ChunkedArray<Int>()
        var model: [Int] = []
        var seed: UInt64 = 7
        func next(_ bound: Int) -> Int {
            // A small deterministic generator, so a failure reproduces.
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(max(bound, 1)))
        }
        for step in 0..<5_000 {
            let choice = next(10)
            if choice < 4 || model.isEmpty {
                chunked.append(step)
                model.append(step)
            } else if choice < 7 {
                let at = next(model.count + 1)
                chunked.insert(step, at: at)
                model.insert(step, at: at)
            } else {
                let at = next(model.count)
                #expect(chunked.remove(at: at) == model.remove(at: at))
            }
            if step % 250 == 0 { #expect(Array(chunked) == model) }
        }
        #expect(Array(chunked) == model)
        while !model.isEmpty {
            #expect(chunked.remove(at: 0) == model.removeFirst())
        }
        #expect(chunked.isEmpty)
    }

    @Test func aCopyKeepsItsValuesWhenTheOriginalChanges() {
        var original = ChunkedArray<Int>()
        for i in 0..<1_000 { original.append(i) }
        let copy = original
        original[500] = -1
        original.insert(-2, at: 3)
        original.remove(at: 900)
        #expect(Array(copy) == Array(0..<1_000))
        #expect(original[501] == -1 && original[3] == -2 && original.count == 1_000)
    }
}
