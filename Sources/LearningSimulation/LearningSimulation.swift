import Foundation
import GeoKit
import Routing

/// How well the service learns travel times from its fleet's fixes, measured
/// against a simulated city whose true speeds it does not know.
///
/// Taxis drive random trips at the true speeds (``trueRouter``: a fitted
/// profile, say, with incidents on top) and report a fix every 30 s with
/// GPS error, some lost. The service side is what `mytaxi serve` runs: a
/// router on the built-in profile (``serviceRouter``) and a
/// ``SpeedLearner`` fed with every fix, whose speeds the router takes every
/// minute of simulated time. At each checkpoint the service's estimates of
/// random trips are scored against the true drive times, and, when
/// measured trips are given, its learned weekly speeds against them.
public final class LearningSimulation {
    public let trueRouter: RoadRouter
    public let serviceRouter: RoadRouter
    public let settings: LearningSimulationSettings
    public let incidents: [RoadIncident]
    /// Real trips to score the learned weekly speeds on (a taxi meter's records), if any.
    public let measuredTrips: [MeasuredTrip]
    private let learner: SpeedLearner
    private var random: SplitMix64
    /// How often, in simulated seconds, the trip overhead is estimated
    /// again: each estimate routes the latest trips, too dear for every
    /// minute, and the overhead changes slowly.
    static let overheadEstimateSeconds = 900.0

    /// A run of `settings` where taxis drive at `trueRouter`'s speeds (with
    /// `incidents`) and the service learns on `serviceRouter`, whose speed
    /// source must be its profile (``ProfiledEdgeSpeeds``).
    public init(trueRouter: RoadRouter, serviceRouter: RoadRouter, settings: LearningSimulationSettings,
                incidents: [RoadIncident] = [], measuredTrips: [MeasuredTrip] = []) {
        self.trueRouter = trueRouter
        self.serviceRouter = serviceRouter
        self.settings = settings
        self.incidents = incidents
        self.measuredTrips = measuredTrips
        let base = serviceRouter.speeds as? ProfiledEdgeSpeeds ?? ProfiledEdgeSpeeds(graph: serviceRouter.graph)
        learner = SpeedLearner(router: serviceRouter, base: base)
        random = SplitMix64(state: settings.seed)
    }

    /// Runs to the last checkpoint, calling `progress` with each report as it is made.
    public func run(progress: (LearningCheckpoint) -> Void = { _ in }) -> LearningReport {
        let graph = trueRouter.graph
        let overhead = trueRouter.tripOverheadSeconds
        func randomPlace() -> Coordinate { graph.coordinates[Int(random.next() % UInt64(graph.nodeCount))] }
        let scored = (0..<settings.scoredTrips).map { _ in (randomPlace(), randomPlace()) }
        let probes = incidentProbes(randomPlace: randomPlace)
        var taxis = (0..<settings.taxis).map { _ in LearningTaxi(position: randomPlace(), parkedUntil: random.nextUnit() * 300) }
        let phases = (0..<settings.taxis).map { _ in random.nextUnit() * settings.fixIntervalSeconds }
        let taxiNames = (0..<settings.taxis).map { "T\($0)" }
        let builtIn = RoadRouter(graph: graph, topology: serviceRouter.topology, speeds: serviceRouter.speeds,
                             timeZone: serviceRouter.timeZone, tripOverheadSeconds: serviceRouter.tripOverheadSeconds)
        var report = LearningReport(settings: settings, taxis: settings.taxis)
        report.incidents = incidents.map { LearningReport.IncidentResponse(incident: $0) }
        let end = (settings.checkpointHours.max() ?? 1) * 3600
        var checkpoints = settings.checkpointHours.sorted().map { $0 * 3600 }
        var nextRecustomize = settings.recustomizeSeconds
        var nextOverheadEstimate = settings.recustomizeSeconds
        var matchingSeconds = 0.0, recustomizations: [(wall: Double, cpu: Double)] = []
        var speedChanges = incidents.flatMap { [$0.start, $0.end] }.map { $0.timeIntervalSince(settings.start) }.sorted()
        var tick = 0.0
        while tick < end {
            while let change = speedChanges.first, change <= tick {
                speedChanges.removeFirst()
                let weights = trueRouter.metric(departing: settings.start.addingTimeInterval(change + 1)).edgeWeights
                for index in taxis.indices { taxis[index].retime(at: change, weights: weights) }
            }
            for index in taxis.indices {
                let seconds = tick + phases[index]
                for trip in taxis[index].advance(to: seconds, parking: { 60 + random.nextUnit() * 240 }, startTrip: { from, at in
                    let depart = settings.start.addingTimeInterval(at + overhead / 2)
                    guard let route = try? trueRouter.timedRoute(from: from, to: randomPlace(), depart: depart),
                          route.durationSeconds > 0 else { return nil }
                    return (route, overhead)
                }) {
                    learner.observeTrip(from: trip.from, to: trip.to, depart: settings.start.addingTimeInterval(trip.start),
                                        seconds: trip.seconds)
                }
                guard random.nextUnit() >= settings.dropRate else { continue }
                let fix = noisy(taxis[index].place(at: seconds))
                let matchingStarted = Self.threadCPUSeconds()
                learner.observe(taxi: taxiNames[index], at: fix, time: settings.start.addingTimeInterval(seconds),
                                mayBeWaiting: taxis[index].isParked)
                matchingSeconds += Self.threadCPUSeconds() - matchingStarted
            }
            tick += settings.fixIntervalSeconds
            if tick >= nextRecustomize {
                let now = settings.start.addingTimeInterval(tick)
                let speeds = learner.speeds(now: now)
                var overhead: Double?
                if tick >= nextOverheadEstimate {
                    overhead = learner.tripOverheadSeconds(using: serviceRouter)
                    nextOverheadEstimate = tick + Self.overheadEstimateSeconds
                }
                let cpuStarted = Self.processCPUSeconds()
                let wall = serviceRouter.replaceSpeeds(with: speeds, tripOverheadSeconds: overhead, preparing: [now])
                recustomizations.append((wall, Self.processCPUSeconds() - cpuStarted))
                nextRecustomize += settings.recustomizeSeconds
                for index in report.incidents.indices {
                    report.incidents[index].observe(at: now, start: settings.start, probes: probes[index],
                                                    trueRouter: trueRouter, serviceRouter: serviceRouter)
                }
            }
            if let next = checkpoints.first, tick >= next {
                checkpoints.removeFirst()
                let now = settings.start.addingTimeInterval(tick)
                var checkpoint = LearningCheckpoint(hours: tick / 3600)
                checkpoint.randomTrips = TripScore(scored, depart: now, truth: trueRouter, estimate: serviceRouter)
                checkpoint.builtInRandomTrips = TripScore(scored, depart: now, truth: trueRouter, estimate: builtIn)
                checkpoint.matchedFixes = learner.matchedFixes
                checkpoint.unmatchedFixes = learner.unmatchedFixes
                checkpoint.learnedCells = learner.table.cellCount
                checkpoint.tripOverheadSeconds = learner.tripOverheadSeconds(using: serviceRouter)
                if !measuredTrips.isEmpty {
                    checkpoint.measuredTrips = TripScore(measuredTrips, estimate: learnedWeeklyRouter(overhead: checkpoint.tripOverheadSeconds))
                }
                report.checkpoints.append(checkpoint)
                progress(checkpoint)
            }
        }
        let fixes = learner.matchedFixes + learner.unmatchedFixes.values.reduce(0, +)
        report.matchingFixesPerSecond = matchingSeconds > 0 ? Double(fixes) / matchingSeconds : 0
        report.recustomizationSeconds = recustomizations.map(\.wall).sorted()[recustomizations.count / 2]
        report.recustomizationCPUSeconds = recustomizations.map(\.cpu).sorted()[recustomizations.count / 2]
        if !measuredTrips.isEmpty {
            report.trueProfileOnMeasuredTrips = TripScore(measuredTrips, estimate: trueRouter)
            report.builtInOnMeasuredTrips = TripScore(measuredTrips, estimate: builtIn)
        }
        return report
    }

