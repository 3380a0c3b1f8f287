import Foundation
import Synchronization

/// The registration calls: voucher lookup, item and device, and the staged `registerDevice` upload.
extension WarrantyLifeRepository {
    /// `getVoucherByVoucherCode(voucherCode:isPlanTransfer:activeWarrantiesInCurrentDevice:)`; stores the voucher.
    @discardableResult
    public func getVoucherByVoucherCode(voucherCode: String, isPlanTransfer: Bool = false, activeWarrantiesInCurrentDevice: Int = 0) async throws(UnderstudyClientError)
        -> WarrantyLifeVoucher
    {
        let response = try await request(
            "GET", "/vouchers/\(ClientHTTP.encode(voucherCode))",
            query: [("isPlanTransfer", String(isPlanTransfer)), ("activeWarrantiesInCurrentDevice", String(activeWarrantiesInCurrentDevice)), ("deviceId", deviceID)])
        let voucher = try withRaw(try data(response, 200), as: WarrantyLifeVoucher.self)
        state.withLock { $0.voucher = voucher }
        return voucher
    }

    /// The public detail of this device's item, without a login (`getItemByDeviceIdPublic()`).
    public func getItemByDeviceIdPublic() async throws(UnderstudyClientError) -> AnyJSON {
        try data(try await request("GET", "/devices", query: [("deviceId", deviceID)]), 200)
    }

    /// `getItemByDeviceID()`; stores the item id.
    @discardableResult
    public func getItemByDeviceID() async throws(UnderstudyClientError) -> AnyJSON {
        let item = try data(try await request("GET", "/items", query: [("deviceId", deviceID)]), 200)
        state.withLock { $0.itemID = item["id"]?.string }
        return item
    }

    /// Create item (registration stage 25); 201 new or 200 already owned.
    @discardableResult
    public func createItem(model: String, mpn: String, imei: String? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        var body: [String: AnyJSON] = ["deviceId": .string(deviceID), "categoryId": "95", "manufacturerName": "Apple", "model": .string(model), "mpn": .string(mpn)]
        if let imei { body["imei"] = .string(imei) }
        let response = try await request("POST", "/items", json: .object(body))
        let item = try data(response, response.status == 200 ? 200 : 201)
        state.withLock { $0.itemID = item["id"]?.string }
        return item
    }

    /// `createSensorEvent(itemId:body:)`: 202 `{sensorEventId}`.
    public func createSensorEvent(itemId: String, body: [String: AnyJSON]) async throws(UnderstudyClientError) -> String {
        let payload = try data(try await request("PUT", "/items/\(itemId)", json: .object(body)), 202)
        guard let id = payload["sensorEventId"]?.string else { throw .decoding(type: "sensorEventId", status: 202, body: String(describing: payload), reason: "missing") }
        return id
    }

    /// Registers the item's push token (`updateFCMToken(itemId:fcmToken:)`); silent pushes then appear in the outbox.
    public func updateFCMToken(itemId: String, fcmToken: String) async throws(UnderstudyClientError) -> AnyJSON {
        try data(
            try await request("PUT", "/items/\(itemId)/notification-token", json: ["notificationToken": .string(fcmToken), "deviceId": .string(deviceID), "platform": "ios"]), 200)
    }

    /// `uploadSensorReadings(...)`: gzip JSON array, `Content-Encoding: gzip`, no `Content-Type` (as the 2022 client).
    public func uploadSensorReadings(itemId: String, sensorEventId: String, readings: [AnyJSON]) async throws(UnderstudyClientError) -> AnyJSON {
        let json: Data
        do { json = try JSONEncoder().encode(AnyJSON.array(readings)) } catch { throw .encoding(String(describing: error)) }
        return try data(try await request("POST", "/items/\(itemId)/events/\(sensorEventId)/readings", body: GzipStored.wrap(json), headers: ["Content-Encoding": "gzip"]), 201)
    }

