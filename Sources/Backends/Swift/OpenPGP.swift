import Foundation
import CCrypto

/// Verifies detached OpenPGP signatures (RFC 4880 / RFC 9580, version 4) against a keyring,
/// the way `gpgv` does for swift.org's toolchains, without needing GnuPG on the machine.
///
/// Keys: RSA and Ed25519 (both encodings). Hashes: SHA-256, SHA-384, SHA-512 (SHA-1 and MD5
/// signatures are refused). A signature counts only when it was made while its key was valid:
/// after the key's creation and before its expiry, and never by a revoked key. Keyrings and
/// signatures may be binary or ASCII-armoured.
public enum OpenPGP {
    public struct Key: Sendable, Equatable {
        /// The v4 fingerprint, 40 uppercase hex digits.
        public var fingerprint: String
        /// The primary key's fingerprint (the same for a primary key).
        public var primary: String
        /// The first user ID: `Swift 6.x Release Signing Key <…>`.
        public var userID: String
        public var created: UInt32
        /// Seconds after `created` when the key expires, from its newest self-signature.
        public var expiresAfter: UInt32?
        public var revoked = false
        var material: Material

        public var keyID: String { String(fingerprint.suffix(16)) }
        public var expires: UInt32? { expiresAfter.map { created &+ $0 } }
        /// `Swift 6.x Release Signing Key (52BB 7E3D …)`.
        public var label: String { "\(userID.isEmpty ? "a key" : userID) (\(OpenPGP.spaced(primary)))" }
    }

    enum Material: Sendable, Equatable {
        case rsa(n: [UInt8], e: [UInt8])
        case ed25519([UInt8])
        case unsupported(UInt8)
    }

    public enum Failure: Error, Equatable, Sendable {
        /// Not a signature tack can read.
        case malformed(String)
        /// Made by a key the keyring does not hold.
        case unknownKey(String)
        /// The data does not match the signature.
        case bad(Key)
        case unsupported(String)
        /// Made after the key expired, before it was created, or by a revoked key.
        case keyNotValid(Key, String)
    }

    public struct Signature: Sendable {
        var version: UInt8
        var type: UInt8
        var keyAlgorithm: UInt8
        var hashAlgorithm: UInt8
        var hashedPrefix: [UInt8]
        var hashLeft: [UInt8]
        var values: [[UInt8]]
        public var created: UInt32?
        public var issuerKeyID: String?
        public var issuerFingerprint: String?
        var keyExpiresAfter: UInt32?
    }

    // MARK: Verifying

    /// The key among `keys` that made `signature` over the bytes `read` streams (called with
    /// a hashing function until it has fed every byte).
    public static func verify(signature: [UInt8], keys: [Key], data read: ((([UInt8]) -> Void)) throws -> Void) throws -> Key {
        let sig = try parseSignature(signature)
        guard sig.type == 0x00 || sig.type == 0x01 else { throw Failure.malformed("it is not a signature of a file (type \(sig.type))") }
        let candidates = keys.filter { key in
            if let f = sig.issuerFingerprint { return key.fingerprint == f }
            if let id = sig.issuerKeyID { return key.keyID == id }
            return true
        }
        guard let key = candidates.first else {
            throw Failure.unknownKey(sig.issuerFingerprint.map(spaced) ?? sig.issuerKeyID ?? "an unnamed key")
        }
        let hasher = try Hasher(algorithm: sig.hashAlgorithm)
        try read { hasher.update($0) }
        hasher.update(sig.hashedPrefix)
        hasher.update([sig.version, 0xFF] + bigEndian(UInt32(sig.hashedPrefix.count)))
        let digest = hasher.finalize()
        guard Array(digest.prefix(2)) == sig.hashLeft, try isValid(sig, digest: digest, hasher: hasher, key: key) else { throw Failure.bad(key) }
        let made = sig.created ?? 0
        if key.revoked { throw Failure.keyNotValid(key, "the key was revoked") }
        if made < key.created { throw Failure.keyNotValid(key, "the signature is older than the key") }
        if let expires = key.expires, made >= expires {
            throw Failure.keyNotValid(key, "it was made on \(date(made)), after the key expired on \(date(expires))")
        }
        // A subkey is only as good as its primary key: revoked, or expired before the
        // signature was made, it ends every subkey (as gpg warns, such a signature may be forged).
        if key.primary != key.fingerprint {
            guard let primary = keys.first(where: { $0.fingerprint == key.primary }) else {
                throw Failure.keyNotValid(key, "its primary key is not in the keyring")
            }
            if primary.revoked { throw Failure.keyNotValid(key, "its primary key \(spaced(primary.fingerprint)) was revoked") }
            if made < primary.created { throw Failure.keyNotValid(key, "the signature is older than its primary key") }
            if let expires = primary.expires, made >= expires {
                throw Failure.keyNotValid(key, "it was made on \(date(made)), after its primary key expired on \(date(expires))")
            }
        }
        return key
    }

