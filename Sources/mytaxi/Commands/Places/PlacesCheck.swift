import ArgumentParser
import Foundation
import Places

extension Mytaxi.PlacesCommand {
    /// `mytaxi places check --graph CITY.graph TESTSET.tsv`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure the address search on a test set: how often its first answer is right, and how fast.",
            discussion: """
                The test set is `kind<TAB>query<TAB>lon<TAB>lat` lines, as Tools/places-testset.py \
                builds them from the city's own extract (exact addresses, with the city, lower case, \
                abbreviated, with a typo, with stray punctuation, named places, and reverse points). A \
                search is right when its first answer lies within \
                \(Int(PlaceTestSet.searchReachMetres)) m of the expected point; a reverse answer when it \
                is an address within \(Int(PlaceTestSet.reverseReachMetres)) m. Prints one line per \
                kind (`kind: right/total (percent)`), then each query's time, p50 and p99, in this \
                process. Exit status 1 when a kind is right less often than --at-least.
                """)

        @OptionGroup var file: PlaceFileArguments

        @Argument(help: "The test set.")
        var testSet: String

        @Option(name: .customLong("at-least"), help: ArgumentHelp(
            "Fail (exit 1) when any kind is right less often than this percentage.", valueName: "PERCENT"))
        var atLeast: Double = 0

        func run() throws {
            let index = try file.loadIndex()
            let set: PlaceTestSet
            do {
                set = try PlaceTestSet(tsv: String(contentsOfFile: testSet, encoding: .utf8))
            } catch {
                printError("\(testSet): \(error)")
                throw ExitCode(2)
            }
            let scores = set.score(on: index)
            var failing = false
            for (kind, score) in scores.byKind.sorted(by: { $0.key < $1.key }) {
                let percent = 100 * Double(score.passed) / Double(score.total)
                failing = failing || percent < atLeast
                print("\(kind): \(score.passed)/\(score.total) (\(String(format: "%.1f", percent)) %)")
            }
            let times = scores.searchTimes.sorted()
            if !times.isEmpty {
                func percentile(_ p: Double) -> String {
                    let time = times[min(times.count - 1, Int(p * Double(times.count)))]
                    return String(format: "%.0f", Double(time.components.seconds) * 1e6 + Double(time.components.attoseconds) / 1e12)
                }
                print("search time: p50 \(percentile(0.5)) µs, p99 \(percentile(0.99)) µs over \(times.count) queries")
            }
            if failing { throw ExitCode(1) }
        }
    }
}
