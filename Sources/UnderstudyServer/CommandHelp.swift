/// `understudy <command> --help`, `-h` and `understudy help <command>`: one command's help, its
/// flags and examples, printed instead of running it (so `ca reset --help` resets nothing).
public enum CommandHelp {
    /// Every command the dispatcher runs (`UnderstudyCommand.main`), in the order the overview lists them.
    public static let commands = ["serve", "migrate", "healthcheck", "ca", "projects", "journal", "devices", "faults", "clock", "findings", "help", "version"]

    /// The help of `command`, or nil when there is no such command.
    public static func text(for command: String) -> String? {
        switch command {
        case "serve": return serve
        case "migrate": return migrate
        case "healthcheck": return healthcheck
        case "ca": return certificateAuthority
        case "projects": return projects
        case "journal": return journal
        case "devices": return devices
        case "faults": return faults
        case "clock": return clock
        case "findings": return findings
        case "help": return help
        case "version": return version
        default: return nil
        }
    }

    /// The flags of `serve`, which the overview (`understudy --help`) lists too: serving is the default.
    static let serveOptions = """
        Options (each also UNDERSTUDY_<NAME> in the environment; flags beat environment beat the config file):
          --host HOST              listen address (default 127.0.0.1)                   UNDERSTUDY_HOST
          --port PORT              listen port, 0 for any free port (default 8080)      UNDERSTUDY_PORT
          --database PATH|URL      SQLite file (default data/understudy.sqlite), or     UNDERSTUDY_DATABASE
                                   postgres://user:pass@host:port/db (shared by several instances)
          --config PATH            JSON configuration (default Config/understudy.json)  UNDERSTUDY_CONFIG
          --migrations PATH        migrations folder (default ./Migrations)             UNDERSTUDY_MIGRATIONS
          --fixtures PATH          demo fixtures folder, "" for none                    UNDERSTUDY_FIXTURES
          --seed-dir DIR           import every DIR/*.json project bundle at start      UNDERSTUDY_SEED_DIR
          --seed-skip-invalid      log and skip bad seed bundles instead of exiting 1   UNDERSTUDY_SEED_SKIP_INVALID
          --export-on-exit DIR     write each project's bundle to DIR/<id>.json at exit UNDERSTUDY_EXPORT_ON_EXIT
          --ready-file PATH        write {pid, ports} to PATH once ready; removed at exit UNDERSTUDY_READY_FILE
          --log-format text|json   log line format (default text)                       UNDERSTUDY_LOG_FORMAT
          --no-request-log         no line per request                                  UNDERSTUDY_LOG_REQUESTS=false
          --admin-token TOKEN      token for /__admin (required off loopback)           UNDERSTUDY_ADMIN_TOKEN
          --header-timeout SECS    time allowed for a request head (default 10)         UNDERSTUDY_HEADER_TIMEOUT
          --idle-timeout SECS      idle keep-alive time (default 75)                    UNDERSTUDY_IDLE_TIMEOUT
          --max-body-bytes N       largest request body (default 33554432)              UNDERSTUDY_MAX_BODY_BYTES
          --no-journal             do not record requests                               UNDERSTUDY_JOURNAL=false
          --no-checks              do not run the integration checks (no findings)      UNDERSTUDY_CHECKS=false
          --https-port PORT        TLS listener port, 0 for any free port (default 8443) UNDERSTUDY_HTTPS_PORT
          --no-https               no TLS listener
          --proxy-port PORT        intercepting proxy port (default 8888)                UNDERSTUDY_PROXY_PORT
          --no-proxy               no proxy listener
          --proxy-mode MODE        passthrough|refuse for hosts not emulated             UNDERSTUDY_PROXY_MODE
          --proxy-allow-private    passthrough may reach loopback and private addresses  UNDERSTUDY_PROXY_ALLOW_PRIVATE
                                   (default: public addresses only; never Understudy's own ports)
          --proxy-password SECRET  every proxy request needs Proxy-Authorization: Basic   UNDERSTUDY_PROXY_PASSWORD
                                   with any user and SECRET (or SECRET as user:password);
                                   off loopback, passthrough needs it
          --public-url URL         base URL devices reach Understudy under               UNDERSTUDY_PUBLIC_URL
          --ca-dir PATH            local CA folder (default: one per user; see `ca`)     UNDERSTUDY_CA_DIR
          --event-loop NAME        epoll|dispatch (default epoll on Linux)               UNDERSTUDY_EVENT_LOOP
          --allowed-host NAME      also answer Host NAME besides IPs, localhost and the  UNDERSTUDY_ALLOWED_HOSTS
                                   emulated hosts (repeatable; .example.com: the domain  (comma-separated)
                                   and every name under it)
        """

