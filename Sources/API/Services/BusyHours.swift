import DispatchRuntime
import Foundation
import ServiceClock
import Storage
import Synchronization
import Zones

/// Each zone's busy hours, from its statistics (seed 003 R7: CLup tells a
/// customer the busy hours, so that one can come at a quieter time): the
/// hours of the city's day with the most requests on average over the last
/// four weeks. Read once per zone every ten minutes, however often asked:
/// `GET /v1/waits` is on every passenger's screen.
final class BusyHours: Sendable {
    /// One hour of the city's day and its requests on an average day.
    struct Hour: Equatable, Sendable, Encodable {
        /// The hour of the day, 0–23, in the city's time.
        var hour: Int
        var requestsPerDay: Double
    }

    /// How many days back the average looks.
    static let days = 28
    /// How many of the busiest hours are told.
    static let told = 3
    private static let freshFor: TimeInterval = 600

    private let dispatcher: Dispatcher
    private let timeZone: TimeZone
    private let clock: any ServiceClock
    private let known = Mutex<[ZoneID: (at: Date, hours: [Hour])]>([:])

    init(dispatcher: Dispatcher, timeZone: TimeZone, clock: any ServiceClock) {
        self.dispatcher = dispatcher
        self.timeZone = timeZone
        self.clock = clock
    }

    /// The busiest hours of `zone`, in the order of the day; none when it
    /// had no request in the last four weeks or they cannot be read.
    func busiest(in zone: ZoneID) async -> [Hour] {
        let now = clock.now
        if let cached = known.withLock({ $0[zone] }), now.timeIntervalSince(cached.at) < Self.freshFor, cached.at <= now {
            return cached.hours
        }
        let end = HourlyCount.hourStart(of: now)
        let hours = end.addingTimeInterval(-Double(Self.days) * 86_400)..<end
        let subject = StatisticsSubject.zone(zone)
        guard let counts = try? await dispatcher.counts(ofSubjectsPrefixed: subject, hours: hours) else { return [] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var perHour: [Int: Int64] = [:]
        for count in counts where count.subject == subject && count.measure == StatisticsMeasure.requests.rawValue {
            perHour[calendar.component(.hour, from: count.hour), default: 0] += count.count
        }
        let busiest = perHour.filter { $0.value > 0 }.sorted { ($0.value, -$0.key) > ($1.value, -$1.key) }.prefix(Self.told)
            .map { Hour(hour: $0.key, requestsPerDay: (Double($0.value) / Double(Self.days) * 10).rounded() / 10) }
            .sorted { $0.hour < $1.hour }
        known.withLock { $0[zone] = (now, busiest) }
        return busiest
    }
}
