import Foundation
import Testing
@testable import JSONKit

/// ``JSONWriter`` writes numbers as `JSONEncoder` does, on its fast paths
/// (whole numbers, tenths, degrees at 7 decimals) and off them, so that the
/// dispatch log reads back what it wrote and the API's hand-written
/// documents match its `Codable` ones.
@Suite(.timeLimit(.minutes(20))) struct JSONWriterTests {
    /// `value`'s JSON text as `JSONEncoder` writes it.
    static func encoded(_ value: Double) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func written(_ write: (inout JSONWriter) throws -> Void) rethrows -> String {
        var writer = JSONWriter(capacity: 8)
        try write(&writer)
        return String(decoding: writer.finish(), as: UTF8.self)
    }

    @Test func numbersAreWrittenAsJSONEncoderWritesThem() throws {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.1, -0.1, 1, -1, 0.05, 1e14 - 1, 1e14, 1e14 - 0.5, 123_456.7, 9_007_199_254_740_992,
                                1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -2.2250738585072014e-308, 359.99999999999994]
        for _ in 0..<20_000 {
            values.append(Double(Int64.random(in: -1_000_000_000...1_000_000_000, using: &generator)) / 10)
            values.append(Double(Int64.random(in: -100_000...100_000, using: &generator)))
            values.append(Double.random(in: -1e6...1e6, using: &generator))
            values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
        }
        for value in values where value.isFinite {
            #expect(try Self.written { try $0.double(value) } == Self.encoded(value), "\(value)")
        }
    }

    @Test func degreesAreTheirValueAtSevenDecimalsAsJSONEncoderWritesIt() throws {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 1e-7, -1e-7, 4e-8, 0.0001, 0.00009999999, -0.00012, 180, -180, 179.99999995, 40.71283333333333]
        for _ in 0..<50_000 {
            values.append(Double.random(in: -180...180, using: &generator))
            values.append(Double.random(in: -0.001...0.001, using: &generator))
            values.append(Double(Int.random(in: -1_800_000_000...1_800_000_000, using: &generator)) / 10_000_000)
        }
        for value in values {
            let written = try Self.written { try $0.degrees(value) }
            #expect(written == (try Self.encoded(JSONWriter.roundedDegrees(value))), "\(value)")
            #expect(abs(Double(written)! - value) <= 0.5e-7 + 1e-12, "\(value) within half of the last decimal")
        }
        #expect(try Self.written { try $0.degrees(-0.00000004) } == "0")
        #expect(try Self.written { try $0.degrees(-73.98765432101234) } == "-73.9876543")
        #expect(throws: EncodingError.self) { try Self.written { try $0.degrees(.nan) } }
    }

    @Test func aDocumentGrowsPastItsFirstCapacity() {
        let text = String(repeating: "taxi/\"", count: 1000)
        let written = Self.written { writer in
            writer.raw("[")
            writer.string(text)
            writer.raw(",")
            writer.unsigned(UInt64.max)
            writer.raw("]")
        }
        #expect(written == "[\"\(text.replacingOccurrences(of: "/", with: "\\/").replacingOccurrences(of: "\"", with: "\\\""))\",18446744073709551615]")
    }
}
