import Accounts
import FixRecords
import Foundation
import Storage

/// Where the next page of a zone's archived fixes starts: just after the
/// fix of ``key``, in the order time, taxi, device. Clients pass it back as
/// the opaque `cursor` of the `Link: <...>; rel="next"` URL.
struct ZoneFixCursor: Equatable {
    /// The last fix of the page.
    let key: FixKey

    /// The cursor after `fix`, the last of a page.
    init(after fix: AcceptedFix) {
        key = FixKey(of: fix)
    }

    /// Reads a cursor as ``text`` writes it.
    /// - Throws: 400 problem+json when it is not base64url, 422 when it is
    ///   but not a cursor this service gave (``PageCursorText``).
    init(parsing text: String) throws {
        let data = try PageCursorText.bytes(of: text)
        guard let fields = try? JSONDecoder().decode(Fields.self, from: data) else {
            throw PageCursorText.foreign
        }
        key = FixKey(milliseconds: fields.time, taxi: TaxiID(fields.taxi), device: fields.device)
    }

    /// The cursor as the `cursor` query parameter carries it: base64url of a small JSON object, no padding.
    var text: String {
        let fields = Fields(time: key.milliseconds, taxi: key.taxi.text, device: key.device)
        return Base64URL.encode((try? JSONEncoder().encode(fields)) ?? Data())
    }

    private struct Fields: Codable {
        var time: Int64
        var taxi: String
        var device: String
    }
}
