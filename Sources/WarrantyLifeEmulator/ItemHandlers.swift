import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// Item and device routes (§5.5), sensor events, FCM tokens and Smart Saver (§5.10).
enum ItemHandlers {
    /// The item `id` owned by the caller: 404 (1301) when missing, 401 (1302) when another account's.
    static func ownedItem(_ c: SQLiteConnection, _ project: ProjectID, id: String, user: UserRecord) throws -> ItemRecord {
        guard let item = try WarrantyLifeStore.item(c, project, id: id) else { throw WarrantyLifeError.itemNotFound }
        try checkOwner(c, project, item: item, user: user)
        return item
    }

    static func checkOwner(_ c: SQLiteConnection, _ project: ProjectID, item: ItemRecord, user: UserRecord) throws {
        guard item.userID != user.id else { return }
        let owner = try WarrantyLifeStore.user(c, project, id: item.userID)
        throw WarrantyLifeError.deviceRegisteredToOtherAccount(maskedEmail: WarrantyLifeRules.maskEmail(owner?.email ?? "unknown@unknown.com"))
    }

    static func coverage(_ c: SQLiteConnection, _ project: ProjectID, item: ItemRecord, now: Date) throws -> (active: WarrantyRecord?, all: [WarrantyRecord]) {
        let warranties = try WarrantyLifeStore.warranties(c, project, itemID: item.id)
        return (warranties.last { $0.isActive(now: now) }, warranties)
    }

    /// `GET /devices?deviceId=` (D-WL-16): public coverage, no personal data.
    static func publicDevice(_ call: WireCall) async throws -> Response {
        let deviceID = try call.query.requiredString("deviceId")
        let project = call.project, now = call.now
        let payload = try await call.db.read { c -> JSONValue in
            guard let item = try WarrantyLifeStore.item(c, project, deviceID: deviceID) else { throw WarrantyLifeError.itemNotFound }
            let (active, all) = try coverage(c, project, item: item, now: now)
            let shown = active ?? all.last
            return ["deviceId": .string(deviceID), "itemId": .string(item.id), "hasActiveCoverage": .bool(active != nil),
                    "warrantyId": shown.map { .string($0.id) } ?? .null, "warrantyStatus": shown.map { .string($0.status) } ?? .null,
                    "ssrOffered": .bool(shown?.document["ssrOffered"]?.boolValue ?? false), "ssdOffered": .bool(shown?.document["ssdOffered"]?.boolValue ?? false),
                    "tipOffered": .bool(shown?.document["tipOffered"]?.boolValue ?? false),
                    "ssr": .bool(item.ssr), "ssd": .bool(item.ssd), "tradeIn": .bool(item.tradeIn)]
        }
        return call.ok(payload)
    }

    static func itemPayload(_ c: SQLiteConnection, _ project: ProjectID, _ item: ItemRecord, now: Date) throws -> JSONValue {
        let (active, all) = try coverage(c, project, item: item, now: now)
        return item.wire(hasActiveCoverage: active != nil, warrantyIDs: all.map(\.id))
    }

    /// `GET /items?deviceId=`: 200 Item, 404 none yet, 401 (1302) another account's.
    static func byDevice(_ call: WireCall) async throws -> Response {
        let deviceID = try call.query.requiredString("deviceId")
        let user = try call.caller, project = call.project, now = call.now
        let payload = try await call.db.read { c -> JSONValue in
            guard let item = try WarrantyLifeStore.item(c, project, deviceID: deviceID) else { throw WarrantyLifeError.itemNotFound }
            try checkOwner(c, project, item: item, user: user)
            return try itemPayload(c, project, item, now: now)
        }
        return call.ok(payload)
    }

