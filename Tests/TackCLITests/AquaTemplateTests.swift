@testable import Backends
import Foundation
import TackCore
import Testing
import YAML

/// aqua's registry language: the Go templates its asset names and URLs are written in, and
/// the expr-lang constraints that choose a version's overrides.
@Suite struct AquaTemplateTests {
    typealias V = AquaTemplate.Value
    static let linux: [String: V] = [
        "Version": .string("v1.2.3"), "SemVer": .string("v1.2.3"), "GOOS": .string("linux"), "GOARCH": .string("amd64"),
        "OS": .string("linux"), "Arch": .string("amd64"), "Format": .string("tar.gz"), "Vars": .map(["channel": .string("stable")]),
    ]

    func render(_ template: String, _ values: [String: V] = linux) throws(AquaTemplate.Failure) -> String { try AquaTemplate.render(template, values) }

    @Test func theRegistrysTemplatesRender() throws {
        #expect(try render("terraform_{{trimV .Version}}_{{.OS}}_{{.Arch}}.zip") == "terraform_1.2.3_linux_amd64.zip")
        #expect(try render("{{.Version|trimV}}") == "1.2.3")
        #expect(try render("{{trimPrefix \"cli/\" .Version | trimV}}", ["Version": .string("cli/v2.0.1")]) == "2.0.1")
        #expect(try render("{{replace \".\" \"\" .Version}}") == "v123")
        #expect(try render("{{title .OS}}-{{title \"hello world\"}}") == "Linux-Hello World")
        #expect(try render("{{(semver .Version).Major}}.{{(semver .SemVer).Minor}}", ["Version": .string("v2.5.0"), "SemVer": .string("2.5.0")]) == "2.5")
        #expect(try render("{{ index (splitList \".\" (trimV .Version)) 0 }}-{{ index (splitList \".\" (trimV .Version)) 2 }}") == "1-3")
        #expect(try render("{{.Version | regexFind \"^[^-]+\"}}", ["Version": .string("v1.2.3-rc.1")]) == "v1.2.3")
        #expect(try render("{{trimV .Version | replace \".\" \"_\" | replace \"_3\" \"\" | trimSuffix \"_2\"}}") == "1")
        #expect(try render("{{.AssetWithoutExt | trimSuffix \"-bin\"}}", ["AssetWithoutExt": .string("tool-linux-bin")]) == "tool-linux")
        #expect(try render("ch={{.Vars.channel}}") == "ch=stable")
        #expect(try render("{{if eq .GOOS \"darwin\"}}amd64{{else}}{{.GOARCH}}{{end}}") == "amd64")
        #expect(try render("{{if eq .GOOS \"darwin\"}}amd64{{else}}{{.GOARCH}}{{end}}", ["GOOS": .string("linux"), "GOARCH": .string("arm64")]) == "arm64")
        #expect(try render("{{if eq .OS \"x\"}}a{{else if eq .OS \"linux\"}}b{{else}}c{{end}}") == "b")
        #expect(try render("a {{- \" b \" -}} c") == "a b c")
        #expect(try render("no actions at all") == "no actions at all")
    }

    @Test(arguments: [
        ("{{range .X}}{{end}}", "`range` is not supported"), ("{{unknown .Version}}", "the function `unknown` is not one"),
        ("{{.Nope}}", "there is no field .Nope"), ("{{.Version", "does not end with `}}`"), ("{{if .OS}}x", "an `if` without its `end`"),
        ("{{end}}", "without an `if`"), ("{{trimV}}", "`trimV` takes 1 argument, given 0"), ("{{\"unterminated}}", "a string without its closing quote"),
        ("{{(semver .Version).Nope}}", "a version has no field .Nope"), ("{{semver \"banana\"}}", "is not a version"),
        ("{{index (splitList \".\" .Version) 9}}", "is outside a list of 3"), ("{{.}}", "`.` alone"),
        ("{{" + String(repeating: "(", count: 200) + ".Version" + String(repeating: ")", count: 200) + "}}", "deeper than 64"),
    ])
    func whatTackCannotReadIsSaid(template: String, message: String) {
        do throws(AquaTemplate.Failure) {
            let out = try render(template)
            Issue.record("\(template) rendered \(out)")
        } catch {
            #expect(error.message.contains(message), "\(template): \(error.message)")
        }
    }

