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

    /// Every RFC 3339 date-time reads, as the API document promises: offsets
    /// up to ±23:59 (Foundation stops at ±18:00), lower-case `t` and `z`,
    /// any number of fractional digits; anything else stays unread.
    @Test func everyRFC3339DateTimeReads() throws {
        let noon = try #require(FixTime.date(iso8601: "2026-01-01T12:00:00Z"))
        let same = ["2026-01-02T11:59:00+23:59", "2026-01-01T00:01:00-11:59", "2025-12-31T12:30:00-23:30",
                    "2026-01-01t12:00:00z", "2026-01-01T12:00:00.0000000000Z", "2026-01-01T14:00:00+02:00"]
        for text in same { #expect(FixTime.date(iso8601: text) == noon, "\(text)") }
        let late = try #require(FixTime.date(iso8601: "2026-01-01T12:00:00.123456789012+21:44"))
        #expect(abs(late.timeIntervalSince(noon) - (-78_240 + 0.123456789012)) < 1e-6)
        let early = try #require(FixTime.date(iso8601: "0157-09-03T00:31:26.7-23:52"))
        #expect(FixTime.iso8601(early) == "0157-09-04T00:23:26.700Z")
        for text in ["2026-01-01T12:00:00+24:00", "2026-01-01T12:00:00+2359", "2026-01-01T12:00:00.Z", "2026-01-01T12:00:00+23:60",
                     "2026-01-01T12:00+23:00", "yesterday"] {
            #expect(FixTime.date(iso8601: text) == nil, "\(text)")
        }
    }
}
