import FixRecords
import Foundation
import GeoKit

/// One thing the dispatch engine decided, told to whom it concerns (SPEC
/// D7): an offer to a driver, the taxi code and ETA to a passenger, a
/// queue position, a reservation's taxi, a changed ETA; and to the
/// dispatchers' live board, every change of queues and requests.
///
/// As JSON it is flat: `kind` says what happened (`offer`, `taxi_assigned`,
/// `queued`, ...; see ``DispatchNotices``) and only the fields that kind
/// has are present. Times are ISO 8601 UTC.
public struct Notice: Codable, Sendable, Equatable {
    /// The notification's id (``NotificationKey/id``), a whole number that
    /// grows with time, for a user's own notifications; nil on the
    /// dispatchers' board.
    public var id: Int64?
    /// What happened, snake case.
    public var kind: String
    /// When it was decided.
    public var at: Date
    public var rideId: String?
    public var reservationId: String?
    public var taxiId: String?
    public var passengerId: String?
    public var zoneId: String?
    /// The zone a taxi left, for `taxi_changed_zone`.
    public var fromZoneId: String?
    /// 1-based place in a taxi or passenger queue.
    public var queuePosition: Int?
    /// The taxi's driving time to the pickup, seconds.
    public var etaS: Double?
    /// When a queued passenger must confirm waiting.
    public var confirmBy: Date?
    /// When an offer lapses.
    public var expiresAt: Date?
    /// A reservation's pickup time.
    public var pickupAt: Date?
    /// A driver's state (`offDuty`, `unavailable`, `available`, `offered`, `busy`).
    public var state: String?
    /// Why a request was refused or cancelled, in words.
    public var reason: String?
    public var pickup: NoticePoint?
    public var destination: NoticePoint?
    /// A shared taxi's stops still to make, in order, for `itinerary` (D10).
    public var stops: [NoticeStop]?

    /// A notice of `kind` decided `at`, without details yet.
    public init(kind: String, at: Date) {
        self.kind = kind
        self.at = at
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, at, rideId, reservationId, taxiId, passengerId, zoneId, fromZoneId, queuePosition, etaS
        case confirmBy, expiresAt, pickupAt, state, reason, pickup, destination, stops
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func date(_ key: CodingKeys) throws -> Date? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let date = FixTime.date(iso8601: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not an ISO 8601 time: \(text)")
            }
            return date
        }
        // A notification stored before ids were whole numbers has `"1042.1"`
        // here; whoever reads it from the log gives it its id from its key.
        id = (try? container.decodeIfPresent(Int64.self, forKey: .id)) ?? nil
        kind = try container.decode(String.self, forKey: .kind)
        guard let at = try date(.at) else {
            throw DecodingError.keyNotFound(CodingKeys.at, .init(codingPath: decoder.codingPath, debugDescription: "no time"))
        }
        self.at = at
        rideId = try container.decodeIfPresent(String.self, forKey: .rideId)
        reservationId = try container.decodeIfPresent(String.self, forKey: .reservationId)
        taxiId = try container.decodeIfPresent(String.self, forKey: .taxiId)
        passengerId = try container.decodeIfPresent(String.self, forKey: .passengerId)
        zoneId = try container.decodeIfPresent(String.self, forKey: .zoneId)
        fromZoneId = try container.decodeIfPresent(String.self, forKey: .fromZoneId)
        queuePosition = try container.decodeIfPresent(Int.self, forKey: .queuePosition)
        etaS = try container.decodeIfPresent(Double.self, forKey: .etaS)
        confirmBy = try date(.confirmBy)
        expiresAt = try date(.expiresAt)
        pickupAt = try date(.pickupAt)
        state = try container.decodeIfPresent(String.self, forKey: .state)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        pickup = try container.decodeIfPresent(NoticePoint.self, forKey: .pickup)
        destination = try container.decodeIfPresent(NoticePoint.self, forKey: .destination)
        stops = try container.decodeIfPresent([NoticeStop].self, forKey: .stops)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(FixTime.iso8601(at), forKey: .at)
        try container.encodeIfPresent(rideId, forKey: .rideId)
        try container.encodeIfPresent(reservationId, forKey: .reservationId)
        try container.encodeIfPresent(taxiId, forKey: .taxiId)
        try container.encodeIfPresent(passengerId, forKey: .passengerId)
        try container.encodeIfPresent(zoneId, forKey: .zoneId)
        try container.encodeIfPresent(fromZoneId, forKey: .fromZoneId)
        try container.encodeIfPresent(queuePosition, forKey: .queuePosition)
        try container.encodeIfPresent(etaS, forKey: .etaS)
        try container.encodeIfPresent(confirmBy.map(FixTime.iso8601), forKey: .confirmBy)
        try container.encodeIfPresent(expiresAt.map(FixTime.iso8601), forKey: .expiresAt)
        try container.encodeIfPresent(pickupAt.map(FixTime.iso8601), forKey: .pickupAt)
        try container.encodeIfPresent(state, forKey: .state)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(pickup, forKey: .pickup)
        try container.encodeIfPresent(destination, forKey: .destination)
        try container.encodeIfPresent(stops, forKey: .stops)
    }
}

/// A WGS84 point in a notice: `{"lon": …, "lat": …}`, as the API writes points.
public struct NoticePoint: Codable, Sendable, Equatable {
    public var lon: Double
    public var lat: Double

    /// The point of `coordinate`.
    public init(_ coordinate: Coordinate) {
        lon = coordinate.longitude
        lat = coordinate.latitude
    }
}

/// One stop of a shared taxi's itinerary in a notice (SPEC D10): whose
/// ride, whether the rider gets in (`pickup`) or out (`dropoff`), and where.
public struct NoticeStop: Codable, Sendable, Equatable {
    public var rideId: String
    /// `pickup` or `dropoff`.
    public var stop: String
    public var point: NoticePoint

    /// The stop of ride `rideId`, `stop` at `point`.
    public init(rideId: String, stop: String, point: NoticePoint) {
        self.rideId = rideId
        self.stop = stop
        self.point = point
    }
}
