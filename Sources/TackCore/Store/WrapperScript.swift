/// A `bin/` script tack writes in place of a command that needs its environment set first
/// (a gem's executable with its own gems, an asdf tool with what its plugin's exec-env
/// exports): `#!/bin/sh`, a comment naming where it came from, the exports and unsets, then
/// `exec` of the program with the caller's arguments. Every value is quoted; a variable name
/// that is not a shell name is left out.
public struct WrapperScript: Sendable, Equatable {
    public var comment: String
    public var exports: [(name: String, value: String)]
    public var unsets: [String]
    public var command: [String]

    public init(comment: String, exports: [(name: String, value: String)] = [], unsets: [String] = [], command: [String]) {
        self.comment = comment
        self.exports = exports
        self.unsets = unsets
        self.command = command
    }

    public static func == (a: WrapperScript, b: WrapperScript) -> Bool {
        a.comment == b.comment && a.exports.map({ $0.name }) == b.exports.map({ $0.name }) && a.exports.map({ $0.value }) == b.exports.map({ $0.value })
            && a.unsets == b.unsets && a.command == b.command
    }

    /// Whether `name` can be a shell variable's name.
    public static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !(first >= "0" && first <= "9") else { return false }
        return name.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_" }
    }

    /// The script's text.
    public var text: String {
        let comment = self.comment.split(whereSeparator: { $0.isNewline }).joined(separator: " ")
        var out = "#!/bin/sh\n# Written by tack: \(comment)\n"
        for e in exports where Self.isVariableName(e.name) {
            out += "\(e.name)=\(ShellQuote.posix(e.value))\nexport \(e.name)\n"
        }
        let unset = unsets.filter(Self.isVariableName)
        if !unset.isEmpty { out += "unset \(unset.joined(separator: " "))\n" }
        out += "exec " + command.map(ShellQuote.posix).joined(separator: " ") + " \"$@\"\n"
        return out
    }

    /// Writes the script at `path`, executable (0755), replacing what is there.
    public func write(to path: String, fs: any FileSystem) throws(FileSystemError) {
        try fs.writeAtomically(path, Array(text.utf8))
        try fs.makeExecutable(path)
    }
}
