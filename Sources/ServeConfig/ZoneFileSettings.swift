import ArgumentParser
import Zones

/// How a zone file is read, as the options of the commands that read one
/// (`--id-property`, `--name-property`, `--overlap-tolerance`) or `serve`'s
/// config file give it: one place turns the values into ``ZoneFileOptions``
/// and checks them, for the flags and the file alike.
public enum ZoneFileSettings {
    /// The options these values give, ``ZoneFileOptions``' defaults where one is nil.
    public static func options(idProperty: String?, nameProperty: String?, overlapTolerance: Double?) -> ZoneFileOptions {
        var options = ZoneFileOptions(idProperty: idProperty)
        options.nameProperty = nameProperty ?? options.nameProperty
        options.overlapToleranceSquareMetres = overlapTolerance ?? options.overlapToleranceSquareMetres
        return options
    }

    /// A tolerance, when given, is a finite, non-negative number of square metres.
    /// - Throws: `ValidationError` naming the flag otherwise.
    public static func check(overlapTolerance: Double?) throws {
        if let overlapTolerance, !(overlapTolerance >= 0 && overlapTolerance.isFinite) {
            throw ValidationError("--overlap-tolerance must be a non-negative number of square metres, not '\(overlapTolerance)'")
        }
    }
}
