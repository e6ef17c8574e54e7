#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TackCore

/// `tack sbom`: the bill of materials of the project here, made from its pins and tack.lock
/// (no network, nothing installed), as CycloneDX 1.5 or SPDX 2.3 JSON. Never prints: tack-cli
/// writes the document.
public struct SBOMService: Sendable {
    public enum Format: String, Sendable, CaseIterable { case cyclonedx, spdx }

    let context: Context

    public init(_ context: Context) { self.context = context }

    /// The bill of materials of every tool pinned here.
    public func billOfMaterials() throws(TackError) -> BillOfMaterials {
        let workspace = try Workspace(context)
        let settings = context.settings
        var components: [BillOfMaterials.Component] = []
        var unlocked: [String] = []
        let entries = try workspace.resolution.lockedEntries(settings: settings)
        for (pin, entry) in zip(workspace.resolution.pins, entries) where pin.request.isLockable {
            let name = pin.request.name
            guard let entry else { unlocked.append(name); continue }
            // The pin as the registry completes it: a registry entry's key counts.
            let request = workspace.request(named: name, requirement: pin.request.requirement)
            components.append(BillOfMaterials.component(entry, request: request, backends: settings.backends))
        }
        guard unlocked.isEmpty else {
            throw TackError("\(unlocked.joined(separator: ", ")) \(unlocked.count == 1 ? "is" : "are") pinned but not in tack.lock — run `tack lock` first: the bill of materials lists what tack.lock holds")
        }
        let root = workspace.resolution.projectRoot ?? settings.cwd
        return BillOfMaterials(project: Paths.basename(root), components: components.sorted { $0.name < $1.name },
                               tackVersion: TackVersion.current, timestamp: Self.timestamp(settings.environment))
    }

    /// The document in `format`, for people (indented) and ending in a newline.
    public func document(_ format: Format) throws(TackError) -> String {
        let bom = try billOfMaterials()
        switch format {
        // A credential in a source URL stays out of the document, which is meant to be shared.
        case .cyclonedx: return URLRedaction.text(CycloneDX.document(bom).pretty()) + "\n"
        case .spdx: return URLRedaction.text(SPDX.document(bom).pretty()) + "\n"
        }
    }

    /// Now, or `SOURCE_DATE_EPOCH` (reproducible builds' variable), as `2026-11-24T13:48:24Z`.
    static func timestamp(_ environment: [String: String]) -> String {
        var seconds = time(nil)
        // Up to the end of year 9999: a larger one is no date a bill of materials can carry.
        if let text = environment["SOURCE_DATE_EPOCH"], let fixed = Int(text), fixed >= 0, fixed <= 253_402_300_799 { seconds = time_t(fixed) }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(Int(parts.tm_year) + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
