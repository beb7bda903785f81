import DispatchCore
import DispatchRuntime

extension Problem {
    /// The answer to a command the dispatcher did not carry out: 404 for
    /// an unknown ride or reservation, 409 for one that does not fit the
    /// current state (an offer to answer first, a cancellation too late),
    /// 400 for a malformed one, 503 when it could not be made durable
    /// (nothing changed; try again).
    init(_ error: DispatcherError) {
        switch error {
        case .rejected(.unknownRequest), .rejected(.unknownReservation):
            self = .notFound("\(error)")
        case .rejected:
            self = .conflict("\(error)")
        case .invalid(let problem):
            self = .badRequest(problem)
        case .storage, .corruptLog:
            self = .unavailable("the dispatcher cannot record this now; nothing was changed; try again shortly")
        case .decidedElsewhere:
            self = .unavailable("\(error); nothing was changed; try again shortly")
        }
    }

    /// The answer to a new request or reservation the engine turned down (SPEC D3, D5, Z2).
    init(_ refusal: RequestRefusal) {
        switch refusal {
        case .passengerHasOpenRequest, .duplicateReservation, .tooManyReservations: self = .conflict("\(refusal)")
        case .outsideServiceArea, .pickupTooSoon, .pickupTooLate: self = .unprocessable("\(refusal)")
        }
    }
}
