extension FixedWidthInteger {
    /// The value as `0x` and upper-case hex digits padded to its width
    /// (`0x0D`, `0xABEC`), as frame bytes are named in error messages.
    var hexText: String {
        let digits = String(self, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: Swift.max(0, bitWidth / 4 - digits.count)) + digits
    }
}
