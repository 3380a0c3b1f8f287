import EmulatorCore
import Foundation

/// Control-plane JSON for the platform's records (camelCase, like all of /__admin).
extension AsleepAdmin {
    static func time(_ date: Date?) -> JSONValue {
        date.map { .string(Timestamp.format($0)) } ?? .null
    }

    static func render(_ key: APIKeyRecord) -> JSONValue {
        [
            "apiKey": .string(key.apiKey), "customer": .string(key.customer), "state": .string(key.state.rawValue),
            "productBilling": .bool(key.productBilling), "createdAt": time(key.createdAt),
        ]
    }

    static func render(_ app: AppRecord) -> JSONValue {
        [
            "appId": .string(app.appID), "appSecret": .string(app.appSecret), "customer": .string(app.customer), "state": .string(app.state.rawValue),
            "productBilling": .bool(app.productBilling), "createdAt": time(app.createdAt),
        ]
    }

    static func render(_ user: UserRecord) -> JSONValue {
        ["userId": .string(user.id), "customer": .string(user.customer), "metadata": user.metadata, "createdAt": time(user.createdAt)]
    }

    static func render(_ product: ProductRecord) -> JSONValue {
        [
            "productId": .string(product.productID), "productKey": .string(product.productKey), "customer": .string(product.customer),
            "model": .string(product.model), "identifierType": .string(product.identifierType), "identifierValue": .string(product.identifierValue),
            "revoked": .bool(product.revoked), "createdAt": time(product.createdAt),
        ]
    }

    static func render(_ session: SessionRecord, received: ReceivedChunks, now: Date) -> JSONValue {
        [
            "sessionId": .string(session.id), "userId": .string(session.userID), "customer": .string(session.customer),
            "state": .string(session.state.rawValue), "startTime": time(session.start), "endTime": time(session.end),
            "unexpectedEndTime": time(session.unexpectedEnd), "closedAt": time(session.closedAt), "completeTime": time(session.completeTime),
            "hold": .bool(session.hold), "timezone": .string(session.createdTimezone), "service": .string(session.service),
            "inferenceType": .string(session.inferenceType), "callbackUrl": session.callbackURL.map(JSONValue.string) ?? .null,
            "productId": session.productID.map(JSONValue.string) ?? .null,
            "lastReceivedSeqNum": session.lastSeqNum.map { .int(Int64($0)) } ?? .null,
            "receivedChunks": .int(Int64(received.count)), "overrides": session.overrides,
        ]
    }

    static func render(_ chunk: ChunkRecord) -> JSONValue {
        // A seeded chunk was never sent: null rather than its stand-in, which is no hash of anything.
        [
            "seqNum": .int(Int64(chunk.seqNum)), "size": .int(Int64(chunk.size)), "sha256": chunk.isSeeded ? .null : .string(chunk.sha256),
            "seeded": .bool(chunk.isSeeded), "receivedAt": time(chunk.receivedAt),
        ]
    }

    static func render(_ webhook: WebhookRecord) -> JSONValue {
        // The body was stored as JSON we encoded ourselves; a body that does not parse shows as null.
        let body = (try? JSONValue.parse(Data(webhook.body.utf8))) ?? .null
        return [
            "id": .string(webhook.id), "outboxId": .int(Int64(webhook.outboxID)), "sessionId": .string(webhook.sessionID),
            "event": .string(webhook.event), "url": .string(webhook.url), "userId": .string(webhook.userID),
            "status": .string(webhook.status.rawValue), "attempts": .int(Int64(webhook.attempts)),
            "maxAttempts": .int(Int64(webhook.maxAttempts)), "lastStatus": webhook.lastStatus.map { .int(Int64($0)) } ?? .null,
            "lastError": webhook.lastError.map(JSONValue.string) ?? .null, "body": body, "createdAt": time(webhook.createdAt),
        ]
    }
}
