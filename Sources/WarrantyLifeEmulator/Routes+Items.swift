import EmulatorCore
import Foundation
import HTTPServer
import Storage // SHA256Digest

// Item and device routes (§5.5), sensor events, FCM tokens, Smart Saver (§5.10), uploads (§5.8)
// and insights (D-WL-19).
extension WarrantyLifeRoutes {
    /// `GET /devices?deviceId=` (D-WL-16): public coverage, no personal data.
    func publicDevice(_ request: Request, _ context: RequestContext<KeyCaller>) async throws -> Response {
        let deviceID = try WireQuery(request).requiredString("deviceId")
        let coverage = try await context.read { service in try service.device(deviceID: deviceID) }
        let shown = coverage.active ?? coverage.all.last
        func offered(_ key: String) -> JSONValue { .bool(shown?.document[key]?.boolValue ?? false) }
        return ok([
            "deviceId": .string(deviceID), "itemId": .string(coverage.item.id), "hasActiveCoverage": .bool(coverage.active != nil),
            "warrantyId": shown.map { .string($0.id) } ?? .null, "warrantyStatus": shown.map { .string($0.status(now: context.now)) } ?? .null,
            "ssrOffered": offered("ssrOffered"), "ssdOffered": offered("ssdOffered"), "tipOffered": offered("tipOffered"),
            "ssr": .bool(coverage.item.ssr), "ssd": .bool(coverage.item.ssd), "tradeIn": .bool(coverage.item.tradeIn),
        ])
    }

    /// `GET /items?deviceId=`: 200 Item, 404 none yet, 401 (1302) another account's.
    func itemByDevice(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let deviceID = try WireQuery(request).requiredString("deviceId")
        let user = context.caller.user
        let coverage = try await context.read { service in try service.item(deviceID: deviceID, user: user) }
        return ok(coverage.wire)
    }

    /// `POST /items`: 201 new, 200 when the caller already owns the device's item, 401 (1302) otherwise.
    func createItem(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let body = try WireBody.object(request)
        let deviceID = try body.requiredString("deviceId")
        let user = context.caller.user, nowText = nowText(context)
        let item = ItemRecord(
            id: newID(context), deviceID: deviceID, userID: user.id, categoryID: try body.string("categoryId"),
            manufacturerName: try body.string("manufacturerName"), model: try body.string("model"), mpn: try body.string("mpn"),
            imei: try body.string("imei"), notificationToken: try body.string("notificationToken"), ssr: false, ssd: false, tradeIn: false,
            createdAt: nowText, updatedAt: nowText)
        let result = try await context.write { service in
            var item = item
            item.id = try unusedID(item.id, in: .items, service, context)
            return try service.createItem(item, user: user)
        }
        return ok(result.coverage.wire, status: result.created ? 201 : 200)
    }

    /// `PUT /items/{itemId}`: a Sensor Event → 202 `{sensorEventId}`; a token-only update → 200 `{id}` (D-WL-17, D-WL-18).
    func sensorEvent(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let body = try WireBody.object(request)
        let eventAt = try body.string("eventAt")
        if let eventAt, !WarrantyLifeService.isLocalTimestamp(eventAt) {
            throw WarrantyLifeError.validation("Field `eventAt` must be `yyyy-MM-dd HH:mm:ss.SSS` in device local time.")
        }
        let type = try body.int("sensorEventType")
        let token = try body.string("notificationToken")
        // Known fields must have their 2022 types; unknown ones (Bluetooth/Wi-Fi scans…) are kept as sent.
        _ = try body.int("volumeSetting")
        for name in ["latitude", "longitude"] { _ = try body.double(name) }
        for name in ["sensorTestId", "dropJsVersion", "deviceId", "platformVersion", "appVersion"] { _ = try body.string(name) }
        let event = SensorEventInput(eventAt: eventAt, type: type, notificationToken: token, flags: WarrantyLifeService.smartSaverFlags(in: body.json), body: body.json)
        if let eventAt, let type {
            context.core.note(WarrantyLifeChecks.eventAtFact, eventAt)
            context.core.note(WarrantyLifeChecks.eventTypeFact, String(type))
        }
        let itemID = context.parameter("itemId")
        let user = context.caller.user, eventID = newID(context), dedupe = settings.sensorEventDedupe
        let answeredID = try await context.write { service in
            try service.recordSensorEvent(event, itemID: itemID, user: user, eventID: unusedID(eventID, in: .sensorEvents, service, context), dedupe: dedupe)
        }
        if event.isTokenUpdate { return ok(["id": .string(itemID)]) }
        return ok(["sensorEventId": .string(answeredID)], status: 202)
    }

