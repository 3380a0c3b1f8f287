import EmulatorCore
import Foundation
import Storage // SHA256Digest

/// A sensor event (or token-only item update) as `PUT /items/{itemId}` sent it.
struct SensorEventInput: Sendable {
    var eventAt: String?
    var type: Int?
    var notificationToken: String?
    var flags: [(program: SmartSaverProgram, optedIn: Bool)]
    var body: JSONValue

    /// Only a token and nothing of an event: answered 200 `{id}` and stored as no event (D-WL-18).
    var isTokenUpdate: Bool { eventAt == nil && type == nil && notificationToken != nil && flags.isEmpty }
}

// Items, sensor events, FCM tokens, Smart Saver, uploads, insights and content (§5.5–§5.12).
extension WarrantyLifeService {
    /// The device's item and coverage for the public lookup (D-WL-16).
    func device(deviceID: String) throws -> ItemCoverage {
        guard let item = try store.item(project, deviceID: deviceID) else { throw WarrantyLifeError.itemNotFound }
        return try coverage(of: item)
    }

    /// The caller's item of this device: 404 none yet, 401 (1302) another account's.
    func item(deviceID: String, user: UserRecord) throws -> ItemCoverage {
        guard let item = try store.item(project, deviceID: deviceID) else { throw WarrantyLifeError.itemNotFound }
        try checkOwner(item: item, user: user)
        return try coverage(of: item)
    }

    /// Creates `item` unless the device has one: then it is answered when the caller owns it.
    func createItem(_ item: ItemRecord, user: UserRecord) throws -> (created: Bool, coverage: ItemCoverage) {
        if let existing = try store.item(project, deviceID: item.deviceID) {
            try checkOwner(item: existing, user: user)
            return (false, try coverage(of: existing))
        }
        try store.saveItem(project, item)
        if let token = item.notificationToken { try store.recordToken(project, itemID: item.id, token: token, source: "item", now: item.createdAt) }
        return (true, try coverage(of: item))
    }

    /// Stores a sensor event (or the token of a token-only update) and applies its Smart Saver
    /// flags; returns the id to answer: a repeat gets the first event's id when `dedupe` is on.
    ///
    /// The Sensor Event route never refuses an opt-in: the real service stores every event (202),
    /// and the SDK sends opt-ins there without knowing what the plan offers. An opt-in the active
    /// warranty does not offer, or with no active warranty, is recorded with the reason it took
    /// no effect (the control plane's `opt-ins` list shows it) and leaves the item's flag alone.
    func recordSensorEvent(_ event: SensorEventInput, itemID: String, user: UserRecord, eventID: String, dedupe: Bool) throws -> String {
        var item = try ownedItem(id: itemID, user: user)
        if let token = event.notificationToken {
            try store.recordToken(project, itemID: item.id, token: token, source: event.isTokenUpdate ? "itemUpdate" : "sensorEvent", now: nowText)
        }
        if event.isTokenUpdate { return eventID }
        // A repeat is always stored and marked; only with `dedupe` is it answered with the first id (same eventAt → same id).
        let duplicateOf = try store.insertSensorEvent(project, id: eventID, itemID: item.id, eventAt: event.eventAt, type: event.type, body: event.body, now: nowText)
        let answered = dedupe ? duplicateOf ?? eventID : eventID
        guard !event.flags.isEmpty else { return answered }
        // Re-read: recording the token above changed the stored item.
        item = try store.item(project, id: item.id) ?? item
        let active = try coverage(of: item).active
        for (program, optedIn) in event.flags {
            let reason = optedIn ? Self.notEffectiveReason(program, active) : nil
            if reason == nil { item.setOptedIn(program, optedIn) }
            try store.recordOptIn(
                project, itemID: item.id, program: program, optedIn: optedIn, sensorEventID: eventID, now: nowText, notEffectiveReason: reason)
        }
        item.updatedAt = nowText
        try store.saveItem(project, item)
        return answered
    }

    /// Records the item's FCM token (D-WL-18).
    func updateNotificationToken(_ token: String, itemID: String, user: UserRecord) throws {
        let item = try ownedItem(id: itemID, user: user)
        try store.recordToken(project, itemID: item.id, token: token, source: "notificationToken", now: nowText)
    }

    /// The item's Smart Saver programs: eligible when the active warranty offers them.
    func smartSaver(itemID: String, user: UserRecord) throws -> [SmartSaverStatus] {
        try smartSaver(of: try ownedItem(id: itemID, user: user))
    }

    private func smartSaver(of item: ItemRecord) throws -> [SmartSaverStatus] {
        let active = try coverage(of: item).active
        return try SmartSaverProgram.allCases.map { program in
            let optedIn = item.isOptedIn(program)
            return SmartSaverStatus(
                program: program, eligible: Self.offers(program, active), optedIn: optedIn,
                optedInAt: optedIn ? try store.latestOptIn(project, itemID: item.id, program: program) : nil)
        }
    }

    /// Why an opt-in into `program` takes no effect: `no_active_warranty`, `not_offered`, or nil when it does.
    static func notEffectiveReason(_ program: SmartSaverProgram, _ active: WarrantyRecord?) -> String? {
        guard let active else { return "no_active_warranty" }
        return offers(program, active) ? nil : "not_offered"
    }

    /// Whether the active warranty (none: nothing is offered) offers `program`.
    static func offers(_ program: SmartSaverProgram, _ active: WarrantyRecord?) -> Bool {
        active?.document[program.offeredKey]?.boolValue ?? false
    }