    static let serve = """
        understudy serve: run the stand-in backends, the control plane (/__admin) and the dashboard
        (/__admin/ui) until SIGTERM or Ctrl-C. It is the default: `understudy` alone serves.

        Usage: understudy [serve] [options]

        \(serveOptions)

        Examples:
          understudy serve
          understudy serve --port 9090 --database /tmp/understudy.sqlite --fixtures ""
          understudy serve --host 0.0.0.0 --admin-token s3cret --public-url http://192.168.1.20:8080
        """

    static let migrate = """
        understudy migrate: apply the database's pending migrations and exit (`serve` applies them at
        start too); prints what it applied, or "database is up to date".

        Usage: understudy migrate [--database PATH|URL] [--migrations PATH] [--config PATH]

        Options:
          --database PATH|URL      SQLite file (default data/understudy.sqlite) or postgres://…  UNDERSTUDY_DATABASE
          --migrations PATH        migrations folder (default ./Migrations)                      UNDERSTUDY_MIGRATIONS
          --config PATH            JSON configuration (default Config/understudy.json)           UNDERSTUDY_CONFIG

        Examples:
          understudy migrate
          understudy migrate --database data/understudy.sqlite
        """

    static let healthcheck = """
        understudy healthcheck: exit 0 when a server answers GET /__admin/ready with 200, else 1
        (for Docker's HEALTHCHECK, which has no curl). A listen address of 0.0.0.0 or :: is asked on 127.0.0.1.

        Usage: understudy healthcheck [--host HOST] [--port PORT] [--config PATH]

        Options:
          --host HOST              the server's address (default 127.0.0.1)   UNDERSTUDY_HOST
          --port PORT              the server's port (default 8080)           UNDERSTUDY_PORT
          --config PATH            JSON configuration to read them from       UNDERSTUDY_CONFIG

        Examples:
          understudy healthcheck
          understudy healthcheck --port 9090 && echo ready
        """

    static let certificateAuthority = """
        understudy ca: the local certificate authority that signs the HTTPS listener's and the proxy's
        certificates, for devices to trust. `export` and `path` make it when there is none yet.

        \(CertificateAuthorityCommand.usage)

        Examples:
          understudy ca export --output understudy-ca.pem
          understudy ca export --format der --output understudy-ca.der
          understudy ca path
          understudy ca reset --ca-dir ./ca
        """

    /// The flags every control command takes, and their exit codes.
    private static let controlFlags = """
        Each takes:
          --server URL         the server (default http://127.0.0.1:PORT)     UNDERSTUDY_SERVER
          --port PORT          a local server's port (default 8080)           UNDERSTUDY_PORT
          --admin-token TOKEN  the control-plane token                        UNDERSTUDY_ADMIN_TOKEN
          --json               one JSON document as the control plane answers it
        Exit codes: 0 done, 1 server unreachable or failed, 2 usage error, 3 not found, 4 admin token missing or refused.
        """

    static let projects = """
        understudy projects: a running server's projects (tenants with their own credentials, state,
        clock, faults and journal).

        Usage: understudy projects list
               understudy projects show ID
               understudy projects create [--name N] [--id ID] [--seed S]
               understudy projects delete ID | reset ID
               understudy projects export ID [--output FILE]          the project as a bundle (stdout without --output)
               understudy projects import FILE|- [--id ID] [--replace ID]

        \(controlFlags)

        Examples:
          understudy projects list
          understudy projects create --id nightly --seed 7
          understudy projects export demo --output demo.json
          understudy projects import demo.json --replace demo
        """

    static let journal = """
        understudy journal: a running server's recorded requests, oldest first; with --follow, each
        new one as it is answered, until Ctrl-C. Without --project, every project's.

        Usage: understudy journal [--project P] [--follow|-f] [--platform X] [--status 404|5xx] [--method M] [--path GLOB] [--limit N]

        Options:
          --project P          one project's requests
          --follow, -f         keep printing new requests (--json: one JSON object per line)
          --platform X         warplink, asleep, warrantylife, telematics, admin or proxy
          --status S           a status (404) or a class (5xx)
          --method M           GET, POST, …
          --path GLOB          a path glob such as '/asleep/**/upload'
          --limit N            at most N entries (1–1000)
        \(controlFlags)

        Examples:
          understudy journal --project demo --platform asleep --status 5xx --limit 20
          understudy journal --follow --json
        """

