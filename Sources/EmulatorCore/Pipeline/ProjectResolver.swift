import HTTPServer

/// Pipeline stage 3 (SDK requests): the project a request belongs to and the credential it
/// presented, looked up once through the credential index and handed on to the handler.
struct ProjectResolver: Sendable {
    /// The outcome for one request.
    struct Identity: Sendable {
        /// The project, when the request could be tied to one.
        var project: ProjectID?
        /// The credential that tied it, when one did.
        var credential: CredentialRecord?
    }

    let services: EmulatorServices

    /// The first presented credential the index knows, else the platform's credential-less
    /// identification. Throws when the store fails: that is never the same as "no project".
    func identify(_ request: Request, platform: any Platform) async throws -> Identity {
        for presented in platform.presentedCredentials(in: request) {
            let record = try await services.credentials.resolve(presented, platform: platform.id) { presented in
                try await platform.lookUpCredential(presented, services: services)
            }
            if let record { return Identity(project: record.project, credential: record) }
        }
        return Identity(project: try await platform.identifyProjectWithoutCredential(request, services: services), credential: nil)
    }
}
