import EmulatorCore
import Foundation
import HTTPServer
import Testing

@testable import TelematicsEmulator

@Suite("Telematics configuration, settings and SDK settings")
struct TelematicsConfigurationTests {
    @Test("date parameters keep a literal + as the offset's sign; escapes still decode")
    func plusInDates() throws {
        let request = Request(method: .get, target: "/trips?startTs=2026-12-01T09:00:00+09:00&endTs=2026-12-01T10:00:00%2B09:00&x=a+b")
        let range = try TelematicsService.dateRange(TelematicsRoutes.dateQuery(request))
        #expect(range.start == Timestamp.parse("2026-12-01T00:00:00Z") && range.end == Timestamp.parse("2026-12-01T01:00:00Z"))
        // Form decoding (every other parameter) still reads `+` as a space.
        #expect(request.queryValue("x") == "a b")
        let broken = Request(method: .get, target: "/trips?from=2026-12-01T09:00:00%2")
        #expect(throws: TelematicsError.invalidDate("from", "2026-12-01T09:00:00%2")) { try TelematicsService.dateRange(TelematicsRoutes.dateQuery(broken)) }
        #expect(TelematicsRoutes.dateQuery(Request(method: .get, target: "/trips")).isEmpty)
    }

    @Test("the configuration section is checked: known keys, right types, sensible values")
    func configurationChecked() throws {
        let good = try TelematicsConfiguration(["hosts": ["Telematics.Example.com"], "apiRoot": "", "settings": ["tripGapSeconds": 120]])
        #expect(good.hosts == ["telematics.example.com"] && good.apiRoot == "" && good.settings["tripGapSeconds"] == 120)
        #expect(try TelematicsConfiguration(.null).apiRoot == "/api/v1")
        let bad: [JSONValue] = [
            "telematics", ["rotation": "fixed"], ["hosts": [1]], ["hosts": "a.example.com"], ["apiRoot": "/api/"], ["apiRoot": 3],
            ["settings": []], ["settings": ["noSuchSetting": 1]], ["settings": ["autoProcess": "yes"]], ["settings": ["defaultAccessTtlSeconds": 0]],
        ]
        for section in bad {
            #expect(throws: TelematicsConfigurationError.self, "\(section)") { try TelematicsConfiguration(section) }
        }
        #expect(throws: TelematicsConfigurationError("unknown setting telematics.settings.noSuchSetting")) {
            try TelematicsPlatform(configuration: ["settings": ["noSuchSetting": 1]])
        }
    }

    @Test("a stored document that does not read is Unreadable, naming the setting, whatever the configured layer")
    func unreadableStored() throws {
        let configured: JSONValue = ["tripGapSeconds": 120]
        #expect(try TelematicsSettings.effective(configured: configured, stored: ["rotationGraceSeconds": 5]).tripGapSeconds == 120)
        #expect(throws: TelematicsSettings.Unreadable.self) { try TelematicsSettings.effective(configured: configured, stored: ["tripGapSeconds": "soon"]) }
        do {
            _ = try TelematicsSettings.effective(configured: .null, stored: ["autoProcess": 3])
            Issue.record("a mistyped stored setting was read")
        } catch {
            #expect(error.reason.contains("autoProcess"))
        }
        #expect(TelematicsError.settingsUnavailable.status == 503 && TelematicsError.settingsUnavailable.code == "SERVICE_UNAVAILABLE")
    }

    @Test("SDK settings: baseURL, serviceCode and a recorded session pair; never the tenant key")
    func sdkSettings() throws {
        let platform = try TelematicsPlatform()
        let plain = platform.sdkSettings(endpoints: AdvertisedEndpoints(baseURL: "http://127.0.0.1:8080"), credentials: ["tenantKey": "abc", "serviceCode": "SC1"])
        #expect(plain == ["baseURL": "http://127.0.0.1:8080/telematics", "serviceCode": "SC1"])
        let demo = platform.sdkSettings(
            endpoints: AdvertisedEndpoints(baseURL: "http://h"), credentials: ["tenantKey": "abc", "serviceCode": "SC1", "token": "tma_abc_x", "refreshToken": "tmr_abc_y"])
        #expect(demo == ["baseURL": "http://h/telematics", "serviceCode": "SC1", "token": "tma_abc_x", "refreshToken": "tmr_abc_y"])
        #expect(platform.sdkConnection == .baseURL(setting: "baseURL"))
    }
}
