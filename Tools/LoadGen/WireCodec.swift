import FixRecords
import Foundation
import Ingest
import NIOCore

/// The protocol the simulated devices speak (`--protocol`).
enum LoadProtocol: String, CaseIterable, Sendable {
    case line, nmea, gt06, teltonika

    /// True when device ids must be 15-digit IMEIs (the binary protocols carry nothing else).
    var usesIMEI: Bool { self == .gt06 || self == .teltonika }

    /// True when the protocol also runs over UDP in the server.
    var hasUDP: Bool { self == .line || self == .teltonika }

    /// False for NMEA, which the server never answers.
    var acknowledges: Bool { self != .nmea }

    /// The server's default port for the protocol (`mytaxi serve` defaults).
    var defaultPort: Int {
        switch self {
        case .line: WireProtocol.line.defaultPort
        case .nmea: WireProtocol.nmea.defaultPort
        case .gt06: WireProtocol.gt06.defaultPort
        case .teltonika: WireProtocol.teltonika.defaultPort
        }
    }

    /// True when fix times only have whole seconds on the wire (GT06), so a
    /// device must not send two fixes in the same second.
    var hasWholeSecondTimes: Bool { self == .gt06 }

    /// A new TCP session of device `deviceId`.
    func streamCodec(deviceId: String) -> any StreamDeviceCodec {
        switch self {
        case .line: LineStreamCodec()
        case .nmea: NMEAStreamCodec(deviceId: deviceId)
        case .gt06: GT06Codec(imei: deviceId)
        case .teltonika: TeltonikaStreamCodec(imei: deviceId)
        }
    }

    /// The datagram encoding, for the protocols that have one.
    var datagramCodec: (any DatagramDeviceCodec)? {
        switch self {
        case .line: LineDatagramCodec()
        case .teltonika: TeltonikaDatagramCodec()
        case .nmea, .gt06: nil
        }
    }

    /// The `index`-th (from 1) synthetic IMEI: `35`, 12 digits of the index
    /// and the Luhn check digit, as real IMEIs have.
    static func imei(_ index: Int) -> String {
        let body = "35" + String(format: "%012d", index)
        var sum = 0
        for (position, character) in body.reversed().enumerated() {
            let digit = Int(character.asciiValue! - UInt8(ascii: "0"))
            let weighted = position % 2 == 0 ? digit * 2 : digit
            sum += weighted > 9 ? weighted - 9 : weighted
        }
        return body + String((10 - sum % 10) % 10)
    }
}

/// How one simulated terminal speaks its protocol on its own TCP
/// connection; the connection handler stays the same for every protocol.
protocol StreamDeviceCodec {
    /// False when the server never answers fixes (NMEA): the run then counts archived fixes.
    var acknowledges: Bool { get }

    /// The bytes that open the session (login, IMEI handshake, identifier
    /// line), or none when fixes may follow at once.
    mutating func opening() -> [UInt8]

    /// Reads the server's answer to the opening from `bytes`, removing what
    /// it used: true when accepted, false when refused, nil until complete.
    /// Called first with no bytes right after the opening was written.
    mutating func openingAccepted(_ bytes: inout [UInt8]) -> Bool?

    /// Appends one message carrying `fixes` (the first numbered `sequence`,
    /// the others following) and returns the key its acknowledgement names.
    mutating func write(_ fixes: [GeneratedFix], sequence: UInt64, into buffer: inout ByteBuffer) -> UInt64

    /// The keys acknowledged by `bytes`, in arrival order; a partial answer
    /// is kept for the next read.
    mutating func acknowledged(in bytes: ByteBufferView) -> [UInt64]
}

/// How fixes travel in datagrams: each one is answered on its own.
protocol DatagramDeviceCodec: Sendable {
    /// Appends the datagram carrying `fixes` of one device (the first
    /// numbered `sequence`) and returns the key its answer names.
    func write(_ fixes: [GeneratedFix], sequence: UInt64, into buffer: inout ByteBuffer) -> UInt64

    /// The keys a datagram from the server acknowledges.
    func acknowledged(in datagram: ByteBufferView) -> [UInt64]
}
