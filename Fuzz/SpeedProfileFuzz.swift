import Routing

/// A speed-profile file (docs/speed-profile.md) as `--speed-profile` and a
/// graph file's profile section are read: ``SpeedProfile/init(parsing:)``
/// over the bytes as UTF-8. A refusal is fine; a trap is a finding, and so
/// is a profile whose text form (which graph files store) does not read
/// back as the same profile.
enum SpeedProfileFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let profile = try? SpeedProfile(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
        guard let reread = try? SpeedProfile(parsing: profile.text), reread == profile else {
            fatalError("a profile's text does not read back as the profile:\n\(profile.text)")
        }
    }
}
