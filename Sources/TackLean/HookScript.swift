import CLean

/// One step of the prompt hook on bytes: the shell commands that take a shell from what it has
/// (its environment, and the record the hook keeps in it) to what a directory asks for. The
/// one implementation: `ShellHook.update` (every resolution) calls it, and so does the
/// Embedded `tack` when a directory's snapshot holds but is not the one the shell has applied
/// (after a `cd`), so that case costs no second process.
///
/// What the hook changed is kept in two variables of the shell: `__TACK_HOOK`, the digest of
/// what is applied, and `__TACK_DIFF`, each directory put on PATH and each variable set with
/// the value it replaced. Leaving a project takes exactly those back out: PATH entries are
/// removed, variables get their old value (or are unset) unless the user changed them since.
public enum HookScript {
    public enum Syntax { case posix, fish }

    public struct Variable: Equatable {
        public var name: [UInt8]
        public var value: [UInt8]
        public init(name: [UInt8], value: [UInt8]) {
            self.name = name
            self.value = value
        }
    }

    public static let digestVariable: StaticString = "__TACK_HOOK"
    public static let diffVariable: StaticString = "__TACK_DIFF"
    /// Set while the last resolution failed (`ShellHook.errorVariable`).
    public static let errorVariable: StaticString = "__TACK_ERROR"

    /// The commands, a line each, names in byte order. `digest` is nil when nothing is applied
    /// (no tool, no variable, nothing untrusted or missing): the record is then removed.
    /// `lookup` reads the shell's environment.
    public static func script(_ syntax: Syntax, bins: [[UInt8]], variables: [Variable], digest: [UInt8]?,
                              lookup: ([UInt8]) -> [UInt8]?) -> [UInt8] {
        let path = bytes(of: "PATH"), hook = bytes(of: digestVariable), diff = bytes(of: diffVariable)
        let previous = Diff.decode(lookup(diff) ?? [])
        // What the shell had before tack changed anything.
        let currentPath = lookup(path)
        var pathEntries = (currentPath ?? []).split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map { Array($0) }
        if pathEntries.count == 1 && pathEntries[0].isEmpty { pathEntries = [] }
        for dir in previous.prepended {
            if let i = pathEntries.firstIndex(of: dir) { pathEntries.remove(at: i) }
        }
        var base = Assignments()
        for v in previous.variables {
            let now = lookup(v.name)
            base.set(v.name, now == v.new ? v.old : now)
        }

        var next = Diff()
        var target = base
        next.prepended = bins
        for v in variables where v.name != path && v.name != hook && v.name != diff {
            let old = base.has(v.name) ? base.value(v.name) : lookup(v.name)
            next.variables.append(.init(name: v.name, old: old, new: v.value))
            target.set(v.name, v.value)
        }
        if currentPath != nil || !bins.isEmpty {
            target.set(path, Array((bins + pathEntries).joined(separator: [UInt8(ascii: ":")])))
        }
        target.set(hook, digest)
        target.set(diff, digest == nil ? nil : next.encode())

        var out: [UInt8] = []
        for (name, value) in target.sorted() where value != lookup(name) {
            out += line(syntax, name, value)
        }
        return out
    }

