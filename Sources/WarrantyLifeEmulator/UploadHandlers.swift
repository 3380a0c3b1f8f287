import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// Registration uploads (§5.8, D-WL-21): readings, audio, diagnostics, images. Each writes in one
/// transaction after all validation, so a rejected upload leaves no row behind.
enum UploadHandlers {
    /// `POST …/events/{sensorEventId}/readings`: a gzip JSON array → 201 `{received}`.
    static func readings(_ call: WireCall) async throws -> Response {
        let limit = call.settings.maxUploadBytes
        var body = call.request.body
        let wasGzip = call.request.headers["content-encoding"]?.lowercased().contains("gzip") ?? false
        // The 2022 client strips Content-Type; a proxy may strip Content-Encoding too: trust the magic bytes.
        if body.count >= 2, body[body.startIndex] == 0x1f, body[body.startIndex + 1] == 0x8b {
            do {
                body = try Gzip.decompress(body, limit: limit)
            } catch .tooLarge {
                throw WarrantyLifeError.payloadTooLarge(limit: limit)
            } catch {
                throw WarrantyLifeError.validation("The readings body is not a valid gzip stream.")
            }
        }
        guard body.count <= limit else { throw WarrantyLifeError.payloadTooLarge(limit: limit) }
        guard !body.isEmpty else { throw WarrantyLifeError.validation("The readings body is empty; a JSON array was expected.") }
        guard let value = try? JSONValue.parse(body) else {
            throw WarrantyLifeError.validation("The readings body is not valid JSON.")
        }
        let count = try WarrantyLifeRules.validateReadings(value)
        let itemID = call.context.parameter("itemId"), eventID = call.context.parameter("sensorEventId")
        let user = try call.caller, project = call.project, nowText = call.nowText
        let text = String(decoding: body, as: UTF8.self)
        let gzipped = wasGzip || body != call.request.body
        try await call.db.write { c in
            let item = try ItemHandlers.ownedItem(c, project, id: itemID, user: user)
            guard let event = try WarrantyLifeStore.sensorEvent(c, project, id: eventID), event.string("item_id") == item.id else {
                throw WarrantyLifeError.sensorEventNotFound
            }
            try c.run("INSERT INTO wl_readings (project_id, item_id, sensor_event_id, count, gzipped, readings, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                      project, item.id, eventID, count, gzipped, text, nowText)
        }
        return call.ok(["received": .int(Int64(count))], status: 201)
    }

    /// `POST …/clips/sound/{sensorEventId}?createdAt=`: raw bytes → 201 `{bytes}`.
    static func audio(_ call: WireCall) async throws -> Response {
        let limit = call.settings.maxUploadBytes
        let body = call.request.body
        guard !body.isEmpty else { throw WarrantyLifeError.validation("The audio clip is empty.") }
        guard body.count <= limit else { throw WarrantyLifeError.payloadTooLarge(limit: limit) }
        var createdAt = call.query.string("createdAt")
        var eventID = call.context.parameter("sensorEventId")
        // The 2022 client percent-encodes its whole URL; should the `?` arrive encoded, the query sits in the last segment.
        if let question = eventID.firstIndex(of: "?") {
            let query = URLQuery.parse(String(eventID[eventID.index(after: question)...]))
            createdAt = createdAt ?? query.first { $0.name == "createdAt" }?.value
            eventID = String(eventID[..<question])
        }
        if let createdAt, !WarrantyLifeRules.isLocalTimestamp(createdAt) {
            throw WarrantyLifeError.validation("Query parameter `createdAt` must be `yyyy-MM-dd HH:mm:ss.SSS`.")
        }
        let itemID = call.context.parameter("itemId")
        let user = try call.caller, project = call.project, nowText = call.nowText, sensorEventID = eventID, recordedAt = createdAt
        let contentType = call.request.headers["content-type"], hash = SHA256Digest.hex(body)
        try await call.db.write { c in
            let item = try ItemHandlers.ownedItem(c, project, id: itemID, user: user)
            guard let event = try WarrantyLifeStore.sensorEvent(c, project, id: sensorEventID), event.string("item_id") == item.id else {
                throw WarrantyLifeError.sensorEventNotFound
            }
            try c.run("""
                INSERT INTO wl_audio_clips (project_id, item_id, sensor_event_id, recorded_at, content_type, bytes, sha256, data, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, project, item.id, sensorEventID, recordedAt, contentType, body.count, hash, body, nowText)
        }
        return call.ok(["bytes": .int(Int64(body.count))], status: 201)
    }

    /// `POST /items/{itemId}/diagnostics`: 201 `{id}`; a repeat of the same sorted-JSON hash is kept and marked.
    static func diagnostic(_ call: WireCall) async throws -> Response {
        let body = try WireBody.object(call.request)
        for name in ["imei", "brand", "resultCode", "sim", "appVersion", "osVersion", "model", "mpn", "screenResolution", "sensorTestId",
                     "sensorTestSensorEventId", "caseApplied", "caseBrand"] { _ = try body.string(name) }
        for name in ["storage", "storageUsed", "ram"] { _ = try body.double(name) }
        for name in ["caseBundlePurchased", "bundledCaseApplied"] { _ = try body.bool(name) }
        let hash = WarrantyLifeRules.sortedHash(body.json)
        let itemID = call.context.parameter("itemId")
        let user = try call.caller, project = call.project, nowText = call.nowText, id = call.newID(), dedupe = call.settings.uploadDedupe
        let answered = try await call.db.write { c -> String in
            let item = try ItemHandlers.ownedItem(c, project, id: itemID, user: user)
            let same = try c.scalar("SELECT id FROM wl_diagnostics WHERE project_id = ? AND item_id = ? AND request_hash = ? AND same_hash_as IS NULL ORDER BY created_at, rowid LIMIT 1",
                                    project, item.id, hash).string
            try c.run("INSERT INTO wl_diagnostics (project_id, id, item_id, body, request_hash, same_hash_as, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                      project, id, item.id, WarrantyLifeStore.text(body.json), hash, same, nowText)
            // Same fingerprint → same id (the idempotency); the repeat stays visible as `sameHashAs`.
            return dedupe ? same ?? id : id
        }
        return call.ok(["id": .string(answered)], status: 201)
    }

    /// `POST …/diagnostics/{diagnosticId}/images/{kind}`: multipart `image` → 201 `{kind, bytes, contentType, sha256}`.
    static func image(_ call: WireCall) async throws -> Response {
        let kind = call.context.parameter("kind")
        guard !kind.isEmpty, kind.count <= 40, kind.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }) else {
            throw WarrantyLifeError.validation("Image kind `\(kind)` must be a slug such as reference, test, front, back, open-face or receipt.")
        }
        guard let boundary = MultipartParser.boundary(fromContentType: call.request.headers["content-type"]) else {
            throw WarrantyLifeError.validation("The image must be sent as multipart/form-data with a boundary.")
        }
        let parts: [MultipartPart]
        do { parts = try MultipartParser.parse(call.request.body, boundary: boundary) } catch {
            throw WarrantyLifeError.validation("The multipart body is malformed (\(error)).")
        }
        guard let part = parts.first(where: { $0.name == "image" }) else { throw WarrantyLifeError.validation("The multipart body has no `image` part.") }
        guard !part.body.isEmpty else { throw WarrantyLifeError.validation("The `image` part is empty.") }
        let limit = call.settings.maxUploadBytes
        guard part.body.count <= limit else { throw WarrantyLifeError.payloadTooLarge(limit: limit) }
        let itemID = call.context.parameter("itemId"), diagnosticID = call.context.parameter("diagnosticId")
        let user = try call.caller, project = call.project, nowText = call.nowText, hash = SHA256Digest.hex(part.body)
        try await call.db.write { c in
            let item = try ItemHandlers.ownedItem(c, project, id: itemID, user: user)
            guard let diagnostic = try WarrantyLifeStore.diagnostic(c, project, id: diagnosticID), diagnostic.string("item_id") == item.id else {
                throw WarrantyLifeError.diagnosticNotFound
            }
            let seen = try c.scalar("SELECT COUNT(*) FROM wl_images WHERE project_id = ? AND diagnostic_id = ? AND sha256 = ?", project, diagnosticID, hash).int ?? 0
            try c.run("""
                INSERT INTO wl_images (project_id, item_id, diagnostic_id, kind, filename, content_type, bytes, sha256, duplicate, data, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, project, item.id, diagnosticID, kind, part.filename, part.contentType, part.body.count, hash, seen > 0, part.body, nowText)
        }
        return call.ok(["kind": .string(kind), "bytes": .int(Int64(part.body.count)), "contentType": .string(part.contentType), "sha256": .string(hash)], status: 201)
    }
}

/// Insights (D-WL-19): the item's seeded `InsightData`, or `{data: null}`.
enum InsightHandlers {
    static func byQuery(_ call: WireCall) async throws -> Response {
        try await answer(call, deviceID: try call.query.requiredString("deviceId"), itemID: nil)
    }

    static func byItem(_ call: WireCall) async throws -> Response {
        try await answer(call, deviceID: nil, itemID: call.context.parameter("itemId"))
    }

    static func byDevicePath(_ call: WireCall) async throws -> Response {
        try await answer(call, deviceID: call.context.parameter("deviceId"), itemID: nil)
    }

    static func answer(_ call: WireCall, deviceID: String?, itemID: String?) async throws -> Response {
        let user = try call.caller, project = call.project
        let insight = try await call.db.read { c -> JSONValue? in
            let found = try deviceID.map { try WarrantyLifeStore.item(c, project, deviceID: $0) } ?? itemID.map { try WarrantyLifeStore.item(c, project, id: $0) } ?? nil
            guard let item = found else { throw WarrantyLifeError.itemNotFound }
            try ItemHandlers.checkOwner(c, project, item: item, user: user)
            return try WarrantyLifeStore.insight(c, project, itemID: item.id)
        }
        return call.ok(insight.map(WarrantyLifeRules.normalizedInsight) ?? .null)
    }
}
