import EmulatorCore
import Foundation

/// The platform's rules, free of storage and HTTP so they are unit-tested directly: who may
/// call, what a refresh gets, which codes are valid, what a mileage estimate is. Times come in
/// as arguments (the project clock), never from the real clock.
enum TelematicsService {
    /// The features a user may have switched off, and a service code may include.
    static let features = ["TRIPS", "KILOMETERS", "ATTENTION"]

    /// Plate matching key: upper-cased, spaces and hyphens removed [D-TM-10].
    static func plateKey(_ plate: String) -> String {
        plate.uppercased().filter { $0 != " " && $0 != "-" }
    }

    /// A `[start, end]` filter from the query, with the documented aliases [D-TM-15].
    static func dateRange(_ query: [(name: String, value: String)]) throws(TelematicsError) -> (start: Date?, end: Date?) {
        func value(_ names: [String]) throws(TelematicsError) -> Date? {
            for name in names {
                guard let text = query.first(where: { $0.name == name })?.value else { continue }
                if text.isEmpty { continue }
                guard let date = TelematicsTime.parse(text) else { throw .invalidDate(name, text) }
                return date
            }
            return nil
        }
        let start = try value(["startTs", "from", "startDate", "start"])
        let end = try value(["endTs", "to", "endDate", "end"])
        if let start, let end, start > end { throw .invalidRange }
        return (start, end)
    }

    /// Epoch ms of a range bound, or `fallback` for an open bound.
    static func bound(_ date: Date?, _ fallback: Int64) -> Int64 {
        date.map(\.clampedEpochMilliseconds) ?? fallback
    }

    // MARK: Access

    /// Whether a presented access token admits its user [D-TM-06]: 401 for a token that is
    /// unknown, revoked or expired (or whose user is gone), 403 for refused accounts and
    /// switched-off features.
    static func admit(pair: PairRecord?, user: UserRecord?, now: Date, feature: String?) throws(TelematicsError) -> UserRecord {
        guard let pair else { throw .unknownAccessToken }
        if pair.accessRevokedAt != nil { throw .revokedAccessToken }
        if pair.accessExpires <= now.timeIntervalSince1970 { throw .expiredAccessToken }
        guard let user else { throw .accessTokenWithoutUser }
        switch user.state {
        case .inactive: throw .accountInactive
        case .denied: throw .userDenied
        case .active:
            if let feature, user.disabledFeatures.contains(feature) { throw .featureOff(feature) }
            return user
        }
    }

    /// The project of an SDK request that must carry an access token: the tenant its credential
    /// resolved to, or the platform's 401 (no token, a malformed one, an unknown tenant).
    static func project(token: String?, credential: CredentialRecord?) throws(TelematicsError) -> (token: String, project: ProjectID) {
        guard let token else { throw .noAccessToken }
        guard token.hasPrefix("tma_"), let project = credential?.project else { throw .malformedAccessToken }
        return (token, project)
    }

    // MARK: Tokens

    /// What a refresh request gets, judged on the project clock [D-TM-05, D-TM-06].
    enum RefreshOutcome: Sendable, Equatable {
        /// Mint a successor pair.
        case rotate
        /// Return the successor already minted (reuse inside the grace period).
        case replay(successorID: String)
        /// Refuse.
        case fail(TelematicsError)
    }

    /// The state of a refresh token that a refresh call needs.
    struct RefreshTokenState: Sendable {
        /// Expiry (epoch seconds).
        var expires: Double
        /// When it was revoked.
        var revokedAt: Double?
        /// When it was used to rotate.
        var rotatedAt: Double?
        /// The pair it rotated into.
        var successorID: String?
        /// The owner's account state.
        var userState: UserState

        /// The state of `pair`'s refresh token, owned by `user`.
        init(pair: PairRecord, user: UserRecord) {
            self.init(
                expires: pair.refreshExpires ?? 0, revokedAt: pair.refreshRevokedAt, rotatedAt: pair.rotatedAt,
                successorID: pair.successorID, userState: user.state)
        }

