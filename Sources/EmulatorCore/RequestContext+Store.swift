import Foundation
import Storage

/// A caller that opens its platform's service on a transaction's connection: the route group's
/// store step. A platform says once how its service is made (store, project, the request's
/// instant); handlers then ask `context.read` or `context.write` and get the service, instead of
/// each platform keeping its own helpers that open a transaction and build the service.
public protocol StoreCaller: Sendable {
    /// What a handler works with inside a transaction: the platform's service.
    associatedtype Service
    /// The service on `connection` for this caller's request (`context` gives the clock reading
    /// and project). Throwing ends the transaction, which rolls back.
    func service(on connection: any StoreConnection, context: EmulatorContext) throws -> Service
}

extension RequestContext where Caller: StoreCaller {
    /// Runs `body` in a read snapshot with the caller's service.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Caller.Service) throws -> T) async throws -> T {
        let (caller, core) = (self.caller, self.core)
        return try await core.database.read { try body(caller.service(on: $0, context: core)) }
    }

    /// Runs `body` in one write transaction with the caller's service: all of it or nothing. A
    /// constraint failure reaches `ErrorAnswers`, which answers the platform's 409 or 400.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Caller.Service) throws -> T) async throws -> T {
        let (caller, core) = (self.caller, self.core)
        return try await core.database.write { try body(caller.service(on: $0, context: core)) }
    }
}
