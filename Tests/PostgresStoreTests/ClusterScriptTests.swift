import Foundation
import TestPostgres
import TestProcesses
import Testing

/// `.ci/postgres.sh`, which CI and these tests start their throwaway cluster with.
@Suite("Test cluster script")
struct ClusterScriptTests {
    private static let script = TestPostgres.repository.appendingPathComponent(".ci/postgres.sh").path

    @Test("with no server binaries it fails with exit 3, saying to install postgresql, and starts nothing")
    func missingBinaries() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["UNDERSTUDY_POSTGRES_BINDIR"] = "/nonexistent/postgresql/bin"
        let run = try ChildProcess.run("/bin/bash", [Self.script, "start"], environment: environment)
        #expect(run.status == 3)
        #expect(run.error.contains("install postgresql"), "\(run.error)")
        #expect(run.standard.isEmpty)
    }

    @Test("stop without a cluster folder is a no-op, and an unknown command is a usage error")
    func usage() throws {
        let environment = ProcessInfo.processInfo.environment
        #expect(try ChildProcess.run("/bin/bash", [Self.script, "stop", "/nonexistent/cluster"], environment: environment).status == 0)
        let unknown = try ChildProcess.run("/bin/bash", [Self.script, "frobnicate"], environment: environment)
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("usage"))
    }
}
