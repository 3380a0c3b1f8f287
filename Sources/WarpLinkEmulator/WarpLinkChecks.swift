import EmulatorCore
import Foundation
import HTTPServer

/// What the integration checks learn from a WarpLink SDK request. The SDKs send no install id
/// (the server makes a new one for every attribution answer); the only name an installation
/// gives itself on the wire is the `device_id` (the iOS IDFV) of a deferred check, so that, as
/// sent, is the device. Key validation, link resolution and Android's deferred checks name no
/// installation: `device` is nil, and only rules that judge such a request on its own, or by the
/// tap id the SDK mints for each tap and check, look at them.
enum WarpLinkChecks {
    /// The fact saying the presented key is an active API key (set by the authentication step).
    static let apiKeyFact = "apiKey"
    /// The fact holding the `X-WarpLink-Tap-Id` header.
    static let tapFact = "tap"
    /// The fact naming what a request with a tap id asks for: `match`, or `resolve <domain> <slug>`.
    static let askFact = "ask"
    /// The fact holding a resolve's `domain` query parameter as sent (absent: not sent).
    static let domainFact = "domain"
    /// The fact holding a deferred check's `is_reinstall` (`true`/`false`; absent when not a boolean).
    static let reinstallFact = "reinstall"
    /// The fact saying the match handler read the body, so its `device` and `reinstall` facts stand
    /// and the observe step need not parse the body again.
    static let parsedFact = "parsed"
    /// The fact holding a deferred check's `device_id`, as the match handler read it.
    static let deviceFact = "device"
    /// The fact saying the attribution answer was definitive (a no-match or a routable match).
    static let definitiveFact = "definitive"

    /// The group's `observe` step: cheap, since it runs for every SDK request.
    @Sendable static func observe(_ request: Request, _ context: EmulatorContext, _ response: Response) async -> Observation? {
        var facts = context.noted
        // What was asked matters only to the rules that compare a tap id's requests.
        var tapped = false
        if let tap = request.headers["x-warplink-tap-id"], !tap.isEmpty, tap.utf8.count <= 128 { (facts[tapFact], tapped) = (tap, true) }
        guard isMatch(context.route) else {
            if isResolve(context.route) {
                let domain = domain(inQuery: request.query)
                if let domain { facts[domainFact] = domain }
                if tapped { facts[askFact] = "resolve " + (domain ?? "") + " " + (context.parameters["slug"] ?? "") }
            }
            return Observation(device: nil, facts: facts)
        }
        if tapped { facts[askFact] = "match" }
        // The SDK retries a failed check on its own schedule and reads no header, Retry-After included.
        if facts.removeValue(forKey: parsedFact) != nil {
            return Observation(device: facts.removeValue(forKey: deviceFact), facts: facts, retriedBySDK: true)
        }
        // The handler did not read the body (a fault answered, or the key was refused): read it here.
        // An unreadable body names no device; the answer already told the app so.
        guard case .object(let body)? = try? JSONValue.parse(request.body) else { return Observation(device: nil, facts: facts) }
        if case .bool(let flag)? = body["is_reinstall"] { facts[reinstallFact] = flag ? "true" : "false" }
        let device = body["device_id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        return Observation(device: device, facts: facts, retriedBySDK: true)
    }

    /// Notes what the observe step needs from a deferred check's body, so it is parsed once.
    static func note(_ body: AttributionRequest, _ context: EmulatorContext) {
        guard context.notes != nil else { return }
        context.note(parsedFact, "1")
        if let device = body.deviceID, !device.isEmpty { context.note(deviceFact, device) }
        if let flag = body.isReinstall { context.note(reinstallFact, flag ? "true" : "false") }
    }

    /// Whether `route` is a deferred check (`POST /attribution/match`, with or without `/v1`).
    static func isMatch(_ route: String) -> Bool { route.hasSuffix("/attribution/match") }

    /// Whether `route` resolves a link.
    static func isResolve(_ route: String) -> Bool { route.hasSuffix("/links/resolve/{slug}") }

    /// `key wl_live_****1234`: the SDK's own log masking, enough to tell keys apart without showing
    /// one. Built from the key's bytes into one string: it is made for every SDK request.
    static func masked(_ key: String) -> String {
        let utf8 = key.utf8
        guard utf8.count > 12 else { return "key ****" }
        var label = "key "
        label.reserveCapacity(20)
        label += Substring(utf8.prefix(8))
        label += "****"
        label += Substring(utf8.suffix(4))
        return label
    }

    /// `domain=` as bytes, made once.
    private static let domainPrefix = Array("domain=".utf8)

    /// The first `domain` of a query, decoded; nil when the query has none. Scanned in place: it
    /// runs for every resolve, and splitting the query allocated an array of its parts.
    static func domain(inQuery query: String) -> String? {
        let utf8 = query.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            let item = utf8[start..<end]
            if item.elementsEqual(domainPrefix.dropLast()) { return "" }
            if item.starts(with: domainPrefix) {
                let value = Substring(item.dropFirst(domainPrefix.count))
                return value.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") })
                    ? URLQuery.percentDecode(value, plusAsSpace: true) ?? String(value) : String(value)
            }
            start = end == utf8.endIndex ? end : utf8.index(after: end)
        }
        return nil
    }
}