    /// Sensor audio upload (raw bytes).
    public func uploadSensorAudio(itemId: String, sensorEventId: String, createdAt: String, audio: Data) async throws(UnderstudyClientError) -> AnyJSON {
        try data(
            try await request(
                "POST", "/items/\(itemId)/clips/sound/\(sensorEventId)", query: [("createdAt", createdAt)], body: audio,
                headers: ["Content-Type": "audio/m4a"]), 201)
    }

    /// `createItemDiagnosticReport(...)`: 201 `{id}`.
    public func createItemDiagnosticReport(itemId: String, body: [String: AnyJSON]) async throws(UnderstudyClientError) -> String {
        let payload = try data(try await request("POST", "/items/\(itemId)/diagnostics", json: .object(body)), 201)
        return payload["id"]?.string ?? ""
    }

    /// `uploadImageForItem`/`uploadImageForReference`/receipt: multipart part `image`, filename of 9 digits, `image/jpg`.
    public func uploadImage(itemId: String, diagnosticId: String, kind: String, image: Data) async throws(UnderstudyClientError) -> AnyJSON {
        let boundary = "alamofire.boundary.\(UUID().uuidString.prefix(16).lowercased())"
        var body = Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"\(Int.random(in: 100_000_000...999_999_999))\"\r\nContent-Type: image/jpg\r\n\r\n".utf8)
        body.append(image)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return try data(
            try await request(
                "POST", "/items/\(itemId)/diagnostics/\(diagnosticId)/images/\(kind)", body: body,
                headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"]), 201)
    }

    // MARK: registerDevice

    /// `registerDevice(stateHandler:)`: item → sensor event → readings + audio → diagnostics → images, reusing
    /// stages that already succeeded (same `eventAt`, same diagnostic hash, same image content + diagnostic).
    /// Readings and images retry transient failures (-1, 408, 429, 500, 502, 503, 504) up to 4 attempts.
    public func registerDevice(_ data: WarrantyLifeRegistrationData) async -> [WarrantyLifeRegistrationState] {
        var states: [WarrantyLifeRegistrationState] = [.submitted]
        guard data.imei?.isEmpty == false else { return states + [.validationError("missingIMEI")] }
        guard !data.readings.isEmpty else { return states + [.validationError("missingSensorTestData")] }
        if state.withLock({ $0.voucher?.receiptRequired ?? false }), !data.images.contains(where: { $0.kind == "receipt" }) {
            return states + [.validationError("missingReceiptImage")]
        }
        do {
            var itemID = state.withLock { $0.itemID }
            if itemID == nil {
                do { try await getItemByDeviceID() } catch .unexpectedStatus(404, _) { try await createItem(model: data.model, mpn: data.mpn, imei: data.imei) }
                itemID = state.withLock { $0.itemID }
            }
            guard let itemID else { return states + [.uploadError(message: "No item", code: -1)] }
            states.append(.progress(25))
            var eventID = state.withLock { $0.eventAt == data.eventAt ? $0.sensorEventID : nil }
            if eventID == nil {
                let id = try await createSensorEvent(
                    itemId: itemID,
                    body: [
                        "eventAt": .string(data.eventAt), "sensorEventType": 1111, "volumeSetting": 50,
                        "sensorTestId": "3", "deviceId": .string(deviceID), "dropJsVersion": "2.0.22",
                    ])
                state.withLock {
                    $0.eventAt = data.eventAt; $0.sensorEventID = id; $0.readingsUploaded = false; $0.audioUploaded = false
                }
                eventID = id
            }
            guard let eventID else { return states }
            states.append(.progress(50))
            if !state.withLock({ $0.readingsUploaded }) {
                _ = try await retrying { () async throws(UnderstudyClientError) in
                    try await self.uploadSensorReadings(itemId: itemID, sensorEventId: eventID, readings: data.readings)
                }
                state.withLock { $0.readingsUploaded = true }
            }
            if let audio = data.audio, !state.withLock({ $0.audioUploaded }) {
                _ = try await uploadSensorAudio(itemId: itemID, sensorEventId: eventID, createdAt: data.eventAt, audio: audio)
                state.withLock { $0.audioUploaded = true }
            }
            states.append(.progress(75))
            var report = data.diagnostic
            if let imei = data.imei { report["imei"] = .string(imei) }
            report["model"] = .string(data.model); report["mpn"] = .string(data.mpn); report["sensorTestSensorEventId"] = .string(eventID)
            // The SDK compares SHA-256 digests of the sorted JSON; comparing the sorted bytes themselves is the same test.
            let hash = try Self.sortedJSON(.object(report))
            var diagnosticID = state.withLock { $0.diagnosticHash == hash ? $0.diagnosticID : nil }
            if diagnosticID == nil {
                let id = try await createItemDiagnosticReport(itemId: itemID, body: report)
                state.withLock {
                    $0.diagnosticHash = hash; $0.diagnosticID = id
                }
                diagnosticID = id
            }
            guard let diagnosticID else { return states }
            for image in data.images {
                // Content and diagnostic id together, as the SDK's SHA-256 fingerprint covers both.
                let fingerprint = Data(diagnosticID.utf8) + Data([0]) + image.data
                if state.withLock({ $0.uploadedImages[image.kind] == fingerprint }) { continue }
                _ = try await retrying { () async throws(UnderstudyClientError) in
                    try await self.uploadImage(itemId: itemID, diagnosticId: diagnosticID, kind: image.kind, image: image.data)
                }
                state.withLock { $0.uploadedImages[image.kind] = fingerprint }
            }
            states.append(.progress(100))
            states.append(.success)
        } catch {
            let api = WarrantyLifeAPIError(error)
            states.append(.uploadError(message: api?.errorMessage ?? error.description, code: api?.errorCode ?? -1))
        }
        return states
    }

    /// `value` as JSON with sorted keys, the form the SDK fingerprints.
    static func sortedJSON(_ value: AnyJSON) throws(UnderstudyClientError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do { return try encoder.encode(value) } catch { throw .encoding(String(describing: error)) }
    }

    static let retryable: Set<Int> = [0, 408, 429, 500, 502, 503, 504]

    func retrying<T: Sendable>(_ body: @Sendable () async throws(UnderstudyClientError) -> T) async throws(UnderstudyClientError) -> T {
        var attempt = 0
        while true {
            do { return try await body() } catch {
                let status: Int
                switch error {
                case .unexpectedStatus(let code, _): status = code
                case .transport: status = 0
                default: throw error
                }
                guard Self.retryable.contains(status), attempt < 3 else { throw error }
                let delay = attempt < retryDelays.count ? retryDelays[attempt] : 0
                if delay > 0 {
                    let failure = error
                    // Cancelled while backing off, or a wait that failed: give up with the failure at hand rather than retry at once.
                    do {
                        if let wait { try await wait(delay) } else { try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
                    } catch { throw failure }
                }
                attempt += 1
            }
        }
    }

    /// `syncDropData`: a pending drop capture as a Sensor Event (type 1200, volume -1) followed by its readings.
    /// Returns whether both uploads succeeded, as the SDK's completion does.
    public func syncDropData(eventAt: String, readings: [AnyJSON]) async -> Bool {
        guard let itemID = state.withLock({ $0.itemID }) else { return false }
        do {
            let eventID = try await createSensorEvent(
                itemId: itemID,
                body: [
                    "eventAt": .string(eventAt), "sensorEventType": 1200, "volumeSetting": -1,
                    "deviceId": .string(deviceID), "dropJsVersion": "2.0.22",
                ])
            _ = try await retrying { () async throws(UnderstudyClientError) in try await self.uploadSensorReadings(itemId: itemID, sensorEventId: eventID, readings: readings) }
            return true
        } catch {
            return false
        }
    }
}
