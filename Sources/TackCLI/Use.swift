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

    @Option(name: .customLong("product"), help: "For a new git entry: an executable product to build (repeatable).")
    var products: [String] = []

    @Option(name: .customLong("sdk"), help: "For swift: a Swift SDK published with the release to install beside it (static-linux, wasm; repeatable). Added to the entry's `sdks:`.")
    var sdks: [String] = []

    @OptionGroup var platform: PlatformOptions

    func validate() throws {
        try target.check()
        if git != nil && github != nil { throw ValidationError("give --git or --github, not both") }
        if !products.isEmpty && git == nil && github == nil { throw ValidationError("--product goes with --git or --github") }
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
        pin.source = (git ?? github.map(GitHub.url)).map { .git($0) }
        pin.entrySource = git.map { "git: \(ManifestEditor.yamlValue($0))" } ?? github.map { "github: \(ManifestEditor.yamlValue($0))" }
        pin.products = products
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
