import EmulatorCore
import Foundation
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

@Suite("WarpLink configuration")
struct WarpLinkConfigurationTests {
    @Test("the configuration's warplink.settings are every project's defaults; autoProvisionKeysInto adopts unknown well-formed keys")
    func configuration() async throws {
        try await UnderstudyTestServer.with(
            demo: true,
            configure: { configuration in
                configuration.platforms[.warplink] = ["settings": ["no_match_style": "minimal", "ip_multipliers": false], "autoProvisionKeysInto": "demo"]
            }
        ) { server in
            let project = try await server.client.admin.createProject(name: "configured")
            let settings = try await server.client.warpLink.project(project.id).settings()
            #expect(settings.noMatchStyle == "minimal" && settings.ipMultipliers == false && settings.validateRejection == "401")
            let fresh = "wl_live_" + String(repeating: "Q", count: 32)
            #expect(try await server.client.warpLink.validate(apiKey: fresh).value?.valid == true)
            let adopted = try await server.client.warpLink.project("demo").keys().first { $0.value == fresh }
            #expect(adopted?.kind == "sdk" && adopted?.state == "active")
            let match = try await server.client.warpLink.matchAttribution(WarpLinkAttributionRequest(), apiKey: project.credential("warplink", "sdkKey"))
            #expect(match.raw.text == #"{"matched":false}"#)
            #expect(try await server.client.warpLink.validate(apiKey: "wl_live_short").status == 401) // malformed keys are never adopted
        }
    }
}
