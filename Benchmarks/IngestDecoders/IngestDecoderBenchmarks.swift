import Benchmark
import Foundation
import Ingest

/// Frames per second per core for every wire-protocol decoder, on real
/// frames (GT06 and Teltonika ones from Traccar's test suite): a buffer of
/// 1,024 copies decoded back to back, as a busy connection delivers them;
/// then what every decoded fix goes through next (``pipelineBenchmark()``).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal], warmupIterations: 1,
        scalingFactor: .mega, maxDuration: .seconds(3), maxIterations: 20)

    let imei = "353419036066061"
    streamBenchmark("GT06 location 0x12", GT06Decoder.self, identity: imei, frame: hex(
        "787823120F081B121D37CB01C8E2CC08AFD3C020D50201940701D600A1190041EE100576D1470D0A"))
    streamBenchmark("Teltonika Codec 8, 1 record", TeltonikaDecoder.self, identity: imei, frame: hex(
        "000000000000004C08010000016818D500580009C28D9F1CB3757A00BE00C60F0053000F06F0011503C80001011D00FC0007423799180053CDF80DCE426F430F88190BB8560BB802F100005AA110002887E000010000EE8D"))
    streamBenchmark("Line protocol", LineProtocolDecoder.self, identity: nil, frame: Array(
        "MT1,TAXI-0042,17,2026-11-23T08:00:05Z,40.758897,-73.985130,23.5,271,A\n".utf8))
    streamBenchmark("NMEA $GPRMC", NMEADecoder.self, identity: nil, frame: Array(
        "TAXI-42,$GPRMC,080005.250,A,4045.5338,N,07359.1078,W,12.5,271.0,231126,,,A*4F\r\n".utf8))

    let data = hex("08010000016818D500580009C28D9F1CB3757A00BE00C60F0053000F06F0011503C80001011D00FC0007423799180053CDF80DCE426F430F88190BB8560BB802F100005AA110002887E0000100")
    let body: [UInt8] = [0xCA, 0xFE, 0x01, 0x22, 0x00, 0x0F] + Array(imei.utf8) + data
    let datagram = [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    Benchmark("Teltonika UDP datagram, 1 record") { benchmark in
        datagram.withUnsafeBytes { raw in
            for _ in benchmark.scaledIterations {
                blackHole(try? TeltonikaDatagramDecoder.decodeDatagram(raw))
            }
        }
    }

    pipelineBenchmark()
}

/// Decodes `frame` repeated 1,024 times on one session, once per iteration.
func streamBenchmark<D: StreamFrameDecoder>(_ name: String, _ type: D.Type, identity: String?, frame: [UInt8]) {
    let copies = 1024
    let stream = Array([[UInt8]](repeating: frame, count: copies).joined())
    Benchmark("\(name) frames") { benchmark in
        var decoder = D()
        if let identity { decoder.assumeIdentity(identity) }
        stream.withUnsafeBytes { raw in
            var offset = 0
            for _ in benchmark.scaledIterations {
                if offset == raw.count { offset = 0 }
                let decoded = try? decoder.decodeFrame(UnsafeRawBufferPointer(rebasing: raw[offset...]))
                offset += decoded?.length ?? frame.count
                blackHole(decoded)
            }
        }
    }
}

/// Bytes of an upper-case hex string.
func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}
