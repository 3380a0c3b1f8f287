import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("WarrantyLife keys and accounts")
struct WarrantyLifeAccountTests {
    @Test("key validation: valid, invalid (missing, unknown, revoked) and unavailable (seeded, injected)")
    func keyValidation() async throws {
        try await WarrantyLifeFixture.with { f in
            #expect(await f.repository().validateAPIKey() == .valid(name: "Understudy", environment: "sandbox"))
            try await f.admin.createDeveloperKey(["key": "prod-key-1", "name": "Acme Shop", "environment": "production"])
            #expect(await f.repository(key: "prod-key-1").validateAPIKey() == .valid(name: "Acme Shop", environment: "production"))

            #expect(await f.repository(key: "").validateAPIKey() == .invalid(message: "Empty developer API key."))
            let missing = try await f.raw("GET", "/developer-keys/validate", key: "")
            #expect(try missing.status == 401 && wlError(missing).errorCode == 1001)
            let blocked = f.repository(key: "nope")
            guard case .invalid = await blocked.validateAPIKey() else { Issue.record("unknown key must be invalid"); return }
            // The SDK then blocks itself: the call fails locally (-1) instead of reaching the server (which would say 1002).
            #expect(await wlError { _ = try await blocked.getAppConfig() }?.errorCode == -1)
            guard case .invalid? = blocked.apiKeyValidation else { Issue.record("status kept"); return }
            let unknown = try await f.raw("GET", "/app-config", key: "nope")
            #expect(try unknown.status == 401 && wlError(unknown).errorCode == 1002 && unknown.headers["x-understudy-trace"] != nil)

            try await f.admin.updateDeveloperKey("prod-key-1", ["state": "revoked"])
            guard case .invalid = await f.repository(key: "prod-key-1").validateAPIKey() else { Issue.record("revoked key must be invalid"); return }
            #expect(try await f.raw("GET", "/app-config", key: "prod-key-1").status == 401)

            try await f.admin.updateDeveloperKey(f.key, ["state": "unavailable"])
            #expect(await f.repository().validateAPIKey() == .unavailable(message: "The service is temporarily unavailable.", statusCode: 503))
            // Normal requests stay available for an unavailable key.
            #expect(try await f.raw("GET", "/app-config").status == 200)
            try await f.admin.updateDeveloperKey(f.key, ["state": "unavailable", "unavailableMode": "hang"])
            guard case .unavailable(_, -1) = await f.repository().validateAPIKey(timeout: 1) else { Issue.record("a hanging key times out as unavailable"); return }

            try await f.admin.updateDeveloperKey(f.key, ["state": "valid"])
            _ = try await f.projectAdmin.addFault(
                FaultRule(
                    match: .init(platform: "warrantylife", path: "/mapi/*/100/developer-keys/validate"),
                    action: .init(type: "status", status: 502), times: 1))
            guard case .unavailable(_, 502) = await f.repository().validateAPIKey() else { Issue.record("an injected 502 is unavailable"); return }
            #expect(await f.repository().validateAPIKey() == .valid(name: "Understudy", environment: "sandbox"))
        }
    }

