import FixRecords
import Foundation

/// A taxi as administrators keep it in the store (SPEC D9): its plate, how
/// many passengers it carries, and whether it is in service. What the
/// store holds is laid over the devices file: a taxi here wins over the
/// file's line of the same taxi.
public struct StoredTaxi: Sendable, Equatable {
    /// The taxi's id, as drivers log in with and fixes name it.
    public var id: TaxiID
    /// The licence plate, for people.
    public var plate: String?
    /// How many passengers it carries.
    public var seats: Int
    /// A retired taxi's devices are refused and its driver's app cannot log in.
    public var active: Bool
    /// When it was last changed, to the millisecond.
    public var updatedAt: Date

    /// A taxi record.
    public init(id: TaxiID, plate: String?, seats: Int, active: Bool, updatedAt: Date) {
        self.id = id
        self.plate = plate
        self.seats = seats
        self.active = active
        self.updatedAt = updatedAt
    }
}

/// A tracking device as administrators keep it in the store (SPEC I4): the
/// taxi it reports for, the protocol it speaks, its secret if it has one.
/// A device here wins over the devices file's line of the same device; a
/// retired one is refused even when the file lists it.
public struct StoredDevice: Sendable, Equatable, CustomStringConvertible {
    /// The device id (a GT06 or Teltonika terminal's IMEI, a phone's id).
    public var id: String
    /// The taxi whose position it reports.
    public var taxi: TaxiID
    /// The wire protocol it speaks (`gt06`, `teltonika`, `line`, `nmea`, `osmand`), for people.
    public var wireProtocol: String?
    /// The secret it must present (line protocol, OsmAnd); never shown.
    public var secret: String?
    /// A retired device is refused from then on.
    public var retired: Bool
    /// When it was last changed, to the millisecond.
    public var updatedAt: Date

    /// A device record.
    public init(id: String, taxi: TaxiID, wireProtocol: String?, secret: String?, retired: Bool, updatedAt: Date) {
        self.id = id
        self.taxi = taxi
        self.wireProtocol = wireProtocol
        self.secret = secret
        self.retired = retired
        self.updatedAt = updatedAt
    }

    /// The device, its taxi and state; never its secret, only whether it has one.
    public var description: String {
        "device \(id) of taxi \(taxi)" + (wireProtocol.map { ", \($0)" } ?? "") + (secret == nil ? "" : ", with a secret")
            + (retired ? ", retired" : "")
    }
}
