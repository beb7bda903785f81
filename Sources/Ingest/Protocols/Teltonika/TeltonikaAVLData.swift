import Foundation

/// The AVL data field shared by Teltonika's TCP and UDP framings:
///
///     codec ID (1) | record count N (1) | N records | N again (1)
///
/// Codec 8 (0x08), Codec 8 Extended (0x8E) and Codec 16 (0x10) carry
/// positions; Codec 12/13 (0x0C/0x0D) carry command text and no position.
/// A record: timestamp ms (8), priority (1), longitude and latitude
/// (signed, degrees × 10^7), altitude (2), angle (2), satellites (1),
/// speed km/h (2), then the IO elements whose ID and count widths depend on
/// the codec. A record without satellites has no fix (sent as invalid).
enum TeltonikaAVLData {
    /// What the data field held.
    enum Content {
        /// Position records, oldest first as sent.
        case positions([DeviceFix])
        /// A command or command reply (Codec 12/13): nothing to store, nothing to acknowledge.
        case command
    }

    static let codec8: UInt8 = 0x08
    static let codec8Extended: UInt8 = 0x8E
    static let codec16: UInt8 = 0x10
    static let codec12: UInt8 = 0x0C
    static let codec13: UInt8 = 0x0D
    /// IO element 113: battery level in percent, a one-byte element.
    static let batteryLevelIO = 113

    /// Decodes the whole data field in `reader` for `deviceId`; every byte must be used.
    static func decode(_ reader: inout ByteReader, deviceId: String) throws(FrameError) -> Content {
        let codec = try reader.uint8("codec id")
        if codec == codec12 || codec == codec13 { return .command }
        guard codec == codec8 || codec == codec8Extended || codec == codec16 else {
            throw FrameError(.unsupported, "codec \(codec.hexText) is not Codec 8, 8 Extended or 16", recovery: reader.recovery)
        }
        let count = Int(try reader.uint8("record count"))
        var fixes: [DeviceFix] = []
        fixes.reserveCapacity(count)
        for _ in 0..<count {
            fixes.append(try record(&reader, codec: codec, deviceId: deviceId))
        }
        let trailer = Int(try reader.uint8("second record count"))
        guard trailer == count else {
            throw FrameError(.malformed, "record count \(count) at the start but \(trailer) at the end", recovery: reader.recovery)
        }
        guard reader.remaining == 0 else {
            throw FrameError(.malformed, "\(reader.remaining) byte(s) after the last record", recovery: reader.recovery)
        }
        return .positions(fixes)
    }

    private static func record(_ reader: inout ByteReader, codec: UInt8, deviceId: String) throws(FrameError) -> DeviceFix {
        let milliseconds = try reader.uint64("timestamp")
        let priority = try reader.uint8("priority")
        let longitude = Double(Int32(bitPattern: try reader.uint32("longitude"))) / 10_000_000
        let latitude = Double(Int32(bitPattern: try reader.uint32("latitude"))) / 10_000_000
        let altitude = Double(Int16(bitPattern: try reader.uint16("altitude")))
        let angle = Double(try reader.uint16("angle"))
        let satellites = Int(try reader.uint8("satellites"))
        let speed = Double(try reader.uint16("speed"))
        let battery = try ioElements(&reader, codec: codec)
        guard milliseconds < 32_503_680_000_000 else {
            throw FrameError(.malformed, "timestamp \(milliseconds) ms is beyond the year 3000", recovery: reader.recovery)
        }
        return DeviceFix(
            deviceId: deviceId, time: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
            latitude: latitude, longitude: longitude, speedKmh: speed, course: angle, valid: satellites > 0,
            altitude: altitude, satellites: satellites, batteryPercent: battery.map { Double($0) },
            alarm: priority == 2 ? "panic" : nil)
    }

    /// Walks the IO elements of one record; returns the battery level when sent.
    private static func ioElements(_ reader: inout ByteReader, codec: UInt8) throws(FrameError) -> UInt64? {
        let extended = codec == codec8Extended
        let idWidth = codec == codec8 ? 1 : 2
        let countWidth = extended ? 2 : 1
        try reader.skip(codec == codec8 ? 1 : 2, "event io id")
        if codec == codec16 { try reader.skip(1, "generation type") }
        try reader.skip(countWidth, "io count")
        var battery: UInt64?
        for widthShift in 0..<4 {
            let valueWidth = 1 << widthShift
            let count = Int(try reader.unsigned(countWidth, "io group count"))
            // The battery level is a one-byte element: only that group is
            // searched, the wider groups are stepped over whole.
            guard valueWidth == 1 else {
                try reader.skip(count * (idWidth + valueWidth), "io group")
                continue
            }
            for _ in 0..<count {
                if try reader.unsigned(idWidth, "io id") == batteryLevelIO {
                    battery = try reader.unsigned(valueWidth, "io value")
                } else {
                    try reader.skip(valueWidth, "io value")
                }
            }
        }
        if extended {
            let count = try reader.unsigned(2, "variable io count")
            for _ in 0..<count {
                try reader.skip(2, "io id")
                let length = Int(try reader.uint16("io length"))
                try reader.skip(length, "io value")
            }
        }
        return battery
    }
}
