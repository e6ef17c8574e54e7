import Backends
import TackCore

extension InstallService {
    /// Installing from a copy (`--from`): what the copy lacks for any install, each said before
    /// anything is installed, and what the copy noted when it was made (a build it could not
    /// carry). False when it lacks something.
    func checkCopy(_ items: [Installer.Item]) -> Bool {
        guard let copy = context.copy?.reader else { return true }
        let here = Platform.current.description
        var lacks: [String] = []
        for item in items {
            lacks += copy.lacks(item.locked, platform: here)
            let record = copy.index.tools.first { $0.name == item.locked.name && $0.version == item.locked.version.text }
            for note in record?.notes ?? [] { context.notify(.line("note: \(item.locked.name) \(item.locked.version): \(note)")) }
        }
        guard !lacks.isEmpty else { return true }
        for line in lacks { context.notify(.problem(TackError(line))) }
        context.notify(.problem(TackError("the copy at \(copy.label) lacks what tack.lock needs (above), so nothing was installed — make it again with `tack mirror` where tack.lock and the network are")))
        return false
    }
}
