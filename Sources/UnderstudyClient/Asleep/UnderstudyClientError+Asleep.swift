import Foundation

extension UnderstudyClientError {
    /// The HTTP status of an Asleep error response, if this is one.
    public var asleepStatus: Int? {
        if case .unexpectedStatus(let status, _) = self { return status }
        return nil
    }

    /// The `detail` of an Asleep error response, if this is one.
    public var asleepDetail: String? {
        guard case .unexpectedStatus(_, let body) = self else { return nil }
        // A body that is not `{"detail": …}` carries no Asleep detail, which is what nil says.
        return try? JSONDecoder().decode(AsleepErrorBody.self, from: Data(body.utf8)).detail
    }
}
