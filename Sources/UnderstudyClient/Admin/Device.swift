import Foundation

/// An app installation (or user) a project's requests named, as its platform's checks name it
/// (`SERIAL:SN-0001` for an Asleep product, a WarrantyLife `deviceId`, a WarpLink `install_id`).
public struct Device: Sendable, Codable, Equatable {
    /// The platform whose requests named it.
    public var platform: String
    /// The device.
    public var device: String
    /// When its first journalled request arrived (ISO 8601, real time).
    public var firstSeen: String
    /// When its latest journalled request arrived (ISO 8601, real time).
    public var lastSeen: String
    /// How many journalled requests concern it.
    public var requests: Int
    /// How many integration-check findings name it.
    public var findings: Int
}

/// One installation with its journalled requests, oldest first (`ProjectAdmin.device(platform:id:)`).
public struct DeviceTimeline: Sendable, Codable, Equatable {
    /// The platform whose requests named it.
    public var platform: String
    /// The device.
    public var device: String
    /// When its first journalled request arrived (ISO 8601, real time).
    public var firstSeen: String
    /// When its latest journalled request arrived (ISO 8601, real time).
    public var lastSeen: String
    /// How many journalled requests concern it.
    public var requests: Int
    /// How many integration-check findings name it.
    public var findings: Int
    /// Its requests, oldest first.
    public var timeline: [JournalEntry]
}

extension ProjectAdmin {
    /// The app installations the project's requests named, most recently seen first; of one platform when given.
    public func devices(platform: String? = nil) async throws(UnderstudyClientError) -> [Device] {
        struct List: Decodable { var devices: [Device] }
        let query = platform.map { [("platform", $0)] } ?? []
        return try await admin.raw(ClientRequest(method: "GET", path: devicesPath, query: query)).expect(200, as: List.self).devices
    }

    /// One installation and its requests, oldest first (at most `limit`, after the journal id `after`).
    public func device(platform: String, id device: String, limit: Int? = nil, after: Int? = nil) async throws(UnderstudyClientError) -> DeviceTimeline {
        let query = [("limit", limit.map(String.init)), ("after", after.map(String.init))].compactMap { name, value in value.map { (name, $0) } }
        return try await admin.raw(ClientRequest(method: "GET", path: devicePath(platform, device), query: query)).expect(200)
    }

    /// Forgets an installation: removes the server-side state its platform keeps for it (an Asleep
    /// product registration, a WarrantyLife device's lookups and item, a WarpLink install, a
    /// Telematics user's tokens), so a first launch can be tested again. Returns how many records went.
    @discardableResult
    public func forgetDevice(platform: String, id device: String) async throws(UnderstudyClientError) -> Int {
        struct Forgotten: Decodable { var forgotten: Int }
        return try await admin.raw(ClientRequest(method: "DELETE", path: devicePath(platform, device))).expect(200, as: Forgotten.self).forgotten
    }

    private var devicesPath: String { "/__admin/projects/\(ClientHTTP.encode(id))/devices" }

    private func devicePath(_ platform: String, _ device: String) -> String {
        devicesPath + "/" + ClientHTTP.encode(platform) + "/" + ClientHTTP.encode(device)
    }
}
