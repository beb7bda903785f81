import Foundation
import HTTPTypes

/// The methods the OpenAPI document gives each path, so that a request
/// with another method on a path that exists is told 405 with the methods
/// it may use (`Allow`), not 404 as if the path did not exist.
struct DocumentedMethods: Sendable {
    /// One segment of a documented path: a literal, or a parameter that
    /// takes what its schema's `pattern` matches (anything when it has none).
    private enum Segment: Sendable {
        case literal(String)
        case parameter(pattern: String?)

        /// Whether the request path's `segment` (percent-decoded) fits.
        func matches(_ segment: String) -> Bool {
            switch self {
            case .literal(let text): text == segment
            case .parameter(nil): true
            case .parameter(let pattern?): segment.range(of: pattern, options: .regularExpression) != nil
            }
        }
    }

    /// Every operation: its path's segments, with its own parameters' patterns, and its method.
    private let operations: [(segments: [Segment], method: String)]

    /// The methods of every path of `document` (an OpenAPI document). A
    /// path parameter's `pattern` counts: `/v1/rides/current` is not
    /// `/v1/rides/{rideId}`, whose ids look like `R12`, so `DELETE` there is
    /// a method the path does not take.
    init(document: Data) {
        let paths = ((try? JSONSerialization.jsonObject(with: document)) as? [String: Any])?["paths"] as? [String: Any] ?? [:]
        operations = paths.flatMap { path, item -> [(segments: [Segment], method: String)] in
            let item = item as? [String: Any] ?? [:]
            let shared = item["parameters"] as? [[String: Any]] ?? []
            return item.compactMap { method, operation -> (segments: [Segment], method: String)? in
                guard ["get", "put", "post", "delete", "patch", "head", "options"].contains(method) else { return nil }
                let parameters = shared + ((operation as? [String: Any])?["parameters"] as? [[String: Any]] ?? [])
                let segments = Self.segments(of: path).map { segment -> Segment in
                    guard segment.hasPrefix("{"), segment.hasSuffix("}") else { return .literal(segment) }
                    let name = String(segment.dropFirst().dropLast())
                    let parameter = parameters.last { $0["name"] as? String == name && $0["in"] as? String == "path" }
                    return .parameter(pattern: (parameter?["schema"] as? [String: Any])?["pattern"] as? String)
                }
                return (segments, method.uppercased())
            }
        }
    }

    /// The methods of the service's own document.
    static let service = DocumentedMethods(document: OpenAPIController.document ?? Data())

    /// The methods documented for `path`, nil when no documented path matches it.
    func methods(for path: String) -> [String]? {
        let asked = Self.segments(of: path).map { $0.removingPercentEncoding ?? $0 }
        let matching = operations.filter { operation in
            operation.segments.count == asked.count && zip(operation.segments, asked).allSatisfy { $0.matches($1) }
        }
        guard !matching.isEmpty else { return nil }
        var methods = Set(matching.map(\.method))
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted()
    }

    private static func segments(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
