import Archive

/// What the user is told of an extraction: every setuid or setgid bit the safe extractor
/// removed, whichever backend extracted (a url archive, an artifact bundle, a git tool's
/// prebuilt bundle).
enum ExtractionNotes {
    static func of(_ report: SafeExtractor.Report, tool: String) -> [String] {
        report.strippedSpecialBits.map { "\(tool): removed the setuid/setgid bit from \($0) (tack never installs setuid files)" }
    }
}
