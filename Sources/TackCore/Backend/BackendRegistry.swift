/// Maps a request's source to the backend that handles it.
public struct BackendRegistry: Sendable {
    public var backends: [String: any Backend]
    public init(_ backends: [any Backend]) {
        self.backends = Dictionary(uniqueKeysWithValues: backends.map { ($0.name, $0) })
    }

    public func backend(for request: ToolRequest) throws(TackError) -> any Backend {
        if case .registry = request.source {
            throw TackError("\(request.name) has no source, and the built-in registry does not know it yet (set by \(request.origin.describe(home: nil))) — give it one, like `\(request.name): { git: https://github.com/OWNER/REPO.git, version: \(request.requirement) }`")
        }
        guard let b = backends[request.source.backend] else {
            throw TackError("\(request.name) uses the \(request.source.backend) backend, which this tack does not have yet (set by \(request.origin.describe(home: nil)))")
        }
        return b
    }
}