    /// `POST /items`: 201 new, 200 when the caller already owns the device's item, 401 (1302) otherwise.
    static func create(_ call: WireCall) async throws -> Response {
        let body = try WireBody.object(call.request)
        let deviceID = try body.requiredString("deviceId")
        let user = try call.caller, project = call.project, now = call.now
        let item = ItemRecord(id: call.newID(), deviceID: deviceID, userID: user.id, categoryID: try body.string("categoryId"),
                              manufacturerName: try body.string("manufacturerName"), model: try body.string("model"), mpn: try body.string("mpn"),
                              imei: try body.string("imei"), notificationToken: try body.string("notificationToken"), ssr: false, ssd: false, tradeIn: false,
                              createdAt: call.nowText, updatedAt: call.nowText)
        let (status, payload) = try await call.db.write { c -> (Int, JSONValue) in
            if let existing = try WarrantyLifeStore.item(c, project, deviceID: deviceID) {
                try checkOwner(c, project, item: existing, user: user)
                return (200, try itemPayload(c, project, existing, now: now))
            }
            try WarrantyLifeStore.saveItem(c, project, item)
            if let token = item.notificationToken { try recordToken(c, project, itemID: item.id, token: token, source: "item", now: item.createdAt) }
            return (201, try itemPayload(c, project, item, now: now))
        }
        return call.ok(payload, status: status)
    }

    static func recordToken(_ c: SQLiteConnection, _ project: ProjectID, itemID: String, token: String, source: String, now: String) throws {
        try c.run("INSERT INTO wl_fcm_tokens (project_id, item_id, token, source, created_at) VALUES (?, ?, ?, ?, ?)", project, itemID, token, source, now)
        try c.run("UPDATE wl_items SET notification_token = ?, updated_at = ? WHERE project_id = ? AND id = ?", token, now, project, itemID)
    }

