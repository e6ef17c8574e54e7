/// The bytes of an executable its program can read at run time: an ELF file's allocated data
/// sections (`.rodata`, `.data` …: where a string a build compiled in lives), not its debug
/// information, which names every source file without the program ever reading one. Nil for
/// a file that is not a 64-bit little-endian ELF (its bytes are then not looked into).
enum LoadedData {
    static func sections(of bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
              bytes[4] == 2, bytes[5] == 1 else { return nil }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u64(_ at: Int) -> Int? {
            var v: UInt64 = 0
            for k in 0..<8 { v |= UInt64(bytes[at + k]) << (8 * UInt64(k)) }
            return v <= UInt64(Int.max) ? Int(v) : nil
        }
        guard let shoff = u64(0x28) else { return nil }
        let shentsize = u16(0x3A), shnum = u16(0x3C)
        guard shentsize >= 64, shoff > 0, shoff <= bytes.count, shnum <= (bytes.count - shoff) / shentsize else { return nil }
        let SHT_NOBITS = 8, SHF_ALLOC = 0x2, SHF_EXECINSTR = 0x4
        var out: [ArraySlice<UInt8>] = []
        for n in 0..<shnum {
            let h = shoff + n * shentsize
            let type = Int(bytes[h + 4]) | Int(bytes[h + 5]) << 8 | Int(bytes[h + 6]) << 16 | Int(bytes[h + 7]) << 24
            guard let flags = u64(h + 8), let offset = u64(h + 0x18), let size = u64(h + 0x20) else { continue }
            guard type != SHT_NOBITS, flags & SHF_ALLOC != 0, flags & SHF_EXECINSTR == 0,
                  offset <= bytes.count, size <= bytes.count - offset else { continue }
            out.append(bytes[offset..<(offset + size)])
        }
        return out
    }
}
