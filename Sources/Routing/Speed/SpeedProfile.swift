import Foundation

/// How fast each road class flows in each hour of the week, as a fraction of
/// its free-flow speed: travel time = free-flow time ÷ factor.
///
/// Two more factors multiply the class's, each 1 unless set: one per
/// ``LaneClass`` (narrow streets flow slower than their class) and one per
/// area zone (``EdgeZones``: a congested district slows every road in it).
/// An edge's factor is class × lane × zone factor, for the hour.
///
/// Hour 0 is Monday 00:00–01:00 in the city's local time, hour 167 is
/// Sunday 23:00–24:00. Factors are kept in `(0, 2]`; 1 is free flow. The
/// text form is described in `SpeedProfile+Parsing.swift` and
/// `docs/speed-profile.md`.
public struct SpeedProfile: Sendable, Equatable {
    /// Hours in a week, the length of every class's row.
    public static let hoursPerWeek = 168
    /// `factors[class.rawValue * 168 + hour]`.
    private var factors: [Float]
    /// `laneFactors[laneClass.rawValue * 168 + hour]`.
    private var laneFactors: [Float]
    /// Per zone id, the 168 hourly factors; zones not listed are at 1.
    public private(set) var zoneFactors: [String: [Float]] = [:]
    /// Seconds added to every estimated drive, whatever its length: pulling
    /// out, finding the kerb, the last metres. Fitted with the factors by
    /// ``SpeedProfileCalibration``; 0 when not measured.
    public var tripOverheadSeconds: Double = 0
    /// Free-flow seconds added to every edge that is the minor approach of a
    /// signalled junction (``SignalApproach/minor``: a side street waiting
    /// for an avenue's green), scaled by the edge's factors like its own
    /// time. 0 when not measured.
    public var minorSignalDelaySeconds: Double = 0

    /// A profile with every class at `factor` in every hour (1 = free flow always).
    public init(uniform factor: Float = 1) {
        factors = Array(repeating: factor, count: RoadClass.allCases.count * Self.hoursPerWeek)
        laneFactors = Array(repeating: 1, count: LaneClass.allCases.count * Self.hoursPerWeek)
    }

    /// The factor of `roadClass` in `hourOfWeek` (0..<168).
    public func factor(_ roadClass: RoadClass, hourOfWeek: Int) -> Float {
        factors[Int(roadClass.rawValue) * Self.hoursPerWeek + hourOfWeek]
    }

    /// Sets the factor of `roadClass` in `hourOfWeek`.
    /// - Precondition: `factor` is in `(0, 2]` and `hourOfWeek` in `0..<168`.
    public mutating func setFactor(_ factor: Float, for roadClass: RoadClass, hourOfWeek: Int) {
        precondition(factor > 0 && factor <= 2 && (0..<Self.hoursPerWeek).contains(hourOfWeek))
        factors[Int(roadClass.rawValue) * Self.hoursPerWeek + hourOfWeek] = factor
    }

    /// The factor of streets of `laneClass` in `hourOfWeek` (0..<168), multiplying the class factor.
    public func laneFactor(_ laneClass: LaneClass, hourOfWeek: Int) -> Float {
        laneFactors[Int(laneClass.rawValue) * Self.hoursPerWeek + hourOfWeek]
    }

    /// Sets the factor of `laneClass` in `hourOfWeek`.
    /// - Precondition: `factor` is in `(0, 2]` and `hourOfWeek` in `0..<168`.
    public mutating func setLaneFactor(_ factor: Float, for laneClass: LaneClass, hourOfWeek: Int) {
        precondition(factor > 0 && factor <= 2 && (0..<Self.hoursPerWeek).contains(hourOfWeek))
        laneFactors[Int(laneClass.rawValue) * Self.hoursPerWeek + hourOfWeek] = factor
    }

    /// The factor of every road in zone `zoneID` in `hourOfWeek` (0..<168),
    /// multiplying the class factor; 1 for a zone the profile does not name.
    public func zoneFactor(_ zoneID: String, hourOfWeek: Int) -> Float {
        zoneFactors[zoneID]?[hourOfWeek] ?? 1
    }

    /// Sets the factor of zone `zoneID` in `hourOfWeek`; the zone's other hours stay as they were (1 when new).
    /// - Precondition: `factor` is in `(0, 2]` and `hourOfWeek` in `0..<168`.
    public mutating func setZoneFactor(_ factor: Float, for zoneID: String, hourOfWeek: Int) {
        precondition(factor > 0 && factor <= 2 && (0..<Self.hoursPerWeek).contains(hourOfWeek))
        zoneFactors[zoneID, default: Array(repeating: 1, count: Self.hoursPerWeek)][hourOfWeek] = factor
    }

    /// Defaults for a dense city when no measured profile exists.
    ///
    /// Weekdays: rush hours 07–10 and 16–19 at 55 % of free flow on main
    /// roads, daytime 75 %, evening 19–22 at 85 %, night 22–06 free flow,
    /// 06–07 at 90 %. Weekends: 10–20 at 85 %, otherwise free flow.
    /// Residential and service streets feel half the slowdown (little
    /// through traffic), and motorways the full slowdown.
    public static let denseCity: SpeedProfile = {
        var profile = SpeedProfile()
        for day in 0..<7 {
            for hour in 0..<24 {
                let main: Float = switch (day < 5, hour) {
                case (true, 7..<10), (true, 16..<19): 0.55
                case (true, 10..<16): 0.75
                case (true, 19..<22): 0.85
                case (true, 6..<7): 0.9
                case (false, 10..<20): 0.85
                default: 1
                }
                for roadClass in RoadClass.allCases {
                    let local = [.residential, .livingStreet, .service, .footway].contains(roadClass)
                    profile.setFactor(local ? 1 - (1 - main) / 2 : main, for: roadClass,
                                      hourOfWeek: day * 24 + hour)
                }
            }
        }
        return profile
    }()

    /// The hour of the week (0 = Monday 00:00–01:00) that `date` falls in, in `timeZone`.
    public static func hourOfWeek(_ date: Date, in timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.weekday, .hour], from: date)
        // Calendar weekdays run 1 = Sunday … 7 = Saturday.
        let mondayBased = (parts.weekday! + 5) % 7
        return mondayBased * 24 + parts.hour!
    }

    /// A date at the start of `hourOfWeek` (0 = Monday 00:00) in `timeZone`,
    /// in the week of 2024-01-01 (a Monday): a departure that stands for the hour.
    public static func date(startingHourOfWeek hourOfWeek: Int, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let monday = calendar.date(from: DateComponents(year: 2024, month: 1, day: 1))!
        return calendar.date(byAdding: .hour, value: hourOfWeek, to: monday)!
    }
}
