import EmulatorCore
import Foundation
import HTTPServer

/// What the integration checks learn from a Telematics SDK request: the installation is the
/// user the SDK's tokens belong to, named by the user id as stored (`"42"`), so every session of
/// one user is one device. The routes note the user and the token pair when they read the
/// presented token anyway; a request whose handler never got that far (a fault answered it, its
/// body was refused first) has its token's owner looked up once and cached. A token no pair
/// holds names no user, and the request no device.
enum TelematicsChecks {
    /// The user the presented token belongs to (becomes the device, not a fact).
    static let userFact = "user"
    /// The id of the token pair the presented token belongs to.
    static let pairFact = "pair"
    /// `1` when that pair has a refresh token, `0` when it has none (the SDK cannot renew it).
    static let renewableFact = "renewable"
    /// The catalogue code of the error the route answered with (`REFRESH_TOKEN_REJECTED`, …).
    static let refusalFact = "refusal"
    /// `1` on the refresh route (`POST …/auth/refresh`).
    static let refreshFact = "refresh"
    /// On a refresh refused because the token had been rotated and its grace period had passed:
    /// the grace period, as a phrase (`60 s`).
    static let reusedFact = "reusedAfterGrace"
    /// A telemetry upload's `batchId`, as the server keys it (lower-cased).
    static let batchFact = "batch"

    /// The project state cache's kinds for a token's owner (kept like the tokens' own records).
    private static let ownerKinds = ["accessToken": "tokenOwner.access", "refreshToken": "tokenOwner.refresh"]

    /// Who a token belongs to, as the checks name it.
    struct Owner: Sendable {
        var user: Int
        var pair: String
        var renewable: Bool
    }

    /// Notes `pair`'s user and id for the checks (nothing when they are off).
    static func note(_ pair: PairRecord, _ context: EmulatorContext) {
        guard context.notes != nil else { return }
        context.note(userFact, String(pair.userID))
        context.note(pairFact, pair.id)
        context.note(renewableFact, pair.refreshToken == nil ? "0" : "1")
    }

    /// The route group's `observe` step.
    @Sendable static func observe(_ request: Request, _ context: EmulatorContext, _ response: Response) async -> Observation? {
        var facts = context.noted
        if let user = facts.removeValue(forKey: userFact) { return Observation(device: user, facts: facts) }
        guard let presented = context.presentedCredentials.first, let project = context.projectID,
            let owner = await owner(of: presented, project: project, context)
        else { return Observation(device: nil, facts: facts) }
        facts[pairFact] = owner.pair
        facts[renewableFact] = owner.renewable ? "1" : "0"
        return Observation(device: String(owner.user), facts: facts)
    }

    /// The owner of a presented token, read once and kept in the project state cache (a pair's
    /// user and refresh token never change); nil for a token no pair of the project holds.
    private static func owner(of presented: PresentedCredential, project: ProjectID, _ context: EmulatorContext) async -> Owner? {
        guard let kind = ownerKinds[presented.kind], !presented.sent.isEmpty else { return nil }
        let key = PresentedCredential(kind: kind, value: presented.sent)
        let record = try? await context.services.projectCache.resolve(key, platform: .telematics) { key in
            try await context.database.read { connection -> PairRecord? in
                let store = TelematicsStore(connection: connection)
                return try kind == "tokenOwner.access" ? store.pair(project, access: key.value) : store.pair(project, refresh: key.value)
            }.map { CredentialRecord(project: project, kind: key.kind, value: key.value, details: Owner(user: $0.userID, pair: $0.id, renewable: $0.refreshToken != nil)) }
        } // a failed read names no device: the checks skip the request rather than fail it
        guard let record, record.project == project else { return nil }
        return record.details(as: Owner.self)
    }
}
