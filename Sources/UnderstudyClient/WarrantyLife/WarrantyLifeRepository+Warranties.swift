import Foundation
import Synchronization

/// Insights, warranties and Smart Saver opt-ins.
extension WarrantyLifeRepository {
    /// `getInsightData()`: nil when the server has no data.
    public func getInsightData() async throws(UnderstudyClientError) -> AnyJSON? {
        let value = try data(try await request("GET", "/insights", query: [("deviceId", deviceID)]), 200)
        // Spelled out: AnyJSON is nil-literal expressible, so a bare `nil` here would become `.some(.null)`.
        if case .null = value { return Optional<AnyJSON>.none }
        return value
    }

    /// `getAllWarranties()`: also restores coverage and Smart Saver state, as the foreground refresh does.
    public func getAllWarranties() async throws(UnderstudyClientError) -> [WarrantyLifeWarranty] {
        let list = try data(try await request("GET", "/warranties"), 200).array ?? []
        var warranties: [WarrantyLifeWarranty] = []
        for value in list { warranties.append(try withRaw(value, as: WarrantyLifeWarranty.self)) }
        let itemID = state.withLock { $0.itemID }
        let current = warranties.last { $0.hasActiveCoverage && (itemID == nil || $0.itemId == itemID) }
        state.withLock { s in
            s.warranty = current
            if let current { s.ssr = current.ssr; s.ssd = current.ssd; s.tradeIn = current.tradeIn }
        }
        return warranties
    }

    /// The SDK's foreground refresh: logged in, `getItemByDeviceID` → `getAllWarranties`; logged out,
    /// `getItemByDeviceIdPublic`. Returns whether the device has active coverage.
    @discardableResult
    public func foregroundRefresh() async throws(UnderstudyClientError) -> Bool {
        if isUserLoggedIn {
            do { try await getItemByDeviceID() } catch .unexpectedStatus(404, _) { state.withLock { $0.itemID = nil } }
            _ = try await getAllWarranties()
            return hasActiveCoverage
        }
        do {
            return try await getItemByDeviceIdPublic()["hasActiveCoverage"]?.bool ?? false
        } catch .unexpectedStatus(404, _) {
            return false
        }
    }

    /// `canProcessDropDetection()`: logged in, active coverage, an offered option opted in, permissions granted.
    public func canProcessDropDetection(permissionsGranted: Bool = true) -> Bool {
        state.withLock { s in
            guard s.login != nil, let warranty = s.warranty, warranty.hasActiveCoverage, permissionsGranted else { return false }
            return (s.ssr && warranty.ssrOffered) || (s.ssd && warranty.ssdOffered) || (s.tradeIn && warranty.tipOffered)
        }
    }

    /// `hasActiveCoverage()` (after `getAllWarranties` or a warranty write).
    public var hasActiveCoverage: Bool { state.withLock { $0.warranty?.hasActiveCoverage ?? false } }

    func storeWarranty(_ value: AnyJSON) throws(UnderstudyClientError) -> WarrantyLifeWarranty {
        let warranty = try withRaw(value, as: WarrantyLifeWarranty.self)
        state.withLock {
            $0.warranty = warranty; $0.voucher = nil
        }
        return warranty
    }

    /// `createWarranty(model:)` (`WLWarrantyRequest` fields); the selected Smart Saver options are sent as Sensor Events afterwards, as the SDK does.
    @discardableResult
    public func createWarranty(model: [String: AnyJSON]) async throws(UnderstudyClientError) -> WarrantyLifeWarranty {
        var body = model
        if let code = state.withLock({ $0.voucher?.voucherCode }), body["voucherCode"] == nil { body["voucherCode"] = .string(code) }
        if body["deviceId"] == nil { body["deviceId"] = .string(deviceID) }
        let warranty = try storeWarranty(try data(try await request("POST", "/warranties", json: .object(body)), 201))
        try await sendSelectedSmartSaver()
        return try await refreshedWarranty(warranty.id) ?? warranty
    }

