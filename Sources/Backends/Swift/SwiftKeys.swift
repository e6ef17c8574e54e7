/// swift.org's signing keys, shipped with tack (Resources/swift-keys.asc, compiled in), and
/// their fingerprints as https://www.swift.org/keys/ lists them. A test checks that the file
/// holds exactly these keys.
public enum SwiftKeys {
    public static var builtIn: [UInt8] { PackageResources.swift_keys_asc }

    public static let fingerprints: [String: String] = [
        "52BB7E3DE28A71BE22EC05FFEF80A866B47A981F": "Swift 6.x Release Signing Key",
        "A62AE125BBBFBB96A6E042EC925CC1CCED3D1561": "Swift 5.x Release Signing Key",
        "E813C892820A6FA13755B268F167DF1ACF9CE069": "Swift Automatic Signing Key #4",
    ]
}
