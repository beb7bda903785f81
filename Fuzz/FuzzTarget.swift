import Fleet
import Foundation
import Ingest

/// One coverage-guided fuzz target: a decoder (or the decoder, validator and
/// pipeline together) fed whatever bytes the fuzzer makes. Each target
/// checks the same oracle: nothing traps, and no fix leaves a decoder or the
/// pipeline with a number that is not finite or a time that cannot become
/// milliseconds.
enum FuzzTarget: String, CaseIterable {
    case line, nmea, osmand, teltonika, teltonikaUDP = "teltonika-udp", gt06, lineUDP = "line-udp", pipeline

    /// Runs one input through the target.
    func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .line: FuzzOracle.stream(bytes, with: LineProtocolDecoder())
        case .nmea: FuzzOracle.stream(bytes, with: NMEADecoder())
        case .teltonika: FuzzOracle.stream(bytes, with: TeltonikaDecoder())
        case .gt06: FuzzOracle.stream(bytes, with: GT06Decoder())
        case .teltonikaUDP: FuzzOracle.datagram(bytes, with: TeltonikaDatagramDecoder.self)
        case .lineUDP: FuzzOracle.datagram(bytes, with: LineProtocolDecoder.self)
        case .osmand: FuzzOracle.osmand(bytes)
        case .pipeline: PipelineFuzz.run(bytes)
        }
    }

    /// The target named by `MYTAXI_FUZZ_TARGET` (libFuzzer passes no
    /// arguments of ours), or by `name`.
    static func named(_ name: String?) -> FuzzTarget? {
        (name ?? ProcessInfo.processInfo.environment["MYTAXI_FUZZ_TARGET"]).flatMap(FuzzTarget.init(rawValue:))
    }
}
