import Accounts
import DispatchRuntime
import FixRecords
import Foundation
import Hummingbird
import ServiceClock
import Storage
import Zones

/// The statistics the dispatch log keeps per zone and per driver (SPEC D9,
/// A2; seed 003 R2, seed 000 D3): `GET /v1/stats/zones` for dispatchers,
/// planners and administrators, in JSON or CSV, and a driver's month,
/// `GET /v1/drivers/{username}/report`, for administrators and the driver.
struct StatisticsController: Sendable {
    let dispatcher: Dispatcher
    let accounts: AccountService
    let archive: any FixHistory
    let zones: ActiveZones
    /// The city's time zone: its days and months.
    let timeZone: TimeZone
    let clock: any ServiceClock

    func addRoutes(stats: RouterGroup<APIRequestContext>, drivers: RouterGroup<APIRequestContext>) {
        stats.get("zones", use: zoneStatistics)
        drivers.get(":username/report", use: driverReport)
    }

    /// `GET /v1/stats/zones?from=&to=&bucket=hour|day&zone=&format=json|csv`.
    @Sendable func zoneStatistics(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: ZonesController.readers)
        let window = try StatisticsWindow(request, now: clock.now, timeZone: timeZone)
        let csv = try Self.wantsCSV(request)
        let zoneFilter = request.uri.queryParameters.get("zone").map(ZoneID.init)
        let prefix = zoneFilter.map(StatisticsSubject.zone) ?? StatisticsSubject.zonePrefix
        let counts = try await dispatcher.counts(ofSubjectsPrefixed: prefix, hours: window.hours)
        let samples = try await samplesPerBucket(window)
        let names = Dictionary(zones.current.zoneSet.zones.map { ($0.id.text, $0.name) }) { first, _ in first }
        let local = LocalTime(timeZone: timeZone)
        var perZone: [String: (total: ZoneFigures, buckets: [Date: ZoneFigures])] = [:]
        for count in counts {
            let zone = String(count.subject.dropFirst(StatisticsSubject.zonePrefix.count))
            if let zoneFilter, zone != zoneFilter.text { continue }
            perZone[zone, default: (ZoneFigures(), [:])].total.add(count)
            perZone[zone, default: (ZoneFigures(), [:])].buckets[window.bucketStart(of: count.hour), default: ZoneFigures()].add(count)
        }
        let answer = ZoneStatisticsJSON(
            from: local.text(window.hours.lowerBound), to: local.text(window.hours.upperBound), bucket: window.bucket.rawValue,
            timeZone: timeZone.identifier,
            zones: perZone.sorted { $0.key < $1.key }.map { zone, figures in
                var total = figures.total
                total.addSamples(samples.values.reduce(0, +))
                return ZoneStatisticsJSON.ZoneJSON(
                    zoneId: zone, name: names[zone], total: ZoneFiguresJSON(total, start: nil),
                    buckets: figures.buckets.sorted { $0.key < $1.key }.map { start, bucket in
                        var bucket = bucket
                        bucket.addSamples(samples[start] ?? 0)
                        return ZoneFiguresJSON(bucket, start: local.text(start))
                    })
            })
        guard csv else { return try JSONResponse.ok(answer) }
        let rows = answer.zones.flatMap { zone in
            zone.buckets.map { [zone.zoneId, zone.name ?? ""] + $0.csvFields }
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"zone-statistics.csv\""],
            body: .init(byteBuffer: ByteBuffer(string: CSV.text([ZoneFiguresJSON.csvHeader] + rows))))
    }

    /// `GET /v1/drivers/{username}/report?month=2026-11`: the driver's month
    /// in the city's time (by default the current one).
    @Sendable func driverReport(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator, .driver])
        let username = try context.pathParameter("username")
        guard caller.role == .administrator || caller.username == username else {
            throw Problem(status: .forbidden, detail: "a driver may read only his own report")
        }
        let account = try await accounts.account(named: username)
        guard account.role == .driver else { throw Problem.notFound("\(username) is not a driver's account") }
        let month = try DriverMonth(request.uri.queryParameters.get("month"), now: clock.now, timeZone: timeZone)
        var figures = DriverFigures()
        for count in try await dispatcher.counts(ofSubjectsPrefixed: StatisticsSubject.driver(username), hours: month.hours)
        where count.subject == StatisticsSubject.driver(username) {
            figures.add(count)
        }
        let local = LocalTime(timeZone: timeZone)
        var shifts: [DriverReportJSON.ShiftJSON] = []
        for shift in figures.shifts {
            let window = shift.hours.lowerBound...min(shift.hours.upperBound, clock.now)
            let metres = window.lowerBound < window.upperBound
                ? try await archive.track(of: shift.taxi, in: window, limit: FixHistoryController.maxTrackPositions).lengthMetres : 0
            let seconds = figures.onDuty[shift.taxi]?.filter { shift.hours.contains($0.key) }.values.reduce(0, +) ?? 0
            shifts.append(DriverReportJSON.ShiftJSON(
                taxiId: shift.taxi.text, from: local.text(shift.hours.lowerBound), to: local.text(shift.hours.upperBound),
                hoursOnDuty: Self.hundredths(Double(seconds) / 3_600), kilometres: Self.hundredths(metres / 1_000)))
        }
        return try JSONResponse.ok(DriverReportJSON(driver: username, month: month, figures: figures, shifts: shifts, timeZone: timeZone))
    }

    /// The samples of the queues the city took in each bucket of `window`.
    private func samplesPerBucket(_ window: StatisticsWindow) async throws -> [Date: Int64] {
        var samples: [Date: Int64] = [:]
        for count in try await dispatcher.counts(ofSubjectsPrefixed: StatisticsSubject.city, hours: window.hours)
        where count.subject == StatisticsSubject.city && count.measure == StatisticsMeasure.samples.rawValue {
            samples[window.bucketStart(of: count.hour), default: 0] += count.count
        }
        return samples
    }

    /// Whether the client asks for CSV: `format=csv`, or `Accept: text/csv` without a `format`.
    private static func wantsCSV(_ request: Request) throws -> Bool {
        switch request.uri.queryParameters.get("format") {
        case "csv": return true
        case "json": return false
        case nil: return request.headers[.accept]?.contains("text/csv") == true
        case let other?: throw Problem.badRequest("query parameter 'format' must be 'json' or 'csv', not '\(other)'")
        }
    }

    static func hundredths(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }
}
