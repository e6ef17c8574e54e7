public enum InstallPhase: Sendable, Equatable {
    /// SwiftPM's progress in one line of its output: `[12/345]`, or nil.
    public static func swiftBuildStep(_ line: String) -> String? {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
        let inside = line[line.index(after: line.startIndex)..<close]
        let parts = inside.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 7 && $0.allSatisfy({ $0 >= "0" && $0 <= "9" }) }) else { return nil }
        return "[\(inside)]"
    }

    /// Another process holds this version's lock: who, as it said (`pid 123, which is
    /// installing swift-protobuf 1.39.0`), or nil when it has not said.
    case waiting(String?)
    case fetching
    case building
    /// SwiftPM's `[n/m]` while it builds (`Compiling…`, `Linking…`).
    case buildStep(String)
    case copying
    case downloading(received: Int64, total: Int64?)
    case extracting
    case custom(String)

    public var label: String {
        switch self {
        case .waiting(let who): return "waiting for \(who ?? "another tack")"
        case .fetching: return "fetching"
        case .building: return "building"
        case .buildStep(let step): return "building \(step)"
        case .copying: return "copying"
        case .extracting: return "extracting"
        case .downloading(let r, let t):
            if let t, t > 0 { return "downloading \(formatSize(Int(r))) of \(formatSize(Int(t)))" }
            return "downloading \(formatSize(Int(r)))"
        case .custom(let s): return s
        }
    }
}
