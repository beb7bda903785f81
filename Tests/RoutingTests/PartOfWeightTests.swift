import GeoKit
import Testing
@testable import Routing

/// A seed's part of an edge's travel time is rounded as `Double.rounded()`
/// rounds the product (to the nearest ms, halves up), without calling it.
@Suite(.timeLimit(.minutes(20))) struct PartOfWeightTests {
    @Test func halvesRoundUpAndTheEndsStay() {
        #expect(partOfWeight(1, 0.5) == 1)
        #expect(partOfWeight(3, 0.5) == 2)
        #expect(partOfWeight(999, 0.0005) == 0)
        #expect(partOfWeight(0, 0.7) == 0)
        #expect(partOfWeight(1_234, 0) == 0)
        #expect(partOfWeight(unreachableMs - 1, 1) == unreachableMs - 1)
    }

    @Test func equalsRoundingTheProduct() {
        var random = SplitMix64(state: 2026)
        for _ in 0..<200_000 {
            let weight = UInt32(truncatingIfNeeded: random.next()) % (random.next() % 2 == 0 ? 100_000 : unreachableMs)
            let share = Double(random.next() % 1_000_001) / 1_000_000
            #expect(partOfWeight(weight, share) == UInt32((Double(weight) * share).rounded()), "weight \(weight), share \(share)")
        }
    }
}
