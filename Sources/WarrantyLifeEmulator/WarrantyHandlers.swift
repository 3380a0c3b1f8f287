import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// Warranty routes (§5.7, D-WL-20).
enum WarrantyHandlers {
    /// Reads and checks the `WLWarrantyRequest` fields of `body` into `document`.
    static func apply(_ body: WireBody, to document: inout [String: JSONValue], _ c: SQLiteConnection, _ project: ProjectID) throws {
        for name in ["firstName", "lastName", "company", "streetAddress", "city", "zip", "phone"] {
            if let value = try body.string(name) { document[name] = .string(value) }
        }
        let country = try body.int("country"), state = try body.int("state")
        if let problem = try WarrantyLifeStore.checkRegion(c, project, country: country ?? document["country"]?.intValue, state: state) {
            throw WarrantyLifeError.validation(problem)
        }
        if let country { document["country"] = .int(Int64(country)) }
        if let state { document["state"] = .int(Int64(state)) }
        if let date = try body.string("dateOfPurchase") {
            guard WarrantyLifeRules.parseDate(date) != nil else {
                throw WarrantyLifeError.validation("Field `dateOfPurchase` must be a date `yyyy-MM-dd` or ISO 8601.")
            }
            document["dateOfPurchase"] = .string(date)
        }
        for name in ["acceptedMarketing", "isDeviceInsured"] {
            if let value = try body.bool(name) { document[name] = .bool(value) }
        }
        if let reward = try body.double("rewardAmount") {
            let max = document["rewardAmountMax"]?.doubleValue ?? .infinity
            guard reward >= 0, reward <= max else { throw WarrantyLifeError.validation("Field `rewardAmount` must be between 0 and \(max).") }
            document["rewardAmount"] = .double(reward)
        }
    }

    /// Field types and formats, checked before any lookup so bad input is a 400 whatever else is wrong.
    static func checkShape(_ body: WireBody) throws(WarrantyLifeError) {
        for name in ["firstName", "lastName", "company", "streetAddress", "city", "zip", "phone", "voucherCode", "itemId", "deviceId", "imei", "diagnosticId"] {
            _ = try body.string(name)
        }
        _ = try body.int("country"); _ = try body.int("state"); _ = try body.double("rewardAmount")
        for name in ["acceptedMarketing", "isDeviceInsured", "ssr", "ssd", "tradeIn"] { _ = try body.bool(name) }
        if let date = try body.string("dateOfPurchase"), WarrantyLifeRules.parseDate(date) == nil {
            throw .validation("Field `dateOfPurchase` must be a date `yyyy-MM-dd` or ISO 8601.")
        }
    }

    static func list(_ call: WireCall) async throws -> Response {
        let user = try call.caller, project = call.project, now = call.now
        let payload = try await call.db.read { c -> JSONValue in
            .array(try WarrantyLifeStore.warranties(c, project, userID: user.id).map { w in
                w.wire(now: now, item: try w.itemID.flatMap { try WarrantyLifeStore.item(c, project, id: $0) })
            })
        }
        return call.ok(payload)
    }

    static func get(_ call: WireCall) async throws -> Response {
        let user = try call.caller, project = call.project, now = call.now, id = call.context.parameter("id")
        return call.ok(try await call.db.read { c in
            guard let w = try WarrantyLifeStore.warranty(c, project, id: id), w.userID == user.id else { throw WarrantyLifeError.warrantyNotFound }
            return w.wire(now: now, item: try w.itemID.flatMap { try WarrantyLifeStore.item(c, project, id: $0) })
        })
    }

    /// The caller's item for this request: `itemId`, else `deviceId`, else the last looked-up device, else the newest item.
    static func callerItem(_ c: SQLiteConnection, _ project: ProjectID, body: WireBody, user: UserRecord, lookupDevice: String?) throws -> ItemRecord {
        if let itemID = try body.string("itemId") { return try ItemHandlers.ownedItem(c, project, id: itemID, user: user) }
        for deviceID in [try body.string("deviceId"), lookupDevice].compactMap({ $0 }) {
            if let item = try WarrantyLifeStore.item(c, project, deviceID: deviceID) {
                try ItemHandlers.checkOwner(c, project, item: item, user: user)
                return item
            }
        }
        guard let item = try WarrantyLifeStore.items(c, project, userID: user.id).last else { throw WarrantyLifeError.itemNotFound }
        return item
    }