    @Test("login answers 202 with form or JSON; mismatch 404; unactivated 403; recovery mails; registration rules")
    func accounts() async throws {
        try await WarrantyLifeFixture.with { f in
            try await f.user("jane@example.com")
            let repo = f.repository()
            let login = try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            #expect(login.identity == "jane@example.com" && !login.token.isEmpty)
            let me = try await repo.getMe()
            #expect(me["email"]?.string == "jane@example.com" && me["firstName"]?.string == "Jane")

            let json = try await f.raw(
                "POST", "/auth/token", headers: ["Content-Type": "application/json"], body: Data(#"{"username":"jane@example.com","password":"secret-pass"}"#.utf8))
            #expect(json.status == 202)
            let wrong = await wlError { try await f.repository().getTokenViaUserPassword(username: "jane@example.com", password: "bad") }
            #expect(wrong?.status == 404 && wrong?.errorCode == 1101)
            try await f.user("later@example.com", activated: false)
            let inactive = await wlError { try await f.repository().getTokenViaUserPassword(username: "later@example.com", password: "secret-pass") }
            #expect(inactive?.status == 403 && inactive?.errorCode == 1103)
            #expect(try await f.raw("GET", "/whoami").status == 401)

            let check = try await repo.emailRegisteredCheck(email: "later@example.com")
            #expect(check["exists"]?.bool == true && check["activated"]?.bool == false)
            #expect(try await repo.emailRegisteredCheck(email: "nobody@example.com")["exists"]?.bool == false)
            #expect(try await f.raw("GET", "/auth/activated-account-check").status == 400)

            try await repo.recoverLostPassword(email: "jane@example.com")
            try await repo.recoverLostPassword(email: "nobody@example.com")
            let mails = try await f.projectAdmin.outbox(platform: "warrantylife", kind: "email")
            #expect(mails.count == 1 && mails.first?.recipient == "jane@example.com")

            // Registration: country/state ids from app config, duplicate e-mail, missing password.
            let config = try await repo.getAppConfig()
            let canada = config["countries"]?.array?.first { $0["code"]?.string == "CA" }
            let bc = canada?["provinces"]?.array?.first { $0["code"]?.string == "BC" }
            #expect(canada?["id"]?.int == 2 && bc?["id"]?.int == 202)
            #expect(config["countries"]?.array?.first?["provinces"]?.array?.count == 51)
            let fresh = f.repository(device: "AAAA")
            let registered = try await fresh.registerNewUser(user: ["email": "new@example.com", "password": "pw123456", "firstName": "New", "country": 2, "state": 202])
            #expect(registered.email == "new@example.com" && fresh.isUserLoggedIn)
            let duplicate = await wlError { try await f.repository().registerNewUser(user: ["email": "new@example.com", "password": "x"]) }
            #expect(duplicate?.status == 409 && duplicate?.errorCode == 1102)
            let badState = await wlError { try await f.repository().registerNewUser(user: ["email": "s@example.com", "password": "x", "country": 2, "state": 101]) }
            #expect(badState?.status == 400 && badState?.errorCode == 1400)
            let noPassword = await wlError { try await f.repository().registerNewUser(user: ["email": "p@example.com"]) }
            #expect(noPassword?.status == 400)
            let wrongType = await wlError { try await f.repository().registerNewUser(user: ["email": "t@example.com", "password": "x", "country": "Canada"]) }
            #expect(wrongType?.errorMessage?.contains("country") == true)
        }
    }

    @Test("a token answered once stops working at once after a logout, a revoke by the control plane and a project reset")
    func revokedTokensStopAtOnce() async throws {
        try await WarrantyLifeFixture.with { f in
            let userID = try await f.user("jane@example.com")
            func login() async throws -> String {
                try await f.repository().getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass").token
            }
            func whoami(_ token: String, identity: String? = nil) async throws -> Int {
                let authorization = identity.map { "Basic " + Data("\($0):\(token)".utf8).base64EncodedString() } ?? "Bearer \(token)"
                return try await f.raw("GET", "/whoami", headers: ["Authorization": authorization]).status
            }
            // Answered twice (the second from the credential index), then logged out.
            let first = try await login()
            #expect(try await whoami(first) == 200)
            #expect(try await whoami(first) == 200)
            #expect(try await whoami(first, identity: "jane@example.com") == 200)
            #expect(try await whoami(first, identity: userID) == 200)
            #expect(try await whoami(first, identity: "someone@example.com") == 401) // the identity is checked on a cached account too
            #expect(try await f.raw("DELETE", "/auth/token", headers: ["Authorization": "Bearer \(first)"]).status == 204)
            #expect(try await whoami(first) == 401)
            // A new token, revoked by the control plane.
            let second = try await login()
            #expect(second != first)
            #expect(try await whoami(second) == 200)
            try await f.admin.updateUser(userID, ["revokeToken": true])
            #expect(try await whoami(second) == 401)
            // A reset removes the account with its token.
            let third = try await login()
            #expect(try await whoami(third) == 200)
            _ = try await f.projectAdmin.reset()
            #expect(try await whoami(third) == 401)
        }
    }

    @Test("passwordless and locked-email registration follow the looked-up voucher")
    func registrationTypes() async throws {
        try await WarrantyLifeFixture.with { f in
            try await f.admin.createVoucher(["code": "PWL-1", "registrationType": "passwordlessRegistration"])
            let repo = f.repository()
            #expect(try await repo.getVoucherByVoucherCode(voucherCode: "pwl-1").registrationType == "passwordlessRegistration")
            _ = try await repo.registerNewUser(user: ["email": "nopw@example.com"])
            try await f.admin.createVoucher(["code": "LOCK-1", "registrationType": "lockedEmailRegistration", "lockedEmail": "owner@example.com"])
            let locked = try await repo.getVoucherByVoucherCode(voucherCode: "LOCK-1")
            #expect(locked.registrationType == "lockedEmailRegistration" && locked.lockedEmail == "owner@example.com")
            let other = await wlError { try await f.repository().registerNewUser(user: ["email": "else@example.com", "password": "x"]) }
            #expect(other?.status == 422 && other?.errorCode == 1104)
            _ = try await f.repository().registerNewUser(user: ["email": "owner@example.com", "password": "x"])
        }
    }

    @Test("routing: host mode, any client code, unknown route and 405 in WarrantyLife's format")
    func routing() async throws {
        try await WarrantyLifeFixture.with { f in
            let host = try await f.client.send(
                ClientRequest(method: "GET", path: "/mapi/wi/100/app-config", headers: ["Host": "WWW.warrantylife.com:443", "X-WL-Developer-Key": f.key]))
            #expect(host.status == 200)
            let otherCode = try await f.client.send(ClientRequest(method: "GET", path: "/warrantylife/mapi/cellairis/100/app-config", headers: ["X-WL-Developer-Key": f.key]))
            #expect(otherCode.status == 200)
            let unknown = try await f.raw("GET", "/cellairis/receipts")
            #expect(try unknown.status == 404 && wlError(unknown).errorCode == 1404)
            let method = try await f.raw("DELETE", "/app-config")
            #expect(try method.status == 405 && wlError(method).error == "method_not_allowed")
        }
    }
}
