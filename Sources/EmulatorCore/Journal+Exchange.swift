import Foundation
import HTTPServer

/// What the request path hands the journal.
extension Journal {
    /// What the request path hands over: the raw exchange. Turning it into an entry (header
    /// maps, redaction, body text) happens at flush time, off the request path.
    public struct Exchange: Sendable {
        /// The reserved id.
        public var id: Int
        /// Real time of arrival.
        public var time: Date
        /// Owning project.
        public var projectID: ProjectID?
        /// Platform name or `admin`.
        public var platform: String
        /// Path as routed.
        public var path: String
        /// Matched route pattern.
        public var route: String?
        /// The request.
        public var request: Request
        /// Response status (0: none sent).
        public var status: Int
        /// Response headers.
        public var responseHeaders: HTTPHeaders
        /// Response body.
        public var responseBody: Data
        /// Milliseconds spent.
        public var durationMs: Double
        /// Fault applied, if any.
        public var fault: String?
        /// Why the request matched no project, when it was meant for an emulated service.
        public var unmatched: UnmatchedRequest?
        /// The app installation the platform's checks said the request concerns (`Observation.device`).
        public var device: String?

        /// Creates an exchange record.
        public init(
            id: Int, time: Date, projectID: ProjectID?, platform: String, path: String, route: String?, request: Request,
            status: Int, responseHeaders: HTTPHeaders, responseBody: Data, durationMs: Double, fault: String?, unmatched: UnmatchedRequest? = nil,
            device: String? = nil
        ) {
            self.id = id
            self.time = time
            self.projectID = projectID
            self.platform = platform
            self.path = path
            self.route = route
            self.request = request
            self.status = status
            self.responseHeaders = responseHeaders
            self.responseBody = responseBody
            self.durationMs = durationMs
            self.fault = fault
            self.unmatched = unmatched
            self.device = device
        }
    }
}
