import Accounts
import FixRecords
import Foundation

/// Where the next page of a taxi's archived fixes starts: just after the
/// fix taken at ``milliseconds`` by ``device``, in the archive's order
/// (time, then device). Clients pass it back as the opaque `cursor` of the
/// `Link: <...>; rel="next"` URL.
struct FixPageCursor: Equatable {
    /// The time of the last fix of the page, in milliseconds since 1970 (the archive's precision).
    let milliseconds: Int64
    /// The device of that fix.
    let device: String

    /// The cursor after `fix`, the last of a page.
    init(after fix: AcceptedFix) {
        milliseconds = Int64((fix.time.timeIntervalSince1970 * 1000).rounded())
        device = fix.deviceId
    }

    /// Reads a cursor as ``text`` writes it.
    /// - Throws: 400 problem+json when it is not base64url, 422 when it is
    ///   but not a cursor this service gave (``PageCursorText``).
    init(parsing text: String) throws {
        guard let decoded = String(data: try PageCursorText.bytes(of: text), encoding: .utf8),
              let space = decoded.firstIndex(of: " "), let milliseconds = Int64(decoded[..<space]) else {
            throw PageCursorText.foreign
        }
        self.milliseconds = milliseconds
        device = String(decoded[decoded.index(after: space)...])
    }

    /// The cursor as the `cursor` query parameter carries it: base64url, no padding.
    var text: String {
        Base64URL.encode(Data("\(milliseconds) \(device)".utf8))
    }

    /// When the page's last fix was taken: where the next page's query starts.
    var time: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// True for a fix the pages before already gave: taken before the
    /// cursor's fix, or at the same millisecond by a device not after its device.
    func alreadyGiven(_ fix: AcceptedFix) -> Bool {
        let fixMilliseconds = Int64((fix.time.timeIntervalSince1970 * 1000).rounded())
        return fixMilliseconds < milliseconds || (fixMilliseconds == milliseconds && fix.deviceId <= device)
    }
}
