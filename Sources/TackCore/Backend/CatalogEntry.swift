/// A tool a backend's catalog knows by a short name (aqua's registry: `terraform` is the
/// package `hashicorp/terraform`): what `tack use NAME` pins when no registry of tack's knows
/// the name, and what `tack search` lists.
public struct CatalogEntry: Sendable, Equatable {
    /// The short name it is known by.
    public var name: String
    /// The manifest key and value that pin it (`aqua`, `hashicorp/terraform`).
    public var key: String
    public var identity: String
    public var description: String
    /// Where the catalog is (`aqua's registry v4.99.1`).
    public var catalog: String

    public init(name: String, key: String, identity: String, description: String, catalog: String) {
        self.name = name
        self.key = key
        self.identity = identity
        self.description = description
        self.catalog = catalog
    }
}

/// What a backend's catalog says of a short name.
public enum CatalogAnswer: Sendable, Equatable {
    case entry(CatalogEntry)
    /// Several entries have that name: each one's identity.
    case ambiguous([String])
}
