/// What a transparency log entry's body (`canonicalizedBody`) records, read for the kinds
/// Sigstore clients log, and compared with the bundle: the same artifact digest, signature and
/// signer. A log entry that proves another signing proves nothing about this one.
struct LogEntryBody {
    /// What the bundle says was signed, by whom (the certificate's or key's DER).
    struct Expected {
        var content: SigstoreBundle.Content
        var certificate: Certificate?
        var key: PublicKey?
    }

    static func check(_ entry: SigstoreBundle.LogEntry, index: Int, against expected: Expected) throws(SigstoreError) {
        let body = try JSONObject.parse(entry.body, what: "transparency log entry \(index)'s body")
        let kind = try body.string("kind"), version = try body.string("apiVersion")
        guard kind == entry.kind, version == entry.version else {
            throw .logEntry(index: index, why: "its body is a \(kind) \(version) entry, not the \(entry.kind) \(entry.version) it is said to be")
        }
        let spec = try body.object("spec")
        switch (kind, version, expected.content) {
        case ("hashedrekord", "0.0.1", .message(let hash, let digest, let signature)):
            let data = try spec.object("data").object("hash")
            guard hash == .sha256, try data.string("algorithm") == "sha256", Hex.decode(try data.string("value")) == digest else {
                throw .logEntryMismatch(index: index, what: "artifact digest")
            }
            let sig = try spec.object("signature")
            guard try sig.bytes("content") == signature else { throw .logEntryMismatch(index: index, what: "signature") }
            try checkSigner(pem: try sig.object("publicKey").bytes("content"), index: index, expected)
        case ("hashedrekord", "0.0.2", _):
            let v2 = try spec.object("hashedRekordV002")
            let data = try v2.object("data")
            let sig = try v2.object("signature")
            let (wantDigest, wantSignature): ([UInt8], [UInt8])
            switch expected.content {
            case .message(_, let digest, let signature): (wantDigest, wantSignature) = (digest, signature)
            case .dsse(let type, let payload, let signatures):
                // A DSSE envelope is logged as the hash of what its signature signs.
                guard let first = signatures.first else { throw .signature("the DSSE envelope has no signature") }
                (wantDigest, wantSignature) = (HashAlgorithm.sha256.digest(DSSE.pae(type: type, payload: payload)), first)
            }
            guard HashAlgorithm(protobufName: try data.string("algorithm")) != nil, try data.bytes("digest") == wantDigest else {
                throw .logEntryMismatch(index: index, what: "artifact digest")
            }
            guard try sig.bytes("content") == wantSignature else { throw .logEntryMismatch(index: index, what: "signature") }
            let verifier = try sig.object("verifier")
            if let cert = verifier.optionalObject("x509Certificate") {
                guard let mine = expected.certificate, try cert.bytes("rawBytes") == mine.der else { throw .logEntryMismatch(index: index, what: "signing certificate") }
            } else if let key = verifier.optionalObject("publicKey") {
                guard let mine = expected.key, try key.bytes("rawBytes") == mine.spki else { throw .logEntryMismatch(index: index, what: "signing key") }
            } else {
                throw .logEntry(index: index, why: "its body names no verifier")
            }
        case ("dsse", "0.0.1", .dsse(_, let payload, let signatures)):
            try checkPayloadHash(spec, payload, index)
            let logged = try spec.objects("signatures")
            guard logged.count == signatures.count else { throw .logEntryMismatch(index: index, what: "set of DSSE signatures") }
            for (l, mine) in zip(logged, signatures) {
                guard try l.bytes("signature") == mine else { throw .logEntryMismatch(index: index, what: "DSSE signature") }
                try checkSigner(pem: try l.bytes("verifier"), index: index, expected)
            }
        case ("intoto", "0.0.2", .dsse(_, let payload, let signatures)):
            let content = try spec.object("content")
            try checkPayloadHash(content, payload, index)
            let envelope = try content.object("envelope")
            let logged = try envelope.objects("signatures")
            guard logged.count == signatures.count else { throw .logEntryMismatch(index: index, what: "set of DSSE signatures") }
            for (l, mine) in zip(logged, signatures) {
                // intoto entries hold the signature base64-encoded twice.
                guard let inner = Base64.decode(String(decoding: try l.bytes("sig"), as: UTF8.self)), inner == mine else {
                    throw .logEntryMismatch(index: index, what: "DSSE signature")
                }
                try checkSigner(pem: try l.bytes("publicKey"), index: index, expected)
            }
        default:
            throw .logEntry(index: index, why: "a \(kind) \(version) entry cannot record this bundle's kind of signature")
        }
    }

    static func checkPayloadHash(_ spec: JSONObject, _ payload: [UInt8], _ index: Int) throws(SigstoreError) {
        let hash = try spec.object("payloadHash")
        guard try hash.string("algorithm") == "sha256", Hex.decode(try hash.string("value")) == HashAlgorithm.sha256.digest(payload) else {
            throw .logEntryMismatch(index: index, what: "DSSE payload")
        }
    }

    /// A PEM certificate or public key in the body: the bundle's signer.
    static func checkSigner(pem: [UInt8], index: Int, _ expected: Expected) throws(SigstoreError) {
        let text = String(decoding: pem, as: UTF8.self)
        if let mine = expected.certificate {
            guard Certificate(pem: text) == mine else { throw .logEntryMismatch(index: index, what: "signing certificate") }
        } else if let mine = expected.key {
            guard PublicKey(pem: text) == mine else { throw .logEntryMismatch(index: index, what: "signing key") }
        }
    }
}

/// Dead Simple Signing Envelopes: what the signature of an envelope signs.
enum DSSE {
    /// `DSSEv1 <len type> <type> <len payload> <payload>`.
    static func pae(type: String, payload: [UInt8]) -> [UInt8] {
        Array("DSSEv1 \(type.utf8.count) \(type) \(payload.count) ".utf8) + payload
    }
}
