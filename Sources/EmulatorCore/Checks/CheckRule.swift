import Foundation
import HTTPServer

/// How serious a finding is: `error` for what breaks the integration, `warning` for what wastes
/// requests or works only by luck, `info` for what is worth knowing.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    /// Breaks the integration.
    case error
    /// Wastes requests or works only by luck.
    case warning
    /// Worth knowing.
    case info

    /// Errors first.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .error: return 0
        case .warning: return 1
        case .info: return 2
        }
    }
}

/// What a rule is, as a finding shows it: the id (`<platform>.<name>`, or a bare name for the
/// core's generic rules), the default severity, a one-line title and the SDK's documented rule
/// stated in our own words.
public struct RuleDefinition: Sendable, Equatable {
    /// The rule's id, e.g. `repeat-after-4xx`; stable, since project settings and findings name it.
    public let id: String
    /// The platform whose SDK documents the rule; nil for a generic rule that applies to all.
    public let platform: PlatformID?
    /// The severity before a project's settings change it.
    public let severity: Severity
    /// One line: what went wrong.
    public let title: String
    /// The SDK's rule, stated.
    public let ruleText: String

    /// Creates a definition.
    public init(id: String, platform: PlatformID?, severity: Severity, title: String, ruleText: String) {
        self.id = id
        self.platform = platform
        self.severity = severity
        self.title = title
        self.ruleText = ruleText
    }
}

/// What one rule remembers between requests under one key of its choosing (an installation and a
/// request target, say). Forgetting is always safe: a rule that remembers nothing raises nothing,
/// which is why the memory is bounded and dropped whenever in doubt (reset, restore, clearing the
/// findings, too many keys).
public struct Trace: Sendable, Equatable {
    /// When the remembered request was answered (project clock, seconds since 1970).
    public var time: Double
    /// Its status (0: the connection was dropped or hung).
    public var status: Int
    /// A count the rule keeps (attempts, repeats).
    public var count = 0
    /// When the remembered streak began, or a deadline the rule keeps.
    public var since = 0.0
    /// How long the server took to answer the remembered request, in seconds.
    public var duration = 0.0
    /// The remembered request's fingerprint (`CheckedRequest.fingerprint()`), when the rule needs it.
    public var fingerprint = 0
    /// Journal ids of the requests that make up the evidence, oldest first (at most `maxEvidence`).
    public var evidence: [Int] = []

    /// The most journal ids a trace keeps.
    public static let maxEvidence = 8

    /// A trace of `request`, with its journal id as the first evidence.
    public init(_ request: CheckedRequest) {
        time = request.time
        status = request.status
        since = request.time
        duration = request.duration
        evidence = [request.journalID]
    }

    /// Moves the trace on to `request`: its time and status, its journal id added to the evidence.
    public mutating func advance(to request: CheckedRequest) {
        time = request.time
        status = request.status
        duration = request.duration
        evidence.append(request.journalID)
        if evidence.count > Self.maxEvidence { evidence.removeFirst(evidence.count - Self.maxEvidence) }
    }
}

/// One breach a rule found in a request: the installation it concerns, what the app did in a
/// sentence, and the journal ids that show it.
public struct Violation: Sendable, Equatable {
    /// The installation (or user) the finding concerns.
    public var device: String
    /// What the app did, in a sentence with the numbers that matter.
    public var whatTheAppDid: String
    /// Journal ids of the requests that show it, oldest first.
    public var evidence: [Int]

    /// Creates a violation.
    public init(device: String, whatTheAppDid: String, evidence: [Int]) {
        self.device = device
        self.whatTheAppDid = whatTheAppDid
        self.evidence = evidence
    }
}

/// A rule the server checks as requests are answered. `evaluate` runs under the checks' lock for
/// every observed request of the rule's platform (all platforms for a generic rule) while the rule
/// is on for the project: it must be quick, pure apart from its memory, and must never throw.
public protocol CheckRule: Sendable {
    /// The rule as findings show it.
    var definition: RuleDefinition { get }
    /// Rules whose finding on the same request this one replaces, because it says the same thing
    /// with the SDK's own words (a platform's "registration retried after a rejection" over the
    /// generic "repeated after a 4xx").
    var supersedes: [String] { get }
    /// Looks at one answered request with the rule's memory of earlier ones in this project.
    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation?
}

extension CheckRule {
    /// Replaces no other rule.
    public var supersedes: [String] { [] }
}