    static func isValid(_ sig: Signature, digest: [UInt8], hasher: Hasher, key: Key) throws -> Bool {
        switch key.material {
        case .rsa(let n, let e):
            guard sig.keyAlgorithm == 1 || sig.keyAlgorithm == 3, let s = sig.values.first else { return false }
            let width = n.count
            guard s.count <= width else { return false }
            let padded = [UInt8](repeating: 0, count: width - s.count) + s
            switch tack_rsa_verify(n, n.count, e, e.count, hasher.algorithm.name, digest, digest.count, padded, padded.count) {
            case 1: return true
            case 0: return false
            default: throw Failure.unsupported("an RSA key tack cannot use")
            }
        case .ed25519(let point):
            let raw: [UInt8]
            switch sig.keyAlgorithm {
            case 22:
                guard sig.values.count == 2, sig.values[0].count <= 32, sig.values[1].count <= 32 else { return false }
                raw = pad(sig.values[0], 32) + pad(sig.values[1], 32)
            case 27:
                guard let v = sig.values.first, v.count == 64 else { return false }
                raw = v
            default: return false
            }
            guard point.count == 32 else { return false }
            return tack_ed25519_verify(point, digest, digest.count, raw) == 1
        case .unsupported(let algorithm):
            throw Failure.unsupported("a key of OpenPGP algorithm \(algorithm), which tack does not verify (it verifies RSA and Ed25519)")
        }
    }

    /// The signature's hash, fed in pieces.
    struct Hasher {
        let algorithm: Digest.Algorithm
        let digest: Digest

        init(algorithm: UInt8) throws {
            switch algorithm {
            case 8: self.algorithm = .sha256
            case 9: self.algorithm = .sha384
            case 10: self.algorithm = .sha512
            case 1: throw Failure.unsupported("an MD5 signature, which is not safe")
            case 2: throw Failure.unsupported("a SHA-1 signature, which is not safe")
            default: throw Failure.unsupported("a signature with OpenPGP hash algorithm \(algorithm)")
            }
            digest = Digest(self.algorithm)
        }

        func update(_ bytes: [UInt8]) { digest.update(bytes) }
        func finalize() -> [UInt8] { digest.finalize() }
    }

    // MARK: Reading keys and signatures

    /// Every key in a keyring (binary, or one or more armoured blocks), subkeys included.
    public static func keys(_ bytes: [UInt8]) throws -> [Key] {
        var keys: [Key] = []
        var primary: Int?
        var userID = ""
        for packet in try packets(dearmor(bytes)) {
            switch packet.tag {
            case 6, 14:
                guard var key = parseKey(packet.body) else { continue }
                if packet.tag == 6 {
                    key.primary = key.fingerprint
                    userID = ""
                    primary = keys.count
                } else if let p = primary {
                    key.primary = keys[p].fingerprint
                    key.userID = keys[p].userID
                } else { continue }
                keys.append(key)
            case 13:
                if let p = primary, userID.isEmpty {
                    userID = String(decoding: packet.body, as: UTF8.self).filter { c in !c.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
                    keys[p].userID = userID
                }
            case 2:
                guard let last = keys.indices.last, let sig = try? parseSignature(packet.body) else { continue }
                let owner = (sig.type == 0x18 || sig.type == 0x28) ? last : (primary ?? last)
                // Self-signatures: a certification (0x10–0x13, the newest wins) or binding
                // (0x18) carries the expiry; a revocation (0x20, 0x28) ends the key.
                if sig.type == 0x20 || sig.type == 0x28 { keys[owner].revoked = true; continue }
                guard (0x10...0x13).contains(sig.type) || sig.type == 0x18 || sig.type == 0x1F else { continue }
                keys[owner].expiresAfter = sig.keyExpiresAfter.flatMap { $0 == 0 ? nil : $0 }
            default: continue
            }
        }
        return keys
    }

    static func parseKey(_ body: [UInt8]) -> Key? {
        var r = Reader(body)
        guard let version = r.byte(), version == 4, let created = r.uint32(), let algorithm = r.byte() else { return nil }
        var header: [UInt8] = [0x99]
        header += bigEndian16(body.count)
        let fingerprint = Hashing.hex(Digest.hash(.sha1, header + body)).uppercased()
        let material: Material
        switch algorithm {
        case 1, 3:
            guard let n = r.mpi(), let e = r.mpi() else { return nil }
            material = .rsa(n: n, e: e)
        case 22:
            let ed25519OID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x0F, 0x01]
            guard let length = r.byte(), let oid = r.bytes(Int(length)), let point = r.mpi() else { return nil }
            if oid == ed25519OID, point.count == 33, point[0] == 0x40 { material = .ed25519(Array(point[1...])) } else { material = .unsupported(algorithm) }
        case 27:
            guard let point = r.bytes(32) else { return nil }
            material = .ed25519(point)
        default:
            material = .unsupported(algorithm)
        }
        return Key(fingerprint: fingerprint, primary: fingerprint, userID: "", created: created, material: material)
    }

