import EmulatorCore
import Foundation
import Storage

/// Who may call a route (D-WL-02, D-WL-03): the developer key alone, the key with user
/// credentials when present, or the key with user credentials required. The route table says it
/// with its groups (`keyed` for the first two, `signedIn` for the third); the OpenAPI document
/// with this.
enum Access { case key, optionalUser, user }

/// Who is calling a WarrantyLife SDK route, as the route groups' one authentication step found
/// it (`WarrantyLifeRoutes.caller`): from the developer key the core resolved and the user
/// credentials `WarrantyLifePlatform.presentedCredentials` read, so handlers never read a
/// credential header again. `Account` is `UserRecord?` where an account is optional and
/// `UserRecord` where one is required, so a signed-in handler cannot forget the 401.
struct WarrantyLifeCaller<Account: Sendable>: StoreCaller {
    /// The project that owns the key.
    let project: ProjectID
    /// The developer key as the project state cache resolved it.
    let key: DeveloperKeyRecord
    /// The account whose credentials the request carried.
    let user: Account
}

extension WarrantyLifeCaller {
    /// The service of the key's project at the request's instant.
    func service(on connection: any StoreConnection, context: EmulatorContext) -> WarrantyLifeService {
        WarrantyLifeService(store: WarrantyLifeStore(connection: connection), project: project, now: context.now)
    }
}

/// The caller of a `.key` or `.optionalUser` route: the account only when its credentials are valid.
typealias KeyCaller = WarrantyLifeCaller<UserRecord?>

/// The caller of a `.user` route: always signed in.
typealias UserCaller = WarrantyLifeCaller<UserRecord>
