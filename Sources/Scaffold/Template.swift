import Foundation
import Mustache
import TackCore
import YAML

/// A project template: a directory of files rendered with Mustache (their paths too), and a
/// `template.yml` that declares its variables and the files that depend on one:
///
///     description: What the template makes
///     variables:
///       name: { description: The package name }          # no default: must be given
///       demo: { description: Include the demo, default: "true", type: boolean }
///     conditional:
///       "Sources/{{name}}/": demo                          # only when demo is true
///
/// Variables whose value is `true` or `false` render as booleans, so `{{#demo}}…{{/demo}}`
/// sections work. A `type: boolean` variable (and any variable `conditional` names) takes only
/// `true` or `false`. Output is not HTML-escaped.
public struct Template: Sendable {
    public struct Variable: Sendable, Equatable {
        public var name: String
        public var description: String
        public var defaultValue: String?
        /// Takes only `true` or `false`.
        public var isBoolean = false

        func accepts(_ value: String) -> Bool { !isBoolean || value == "true" || value == "false" }
    }

    public static let manifestName = "template.yml"

    public var directory: String
    /// Where the template's files are read.
    public var fs: any FileSystem
    public var description: String
    public var variables: [Variable]
    /// Path prefixes (as written in the template, before rendering) and the variable that must
    /// be true for files under them to be written.
    public var conditional: [(prefix: String, variable: String)]

    /// Reads `directory/template.yml`.
    public static func load(_ directory: String, fs: any FileSystem) throws(TackError) -> Template {
        let path = directory + "/" + manifestName
        guard let info = fs.info(path) else {
            throw TackError("\(directory) is not a tack template: it has no \(manifestName)")
        }
        guard info.kind == .file else {
            throw TackError("\(path) is not a regular file, so tack cannot read the template")
        }
        let data: [UInt8]
        do { data = try fs.read(path) } catch { throw TackError("cannot read \(path): \(error)") }
        let root: Node?
        do { root = try YAMLParser.parse(data) } catch { throw TackError.at(path, error.mark.line, error.mark.column, error.message) }
        var t = Template(directory: directory, fs: fs, description: "", variables: [], conditional: [])
        guard let root else { return t }
        guard case .mapping(let pairs, _) = root else { throw TackError.at(path, root.mark.line, root.mark.column, "a template.yml is a mapping") }
        func string(_ node: Node, _ what: String) throws(TackError) -> String {
            guard case .scalar(let s) = node else { throw TackError.at(path, node.mark.line, node.mark.column, "\(what) must be a string, not \(node.kindName)") }
            return s.value
        }
        for (key, value) in pairs {
            switch key.value {
            case "description": t.description = try string(value, "`description`")
            case "variables":
                guard case .mapping(let vars, _) = value else { throw TackError.at(path, value.mark.line, value.mark.column, "`variables` must be a mapping of names to their description and default") }
                for (name, spec) in vars { t.variables.append(try variable(name, spec, path: path)) }
            case "conditional":
                guard case .mapping(let items, _) = value else { throw TackError.at(path, value.mark.line, value.mark.column, "`conditional` must map paths to variables") }
                for (prefix, variable) in items { t.conditional.append((prefix.value, try string(variable, "a conditional's variable"))) }
            default:
                throw TackError.at(path, key.mark.line, key.mark.column, "unknown key `\(key.value)` in template.yml; expected description, variables or conditional")
            }
        }
        for c in t.conditional {
            guard let i = t.variables.firstIndex(where: { $0.name == c.variable }) else {
                throw TackError("\(path): `conditional` names the variable `\(c.variable)`, which `variables` does not declare")
            }
            t.variables[i].isBoolean = true
        }
        for v in t.variables {
            if let d = v.defaultValue, !v.accepts(d) {
                throw TackError("\(path): the variable `\(v.name)` is true or false, so its default cannot be \(quoted(d))")
            }
        }
        return t
    }