    /// `PUT /items/{itemId}`: a Sensor Event → 202 `{sensorEventId}`; a token-only update → 200 `{id}` (D-WL-17, D-WL-18).
    static func update(_ call: WireCall) async throws -> Response {
        let body = try WireBody.object(call.request)
        let eventAt = try body.string("eventAt")
        if let eventAt, !WarrantyLifeRules.isLocalTimestamp(eventAt) {
            throw WarrantyLifeError.validation("Field `eventAt` must be `yyyy-MM-dd HH:mm:ss.SSS` in device local time.")
        }
        let type = try body.int("sensorEventType")
        let token = try body.string("notificationToken")
        // Known fields must have their 2022 types; unknown ones (Bluetooth/Wi-Fi scans…) are kept as sent.
        _ = try body.int("volumeSetting")
        for name in ["latitude", "longitude"] { _ = try body.double(name) }
        for name in ["sensorTestId", "dropJsVersion", "deviceId", "platformVersion", "appVersion"] { _ = try body.string(name) }
        let flags = WarrantyLifeRules.smartSaverFlags(in: body.json)
        let isTokenUpdate = eventAt == nil && type == nil && token != nil && flags.isEmpty
        let itemID = call.context.parameter("itemId")
        let user = try call.caller, project = call.project, nowText = call.nowText, eventID = call.newID()
        let dedupe = call.settings.sensorEventDedupe
        let answeredID = try await call.db.write { c -> String in
            var item = try ownedItem(c, project, id: itemID, user: user)
            if let token { try recordToken(c, project, itemID: item.id, token: token, source: isTokenUpdate ? "itemUpdate" : "sensorEvent", now: nowText) }
            if isTokenUpdate { return eventID }
            // A repeat is always stored and marked; by default it is also answered with the first id (same eventAt → same id).
            let duplicateOf = try WarrantyLifeStore.insertSensorEvent(c, project, id: eventID, itemID: item.id, eventAt: eventAt, type: type, body: body.json, now: nowText)
            let answered = dedupe ? duplicateOf ?? eventID : eventID
            guard !flags.isEmpty else { return answered }
            item = try WarrantyLifeStore.item(c, project, id: item.id) ?? item
            for (program, optedIn) in flags {
                switch program {
                case "SSR": item.ssr = optedIn
                case "SSD": item.ssd = optedIn
                default: item.tradeIn = optedIn
                }
                try c.run("INSERT INTO wl_opt_ins (project_id, item_id, program, opted_in, sensor_event_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                          project, item.id, program, optedIn, eventID, nowText)
            }
            item.updatedAt = nowText
            try WarrantyLifeStore.saveItem(c, project, item)
            return answered
        }
        if isTokenUpdate { return call.ok(["id": .string(itemID)]) }
        return call.ok(["sensorEventId": .string(answeredID)], status: 202)
    }

    /// `PUT /items/{itemId}/notification-token` (D-WL-18).
    static func notificationToken(_ call: WireCall) async throws -> Response {
        let body = try WireBody.object(call.request)
        let token = try body.requiredString("notificationToken")
        _ = try body.string("deviceId"); _ = try body.string("platform")
        let itemID = call.context.parameter("itemId")
        let user = try call.caller, project = call.project, nowText = call.nowText
        try await call.db.write { c in
            let item = try ownedItem(c, project, id: itemID, user: user)
            try recordToken(c, project, itemID: item.id, token: token, source: "notificationToken", now: nowText)
        }
        return call.ok(["itemId": .string(itemID), "notificationToken": .string(token), "updatedAt": .string(nowText)])
    }

    static let programs = [("SSR", "ssrOffered"), ("SSD", "ssdOffered"), ("TRADE_IN", "tipOffered")]

    static func programsPayload(_ c: SQLiteConnection, _ project: ProjectID, item: ItemRecord, now: Date) throws -> JSONValue {
        let active = try coverage(c, project, item: item, now: now).active
        var programs: [JSONValue] = []
        for (program, offered) in Self.programs {
            let optedIn = program == "SSR" ? item.ssr : program == "SSD" ? item.ssd : item.tradeIn
            let at = try c.scalar("SELECT created_at FROM wl_opt_ins WHERE project_id = ? AND item_id = ? AND program = ? AND opted_in = 1 ORDER BY id DESC LIMIT 1",
                                  project, item.id, program).string
            programs.append(["program": .string(program), "eligible": .bool(active?.document[offered]?.boolValue ?? false),
                             "optedIn": .bool(optedIn), "optedInAt": optedIn ? (at.map(JSONValue.string) ?? .null) : .null])
        }
        return ["programs": .array(programs)]
    }

    /// Optional `GET /items/{itemId}/smart-saver` (D-WL-23).
    static func smartSaver(_ call: WireCall) async throws -> Response {
        let itemID = call.context.parameter("itemId")
        let user = try call.caller, project = call.project, now = call.now
        return call.ok(try await call.db.read { c in
            try programsPayload(c, project, item: try ownedItem(c, project, id: itemID, user: user), now: now)
        })
    }

    /// Optional `POST /items/{itemId}/smart-saver/opt-ins` `{program, optIn}`: 409 (1601) when not offered.
    static func optIn(_ call: WireCall) async throws -> Response {
        let body = try WireBody.object(call.request)
        let program = try body.requiredString("program")
        guard let offeredKey = programs.first(where: { $0.0 == program })?.1 else {
            throw WarrantyLifeError.validation("Field `program` must be one of SSR, SSD, TRADE_IN.")
        }
        guard let optIn = try body.bool("optIn") else { throw WarrantyLifeError.validation("Field `optIn` is required.") }
        let itemID = call.context.parameter("itemId")
        let user = try call.caller, project = call.project, now = call.now, nowText = call.nowText
        return call.ok(try await call.db.write { c in
            var item = try ownedItem(c, project, id: itemID, user: user)
            let active = try coverage(c, project, item: item, now: now).active
            if optIn, active?.document[offeredKey]?.boolValue != true { throw WarrantyLifeError.notEligible(program) }
            switch program {
            case "SSR": item.ssr = optIn
            case "SSD": item.ssd = optIn
            default: item.tradeIn = optIn
            }
            item.updatedAt = nowText
            try WarrantyLifeStore.saveItem(c, project, item)
            try c.run("INSERT INTO wl_opt_ins (project_id, item_id, program, opted_in, sensor_event_id, created_at) VALUES (?, ?, ?, ?, NULL, ?)",
                      project, item.id, program, optIn, nowText)
            return try programsPayload(c, project, item: item, now: now)
        })
    }
}
