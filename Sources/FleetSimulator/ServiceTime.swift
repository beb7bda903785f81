import Foundation

/// The service's clock as it answered `GET /v1/clock`: its time and how
/// fast it runs. A service run faster than real time (`serve --clock-rate`)
/// times everything (a driver's answer, an offer's timeout, a queue's
/// turnover) in the simulation's seconds only when the simulation lives on
/// the service's time, which ``SimulatedClock/init(following:hours:)`` does.
public struct ServiceTime: Sendable {
    /// The service's time when it answered.
    public let now: Date
    /// Service seconds per real second.
    public let rate: Double
    /// When the answer came, on this machine's monotonic clock.
    let readAt: ContinuousClock.Instant

    /// The service's time now, read from its API at `endpoints`.
    /// - Throws: ``SimulatorError`` when the service cannot be reached or
    ///   answers what is not a clock.
    public static func read(from endpoints: ServiceEndpoints) async throws -> ServiceTime {
        let client = ServiceClient(host: endpoints.host, port: endpoints.httpPort)
        let answer: ServiceClient.Answer
        do {
            answer = try await client.call("GET", "/v1/clock")
        } catch {
            throw SimulatorError("the service at \(endpoints.host):\(endpoints.httpPort) cannot be reached: \(error.localizedDescription)")
        }
        guard answer.status == 200, let text = answer.json["now"] as? String, let now = try? Date(text, strategy: .iso8601),
            let rate = answer.json["rate"] as? Double, rate > 0
        else {
            throw SimulatorError("GET /v1/clock was answered \(answer.status) without the service's time: is this a mytaxi service?")
        }
        return ServiceTime(now: now, rate: rate, readAt: .now)
    }
}
