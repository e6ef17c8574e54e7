// libFuzzer entry point over tack's parsers, the snapshot's two readers among them (a snapshot
// is read from the disk, which may hold anything). Build and run with `Fuzz/run SECONDS`.
// Besides "no crash, no hang", it checks the round-trip properties the parsers promise.
import BackendKinds
import TackCore
import TackLean
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
        switch selector % 8 {
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
        case 5:
            let parts = bytes.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            if parts.count >= 2, let r = try? Requirement.parse(parts[0]), let v = Version(parts[1]) {
                _ = r.matches(v)
            }
        case 6:
            // A snapshot read back is written again to the same bytes' meaning.
            if let s = Snapshot.decode(bytes), let encoded = s.encode() {
                precondition(Snapshot.decode(encoded) == s, "snapshot round trip changed the snapshot")
            }
        default:
            // The lean reader, which every shim runs, over anything; where the full reader
            // reads the bytes too, the two give the same answers.
            guard let lean = LeanSnapshot(made: bytes) else {
                precondition(Snapshot.decode(bytes) == nil, "the lean reader refused a snapshot the full reader reads")
                return
            }
            defer { lean.deallocate() }
            _ = lean.digest
            _ = lean.isMissing("tool")
            lean.forEach(.row) { _, _ in true }
            guard let s = Snapshot.decode(bytes) else { return }
            precondition(lean.isUpToDate == s.upToDate, "the readers disagree on uptodate")
            precondition(lean.hasUntrusted == !s.run.untrusted.isEmpty, "the readers disagree on untrusted")
            precondition(lean.hasMissing == !s.run.missing.isEmpty, "the readers disagree on missing")
            // (Answers compared where the bytes are text: the full reader reads a string.)
            guard String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes) else { return }
            var seen: Set<String> = []
            for a in s.answers where seen.insert(a.key).inserted {
                // (As text: an escape may stand for a byte that is not, which each reads its way.)
                precondition(lean.answer(Array(a.key.utf8)).map { String(decoding: $0, as: UTF8.self) } == a.output, "the readers disagree on the answer to \(a.key)")
            }
        }
    }
}

extension Lockfile {
    static func parse(_ bytes: [UInt8]) -> Lockfile? { try? parse(bytes, path: "/f/tack.lock", backends: .standard) }
}