    /// `POST /warranties`: 201; the voucher becomes claimed by the caller and bound to the device.
    static func create(_ call: WireCall) async throws -> Response {
        let body = try WireBody.object(call.request)
        try checkShape(body)
        let user = try call.caller, project = call.project, now = call.now, nowText = call.nowText
        let payload = try await call.db.write { c -> JSONValue in
            let lookup = try WarrantyLifeStore.latestLookup(c, project, userID: user.id, deviceID: try body.string("deviceId"))
            guard let code = try body.string("voucherCode") ?? lookup?.string("code") else {
                throw WarrantyLifeError.validation("Field `voucherCode` is required (no voucher was looked up).")
            }
            guard var voucher = try WarrantyLifeStore.voucher(c, project, code: code) else { throw WarrantyLifeError.voucherNotFound }
            if voucher.status == "redeemed" { throw WarrantyLifeError.voucherRedeemed }
            var item = try callerItem(c, project, body: body, user: user, lookupDevice: lookup?.string("device_id"))
            // A cancelled warranty frees its voucher; any other one binds it.
            if let existing = try WarrantyLifeStore.warranty(c, project, id: voucher.warrantyID), existing.status != "CANCELLED" {
                throw WarrantyLifeError.warrantyConflict
            }
            if let claimer = voucher.claimedByUserID, claimer != user.id { throw WarrantyLifeError.warrantyConflict }
            let plan = voucher.plan, offers = voucher.smartSaver
            var document: [String: JSONValue] = [
                "registrationCode": .string(voucher.code), "warrantyUrl": .string("https://www.warrantylife.com/w/\(WarrantyLifeRules.encodedID(voucher.warrantyID))"),
                "status": "ACTIVE", "warrantyPlanId": plan["warrantyPlanId"] ?? .null, "planName": plan["planName"] ?? .null,
                "planCurrency": plan["currency"] ?? .null, "rewardAmount": plan["rewardAmount"] ?? .null, "rewardAmountMax": plan["rewardAmountMax"] ?? .null,
                "rewardType": plan["rewardType"] ?? .null, "tradeInScore": .null,
                "ssrOffered": offers["ssrOffered"] ?? false, "ssdOffered": offers["ssdOffered"] ?? false, "tipOffered": offers["tipOffered"] ?? false,
                "coverageStartDate": .string(nowText),
                "coverageEndDate": .string(Timestamp.format(WarrantyLifeRules.adding(months: voucher.seed.coverageMonths ?? 12, to: now), fractionalSeconds: false)),
                "waitingPeriodEndsAt": .null, "isDeviceInsured": false, "acceptedMarketing": false, "createdAt": .string(nowText), "updatedAt": .string(nowText),
            ]
            try apply(body, to: &document, c, project)
            if voucher.seed.purchaseDateRequired == true, document["dateOfPurchase"] == nil {
                throw WarrantyLifeError.validation("Field `dateOfPurchase` is required for this voucher.")
            }
            var changed = false
            for (key, program) in [("ssr", "SSR"), ("ssd", "SSD"), ("tradeIn", "TRADE_IN")] {
                guard let flag = try body.bool(key) else { continue }
                changed = true
                switch key { case "ssr": item.ssr = flag; case "ssd": item.ssd = flag; default: item.tradeIn = flag }
                try c.run("INSERT INTO wl_opt_ins (project_id, item_id, program, opted_in, sensor_event_id, created_at) VALUES (?, ?, ?, ?, NULL, ?)",
                          project, item.id, program, flag, nowText)
            }
            if let imei = try body.string("imei") { item.imei = imei; changed = true }
            if changed { item.updatedAt = nowText; try WarrantyLifeStore.saveItem(c, project, item) }
            let warranty = WarrantyRecord(id: voucher.warrantyID, itemID: item.id, userID: user.id, voucherCode: voucher.code, document: document)
            try WarrantyLifeStore.saveWarranty(c, project, warranty)
            voucher.status = "claimed"
            voucher.claimedByUserID = user.id
            voucher.originalDeviceID = item.deviceID
            voucher.updatedAt = nowText
            try WarrantyLifeStore.saveVoucher(c, project, voucher)
            return warranty.wire(now: now, item: item)
        }
        return call.ok(payload, status: 201)
    }

