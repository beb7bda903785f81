import DispatchRuntime
import Foundation
import GeoKit
import Testing

/// The hand-written JSON of a notice, which the log stores and the push
/// sockets send: byte for byte `JSONEncoder`'s with sorted keys, and read
/// back as the same notice.
@Suite(.timeLimit(.minutes(20))) struct NoticeJSONTests {
    static let at = Date(timeIntervalSince1970: 1_790_000_000.5)

    /// A notice with every field set, texts that need escaping, and a
    /// notice with only what every notice has.
    static let notices: [Notice] = {
        var full = Notice(kind: "taxi_assigned", at: at)
        full.id = 17_000_002
        full.rideId = "R\"1\\/é\u{1}\n\t"
        full.reservationId = "B9"
        full.taxiId = "TX000017"
        full.passengerId = "ada"
        full.zoneId = "a zone/with slash"
        full.fromZoneId = "230"
        full.queuePosition = 3
        full.etaS = 312.5
        full.confirmBy = at.addingTimeInterval(30)
        full.expiresAt = at.addingTimeInterval(15)
        full.pickupAt = at.addingTimeInterval(7_200)
        full.state = "offered"
        full.reason = "no taxi: \"all busy\""
        full.pickup = NoticePoint(Coordinate(longitude: -73.9855, latitude: 40.758))
        full.destination = NoticePoint(Coordinate(longitude: -73.7781, latitude: 40.6413))
        var whole = Notice(kind: "eta_changed", at: at)
        whole.etaS = 120
        return [full, whole, Notice(kind: "offer", at: Date(timeIntervalSince1970: 0))]
    }()

    @Test(arguments: notices)
    func aNoticeIsJSONEncodersDocumentAndReadsBackAsItself(_ notice: Notice) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let written = try notice.json()
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: try encoder.encode(notice), as: UTF8.self))
        #expect(try JSONDecoder().decode(Notice.self, from: written) == notice)
    }

    @Test func anETAThatIsNotFiniteIsAnErrorNotJSON() {
        var notice = Notice(kind: "eta_changed", at: Self.at)
        notice.etaS = .infinity
        #expect(throws: EncodingError.self) { try notice.json() }
    }
}
