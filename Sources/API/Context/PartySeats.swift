import Fleet

/// The seats a ride request or a booking asks for (`seats`, the party's
/// size): checked before the dispatcher is asked, since a party no taxi
/// of the fleet can carry would only wait in vain.
enum PartySeats {
    /// The seats to tell the dispatcher: nil for one (the engine's default).
    /// - Throws: ``Problem`` 400 outside 1 to ``DeviceRegistry/maximumSeats``;
    ///   422 when no taxi of the registry has that many (`largest`, the most
    ///   any has; nil: no taxi at all, left to the dispatcher's refusals).
    static func checked(_ seats: Int?, largest: Int?) throws -> Int? {
        guard let seats, seats != 1 else { return nil }
        guard (1...DeviceRegistry.maximumSeats).contains(seats) else {
            throw Problem.badRequest("'seats' must be the party's size, from 1 to \(DeviceRegistry.maximumSeats), not \(seats)")
        }
        if let largest, seats > largest {
            throw Problem.unprocessable(
                "no taxi of the fleet seats \(seats) passengers (the largest seats \(largest)): ask for two rides, each of \(largest) at most")
        }
        return seats
    }
}
