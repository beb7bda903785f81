import FixRecords
import Foundation
import GeoKit
import JSONKit

/// The OsmAnd protocol of the Traccar Client phone app, over HTTP (SPEC I2):
/// a GET or POST whose query string (or form body) holds `id`, `lat`, `lon`,
/// `timestamp`, `speed` (knots), `bearing`, `altitude`, `accuracy`, `batt`...,
/// or a JSON body (newer Traccar Client) with `device_id` and `location`.
///
/// The HTTP listener answers 200 when the fix was decoded and stored, 400
/// with the error's message when not. A device's secret comes in the `key`
/// parameter (``key(query:)``), never in the fix.
public enum OsmAndDecoder {
    /// Decodes a query string (with or without the leading `/?`) or a
    /// form-encoded body. A missing `timestamp` means "now".
    public static func decode(query: String, now: Date) throws(FrameError) -> DeviceFix {
        let parameters = parameters(query)
        guard let deviceId = (parameters["id"] ?? parameters["deviceid"]).flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw reject("missing device identifier: parameter 'id' (or 'deviceid')")
        }
        if var sentence = parameters["gprmc"] {
            let parsed = sentence.withUTF8 { utf8 -> Result<RMCSentence, FrameError>? in
                let bytes = UnsafeRawBufferPointer(utf8)
                guard let start = RMCSentence.talkerOffset(in: bytes) else { return nil }
                return Result { () throws(FrameError) in try RMCSentence.parse(bytes.bytes(start..<bytes.count)) }
            }
            guard let parsed else { throw reject("parameter 'gprmc' holds no RMC sentence") }
            let rmc = try parsed.get()
            return DeviceFix(
                deviceId: deviceId, time: rmc.time, latitude: rmc.latitude, longitude: rmc.longitude,
                speedKmh: rmc.speedKnots * RMCSentence.knotsToKmh, course: rmc.course, valid: rmc.valid)
        }
        var latitudeText = parameters["lat"]
        var longitudeText = parameters["lon"]
        if let location = parameters["location"] {
            let parts = location.split(separator: ",")
            if parts.count == 2 { (latitudeText, longitudeText) = (String(parts[0]), String(parts[1])) }
        }
        let latitude = try number(latitudeText, name: "lat", required: true)!
        let longitude = try number(longitudeText, name: "lon", required: true)!
        let time = try parameters["timestamp"].map { text throws(FrameError) in try timestamp(text) } ?? now
        let valid = parameters["valid"].map { ["true", "1"].contains($0.lowercased()) } ?? true
        let speedKnots = try number(parameters["speed"], name: "speed") ?? 0
        return DeviceFix(
            deviceId: deviceId, time: time, latitude: latitude, longitude: longitude,
            speedKmh: try finite(speedKnots * RMCSentence.knotsToKmh, name: "speed", text: "\(speedKnots) knots"),
            course: try number(parameters["bearing"] ?? parameters["heading"], name: "bearing") ?? 0,
            valid: valid,
            altitude: try number(parameters["altitude"], name: "altitude"),
            accuracy: try number(parameters["accuracy"], name: "accuracy"),
            batteryPercent: try number(parameters["batt"], name: "batt"))
    }

    /// The device's secret in a query string or form body: the `key`
    /// parameter, percent-decoded; nil when absent or empty.
    public static func key(query: String) -> String? {
        parameters(query)["key"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The parameters of a query string (with or without the leading `/?`)
    /// or form body, percent-decoded; the last of a repeated name wins.
    private static func parameters(_ query: String) -> [String: String] {
        var parameters: [String: String] = [:]
        let text = query.hasPrefix("/?") ? query.dropFirst(2) : query.hasPrefix("?") ? query.dropFirst() : Substring(query)
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = percentDecoded(parts[0])
            parameters[key] = parts.count > 1 ? percentDecoded(parts[1]) : ""
        }
        return parameters
    }

    /// Decodes the JSON body of the newer Traccar Client (`device_id`,
    /// `location.timestamp`, `location.coords`, `location.battery`).
    public static func decode(jsonBody: [UInt8], now: Date) throws(FrameError) -> DeviceFix {
        let document: JSONValue
        do {
            document = try JSONParser.parse(Data(jsonBody))
        } catch {
            throw reject("the body is not JSON: \(error)")
        }
        guard let deviceId = (document["device_id"] ?? document["deviceId"] ?? document["id"])?.scalarText, !deviceId.isEmpty
        else { throw reject("missing device identifier: member 'device_id'") }
        guard let location = document["location"], let coords = location["coords"] else {
            throw reject("missing member 'location.coords'")
        }
        guard case .number(let latitude)? = coords["latitude"], case .number(let longitude)? = coords["longitude"] else {
            throw reject("'location.coords' needs numeric 'latitude' and 'longitude'")
        }
        for name in ["latitude", "longitude", "speed", "heading", "altitude", "accuracy"] {
            if case .number(let value)? = coords[name], !value.isFinite {
                throw reject("location.coords.\(name) \(value) is not a finite number")
            }
        }
        if case .number(let level)? = location["battery"]?["level"], !level.isFinite {
            throw reject("location.battery.level \(level) is not a finite number")
        }
        let time = try location["timestamp"]?.scalarText.map { text throws(FrameError) in try timestamp(text) } ?? now
        func positive(_ value: JSONValue?) -> Double? {
            if case .number(let number)? = value, number >= 0 { return number }
            return nil
        }
        let battery = positive(location["battery"]?["level"]).map { $0 <= 1 ? $0 * 100 : $0 }
        let speed = positive(coords["speed"]) ?? 0
        return DeviceFix(
            deviceId: deviceId, time: time, latitude: latitude, longitude: longitude,
            speedKmh: try finite(speed * 3.6, name: "location.coords.speed", text: "\(speed) m/s"),
            course: positive(coords["heading"]) ?? 0, valid: true,
            altitude: { if case .number(let value)? = coords["altitude"] { return value } else { return nil } }(),
            accuracy: positive(coords["accuracy"]), batteryPercent: battery)
    }

    /// Unix seconds, Unix milliseconds (too large to be seconds), ISO 8601,
    /// or `yyyy-MM-dd HH:mm:ss` (read as UTC). A number must be a time
    /// between 1970 and 9999: NaN, infinity or 1e300 would make a date that
    /// passes every check and traps where it becomes an integer.
    static func timestamp(_ text: String) throws(FrameError) -> Date {
        if let number = Double(text) {
            let seconds = number > 100_000_000_000 ? number / 1000 : number
            guard FixTime.isPlausibleUnixTime(seconds) else {
                throw reject("timestamp '\(text)' is not a Unix time between 1970 and 9999")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        let normalized = text.replacingOccurrences(of: " ", with: "T")
        let withZone = normalized.hasSuffix("Z") || normalized.contains("+") ? normalized : normalized + "Z"
        if let date = try? Date(withZone, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        if let date = try? Date(withZone, strategy: .iso8601) { return date }
        throw reject("timestamp '\(text)' is neither Unix seconds, milliseconds nor an ISO 8601 time")
    }

    private static func number(_ text: String?, name: String, required: Bool = false) throws(FrameError) -> Double? {
        guard let text, !text.isEmpty else {
            if required { throw reject("missing parameter '\(name)'") }
            return nil
        }
        guard let value = Double(text), value.isFinite else { throw reject("\(name) '\(text)' is not a number") }
        return value
    }

    /// `value`, or an error naming the field when a unit conversion made it infinite.
    private static func finite(_ value: Double, name: String, text: String) throws(FrameError) -> Double {
        guard value.isFinite else { throw reject("\(name) \(text) is out of range") }
        return value
    }

    private static func percentDecoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    private static func reject(_ message: String) -> FrameError {
        FrameError(.malformed, message, recovery: .skip(0))
    }
}
