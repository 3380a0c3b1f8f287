import Foundation

/// `normalizeLang` of [W-M2].
public enum LanguageNormalizer {
    /// First comma-separated entry, `;q=` stripped, trimmed, `_` → `-`, lower-cased; `primary`
    /// mode keeps the primary subtag only.
    public static func normalize(_ raw: String?, mode: String = "full") -> String {
        guard let raw else { return "" }
        let first = raw.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let tag = (first.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "")
            .trimmingWhitespace().replacingOccurrences(of: "_", with: "-").lowercased()
        if mode == "primary" { return tag.split(separator: "-").first.map(String.init) ?? tag }
        return tag
    }
}
