import FixRecords
import Foundation

/// The 18-byte GPS block that starts GT06 location and alarm messages:
///
///     YY MM DD hh mm ss | info (length << 4 | satellites) | lat (4) | lon (4)
///     | speed km/h (1) | course and status (2)
///
/// Coordinates are minutes × 30,000 (degrees = raw / 1,800,000). Status
/// bits: 0-9 course, 10 north latitude, 11 west longitude, 12 GPS fixed.
enum GT06GPSBlock {
    /// Reads the block and makes the fix of `deviceId` from it.
    static func read(_ content: inout ByteReader, deviceId: String) throws(FrameError) -> DeviceFix {
        let year = Int(try content.uint8("year")) + 2000
        let month = Int(try content.uint8("month"))
        let day = Int(try content.uint8("day"))
        let hour = Int(try content.uint8("hour"))
        let minute = Int(try content.uint8("minute"))
        let second = Int(try content.uint8("second"))
        guard let time = FixTime.date(year: year, month: month, day: day, hour: hour, minute: minute, second: Double(second)) else {
            throw FrameError(
                .malformed, "GPS time \(year)-\(month)-\(day) \(hour):\(minute):\(second) is not a date",
                recovery: content.recovery)
        }
        let satellites = Int(try content.uint8("GPS info") & 0x0F)
        let rawLatitude = Double(try content.uint32("latitude")) / 1_800_000
        let rawLongitude = Double(try content.uint32("longitude")) / 1_800_000
        let speed = Double(try content.uint8("speed"))
        let status = try content.uint16("course and status")
        return DeviceFix(
            deviceId: deviceId, time: time,
            latitude: status & 0x0400 != 0 ? rawLatitude : -rawLatitude,
            longitude: status & 0x0800 != 0 ? -rawLongitude : rawLongitude,
            speedKmh: speed, course: Double(status & 0x03FF), valid: status & 0x1000 != 0,
            satellites: satellites)
    }
}
