import EmulatorCore
import Foundation

/// The SDK's `InsightData` model (§6.6): what a seeded document must look like, and how it is
/// served so the SDK decodes it.
enum InsightModel {
    /// Problems with an `InsightData` seed against the SDK model (§6.6); empty when it fits.
    static func problems(_ value: JSONValue) -> [String] {
        var problems: [String] = []
        func require(_ value: JSONValue?, _ path: String, _ kind: String) {
            let ok: Bool
            switch kind {
            case "string": ok = value?.stringValue != nil
            case "int": ok = value?.intValue != nil
            case "number": ok = value?.doubleValue != nil
            case "bool": ok = value?.boolValue != nil
            case "array": ok = value?.arrayValue != nil
            default: ok = value?.objectValue != nil
            }
            if !ok {
                problems.append("`\(path)` must be \(kind == "int" ? "an integer" : kind == "array" || kind == "object" ? "an \(kind)" : "a \(kind)")")
                return
            }
            // What the SDK documents beyond the JSON type: checked only once the type fits.
            switch (path.split(separator: ".").last.map(String.init), kind) {
            case ("rank", "int"):
                if let rank = value?.intValue, !(1...100).contains(rank) { problems.append("`\(path)` must be 1–100, not \(rank)") }
            case ("hour", "int"):
                if let hour = value?.intValue, !(0...23).contains(hour) { problems.append("`\(path)` must be 0–23, not \(hour)") }
            case ("date", "string"), ("startDate", "string"):
                if let text = value?.stringValue, Timestamp.dayNumber(text) == nil { problems.append("`\(path)` must be a YYYY-MM-DD date, not `\(text)`") }
            case ("month", "string"):
                if let text = value?.stringValue, Timestamp.dayNumber(text + "-01") == nil { problems.append("`\(path)` must be a YYYY-MM month, not `\(text)`") }
            case ("generatedAt", "string"):
                if let text = value?.stringValue, Timestamp.parse(text) == nil { problems.append("`generatedAt` must be an ISO 8601 time, not `\(text)`") }
            case ("timeZone", "string"):
                if let text = value?.stringValue, !TimeZoneNames.isValid(text) { problems.append("`timeZone` must be a tz database name (America/Toronto), not `\(text)`") }
            default:
                break
            }
        }
        func series(_ value: JSONValue?, _ path: String, _ fields: [(String, String)]) {
            require(value, path, "array")
            for (index, element) in (value?.arrayValue ?? []).enumerated() {
                require(element, "\(path).\(index)", "object")
                for (name, kind) in fields { require(element[name], "\(path).\(index).\(name)", kind) }
            }
        }
        require(value, "data", "object")
        guard value.objectValue != nil else { return problems }
        require(value["generatedAt"], "generatedAt", "string")
        require(value["timeZone"], "timeZone", "string")
        for rank in ["dropRank", "batteryRank"] {
            let history = value[rank]
            require(history, rank, "object")
            series(history?["hourly"], "\(rank).hourly", [("hour", "int"), ("date", "string"), ("rank", "int"), ("isProjected", "bool")])
            series(history?["daily"], "\(rank).daily", [("date", "string"), ("rank", "int"), ("isProjected", "bool")])
            series(history?["weekly"], "\(rank).weekly", [("startDate", "string"), ("rank", "int"), ("isProjected", "bool")])
            series(history?["monthly"], "\(rank).monthly", [("month", "string"), ("rank", "int"), ("isProjected", "bool")])
        }
        let coaching = value["coaching"]
        require(coaching, "coaching", "object")
        for hints in ["generalHints", "batteryHints", "tipHints"] {
            require(coaching?[hints], "coaching.\(hints)", "array")
            for (index, hint) in (coaching?[hints]?.arrayValue ?? []).enumerated() { require(hint, "coaching.\(hints).\(index)", "string") }
        }
        let rewards = value["rewards"]
        require(rewards, "rewards", "object")
        for optional in ["current", "projected"] {
            if let reward = rewards?[optional], reward != .null {
                require(reward, "rewards.\(optional)", "object")
                require(reward["month"], "rewards.\(optional).month", "string")
                require(reward["amount"], "rewards.\(optional).amount", "number")
            }
        }
        series(rewards?["history"], "rewards.history", [("month", "string"), ("amount", "number")])
        let tip = value["tip"]
        require(tip, "tip", "object")
        require(tip?["current"], "tip.current", "object")
        for (name, kind) in [("date", "string"), ("percentage", "number"), ("value", "number")] {
            require(tip?["current"]?[name], "tip.current.\(name)", kind)
        }
        series(tip?["daily"], "tip.daily", [("date", "string"), ("percentage", "number"), ("value", "number")])
        series(tip?["weekly"], "tip.weekly", [("startDate", "string"), ("percentage", "number"), ("value", "number")])
        series(tip?["monthly"], "tip.monthly", [("month", "string"), ("percentage", "number"), ("value", "number")])
        return problems
    }

    /// The insight document as the SDK decodes it: optional rewards emitted as `null` when absent.
    static func normalized(_ value: JSONValue) -> JSONValue {
        guard case .object(var members) = value, case .object(var rewards)? = members["rewards"] else { return value }
        if rewards["current"] == nil { rewards["current"] = .null }
        if rewards["projected"] == nil { rewards["projected"] = .null }
        members["rewards"] = .object(rewards)
        return .object(members)
    }
}
