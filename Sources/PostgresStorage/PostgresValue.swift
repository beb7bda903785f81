import Foundation

/// A parameter of a statement (SPEC A3: values travel apart from the SQL
/// text, never spliced into it). Sent in text form, bytes in binary form.
enum PostgresValue: Sendable {
    case text(String)
    case integer(Int64)
    case double(Double)
    case boolean(Bool)
    case bytes(Data)
    case null

    /// The text or `nil` as a parameter.
    static func optional(_ text: String?) -> PostgresValue {
        text.map { .text($0) } ?? .null
    }

    /// The bytes libpq sends, and whether they are in binary form.
    var wireForm: (bytes: [UInt8]?, binary: Bool) {
        switch self {
        case .text(let text): (Array(text.utf8), false)
        case .integer(let value): (Array(String(value).utf8), false)
        case .double(let value): (Array("\(value)".utf8), false)
        case .boolean(let value): (Array((value ? "true" : "false").utf8), false)
        case .bytes(let data): ([UInt8](data), true)
        case .null: (nil, false)
        }
    }
}
