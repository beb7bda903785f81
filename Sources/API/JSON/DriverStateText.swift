import TaxiDispatch

/// The driver's state as the API writes it.
enum DriverStateText {
    /// `offDuty`, `unavailable`, `available`, `offered` or `busy`.
    static func text(_ state: DriverState) -> String {
        switch state {
        case .offDuty: "offDuty"
        case .unavailable: "unavailable"
        case .available: "available"
        case .offered: "offered"
        case .busy: "busy"
        }
    }
}
