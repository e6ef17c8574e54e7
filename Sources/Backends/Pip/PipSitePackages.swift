import Foundation
import BackendKinds
import TackCore

/// What a virtualenv's site-packages says of the package installed in it.
struct PipSitePackages {
    let fs: any FileSystem

    /// The commands the package itself installs: its entry points' console and GUI scripts,
    /// and the scripts its RECORD puts in bin/.
    func consoleScripts(venv: String, package: String) throws(TackError) -> [String] {
        let lib = venv + "/lib"
        let pythons = ((try? fs.list(lib)) ?? []).filter { $0.hasPrefix("python") }
        for py in pythons {
            let site = lib + "/" + py + "/site-packages"
            for entry in (try? fs.list(site)) ?? [] where entry.hasSuffix(".dist-info") {
                guard let d = PipName.distribution(String(entry.dropLast(".dist-info".count)) + "-x-x-x.whl"), d.project == PipName.normalize(package) else { continue }
                var names: Set<String> = []
                let info = site + "/" + entry
                if let text = (try? fs.read(info + "/entry_points.txt")).map({ String(decoding: $0, as: UTF8.self) }) {
                    var section = ""
                    for raw in text.split(separator: "\n") {
                        let line = raw.trimmingCharacters(in: .whitespaces)
                        if line.hasPrefix("[") { section = line; continue }
                        guard section == "[console_scripts]" || section == "[gui_scripts]", let eq = line.firstIndex(of: "=") else { continue }
                        names.insert(line[..<eq].trimmingCharacters(in: .whitespaces))
                    }
                }
                if let record = (try? fs.read(info + "/RECORD", limit: Int.max)).map({ String(decoding: $0, as: UTF8.self) }) {
                    for line in record.split(separator: "\n") {
                        let path = line.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? ""
                        if path.hasPrefix("../../../bin/") { names.insert(String(path.dropFirst("../../../bin/".count))) }
                    }
                }
                return names.filter { ToolName.isValidBinaryName($0) && fs.isExecutable(venv + "/bin/" + $0) }.sorted()
            }
        }
        throw TackError("\(package) was installed, but its metadata (a .dist-info directory) is missing")
    }
}