    /// `PUT /warranties/{id}`: merge; a caller on another device who looked the voucher up takes the warranty over (transfer).
    static func update(_ call: WireCall) async throws -> Response {
        let body = try WireBody.object(call.request)
        try checkShape(body)
        let user = try call.caller, project = call.project, now = call.now, nowText = call.nowText, id = call.context.parameter("id")
        return call.ok(try await call.db.write { c -> JSONValue in
            guard var warranty = try WarrantyLifeStore.warranty(c, project, id: id) else { throw WarrantyLifeError.warrantyNotFound }
            let lookup = try WarrantyLifeStore.latestLookup(c, project, userID: user.id, deviceID: try body.string("deviceId"))
            let lookedUp = lookup?.string("code").map(WarrantyLifeRules.normalizedVoucherCode) == warranty.voucherCode.map(WarrantyLifeRules.normalizedVoucherCode)
            guard warranty.userID == user.id || lookedUp else { throw WarrantyLifeError.warrantyNotFound }
            let item = try callerItem(c, project, body: body, user: user, lookupDevice: lookup?.string("device_id"))
            try apply(body, to: &warranty.document, c, project)
            if warranty.itemID != item.id || warranty.userID != user.id {
                warranty.itemID = item.id
                warranty.userID = user.id
                if let code = warranty.voucherCode, var voucher = try WarrantyLifeStore.voucher(c, project, code: code) {
                    voucher.claimedByUserID = user.id
                    voucher.originalDeviceID = item.deviceID
                    voucher.status = "claimed"
                    voucher.updatedAt = nowText
                    try WarrantyLifeStore.saveVoucher(c, project, voucher)
                }
            }
            warranty.document["updatedAt"] = .string(nowText)
            try WarrantyLifeStore.saveWarranty(c, project, warranty)
            return warranty.wire(now: now, item: item)
        })
    }

    /// `PATCH /warranties/{id}` (`updateWarrantyById`): merge, `rewardAmount` within 0…`rewardAmountMax`.
    static func patch(_ call: WireCall) async throws -> Response {
        let body = try WireBody.object(call.request)
        try checkShape(body)
        let user = try call.caller, project = call.project, now = call.now, nowText = call.nowText, id = call.context.parameter("id")
        return call.ok(try await call.db.write { c -> JSONValue in
            guard var warranty = try WarrantyLifeStore.warranty(c, project, id: id), warranty.userID == user.id else { throw WarrantyLifeError.warrantyNotFound }
            try apply(body, to: &warranty.document, c, project)
            warranty.document["updatedAt"] = .string(nowText)
            try WarrantyLifeStore.saveWarranty(c, project, warranty)
            return warranty.wire(now: now, item: try warranty.itemID.flatMap { try WarrantyLifeStore.item(c, project, id: $0) })
        })
    }
}

