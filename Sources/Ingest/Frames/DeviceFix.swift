import Foundation

/// One position report exactly as a terminal sent it, decoded from the wire
/// but not yet validated (SPEC I3 decides whether it is kept).
///
/// Protocol-neutral: every decoder produces this, so validation, zone
/// assignment and the archive never see a wire format.
public struct DeviceFix: Sendable, Equatable {
    /// The terminal's identifier: the IMEI for GT06 and Teltonika, the `id`
    /// parameter for OsmAnd, the device field of the line and NMEA protocols.
    public var deviceId: String
    /// When the terminal took the fix (UTC).
    public var time: Date
    /// Degrees north, WGS84.
    public var latitude: Double
    /// Degrees east, WGS84.
    public var longitude: Double
    /// Ground speed in km/h (knots are converted by the decoder).
    public var speedKmh: Double
    /// Course over ground in degrees clockwise from north.
    public var course: Double
    /// The terminal's own GPS-fix flag; false means "last known position".
    public var valid: Bool
    /// Metres above sea level, when sent.
    public var altitude: Double?
    /// Satellites in use, when sent.
    public var satellites: Int?
    /// Horizontal accuracy in metres, when sent.
    public var accuracy: Double?
    /// Battery level in percent, when sent.
    public var batteryPercent: Double?
    /// An alarm the terminal raised with this fix (e.g. `sos`), when any.
    public var alarm: String?

    public init(
        deviceId: String, time: Date, latitude: Double, longitude: Double,
        speedKmh: Double, course: Double, valid: Bool,
        altitude: Double? = nil, satellites: Int? = nil, accuracy: Double? = nil,
        batteryPercent: Double? = nil, alarm: String? = nil
    ) {
        self.deviceId = deviceId
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.speedKmh = speedKmh
        self.course = course
        self.valid = valid
        self.altitude = altitude
        self.satellites = satellites
        self.accuracy = accuracy
        self.batteryPercent = batteryPercent
        self.alarm = alarm
    }
}

extension DeviceFix {
    /// True when every number of the fix is finite: its time, coordinates,
    /// speed, heading, and altitude, accuracy and battery when sent. A NaN
    /// compares false with everything, so it would slip through every range
    /// check after it and trap where a time becomes an integer.
    public var hasFiniteNumbers: Bool {
        time.timeIntervalSince1970.isFinite && latitude.isFinite && longitude.isFinite && speedKmh.isFinite
            && course.isFinite && (altitude?.isFinite ?? true) && (accuracy?.isFinite ?? true)
            && (batteryPercent?.isFinite ?? true)
    }
}
