import ArgumentParser
import Backends
import TackCore

struct Registry: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add, update and list registries of short tool names.",
        discussion: """
            A registry is a git repository with a registry.yml at its top: tool names mapped to \
            entries as in tack.yml (a source and options, no version). Your registries take \
            precedence over tack's built-in one; a tool entry in tack.yml overrides both, field by field.
            """,
        subcommands: [Add.self, Update.self, List.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Clone a registry repository.", discussion: "Example: tack registry add https://github.com/acme/tack-registry.git")
        @Argument(help: "The registry's git URL.") var url: String
        @Option(help: "The name to keep it under (default: the repository's name).") var name: String?

        func run() async throws {
            let settings = try processSettings()
            let store: Store
            do { store = try settings.requireStore() } catch { throw fail(error) }
            let n = name ?? Registries.name(for: url)
            guard ToolName.isValid(n) else { throw ValidationError(ToolName.problem(n)) }
            if Registries.userRegistries(store: store).contains(n) {
                throw fail(TackError("a registry named \(n) exists already — `tack registry update \(n)` refreshes it, or choose another --name"))
            }
            do { try await Registries.fetch(url, name: n, store: store) } catch { throw fail(error) }
            Output.err("added the registry \(n) from \(url)\n")
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Fetch registries again (all, or the ones named).")
        @Argument(help: "Registry names.") var names: [String] = []

        func run() async throws {
            let settings = try processSettings()
            let store: Store
            do { store = try settings.requireStore() } catch { throw fail(error) }
            let all = Registries.userRegistries(store: store)
            for n in names where !all.contains(n) { throw fail(TackError("no registry named \(n) (registries: \(all.isEmpty ? "none" : all.joined(separator: ", ")))")) }
            for n in names.isEmpty ? all : names {
                guard let url = Registries.url(of: n, store: store) else { throw fail(TackError("the registry \(n) does not say where it came from; remove it and add it again")) }
                do { try await Registries.fetch(url, name: n, store: store) } catch { throw fail(error) }
                Output.err("updated the registry \(n)\n")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List registries and the tools each names.")
        func run() throws {
            let settings = try processSettings()
            let store: Store
            do { store = try settings.requireStore() } catch { throw fail(error) }
            var builtIn = ToolRegistry(backends: settings.backends)
            do { try builtIn.add(Registries.builtIn, path: "built-in") } catch { throw fail(error) }
            Output.out("built-in: \(builtIn.entries.keys.sorted().joined(separator: ", "))\n")
            for n in Registries.userRegistries(store: store) {
                var r = ToolRegistry(backends: settings.backends)
                let bytes = (try? store.fs.read(store.root + "/registries/\(n)/registry.yml")) ?? []
                try? r.add(bytes, path: n)
                Output.out("\(n) (\(Registries.url(of: n, store: store) ?? "?")): \(r.entries.keys.sorted().joined(separator: ", "))\n")
            }
        }
    }
}
