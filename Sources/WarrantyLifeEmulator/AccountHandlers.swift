import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// Account routes (§5.2): e-mail check, recovery, login, registration, logout.
enum AccountHandlers {
    static func activatedCheck(_ call: WireCall) async throws -> Response {
        let email = try call.query.requiredString("email")
        let user = try await call.db.read { c in try WarrantyLifeStore.user(c, call.project, email: email) }
        return call.ok(["email": .string(email), "exists": .bool(user != nil), "activated": .bool(user?.activated ?? false)])
    }

    /// Always 202; a known account gets a reset mail in the outbox.
    static func recover(_ call: WireCall) async throws -> Response {
        let body = try WireBody.objectOrForm(call.request)
        let email = try body.requiredString("email")
        let project = call.project, now = call.now, resetToken = call.token()
        try await call.db.write { c in
            guard let user = try WarrantyLifeStore.user(c, project, email: email) else { return }
            try Outbox.add(c, project: project, platform: .warrantylife, kind: "email", recipient: user.email, subject: "Reset your WarrantyLife password",
                           payload: ["type": "passwordReset", "email": .string(user.email), "userId": .string(user.id), "resetToken": .string(resetToken),
                                     "link": .string("https://www.warrantylife.com/reset-password?token=\(resetToken)")], now: now)
        }
        return call.ok(["sent": true], status: 202)
    }

    /// 202 `LoginResponse` (2022: exactly 202); mismatch 404 (or 401 by configuration); 403 before activation.
    static func login(_ call: WireCall) async throws -> Response {
        let body = try WireBody.objectOrForm(call.request)
        let username = try body.string("username") ?? body.string("email")
        guard let username, !username.isEmpty else { throw WarrantyLifeError.validation("Field `username` is required.") }
        let password = try body.requiredString("password")
        let user = try await call.db.read { c in try WarrantyLifeStore.user(c, call.project, email: username.trimmingCharacters(in: .whitespaces)) }
        guard let user, let stored = user.password, stored == password else {
            throw WarrantyLifeError.invalidCredentials(status: call.settings.loginFailureStatus)
        }
        guard user.activated else { throw WarrantyLifeError.accountNotActivated }
        return call.ok(user.login, status: call.settings.loginStatus)
    }

    /// `DELETE /auth/token` (optional, D-WL-11): revokes the token by issuing a new one.
    static func logout(_ call: WireCall) async throws -> Response {
        var user = try call.caller
        user.token = call.token()
        let updated = user
        try await call.db.write { c in try WarrantyLifeStore.updateUser(c, call.project, updated) }
        return Response(status: 204)
    }

    /// `POST /auth/user` (D-WL-10): 201 `LoginResponse`; 409 existing e-mail; 422 locked e-mail.
    static func register(_ call: WireCall) async throws -> Response {
        let body = try WireBody.objectOrForm(call.request)
        let email = try body.requiredString("email").trimmingCharacters(in: .whitespaces)
        guard email.contains("@"), !email.hasPrefix("@"), !email.hasSuffix("@") else { throw WarrantyLifeError.validation("Field `email` must be an e-mail address.") }
        let password = try body.string("password")
        let country = try body.int("country"), state = try body.int("state")
        var profile: [String: JSONValue] = [:]
        for name in ["firstName", "lastName", "company", "streetAddress", "city", "zip", "countryCode", "stateCode", "phone"] {
            if let value = try body.string(name) { profile[name] = .string(value) }
        }
        if let country { profile["country"] = .int(Int64(country)) }
        if let state { profile["state"] = .int(Int64(state)) }
        let project = call.project, now = call.now, nowText = call.nowText
        let user = UserRecord(id: call.newID(), email: email, password: password, token: call.token(), activated: !call.settings.requireActivation,
                              profile: profile, createdAt: nowText)
        try await call.db.write { c in
            if let problem = try WarrantyLifeStore.checkRegion(c, project, country: country, state: state) { throw WarrantyLifeError.validation(problem) }
            let lookup = try WarrantyLifeStore.latestLookup(c, project, userID: nil, deviceID: nil)
            let type = lookup?.string("registration_type")
            if (password ?? "").isEmpty && type != RegistrationType.passwordlessRegistration.rawValue {
                throw WarrantyLifeError.validation("Field `password` is required.")
            }
            if try WarrantyLifeStore.user(c, project, email: email) != nil { throw WarrantyLifeError.emailAlreadyRegistered }
            if type == RegistrationType.lockedEmailRegistration.rawValue, let code = lookup?.string("code"),
               let locked = try WarrantyLifeStore.voucher(c, project, code: code)?.seed.lockedEmail,
               locked.caseInsensitiveCompare(email) != .orderedSame {
                throw WarrantyLifeError.emailLocked
            }
            try WarrantyLifeStore.insertUser(c, project, user)
            if !user.activated {
                try Outbox.add(c, project: project, platform: .warrantylife, kind: "email", recipient: email, subject: "Activate your WarrantyLife account",
                               payload: ["type": "activation", "email": .string(email), "userId": .string(user.id)], now: now)
            }
        }
        return call.ok(user.login, status: 201)
    }
}

/// `GET /vouchers/{code}` (D-WL-15).
enum VoucherHandlers {
    static func lookup(_ call: WireCall) async throws -> Response {
        let code = call.context.parameter("code")
        let query = call.query
        let isPlanTransfer = try query.bool("isPlanTransfer") ?? false
        let active = try query.int("activeWarrantiesInCurrentDevice") ?? 0
        let deviceID = query.string("deviceId") ?? call.request.headers["x-device-id"]
        let project = call.project, now = call.now, nowText = call.nowText, userID = call.user?.id
        let payload = try await call.db.write { c -> JSONValue in
            guard let voucher = try WarrantyLifeStore.voucher(c, project, code: code) else { throw WarrantyLifeError.voucherNotFound }
            var deviceActive = false
            var count = 0
            if let deviceID, let item = try WarrantyLifeStore.item(c, project, deviceID: deviceID) {
                let warranties = try WarrantyLifeStore.warranties(c, project, itemID: item.id)
                count = warranties.filter { $0.isActive(now: now) }.count
                // The voucher's own warranty on this device is not a conflict with itself.
                deviceActive = warranties.contains { $0.isActive(now: now) && $0.id != voucher.warrantyID }
            }
            let facts = VoucherLookupFacts(
                forcedAction: voucher.seed.forceAction, status: voucher.status, expiresAt: voucher.seed.expiresAt.flatMap(WarrantyLifeRules.parseDate),
                transferable: voucher.transferable, claimedByUserID: voucher.claimedByUserID, originalDeviceID: voucher.originalDeviceID,
                isPlanTransfer: isPlanTransfer, activeWarrantiesInCurrentDevice: active, deviceHasActiveWarranty: deviceActive,
                callerUserID: userID, deviceID: deviceID)
            let action = try WarrantyLifeRules.action(for: facts, now: now)
            let type = voucher.seed.registrationType ?? .normalRegistration
            try WarrantyLifeStore.recordLookup(c, project, code: voucher.code, deviceID: deviceID, userID: userID, action: action.rawValue, type: type.rawValue, now: nowText)
            return voucher.wire(action: action, countOnDevice: count)
        }
        return call.ok(payload)
    }
}