    /// `PUT /items/{itemId}/notification-token` (D-WL-18).
    func notificationToken(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let body = try WireBody.object(request)
        let token = try body.requiredString("notificationToken")
        _ = try body.string("deviceId"); _ = try body.string("platform")
        let itemID = context.parameter("itemId"), user = context.caller.user
        try await context.write { service in try service.updateNotificationToken(token, itemID: itemID, user: user) }
        return ok(["itemId": .string(itemID), "notificationToken": .string(token), "updatedAt": .string(nowText(context))])
    }

    /// Optional `GET /items/{itemId}/smart-saver` (D-WL-23).
    func smartSaver(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let itemID = context.parameter("itemId"), user = context.caller.user
        let programs = try await context.read { service in try service.smartSaver(itemID: itemID, user: user) }
        return ok(SmartSaverStatus.wire(programs))
    }

    /// Optional `POST /items/{itemId}/smart-saver/opt-ins` `{program, optIn}`: 409 (1601) when not offered.
    func optIn(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let body = try WireBody.object(request)
        guard let program = SmartSaverProgram(rawValue: try body.requiredString("program")) else {
            throw WarrantyLifeError.unknownProgram
        }
        guard let optIn = try body.bool("optIn") else { throw WarrantyLifeError.missingField("optIn") }
        let itemID = context.parameter("itemId"), user = context.caller.user
        let programs = try await context.write { service in try service.optIn(program, optIn, itemID: itemID, user: user) }
        return ok(SmartSaverStatus.wire(programs))
    }

    // MARK: Uploads (D-WL-21)

    /// `POST …/events/{sensorEventId}/readings`: a gzip JSON array → 201 `{received}`.
    func readings(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let limit = settings.maxUploadBytes
        var body = request.body
        let wasGzip = request.headers["content-encoding"]?.lowercased().contains("gzip") ?? false
        // The 2022 client strips Content-Type; a proxy may strip Content-Encoding too: trust the magic bytes.
        if body.count >= 2, body[body.startIndex] == 0x1f, body[body.startIndex + 1] == 0x8b {
            do {
                body = try Gzip.decompress(body, limit: limit)
            } catch .tooLarge {
                throw WarrantyLifeError.payloadTooLarge(limit: limit)
            } catch {
                throw WarrantyLifeError.readingsNotGzip
            }
        }
        guard body.count <= limit else { throw WarrantyLifeError.payloadTooLarge(limit: limit) }
        guard !body.isEmpty else { throw WarrantyLifeError.validation("The readings body is empty; a JSON array was expected.") }
        // One pass over the bytes for the common batch; the reference parse when the scanner is not sure.
        let count = try ReadingsScanner.count(body) ?? WarrantyLifeService.validateReadings(WireBody.json(body, what: "The readings body"))
        let itemID = context.parameter("itemId"), eventID = context.parameter("sensorEventId"), user = context.caller.user
        let inflated = body != request.body
        // The stream that inflates to `body`: inflated here (magic bytes), or by the HTTP layer
        // (Content-Encoding; with both, its stream would inflate to the inner one).
        let stream = inflated ? request.body : request.gzipStream
        let stored: StoredReadings = stream.map { .gzip($0) } ?? .json(String(decoding: body, as: UTF8.self))
        try await context.write { service in
            try service.storeReadings(itemID: itemID, eventID: eventID, user: user, count: count, gzipped: wasGzip || inflated, readings: stored)
        }
        return ok(["received": .int(Int64(count))], status: 201)
    }

