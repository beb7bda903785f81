/// A device's secret: what a terminal of the line protocol sends in its
/// `LOGIN` line and an OsmAnd phone in its `key` parameter, so that knowing
/// a device id is not enough to move its taxi.
///
/// The text never leaves this value: `description`, `debugDescription` and
/// reflection show `<secret>`, so a secret cannot reach a log line, an error
/// or `/metrics` by being printed. Two secrets are compared in constant
/// time (``matches(_:)``): how long a comparison takes says nothing about
/// how many leading bytes a guess got right.
public struct DeviceSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    private let bytes: [UInt8]

    /// The shortest secret the devices file takes: shorter ones are guessed too easily.
    public static let minLength = 8
    /// The longest secret the devices file takes (a line-protocol line holds at most 512 bytes).
    public static let maxLength = 64

    /// A secret as a terminal presented it, whatever its form: it is only
    /// ever compared with a registered one.
    public init(presented text: some StringProtocol) {
        bytes = Array(text.utf8)
    }

    /// A secret for the devices file: ``minLength`` to ``maxLength``
    /// printable ASCII characters, no space and no comma (the field
    /// separator of the devices file and of the line protocol); nil otherwise.
    public init?(registered text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard (Self.minLength...Self.maxLength).contains(utf8.count),
            utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") })
        else { return nil }
        bytes = utf8
    }

    /// True when `presented` is this secret. Every byte of this secret is
    /// looked at, whatever `presented` holds: the time depends on this
    /// secret's length alone, never on where a guess first differs nor on
    /// the guess's own length.
    public func matches(_ presented: DeviceSecret) -> Bool {
        var difference: UInt8 = bytes.count == presented.bytes.count ? 0 : 1
        let other = presented.bytes
        for index in bytes.indices {
            let guess = index < other.count ? other[index] : 0
            difference |= bytes[index] ^ guess
        }
        return difference == 0
    }

    /// Equal when ``matches(_:)`` says so: in constant time too.
    public static func == (lhs: DeviceSecret, rhs: DeviceSecret) -> Bool {
        lhs.matches(rhs)
    }

    /// Never the secret itself.
    public var description: String { "<secret>" }

    /// Never the secret itself.
    public var debugDescription: String { "<secret>" }

    /// No children: `dump` and the default description of a value holding
    /// a secret show `<secret>` only.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
