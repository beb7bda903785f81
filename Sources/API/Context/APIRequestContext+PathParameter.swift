import Foundation
import Hummingbird

extension APIRequestContext {
    /// The path parameter `name`, percent-decoded: ids may hold any
    /// character (a zone id with a space or a slash comes as `%20`, `%2F`),
    /// and a client that encodes an id must find what it named.
    /// - Throws: ``Problem`` 400 when the parameter is not valid percent-encoding.
    func pathParameter(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        guard let decoded = raw.removingPercentEncoding else {
            throw Problem.badRequest("the path's \(name) '\(raw)' is not valid percent-encoding")
        }
        return decoded
    }
}