    /// `POST …/clips/sound/{sensorEventId}?createdAt=`: raw bytes → 201 `{bytes}`.
    func audioClip(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let limit = settings.maxUploadBytes
        let body = request.body
        guard !body.isEmpty else { throw WarrantyLifeError.emptyAudioClip }
        guard body.count <= limit else { throw WarrantyLifeError.payloadTooLarge(limit: limit) }
        var createdAt = WireQuery(request).string("createdAt")
        var eventID = context.parameter("sensorEventId")
        // The 2022 client percent-encodes its whole URL; should the `?` arrive encoded, the query sits in the last segment.
        if let question = eventID.firstIndex(of: "?") {
            let query = URLQuery.parse(String(eventID[eventID.index(after: question)...]))
            createdAt = createdAt ?? query.first { $0.name == "createdAt" }?.value
            eventID = String(eventID[..<question])
        }
        if let createdAt, !WarrantyLifeService.isLocalTimestamp(createdAt) {
            throw WarrantyLifeError.validation("Query parameter `createdAt` must be `yyyy-MM-dd HH:mm:ss.SSS`.")
        }
        let itemID = context.parameter("itemId"), user = context.caller.user
        let sensorEventID = eventID, recordedAt = createdAt, contentType = request.headers["content-type"]
        try await context.write { service in
            try service.storeAudio(itemID: itemID, eventID: sensorEventID, user: user, recordedAt: recordedAt, contentType: contentType, data: body)
        }
        return ok(["bytes": .int(Int64(body.count))], status: 201)
    }

    /// `POST /items/{itemId}/diagnostics`: 201 `{id}`; a repeat of the same sorted-JSON hash is kept and marked.
    func diagnostic(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let body = try WireBody.object(request)
        for name in [
            "imei", "brand", "resultCode", "sim", "appVersion", "osVersion", "model", "mpn", "screenResolution", "sensorTestId",
            "sensorTestSensorEventId", "caseApplied", "caseBrand",
        ] { _ = try body.string(name) }
        for name in ["storage", "storageUsed", "ram"] { _ = try body.double(name) }
        for name in ["caseBundlePurchased", "bundledCaseApplied"] { _ = try body.bool(name) }
        let itemID = context.parameter("itemId"), user = context.caller.user
        let id = newID(context), dedupe = settings.uploadDedupe, document = body.json
        let answered = try await context.write { service in
            try service.storeDiagnostic(document, itemID: itemID, user: user, id: unusedID(id, in: .diagnostics, service, context), dedupe: dedupe)
        }
        context.core.note(WarrantyLifeChecks.fingerprintFact, answered.hash)
        return ok(["id": .string(answered.id)], status: 201)
    }

    /// `POST …/diagnostics/{diagnosticId}/images/{kind}`: multipart `image` → 201 `{kind, bytes, contentType, sha256}`.
    func image(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let kind = context.parameter("kind")
        guard !kind.isEmpty, kind.count <= 40, kind.unicodeScalars.allSatisfy({ ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "-" || $0 == "_" }) else {
            throw WarrantyLifeError.validation("Image kind `\(kind)` must be a slug such as reference, test, front, back, open-face or receipt.")
        }
        let boundary: String?
        do { boundary = try MultipartFormData.boundary(fromContentType: request.headers["content-type"]) } catch { boundary = nil }
        guard let boundary else { throw WarrantyLifeError.validation("The image must be sent as multipart/form-data with a boundary.") }
        let parts: [MultipartPart]
        do { parts = try MultipartFormData.parse(request.body, boundary: boundary) } catch {
            throw WarrantyLifeError.validation("The multipart body is malformed (\(error)).")
        }
        guard let part = parts.first(where: { $0.name == "image" }) else { throw WarrantyLifeError.noImagePart }
        guard !part.body.isEmpty else { throw WarrantyLifeError.validation("The `image` part is empty.") }
        let limit = settings.maxUploadBytes
        guard part.body.count <= limit else { throw WarrantyLifeError.payloadTooLarge(limit: limit) }
        let upload = ImageUpload(filename: part.filename, contentType: part.effectiveContentType, data: part.body, sha256: SHA256Digest.hex(part.body))
        let itemID = context.parameter("itemId"), diagnosticID = context.parameter("diagnosticId"), user = context.caller.user
        try await context.write { service in
            try service.storeImage(upload, kind: kind, itemID: itemID, diagnosticID: diagnosticID, user: user)
        }
        context.core.note(WarrantyLifeChecks.fingerprintFact, upload.sha256)
        return ok(
            ["kind": .string(kind), "bytes": .int(Int64(upload.data.count)), "contentType": .string(upload.contentType), "sha256": .string(upload.sha256)],
            status: 201)
    }

    // MARK: Insights

    /// The item's seeded `InsightData`, or `{data: null}`.
    func insight(_ context: RequestContext<UserCaller>, deviceID: String?, itemID: String?) async throws -> Response {
        let user = context.caller.user
        let insight = try await context.read { service in try service.insight(deviceID: deviceID, itemID: itemID, user: user) }
        return ok(insight.map(InsightModel.normalized) ?? .null)
    }
}
