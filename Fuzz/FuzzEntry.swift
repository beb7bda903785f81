import Foundation

#if FUZZING
/// libFuzzer's driver, which runs the fuzzing loop over `callback`.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target of this run, read once: the environment is costly to read per input.
let fuzzedTarget = FuzzTarget.named(nil)

/// The program's entry point under the fuzzer (SwiftPM names an executable's
/// main `<module>_main`): libFuzzer's driver over the target named by
/// `MYTAXI_FUZZ_TARGET`, with libFuzzer's own flags (see Tools/fuzz.sh).
@_cdecl("mytaxi_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    guard fuzzedTarget != nil else {
        fatalError("set MYTAXI_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv) { data, size in
        fuzzedTarget?.run(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}
#else
/// Without the fuzzer: `mytaxi-fuzz TARGET FILE...` replays inputs (a seed
/// corpus, a crash the fuzzer saved) through a target, for tests and for
/// checking a fix.
@main
struct FuzzReplay {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget.named(name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: mytaxi-fuzz \(names) FILE...\n".utf8))
            exit(2)
        }
        for path in arguments.dropFirst() {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            bytes.withUnsafeBytes { target.run($0) }
        }
        print("\(arguments.count - 1) inputs replayed through \(target.rawValue) without a finding")
    }
}
#endif
