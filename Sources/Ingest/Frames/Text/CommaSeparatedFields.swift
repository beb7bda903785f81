/// The comma-separated fields of one line, in order, as slices of its bytes.
///
/// Text protocols (ours, NMEA) are rows of fields; walking them in place
/// costs no copy and no String. An empty line has one empty field, and a
/// trailing comma ends with an empty field, as `split(omittingEmptySubsequences: false)` does.
struct CommaSeparatedFields: IteratorProtocol, Sequence {
    let line: UnsafeRawBufferPointer
    /// Where the next field starts; past the end once the last field is read.
    private var position = 0

    init(_ line: UnsafeRawBufferPointer) {
        self.line = line
    }

    /// True once every field has been read.
    var atEnd: Bool { position > line.count }

    mutating func next() -> UnsafeRawBufferPointer? {
        guard position <= line.count else { return nil }
        var end = position
        while end < line.count && line[end] != UInt8(ascii: ",") { end += 1 }
        defer { position = end + 1 }
        return UnsafeRawBufferPointer(rebasing: line[position..<end])
    }
}
