import Foundation
import Testing
@testable import Places

/// The geocoder's accuracy goals on the demo city, measured on the test set
/// Tools/places-testset.py built from the same extract (Fixtures/midtown-queries.tsv).
@Suite(.timeLimit(.minutes(20))) struct MidtownAccuracyTests {
    static let testSet = try! PlaceTestSet(tsv: String(contentsOf: Bundle.module.url(
        forResource: "midtown-queries", withExtension: "tsv", subdirectory: "Fixtures")!, encoding: .utf8))
    static let scores = testSet.score(on: MidtownPlaces.index).byKind

    static func rate(_ kinds: String...) -> Double {
        let passed = kinds.reduce(0) { $0 + (scores[$1]?.passed ?? 0) }
        let total = kinds.reduce(0) { $0 + (scores[$1]?.total ?? 0) }
        return total == 0 ? 0 : Double(passed) / Double(total)
    }

    @Test func theTestSetHasEveryKind() {
        for kind in ["exact", "city", "lowercase", "abbreviation", "typo", "punctuation", "place", "reverse"] {
            #expect((Self.scores[kind]?.total ?? 0) >= 290, "\(kind)")
        }
    }

    @Test func exactNumberAndStreetIsRightAt97Percent() {
        #expect(Self.rate("exact") >= 0.97)
    }

    @Test func oneTypoOrAbbreviationIsRightAt93Percent() {
        #expect(Self.rate("typo") >= 0.93)
        #expect(Self.rate("abbreviation") >= 0.93)
    }

    @Test func cityCaseAndPunctuationVariantsAreRightAt95Percent() {
        #expect(Self.rate("city", "lowercase", "punctuation") >= 0.95)
    }

    @Test func namedPlacesAreRightAt95Percent() {
        #expect(Self.rate("place") >= 0.95)
    }

    @Test func reverseGivesAnAddressWithin30MetresAt95Percent() {
        #expect(Self.rate("reverse") >= 0.95)
    }
}
