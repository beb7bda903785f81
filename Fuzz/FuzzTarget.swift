import Fleet
import Foundation
import Ingest

/// One coverage-guided fuzz target: a decoder (or the decoder, validator and
/// pipeline together), or a reader of what users upload or configure (a
/// zone set, a graph file, a speed profile, serve's config file), fed
/// whatever bytes the fuzzer makes. Every target checks that nothing traps;
/// the decoders and the pipeline that no fix has a number that is not
/// finite or a time that cannot become milliseconds; the readers what each
/// says.
enum FuzzTarget: String, CaseIterable {
    case line, nmea, osmand, teltonika, teltonikaUDP = "teltonika-udp", gt06, lineUDP = "line-udp", pipeline
    case zonesUpload = "zones-upload", graphFile = "graph-file", speedProfile = "speed-profile", serveConfig = "serve-config"

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
        case .zonesUpload: ZonesUploadFuzz.run(bytes)
        case .graphFile: GraphFileFuzz.run(bytes)
        case .speedProfile: SpeedProfileFuzz.run(bytes)
        case .serveConfig: ServeConfigFuzz.run(bytes)
        }
    }

    /// The target named by `MYTAXI_FUZZ_TARGET` (libFuzzer passes no
    /// arguments of ours), or by `name`.
    static func named(_ name: String?) -> FuzzTarget? {
        (name ?? ProcessInfo.processInfo.environment["MYTAXI_FUZZ_TARGET"]).flatMap(FuzzTarget.init(rawValue:))
    }
}
