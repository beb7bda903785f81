import DispatchCore
import FixRecords
import Fleet
import Foundation
import JSONKit
import Zones

extension LoggedCommand {
    /// The entry as the log stores it: the JSON document `JSONEncoder` makes
    /// of it with ``DispatchLogCoding``'s settings (keys in declaration
    /// order, where `JSONEncoder` leaves theirs unordered), written by hand
    /// on the log's writer thread, where `JSONEncoder` took most of the
    /// time of a commit. Replay decodes it with `JSONDecoder`, as it does
    /// the entries `JSONEncoder` wrote before.
    /// - Throws: `EncodingError.invalidValue` for a time or a coordinate
    ///   that is not finite, as `JSONEncoder` would.
    func json() throws -> Data {
        var writer = JSONWriter()
        writer.raw("{\"command\":")
        try writer.command(command)
        writer.raw(",\"engineTime\":")
        writer.duration(engineTime)
        writer.raw(",\"wallTime\":")
        try writer.date(wallTime)
        if let idempotencyKey {
            writer.raw(",\"idempotencyKey\":")
            writer.string(idempotencyKey)
        }
        writer.raw("}")
        return Data(writer.finish())
    }
}

extension JSONWriter {
    /// Appends `command` as its synthesised `Codable` form: an object with
    /// the case's name as its one key, holding the associated values under
    /// their labels (`_0` for an unlabelled one), an absent optional left out.
    mutating func command(_ command: DispatchCommand) throws {
        switch command {
        case .login(let taxi, let seats, let driver):
            raw("{\"login\":{\"_0\":")
            string(taxi.text)
            seatsIfAny(seats)
            if let driver {
                raw(",\"driver\":")
                string(driver)
            }
            raw("}}")
        case .logout(let taxi): taxiCase("{\"logout\":{\"_0\":", taxi)
        case .setAvailable(let taxi): taxiCase("{\"setAvailable\":{\"_0\":", taxi)
        case .setUnavailable(let taxi): taxiCase("{\"setUnavailable\":{\"_0\":", taxi)
        case .refuse(let taxi): taxiCase("{\"refuse\":{\"_0\":", taxi)
        case .arrived(let taxi, let rider): taxiCase("{\"arrived\":{\"_0\":", taxi, rider: rider)
        case .passengerAboard(let taxi, let rider): taxiCase("{\"passengerAboard\":{\"_0\":", taxi, rider: rider)
        case .completed(let taxi, let rider): taxiCase("{\"completed\":{\"_0\":", taxi, rider: rider)
        case .missingClient(let taxi, let rider): taxiCase("{\"missingClient\":{\"_0\":", taxi, rider: rider)
        case .accept(let taxi, let eta):
            raw("{\"accept\":{\"_0\":")
            string(taxi.text)
            if let eta {
                raw(",\"eta\":")
                duration(eta)
            }
            raw("}}")
        case .updateETA(let id, let eta):
            raw("{\"updateETA\":{\"_0\":")
            integer(Int64(id.number))
            raw(",\"eta\":")
            duration(eta)
            raw("}}")
        case .request(let passenger, let pickup, let zone, let destination, let walk, let seats, let sharing):
            raw("{\"request\":{\"_0\":")
            string(passenger.text)
            raw(",\"pickup\":")
            try coordinate(pickup)
            if let zone {
                raw(",\"zone\":")
                string(zone.text)
            }
            if let destination {
                raw(",\"destination\":")
                try coordinate(destination)
            }
            try walkIfAny(walk)
            seatsIfAny(seats)
            sharingIfAny(sharing)
            raw("}}")
        case .confirm(let id):
            raw("{\"confirm\":{\"_0\":")
            integer(Int64(id.number))
            raw("}}")
        case .cancel(let id):
            raw("{\"cancel\":{\"_0\":")
            integer(Int64(id.number))
            raw("}}")
        case .reserve(let passenger, let origin, let zone, let destination, let pickupAt, let walk, let seats):
            raw("{\"reserve\":{\"_0\":")
            string(passenger.text)
            raw(",\"origin\":")
            try coordinate(origin)
            if let zone {
                raw(",\"zone\":")
                string(zone.text)
            }
            raw(",\"destination\":")
            try coordinate(destination)
            raw(",\"pickupAt\":")
            try date(pickupAt)
            try walkIfAny(walk)
            seatsIfAny(seats)
            raw("}}")
        case .cancelReservation(let id):
            raw("{\"cancelReservation\":{\"_0\":")
            integer(Int64(id.number))
            raw("}}")
        case .allocate(let id, let taxi):
            raw("{\"allocate\":{\"_0\":")
            integer(Int64(id.number))
            raw(",\"taxi\":")
            string(taxi.text)
            raw("}}")
        case .fleet(let event):
            raw("{\"fleet\":{\"_0\":")
            try fleetEvent(event)
            raw("}}")
        case .tick:
            raw("{\"tick\":{}}")
        case .replaceZones(let change):
            raw("{\"replaceZones\":{\"_0\":")
            zoneReassignment(change)
            raw("}}")
        }
    }

