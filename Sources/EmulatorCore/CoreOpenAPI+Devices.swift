/// The per-device view's part of the control plane document: devices, a device's timeline, forgetting one.
extension CoreOpenAPI {
    private typealias S = OpenAPISchema
    private typealias P = OpenAPIParameter
    private typealias C = OpenAPIContent

    /// `Device`, `DeviceList`, `DeviceTimeline` and `ForgottenDevice`.
    static func deviceSchemas(_ platforms: [PlatformID]) -> [String: JSONValue] {
        let members: [String: JSONValue] = [
            "platform": S.enumeration(platforms.map(\.rawValue)),
            "device": S.described(S.string, "The app installation (or user), as the platform's checks name it (`SERIAL:SN-0001`, a device id)."),
            "firstSeen": S.described(S.string, "ISO 8601 (real time): its first journalled request."),
            "lastSeen": S.described(S.string, "ISO 8601 (real time): its latest journalled request."),
            "requests": S.described(S.integer, "Journalled requests that concern it."),
            "findings": S.described(S.integer, "Integration-check findings that name it."),
        ]
        var timeline = members
        timeline["timeline"] = S.described(S.array(S.ref("JournalEntry")), "Its journalled requests, oldest first.")
        return [
            "Device": S.object(members),
            "DeviceList": S.object(["devices": S.array(S.ref("Device"))]),
            "DeviceTimeline": S.object(timeline),
            "ForgottenDevice": S.object([
                "platform": S.string, "device": S.string,
                "forgotten": S.described(S.integer, "Records of the platform's state that went (0: none was left)."),
            ]),
        ]
    }

    static func addDeviceRoutes(to document: inout OpenAPIDocument, sample: String) {
        let device: JSONValue = [
            "platform": .string(sample), "device": "SERIAL:SN-0001", "firstSeen": "2026-03-01T22:00:00.000Z", "lastSeen": "2026-03-01T22:05:00.000Z",
            "requests": 4, "findings": 0,
        ]
        let platform = P.path("platform", S.string, "The platform whose requests named the device.")
        let name = P.path("device", S.string, "The device, percent-encoded (`SERIAL%3ASN-0001`).")
        document.add(
            "get", "/__admin/projects/{id}/devices",
            operation(
                "listDevices", "The app installations the project's requests named, most recently seen first",
                "Each platform's checks name the installation a request concerns (a registered product, a device id, an install, a user), "
                    + "and the journal records it. Requests that name none are in no device's timeline. An unknown platform is a 400.",
                parameters: [projectID, P.query("platform", S.string, "Only this platform's devices.")],
                responses: ["200": C.json("The devices.", S.ref("DeviceList"), example: ["devices": [device]]), "400": error, "404": error],
                tag: "devices"))
        var detail = device
        if case .object(var members) = detail {
            members["timeline"] = []
            detail = .object(members)
        }
        document.add(
            "get", "/__admin/projects/{id}/devices/{platform}/{device}",
            operation(
                "getDevice", "One installation and its requests, oldest first",
                "A 404 when no journalled request names the device (or the platform is unknown).",
                parameters: [
                    projectID, platform, name, P.query("limit", integer(1, 1000), "Entries, 1–1000 (default 100)."),
                    P.query("after", integer(0, nil), "Only entries with a larger journal id (the next page)."),
                ],
                responses: ["200": C.json("The device and its timeline.", S.ref("DeviceTimeline"), example: detail), "400": error, "404": error],
                tag: "devices"))
        document.add(
            "delete", "/__admin/projects/{id}/devices/{platform}/{device}",
            operation(
                "forgetDevice", "Forget an installation: remove the state the platform keeps for it",
                "So a first-launch flow can be tested again without resetting the project: the platform's state keyed to the device goes "
                    + "(see the platform's guide), and so does what the checks remember of it. Its journal entries and findings stay. "
                    + "A 404 for a device neither the journal nor the platform knows; a 409 `no_device_state` when the platform keeps nothing per device.",
                parameters: [projectID, platform, name],
                responses: [
                    "200": C.json(
                        "Forgotten.", S.ref("ForgottenDevice"), example: ["platform": .string(sample), "device": "SERIAL:SN-0001", "forgotten": 1]),
                    "404": error, "409": error,
                ], tag: "devices"))
    }
}