    /// One entry of `variables:`: a description, or a mapping of description, default and type.
    static func variable(_ name: Scalar, _ spec: Node, path: String) throws(TackError) -> Variable {
        func string(_ node: Node, _ what: String) throws(TackError) -> String {
            guard case .scalar(let s) = node else { throw TackError.at(path, node.mark.line, node.mark.column, "\(what) must be a string, not \(node.kindName)") }
            return s.value
        }
        guard name.value.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) != nil else {
            throw TackError.at(path, name.mark.line, name.mark.column, "\(quoted(name.value)) is not a variable name (letters, digits and _)")
        }
        var v = Variable(name: name.value, description: "", defaultValue: nil)
        guard case .mapping(let fields, _) = spec else {
            v.description = try string(spec, "a variable's description")
            return v
        }
        for (k, f) in fields {
            switch k.value {
            case "description": v.description = try string(f, "`description`")
            case "default": v.defaultValue = try string(f, "`default`")
            case "type":
                switch try string(f, "`type`") {
                case "boolean": v.isBoolean = true
                case "text": v.isBoolean = false
                default: throw TackError.at(path, f.mark.line, f.mark.column, "a variable's `type` is boolean or text")
                }
            default: throw TackError.at(path, k.mark.line, k.mark.column, "unknown key `\(k.value)` in a variable; expected description, default or type")
            }
        }
        return v
    }

    /// The values to render with: the defaults, then `given`. Unknown or missing variables are
    /// errors that list what the template has.
    public func values(_ given: [String: String]) throws(TackError) -> [String: String] {
        var out: [String: String] = [:]
        for v in variables { if let d = v.defaultValue { out[v.name] = d } }
        for (k, value) in given {
            guard let v = variables.first(where: { $0.name == k }) else {
                throw TackError("the template has no variable `\(k)`; it has: \(variables.map(\.name).joined(separator: ", "))")
            }
            if !v.accepts(value) {
                throw TackError("the variable `\(k)` is true or false, not \(quoted(value)) (\(v.description))")
            }
            out[k] = value
        }
        let missing = variables.filter { out[$0.name] == nil }
        if !missing.isEmpty {
            throw TackError("the template needs " + missing.map { "`\($0.name)` (\($0.description))" }.joined(separator: ", ") + " — give it with --var NAME=VALUE")
        }
        return out
    }

    /// A rendered file: its path in the new project, its bytes, and whether it is executable.
    public struct File: Sendable, Equatable {
        public var path: String
        public var contents: [UInt8]
        public var executable: Bool
        /// Where a symbolic link of the template points (relative, inside the template): the
        /// new project gets the link itself, never the file it leads to.
        public var linkTarget: String? = nil
    }

    /// Whether a link at `rel` (a path inside the template) pointing to `target` stays inside
    /// the template: relative, and never climbing above the template's top.
    static func linkStaysInside(_ rel: String, target: String) -> Bool {
        guard !target.isEmpty, !target.hasPrefix("/") else { return false }
        var depth = rel.split(separator: "/").count - 1
        for part in target.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { depth -= 1; if depth < 0 { return false } } else { depth += 1 }
        }
        return true
    }

    /// Every file of the template, paths and text rendered with `values`.
    public func render(_ values: [String: String]) throws(TackError) -> [File] {
        var context: [String: Any] = [:]
        for (k, v) in values {
            switch v {
            case "true": context[k] = true
            case "false": context[k] = false
            default: context[k] = v
            }
        }
        guard fs.isDirectory(directory) else { throw TackError("cannot read the template \(directory)") }
        var files: [File] = []
        for rel in fs.walk(directory) {
            if rel == Self.manifestName || rel == ".git" || rel.hasPrefix(".git/") { continue }
            let full = directory + "/" + rel
            // A link is written as a link, and only when it points inside the template: a
            // template can never copy the user's files (a key, a config) into a project.
            // (The walk lists a link and never goes through it.)
            if let target = fs.linkTarget(full) {
                guard Self.linkStaysInside(rel, target: target) else {
                    throw TackError("the template's file \(rel) is a link to \(quoted(target)), outside the template — a template may link only to its own files; nothing was written")
                }
                if let c = conditional.first(where: { rel.hasPrefix($0.prefix) }), values[c.variable] != "true" { continue }
                let path = try renderedPath(rel, context)
                files.append(File(path: path, contents: [], executable: false, linkTarget: target))
                continue
            }
            guard fs.info(full)?.kind == .file else { continue }
            if let c = conditional.first(where: { rel.hasPrefix($0.prefix) }), values[c.variable] != "true" { continue }
            let path = try renderedPath(rel, context)
            var contents: [UInt8]
            do { contents = try fs.read(full, limit: Int.max) } catch { throw TackError("cannot read \(full): \(error)") }
            // Text with no tag is the same rendered: not rendered (a template's data files —
            // the layout's browser fixtures are 2 MB — would cost seconds).
            if Self.hasTag(contents), let text = String(validating: contents, as: UTF8.self) {
                contents = Array(try renderText(text, context, what: rel).utf8)
            }
            let executable = fs.isExecutable(full)
            files.append(File(path: path, contents: contents, executable: executable))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Whether `bytes` hold `{{`, which every Mustache tag starts with (a delimiter change
    /// too: `{{=`).
    static func hasTag(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 1 else { return false }
        for i in 1..<bytes.count where bytes[i] == UInt8(ascii: "{") && bytes[i - 1] == UInt8(ascii: "{") { return true }
        return false
    }

    /// A template file's path in the new project, refused when it would land outside it.
    func renderedPath(_ rel: String, _ context: [String: Any]) throws(TackError) -> String {
        let path = try renderText(rel, context, what: "the file name \(rel)")
        guard !path.isEmpty, !path.hasPrefix("/"), !path.split(separator: "/").contains(where: { $0 == ".." || $0.isEmpty }) else {
            throw TackError("the template's file \(rel) renders to the path \(quoted(path)), which is not inside the new project")
        }
        return path
    }

    func renderText(_ text: String, _ context: [String: Any], what: String) throws(TackError) -> String {
        do {
            return try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + text).render(context)
        } catch let e as MustacheTemplate.ParserError {
            throw TackError("\(directory)/\(what): line \(e.context.lineNumber), column \(e.context.columnNumber): cannot render it (\(e.error))")
        } catch {
            throw TackError("\(directory)/\(what): cannot render it (\(error))")
        }
    }
}