    /// A router on what was learned for the week (no live layer), for scoring on measured trips of any date.
    private func learnedWeeklyRouter(overhead: Double) -> RoadRouter {
        RoadRouter(graph: serviceRouter.graph, topology: serviceRouter.topology, speeds: learner.weeklySpeeds(),
               timeZone: serviceRouter.timeZone, tripOverheadSeconds: overhead)
    }

    /// For each incident, random trips whose true route drives on the road
    /// before it starts and which it makes a quarter longer or more.
    private func incidentProbes(randomPlace: () -> Coordinate) -> [[(Coordinate, Coordinate)]] {
        incidents.map { incident in
            let edges = Set(incident.edges)
            let before = incident.start.addingTimeInterval(-60), during = incident.start.addingTimeInterval(60)
            var probes: [(Coordinate, Coordinate)] = []
            for _ in 0..<20_000 where probes.count < 30 {
                let from = randomPlace(), to = randomPlace()
                guard let usual = try? trueRouter.timedRoute(from: from, to: to, depart: before),
                      usual.stretches.contains(where: { edges.contains($0.edge) }),
                      let slowed = try? trueRouter.timedRoute(from: from, to: to, depart: during),
                      slowed.durationSeconds >= 1.25 * usual.durationSeconds else { continue }
                probes.append((from, to))
            }
            return probes
        }
    }

    /// `coordinate` moved by a Gaussian GPS error of the settings' radial standard deviation.
    private func noisy(_ coordinate: Coordinate) -> Coordinate {
        guard settings.gpsNoiseMetres > 0 else { return coordinate }
        let sigma = settings.gpsNoiseMetres / 2.squareRoot()
        let u1 = max(random.nextUnit(), 1e-12), u2 = random.nextUnit()
        let radius = (-2 * log(u1)).squareRoot()
        let east = radius * cos(2 * .pi * u2) * sigma, north = radius * sin(2 * .pi * u2) * sigma
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        return Coordinate(longitude: coordinate.longitude + east / (metresPerDegree * cos(coordinate.latitude * .pi / 180)),
                          latitude: coordinate.latitude + north / metresPerDegree)
    }

    /// CPU seconds this thread has used: what a cost takes of one core, however busy the machine.
    private static func threadCPUSeconds() -> Double {
        cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
    }

    /// CPU seconds every thread of the process has used: a re-customization
    /// runs on the simulation's thread and the helpers it starts.
    private static func processCPUSeconds() -> Double {
        cpuSeconds(CLOCK_PROCESS_CPUTIME_ID)
    }

    private static func cpuSeconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