    static let devices = """
        understudy devices: the app installations a running server's project saw (an Asleep product,
        a WarrantyLife device, a WarpLink install, a Telematics user), one device's requests oldest
        first, or forgetting one: the state its platform keeps for it goes, so a first launch can be
        tested again without resetting the project.

        Usage: understudy devices --project P [--platform X]
               understudy devices --project P PLATFORM DEVICE [--limit N]   its requests, oldest first
               understudy devices --project P --forget PLATFORM DEVICE

        \(controlFlags)

        Examples:
          understudy devices --project demo --platform asleep
          understudy devices --project demo asleep SERIAL:SN-0001
          understudy devices --project demo --forget asleep SERIAL:SN-0001
        """

    static let faults = """
        understudy faults: a running server's fault rules, which make matching requests fail
        (a status, a delay, a hang, a reset…). Without --project, the global rules.

        Usage: understudy faults list [--project P]
               understudy faults clear [--project P] [--rule ID]
               understudy faults add [--project P] ACTION [--platform X] [--method M] [--path GLOB] [--header NAME=VALUE]
                                     [--times N] [--after N] [--probability P --seed S] [--ttl SECS]
                      ACTION: --status CODE [--retry-after S] [--body JSON] | --delay MS | --hang [--hold MS] | --reset
                              | --close-after-headers | --truncate [--bytes N] | --malformed-json
               understudy faults add [--project P] --json-rule '{"match": {…}, "action": {…}, …}'

        \(controlFlags)

        Examples:
          understudy faults add --project demo --status 503 --retry-after 2 --platform asleep --times 2
          understudy faults add --project demo --delay 1500 --method POST --ttl 60
          understudy faults list --project demo
          understudy faults clear --project demo
        """

    static let clock = """
        understudy clock: a running server's project clock, which every time-based rule of the project
        reads (token expiry, match windows, session limits).

        Usage: understudy clock show --project P
               understudy clock freeze --project P [--at ISO8601]
               understudy clock advance --project P DURATION        3600, 90s, 15m, 2h, 1.5d
               understudy clock real --project P                    back to real time

        \(controlFlags)

        Examples:
          understudy clock freeze --project demo --at 2030-01-01T00:00:00Z
          understudy clock advance --project demo 2h
          understudy clock real --project demo
        """

    static let findings = """
        understudy findings: a project's integration-check findings, the rules from the SDKs'
        documentation the app broke (docs/checks.md): severity, rule, device, count, what the app did,
        the SDK's rule, the journal ids of the requests and the guide's section. Errors first.

        Usage: understudy findings --project P [--platform X] [--severity error|warning|info] [--rule ID] [--device D] [--since ISO8601]
               understudy findings --project P --clear              delete them all (the rules forget earlier requests too)

        Options:
          --project P          the project (required)
          --platform X         asleep, warrantylife, warplink or telematics
          --severity S         error, warning or info, as the project's settings make it
          --rule ID            one rule, such as asleep.setup-repeated
          --device D           one device, such as SERIAL:SN-0001
          --since ISO8601      only findings last seen at or after this time (project clock)
          --server URL         the server (default http://127.0.0.1:PORT)     UNDERSTUDY_SERVER
          --port PORT          a local server's port (default 8080)           UNDERSTUDY_PORT
          --admin-token TOKEN  the control-plane token                        UNDERSTUDY_ADMIN_TOKEN
          --json               {"findings": [...]} as the control plane answers it
        Exit codes (for CI): 0 no error-level finding among those listed, 1 error-level findings,
        2 usage error (a bad filter included), 3 project not found, 4 admin token missing or refused,
        5 server unreachable or failed.

        Examples:
          understudy findings --project demo
          understudy findings --project demo --severity error --since 2030-01-01T00:00:00Z
          understudy findings --project demo --json | jq '.findings[].rule'
          understudy findings --project demo || exit 1        # in a CI script: fail on errors
          understudy findings --project demo --clear
        """

    static let help = """
        understudy help: the overview of every command, or one command's help with its flags and examples
        (the same as `understudy COMMAND --help` or `-h`).

        Usage: understudy help [COMMAND]
        Commands: \(commands.joined(separator: ", "))

        Examples:
          understudy help
          understudy help journal
        """

    static let version = """
        understudy version: print the version and exit.

        Usage: understudy version
               understudy --version

        Example:
          understudy version
        """
}
