import ArgumentParser
import TackCore
import TackKit

struct Use: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pin a tool in tack.yml (or the global manifest), lock it and install it.",
        discussion: """
            Changes the version of an existing entry in place, or adds one; comments and layout \
            are kept. If the tool cannot be resolved or installed, tack.yml and tack.lock are put \
            back as they were.

            Without a version, pins the newest release there is (an exact version).

            Examples:
              tack use jq                   the newest jq, exactly
              tack use swiftlint@0.57.0
              tack use ink@0.6.0 --git https://github.com/JohnSundell/Ink.git --product ink-cli
              tack use cowsay@6.1 --pip cowsay       a Python CLI from PyPI
              tack use rubocop@1.66.1 --gem rubocop
              tack use hello@2.12 --url 'https://ftp.gnu.org/gnu/hello/hello-{version}.tar.gz' --bin hello
              tack use jq@1.7.1 --global
              tack use swift@6.0.3 --sdk static-linux   the toolchain and its Static Linux SDK
            """
    )

    @Argument(help: "tool or tool@requirement, like swiftlint@0.57.0 or swiftformat@'~> 0.54'.", completion: ToolArgument.completion)
    var target: ToolArgument

    @Flag(help: "Pin in the global manifest (~/.config/tack/tack.yml) instead of the project's tack.yml.")
    var global = false

    @Option(help: "For a new entry: the git repository the tool comes from.")
    var git: String?

    @Option(help: "For a new entry: a GitHub repository, owner/repo.")
    var github: String?

    @Option(help: "For a new entry: a PyPI package, installed in a virtual environment of its own.")
    var pip: String?

    @Option(help: "For a new entry: a RubyGems gem, installed in a GEM_HOME of its own.")
    var gem: String?

    @Option(help: "For a new entry: a URL template of an archive or binary ({version}, {os}, {arch}).")
    var url: String?

    @Option(help: "For a new entry: a GitHub repository (owner/repo) whose releases publish the tool's binaries.")
    var release: String?

    @Option(help: "For a new entry: a package of aqua's registry (owner/repo), which says how its releases are named.")
    var aqua: String?

    @Option(name: .customLong("product"), help: "For a new git entry: an executable product to build (repeatable).")
    var products: [String] = []

    @Option(name: .customLong("bin"), help: "For a new url or release entry: a path in the archive to put on PATH (repeatable).")
    var bins: [String] = []

    /// The new entry's source, as its manifest key and value (one at most).
    var sourceOption: (key: String, value: String)? {
        [("git", git), ("github", github), ("pip", pip), ("gem", gem), ("url", url), ("release", release), ("aqua", aqua)].compactMap { k, v in v.map { (k, $0) } }.first
            ?? target.source.map { (key: $0.key, value: $0.identity) }
    }

    @Option(name: .customLong("sdk"), help: "For swift: a Swift SDK published with the release to install beside it (static-linux, wasm; repeatable). Added to the entry's `sdks:`.")
    var sdks: [String] = []

    @OptionGroup var platform: PlatformOptions

    func validate() throws {
        try target.check(allowingSource: true)
        let sources = [git, github, pip, gem, url, release, aqua].compactMap { $0 } + (target.source.map { [$0.identity] } ?? [])
        if sources.count > 1 { throw ValidationError("give one source: --git, --github, --pip, --gem, --url, --release or --aqua") }
        if sources.contains(where: \.isEmpty) { throw ValidationError("a source option needs a value") }
        if !products.isEmpty && git == nil && github == nil && target.source?.key != "github" { throw ValidationError("--product goes with --git or --github") }
        if !bins.isEmpty && url == nil && release == nil && target.source?.key != "release" { throw ValidationError("--bin goes with --url or --release") }
        for name in sdks where SwiftSDK.named(name) == nil {
            throw ValidationError("\(quoted(name)) is not a Swift SDK tack knows; swift.org publishes \(SwiftSDK.names)")
        }
    }

    func run() async throws {
        let settings = try processSettings()
        let context = Context.cli(settings)
        var pin = PinService.Pin(tool: target.name, requirement: target.requirement)
        pin.global = global
        pin.platforms = platform.platforms
        if let (key, value) = sourceOption {
            switch key {
            case "git": pin.source = .git(value)
            case "github": pin.source = .git(GitHub.url(value))
            case "pip": pin.source = .pip(value)
            case "gem": pin.source = .gem(value)
            case "release": pin.source = .release(value)
            case "aqua": pin.source = .aqua(value)
            default: pin.source = .url(value)
            }
            pin.entrySource = "\(key): \(ManifestEditor.yamlValue(value))"
        }
        pin.products = products
        pin.bins = bins
        pin.sdks = sdks
        let (requirement, outcome): (Requirement, PinService.Outcome)
        do { (requirement, outcome) = try await PinService(context).pin(pin) } catch { throw fail(error) }
        let shown = { (path: String) in Paths.abbreviate(path, home: settings.home) }
        switch outcome {
        case .pinned(let file):
            Output.err("pinned \(target.name) \(requirement) in \(shown(file))\n")
        case .shadowed(let file, let winner):
            Output.err("pinned \(target.name) \(requirement) in \(shown(file)), but \(winner) takes precedence here\n")
        case .failed(let file, let report):
            Output.err("\(shown(file)) and its tack.lock were left as they were\n")
            throw ExitCode(report.status)
        }
    }
}