    /// The shell line (with its newline) that sets or, with nil, unsets one variable.
    public static func line(_ syntax: Syntax, _ name: [UInt8], _ value: [UInt8]?) -> [UInt8] {
        var out: [UInt8]
        switch (syntax, value) {
        case (.posix, let value?): out = bytes(of: "export ") + name + [UInt8(ascii: "=")] + posixQuoted(value)
        case (.posix, nil): out = bytes(of: "unset ") + name
        case (.fish, let value?): out = bytes(of: "set -gx ") + name + [UInt8(ascii: " ")] + fishQuoted(value)
        case (.fish, nil): out = bytes(of: "set -e ") + name
        }
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// Single quotes for sh, bash and zsh: `'` becomes `'\''`.
    public static func posixQuoted(_ s: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "'")]
        for b in s {
            if b == UInt8(ascii: "'") { out += [UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "'")] } else { out.append(b) }
        }
        out.append(UInt8(ascii: "'"))
        return out
    }

    /// Single quotes for fish, where `\` and `'` are escaped inside them.
    public static func fishQuoted(_ s: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "'")]
        for b in s {
            if b == UInt8(ascii: "\\") || b == UInt8(ascii: "'") { out.append(UInt8(ascii: "\\")) }
            out.append(b)
        }
        out.append(UInt8(ascii: "'"))
        return out
    }

    /// What the hook changed, in one variable: `p:DIR` for a directory put on PATH,
    /// `s:NAME:NEW:OLD` for a variable that had a value, `u:NAME:NEW` for one that was unset;
    /// entries separated by spaces, values percent-encoded.
    public struct Diff: Equatable {
        public struct Variable: Equatable {
            public var name: [UInt8]
            public var old: [UInt8]?
            public var new: [UInt8]
            public init(name: [UInt8], old: [UInt8]?, new: [UInt8]) {
                self.name = name
                self.old = old
                self.new = new
            }
        }
        public var prepended: [[UInt8]] = []
        public var variables: [Variable] = []

        public init(prepended: [[UInt8]] = [], variables: [Variable] = []) {
            self.prepended = prepended
            self.variables = variables
        }

        public func encode() -> [UInt8] {
            var parts: [[UInt8]] = prepended.map { HookScript.bytes(of: "p:") + Diff.escape($0) }
            let colon = UInt8(ascii: ":")
            for v in variables {
                if let old = v.old {
                    parts.append(HookScript.bytes(of: "s:") + v.name + [colon] + Diff.escape(v.new) + [colon] + Diff.escape(old))
                } else {
                    parts.append(HookScript.bytes(of: "u:") + v.name + [colon] + Diff.escape(v.new))
                }
            }
            return Array(parts.joined(separator: [UInt8(ascii: " ")]))
        }

        /// Anything malformed is dropped: the variable is the user's to break.
        public static func decode(_ s: [UInt8]) -> Diff {
            var d = Diff()
            for part in s.split(separator: UInt8(ascii: " ")) {
                let f = part.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map { Array($0) }
                guard let kind = f.first, kind.count == 1 else { continue }
                switch (kind[0], f.count) {
                case (UInt8(ascii: "p"), 2): if let dir = unescape(f[1]) { d.prepended.append(dir) }
                case (UInt8(ascii: "s"), 4):
                    if let new = unescape(f[2]), let old = unescape(f[3]) { d.variables.append(.init(name: f[1], old: old, new: new)) }
                case (UInt8(ascii: "u"), 3): if let new = unescape(f[2]) { d.variables.append(.init(name: f[1], old: nil, new: new)) }
                default: continue
                }
            }
            return d
        }

        static func escape(_ s: [UInt8]) -> [UInt8] {
            let digits: StaticString = "0123456789ABCDEF"
            var out: [UInt8] = []
            for b in s {
                let safe = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || b == UInt8(ascii: "/") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
                    || b == UInt8(ascii: "+") || b == UInt8(ascii: ",") || b == UInt8(ascii: "@") || b == UInt8(ascii: "=")
                    || b == UInt8(ascii: "~")
                if safe {
                    out.append(b)
                } else {
                    out.append(0x25)
                    out.append(digits.utf8Start[Int(b >> 4)])
                    out.append(digits.utf8Start[Int(b & 0xF)])
                }
            }
            return out
        }

        static func unescape(_ s: [UInt8]) -> [UInt8]? {
            func hex(_ b: UInt8) -> UInt8? {
                switch b {
                case 0x30...0x39: return b - 0x30
                case 0x41...0x46: return b - 0x37
                case 0x61...0x66: return b - 0x57
                default: return nil
                }
            }
            var out: [UInt8] = []
            var i = 0
            while i < s.count {
                if s[i] == 0x25 {
                    guard i + 2 < s.count, let hi = hex(s[i + 1]), let lo = hex(s[i + 2]) else { return nil }
                    out.append(hi << 4 | lo)
                    i += 3
                } else {
                    out.append(s[i])
                    i += 1
                }
            }
            return out
        }
    }

    /// Variables to set (a value) or unset (nil), each name once, in the order first set.
    struct Assignments {
        var names: [[UInt8]] = []
        var values: [[UInt8]?] = []

        func index(_ name: [UInt8]) -> Int? { names.firstIndex(of: name) }
        func has(_ name: [UInt8]) -> Bool { index(name) != nil }
        func value(_ name: [UInt8]) -> [UInt8]? { index(name).flatMap { values[$0] } }

        mutating func set(_ name: [UInt8], _ value: [UInt8]?) {
            if let i = index(name) { values[i] = value } else {
                names.append(name)
                values.append(value)
            }
        }

        /// Every name with its value, names in byte order.
        func sorted() -> [([UInt8], [UInt8]?)] {
            let order = names.indices.sorted { names[$0].lexicographicallyPrecedes(names[$1]) }
            return order.map { (names[$0], values[$0]) }
        }
    }

    static func bytes(of s: StaticString) -> [UInt8] {
        Array(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }
}