    static func parseSignature(_ bytes: [UInt8]) throws -> Signature {
        var body = bytes
        // A whole signature file: its first packet must be a signature.
        if let first = bytes.first, first & 0x80 != 0 || bytes.starts(with: Array("-----BEGIN".utf8)) {
            let all = try packets(dearmor(bytes))
            guard let packet = all.first(where: { $0.tag == 2 }) else { throw Failure.malformed("it holds no signature") }
            body = packet.body
        }
        var r = Reader(body)
        guard let version = r.byte() else { throw Failure.malformed("the signature is empty") }
        guard version == 4 else { throw Failure.unsupported("a version \(version) signature (tack reads version 4)") }
        guard let type = r.byte(), let keyAlgorithm = r.byte(), let hashAlgorithm = r.byte(),
              let hashedLength = r.uint16(), let hashed = r.bytes(Int(hashedLength)),
              let unhashedLength = r.uint16(), let unhashed = r.bytes(Int(unhashedLength)), let left = r.bytes(2) else {
            throw Failure.malformed("the signature is cut short")
        }
        var values: [[UInt8]] = []
        if keyAlgorithm == 27 {
            guard let raw = r.bytes(64) else { throw Failure.malformed("the signature is cut short") }
            values = [raw]
        } else {
            while !r.atEnd {
                guard let v = r.mpi() else { throw Failure.malformed("the signature is cut short") }
                values.append(v)
            }
        }
        var sig = Signature(version: version, type: type, keyAlgorithm: keyAlgorithm, hashAlgorithm: hashAlgorithm,
                            hashedPrefix: Array(body[0..<(6 + Int(hashedLength))]), hashLeft: left, values: values)
        // Only hashed subpackets are trusted for times; the issuer may be in either area.
        for (area, isHashed) in [(hashed, true), (unhashed, false)] {
            var s = Reader(area)
            while !s.atEnd {
                guard let length = s.subpacketLength(), length >= 1, let kind = s.byte(), let data = s.bytes(length - 1) else {
                    throw Failure.malformed("a signature subpacket is cut short")
                }
                switch kind & 0x7F {
                case 2 where isHashed && data.count == 4: sig.created = uint32(data)
                case 9 where isHashed && data.count == 4: sig.keyExpiresAfter = uint32(data)
                case 16 where data.count == 8: sig.issuerKeyID = sig.issuerKeyID ?? data.map { String(format: "%02X", $0) }.joined()
                case 33 where data.count == 21 && data[0] == 4:
                    sig.issuerFingerprint = data.dropFirst().map { String(format: "%02X", $0) }.joined()
                default: break
                }
            }
        }
        return sig
    }

    struct Packet {
        var tag: UInt8
        var body: [UInt8]
    }

    static func packets(_ bytes: [UInt8]) throws -> [Packet] {
        var out: [Packet] = []
        var r = Reader(bytes)
        while !r.atEnd {
            guard let head = r.byte(), head & 0x80 != 0 else { throw Failure.malformed("it is not OpenPGP data") }
            var tag: UInt8
            var body: [UInt8] = []
            if head & 0x40 != 0 {
                tag = head & 0x3F
                while true {
                    guard let first = r.byte() else { throw Failure.malformed("a packet is cut short") }
                    var length: Int
                    var partial = false
                    switch first {
                    case 0..<192: length = Int(first)
                    case 192..<224:
                        guard let second = r.byte() else { throw Failure.malformed("a packet is cut short") }
                        length = (Int(first) - 192) << 8 + Int(second) + 192
                    case 255:
                        guard let l = r.uint32() else { throw Failure.malformed("a packet is cut short") }
                        length = Int(l)
                    default:
                        length = 1 << Int(first & 0x1F)
                        partial = true
                    }
                    guard let chunk = r.bytes(length) else { throw Failure.malformed("a packet is cut short") }
                    body += chunk
                    if !partial { break }
                }
            } else {
                tag = (head >> 2) & 0x0F
                let length: Int?
                switch head & 0x03 {
                case 0: length = r.byte().map(Int.init)
                case 1: length = r.uint16().map(Int.init)
                case 2: length = r.uint32().map(Int.init)
                default: length = r.remaining
                }
                guard let length, let chunk = r.bytes(length) else { throw Failure.malformed("a packet is cut short") }
                body = chunk
            }
            out.append(Packet(tag: tag, body: body))
        }
        return out
    }

