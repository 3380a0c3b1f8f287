/// How an unmodified SDK reaches Understudy: through its own base-URL setting, or — when it has
/// none and always calls its real host over HTTPS — through the intercepting proxy, with the
/// local CA trusted by the device.
public enum SDKConnection: Sendable, Equatable {
    /// The SDK takes a base URL; `setting` is its name in `sdkSettings` (`apiEndpoint`, `baseURL`).
    case baseURL(setting: String)
    /// The SDK has no base-URL setting and calls `realHosts` (the first is its API host).
    case proxy(realHosts: [String])

    /// The entry of a project answer's `connections` (and the banner's JSON form): `mode`, then
    /// the base-URL setting with its value, or the proxy address, the real hosts and the CA.
    public func render(endpoints: AdvertisedEndpoints, sdkSettings: [String: String]) -> JSONValue {
        switch self {
        case .baseURL(let setting):
            return ["mode": "baseURL", "setting": .string(setting), "value": sdkSettings[setting].map(JSONValue.string) ?? .null]
        case .proxy(let realHosts):
            return [
                "mode": "proxy", "realHosts": .array(realHosts.map(JSONValue.string)),
                "proxy": endpoints.proxyAddress.map(JSONValue.string) ?? .null,
                "caCertificate": endpoints.caCertificatePath.map(JSONValue.string) ?? .null,
                "caCertificateURL": endpoints.caCertificateURL.map(JSONValue.string) ?? .null,
            ]
        }
    }
}