/// Surveys, offers, feedback and diagnostic configuration (§5.3, §5.11, §5.12).
enum ContentHandlers {
    /// `POST /surveys` (D-WL-13): `surveyVersion` and `answers` in either form → 201 `{id}`.
    static func postSurvey(_ call: WireCall) async throws -> Response {
        let body = try WireBody.object(call.request)
        guard try body.int("surveyVersion") != nil else { throw WarrantyLifeError.validation("Field `surveyVersion` is required.") }
        _ = try body.string("diagnosticId")
        guard let answers = body.fields["answers"]?.arrayValue else { throw WarrantyLifeError.validation("Field `answers` must be an array.") }
        for (index, answer) in answers.enumerated() {
            guard let members = answer.objectValue, !members.isEmpty else { throw WarrantyLifeError.validation("Answer \(index) must be an object.") }
            if members["questionId"] != nil {
                guard members["questionId"]?.intValue != nil, members["optionId"]?.intValue != nil else {
                    throw WarrantyLifeError.validation("Answer \(index) needs integer `questionId` and `optionId`.")
                }
            } else {
                guard members.count == 1, members.values.first?.intValue != nil else {
                    throw WarrantyLifeError.validation("Answer \(index) must be {\"<questionId>\": optionId} or {questionId, optionId}.")
                }
            }
        }
        return try await submit(call, kind: "survey", body: body.json)
    }

    static func submit(_ call: WireCall, kind: String, body: JSONValue) async throws -> Response {
        let id = call.newID(), project = call.project, nowText = call.nowText, userID = call.user?.id
        try await call.db.write { c in
            try c.run("INSERT INTO wl_submissions (project_id, id, kind, user_id, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                      project, id, kind, userID, WarrantyLifeStore.text(body), nowText)
        }
        return call.ok(["id": .string(id)], status: 201)
    }

    /// `POST /feedback` (D-WL-24): any JSON object.
    static func feedback(_ call: WireCall) async throws -> Response {
        try await submit(call, kind: "feedback", body: try WireBody.object(call.request).json)
    }

    /// `GET /surveys?surveyVersion=`: the questions of that version (default: the highest).
    static func survey(_ call: WireCall) async throws -> Response {
        let version = try call.query.int("surveyVersion")
        let surveys = try await call.db.read { c in try WarrantyLifeStore.content(c, call.project, "surveys") }
        let keys = (surveys.objectValue ?? [:]).keys.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
        guard let key = version.map(String.init) ?? keys.last, let survey = surveys[key] else {
            throw WarrantyLifeError.notFound("Survey version \(version.map(String.init) ?? "")")
        }
        return call.ok(survey)
    }

    /// Raw HTML, not enveloped (D-WL-14); `{{query}}` in the seeded page becomes the escaped query values.
    static func offersHTML(_ call: WireCall, name: String) async throws -> Response {
        let page = try await call.db.read { c in try WarrantyLifeStore.content(c, call.project, name) }.stringValue ?? ""
        let echoed = call.request.queryItems.filter { !$0.value.isEmpty }.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        let escaped = echoed.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        return Response(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data(page.replacingOccurrences(of: "{{query}}", with: escaped).utf8))
    }

    /// `GET /offers?country=&state=`: JSON offers, filtered by `country`/`state` when an offer names them.
    static func offers(_ call: WireCall) async throws -> Response {
        let country = call.query.string("country"), state = call.query.string("state")
        let offers = try await call.db.read { c in try WarrantyLifeStore.content(c, call.project, "offers") }.arrayValue ?? []
        let filtered = offers.filter { offer in
            (country == nil || offer["country"]?.stringValue.map { $0.caseInsensitiveCompare(country!) == .orderedSame } ?? true)
                && (state == nil || offer["state"]?.stringValue.map { $0.caseInsensitiveCompare(state!) == .orderedSame } ?? true)
        }
        return call.ok(.array(filtered))
    }

    /// `GET /diagnostic-config?model=`: the model's requirements, else the `*` default, else 404.
    static func diagnosticConfig(_ call: WireCall) async throws -> Response {
        let model = try call.query.requiredString("model")
        let config = try await call.db.read { c in try WarrantyLifeStore.content(c, call.project, "diagnosticConfig") }
        guard let requirements = config[model] ?? config["*"] else { throw WarrantyLifeError.notFound("Diagnostic configuration for `\(model)`") }
        return call.ok(["model": .string(model), "diagnosticRequirements": requirements])
    }
}
