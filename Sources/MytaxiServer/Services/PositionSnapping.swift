import DispatchRuntime

/// Runs the ``PositionSnapper`` every ``interval``, so that a taxi's new
/// position is snapped to the roads within a fraction of a second of its
/// fix, in the background: ingest does not wait for it, and the
/// dispatcher's queries find their taxis already snapped.
struct PositionSnapping: PeriodicWork {
    let snapper: PositionSnapper
    let interval: Duration = .milliseconds(200)

    func round() async {
        snapper.step()
    }
}
