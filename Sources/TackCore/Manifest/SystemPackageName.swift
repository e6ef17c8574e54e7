#if !hasFeature(Embedded)
import YAML
#endif

enum SystemPackageName {
    static func isValid(_ s: String) -> Bool {
        guard let f = s.first, f.isASCII, f.isLetter || f.isNumber else { return false }
        return s.count <= 200 && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".+_@:/=-".contains($0)) }
    }
}
