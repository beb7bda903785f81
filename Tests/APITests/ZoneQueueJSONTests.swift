import Foundation
import Testing
@testable import API

/// The hand-written document of `GET /v1/zones/{zoneId}/queue` is the one
/// `JSONEncoder` writes with sorted keys, texts that need escaping included.
@Suite(.timeLimit(.minutes(20))) struct ZoneQueueJSONTests {
    /// The queues of `zoneId` with these entries, as a client would read them.
    static func queue(zoneId: String, taxis: [[String: Any]], passengers: [[String: Any]]) throws -> ZoneQueueJSON {
        let document: [String: Any] = ["zoneId": zoneId, "taxis": taxis, "passengers": passengers]
        return try JSONDecoder().decode(ZoneQueueJSON.self, from: JSONSerialization.data(withJSONObject: document))
    }

    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func aBusyZonesQueuesAreJSONEncodersDocument() throws {
        let queue = try Self.queue(
            zoneId: "161",
            taxis: (1...300).map {
                ["position": $0, "taxiId": "TX\($0)", "availableSince": "2026-11-27T08:00:\(String(format: "%02d", $0 % 60)).250Z"]
            },
            passengers: (1...200).map {
                ["position": $0, "rideId": "\($0 * 7)", "passengerId": "p\"\\/é\u{1}\($0)", "confirmed": $0.isMultiple(of: 2)]
            })
        #expect(queue.taxis.count == 300 && queue.passengers.count == 200)
        #expect(String(decoding: queue.json(), as: UTF8.self) == (try Self.encoded(queue)))
    }

    @Test func emptyQueuesAreJSONEncodersDocument() throws {
        let queue = try Self.queue(zoneId: "zone/with \"quotes\"", taxis: [], passengers: [])
        #expect(String(decoding: queue.json(), as: UTF8.self) == (try Self.encoded(queue)))
    }
}
