import EmulatorCore
import Foundation

/// Users (create, get, update, delete, metadata rules) and product registration.
extension AsleepService {
    // MARK: Users

    /// `POST /ai/v1/users`.
    func createUser(_ caller: Caller, body: Data) throws -> String {
        let metadata = try Self.metadata(fromBody: body, required: false, year: WireTime.year(now))
        let id = try uniqueID(exists: store.userIDExists) { "G-" + WireTime.compactUTC(now) + "-" + draw(.alphanumeric(20)) }
        try store.insertUser(id: id, project: caller.project, customer: caller.customer, metadata: metadata, now: now)
        return id
    }

    /// The user of `caller`'s customer, or the given 404.
    func user(_ caller: Caller, _ id: String, missing: AsleepError = .userDoesNotExist) throws -> UserRecord {
        guard let user = try store.user(project: caller.project, customer: caller.customer, id: id) else { throw missing }
        return user
    }

    /// `GET /ai/v1/users/{id}`.
    func getUser(_ caller: Caller, id: String) throws -> JSONValue {
        let user = try user(caller, id)
        try advance(project: caller.project, settings: caller.settings)
        if caller.settings.terminateOnJoin ?? false {
            for var open in try store.openSessions(project: caller.project, user: id) {
                try close(&open, end: now, unexpected: false)
            }
        }
        let last = try store.latestSession(project: caller.project, user: id)
        return AsleepWire.user(user, lastSession: last)
    }

    /// `PUT /ai/v1/users/{id}`.
    func updateUser(_ caller: Caller, id: String, body: Data) throws -> JSONValue {
        _ = try user(caller, id, missing: .userNotExist)
        let metadata = try Self.metadata(fromBody: body, required: true, year: WireTime.year(now))
        try store.updateUserMetadata(project: caller.project, id: id, metadata: metadata)
        return ["user_id": .string(id), "metadata": metadata]
    }

    /// `DELETE /ai/v1/users/{id}`: immediate, with every session.
    func deleteUser(_ caller: Caller, id: String) throws {
        _ = try user(caller, id)
        try store.deleteUser(project: caller.project, id: id)
    }

    static let genders: Set<String> = ["male", "female", "non_binary", "other", "prefer_not_to_say"]

    /// Validates the `metadata` of a create/update body ([A-U1]); returns it (null when absent).
    static func metadata(fromBody body: Data, required: Bool, year currentYear: Int) throws(AsleepError) -> JSONValue {
        if RequestBody.isBlank(body) {
            if required { throw AsleepError.validation("metadata", "field required") }
            return .null
        }
        guard case .object(let members) = try RequestBody.parse(body, unreadable: AsleepError(422, "body: invalid JSON")) else { throw AsleepError(422, "body: must be an object") }
        guard let metadata = members["metadata"] else {
            if required { throw AsleepError.validation("metadata", "field required") }
            return .null
        }
        if metadata.isNull {
            if required { throw AsleepError.validation("metadata", "must be an object") }
            return .null
        }
        guard case .object(let fields) = metadata else { throw AsleepError.validation("metadata", "must be an object") }
        var result: [String: JSONValue] = [:]
        func integer(_ name: String, _ range: ClosedRange<Int>) throws(AsleepError) -> Int? {
            guard let value = fields[name], !value.isNull else { result[name] = .null; return nil }
            // An integral number is an integer whether it is written `1990` or `1990.0`, as JSON Schema counts it.
            guard let number = value.intValue else { throw AsleepError.validation("metadata.\(name)", "must be an integer") }
            guard range.contains(number) else { throw AsleepError.validation("metadata.\(name)", "must be between \(range.lowerBound) and \(range.upperBound)") }
            result[name] = .int(Int64(number))
            return number
        }
        func decimal(_ name: String, _ range: ClosedRange<Double>) throws(AsleepError) {
            guard let value = fields[name], !value.isNull else { result[name] = .null; return }
            guard let number = value.doubleValue, value.boolValue == nil else { throw AsleepError.validation("metadata.\(name)", "must be a number") }
            guard range.contains(number) else { throw AsleepError.validation("metadata.\(name)", "must be between \(Int(range.lowerBound)) and \(Int(range.upperBound))") }
            guard ((number * 10).rounded() - number * 10).magnitude < 1e-6 else { throw AsleepError.validation("metadata.\(name)", "must have at most one decimal place") }
            result[name] = .double(number)
        }
        let year = try integer("birth_year", 1900...currentYear)
        let month = try integer("birth_month", 1...12)
        if let day = try integer("birth_day", 1...31), let month {
            let limit = WireTime.daysIn(month: month, year: year ?? 2000)
            guard day <= limit else { throw AsleepError.validation("metadata.birth_day", "day \(day) does not exist in month \(month)") }
        }
        if let gender = fields["gender"], !gender.isNull {
            guard let text = gender.stringValue, genders.contains(text) else {
                throw AsleepError.validation("metadata.gender", "must be one of male, female, non_binary, other, prefer_not_to_say")
            }
            result["gender"] = gender
        } else {
            result["gender"] = .null
        }
        try decimal("height", 0...300)
        try decimal("weight", 0...1000)
        return .object(result)
    }

    // MARK: Products

    /// `POST /ai/v1/products`: returns the result and whether the product is new.
    func registerProduct(_ caller: Caller, body: Data) throws -> (result: JSONValue, created: Bool) {
        let status = caller.settings.productValidationStatus ?? 422
        // Unreadable JSON or a non-object has no valid model: the same documented 422 (or 400) as a bad model.
        guard case .object(let fields) = try RequestBody.parse(body, unreadable: AsleepError(status, "invalid model")) else {
            throw AsleepError(status, "invalid model")
        }
        // Lengths count code points, as the real (Python) service and JSON Schema's `maxLength` do.
        guard let model = fields["model"]?.stringValue, (1...100).contains(model.unicodeScalars.count) else { throw AsleepError(status, "invalid model") }
        let rawType = fields["identifier_type"]?.stringValue ?? fields["identifierType"]?.stringValue
        guard let type = rawType.flatMap(Self.identifierType) else { throw AsleepError(status, "invalid identifier_type") }
        guard let value = (fields["identifier_value"] ?? fields["identifierValue"])?.stringValue, (1...255).contains(value.unicodeScalars.count) else {
            throw AsleepError(status, "invalid identifier_value")
        }
        guard caller.productBilling else { throw AsleepError.productNotAllowed }
        if let product = try store.product(project: caller.project, customer: caller.customer, model: model, identifierType: type, identifierValue: value) {
            if product.revoked {
                // A revoked credential is replaced: re-registering is how a device recovers.
                let key = "pk_" + draw(.alphanumeric(40))
                try store.replaceProductKey(id: product.productID, productKey: key)
                return (["product_id": .string(product.productID), "product_key": .string(key), "created": false], false)
            }
            return (["product_id": .string(product.productID), "product_key": .string(product.productKey), "created": false], false)
        }
        let id = "P-" + draw(.uuid)
        let key = "pk_" + draw(.alphanumeric(40))
        try store.insertProduct(
            id: id, project: caller.project, customer: caller.customer, productKey: key, model: model, identifierType: type,
            identifierValue: value, now: now)
        return (["product_id": .string(id), "product_key": .string(key), "created": true], true)
    }

    /// `SERIAL` / `MAC_ADDRESS` from any of the SDKs' spellings.
    static func identifierType(_ text: String) -> String? {
        switch text.lowercased().replacingOccurrences(of: "_", with: "") {
        case "serial": return "SERIAL"
        case "macaddress": return "MAC_ADDRESS"
        default: return nil
        }
    }
}
