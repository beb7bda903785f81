import CLibPQ
import Foundation

/// The rows a statement returned, copied out of libpq's result (text
/// form) so that they outlive it. Accessors throw when a value is not what
/// the column should hold, naming the column.
struct PostgresRows: Sendable {
    /// The column names, in order.
    let columns: [String]
    /// Each row's values by column; nil is SQL NULL.
    let values: [[String?]]
    /// Rows the statement changed (INSERT, UPDATE, DELETE), 0 otherwise.
    let affected: Int

    init(_ result: OpaquePointer) {
        let columnCount = Int(PQnfields(result))
        columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        values = (0..<Int(PQntuples(result))).map { row in
            (0..<columnCount).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1
                    ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            }
        }
        affected = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// How many rows there are.
    var count: Int { values.count }

    /// The value of `column` in `row`, nil for NULL.
    func text(_ row: Int, _ column: String) throws -> String? {
        guard let index = columns.firstIndex(of: column) else { throw PostgresError(message: "no column \(column) in the result") }
        return values[row][index]
    }

    /// The text of `column` in `row`, which must not be NULL.
    func string(_ row: Int, _ column: String) throws -> String {
        guard let text = try text(row, column) else { throw PostgresError(message: "column \(column) is NULL") }
        return text
    }

    /// The integer of `column` in `row`.
    func integer(_ row: Int, _ column: String) throws -> Int64 {
        guard let value = Int64(try string(row, column)) else { throw PostgresError(message: "column \(column) is not an integer") }
        return value
    }

    /// The integer of `column` in `row`, nil for NULL.
    func optionalInteger(_ row: Int, _ column: String) throws -> Int64? {
        try text(row, column) == nil ? nil : try integer(row, column)
    }

    /// The float8 of `column` in `row`.
    func double(_ row: Int, _ column: String) throws -> Double {
        guard let value = Double(try string(row, column)) else { throw PostgresError(message: "column \(column) is not a number") }
        return value
    }

    /// The boolean of `column` in `row` (`t` or `f`).
    func boolean(_ row: Int, _ column: String) throws -> Bool {
        try string(row, column) == "t"
    }

    /// The bytea of `column` in `row` (hex form, `\x...`).
    func bytes(_ row: Int, _ column: String) throws -> Data {
        let text = try string(row, column)
        guard text.hasPrefix("\\x"), text.utf8.count % 2 == 0 else { throw PostgresError(message: "column \(column) is not bytea") }
        var data = Data(capacity: text.utf8.count / 2 - 1)
        var high: UInt8?
        for character in text.utf8.dropFirst(2) {
            guard let nibble = Self.nibble(character) else { throw PostgresError(message: "column \(column) is not bytea") }
            if let first = high {
                data.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return data
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
