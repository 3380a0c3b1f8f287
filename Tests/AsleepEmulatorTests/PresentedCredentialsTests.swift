import EmulatorCore
import Foundation
import HTTPServer
import Testing

@testable import AsleepEmulator

@Suite("Asleep presented credentials")
struct PresentedCredentialsTests {
    let platform = AsleepPlatform()

    private func presented(_ target: String, headers: HTTPHeaders = HTTPHeaders(), body: String = "") -> [PresentedCredential] {
        platform.presentedCredentials(in: Request(method: .post, target: target, headers: headers, body: Data(body.utf8)))
    }

    @Test("the token routes' body is read once here: app id and secret, or the refresh token; an unreadable body presents none")
    func tokenBodies() {
        let app = #"{"app_id":"app_1","app_secret":"sec_1"}"#
        #expect(
            presented("/asleep/customer/v1/app/token", body: app) == [
                PresentedCredential(kind: "appId", value: "app_1", carrier: .bodyField("app_id")),
                // A secret names no app by itself: a request with only a secret presented no credential that could match a project.
                PresentedCredential(kind: "appSecret", value: "sec_1", carrier: .bodyField("app_secret"), namesProject: false),
            ])
        #expect(
            presented("/asleep/customer/v1/app/refresh", body: #"{"refresh_token":"rt_1"}"#) == [
                PresentedCredential(kind: "refreshToken", value: "rt_1", carrier: .bodyField("refresh_token"))
            ])
        #expect(presented("/asleep/customer/v1/app/token", body: "{not json").isEmpty)
        #expect(presented("/asleep/customer/v1/app/refresh", body: app).isEmpty)
        #expect(presented("/asleep/ai/v1/users", body: app).isEmpty)
        let headers: HTTPHeaders = ["x-api-key": "k", "Authorization": "Bearer at_1"]
        #expect(
            presented("/asleep/ai/v1/users", headers: headers, body: app) == [
                PresentedCredential(kind: "apiKey", value: "k", carrier: .header("x-api-key")),
                PresentedCredential(kind: "accessToken", value: "at_1", carrier: .header("Authorization")),
            ])
    }

    @Test("every spelling the router sends to a token route presents its body: a trailing slash, percent-escapes")
    func tokenRouteSpellings() {
        #expect(AsleepPlatform.tokenRoute("/asleep/customer/v1/app/token") == "token")
        #expect(AsleepPlatform.tokenRoute("/asleep/customer/v1/app/refresh/") == "refresh")
        #expect(AsleepPlatform.tokenRoute("/asleep/customer/v1/app/%74oken") == "token")
        #expect(AsleepPlatform.tokenRoute("/asleep/customer/v1/app/token//") == nil)
        #expect(AsleepPlatform.tokenRoute("/asleep/customer/v1/app%2Ftoken") == nil)
        #expect(AsleepPlatform.tokenRoute("/asleep/ai/v1/users/") == nil)
        #expect(AsleepPlatform.tokenRoute("customer/v1/app/token/") == nil)
    }
}
