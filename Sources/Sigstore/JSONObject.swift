import Foundation

/// A JSON object read for verification: typed lookups that say which field is wrong.
struct JSONObject {
    let fields: [String: Any]
    /// Where it is, for messages (`bundle.verificationMaterial`).
    let path: String

    init(_ fields: [String: Any], path: String) {
        self.fields = fields
        self.path = path
    }

    static func parse(_ bytes: [UInt8], what: String) throws(SigstoreError) -> JSONObject {
        guard let value = try? JSONSerialization.jsonObject(with: Data(bytes), options: []) else {
            throw .malformed(what: what, why: "it is not JSON")
        }
        guard let object = value as? [String: Any] else { throw .malformed(what: what, why: "it is not a JSON object") }
        return JSONObject(object, path: what)
    }

    func has(_ key: String) -> Bool { fields[key] != nil && !(fields[key] is NSNull) }

    func object(_ key: String) throws(SigstoreError) -> JSONObject {
        guard let o = optionalObject(key) else { throw .malformed(what: path, why: "`\(key)` is missing or not an object") }
        return o
    }

    func optionalObject(_ key: String) -> JSONObject? {
        (fields[key] as? [String: Any]).map { JSONObject($0, path: path + "." + key) }
    }

    func objects(_ key: String) throws(SigstoreError) -> [JSONObject] {
        guard let value = fields[key], !(value is NSNull) else { return [] }
        guard let list = value as? [Any] else { throw .malformed(what: path, why: "`\(key)` is not a list") }
        var out: [JSONObject] = []
        for (i, item) in list.enumerated() {
            guard let o = item as? [String: Any] else { throw .malformed(what: path, why: "`\(key)[\(i)]` is not an object") }
            out.append(JSONObject(o, path: "\(path).\(key)[\(i)]"))
        }
        return out
    }

    func string(_ key: String) throws(SigstoreError) -> String {
        guard let s = optionalString(key) else { throw .malformed(what: path, why: "`\(key)` is missing or not a string") }
        return s
    }

    func optionalString(_ key: String) -> String? { fields[key] as? String }

    func strings(_ key: String) throws(SigstoreError) -> [String] {
        guard let value = fields[key] else { return [] }
        guard let list = value as? [String] else { throw .malformed(what: path, why: "`\(key)` is not a list of strings") }
        return list
    }

    /// Bytes written as base64 (protobuf's JSON form of `bytes`).
    func bytes(_ key: String) throws(SigstoreError) -> [UInt8] {
        let text = try string(key)
        guard let b = Base64.decode(text) else { throw .malformed(what: path, why: "`\(key)` is not base64") }
        return b
    }

    /// A 64-bit integer, which protobuf's JSON writes as a string (a number is taken too).
    func int64(_ key: String) throws(SigstoreError) -> Int64 {
        guard let i = optionalInt64(key) else { throw .malformed(what: path, why: "`\(key)` is missing or not an integer") }
        return i
    }

    func optionalInt64(_ key: String) -> Int64? {
        if let s = fields[key] as? String { return Int64(s) }
        if let n = fields[key] as? Int { return Int64(n) }
        return nil
    }
}
