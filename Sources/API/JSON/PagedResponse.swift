import Foundation
import HTTPTypes
import Hummingbird

/// The answer of a list the API hands out a page at a time (a taxi's
/// fixes, a zone's fixes, the accounts): the page as JSON and, when more
/// follow, a `Link` header (RFC 8288) with the next page's URL, so that a
/// client follows `rel="next"` without building URLs of its own.
enum PagedResponse {
    /// The header that names the next page.
    static let link = HTTPField.Name("Link")!

    /// 200 with `page` as JSON; when `next` is given (the next page's query
    /// parameters, in order), a `Link` to `path` with them.
    static func ok(_ page: some Encodable, path: String, next: [(name: String, value: String)]?) throws -> Response {
        var response = try JSONResponse.ok(page)
        if let next { response.headers[link] = nextLink(path: path, query: next) }
        return response
    }

    /// The `Link` value of the page at `path` with `query`.
    static func nextLink(path: String, query: [(name: String, value: String)]) -> String {
        let parameters = query.map { "\($0.name)=\(queryEncoded($0.value))" }.joined(separator: "&")
        return "<\(path)?\(parameters)>; rel=\"next\""
    }

    /// `text` as a query parameter's value: `+`, `&`, `=` and the like percent-encoded.
    private static func queryEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~:"))) ?? text
    }
}
