import Foundation
import Ingest

/// Drives decoders the way the listeners do and traps (so that the fuzzer
/// reports the input) when a fix comes out that the rest of the service
/// could not take.
enum FuzzOracle {
    /// Latest time whose milliseconds still fit an Int64, with a margin.
    static let largestSeconds = 9.0e15

    /// Traps unless every number of `fix` is finite and its time fits.
    static func check(_ fix: DeviceFix, from source: String) {
        guard fix.hasFiniteNumbers, abs(fix.time.timeIntervalSince1970) < largestSeconds else {
            fatalError("\(source) produced a fix the service cannot take: \(fix)")
        }
    }

    /// Decodes `bytes` as one connection's stream, checking every fix.
    static func stream<D: StreamFrameDecoder>(_ bytes: UnsafeRawBufferPointer, with decoder: D) {
        forEachFrame(in: bytes, decoder: decoder) { frame in frame.fixes.forEach { check($0, from: "\(D.self)") } }
    }

    /// Runs `body` on every frame of `bytes` read as one connection's stream,
    /// as the stream handler does: frames one after the other, skipping or
    /// stopping as each error says.
    static func forEachFrame<D: StreamFrameDecoder>(
        in bytes: UnsafeRawBufferPointer, decoder: D, _ body: (DecodedFrame) -> Void
    ) {
        var decoder = decoder
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            switch Result(catching: { () throws(FrameError) in try decoder.decodeFrame(rest) }) {
            case .success(nil):
                return
            case .success(let frame?):
                body(frame)
                offset += min(max(frame.length, 1), rest.count)
            case .failure(let error):
                guard case .skip(let count) = error.recovery else { return }
                offset += min(max(count, 1), rest.count)
            }
        }
    }

    /// Decodes `bytes` as one datagram.
    static func datagram<D: DatagramDecoder>(_ bytes: UnsafeRawBufferPointer, with decoder: D.Type) {
        if let frame = try? D.decodeDatagram(bytes) {
            frame.fixes.forEach { check($0, from: "\(D.self)") }
        }
    }

    /// An OsmAnd request: a first byte of `{` is a JSON body, anything
    /// else a query string or form body.
    static func osmand(_ bytes: UnsafeRawBufferPointer) {
        let now = Date(timeIntervalSince1970: 1_795_420_800)
        let fix: DeviceFix?
        if bytes.first == UInt8(ascii: "{") {
            fix = try? OsmAndDecoder.decode(jsonBody: Array(bytes), now: now)
        } else {
            fix = try? OsmAndDecoder.decode(query: String(decoding: bytes, as: UTF8.self), now: now)
        }
        fix.map { check($0, from: "OsmAndDecoder") }
    }
}
