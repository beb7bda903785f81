import DispatchSimulation
import Foundation
import GeoKit
import Routing

/// Where one simulated taxi goes and what its terminal reports, in
/// simulated seconds after the start of the run: parked for a while, then
/// driving the road graph (to where passengers ask, or where a ride takes
/// it), and a fix every ``SimulatorSettings/fixIntervalSeconds`` with GPS
/// error, now and then none (a gap).
///
/// Its choices come from two random streams of its own, seeded from the
/// run's seed and the taxi's number: one for its moves (where it starts,
/// how long it parks, where it cruises to), one for its terminal (gaps and
/// errors, fix after fix). Every time is a scheduled one (a drive starts
/// when the parking ends, a fix is taken at its time), not when the run's
/// loop gets to it, so a taxi never given a ride drives and reports the
/// same for the same seed and start (``SimulationPlan``).
struct TaxiCourse {
    /// Where the taxi is parked, or where its drive left from.
    private(set) var position: Coordinate
    /// The drive under way, if any.
    private(set) var drive: RoadDrive?
    /// When the drive started.
    private(set) var driveStart = 0.0
    /// Until when a free taxi stays parked before cruising.
    private(set) var parkedUntil: Double
    /// When the terminal takes its next fix.
    private(set) var nextFix: Double
    private var moves: SplitMix64
    private var terminal: SplitMix64
    private let settings: SimulatorSettings

    /// The course of the `index`-th taxi (from 0) of a run with `settings`, starting at a place of `trips`.
    init(index: Int, settings: SimulatorSettings, trips: SimulationTrips) {
        self.settings = settings
        moves = SplitMix64(state: settings.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        terminal = SplitMix64(state: (settings.seed ^ 0x7E1E_7E1E) &* 0xBF58_476D_1CE4_E5B9 &+ UInt64(index))
        position = trips.place(using: &moves)
        nextFix = moves.nextUnit() * settings.fixIntervalSeconds
        parkedUntil = moves.nextUnit() * 600
    }

    /// When the drive under way ends; nil when parked.
    var driveEnd: Double? { drive.map { driveStart + $0.durationSeconds } }

    /// Where the taxi is at `seconds`, which way it heads and how fast it
    /// goes (the speed of the road it is on, 0 while it stands).
    func place(at seconds: Double) -> (coordinate: Coordinate, heading: Double, speedKmh: Double) {
        guard let drive else { return (position, 0, 0) }
        let elapsed = seconds - driveStart
        let (coordinate, heading) = drive.position(after: elapsed)
        return (coordinate, heading, drive.speedKmh(after: elapsed))
    }

    /// Starts driving on `router`'s roads to `target` at `seconds`, simulated time `date`, from where the taxi is then.
    mutating func startDrive(to target: Coordinate, at seconds: Double, date: Date, router: RoadRouter) {
        position = place(at: seconds).coordinate
        drive = RoadDrive(router: router, from: position, to: target, depart: date, withPath: true)
        driveStart = seconds
    }

    /// Ends the drive where the taxi is at `seconds` (at its end, or wherever a withdrawn ride left it).
    mutating func stop(at seconds: Double) {
        position = place(at: seconds).coordinate
        drive = nil
    }

    /// Stops at `seconds` and stays parked `minimum` seconds plus up to `spread` more.
    mutating func park(at seconds: Double, minimum: Double, spread: Double) {
        stop(at: seconds)
        parkedUntil = seconds + minimum + moves.nextUnit() * spread
    }

    /// Stays parked at least until `seconds` (a taxi not yet available
    /// when its parking would have ended).
    mutating func holdParking(until seconds: Double) {
        parkedUntil = max(parkedUntil, seconds)
    }

    /// At the end of its parking, a free taxi drives to where passengers ask.
    mutating func cruise(trips: SimulationTrips, router: RoadRouter, date: (Double) -> Date) {
        let target = trips.cruisingTarget(using: &moves)
        startDrive(to: target, at: parkedUntil, date: date(parkedUntil), router: router)
    }

    /// The fix taken at ``nextFix`` (simulated time `date`), nil when it
    /// falls in a GPS gap; the next one is due an interval later.
    mutating func takeFix(date: Date) -> TerminalFix? {
        let at = nextFix
        nextFix += settings.fixIntervalSeconds
        if terminal.nextUnit() < settings.gapRate { return nil }
        let (coordinate, heading, speed) = place(at: at)
        return TerminalFix(time: date, coordinate: noisy(coordinate), speedKmh: speed, heading: heading)
    }

    /// `coordinate` moved by the GPS error: a normal deviate of
    /// ``SimulatorSettings/gpsNoiseMetres`` in each direction.
    private mutating func noisy(_ coordinate: Coordinate) -> Coordinate {
        let sigma = settings.gpsNoiseMetres
        guard sigma > 0 else { return coordinate }
        let radius = sigma * (-2 * log(max(terminal.nextUnit(), 1e-12))).squareRoot()
        let angle = 2 * Double.pi * terminal.nextUnit()
        return coordinate.offset(eastMetres: radius * cos(angle), northMetres: radius * sin(angle))
    }
}
