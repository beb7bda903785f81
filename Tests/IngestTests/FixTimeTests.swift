import FixRecords
import Foundation
import Testing

/// The one way the service writes times: ISO 8601 UTC with milliseconds,
/// rounded, read back to the same millisecond.
@Suite(.timeLimit(.minutes(20))) struct FixTimeTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_790_000_000.5, "2026-09-21T14:13:20.500Z"),
        (951_782_400.0009, "2000-02-29T00:00:00.001Z"),
        (1_767_225_599.9996, "2026-01-01T00:00:00.000Z"),
        (FixTime.latestUnixSeconds, "9999-12-31T23:59:59.000Z"),
    ])
    func timesAreWrittenWithRoundedMilliseconds(_ seconds: Double, _ text: String) {
        #expect(FixTime.iso8601(Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test func aWrittenTimeReadsBackToTheMillisecond() throws {
        for milliseconds in stride(from: Int64(0), to: 253_402_300_799_000, by: 7_919_876_543_211) {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let read = try #require(FixTime.date(iso8601: FixTime.iso8601(date)))
            #expect(Int64((read.timeIntervalSince1970 * 1000).rounded()) == milliseconds)
        }
    }
}
