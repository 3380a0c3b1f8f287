import Foundation

/// A recorded side effect (mail, push, webhook).
public struct OutboxMessage: Sendable, Codable, Equatable {
    /// The message's id, in production order.
    public var id: Int
    /// The project that produced it.
    public var projectID: String
    /// The platform that produced it.
    public var platform: String
    /// `email`, `push`, `webhook`, …
    public var kind: String
    /// The e-mail address, device token or URL it was for.
    public var recipient: String?
    /// The e-mail subject or webhook event name.
    public var subject: String?
    /// The message content: mail body fields, push payload or webhook body.
    public var payload: AnyJSON
    /// `pending`, `delivered`, `failed`, `refused` (a webhook whose target was not allowed), or `recorded` for messages never sent anywhere.
    public var status: String
    /// Delivery attempts so far (webhooks retry).
    public var attempts: Int
    /// Why the last delivery attempt failed.
    public var lastError: String?
    /// When it was produced (project clock, ISO 8601).
    public var createdAt: String
    /// When its delivery state last changed (ISO 8601).
    public var updatedAt: String
}