    /// The binary form of armoured data (every block, joined), or the bytes as they are.
    /// A block's CRC-24, when present, must match.
    static func dearmor(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let text = String(bytes: bytes, encoding: .utf8), text.contains("-----BEGIN PGP") else { return bytes }
        var out: [UInt8] = []
        var inBlock = false, inBody = false
        var base64 = "", checksum: String?
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("-----BEGIN PGP") { inBlock = true; inBody = false; base64 = ""; checksum = nil; continue }
            guard inBlock else { continue }
            if line.hasPrefix("-----END PGP") {
                guard let data = Data(base64Encoded: base64) else { throw Failure.malformed("its ASCII armour is not valid base64") }
                let block = [UInt8](data)
                if let checksum, let expected = Data(base64Encoded: checksum), [UInt8](expected) != crc24(block) {
                    throw Failure.malformed("its ASCII armour's checksum does not match (the file is damaged)")
                }
                out += block
                inBlock = false
                continue
            }
            if !inBody {
                // Armour headers (`Version: …`) end at the first empty line; a line without a
                // colon means there were none.
                if line.isEmpty { inBody = true; continue }
                if line.contains(":") { continue }
                inBody = true
            }
            if line.hasPrefix("=") && line.count == 5 { checksum = String(line.dropFirst()); continue }
            base64 += line
        }
        guard !out.isEmpty else { throw Failure.malformed("its ASCII armour has no complete block") }
        return out
    }

    static func crc24(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xB704CE
        for b in bytes {
            crc ^= UInt32(b) << 16
            for _ in 0..<8 {
                crc <<= 1
                if crc & 0x1000000 != 0 { crc ^= 0x1864CFB }
            }
        }
        return [UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    }

    struct Reader {
        let bytes: [UInt8]
        var at = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var atEnd: Bool { at >= bytes.count }
        var remaining: Int { bytes.count - at }
        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }
        mutating func bytes(_ n: Int) -> [UInt8]? {
            guard n >= 0, n <= remaining else { return nil }
            defer { at += n }
            return Array(bytes[at..<(at + n)])
        }
        mutating func uint16() -> UInt16? { bytes(2).map { UInt16($0[0]) << 8 | UInt16($0[1]) } }
        mutating func uint32() -> UInt32? { bytes(4).map(OpenPGP.uint32) }
        /// A multiprecision integer: a bit count, then the bytes.
        mutating func mpi() -> [UInt8]? {
            guard let bits = uint16() else { return nil }
            return bytes((Int(bits) + 7) / 8)
        }
        mutating func subpacketLength() -> Int? {
            guard let first = byte() else { return nil }
            switch first {
            case 0..<192: return Int(first)
            case 192..<255:
                guard let second = byte() else { return nil }
                return (Int(first) - 192) << 8 + Int(second) + 192
            default: return uint32().map(Int.init)
            }
        }
    }

    static func uint32(_ b: [UInt8]) -> UInt32 { b.prefix(4).reduce(0) { $0 << 8 | UInt32($1) } }
    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func bigEndian16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func pad(_ b: [UInt8], _ n: Int) -> [UInt8] { [UInt8](repeating: 0, count: max(0, n - b.count)) + b }

    /// `52BB 7E3D E28A 71BE 22EC  05FF EF80 A866 B47A 981F`, as gpg prints fingerprints.
    public static func spaced(_ fingerprint: String) -> String {
        guard fingerprint.count == 40 else { return fingerprint }
        var out = ""
        for (i, c) in fingerprint.enumerated() {
            if i > 0 && i % 4 == 0 { out += i == 20 ? "  " : " " }
            out.append(c)
        }
        return out
    }

    /// `2026-09-16`, in UTC.
    static func date(_ t: UInt32) -> String {
        var time = time_t(t)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }
}

extension OpenPGP.Failure {
    public var message: String {
        switch self {
        case .malformed(let why): return "the signature cannot be read: \(why)"
        case .unknownKey(let id): return "it was signed by \(id), a key tack does not trust"
        case .bad(let key): return "the signature by \(key.label) does not match the file"
        case .unsupported(let what): return "it is \(what)"
        case .keyNotValid(let key, let why): return "the signature by \(key.label) does not count: \(why)"
        }
    }
}
