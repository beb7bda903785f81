import Foundation
import HTTPTypes

/// The methods the OpenAPI document gives each path, so that a request
/// with another method on a path that exists is told 405 with the methods
/// it may use (`Allow`), not 404 as if the path did not exist.
struct DocumentedMethods: Sendable {
    private let templates: [(segments: [String], methods: [String])]

    /// The methods of every path of `document` (an OpenAPI document).
    init(document: Data) {
        let paths = ((try? JSONSerialization.jsonObject(with: document)) as? [String: Any])?["paths"] as? [String: Any] ?? [:]
        templates = paths.map { path, operations in
            let methods = ((operations as? [String: Any])?.keys ?? [:].keys)
                .filter { ["get", "put", "post", "delete", "patch", "head", "options"].contains($0) }
                .map { $0.uppercased() }
            return (Self.segments(of: path), methods.sorted())
        }
    }

    /// The methods of the service's own document.
    static let service = DocumentedMethods(document: OpenAPIController.document ?? Data())

    /// The methods documented for `path`, nil when no documented path matches it.
    func methods(for path: String) -> [String]? {
        let asked = Self.segments(of: path)
        let matching = templates.filter { template in
            template.segments.count == asked.count
                && zip(template.segments, asked).allSatisfy { pattern, segment in pattern.hasPrefix("{") || pattern == segment }
        }
        guard !matching.isEmpty else { return nil }
        var methods = Set(matching.flatMap(\.methods))
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted()
    }

    private static func segments(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
