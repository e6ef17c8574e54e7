import ArgumentParser
import Backends
import Sigstore
import TackCore

/// `tack verify`: a Sigstore bundle checked as tack's installs check them, for any file.
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify a file's Sigstore bundle (a keyless signature, an attestation) offline.",
        discussion: """
            Checks everything the bundle proves, with nothing fetched: its transparency log \
            entries (signed promise, inclusion proof, checkpoint), its timestamps, the signing \
            certificate's path to a certificate authority of the trusted root at the time of \
            signing and its certificate transparency timestamps, the signature over the file (or \
            the DSSE envelope whose statement names the file), and who signed. Exit 0 only when \
            all of it holds.

            The trusted root is Sigstore's public-good instance's, as shipped with tack; \
            --trusted-root or TACK_SIGSTORE_TRUSTED_ROOT names another (a private instance).

            Examples:
              tack verify --bundle tool.sigstore.json \\
                --certificate-identity https://github.com/o/r/.github/workflows/release.yml@refs/tags/v1.2.0 \\
                --certificate-oidc-issuer https://token.actions.githubusercontent.com tool.tar.gz
              tack verify --bundle b.json --key cosign.pub sha256:0123…
            """
    )

    @Option(help: "The Sigstore bundle (JSON).")
    var bundle: String

    @Option(name: .customLong("certificate-identity"), help: "The signer the certificate must name, exactly (a workflow URI or an e-mail).")
    var identity: String?

    @Option(name: .customLong("certificate-identity-regexp"), help: "A regular expression the signer must match (anywhere; anchor it with ^…$).")
    var identityRegexp: String?

    @Option(name: .customLong("certificate-oidc-issuer"), help: "The OIDC issuer that must have vouched for the signer.")
    var issuer: String?

    @Option(name: .customLong("trusted-root"), help: "A Sigstore trusted_root.json to trust instead of the public-good instance's.")
    var trustedRoot: String?

    @Option(help: "A PEM public key the bundle must be signed with (instead of a certificate).")
    var key: String?

    @Argument(help: "The file, or its digest as sha256:HEX.")
    var artifact: String

    func validate() throws {
        if key != nil {
            guard identity == nil, identityRegexp == nil, issuer == nil else {
                throw ValidationError("--key verifies a key's signature; it takes no --certificate-identity or --certificate-oidc-issuer")
            }
        } else {
            guard (identity == nil) != (identityRegexp == nil) else {
                throw ValidationError("give the signer: --certificate-identity or --certificate-identity-regexp (one of them), or --key")
            }
            guard let issuer, !issuer.isEmpty else { throw ValidationError("give --certificate-oidc-issuer (the signer's OIDC issuer)") }
        }
    }

    func run() async throws {
        let settings = try processSettings()
        do {
            let verification = try VerifyRun(settings: settings).run(
                bundle: bundle, artifact: artifact, policy: policySource, trustedRoot: trustedRoot)
            var line = "verified"
            if let who = verification.identity { line += ": signed by \(Terminal.escapeControls(who))" }
            if let by = verification.issuer { line += " (issued by \(Terminal.escapeControls(by)))" }
            Output.out(line + "\n")
        } catch {
            Output.error(error.message)
            throw ExitCode(1)
        }
    }

    var policySource: VerifyRun.PolicySource {
        if let key { return .key(path: key) }
        let match: SigstorePolicy.Identity = identity.map { .exact($0) } ?? .regexp(identityRegexp ?? "")
        return .certificate(identity: match, issuer: issuer ?? "")
    }
}

/// What `tack verify` does with its arguments, on the context's file system.
struct VerifyRun {
    let settings: Settings

    enum PolicySource {
        case certificate(identity: SigstorePolicy.Identity, issuer: String)
        case key(path: String)
    }

    func run(bundle: String, artifact: String, policy: PolicySource, trustedRoot: String?) throws(TackError) -> SigstoreVerification {
        let bundleBytes = try read(bundle, what: "the bundle")
        let input: SigstoreArtifact
        if artifact.hasPrefix("sha256:"), !settings.fs.isFile(path(artifact)) {
            let digest = Checksum.bytes(String(artifact.dropFirst(7)))
            guard digest.count == 32 else {
                throw TackError("`\(artifact)` is not a SHA-256 digest (sha256: and 64 hexadecimal digits)")
            }
            input = .sha256(digest)
        } else {
            input = .bytes(try read(artifact, what: "the file"))
        }
        // One rule for the trusted root, as installs choose it (`SigstoreTrust`).
        let trust = trustedRoot.map { SigstoreTrust(rootFile: path($0), fs: settings.fs) } ?? SigstoreTrust(environment: settings.environment, fs: settings.fs)
        let root = try trust.root()
        do {
            let resolved: SigstorePolicy
            switch policy {
            case .certificate(let identity, let issuer): resolved = .certificate(identity: identity, issuer: issuer)
            case .key(let keyPath): resolved = try SigstorePolicy.key(pem: String(decoding: try read(keyPath, what: "the key"), as: UTF8.self))
            }
            return try BundleVerifier(root: root).verify(try SigstoreBundle.parse(bundleBytes), artifact: input, policy: resolved)
        } catch let error as SigstoreError {
            throw TackError("\(Terminal.escapeControls(bundle)) does not verify: \(error.message)")
        } catch let error as TackError {
            throw error
        } catch {
            throw TackError("\(error)")
        }
    }

    func path(_ p: String) -> String { Paths.join(settings.cwd, p) }

    func read(_ p: String, what: String) throws(TackError) -> [UInt8] {
        do { return try settings.fs.read(path(p), limit: 64 << 20) } catch {
            throw TackError("cannot read \(what) \(Terminal.escapeControls(p)): \(error.reason)")
        }
    }
}
