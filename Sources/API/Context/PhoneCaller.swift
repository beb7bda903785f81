import DispatchCore
import Foundation
import Storage

/// A dispatcher books for a phone caller, who has no account: the caller
/// is known to the engine by the number (`phone:+12125550123`), so that
/// the dispatcher's rides and reservations for one caller are told apart
/// from another's and from every passenger's (whose usernames never hold a colon).
enum PhoneCaller {
    /// The prefix of a phone caller's passenger id.
    static let prefix = "phone:"

    /// Whom a request or booking is for: the passenger itself, or a
    /// dispatcher's caller named by `callerPhone`.
    /// - Throws: ``Problem`` 400 when `callerPhone` is not a phone number
    ///   (the document's form); 422 when a dispatcher names none, or a
    ///   passenger names one (well formed, not for the role).
    static func passenger(for caller: Caller, callerPhone: String?) throws -> PassengerID {
        if let callerPhone, !isPhoneNumber(callerPhone) {
            throw Problem.badRequest("'callerPhone' must be 3 to 32 digits, spaces and +-(), e.g. +1 212 555 0100")
        }
        switch caller.role {
        case .dispatcher:
            guard let callerPhone else {
                throw Problem.unprocessable("'callerPhone' is required for a dispatcher's request: the caller's number, e.g. +1 212 555 0100")
            }
            return id(of: callerPhone)
        default:
            guard callerPhone == nil else {
                throw Problem.unprocessable("'callerPhone' is for dispatchers; a passenger asks for itself: leave it out")
            }
            return caller.passenger
        }
    }

    /// The passenger id of the caller at `phone`, spaces left out.
    static func id(of phone: String) -> PassengerID {
        PassengerID(prefix + phone.filter { !$0.isWhitespace })
    }

    /// True for what `callerPhone` may be: 3 to 32 digits, spaces and `+-()`.
    static func isPhoneNumber(_ text: String) -> Bool {
        let allowed = CharacterSet(charactersIn: "0123456789 +-()")
        return (3...32).contains(text.count) && text.unicodeScalars.allSatisfy(allowed.contains)
    }
}
