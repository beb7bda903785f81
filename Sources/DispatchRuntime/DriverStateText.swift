import DispatchCore

/// The driver's state as the API and its notifications write it.
public enum DriverStateText {
    /// `offDuty`, `unavailable`, `available`, `offered` or `busy`.
    public static func text(_ state: DriverState) -> String {
        switch state {
        case .offDuty: "offDuty"
        case .unavailable: "unavailable"
        case .available: "available"
        case .offered: "offered"
        case .busy: "busy"
        }
    }
}
