/// Sent down a terminal's channel (an outbound user event) once it has named
/// a registered device, so that ``TerminalDeadlineHandler`` switches from
/// the identification deadline to the idle timeout.
struct TerminalIdentified: Sendable {}
