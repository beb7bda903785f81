/// The limits fixes are checked against (SPEC I3); defaults suit a city
/// taxi fleet whose terminals report every 30 s and may buffer while offline.
public struct ValidationRules: Sendable, Equatable {
    /// How far ahead of the server clock a fix time may be (terminal clock skew).
    public var maxFutureSeconds: Double = 300
    /// How old a fix may be (terminals buffer fixes when out of coverage).
    public var maxAgeSeconds: Double = 7 * 24 * 3600
    /// Speed above which a jump between two fixes is implausible for a car.
    public var maxJumpSpeedKmh: Double = 250
    /// A jump shorter than this is never implausible (GPS noise at standstill).
    public var jumpToleranceMetres: Double = 200
    /// Fixes with an invalid GPS flag are rejected unless this is true.
    public var acceptInvalidGPS = false

    public init() {}
}
