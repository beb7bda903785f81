import Foundation

/// The wire protocols the simulated terminals speak, as real fleets mix
/// them: our line protocol, Teltonika (Codec 8 over TCP) and Concox GT06.
public enum TerminalKind: String, CaseIterable, Sendable, Hashable {
    /// Our text protocol (docs/line-protocol.md), one line per fix.
    case line
    /// Teltonika Codec 8 over TCP, after the IMEI handshake.
    case teltonika
    /// Concox GT06 location frames, after the login frame.
    case gt06

    /// The terminal of the `index`-th taxi (from 0): the protocols in turn.
    public static func of(taxi index: Int) -> TerminalKind {
        allCases[index % allCases.count]
    }

    /// The taxi id of the `index`-th taxi (from 0): `TX000001`...
    public static func taxiId(_ index: Int) -> String {
        String(format: "TX%06d", index + 1)
    }

    /// The device id of the `index`-th taxi's terminal: `sim-TX000001` on
    /// the line protocol; on the binary ones, which carry nothing else, a
    /// 15-digit IMEI (`86`, 12 digits of the index and the Luhn check digit).
    public static func deviceId(_ index: Int) -> String {
        switch of(taxi: index) {
        case .line: "sim-" + taxiId(index)
        case .teltonika, .gt06: imei(index + 1)
        }
    }

    /// The devices file (`device_id,taxi_id`) of a fleet of `taxis` taxis.
    public static func devicesFile(taxis: Int) -> String {
        "device_id,taxi_id\n" + (0..<taxis).map { "\(deviceId($0)),\(taxiId($0))\n" }.joined()
    }

    private static func imei(_ number: Int) -> String {
        let body = "86" + String(format: "%012d", number)
        var sum = 0
        for (position, character) in body.reversed().enumerated() {
            let digit = Int(character.asciiValue ?? 48) - 48
            let weighted = position % 2 == 0 ? digit * 2 : digit
            sum += weighted > 9 ? weighted - 9 : weighted
        }
        return body + String((10 - sum % 10) % 10)
    }
}