    /// Opts in or out of `program`: 409 (1601) when opting into a program the warranty does not offer.
    func optIn(_ program: SmartSaverProgram, _ optIn: Bool, itemID: String, user: UserRecord) throws -> [SmartSaverStatus] {
        var item = try ownedItem(id: itemID, user: user)
        let active = try coverage(of: item).active
        if optIn, !Self.offers(program, active) { throw WarrantyLifeError.notEligible(program.rawValue) }
        item.setOptedIn(program, optIn)
        item.updatedAt = nowText
        try store.saveItem(project, item)
        try store.recordOptIn(project, itemID: item.id, program: program, optedIn: optIn, sensorEventID: nil, now: nowText)
        return try smartSaver(of: item)
    }

    // MARK: Uploads (D-WL-21): each writes only after all validation, so a rejected upload leaves no row.

    /// The caller's item and its sensor event, or 404 (1701).
    private func ownedSensorEvent(itemID: String, eventID: String, user: UserRecord) throws -> ItemRecord {
        let item = try ownedItem(id: itemID, user: user)
        guard let event = try store.sensorEvent(project, id: eventID), event.itemID == item.id else { throw WarrantyLifeError.sensorEventNotFound }
        return item
    }

    /// Stores a validated readings batch of a sensor event.
    func storeReadings(itemID: String, eventID: String, user: UserRecord, count: Int, gzipped: Bool, readings: StoredReadings) throws {
        let item = try ownedSensorEvent(itemID: itemID, eventID: eventID, user: user)
        try store.insertReadings(project, itemID: item.id, sensorEventID: eventID, count: count, gzipped: gzipped, readings: readings, now: nowText)
    }

    /// Stores a sensor event's audio clip.
    func storeAudio(itemID: String, eventID: String, user: UserRecord, recordedAt: String?, contentType: String?, data: Data) throws {
        let item = try ownedSensorEvent(itemID: itemID, eventID: eventID, user: user)
        try store.insertAudioClip(
            project, itemID: item.id, sensorEventID: eventID, recordedAt: recordedAt, contentType: contentType, data: data,
            sha256: SHA256Digest.hex(data), now: nowText)
    }

    /// Stores a diagnostic report; a repeat of the same fingerprint is kept, marked, and (with
    /// `dedupe`) answered with the first report's id. Returns that id and the fingerprint.
    func storeDiagnostic(_ body: JSONValue, itemID: String, user: UserRecord, id: String, dedupe: Bool) throws -> (id: String, hash: String) {
        let item = try ownedItem(id: itemID, user: user)
        let hash = Self.sortedHash(body)
        let same = try store.firstDiagnostic(project, itemID: item.id, requestHash: hash)
        try store.insertDiagnostic(project, id: id, itemID: item.id, body: body, requestHash: hash, sameHashAs: same, now: nowText)
        return (dedupe ? same ?? id : id, hash)
    }

    /// Stores an image of a diagnostic report, marked `duplicate` when the report has these bytes already.
    func storeImage(_ image: ImageUpload, kind: String, itemID: String, diagnosticID: String, user: UserRecord) throws {
        let item = try ownedItem(id: itemID, user: user)
        guard let diagnostic = try store.diagnostic(project, id: diagnosticID), diagnostic.itemID == item.id else { throw WarrantyLifeError.diagnosticNotFound }
        let seen = try store.imageCount(project, diagnosticID: diagnosticID, sha256: image.sha256)
        try store.insertImage(project, itemID: item.id, diagnosticID: diagnosticID, kind: kind, image: image, duplicate: seen > 0, now: nowText)
    }

    // MARK: Insights and content

    /// The seeded `InsightData` of the caller's item (by device or item id), or nil (D-WL-19).
    func insight(deviceID: String?, itemID: String?, user: UserRecord) throws -> JSONValue? {
        let found = try deviceID.map { try store.item(project, deviceID: $0) } ?? itemID.map { try store.item(project, id: $0) } ?? nil
        guard let item = found else { throw WarrantyLifeError.itemNotFound }
        try checkOwner(item: item, user: user)
        return try store.insight(project, itemID: item.id)
    }

    /// Content `name` (seeded or default).
    func content(_ name: String) throws -> JSONValue { try store.content(project, name) }

    /// Stores a survey answer or feedback.
    func submit(kind: String, body: JSONValue, id: String, userID: String?) throws {
        try store.insertSubmission(project, id: id, kind: kind, userID: userID, body: body, now: nowText)
    }

    /// The questions of survey `version` (default: the highest), or 404.
    func survey(version: Int?) throws -> JSONValue {
        let surveys = try store.content(project, "surveys")
        let keys = (surveys.objectValue ?? [:]).keys.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
        guard let key = version.map(String.init) ?? keys.last, let survey = surveys[key] else {
            throw WarrantyLifeError.notFound("Survey version \(version.map(String.init) ?? "")")
        }
        return survey
    }

    /// JSON offers, filtered by `country`/`state` when an offer names them.
    func offers(country: String?, state: String?) throws -> [JSONValue] {
        let offers = try store.content(project, "offers").arrayValue ?? []
        func matches(_ offer: JSONValue, _ key: String, _ wanted: String?) -> Bool {
            guard let wanted, let value = offer[key]?.stringValue else { return true }
            return value.equalsIgnoringCase(wanted)
        }
        return offers.filter { matches($0, "country", country) && matches($0, "state", state) }
    }

    /// The model's diagnostic requirements, else the `*` default, else 404.
    func diagnosticRequirements(model: String) throws -> JSONValue {
        let config = try store.content(project, "diagnosticConfig")
        guard let requirements = config[model] ?? config["*"] else { throw WarrantyLifeError.notFound("Diagnostic configuration for `\(model)`") }
        return requirements
    }
}