    /// Appends `,"seats":N` for a party of more than one, nothing otherwise.
    private mutating func seatsIfAny(_ seats: Int?) {
        guard let seats else { return }
        raw(",\"seats\":")
        integer(Int64(seats))
    }

    /// Appends `,"walk":{...}` for a meeting point's walk, nothing for none.
    private mutating func walkIfAny(_ walk: PickupWalk?) throws {
        guard let walk else { return }
        raw(",\"walk\":{\"from\":")
        try coordinate(walk.from)
        raw(",\"seconds\":")
        try double(walk.seconds)
        raw(",\"metres\":")
        try double(walk.metres)
        raw(",\"routed\":")
        raw(walk.routed ? "true" : "false")
        raw("}")
    }

    /// Appends `change` as its synthesised `Codable` form: three arrays of
    /// objects, a zone left out where there is none.
    private mutating func zoneReassignment(_ change: ZoneReassignment) {
        raw("{\"taxis\":")
        zoneList(change.taxis, opening: "{\"taxi\":") { writer, moved in
            writer.string(moved.taxi.text)
            return moved.zone
        }
        raw(",\"requests\":")
        zoneList(change.requests, opening: "{\"request\":") { writer, moved in
            writer.integer(Int64(moved.request.number))
            return moved.zone
        }
        raw(",\"reservations\":")
        zoneList(change.reservations, opening: "{\"reservation\":") { writer, moved in
            writer.integer(Int64(moved.reservation.number))
            return moved.zone
        }
        raw("}")
    }

    /// Appends `items` as an array of objects, each `opening`, the value
    /// `writeValue` appends, and the zone it returns unless there is none.
    private mutating func zoneList<Item>(
        _ items: [Item], opening: StaticString, _ writeValue: (inout JSONWriter, Item) -> ZoneID?
    ) {
        raw("[")
        for (index, item) in items.enumerated() {
            if index > 0 { raw(",") }
            raw(opening)
            let zone = writeValue(&self, item)
            optionalZone(",\"zone\":", zone)
            raw("}")
        }
        raw("]")
    }

    /// A case whose value is a taxi, and a shared ride's rider when one is
    /// named: `opening` is everything up to the taxi.
    private mutating func taxiCase(_ opening: StaticString, _ taxi: TaxiID, rider: RideRequestID? = nil) {
        raw(opening)
        string(taxi.text)
        if let rider {
            raw(",\"rider\":")
            integer(Int64(rider.number))
        }
        raw("}}")
    }

    /// Appends `,"sharing":{...}` for a shared request, nothing for another.
    private mutating func sharingIfAny(_ sharing: RideSharing?) {
        guard let sharing else { return }
        raw(",\"sharing\":{\"directTrip\":")
        duration(sharing.directTrip)
        if let join = sharing.join {
            raw(",\"join\":{\"taxi\":")
            string(join.taxi.text)
            raw(",\"pickupIndex\":")
            integer(Int64(join.pickupIndex))
            raw(",\"dropoffIndex\":")
            integer(Int64(join.dropoffIndex))
            if let eta = join.eta {
                raw(",\"eta\":")
                duration(eta)
            }
            raw("}")
        }
        raw("}")
    }

    /// Appends `event` as its synthesised `Codable` form.
    private mutating func fleetEvent(_ event: FleetEvent) throws {
        switch event {
        case .appeared(let taxi, let zone, let at):
            raw("{\"appeared\":{\"_0\":")
            string(taxi.text)
            optionalZone(",\"zone\":", zone)
            raw(",\"at\":")
            try date(at)
        case .changedZone(let taxi, let from, let to, let at):
            raw("{\"changedZone\":{\"_0\":")
            string(taxi.text)
            optionalZone(",\"from\":", from)
            optionalZone(",\"to\":", to)
            raw(",\"at\":")
            try date(at)
        case .wentStale(let taxi, let lastHeard):
            raw("{\"wentStale\":{\"_0\":")
            string(taxi.text)
            raw(",\"lastHeard\":")
            try date(lastHeard)
        case .cameBack(let taxi, let zone, let at):
            raw("{\"cameBack\":{\"_0\":")
            string(taxi.text)
            optionalZone(",\"zone\":", zone)
            raw(",\"at\":")
            try date(at)
        }
        raw("}}")
    }

    /// Appends `key` and `zone` when there is a zone; nothing otherwise.
    private mutating func optionalZone(_ key: StaticString, _ zone: ZoneID?) {
        guard let zone else { return }
        raw(key)
        string(zone.text)
    }
}
