import HTTPServer

/// The project as the control plane answers it: credentials, and the URLs and settings that work
/// for the client that asked (from the public URL, else the request's `Host`).
enum ProjectAnswer {
    /// The answer for `record`, with every URL resolved for the client of `request`.
    static func render(_ record: ProjectRecord, for request: Request?, services: EmulatorServices, platforms: [any Platform]) -> JSONValue {
        render(record, endpoints: services.advertisedEndpoints(for: request), clock: services.clocks.settings(for: record.id), platforms: platforms)
    }

    /// The answer for `record` with URLs from `endpoints`.
    static func render(_ record: ProjectRecord, endpoints: AdvertisedEndpoints, clock: ClockSettings, platforms: [any Platform]) -> JSONValue {
        var credentials: [String: JSONValue] = [:]
        var baseURLs: [String: JSONValue] = [:]
        var httpsBaseURLs: [String: JSONValue] = [:]
        var sdkSettings: [String: JSONValue] = [:]
        var connections: [String: JSONValue] = [:]
        for platform in platforms {
            let name = platform.id.rawValue
            let values = record.credentials[platform.id] ?? [:]
            credentials[name] = .object(values.mapValues(JSONValue.string))
            baseURLs[name] = .string(endpoints.baseURL + platform.id.pathPrefix)
            if let https = endpoints.httpsBaseURL { httpsBaseURLs[name] = .string(https + platform.id.pathPrefix) }
            let settings = platform.sdkSettings(endpoints: endpoints, credentials: values)
            sdkSettings[name] = .object(settings.mapValues(JSONValue.string))
            connections[name] = platform.sdkConnection.render(endpoints: endpoints, sdkSettings: settings)
        }
        var members: [String: JSONValue] = [
            "id": .string(record.id), "name": .string(record.name), "createdAt": .string(Timestamp.format(record.createdAt)),
            "isDemo": .bool(record.isDemo), "clock": CoreAdminRoutes.renderClock(clock),
            "credentials": .object(credentials), "baseURLs": .object(baseURLs), "httpsBaseURLs": .object(httpsBaseURLs),
            "sdkSettings": .object(sdkSettings), "connections": .object(connections), "proxy": proxy(endpoints),
        ]
        if let seed = record.seed { members["seed"] = .int(Int64(bitPattern: seed)) }
        return .object(members)
    }

    /// The proxy and the CA a device must trust for it (each null while off or absent).
    static func proxy(_ endpoints: AdvertisedEndpoints) -> JSONValue {
        [
            "address": endpoints.proxyAddress.map(JSONValue.string) ?? .null,
            "caCertificatePath": endpoints.caCertificatePath.map(JSONValue.string) ?? .null,
            "caCertificateURL": endpoints.caCertificateURL.map(JSONValue.string) ?? .null,
        ]
    }
}
