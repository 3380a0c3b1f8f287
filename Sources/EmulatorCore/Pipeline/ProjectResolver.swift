import HTTPServer

/// Pipeline stage 3 (SDK requests): the project a request belongs to and the credential it
/// presented, looked up once through the project state cache and handed on to the handler.
struct ProjectResolver: Sendable {
    /// The outcome for one request.
    struct Identity: Sendable {
        /// The project, when the request could be tied to one.
        var project: ProjectID?
        /// The credential that tied it, when one did.
        var credential: CredentialRecord?
        /// Every credential the request presented, as the platform read them: the one parse of
        /// the request's credentials, handed on so no handler parses them again.
        var presented: [PresentedCredential] = []

        /// Why the request matched no project: no credential that could name one, or the first
        /// such credential, which no project has. Nil when it matched one.
        var unmatched: UnmatchedRequest? {
            guard project == nil else { return nil }
            guard let naming = presented.first(where: \.namesProject) else { return UnmatchedRequest(reason: .noCredential) }
            return .unknown(naming)
        }
    }

    let services: EmulatorServices

    /// The first presented credential the index knows, else the platform's credential-less
    /// identification. Throws when the store fails: that is never the same as "no project".
    func identify(_ request: Request, platform: any Platform, routedPath: String, byHost: Bool) async throws -> Identity {
        let all = platform.presentedCredentials(in: request)
        for presented in all {
            let record = try await services.projectCache.resolve(presented, platform: platform.id) { presented in
                try await platform.lookUpCredential(presented, services: services)
            }
            if let record { return Identity(project: record.project, credential: record, presented: all) }
        }
        let project = try await platform.identifyProjectWithoutCredential(request, routedPath: routedPath, byHost: byHost, services: services)
        return Identity(project: project, credential: nil, presented: all)
    }
}
