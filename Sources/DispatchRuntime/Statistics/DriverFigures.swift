import FixRecords
import Foundation
import Storage

/// A driver's statistics over a stretch of hours (a month, for the
/// company's review of each driver, seed 000 D3): offers and how they
/// were answered, rides, and the time on duty in each taxi.
public struct DriverFigures: Sendable, Equatable {
    /// Each measure's count over the stretch.
    public private(set) var counts: [StatisticsMeasure: Int64] = [:]
    /// The seconds on duty in each taxi, per hour: the hours whose fixes
    /// are the driver's kilometres.
    public private(set) var onDuty: [TaxiID: [Date: Int64]] = [:]

    /// No figures.
    public init() {}

    /// Adds `count`, one of the driver's figures.
    public mutating func add(_ count: HourlyCount) {
        if let taxi = OnDutyMeasure.taxi(of: count.measure) {
            onDuty[taxi, default: [:]][count.hour, default: 0] += count.count
        } else if let measure = StatisticsMeasure(rawValue: count.measure) {
            counts[measure, default: 0] += count.count
        }
    }

    /// The count of `measure` over the stretch.
    public func count(_ measure: StatisticsMeasure) -> Int64 {
        counts[measure] ?? 0
    }

    /// The seconds on duty over the stretch, in any taxi.
    public var secondsOnDuty: Int64 {
        onDuty.values.reduce(0) { $0 + $1.values.reduce(0, +) }
    }

    /// The stretches of consecutive hours the driver was on duty in each
    /// taxi, oldest first: where the archive's fixes of that taxi are the
    /// driver's driving.
    public var shifts: [(taxi: TaxiID, hours: Range<Date>)] {
        var shifts: [(taxi: TaxiID, hours: Range<Date>)] = []
        for (taxi, hours) in onDuty.sorted(by: { $0.key < $1.key }) {
            for hour in hours.keys.sorted() {
                let end = hour.addingTimeInterval(3_600)
                if let last = shifts.last, last.taxi == taxi, last.hours.upperBound == hour {
                    shifts[shifts.count - 1].hours = last.hours.lowerBound..<end
                } else {
                    shifts.append((taxi, hour..<end))
                }
            }
        }
        return shifts.sorted { $0.hours.lowerBound < $1.hours.lowerBound }
    }
}
