import ArgumentParser
import Zones

/// Which properties of a zone file's features hold each zone's id and
/// name: the options of every command that reads one, the planners' tools too.
public struct ZonePropertyArguments: ParsableArguments {
    public init() {}

    @Option(name: .customLong("id-property"), help: ArgumentHelp(
        "The property holding each zone's id (default: the feature id, then properties.id).",
        valueName: "NAME"))
    public var idProperty: String?

    @Option(name: .customLong("name-property"), help: ArgumentHelp(
        "The property holding each zone's name. (default: name)", valueName: "NAME"))
    public var nameProperty: String?
}

/// The options every command that loads a zone file as the service does
/// shares, `serve` too; nil where not given, so that `serve` can take them
/// from its config file.
public struct ZoneFileArguments: ParsableArguments {
    public init() {}

    @OptionGroup public var properties: ZonePropertyArguments

    /// The property holding each zone's id, when given.
    public var idProperty: String? { properties.idProperty }
    /// The property holding each zone's name, when given.
    public var nameProperty: String? { properties.nameProperty }

    @Option(name: .customLong("overlap-tolerance"), help: ArgumentHelp(
        "Overlap between two zones accepted as digitising noise, in square metres. (default: 10)",
        valueName: "M2"))
    public var overlapTolerance: Double?

    /// The options given, ``ZoneFileOptions``' defaults for the rest.
    public var options: ZoneFileOptions {
        ZoneFileSettings.options(idProperty: idProperty, nameProperty: nameProperty, overlapTolerance: overlapTolerance)
    }

    public func validate() throws {
        try ZoneFileSettings.check(overlapTolerance: overlapTolerance)
    }
}
