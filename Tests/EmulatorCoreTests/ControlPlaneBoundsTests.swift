import EmulatorCore
import Foundation
import Testing

/// Control-plane limits and filters: documented maxima answer 400, empty filters mean no filter.
@Suite("Control-plane bounds and filters")
struct ControlPlaneBoundsTests {
    @Test("requests/wait refuses a timeoutMs above the documented 120000 (and a negative one) with a 400")
    func waitMaximum() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        for timeout in [120_001, -1] {
            let reply = await harness.respond("POST", "/__admin/projects/\(project.id)/requests/wait", json: ["count": 1, "timeoutMs": .int(Int64(timeout))])
            #expect(reply.status == 400 && reply.json?["error"]?["message"]?.stringValue?.contains("120000") == true, "timeoutMs \(timeout)")
        }
        // Inside the bounds the wait runs: nothing matches, so a zero timeout answers 408 at once.
        let zero = await harness.respond("POST", "/__admin/projects/\(project.id)/requests/wait", json: ["method": "PATCH", "timeoutMs": 0])
        #expect(zero.status == 408 && zero.json?["error"]?["code"] == "wait_timeout")
        await harness.stop()
    }

    @Test("outbox filters that are empty mean no filter; a filter that is given still filters")
    func emptyOutboxFilters() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        for name in ["apple", "banana"] {
            #expect(try await harness.call("POST", "/testing/items", json: ["name": .string(name)], headers: ["X-Test-Key": project.key]).status == 201)
        }
        let outbox = "/__admin/projects/\(project.id)/outbox"
        let all = await harness.respond("GET", outbox).json?["messages"]?.arrayValue?.count
        #expect(all == 2)
        #expect(await harness.respond("GET", outbox + "?platform=&kind=").json?["messages"]?.arrayValue?.count == all)
        #expect(await harness.respond("GET", outbox + "?platform=testing&kind=").json?["messages"]?.arrayValue?.count == all)
        #expect(await harness.respond("GET", outbox + "?platform=&kind=none").json?["messages"]?.arrayValue?.count == 0)
        await harness.stop()
    }
}
