import DispatchSimulation
import Foundation
import GeoKit
import Routing
import Zones

/// A simulated city against a running service over its real interfaces
/// (`mytaxi simulate`): taxis whose terminals stream fixes over the line,
/// Teltonika and GT06 protocols while their drivers drive the road graph
/// and work the dispatch API, and passengers requesting rides and booking
/// reservations. Runs for the settings' simulated hours, `speedUp` times
/// faster than real time, then says what it measured.
///
/// The random choices (where taxis start and drive, who asks when and
/// where, who refuses, who is missing, who cancels) come from the seed;
/// what the service answers depends on timing too, so two runs with the
/// same seed make the same choices but need not serve the same rides.
public struct FleetSimulation: Sendable {
    private let context: SimulationContext
    private let bursts: AsyncStream<Void>
    private let burstTrigger: AsyncStream<Void>.Continuation

    /// A run on `router`'s roads and the zones of `zones` against the service at `endpoints`.
    /// - Parameters:
    ///   - router: the roads the taxis drive, at the speeds they really drive at (which may be
    ///     hidden from the service, for it to learn from the fixes).
    ///   - demandCSV: measured trips (NYC TLC columns) to draw pickups and destinations from.
    ///   - clock: the run's simulated time (made beforehand, as the start times incidents):
    ///     the service's when it runs as fast (``SimulatedClock/init(following:hours:)``).
    /// - Throws: ``SimulatorError`` when the graph has no road in a zone, the demand file has no usable trip,
    ///   or `endpoints` lacks the port of a protocol the fleet speaks.
    public init(
        router: RoadRouter, zones: ZoneIndex, settings: SimulatorSettings, endpoints: ServiceEndpoints, demandCSV: String? = nil,
        clock: SimulatedClock
    ) throws {
        let kinds = Set((0..<settings.taxis).map(TerminalKind.of(taxi:)))
        if let missing = kinds.first(where: { endpoints.terminalPorts[$0] == nil }) {
            throw SimulatorError("no port for the \(missing.rawValue) terminals")
        }
        let tally = SimulationTally(keepingAcknowledgedFixes: settings.keepsAcknowledgedFixes)
        context = SimulationContext(
            router: router, trips: try SimulationTrips(router: router, zones: zones, demandCSV: demandCSV), clock: clock,
            settings: settings, endpoints: endpoints,
            client: ServiceClient(host: endpoints.host, port: endpoints.httpPort, onRetry: { tally.apiRetried() }), tally: tally)
        (bursts, burstTrigger) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The simulated time at which the run starts.
    public var start: Date { context.clock.start }

    /// Ends the run early (Ctrl-C): ``run(progress:)`` returns once the calls in flight are answered.
    public func stop() {
        context.clock.stop()
        burstTrigger.finish()
    }

    /// Sends the burst of the settings' ``SimulatorSettings/burstRequests``
    /// ride requests at once, each by a passenger of its own, as a failure's
    /// test needs (`mytaxi simulate --burst`, SIGUSR1): a morning's rush the
    /// service must answer while a part of it fails. A burst passenger whose
    /// ride is still open is refused a second one (409), as any passenger.
    public func burst() { burstTrigger.yield() }

    /// The rides served so far, with the wait each was told and had.
    public var servedRides: [ServedRide] { context.tally.servedRides }

    /// The fixes the service acknowledged so far, when the settings keep them.
    public var acknowledgedFixes: [AcknowledgedFix] { context.tally.acknowledgedFixes }

    /// Makes the drivers' accounts and registers the passengers who have
    /// none (kept when they exist), logs everyone in, runs
    /// the taxis and the passengers until the simulated time is over or
    /// ``stop()``, calling `progress` every
    /// ``SimulatorSettings/progressSeconds`` real seconds; returns what it measured.
    /// - Throws: ``SimulatorError`` when the administrator cannot log in or an account cannot be made or registered.
    public func run(progress: @escaping @Sendable (_ simulated: Date, _ summary: SimulationSummary) -> Void) async throws -> SimulationSummary {
        let context = context
        let settings = context.settings
        let administrator = try await context.client.login(context.endpoints.administrator, password: context.endpoints.password)
        try await makeDriverAccounts(administrator: administrator)
        let signUp = PassengerSignUp(client: context.client, password: context.endpoints.password, administratorToken: administrator)
        let passengerTokens = try await signUp.tokens(for: (0..<settings.passengers).map(SimulatedPassengers.username))
        let burstTokens = try await signUp.tokens(for: (0..<settings.burstRequests).map(SimulatedPassengers.burstUsername))
        let bursts = bursts, burstTrigger = burstTrigger
        await withDiscardingTaskGroup { group in
            for index in 0..<settings.taxis {
                group.addTask { await SimulatedTaxi(index: index, context: context).run() }
            }
            group.addTask {
                var passengers = SimulatedPassengers(context: context)
                await passengers.run(tokens: passengerTokens)
            }
            group.addTask {
                while await context.clock.pause(simulated: settings.progressSeconds * context.clock.speedUp) {
                    progress(context.clock.now, context.tally.summary)
                }
                burstTrigger.finish()
            }
            group.addTask {
                var random = SplitMix64(state: settings.seed ^ 0xB0_257)
                for await _ in bursts where !context.clock.isOver {
                    let trips = burstTokens.map { ($0, context.trips.trip(using: &random)) }
                    await withDiscardingTaskGroup { requests in
                        for (token, trip) in trips {
                            requests.addTask {
                                if await SimulatedPassengers.request(context, token: token, trip: trip, cancelsAfter: nil) {
                                    context.tally.burstRideOpened()
                                }
                            }
                        }
                    }
                }
            }
        }
        return context.tally.summary
    }

    /// The drivers' accounts (username: the taxi id), made by the
    /// administrator as a taxi company does; one that exists is kept.
    private func makeDriverAccounts(administrator: String) async throws {
        let context = context
        _ = try await concurrentlyInOrder(0..<context.settings.taxis, width: 16) { index in
            let username = TerminalKind.taxiId(index)
            let body = ["role": "driver", "username": username, "password": context.endpoints.password]
            let answer = try await context.client.call("POST", "/v1/accounts", token: administrator, body: body)
            guard answer.status == 201 || answer.status == 409 else {
                throw SimulatorError("making the account \(username) was answered \(answer.status): \(answer.json["detail"] ?? "")")
            }
        }
    }
}
