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

    /// A run on `router`'s roads and the zones of `zones` against the service at `endpoints`.
    /// - Parameter demandCSV: measured trips (NYC TLC columns) to draw pickups and destinations from.
    /// - Throws: ``SimulatorError`` when the graph has no road in a zone, the demand file has no usable trip,
    ///   or `endpoints` lacks the port of a protocol the fleet speaks.
    public init(
        router: Router, zones: ZoneIndex, settings: SimulatorSettings, endpoints: ServiceEndpoints, demandCSV: String? = nil
    ) throws {
        let kinds = Set((0..<settings.taxis).map(TerminalKind.of(taxi:)))
        if let missing = kinds.first(where: { endpoints.terminalPorts[$0] == nil }) {
            throw SimulatorError("no port for the \(missing.rawValue) terminals")
        }
        let places: ServiceAreaPlaces
        do {
            places = try ServiceAreaPlaces(router: router, zones: zones)
        } catch {
            throw SimulatorError(error.description)
        }
        let bounds = BoundingBox(enclosing: places.places.map(\.coordinate))
        let demand = try demandCSV.flatMap { text in try bounds.map { try DemandPoints(csv: text, zones: zones, bounds: $0) } }
        context = SimulationContext(
            router: router, places: places, demand: demand, clock: SimulatedClock(hours: settings.hours, speedUp: settings.speedUp),
            settings: settings, endpoints: endpoints, client: ServiceClient(host: endpoints.host, port: endpoints.httpPort),
            tally: SimulationTally())
    }

    /// The simulated time at which the run starts.
    public var start: Date { context.clock.start }

    /// Ends the run early (Ctrl-C): ``run(progress:)`` returns once the calls in flight are answered.
    public func stop() { context.clock.stop() }

    /// Makes the accounts (kept when they exist), logs everyone in, runs
    /// the taxis and the passengers until the simulated time is over or
    /// ``stop()``, calling `progress` every
    /// ``SimulatorSettings/progressSeconds`` real seconds; returns what it measured.
    /// - Throws: ``SimulatorError`` when the administrator cannot log in or an account cannot be made.
    public func run(progress: @escaping @Sendable (_ simulated: Date, _ summary: SimulationSummary) -> Void) async throws -> SimulationSummary {
        let context = context
        let settings = context.settings
        try await makeAccounts()
        let passengerTokens = try await forEach(0..<settings.passengers, width: 16) { index in
            try await context.client.login(SimulatedPassengers.username(index), password: context.endpoints.password)
        }
        await withDiscardingTaskGroup { group in
            for index in 0..<settings.taxis {
                group.addTask { await SimulatedTaxi(index: index, context: context).run() }
            }
            group.addTask {
                var passengers = SimulatedPassengers(context: context)
                await passengers.run(tokens: passengerTokens)
            }
            group.addTask {
                while await context.clock.pause(simulated: settings.progressSeconds * settings.speedUp) {
                    progress(context.clock.now, context.tally.summary)
                }
            }
        }
        return context.tally.summary
    }

    /// The drivers' accounts (username: the taxi id) and the passengers'.
    private func makeAccounts() async throws {
        let endpoints = context.endpoints
        let admin = try await context.client.login(endpoints.administrator, password: endpoints.password)
        let drivers = (0..<context.settings.taxis).map { ["role": "driver", "username": TerminalKind.taxiId($0)] }
        let passengers = (0..<context.settings.passengers).map { index in
            let name = SimulatedPassengers.username(index)
            return ["role": "passenger", "username": name, "email": "\(name)@example.com"]
        }
        _ = try await forEach((drivers + passengers).indices, width: 16) { [context] index in
            var body = (drivers + passengers)[index]
            body["password"] = endpoints.password
            let answer = try await context.client.call("POST", "/v1/accounts", token: admin, body: body)
            guard answer.status == 201 || answer.status == 409 else {
                throw SimulatorError("making the account \(body["username"] ?? "") was answered \(answer.status): \(answer.json["detail"] ?? "")")
            }
            return ""
        }
    }

    /// `body` for each of `indices`, at most `width` at once; the results in order.
    private func forEach(
        _ indices: Range<Int>, width: Int, _ body: @escaping @Sendable (Int) async throws -> String
    ) async throws -> [String] {
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            var results = [String](repeating: "", count: indices.count)
            for index in indices {
                if index - indices.lowerBound >= width, let finished = try await group.next() {
                    results[finished.0 - indices.lowerBound] = finished.1
                }
                group.addTask { (index, try await body(index)) }
            }
            for try await (done, result) in group { results[done - indices.lowerBound] = result }
            return results
        }
    }
}
