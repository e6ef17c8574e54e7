/// RFC 6962 / RFC 9162 inclusion proofs: a leaf's hash and the path of sibling hashes that
/// lead from it to a tree's root.
enum MerkleProof {
    static func leafHash(_ data: [UInt8]) -> [UInt8] { HashAlgorithm.sha256.digest([0x00] + data) }

    static func nodeHash(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] { HashAlgorithm.sha256.digest([0x01] + left + right) }

    /// The root the proof leads to from `leaf` at `index` in a tree of `size`; nil when the
    /// proof has the wrong shape for that place (too few or too many hashes, a hash not 32 bytes).
    static func root(leaf: [UInt8], index: Int64, size: Int64, proof: [[UInt8]]) -> [UInt8]? {
        guard index >= 0, size > 0, index < size, proof.allSatisfy({ $0.count == 32 }) else { return nil }
        let i = UInt64(index), last = UInt64(size - 1)
        // The levels where the path runs beside full subtrees, then the right border.
        let inner = 64 - (i ^ last).leadingZeroBitCount
        let border = (i >> UInt64(inner)).nonzeroBitCount
        guard proof.count == inner + border else { return nil }
        var r = leaf
        for (k, h) in proof[0..<inner].enumerated() {
            r = (i >> UInt64(k)) & 1 == 0 ? nodeHash(r, h) : nodeHash(h, r)
        }
        for h in proof[inner...] { r = nodeHash(h, r) }
        return r
    }
}

/// A transparency log's checkpoint: a signed note (C2SP `signed-note`, `tlog-checkpoint`)
/// that says the log had `size` entries under `rootHash`.
struct Checkpoint {
    var origin: String
    var size: Int64
    var rootHash: [UInt8]
    /// The signed text (up to and including the blank line's first newline).
    var message: [UInt8]
    var signatures: [(name: String, hint: [UInt8], signature: [UInt8])]

    static func parse(_ text: String) -> Checkpoint? {
        let bytes = Array(text.utf8)
        // Split at the last blank line: the note, then its signature lines.
        var split: Int?
        var i = bytes.count - 2
        while i >= 0 {
            if bytes[i] == 0x0A && bytes[i + 1] == 0x0A { split = i; break }
            i -= 1
        }
        guard let at = split, bytes.last == 0x0A else { return nil }
        guard !bytes.contains(where: { $0 < 0x20 && $0 != 0x0A }) else { return nil }
        let message = Array(bytes[0...at])
        let body = String(decoding: bytes[0..<at], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard body.count >= 3, !body[0].isEmpty, let size = Int64(body[1]), size >= 0, let root = Base64.decode(body[2]) else { return nil }
        var signatures: [(String, [UInt8], [UInt8])] = []
        let lines = String(decoding: bytes[(at + 2)...], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard !lines.isEmpty else { return nil }
        for line in lines {
            guard line.hasPrefix("\u{2014} ") else { return nil }
            let parts = line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains("+"), let decoded = Base64.decode(String(parts[1])), decoded.count >= 5 else { return nil }
            signatures.append((String(parts[0]), Array(decoded[0..<4]), Array(decoded[4...])))
        }
        return Checkpoint(origin: body[0], size: size, rootHash: root, message: message, signatures: signatures)
    }
}
