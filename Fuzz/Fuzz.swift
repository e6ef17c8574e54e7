// libFuzzer entry point over tack's parsers. Build and run with `Fuzz/run SECONDS`.
// Besides "no crash, no hang", it checks the round-trip properties the parsers promise.
import BackendKinds
import TackCore
import YAML

#if FUZZING
/// libFuzzer's driver, for programs that have a main of their own (SwiftPM gives every
/// executable one).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

@main enum FuzzMain {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            guard let data, size > 0 else { return 0 }
            FuzzTargets.run(selector: data[0], bytes: Array(UnsafeBufferPointer(start: data + 1, count: size - 1)))
            return 0
        }
        if status != 0 { fatalError("libFuzzer exited with \(status)") }
    }
}
#else
@main enum FuzzMain {
    static func main() {
        print("tack-fuzz does nothing on its own: run Fuzz/run SECONDS to build it with libFuzzer and fuzz")
    }
}
#endif

enum FuzzTargets {
    static func run(selector: UInt8, bytes: [UInt8]) {
        switch selector % 6 {
        case 0:
            _ = try? YAMLParser.parse(bytes)
            // What the reader without libyaml accepts, libyaml reads to the very same nodes.
            if let simple = SimpleYAML.parse(bytes) {
                let full = try? YAMLParser.parseWithLibYAML(bytes, aliases: false)
                precondition(full == .some(simple), "SimpleYAML and libyaml disagree: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        case 1:
            _ = try? Manifest.decode(bytes, path: "/f/tack.yml", kind: .manifest, backends: .standard)
        case 2:
            if let lock = try? Lockfile.parse(bytes, path: "/f/tack.lock", backends: .standard) {
                let again = Lockfile.parse(lock.serialized())
                precondition(again == lock, "lock round trip changed the lock")
                precondition(again?.serialized() == lock.serialized(), "lock serialisation is not deterministic")
            }
        case 3:
            let text = String(decoding: bytes, as: UTF8.self)
            if let r = try? Requirement.parse(text) {
                let again = try? Requirement.parse(r.description)
                precondition(again == r, "requirement round trip: \(text.debugDescription)")
            }
            if let v = Version(text) {
                precondition(Version(v.description) == v, "version round trip: \(text.debugDescription)")
                precondition(!(v < v), "version ordering is not irreflexive")
            }
        case 4:
            let file = CompatibleFile.allCases[Int(bytes.first ?? 0) % CompatibleFile.allCases.count]
            _ = try? file.parse(Array(bytes.dropFirst()), path: "/f/\(file.rawValue)", backends: .standard)
        default:
            let parts = bytes.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            if parts.count >= 2, let r = try? Requirement.parse(parts[0]), let v = Version(parts[1]) {
                _ = r.matches(v)
            }
        }
    }
}

extension Lockfile {
    static func parse(_ bytes: [UInt8]) -> Lockfile? { try? parse(bytes, path: "/f/tack.lock", backends: .standard) }
}
