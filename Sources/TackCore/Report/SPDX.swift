/// A bill of materials as SPDX 2.3 JSON: the document describes one package per pinned tool
/// (and one per part it was installed with), each with its download location, SHA-256s, purl
/// and, in its comment, where the trust in it comes from.
public enum SPDX {
    public static func document(_ bom: BillOfMaterials) -> JSON {
        var packages: [JSON] = []
        var relationships: [JSON] = []
        func add(_ c: BillOfMaterials.Component, id: String, parent: String?) {
            var seen: Set<String> = []
            let sums = c.hashes.filter { seen.insert($0.sha256).inserted }
            var fields: [(String, JSON)] = [
                ("SPDXID", .string(id)),
                ("name", .string(c.name)),
                ("versionInfo", .string(c.version)),
                ("downloadLocation", .string(c.location.map { $0.contains("://") ? (c.isRepository ? "git+" + $0 : $0) : "NOASSERTION" } ?? "NOASSERTION")),
                ("filesAnalyzed", .bool(false)),
                ("comment", .string("verified by \(c.verification.kind.rawValue): \(c.verification.detail)")),
                ("externalRefs", .array([.object([
                    ("referenceCategory", .string("PACKAGE-MANAGER")), ("referenceType", .string("purl")), ("referenceLocator", .string(c.purl)),
                ])])),
            ]
            if !sums.isEmpty {
                fields.append(("checksums", .array(sums.map { .object([("algorithm", .string("SHA256")), ("checksumValue", .string($0.sha256))]) })))
            }
            packages.append(.object(fields))
            relationships.append(.object([
                ("spdxElementId", .string(parent ?? "SPDXRef-DOCUMENT")),
                ("relationshipType", .string(parent == nil ? "DESCRIBES" : "CONTAINS")),
                ("relatedSpdxElement", .string(id)),
            ]))
            for (i, part) in c.parts.enumerated() { add(part, id: id + "-\(i + 1)", parent: id) }
        }
        for (i, c) in bom.components.enumerated() { add(c, id: "SPDXRef-Package-\(i + 1)", parent: nil) }
        return .object([
            ("spdxVersion", .string("SPDX-2.3")),
            ("dataLicense", .string("CC0-1.0")),
            ("SPDXID", .string("SPDXRef-DOCUMENT")),
            ("name", .string(bom.project)),
            ("documentNamespace", .string("https://spdx.org/spdxdocs/tack-\(PackageURL.encode(bom.project))-\(bom.serialNumber.dropFirst("urn:uuid:".count))")),
            ("creationInfo", .object([
                ("created", .string(bom.timestamp)), ("creators", .array([.string("Tool: tack-\(bom.tackVersion)")])),
            ])),
            ("packages", .array(packages)),
            ("relationships", .array(relationships)),
        ])
    }
}
