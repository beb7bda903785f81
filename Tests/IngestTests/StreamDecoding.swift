import Testing
@testable import Ingest

/// Runs a stream decoder over bytes as one connection would, for tests.
enum StreamDecoding {
    /// Every whole frame in `bytes`, or the first error; bytes left that do
    /// not make a whole frame are ignored (the connection would wait for more).
    static func frames<D: StreamFrameDecoder>(_ bytes: [UInt8], with decoder: inout D) -> Result<[DecodedFrame], FrameError> {
        var frames: [DecodedFrame] = []
        var offset = 0
        while offset < bytes.count {
            let outcome: Result<DecodedFrame?, FrameError> = bytes[offset...].withUnsafeBytes { raw in
                do throws(FrameError) { return .success(try decoder.decodeFrame(raw)) } catch { return .failure(error) }
            }
            switch outcome {
            case .failure(let error): return .failure(error)
            case .success(nil): return .success(frames)
            case .success(let frame?):
                frames.append(frame)
                offset += frame.length
            }
        }
        return .success(frames)
    }

    /// Feeds `bytes` one byte at a time, as a slow-drip connection delivers
    /// them, keeping unconsumed bytes buffered; returns the frames decoded.
    static func frames<D: StreamFrameDecoder>(drippedOneByteAtATime bytes: [UInt8], with decoder: inout D) throws(FrameError) -> [DecodedFrame] {
        var buffered: [UInt8] = []
        var frames: [DecodedFrame] = []
        for byte in bytes {
            buffered.append(byte)
            let outcome: Result<DecodedFrame?, FrameError> = buffered.withUnsafeBytes { raw in
                do throws(FrameError) { return .success(try decoder.decodeFrame(raw)) } catch { return .failure(error) }
            }
            if let frame = try outcome.get() {
                frames.append(frame)
                buffered.removeFirst(frame.length)
            }
        }
        return frames
    }

    /// Records an issue unless `outcome` is a failure for `reason`: a vector
    /// the decoder refuses on purpose.
    static func expectRejection(_ outcome: Result<[DecodedFrame], FrameError>, as reason: FrameError.Reason, vector: String,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .failure(let error) = outcome else {
            Issue.record("\(vector) should be rejected as \(reason)", sourceLocation: sourceLocation)
            return
        }
        #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
    }

    /// Upper-case hex of `bytes`, as the vectors write replies.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }
}
