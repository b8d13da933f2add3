import Testing
@testable import Strata
@Test func placeholder() {}
