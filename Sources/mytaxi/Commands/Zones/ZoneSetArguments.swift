import ArgumentParser
import ServeConfig
import Zones
import ZoneTools

/// How the planners' tools read a zone file: which properties hold the id
/// and the name. Overlaps are not refused on load: the tools report them.
struct ZoneSetArguments: ParsableArguments {
    @OptionGroup var properties: ZonePropertyArguments

    /// The loader's options: these properties, any overlap accepted.
    var options: ZoneFileOptions {
        var options = ZoneFileOptions(idProperty: properties.idProperty)
        options.nameProperty = properties.nameProperty ?? options.nameProperty
        options.overlapToleranceSquareMetres = .infinity
        return options
    }

    /// Loads the zone file at `path`, every problem an error of the data.
    func load(_ path: String) throws(ZoneToolError) -> ZoneSet {
        do {
            return try ZoneFileLoader.load(path: path, options: options).zoneSet
        } catch {
            throw ZoneToolError(error, path: path)
        }
    }
}
