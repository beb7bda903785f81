import DispatchRuntime
import Foundation

/// The answer of `GET /v1/stats/zones`: each zone's figures over the
/// stretch and per bucket, the buckets where nothing was counted left out.
struct ZoneStatisticsJSON: Encodable {
    var from: String
    var to: String
    var bucket: String
    var timeZone: String
    var zones: [ZoneJSON]

    /// One zone's figures.
    struct ZoneJSON: Encodable {
        var zoneId: String
        var name: String?
        var total: ZoneFiguresJSON
        var buckets: [ZoneFiguresJSON]
    }
}

/// A zone's figures over one bucket or the whole stretch, as the API and
/// its CSV give them (SPEC D9; seed 003 R2).
struct ZoneFiguresJSON: Encodable {
    /// The bucket's start in the city's time, nil for a stretch's total.
    var start: String?
    var requests: Int64
    var bookings: Int64
    var offers: Int64
    var accepted: Int64
    var refused: Int64
    var timedOut: Int64
    var queued: Int64
    var served: Int64
    var clientMissing: Int64
    var cancelled: CancelledJSON
    /// Requests whose passenger asked to share, and those that joined a taxi on a shared ride.
    var sharedRequests: Int64
    var sharedJoined: Int64
    var waitP50S: Int?
    var waitP90S: Int?
    var timeToOfferP50S: Int?
    var timeToOfferP90S: Int?
    var taxisAvailable: Double?
    var passengersQueued: Double?

    /// Requests cancelled, by why.
    struct CancelledJSON: Encodable {
        var byPassenger: Int64
        var notConfirmed: Int64
        var outsideZones: Int64
    }

    init(_ figures: ZoneFigures, start: String?) {
        self.start = start
        requests = figures.count(.requests)
        bookings = figures.count(.bookings)
        offers = figures.count(.offers)
        accepted = figures.count(.accepted)
        refused = figures.count(.refused)
        timedOut = figures.count(.timedOut)
        queued = figures.count(.queued)
        served = figures.count(.served)
        clientMissing = figures.count(.clientMissing)
        sharedRequests = figures.count(.sharedRequests)
        sharedJoined = figures.count(.sharedJoined)
        cancelled = CancelledJSON(
            byPassenger: figures.count(.cancelledByPassenger), notConfirmed: figures.count(.cancelledNotConfirmed),
            outsideZones: figures.count(.cancelledOutsideZones))
        waitP50S = figures.seconds(.wait, quantile: 0.5).map { Int($0.rounded()) }
        waitP90S = figures.seconds(.wait, quantile: 0.9).map { Int($0.rounded()) }
        timeToOfferP50S = figures.seconds(.timeToOffer, quantile: 0.5).map { Int($0.rounded()) }
        timeToOfferP90S = figures.seconds(.timeToOffer, quantile: 0.9).map { Int($0.rounded()) }
        taxisAvailable = figures.average(.taxisAvailable).map(Self.hundredths)
        passengersQueued = figures.average(.passengersQueued).map(Self.hundredths)
    }

    private static func hundredths(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }

    /// The CSV header, in the order of ``csvFields``.
    static let csvHeader = [
        "zone_id", "zone_name", "start", "requests", "bookings", "offers", "accepted", "refused", "timed_out", "queued", "served",
        "client_missing", "cancelled_by_passenger", "cancelled_not_confirmed", "cancelled_outside_zones", "wait_p50_s", "wait_p90_s",
        "time_to_offer_p50_s", "time_to_offer_p90_s", "taxis_available", "passengers_queued", "shared_requests", "shared_joined",
    ]

    /// The figures as CSV fields after the zone's id and name; an unknown figure is an empty field.
    var csvFields: [String] {
        let counts = [requests, bookings, offers, accepted, refused, timedOut, queued, served, clientMissing,
                      cancelled.byPassenger, cancelled.notConfirmed, cancelled.outsideZones].map(String.init)
        let optionals = [waitP50S, waitP90S, timeToOfferP50S, timeToOfferP90S].map { $0.map(String.init) ?? "" }
        let averages = [taxisAvailable, passengersQueued].map { $0.map { String($0) } ?? "" }
        return [start ?? ""] + counts + optionals + averages + [sharedRequests, sharedJoined].map(String.init)
    }
}

/// Comma-separated values as spreadsheets read them (RFC 4180): a field
/// with a comma, a quote or a line break is quoted, its quotes doubled;
/// a text a spreadsheet would run as a formula (a zone named `=HYPERLINK(…)`)
/// is given a leading apostrophe, so that it stays text.
enum CSV {
    /// `rows` as CSV text, each line ended by CRLF.
    static func text(_ rows: [[String]]) -> String {
        rows.map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    private static func field(_ value: String) -> String {
        let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]
        let text = value.first.map(formulaStarts.contains) == true && Double(value) == nil ? "'" + value : value
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
