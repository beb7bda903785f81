import FixRecords
import Fleet
import Storage

/// On a node of several (`serve --node-id`): once a second, the newest fix
/// of every taxi from the shared archive into this node's live fleet index,
/// whichever node's listener the fix came through. So every node's fleet
/// is the whole city's within about a second: the dispatch engine, on the
/// node that decides, hears of every taxi's appearance, zone change and
/// silence, and every node's map and zone lists show every taxi.
///
/// A position only replaces an older one (the index keeps the newest), so
/// this node's own terminals' fixes come back as nothing new; each keeps
/// the zone the node that received it placed it in.
struct FleetOfEveryNode: PeriodicWork {
    let archive: any FixArchive
    let fleet: FleetIndex
    let interval: Duration = .seconds(1)

    func round() async {
        guard let latest = try? await archive.latestFixPerTaxi() else { return }
        fleet.update(latest.lazy.map { ($0.position, $0.receivedAt) })
    }
}
