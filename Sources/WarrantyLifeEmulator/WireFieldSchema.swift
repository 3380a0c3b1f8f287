import EmulatorCore
import Foundation

/// Request-field schemas that say exactly what the server's readers accept, so generated data the
/// document calls valid is accepted and data it calls invalid is refused (`WireBody`'s typed
/// reads, `WireQuery`, the local timestamp and date checks, the `appConfig` region rule).
enum WireFieldSchema {
    /// A whole number as `WireBody.wholeNumber` reads it (magnitude below 9e15).
    static let integer: JSONValue = ["type": "integer", "minimum": .int(Int64(1 - WireBody.wholeNumberLimit)), "maximum": .int(Int64(WireBody.wholeNumberLimit - 1))]

    /// A JSON integer the parser keeps as one (anything wider arrives as a double); what
    /// `JSONDecoder` and `JSONValue.intValue` read.
    static let int64: JSONValue = ["type": "integer", "minimum": .int(Int64.min), "maximum": .int(Int64.max)]

    /// `WireBody.string`: a string, an integer (ids arrive both ways) or null.
    static let text: JSONValue = ["anyOf": [["type": ["string", "null"]], integer]]

    /// `WireBody.requiredString`: a string with something besides white space, or an integer.
    static let requiredText: JSONValue = ["anyOf": [["type": "string", "pattern": "\\S"], integer]]

    /// A non-empty string or an integer (a read that only refuses `""`).
    static let nonEmptyText: JSONValue = ["anyOf": [["type": "string", "minLength": 1], integer]]

    /// `WireBody.int`: an integer, its digits as a string (forms), or nothing (`""`, null).
    static let int: JSONValue = ["anyOf": [integer, ["type": "string", "pattern": "^([+-]?[0-9]{1,18})?$"], ["type": "null"]]]

    /// `WireBody.int` where a value is required.
    static let requiredInt: JSONValue = ["anyOf": [integer, ["type": "string", "pattern": "^[+-]?[0-9]{1,18}$"]]]

    /// `WireBody.double`: any JSON number or null.
    static let number: JSONValue = ["type": ["number", "null"]]

    /// `WireBody.bool`: a boolean, its form spellings, or null.
    static let flag: JSONValue = ["anyOf": [["type": ["boolean", "null"]], ["enum": ["true", "false", "1", "0"]]]]

    /// `WireBody.bool` where a value is required.
    static let requiredFlag: JSONValue = ["anyOf": [["type": "boolean"], ["enum": ["true", "false", "1", "0"]]]]

    /// A calendar day `yyyy-MM-dd` that exists (leap days included), as `parseDay` checks it.
    static let day =
        "(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))"
        + "|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)"

    /// The device-local `yyyy-MM-dd HH:mm:ss[.SSS]` of `eventAt`, `readingAt` and the audio `createdAt`.
    static let localTimestampPattern = "^" + day + " (?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\\.[0-9]+)?$"

    /// `eventAt` and friends: the local timestamp, or null.
    static let localTimestamp: JSONValue = [
        "type": ["string", "null"], "pattern": .string(localTimestampPattern),
        "description": "Device local time, `yyyy-MM-dd HH:mm:ss.SSS` (fraction optional), no offset.",
    ]

    /// A day, or a day and time with `Z` or an offset of at most 18 hours (`parseDate`).
    static let datePattern = "^" + day + "(?:T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,3})?(?:Z|[+-](?:(?:0[0-9]|1[0-7]):[0-5][0-9]|18:00)))?$"

    /// `dateOfPurchase`: a day, or a full ISO 8601 time with `Z` or an offset; or null.
    static let purchaseDate: JSONValue = [
        "type": ["string", "null"],
        "pattern": .string(datePattern),
        "description": "`yyyy-MM-dd` or ISO 8601.",
    ]

    /// A non-negative integer query value (`WireQuery.int`); empty counts as absent.
    static let queryCount: JSONValue = ["type": "string", "pattern": "^(\\+?[0-9]{1,18}|-0{1,18})?$"]

    /// A boolean query value (`WireQuery.bool`, any letter case); empty counts as absent.
    static let queryFlag: JSONValue = ["type": "string", "pattern": "^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Yy][Ee][Ss]|[Nn][Oo]|1|0)?$"]

    /// A required query value: anything but empty.
    static let requiredQuery: JSONValue = ["type": "string", "minLength": 1]

    /// The region rule of registration and warranties against the default `appConfig`: `country`
    /// one of its ids, `state` a province of that country (of any country when none is given).
    /// A project that replaces `appConfig` changes the ids; the rule stays.
    static func region() -> JSONValue {
        let countries = (DefaultContent.value("appConfig")["countries"]?.arrayValue ?? []).compactMap { country -> (id: Int, provinces: [Int])? in
            guard let id = country["id"]?.intValue else { return nil }
            return (id, (country["provinces"]?.arrayValue ?? []).compactMap { $0["id"]?.intValue })
        }
        let absent: [JSONValue] = [.null, ""]
        func spellings(_ ids: [Int]) -> [JSONValue] { ids.flatMap { [JSONValue.int(Int64($0)), .string(String($0))] } }
        var branches: [JSONValue] = [["properties": ["country": ["enum": .array(absent)], "state": ["enum": .array(absent + spellings(countries.flatMap(\.provinces)))]]]]
        for country in countries {
            branches.append([
                "required": ["country"],
                "properties": [
                    "country": ["enum": .array(spellings([country.id]))], "state": ["enum": .array(absent + spellings(country.provinces))],
                ],
            ])
        }
        return ["anyOf": .array(branches)]
    }

    /// One survey answer (D-WL-13's two forms): `{questionId, optionId}`, or a single `{"<questionId>": optionId}`.
    static let surveyAnswer: JSONValue = [
        "anyOf": [
            ["type": "object", "required": ["questionId", "optionId"], "properties": ["questionId": integer, "optionId": integer]],
            ["type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": integer, "not": ["required": ["questionId"]]],
        ]
    ]
}
