import Foundation

/// Numbers written in ASCII, read straight from a frame's bytes without
/// making a String, so text decoders allocate nothing per field.
enum ASCIINumber {
    /// A decimal number such as `-73.985432`, `+12` or `.25`; nil for
    /// anything else (exponents, `inf`, more than 18 digits).
    static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard !bytes.isEmpty, bytes.count <= 32 else { return nil }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if let digit = digit(byte) {
                guard digits < 18 else { return nil }
                mantissa = mantissa * 10 + UInt64(digit)
                digits += 1
                if seenPoint { scale += 1 }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(mantissa) / powersOfTen[scale]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...18).map { pow(10, Double($0)) }

    /// An unsigned integer of 1 to 19 decimal digits, nothing else.
    static func unsigned(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 19 else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard let digit = digit(byte) else { return nil }
            value = value * 10 + UInt64(digit)
        }
        return value
    }

    /// The value of an ASCII decimal digit.
    @inline(__always)
    static func digit(_ byte: UInt8) -> UInt8? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : nil
    }

    /// The value of an ASCII hexadecimal digit, upper or lower case.
    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
