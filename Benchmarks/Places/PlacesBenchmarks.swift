import Benchmark
import Foundation
import GeoKit
import Places

/// The place index, one core, each iteration one query so that the
/// percentiles are per query: on the demo city (Midtown Manhattan, from the
/// shipped extract) the test set's searches (Tests/PlacesTests/Fixtures,
/// every variant), autocomplete (each address typed to the middle of its
/// street's name) and reverse points; on a synthetic city of a million
/// places, searches with and without a typo and autocomplete. Also the time
/// and memory to build each index. Goals: search p99 ≤ 2 ms on Midtown,
/// ≤ 5 ms on a million places.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], warmupIterations: 10,
                                           maxDuration: .seconds(5), maxIterations: 20_000)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let extract = root.appendingPathComponent("Maps/manhattan-midtown.osm.pbf").path
    let midtown = PlaceIndex(catalog: PlaceCatalog(features: try! NamedFeature.read(contentsOf: extract)))
    let testSet = try! PlaceTestSet(tsv: String(contentsOf: root.appendingPathComponent("Tests/PlacesTests/Fixtures/midtown-queries.tsv"),
                                                encoding: .utf8))
    let searches = testSet.queries.filter { $0.kind != "reverse" }.map(\.text)
    let reversePoints = testSet.queries.filter { $0.kind == "reverse" }.map(\.expected)
    let typing = testSet.queries.filter { $0.kind == "exact" }.map { query in
        String(query.text.prefix(query.text.count * 3 / 4))
    }

    Benchmark("Midtown index build (\(midtown.entryCount) entries)",
              configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxIterations: 10)) { _ in
        blackHole(PlaceIndex(catalog: midtown.catalog))
    }
    for (label, queries) in [("test-set searches", searches), ("autocomplete", typing)] {
        Benchmark("Midtown search, \(label) (\(queries.count) queries)") { benchmark in
            for iteration in benchmark.scaledIterations {
                blackHole(midtown.search(queries[iteration % queries.count], limit: 10))
            }
        }
    }
    Benchmark("Midtown reverse (\(reversePoints.count) points)") { benchmark in
        for iteration in benchmark.scaledIterations {
            blackHole(midtown.reverse(reversePoints[iteration % reversePoints.count]))
        }
    }

    Benchmark("Synthetic index build (1,000,000 places)",
              configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxIterations: 2)) { _ in
        blackHole(PlaceIndex(catalog: MillionPlaces.synthetic.catalog))
    }
    let kinds: [(String, KeyPath<SyntheticPlaces, [String]>)] = [
        ("exact addresses", \.exactQueries), ("one typo", \.typoQueries), ("autocomplete", \.typingQueries),
        ("named places", \.placeQueries),
    ]
    for (label, queries) in kinds {
        Benchmark("1M places search, \(label) (\(SyntheticPlaces.queryCount) queries)") { benchmark in
            let index = MillionPlaces.index, queries = MillionPlaces.synthetic[keyPath: queries]
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                blackHole(index.search(queries[iteration % queries.count], limit: 10))
            }
        }
    }
}

/// The synthetic city of a million places and its index, built on first use
/// (a `--filter` for Midtown alone never builds them).
enum MillionPlaces {
    static let synthetic = SyntheticPlaces(count: 1_000_000, seed: 11)
    static let index = PlaceIndex(catalog: synthetic.catalog)
}
