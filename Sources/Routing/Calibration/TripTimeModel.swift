import Foundation

/// The trip-time model calibration fits over one set of routes:
/// `estimate = overhead + hourMultiplier(bucket) × Σ zones seconds(zone) × zoneMultiplier(zone)`.
///
/// Hour multipliers come per weekday/weekend hour (48 buckets); zone
/// multipliers are shrunk toward 1 by an L2 penalty on their logarithm
/// (`penalty × Σ log(m)²` added to the summed squared log errors), so a zone
/// few trips cross keeps a factor near 1 instead of one fitted to two trips.
/// Hours and zones are fitted in turn (coordinate descent), each by a
/// one-dimensional search of the squared log error, the error ETAs are judged by.
struct TripTimeModel {
    /// Seconds added to every trip.
    var overhead: Double
    /// Time multiplier per hour bucket (48, see ``SpeedProfileCalibration/bucket(hourOfWeek:)``).
    var hourMultipliers: [Double]
    /// Time multiplier per zone slot of the ``TripDrives``.
    var zoneMultipliers: [Double]
    /// Mean squared log error on the trips it was fitted to (penalty excluded).
    var error: Double

    /// Zone multipliers are searched within these bounds (a zone at most
    /// twice as fast or three times as slow as the city).
    static let zoneMultiplierRange = (low: 0.5, high: 3.0)
    /// Rounds of hour and zone fits.
    static let sweeps = 4

    /// The estimated duration of `trip` in seconds.
    func estimate(trip: Int, drives: TripDrives, hours: [Int]) -> Double {
        overhead + hourMultipliers[SpeedProfileCalibration.bucket(hourOfWeek: hours[trip])]
            * drives.drive(trip: trip, zoneMultipliers: zoneMultipliers)
    }

    /// The summed squared log error of the estimates of those of `trips` that have a route.
    func squaredLogError(trips: [Int], drives: TripDrives, measured: [Double], hours: [Int]) -> Double {
        trips.filter { drives.slices[$0] != nil }.reduce(0) { sum, trip in
            sum + pow(log1p(estimate(trip: trip, drives: drives, hours: hours)) - log1p(measured[trip]), 2)
        }
    }

    /// The best model for `trips` among `overheads`, with zone factors
    /// under `zonePenalty` (nil: no zone factors, every multiplier 1).
    static func fit(drives: TripDrives, measured: [Double], hours: [Int], trips: [Int], overheads: [Double],
                    zonePenalty: Double?) -> TripTimeModel {
        let usable = trips.filter { drives.slices[$0] != nil }
        var best: TripTimeModel?
        for overhead in overheads {
            var model = TripTimeModel(overhead: overhead, hourMultipliers: [], zoneMultipliers:
                                        Array(repeating: 1, count: drives.zoneCount), error: 0)
            for _ in 0..<(zonePenalty == nil ? 1 : sweeps) {
                let drive = drives.slices.indices.map { drives.drive(trip: $0, zoneMultipliers: model.zoneMultipliers) }
                model.hourMultipliers = SpeedProfileCalibration.fitHourMultipliers(
                    drive: drive, measured: measured, hours: hours, trips: usable, overhead: overhead)
                if let zonePenalty {
                    model.fitZoneMultipliers(drives: drives, measured: measured, hours: hours, trips: usable, penalty: zonePenalty)
                }
            }
            model.error = model.squaredLogError(trips: usable, drives: drives, measured: measured, hours: hours)
                / Double(max(usable.count, 1))
            if model.error < best?.error ?? .infinity { best = model }
        }
        return best!
    }

    /// One pass over the zones: each multiplier set to the value minimising
    /// the penalised squared log error of the trips crossing the zone, the
    /// others held.
    private mutating func fitZoneMultipliers(drives: TripDrives, measured: [Double], hours: [Int], trips: [Int], penalty: Double) {
        var crossing = [[Int]](repeating: [], count: drives.zoneCount)
        for trip in trips {
            for slice in drives.slices[trip]! where slice.slot != TripDrives.outsideZones { crossing[slice.slot].append(trip) }
        }
        for zone in 0..<drives.zoneCount where !crossing[zone].isEmpty {
            let terms = crossing[zone].map { trip -> (rest: Double, inZone: Double, hour: Double, target: Double) in
                let inZone = drives.slices[trip]!.first { $0.slot == zone }!.seconds
                let whole = drives.drive(trip: trip, zoneMultipliers: zoneMultipliers)
                return (whole - inZone * zoneMultipliers[zone], inZone,
                        hourMultipliers[SpeedProfileCalibration.bucket(hourOfWeek: hours[trip])], log1p(measured[trip]))
            }
            let overhead = self.overhead
            zoneMultipliers[zone] = exp(SpeedProfileCalibration.goldenSection(
                low: log(Self.zoneMultiplierRange.low), high: log(Self.zoneMultiplierRange.high)) { logMultiplier in
                let multiplier = exp(logMultiplier)
                return terms.reduce(penalty * logMultiplier * logMultiplier) { sum, term in
                    sum + pow(log1p(overhead + term.hour * (term.rest + term.inZone * multiplier)) - term.target, 2)
                }
            })
        }
    }
}
