import BackendKinds
import Testing
import TackCore

/// `CachePrune`: downloads no install records, and what each kind says of its own cache
/// folder (`BackendKind.unusedCache`).
@Suite struct CachePruneTests {
    @Test func aPluginCheckoutAtACommitNoInstallRecordsGoes() throws {
        let fs = InMemoryFileSystem()
        let store = Store(root: "/h", fs: fs, backends: .standard)
        try fs.createDirectory("/h/installs/ruby/3.3.0")
        try fs.writeUserFile("/h/installs/ruby/3.3.0/.tack-install.lock", Array("""
            version: 1
            tools:
              ruby: { backend: "asdf", requested: "3.3.0", source: "https://example.com/asdf-ruby.git", version: "3.3.0", plugin-commit: "abc123" }

            """.utf8))
        for d in ["ruby-abc123", "ruby-def456", ".tmp-ruby-1"] { try fs.createDirectory("/h/cache/asdf-plugins/" + d) }
        #expect(CachePrune(store: store, removing: []).unused() == ["/h/cache/asdf-plugins/ruby-def456"])
        // With the install counted as gone (--dry-run of its removal), its checkout goes too.
        #expect(CachePrune(store: store, removing: ["ruby@3.3.0"]).unused() == ["/h/cache/asdf-plugins/ruby-abc123", "/h/cache/asdf-plugins/ruby-def456"])
    }
}
