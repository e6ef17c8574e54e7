/// A bill of materials as CycloneDX 1.5 JSON: one `application` component per pinned tool
/// (with what it was installed with, or beside, as its own components), its purl, hashes and
/// where it comes from; tack's own facts (backend, source, each hash's platform or file, the
/// verification) as `tack:` properties.
public enum CycloneDX {
    public static func document(_ bom: BillOfMaterials) -> JSON {
        .object([
            ("bomFormat", .string("CycloneDX")),
            ("specVersion", .string("1.5")),
            ("serialNumber", .string(bom.serialNumber)),
            ("version", .int(1)),
            ("metadata", .object([
                ("timestamp", .string(bom.timestamp)),
                ("tools", .object([("components", .array([.object([
                    ("type", .string("application")), ("name", .string("tack")), ("version", .string(bom.tackVersion)),
                ])]))])),
                ("component", .object([("type", .string("application")), ("bom-ref", .string("project")), ("name", .string(bom.project))])),
            ])),
            ("components", .array(bom.components.map { component($0, ref: "tool:" + $0.name) })),
            ("dependencies", .array([.object([
                ("ref", .string("project")), ("dependsOn", .array(bom.components.map { .string("tool:" + $0.name) })),
            ])])),
        ])
    }

    static func component(_ c: BillOfMaterials.Component, ref: String) -> JSON {
        var fields: [(String, JSON)] = [
            ("type", .string("application")),
            ("bom-ref", .string(ref)),
            ("name", .string(c.name)),
            ("version", .string(c.version)),
            ("purl", .string(c.purl)),
        ]
        var seen: Set<String> = []
        let hashes = c.hashes.filter { seen.insert($0.sha256).inserted }
        if !hashes.isEmpty {
            fields.append(("hashes", .array(hashes.map { .object([("alg", .string("SHA-256")), ("content", .string($0.sha256))]) })))
        }
        if let location = c.location, location.contains("://") {
            fields.append(("externalReferences", .array([.object([
                ("type", .string(c.isRepository ? "vcs" : "distribution")), ("url", .string(location)),
            ])])))
        }
        var properties: [(String, String)] = [
            ("tack:backend", c.backend), ("tack:source", c.source),
            ("tack:verification", c.verification.kind.rawValue), ("tack:verification-detail", c.verification.detail),
        ]
        for h in c.hashes { properties.append(("tack:sha256:" + h.of, h.sha256)) }
        fields.append(("properties", .array(properties.map { .object([("name", .string($0.0)), ("value", .string($0.1))]) })))
        if !c.parts.isEmpty {
            fields.append(("components", .array(c.parts.map { component($0, ref: ref + "/" + $0.name) })))
        }
        return .object(fields)
    }
}
