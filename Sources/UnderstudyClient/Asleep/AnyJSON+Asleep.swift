import Foundation

extension AnyJSON {
    /// An object without its null members.
    var asleepWithoutNulls: AnyJSON {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { !$0.value.isNull })
    }
}
