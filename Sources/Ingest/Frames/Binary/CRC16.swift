/// The two 16-bit CRCs of the binary tracker protocols, table driven.
///
/// Both are reflected CRCs, computed two bytes per step ("slicing by 2":
/// with a 16-bit register, two bytes replace it entirely, so the result is
/// the one-byte table of the high byte XOR a two-step table of the low
/// byte), which halves the chain of dependent lookups of a byte-wise loop:
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

    private static func reflected(_ bytes: UnsafeRawBufferPointer, table: Tables, initial: UInt16) -> UInt16 {
        table.single.withUnsafeBufferPointer { single in
        table.double.withUnsafeBufferPointer { double in
            var crc = initial
            var index = 0
            while index + 1 < bytes.count {
                crc ^= UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                crc = double[Int(crc & 0xFF)] ^ single[Int(crc >> 8)]
                index += 2
            }
            if index < bytes.count { crc = (crc >> 8) ^ single[Int((crc ^ UInt16(bytes[index])) & 0xFF)] }
            return crc
        }}
    }

    /// The one-byte table and the table of a low byte carried through two steps.
    struct Tables {
        let single: [UInt16]
        let double: [UInt16]

        init(reflectedPolynomial: UInt16) {
            single = (0..<256).map { index in
                var crc = UInt16(index)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ reflectedPolynomial : crc >> 1 }
                return crc
            }
            double = single.map { [single] value in (value >> 8) ^ single[Int(value & 0xFF)] }
        }
    }

    private static let x25Table = Tables(reflectedPolynomial: 0x8408)
    private static let ibmTable = Tables(reflectedPolynomial: 0xA001)
}
