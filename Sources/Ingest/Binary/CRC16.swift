/// The two 16-bit CRCs of the binary tracker protocols, table driven.
///
/// Both are reflected CRCs, computed byte-wise with a 256-entry table:
/// - X.25 (the "CRC-ITU" of GT06 documents): polynomial 0x1021 reflected
///   (0x8408), initial value 0xFFFF, final XOR 0xFFFF; check value 0x906E.
/// - IBM/ARC (Teltonika): polynomial 0x8005 reflected (0xA001), initial
///   value 0, no final XOR; check value 0xBB3D.
///
/// Public so that the load generator (Tools/LoadGen) frames GT06 and
/// Teltonika messages with the very CRCs the decoders check.
public enum CRC16 {
    /// CRC-16/X-25 of `bytes`.
    public static func x25(_ bytes: UnsafeRawBufferPointer) -> UInt16 {
        reflected(bytes, table: x25Table, initial: 0xFFFF) ^ 0xFFFF
    }

    /// CRC-16/IBM (ARC) of `bytes`.
    public static func ibm(_ bytes: UnsafeRawBufferPointer) -> UInt16 {
        reflected(bytes, table: ibmTable, initial: 0)
    }

    private static func reflected(_ bytes: UnsafeRawBufferPointer, table: [UInt16], initial: UInt16) -> UInt16 {
        table.withUnsafeBufferPointer { table in
            var crc = initial
            for byte in bytes { crc = (crc >> 8) ^ table[Int((crc ^ UInt16(byte)) & 0xFF)] }
            return crc
        }
    }

    private static let x25Table = makeTable(reflectedPolynomial: 0x8408)
    private static let ibmTable = makeTable(reflectedPolynomial: 0xA001)

    private static func makeTable(reflectedPolynomial: UInt16) -> [UInt16] {
        (0..<256).map { index in
            var crc = UInt16(index)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ reflectedPolynomial : crc >> 1 }
            return crc
        }
    }
}
