import Accounts
import Foundation

/// The `cursor` query parameter of paged answers, before a cursor type
/// reads its content. The published document says what a cursor looks like
/// (base64url without padding), so a cursor that is not base64url breaks
/// the document (400), while one that is but says nothing this service
/// wrote is well formed and cannot be answered (422), like an unknown token.
enum PageCursorText {
    /// The bytes the cursor `text` encodes.
    /// - Throws: ``Problem`` 400 when `text` is not base64url without
    ///   padding, ``foreign`` when it still decodes to nothing.
    static func bytes(of text: String) throws -> Data {
        guard Base64URL.isWellFormed(text) else {
            throw Problem.badRequest(
                "query parameter 'cursor' must be base64url without padding, as in the Link header's next URL: pass that URL's cursor")
        }
        guard let data = Base64URL.decode(text) else { throw foreign }
        return data
    }

    /// 422 for a well-formed cursor that this service did not give.
    static var foreign: Problem {
        Problem.unprocessable("query parameter 'cursor' is not a cursor this service gave: pass the one of the Link header's next URL")
    }
}