        /// A state with the given values.
        init(expires: Double, revokedAt: Double?, rotatedAt: Double?, successorID: String?, userState: UserState) {
            self.expires = expires
            self.revokedAt = revokedAt
            self.rotatedAt = rotatedAt
            self.successorID = successorID
            self.userState = userState
        }
    }

    /// Decides a refresh.
    static func refresh(_ token: RefreshTokenState?, now: Double, grace: Double) -> RefreshOutcome {
        guard let token else { return .fail(.unknownRefreshToken) }
        if token.revokedAt != nil { return .fail(.revokedRefreshToken) }
        if let rotatedAt = token.rotatedAt, let successor = token.successorID {
            if now - rotatedAt > grace { return .fail(.reusedRefreshToken) }
            if token.userState == .inactive { return .fail(.accountInactive) }
            return .replay(successorID: successor)
        }
        if token.expires <= now { return .fail(.refreshTokenExpired) }
        if token.userState == .inactive { return .fail(.accountInactive) }
        return .rotate
    }

    /// The control plane's name for the state of a pair's access token.
    static func accessState(_ pair: PairRecord, now: Date) -> String {
        pair.accessRevokedAt != nil ? "revoked" : pair.accessExpires <= now.timeIntervalSince1970 ? "expired" : "active"
    }

    /// The control plane's name for the state of a pair's refresh token; nil without one.
    static func refreshState(_ pair: PairRecord, now: Date) -> String? {
        if pair.refreshToken == nil { return nil }
        if pair.refreshRevokedAt != nil { return "revoked" }
        if pair.rotatedAt != nil { return "rotated" }
        if (pair.refreshExpires ?? 0) <= now.timeIntervalSince1970 { return "expired" }
        return "active"
    }

    // MARK: Vehicles and service codes

    /// Checks full-form vehicle codes against the project's catalogues (422s).
    static func checkCodes(type: Int, fuelType: Int, addReason: Int?, settings: TelematicsSettings) throws(TelematicsError) {
        guard settings.vehicleTypes.values.contains(type) else { throw .unknownCode("UNKNOWN_VEHICLE_TYPE", "type", type) }
        guard settings.fuelTypes.values.contains(fuelType) else { throw .unknownCode("UNKNOWN_FUEL_TYPE", "fuelType", fuelType) }
        if let addReason, !settings.addReasons.values.contains(addReason) { throw .unknownCode("UNKNOWN_ADD_REASON", "addReason", addReason) }
    }

    /// Whether a batch under `serviceCode` may be uploaded: open mode admits everything, an
    /// allow-list only its codes, and only those with the TRIPS feature when they list features.
    static func checkUpload(serviceCode: String?, settings: TelematicsSettings) throws(TelematicsError) {
        guard let allowList = settings.serviceCodes, let serviceCode else { return }
        guard let entry = allowList.first(where: { $0.code == serviceCode }) else {
            throw .serviceCodeRefused(serviceCode)
        }
        if let features = entry.features, !features.contains("TRIPS") {
            throw .serviceCodeWithoutTrips(serviceCode)
        }
    }

    /// What `setServiceCode` learns about `code`: everything in open mode, the entry of an
    /// allow-list, or 404.
    static func serviceCode(_ code: String, settings: TelematicsSettings) throws(TelematicsError) -> (name: String, features: [String]) {
        guard let allowList = settings.serviceCodes else { return ("Understudy open mode", features) }
        guard let entry = allowList.first(where: { $0.code == code }) else { throw .serviceCodeUnknown(code) }
        return (entry.serviceName ?? code, entry.features ?? features)
    }

    /// The distance-weighted score of a range (the plain mean when nothing was driven).
    static func score(_ totals: TripTotals) -> Int {
        // Seeded distances may be anything up to 1e300: a NaN or infinite score is no score.
        (totals.distanceKm > 0 ? totals.weightedScore / totals.distanceKm : totals.meanScore).roundedInt() ?? 0
    }
}
