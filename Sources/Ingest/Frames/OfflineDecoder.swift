import FixRecords
import Foundation

/// Decodes a captured frame (or an OsmAnd request) away from any
/// connection, as an operator debugging a device does (`mytaxi decode`).
public enum OfflineDecoder {
    /// The identity stamped on fixes of a frame copied out of a session
    /// whose login was not part of the input.
    public static let assumedDeviceId = "(no login in the input)"

    /// Every frame in `bytes`, decoded with a fresh session of `wireProtocol`.
    /// Throws on the first bad frame, or when bytes are left that do not
    /// make a whole frame. `now` stands in for a missing OsmAnd timestamp.
    public static func decode(_ bytes: [UInt8], as wireProtocol: WireProtocol, now: Date = Date()) throws(FrameError) -> [DecodedFrame] {
        switch wireProtocol {
        case .line: return try decodeStream(bytes, with: LineProtocolDecoder())
        case .nmea: return try decodeStream(bytes, with: NMEADecoder())
        case .osmand: return [try decodeOsmAnd(bytes, now: now)]
        case .teltonika: return try decodeStream(bytes, with: TeltonikaDecoder())
        case .teltonikaUDP:
            let outcome: Result<DecodedFrame, FrameError> = bytes.withUnsafeBytes { raw in
                do throws(FrameError) { return .success(try TeltonikaDatagramDecoder.decodeDatagram(raw)) } catch { return .failure(error) }
            }
            return [try outcome.get()]
        case .gt06: return try decodeStream(bytes, with: GT06Decoder())
        }
    }

    private static func decodeOsmAnd(_ bytes: [UInt8], now: Date) throws(FrameError) -> DecodedFrame {
        let isJSON = bytes.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }) == UInt8(ascii: "{")
        let fix = isJSON
            ? try OsmAndDecoder.decode(jsonBody: bytes, now: now)
            : try OsmAndDecoder.decode(query: String(decoding: bytes, as: UTF8.self), now: now)
        return DecodedFrame(length: bytes.count, kind: .position, fixes: [fix])
    }

    private static func decodeStream<D: StreamFrameDecoder>(_ bytes: [UInt8], with fresh: D) throws(FrameError) -> [DecodedFrame] {
        var decoder = fresh
        var frames: [DecodedFrame] = []
        var offset = 0
        var assumed = false
        while offset < bytes.count {
            let outcome: Result<DecodedFrame?, FrameError> = bytes[offset...].withUnsafeBytes { raw in
                do throws(FrameError) { return .success(try decoder.decodeFrame(raw)) } catch { return .failure(error) }
            }
            switch outcome {
            case .success(let frame?):
                frames.append(frame)
                offset += max(frame.length, 1)
            case .success(nil):
                throw FrameError(
                    .malformed, "incomplete frame: \(bytes.count - offset) byte(s) at offset \(offset) do not make a whole frame",
                    recovery: .closeConnection)
            case .failure(let error) where error.reason == .notIdentified && !assumed:
                decoder.assumeIdentity(assumedDeviceId)
                assumed = true
            case .failure(let error):
                throw FrameError(error.reason, "at byte offset \(offset): \(error.message)", recovery: error.recovery)
            }
        }
        return frames
    }
}