    /// `updateWarranty(model:)`: the transfer/update path, on the looked-up voucher's warranty id.
    @discardableResult
    public func updateWarranty(model: [String: AnyJSON]) async throws(UnderstudyClientError) -> WarrantyLifeWarranty {
        guard let id = state.withLock({ $0.voucher?.warrantyId ?? $0.warranty?.id }) else { throw .encoding("no voucher looked up") }
        var body = model
        if body["deviceId"] == nil { body["deviceId"] = .string(deviceID) }
        let warranty = try storeWarranty(try data(try await request("PUT", "/warranties/\(id)", json: .object(body)), 200))
        try await sendSelectedSmartSaver()
        return try await refreshedWarranty(warranty.id) ?? warranty
    }

    func refreshedWarranty(_ id: String) async throws(UnderstudyClientError) -> WarrantyLifeWarranty? {
        let selected = state.withLock { $0.ssr || $0.ssd || $0.tradeIn }
        return selected ? try await getWarrantyById(warrantyId: id) : nil
    }

    /// One warranty with its coverage and Smart Saver state (`getWarrantyById(warrantyId:)`).
    public func getWarrantyById(warrantyId: String) async throws(UnderstudyClientError) -> WarrantyLifeWarranty {
        try withRaw(try data(try await request("GET", "/warranties/\(warrantyId)"), 200), as: WarrantyLifeWarranty.self)
    }

    /// Sets the reward the user chose, within the plan's maximum (`updateWarrantyById(warrantyId:rewardAmount:)`).
    public func updateWarrantyById(warrantyId: String, rewardAmount: Double) async throws(UnderstudyClientError) -> WarrantyLifeWarranty {
        try withRaw(try data(try await request("PATCH", "/warranties/\(warrantyId)", json: ["rewardAmount": .double(rewardAmount)]), 200), as: WarrantyLifeWarranty.self)
    }

    func sendSelectedSmartSaver() async throws(UnderstudyClientError) {
        let (itemID, ssr, ssd, tradeIn) = state.withLock { ($0.itemID, $0.ssr, $0.ssd, $0.tradeIn) }
        guard let itemID, ssr || ssd || tradeIn else { return }
        var selected: [String: AnyJSON] = [:]
        if ssr { selected["ssr"] = true }
        if ssd { selected["ssd"] = true }
        if tradeIn { selected["tradeIn"] = true }
        _ = try await createSensorEvent(itemId: itemID, body: ["sensorEventType": 1300, "deviceId": .string(deviceID), "smartSaver": .object(selected)])
    }

    /// Whether a registration or transfer flow is in progress (a voucher looked up, no warranty finalised yet).
    public var isRegistrationInProgress: Bool { state.withLock { $0.voucher != nil } }

    /// `setSSR(_:)`, `setSSD(_:)`, `setTradeIn(_:)` (`program`: SSR, SSD, TRADE_IN). During registration only the
    /// selection is saved; afterwards the SDK's checks run in order and the opt-in is sent as a Sensor Event.
    /// Nil means `.success`.
    public func setSmartSaver(_ program: String, _ enabled: Bool, permissionsGranted: Bool = true) async -> WarrantyLifeOptInError? {
        func save(_ s: inout State) {
            switch program {
            case "SSR": s.ssr = enabled;
            case "SSD": s.ssd = enabled;
            default: s.tradeIn = enabled
            }
        }
        if isRegistrationInProgress { state.withLock { save(&$0) }; return nil }
        guard isUserLoggedIn else { return .notLoggedIn }
        let warranty = state.withLock { $0.warranty }
        guard let warranty, warranty.hasActiveCoverage else { return .noActiveCoverage }
        if enabled {
            let offered = program == "SSR" ? warranty.ssrOffered : program == "SSD" ? warranty.ssdOffered : warranty.tipOffered
            guard offered else { return .optionNotOffered(program) }
            guard permissionsGranted else { return .requiredPermissionsNotGranted("Motion && (Notification || LocationAlways)") }
        }
        guard let itemID = state.withLock({ $0.itemID }) else { return .sensorEventFailed("No item", errorCode: 0) }
        let key = program == "SSR" ? "ssr" : program == "SSD" ? "ssd" : "tradeIn"
        do {
            _ = try await createSensorEvent(itemId: itemID, body: ["sensorEventType": 1300, "deviceId": .string(deviceID), "smartSaver": [key: .bool(enabled)]])
        } catch {
            let api = WarrantyLifeAPIError(error)
            return .sensorEventFailed(api?.errorMessage ?? error.description, errorCode: api?.errorCode ?? -1)
        }
        state.withLock { save(&$0) }
        return nil
    }
}
