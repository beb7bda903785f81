import FixRecords
import Foundation
import Hummingbird
import ServiceClock

/// `GET /v1/clock`: the service's time and how fast it runs, so that a
/// simulated fleet (`mytaxi simulate`) lives on the service's time when the
/// service runs faster than real time (`serve --clock-rate`), and a client
/// can tell how far its own clock is from the service's.
struct ClockController: Sendable {
    /// What `/v1/clock` answers.
    struct ClockJSON: Encodable {
        /// The service's time, ISO 8601.
        let now: String
        /// Service seconds per real second.
        let rate: Double
    }

    let clock: any ServiceClock

    func addRoutes(to router: Router<APIRequestContext>) {
        router.get("/v1/clock") { _, _ -> Response in
            try JSONResponse.ok(ClockJSON(now: FixTime.iso8601(clock.now), rate: clock.rate))
        }
    }
}
