import GeoKit

/// A geocoder test set (Tools/places-testset.py): queries with where their
/// answer lies, by kind (`exact`, `typo`, `place`, `reverse`, …), to measure
/// how often the index's first answer is right.
public struct PlaceTestSet: Sendable {
    /// A search answer counts when the first one lies this near the expected point.
    public static let searchReachMetres = 50.0
    /// A reverse answer counts when it is an address this near the point.
    public static let reverseReachMetres = 30.0

    /// One query and where its answer must be.
    public struct Query: Sendable, Equatable {
        /// The variant: `exact`, `city`, `lowercase`, `abbreviation`, `typo`, `punctuation`, `place` or `reverse`.
        public var kind: String
        /// What is typed; for `reverse`, the point as `lon,lat`.
        public var text: String
        /// Where the answer must be.
        public var expected: Coordinate
    }

    /// The queries, in file order.
    public var queries: [Query]

    /// Reads the tab-separated lines `kind<TAB>query<TAB>lon<TAB>lat`; lines
    /// starting with `#` are comments.
    /// - Throws: ``PlaceError/damaged(reason:)`` naming the first line that is not a query.
    public init(tsv: String) throws(PlaceError) {
        var queries: [Query] = []
        for (offset, line) in tsv.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let longitude = Double(fields[2]), let latitude = Double(fields[3]) else {
                throw .damaged(reason: "test set line \(offset + 1) is not kind<TAB>query<TAB>lon<TAB>lat")
            }
            queries.append(Query(kind: String(fields[0]), text: String(fields[1]),
                                 expected: Coordinate(longitude: longitude, latitude: latitude)))
        }
        self.queries = queries
    }

    /// Whether `index` answers `query` right: a search's first answer within
    /// ``searchReachMetres`` of the expected point; a reverse answer an
    /// address within ``reverseReachMetres`` of the point.
    public static func passes(_ query: Query, on index: PlaceIndex) -> Bool {
        if query.kind == "reverse" {
            guard let answer = index.reverse(query.expected), answer.place.kind == .address else { return false }
            return answer.distanceMetres <= reverseReachMetres
        }
        guard let first = index.search(query.text, limit: 1).first else { return false }
        return PlanarDistance.squaredMetres(first.place.coordinate, query.expected) <= searchReachMetres * searchReachMetres
    }

    /// How `index` did on a test set.
    public struct Scores: Sendable {
        /// For each kind, how many of its queries were answered right, and how many there are.
        public var byKind: [String: (passed: Int, total: Int)] = [:]
        /// Each search's time (reverse lookups left out), in the order asked.
        public var searchTimes: [Duration] = []
    }

    /// How many queries of each kind `index` answers right, and how long each search took.
    public func score(on index: PlaceIndex) -> Scores {
        let clock = ContinuousClock()
        var scores = Scores()
        for query in queries {
            let start = clock.now
            let passed = Self.passes(query, on: index)
            if query.kind != "reverse" { scores.searchTimes.append(clock.now - start) }
            scores.byKind[query.kind, default: (0, 0)].passed += passed ? 1 : 0
            scores.byKind[query.kind, default: (0, 0)].total += 1
        }
        return scores
    }
}
