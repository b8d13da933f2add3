import Strata
import StrataConformance
import Testing

/// The to-many and comparator cases catch backends that get them subtly wrong.
extension BrokenBackendTests {
    @Test func catchesIgnoredComparators() {
        let results = Self.results(ComparatorIgnored.self)
        let failed = Self.failed(results)
        #expect(failed.isSuperset(of: ["fetch.sort-comparators", "fetch.sort-comparators-paths-and-windows"]), "caught: \(failed.sorted())")
        Self.expectRuleQuoted(results, "fetch.sort-comparators")
    }

    @Test func catchesNilToManyReadAsEmpty() {
        let results = Self.results(NilChainAsEmpty.self)
        let failed = Self.failed(results)
        #expect(failed.isSuperset(of: ["fetch.to-many-through-empty-to-one", "fetch.to-many-through-to-one-chain"]), "caught: \(failed.sorted())")
    }

    @Test func catchesPointLookupIgnoringTheStore() {
        let failed = Self.failed(Self.results(PointLookupIgnoresStore.self))
        #expect(failed.contains("fetch.point-lookup-missing-is-nil"), "caught: \(failed.sorted())")
    }
}
