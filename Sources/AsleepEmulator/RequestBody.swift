import EmulatorCore
import Foundation

/// Reading JSON request bodies the way Asleep answers them: bytes that are not UTF-8 are a 400
/// before anything else (as FastAPI answers a body it cannot decode); JSON that does not parse
/// gets the answer each route documents for it.
enum RequestBody {
    /// FastAPI's answer to a body it cannot decode.
    static let undecodable = AsleepError(400, "There was an error parsing the body")

    /// Whether `body` is empty or only white space (routes whose body is optional read it as absent).
    static func isBlank(_ body: Data) -> Bool { body.allSatisfy { $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 } }

    /// Throws the 400 when `body` is not valid UTF-8. The core's JSON parser refuses such bytes too,
    /// but as unreadable JSON, which some routes answer differently; this check comes first.
    static func requireUTF8(_ body: Data) throws(AsleepError) {
        guard String(validating: body, as: UTF8.self) != nil else { throw undecodable }
    }

    /// The parsed body, or `unreadable` (the route's documented answer) when it is not JSON.
    static func parse(_ body: Data, unreadable: AsleepError) throws(AsleepError) -> JSONValue {
        do {
            return try JSONValue.parse(body)
        } catch {
            throw unreadable
        }
    }

    /// The members of an optional JSON object body: nil when blank, `unreadable` when it is not an object.
    static func optionalObject(_ body: Data, unreadable: AsleepError) throws(AsleepError) -> [String: JSONValue]? {
        if isBlank(body) { return nil }
        guard case .object(let members) = try parse(body, unreadable: unreadable) else { throw unreadable }
        return members
    }
}