/// One answered SDK request as the rules see it.
public struct CheckedRequest: Sendable {
    /// Its journal id.
    public let journalID: Int
    /// The project it belongs to.
    public let project: ProjectID
    /// The platform it was sent to.
    public let platform: PlatformID
    /// Its method.
    public let method: HTTPMethod
    /// Its path below the platform prefix, without the query.
    public let path: String
    /// The route template that matched, as registered (full path).
    public let route: String
    /// The route's path parameters.
    public let parameters: [String: String]
    /// The status the app saw: 0 when the connection was reset, hung or cut short.
    public let status: Int
    /// When it was answered, on the project's clock (seconds since 1970).
    public let time: Double
    /// How long the server took to answer it, in seconds.
    public let duration: Double
    /// The `Retry-After` seconds of a 429 or 503 answer.
    public let retryAfter: Double?
    /// What the platform said about it.
    public let observation: Observation
    /// The credentials it presented, as its platform read them.
    let credentials: [PresentedCredential]
    let request: Request
    let responseBody: Data

    /// Describes an answered request (the check stage does this; tests of rules may too).
    public init(
        journalID: Int, project: ProjectID, platform: PlatformID, request: Request, path: String, route: String, parameters: [String: String] = [:],
        response: Response,
        time: Double, duration: Double, observation: Observation, credentials: [PresentedCredential]
    ) {
        self.journalID = journalID
        self.project = project
        self.platform = platform
        self.method = request.method
        self.request = request
        self.responseBody = response.body
        self.path = path
        self.route = route
        self.parameters = parameters
        self.status = response.delivery == .normal ? response.status : 0
        self.time = time
        self.duration = duration
        self.observation = observation
        self.credentials = credentials
        if response.status == 429 || response.status == 503, let text = response.headers["retry-after"], let seconds = Int(text), seconds > 0 {
            retryAfter = Double(seconds)
        } else {
            retryAfter = nil
        }
    }

    /// The installation the request concerns.
    public var device: String? { observation.device }

    /// The value of the first credential of `kind` the request presented (its platform's name for
    /// the kind), for a rule that names it in a finding: read only then, not for every request.
    public func presented(_ kind: String) -> String? { credentials.first { $0.kind == kind }?.value }

    /// A platform fact (`Observation.facts`).
    public func fact(_ name: String) -> String? { observation.facts[name] }

    /// `device`, method and path: what "the same request" means to the retry rules (made when a
    /// rule needs it: most requests of a well-behaved app meet rules that remember nothing).
    public var target: String? { device.map { $0 + " " + method.rawValue + " " + path } }

    /// `METHOD path` for sentences.
    public var line: String { method.rawValue + " " + path }

    /// Whether the answer was a 2xx.
    public var succeeded: Bool { (200..<300).contains(status) }

    /// Whether the app saw a server failure or a dropped connection (5xx or 0).
    public var failedOnServer: Bool { status == 0 || status >= 500 }

    /// A hash of everything that makes two requests the same request: method, path, query, body
    /// (a JSON body as its value, since encoders order keys as they like) and the credentials
    /// presented (not volatile headers such as request ids). Computed on demand, since only rules
    /// that compare repeats need it.
    public func fingerprint() -> Int {
        var hasher = Hasher()
        hasher.combine(request.method.rawValue)
        hasher.combine(request.target)
        Self.combine(request.body, into: &hasher)
        hasher.combine(credentials)
        return hasher.finalize()
    }

    /// A hash of the answer: its status and body, so a repeat that got a different refusal (the
    /// server's state changed in between) is told apart from one that got the same.
    public func answerFingerprint() -> Int {
        var hasher = Hasher()
        hasher.combine(status)
        Self.combine(responseBody, into: &hasher)
        return hasher.finalize()
    }

    /// `fingerprint()` and `answerFingerprint()` together: the same request answered the same way.
    public func exchangeFingerprint() -> Int {
        var hasher = Hasher()
        hasher.combine(fingerprint())
        hasher.combine(answerFingerprint())
        return hasher.finalize()
    }

    private static func combine(_ body: Data, into hasher: inout Hasher) {
        if let first = body.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let value = try? JSONValue.parse(body) {
            value.encoded().withUnsafeBytes { hasher.combine(bytes: $0) } // sorted keys: the value, not its spelling
        } else {
            body.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// Seconds as a short phrase ("0.4 s", "12 s").
    public static func seconds(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return String(format: rounded == rounded.rounded() ? "%.0f s" : "%.1f s", rounded)
    }
}
