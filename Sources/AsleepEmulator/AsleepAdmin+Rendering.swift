import EmulatorCore
import Foundation
import SQLiteStore

/// Control-plane JSON for the platform's rows.
extension AsleepAdmin {
    // MARK: Rendering (camelCase, like all of /__admin)

    static func seconds(_ value: Double?) -> JSONValue {
        value.map { .string(Timestamp.format(Date(timeIntervalSince1970: $0))) } ?? .null
    }

    static func renderKey(_ row: Row) -> JSONValue {
        ["apiKey": .string(row.string("api_key") ?? ""), "customer": .string(row.string("customer") ?? ""),
         "state": .string(row.string("state") ?? ""), "productBilling": .bool(row.bool("product_billing") ?? true),
         "createdAt": seconds(row.double("created_at"))]
    }

    static func renderApp(_ row: Row) -> JSONValue {
        ["appId": .string(row.string("app_id") ?? ""), "appSecret": .string(row.string("app_secret") ?? ""),
         "customer": .string(row.string("customer") ?? ""), "state": .string(row.string("state") ?? ""),
         "productBilling": .bool(row.bool("product_billing") ?? true), "createdAt": seconds(row.double("created_at"))]
    }

    static func renderUser(_ user: UserRecord) -> JSONValue {
        ["userId": .string(user.id), "customer": .string(user.customer), "metadata": user.metadata,
         "createdAt": .string(Timestamp.format(user.createdAt))]
    }

    static func renderProduct(_ row: Row) -> JSONValue {
        ["productId": .string(row.string("product_id") ?? ""), "productKey": .string(row.string("product_key") ?? ""),
         "customer": .string(row.string("customer") ?? ""), "model": .string(row.string("model") ?? ""),
         "identifierType": .string(row.string("identifier_type") ?? ""), "identifierValue": .string(row.string("identifier_value") ?? ""),
         "revoked": .bool(row.bool("revoked") ?? false), "createdAt": seconds(row.double("created_at"))]
    }

    static func renderSession(_ session: SessionRecord, received: Set<Int>, now: Date) -> JSONValue {
        func time(_ date: Date?) -> JSONValue { date.map { .string(Timestamp.format($0)) } ?? .null }
        return ["sessionId": .string(session.id), "userId": .string(session.userID), "customer": .string(session.customer),
                "state": .string(session.state), "startTime": time(session.start), "endTime": time(session.end),
                "unexpectedEndTime": time(session.unexpectedEnd), "closedAt": time(session.closedAt), "completeTime": time(session.completeTime),
                "hold": .bool(session.hold), "timezone": .string(session.createdTimezone), "service": .string(session.service),
                "inferenceType": .string(session.inferenceType), "callbackUrl": session.callbackURL.map(JSONValue.string) ?? .null,
                "productId": session.productID.map(JSONValue.string) ?? .null,
                "lastReceivedSeqNum": session.lastSeqNum.map { .int(Int64($0)) } ?? .null,
                "receivedChunks": .int(Int64(received.count)), "overrides": session.overrides]
    }

    static func renderWebhook(_ row: Row) -> JSONValue {
        ["id": .string(row.string("id") ?? ""), "outboxId": .int(Int64(row.int("outbox_id") ?? 0)),
         "sessionId": .string(row.string("session_id") ?? ""), "event": .string(row.string("event") ?? ""),
         "url": .string(row.string("url") ?? ""), "userId": .string(row.string("user_id") ?? ""),
         "status": .string(row.string("status") ?? ""), "attempts": .int(Int64(row.int("attempts") ?? 0)),
         "maxAttempts": .int(Int64(row.int("max_attempts") ?? 0)),
         "lastStatus": row.int("last_status").map { .int(Int64($0)) } ?? .null,
         "lastError": row.string("last_error").map(JSONValue.string) ?? .null,
         "body": (try? JSONValue.parse(Data((row.string("body") ?? "null").utf8))) ?? .null,
         "createdAt": seconds(row.double("created_at"))]
    }
}
