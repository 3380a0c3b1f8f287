import Foundation
import UnderstudyClient

/// One parsed control command: what to do, against which server, with which token, in which format.
public struct ControlInvocation: Sendable, Equatable {
    /// The verb and its arguments.
    public var action: ControlAction
    /// The server's root URL.
    public var server: URL
    /// The control-plane token, when given.
    public var adminToken: String?
    /// One JSON document (one object per line for `journal --follow`) instead of text for people.
    public var json: Bool
}

/// What a control command does.
public enum ControlAction: Sendable, Equatable {
    /// Print the usage text and exit 0.
    case help
    /// `projects list`.
    case listProjects
    /// `projects show ID`.
    case showProject(String)
    /// `projects create [--name N] [--id ID] [--seed S]`.
    case createProject(name: String?, id: String?, seed: UInt64?)
    /// `projects delete ID`.
    case deleteProject(String)
    /// `projects reset ID`.
    case resetProject(String)
    /// `projects export ID [--output FILE]` (stdout without a file).
    case exportProject(String, output: String?)
    /// `projects import FILE [--id ID] [--replace ID]` (`-` reads stdin).
    case importProject(file: String, id: String?, replacing: String?)
    /// `journal …`: one project's entries or everyone's, once or following.
    case journal(project: String?, query: JournalQuery, follow: Bool)
    /// `devices --project P [--platform X]`: the app installations the project's requests named.
    case listDevices(project: String, platform: String?)
    /// `devices --project P PLATFORM DEVICE [--limit N]`: one installation's requests, oldest first.
    case showDevice(project: String, platform: String, device: String, limit: Int?)
    /// `devices --project P --forget PLATFORM DEVICE`: remove the state the platform keeps for it.
    case forgetDevice(project: String, platform: String, device: String)
    /// `faults list [--project P]`: the project's rules, or the global ones.
    case listFaults(project: String?)
    /// `faults add …`.
    case addFault(project: String?, rule: ControlFaultRule)
    /// `faults clear [--project P] [--rule ID]`: one rule, or all of the scope's.
    case clearFaults(project: String?, rule: String?)
    /// `clock show --project P`.
    case showClock(project: String)
    /// `clock freeze --project P [--at ISO8601]`.
    case freezeClock(project: String, at: String?)
    /// `clock advance --project P DURATION`.
    case advanceClock(project: String, seconds: Double)
    /// `clock real --project P`.
    case realClock(project: String)
    /// `findings --project P [filters]`: exit 1 when an error-level finding is listed.
    case findings(project: String, query: FindingQuery)
    /// `findings --project P --clear`.
    case clearFindings(project: String)

    /// Whether this is `findings`, whose exit status 1 means "error-level findings", not "failed".
    var isFindings: Bool {
        switch self {
        case .findings, .clearFindings: return true
        default: return false
        }
    }
}

/// A fault rule from flags, or as JSON sent unchanged (the server checks it strictly).
public enum ControlFaultRule: Sendable, Equatable {
    /// Built from `--status`, `--delay`, `--platform`… flags.
    case rule(FaultRule)
    /// Given whole with `--json-rule`.
    case json(AnyJSON)
}

/// A command line that cannot be run: exit 2 with this message and the usage text.
public struct ControlUsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, for people.
    public var description: String
}
