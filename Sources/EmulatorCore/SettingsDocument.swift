import Foundation

/// Per-project platform settings, merged one way everywhere: the contract's defaults, under the
/// configuration file's section, under the project's stored document, under a `PATCH` body —
/// each layer a JSON object merged with RFC 7396 merge-patch rules (a key set to null removes it,
/// nested objects merge, anything else replaces), then decoded once into the platform's type.
public enum SettingsDocument {
    /// `patch` laid over `base` (RFC 7396).
    public static func merge(_ base: JSONValue, _ patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var result: [String: JSONValue]
        if case .object(let members) = base { result = members } else { result = [:] }
        for (key, value) in changes {
            if value == .null {
                result.removeValue(forKey: key)
            } else {
                result[key] = merge(result[key] ?? .null, value)
            }
        }
        return .object(result)
    }

    /// The layers merged in order (first is the bottom) and decoded as `T`; a decoding failure is
    /// a `BodyError` naming the field.
    public static func resolve<T: Decodable>(_ type: T.Type, layers: [JSONValue]) throws(BodyError) -> T {
        let merged = layers.reduce(JSONValue.object([:])) { merge($0, $1) }
        do {
            return try merged.decode(T.self)
        } catch let error as DecodingError {
            throw JSONBody.describe(error)
        } catch {
            throw BodyError(code: "wrong_type", message: "The settings could not be read: \(ErrorText.of(error))")
        }
    }
}
