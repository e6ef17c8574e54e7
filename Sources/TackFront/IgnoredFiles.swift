import TackCore

/// Warnings for the compatible files a resolution left out: each shown once per version of
/// the file (the prompt hook must not repeat it at every prompt); `tack doctor` lists them
/// every time.
public enum IgnoredFiles {
    public static func report(_ ignored: [IgnoredFile], settings: Settings) {
        guard !ignored.isEmpty else { return }
        let shown = (try? settings.requireStore()).map { WarningLedger(store: $0).unseen(ignored) } ?? ignored
        for i in shown { Output.error(i.warning) }
    }
}
