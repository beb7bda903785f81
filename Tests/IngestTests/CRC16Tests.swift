import Testing
@testable import Ingest

@Suite(.timeLimit(.minutes(20))) struct CRC16Tests {
    /// The catalogued check values of "123456789", and odd and even lengths
    /// against a plain bit-by-bit computation.
    @Test func checkValuesAndEveryLengthAgreeWithTheBitwiseDefinition() {
        let check = Array("123456789".utf8)
        #expect(check.withUnsafeBytes { CRC16.x25($0) } == 0x906E)
        #expect(check.withUnsafeBytes { CRC16.ibm($0) } == 0xBB3D)
        var random = SystemRandomNumberGenerator()
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(bytes.withUnsafeBytes { CRC16.x25($0) } == Self.bitwise(bytes, polynomial: 0x8408, initial: 0xFFFF) ^ 0xFFFF)
            #expect(bytes.withUnsafeBytes { CRC16.ibm($0) } == Self.bitwise(bytes, polynomial: 0xA001, initial: 0))
        }
    }

    static func bitwise(_ bytes: [UInt8], polynomial: UInt16, initial: UInt16) -> UInt16 {
        var crc = initial
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1 }
        }
        return crc
    }
}