    @Test func versionConstraints() throws {
        func holds(_ expression: String, _ version: String, semVer: String? = nil) throws(AquaExpression.Failure) -> Bool {
            try AquaExpression(expression).holds(version: version, semVer: semVer ?? version)
        }
        #expect(try holds("true", "v1") && !holds("false", "v1"))
        #expect(try holds("semver(\">= 0.4.0\")", "v0.4.0") && !holds("semver(\">= 0.4.0\")", "v0.3.0"))
        #expect(try !holds("semver(\">= 0.4.0\")", String(repeating: "a", count: 40)), "a commit meets no constraint")
        #expect(try holds("semver(\">= 1.2, < 2\")", "1.9.9") && !holds("semver(\">= 1.2, < 2\")", "2.0.0"))
        #expect(try holds("semver(\"<= 1.0.0\")", "v1.0.0-rc1"), "a prerelease is before its release")
        #expect(try !holds("semver(\"~> 1.0\")", "v1.0.0"), "an operator aqua does not know holds for nothing")
        #expect(try holds("Version == \"v1.0.0\"", "v1.0.0") && !holds("Version == \"v1.0.0\"", "v1.0.1"))
        #expect(try holds("Version in [\"v1\", \"v2\",]", "v2") && !holds("Version in [\"v1\"]", "v2"))
        #expect(try holds("SemVer in [\"1.0\"] or semver(\"> 3\")", "cli/1.0", semVer: "1.0"))
        #expect(try holds("Version startsWith \"kustomize/\" and semverWithVersion(\">= 4.2.0\", trimPrefix(Version, \"kustomize/\"))", "kustomize/v4.5.7"))
        #expect(try !holds("Version startsWith \"kustomize/\" and semverWithVersion(\">= 4.2.0\", trimPrefix(Version, \"kustomize/\"))", "kustomize/v4.1.0"))
        #expect(try holds("not (Version startsWith \"x\") && !(Version startsWith \"y\") && semver(\">= 1\")", "v1.5"))
        #expect(try holds("(semver(\"< 1\") && semver(\"> 0\")) || (semver(\">= 2\") && semver(\"< 3\"))", "v2.1"))
        #expect(try holds("Version matches \"^v[0-9]+\\\\.\"", "v10.2") && holds("Version contains \"rc\"", "v1-rc1"))
        for hostile in ["semver(", "Version ==", "((((", String(repeating: "(", count: 10_000) + "true", String(repeating: "not ", count: 10_000) + "true",
                        "Version = \"x\"", "foo(\"a\")", "Nope == \"x\"", "\"a\" in \"b\""] {
            #expect(throws: AquaExpression.Failure.self, "\(hostile.prefix(40))") { _ = try holds(hostile, "v1.0.0") }
        }
    }

    @Test func goVersionOrdersAsAquaDoes() {
        func v(_ s: String) -> GoVersion? { GoVersion(s) }
        #expect(v("1.2") == v("1.2.0") && v("v1.2.0") == v("1.2.0"))
        #expect(v("1.0.0-rc1")! < v("1.0.0")! && v("1.0.0-alpha")! < v("1.0.0-alpha.1")! && v("1.0.0-alpha.1")! < v("1.0.0-beta")!)
        #expect(v("1.0.0-2")! < v("1.0.0-rc")! && v("1.0rc1")! < v("1.0")!)
        #expect(v("1.2.3.4")! > v("1.2.3")! && v("1.2.3+build9") == v("1.2.3"))
        for bad in ["", "v", "x1.0", "1..2", "1.0-", "1.0.0+", String(repeating: "9", count: 30)] { #expect(v(bad) == nil, "\(bad)") }
    }

    /// Every template and constraint in a trimmed copy of aqua's standard registry (every
    /// construct it uses: `Fixtures/aqua/trim.py`) reads and renders for the four platforms.
    @Test func everyTemplateAndConstraintOfTheRegistryReads() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/aqua/registry.yaml")
        guard case .mapping(let top, _)? = try YAMLParser.parse(Array(try Data(contentsOf: url)), aliases: true),
              case .sequence(let packages, _)? = top.first(where: { $0.key.value == "packages" })?.value else {
            Issue.record("the fixture has no packages")
            return
        }
        #expect(packages.count > 100)
        var templates = 0, constraints = 0
        var problems: [String] = []
        for case .mapping(let package, _) in packages {
            let name = package.first { $0.key.value == "name" }?.value ?? package.first { $0.key.value == "repo_name" }?.value
            let label: String = { if case .scalar(let s)? = name { return s.value } else { return "?" } }()
            func visit(_ node: Node, key: String) {
                switch node {
                case .scalar(let s):
                    if key == "version_constraint" || key == "version_filter" {
                        constraints += 1
                        for version in ["v1.2.3", "1.2.3", "cli/v1.2.3"] {
                            do { _ = try AquaExpression(s.value).holds(version: version, semVer: version) } catch {
                                problems.append("\(label): \(s.value): \(error.message)")
                            }
                        }
                    } else if s.value.contains("{{") {
                        templates += 1
                        for (goos, goarch) in [("linux", "amd64"), ("linux", "arm64"), ("darwin", "arm64"), ("darwin", "amd64")] {
                            let values: [String: V] = [
                                "Version": .string("v1.2.3"), "SemVer": .string("1.2.3"), "GOOS": .string(goos), "GOARCH": .string(goarch),
                                "OS": .string(goos), "Arch": .string(goarch), "Format": .string("tar.gz"), "Asset": .string("tool-1.2.3.tar.gz"),
                                "AssetWithoutExt": .string("tool-1.2.3"), "FileName": .string("tool"), "AssetURL": .string("https://example.org/tool"),
                                "Vars": .map(["channel": .string("stable"), "go_version": .string("1.23"), "version": .string("1")]),
                            ]
                            do { _ = try AquaTemplate.render(s.value, values) } catch { problems.append("\(label): \(s.value): \(error.message)") }
                        }
                    }
                case .sequence(let items, _): for item in items { visit(item, key: key) }
                case .mapping(let pairs, _): for pair in pairs { visit(pair.value, key: pair.key.value) }
                }
            }
            visit(.mapping(package, Mark(line: 0, column: 0)), key: "")
        }
        #expect(templates > 500 && constraints > 100, "\(templates) templates, \(constraints) constraints")
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.prefix(20).joined(separator: "\n"))")
    }
}
