import Foundation

/// Reads standard input (or any file descriptor) line by line in large
/// chunks, for commands that stream millions of lines.
struct LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false

    init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    /// Calls `body` with each line's bytes (without the line ending) until input ends.
    mutating func forEachLine(_ body: (ArraySlice<UInt8>) throws -> Void) rethrows {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                try body(buffer[start..<end])
                start = newline + 1
                continue
            }
            if finished {
                if start < buffer.count { try body(buffer[start...]) }
                return
            }
            refill()
        }
    }

    private mutating func refill() {
        buffer.removeSubrange(0..<start)
        start = 0
        let chunk = 1 << 20
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            read(descriptor, pointer.baseAddress! + oldCount, chunk)
        }
        buffer.removeLast(chunk - max(0, count))
        if count <= 0 { finished = true }
    }
}

/// Buffers output bytes and writes them to standard output in large blocks.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(1 << 16)
    }

    mutating func append<C: Collection<UInt8>>(_ line: C) {
        bytes.append(contentsOf: line)
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        bytes.withUnsafeBufferPointer { pointer in
            var offset = 0
            while offset < pointer.count {
                let written = write(STDOUT_FILENO, pointer.baseAddress! + offset, pointer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// Parses comma-separated decimal numbers (spaces allowed around them) from a line.
///
/// Returns nil when a field is not a number; `strtod` rounds exactly.
func parseNumbers(_ line: ArraySlice<UInt8>, count: Int) -> [Double]? {
    var values: [Double] = []
    values.reserveCapacity(count)
    var fieldStart = line.startIndex
    var index = line.startIndex
    while index <= line.endIndex {
        if index == line.endIndex || line[index] == UInt8(ascii: ",") {
            guard let value = parseNumber(line[fieldStart..<index]) else { return nil }
            values.append(value)
            fieldStart = index + 1
        }
        index += 1
    }
    return values.count >= count ? values : nil
}

/// One decimal number from bytes, surrounding spaces allowed.
func parseNumber(_ field: ArraySlice<UInt8>) -> Double? {
    var field = field
    while let first = field.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { field.removeFirst() }
    while let last = field.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { field.removeLast() }
    guard !field.isEmpty, field.count < 64 else { return nil }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: field.count + 1) { buffer in
        for (offset, byte) in field.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
        buffer[field.count] = 0
        var end: UnsafeMutablePointer<CChar>?
        let value = strtod(buffer.baseAddress!, &end)
        guard end == buffer.baseAddress! + field.count, value.isFinite else { return nil }
        return value
    }
}
