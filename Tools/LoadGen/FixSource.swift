import FixRecords
import Foundation
import GeoKit
import Ingest

/// The box synthetic taxis drive in.
struct Box: Sendable {
    var minLon, minLat, maxLon, maxLat: Double

    init?(text: String) {
        let parts = text.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 4, parts[0] < parts[2], parts[1] < parts[3] else { return nil }
        (minLon, minLat, maxLon, maxLat) = (parts[0], parts[1], parts[2], parts[3])
    }
}

/// One fix as the load generator sends it.
struct GeneratedFix: Sendable {
    var deviceId: String
    var time: Date
    var latitude: Double
    var longitude: Double
    var speedKmh: Double
    var heading: Double
}

/// Where a simulated device's fixes come from.
enum FixSource: Sendable {
    case synthetic(SyntheticDevice)
    case trace(TraceReplay.Device)

    var deviceId: String {
        switch self {
        case .synthetic(let device): device.id
        case .trace(let device): device.id
        }
    }

    /// The next fix, or nil when a replayed trace is exhausted.
    mutating func next() -> GeneratedFix? {
        switch self {
        case .synthetic(var device):
            let fix = device.next()
            self = .synthetic(device)
            return fix
        case .trace(var device):
            let fix = device.next()
            self = .trace(device)
            return fix
        }
    }
}

/// A taxi driving a random walk at city speed inside the box; fix times are
/// the wall clock (minus `lagMillis`) in whole multiples of `stepMillis`, at
/// least `stepMillis` apart so that none is a duplicate.
///
/// A protocol with whole-second times (GT06) uses a step of 1 s; when such
/// a device sends faster than one fix per second its times run ahead of the
/// clock, so it starts `lagMillis` (a day) in the past: the server accepts
/// old fixes as buffered history and archives them all.
struct SyntheticDevice: Sendable {
    let id: String
    let box: Box
    private let stepMillis: Int64
    private let lagMillis: Int64
    private var random: SplitMix64
    private var latitude: Double
    private var longitude: Double
    private var heading: Double
    private var lastMillis: Int64 = 0

    /// Device `id` starting at a random point of `box` drawn from `seed`.
    init(id: String, box: Box, seed: UInt64, stepMillis: Int64 = 1, lagMillis: Int64 = 0) {
        self.id = id
        self.box = box
        self.stepMillis = stepMillis
        self.lagMillis = lagMillis
        random = SplitMix64(state: seed &* 0x9E37_79B9_7F4A_7C15)
        latitude = 0
        longitude = 0
        heading = 0
        latitude = box.minLat + uniform() * (box.maxLat - box.minLat)
        longitude = box.minLon + uniform() * (box.maxLon - box.minLon)
        heading = uniform() * 360
    }

    private mutating func uniform() -> Double {
        random.nextUnit()
    }

    mutating func next() -> GeneratedFix {
        let clock = Int64(Date().timeIntervalSince1970 * 1000) - lagMillis
        let millis = max(clock / stepMillis * stepMillis, lastMillis + stepMillis)
        lastMillis = millis
        let now = Date(timeIntervalSince1970: Double(millis) / 1000)
        heading = (heading + (uniform() - 0.5) * 40).truncatingRemainder(dividingBy: 360)
        if heading < 0 { heading += 360 }
        let step = 0.00005 * uniform()
        latitude = min(max(latitude + step * cos(heading * .pi / 180), box.minLat), box.maxLat)
        longitude = min(max(longitude + step * sin(heading * .pi / 180), box.minLon), box.maxLon)
        return GeneratedFix(deviceId: id, time: now, latitude: latitude, longitude: longitude,
                            speedKmh: 10 + 40 * uniform(), heading: heading)
    }
}

/// A CSV trace of real or recorded fixes, grouped by device, in time order.
enum TraceReplay {
    struct Device: Sendable {
        let id: String
        var fixes: [GeneratedFix]
        var position = 0

        mutating func next() -> GeneratedFix? {
            guard position < fixes.count else { return nil }
            defer { position += 1 }
            return fixes[position]
        }
    }

    /// Reads `device_id,time,lat,lon,speed_kmh,heading` lines; names the bad line.
    static func load(path: String) throws -> [Device] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw LoadGenError("cannot read the trace \(path)")
        }
        var byDevice: [String: [GeneratedFix]] = [:]
        for (number, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if number == 0 && fields.first == "device_id" { continue }
            guard fields.count >= 6, let time = FixTime.date(iso8601: fields[1]),
                let lat = Double(fields[2]), let lon = Double(fields[3]),
                let speed = Double(fields[4]), let heading = Double(fields[5])
            else {
                throw LoadGenError("\(path):\(number + 1): expected device_id,time_iso8601,lat,lon,speed_kmh,heading")
            }
            byDevice[fields[0], default: []].append(
                GeneratedFix(deviceId: fields[0], time: time, latitude: lat, longitude: lon, speedKmh: speed, heading: heading))
        }
        return byDevice.keys.sorted().map { Device(id: $0, fixes: byDevice[$0]!.sorted { $0.time < $1.time }) }
    }
}

struct LoadGenError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
