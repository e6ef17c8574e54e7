import Backends
import TackCore
import Testing
/// Which C library this Linux machine's binaries need.
@Suite struct HostLibCTests {
    @Test func alpineAndMuslsLoaderAreMuslAndEverythingElseIsGNU() {
        let alpine = InMemoryFileSystem(files: ["/etc/os-release": "NAME=\"Alpine Linux\"\nID=alpine\nVERSION_ID=3.20.0\n", "/lib/ld-musl-x86_64.so.1": ""])
        #expect(ReleaseAssetPicker.LibC.host(fs: alpine) == .musl)
        let quoted = InMemoryFileSystem(files: ["/etc/os-release": "ID=\"postmarketos\"\n"])
        #expect(ReleaseAssetPicker.LibC.host(fs: quoted) == .musl)
        let void = InMemoryFileSystem(files: ["/etc/os-release": "ID=void\n", "/lib/ld-musl-aarch64.so.1": ""])
        #expect(ReleaseAssetPicker.LibC.host(fs: void) == .musl)
        let debian = InMemoryFileSystem(files: ["/etc/os-release": "ID=debian\nID_LIKE=alpine\n", "/lib64/ld-linux-x86-64.so.2": "", "/lib/ld-musl-x86_64.so.1": ""])
        #expect(ReleaseAssetPicker.LibC.host(fs: debian) == .gnu)
        #expect(ReleaseAssetPicker.LibC.host(fs: InMemoryFileSystem()) == .gnu)
        #expect(ReleaseAssetPicker.LibC.host(fs: LocalFileSystem()) == .gnu)  // this Debian machine
    }
}
