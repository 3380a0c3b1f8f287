import EmulatorCore
import Foundation
import Storage

/// A state stored as its raw text in a column (read and bound by the store's constrained
/// extensions for `String`-backed enums), whose values validation messages list.
protocol StoredState: RawRepresentable<String>, SQLColumnDecodable, SQLBindable, CaseIterable, Sendable {}

extension StoredState {
    /// The raw values, for validation messages (`valid, revoked or unavailable`).
    static var allowedList: String {
        let values = allCases.map(\.rawValue)
        return values.dropLast().joined(separator: ", ") + " or " + (values.last ?? "")
    }
}

/// A developer key's state (D-WL-09): `unavailable` answers 503 or hangs on validation.
enum DeveloperKeyState: String, StoredState, Codable {
    case valid, revoked, unavailable
}

/// How an `unavailable` developer key fails validation.
enum UnavailableMode: String, StoredState, Codable {
    case status, hang
}

/// A voucher's redemption state.
enum VoucherStatus: String, StoredState, Codable {
    case unredeemed, claimed, redeemed
}

/// A developer key as stored.
struct DeveloperKeyRecord: RowDecodable, Sendable, Equatable {
    var key: String
    var projectID: ProjectID
    var name: String
    var environment: String
    var state: DeveloperKeyState
    var unavailableMode: UnavailableMode
    var createdAt: String

    init(key: String, projectID: ProjectID, name: String, environment: String, state: DeveloperKeyState, unavailableMode: UnavailableMode, createdAt: String) {
        self.key = key
        self.projectID = projectID
        self.name = name
        self.environment = environment
        self.state = state
        self.unavailableMode = unavailableMode
        self.createdAt = createdAt
    }

    init(row: Row) throws {
        key = try row.decode("key")
        projectID = try row.decode("project_id")
        name = try row.decode("name")
        environment = try row.decode("environment")
        state = try row.decode("state")
        unavailableMode = try row.decode("unavailable_mode")
        createdAt = try row.decode("created_at")
    }
}

/// An account as stored; `identity` is the e-mail (what the SDK puts before the `:` in Basic auth).
struct UserRecord: RowDecodable, Sendable, Equatable {
    var id: String
    var email: String
    var password: String?
    var token: String
    var activated: Bool
    var profile: [String: JSONValue]
    var createdAt: String

    var identity: String { email }

    /// Profile members `/whoami` shows and the control plane and registration accept.
    static let profileFields = ["firstName", "lastName", "company", "streetAddress", "city", "zip", "country", "countryCode", "state", "stateCode", "phone"]

    init(id: String, email: String, password: String?, token: String, activated: Bool, profile: [String: JSONValue], createdAt: String) {
        self.id = id
        self.email = email
        self.password = password
        self.token = token
        self.activated = activated
        self.profile = profile
        self.createdAt = createdAt
    }

    init(row: Row) throws {
        id = try row.decode("id")
        email = try row.decode("email")
        password = try row.decodeIfPresent("password")
        token = try row.decode("token")
        activated = try row.decode("activated")
        profile = try row.jsonObject("profile")
        createdAt = try row.decode("created_at")
    }
}

/// A device's item as stored.
struct ItemRecord: RowDecodable, Sendable, Equatable {
    var id: String
    var deviceID: String
    var userID: String
    var categoryID: String?
    var manufacturerName: String?
    var model: String?
    var mpn: String?
    var imei: String?
    var notificationToken: String?
    var ssr: Bool
    var ssd: Bool
    var tradeIn: Bool
    var createdAt: String
    var updatedAt: String

    init(
        id: String, deviceID: String, userID: String, categoryID: String?, manufacturerName: String?, model: String?, mpn: String?, imei: String?,
        notificationToken: String?, ssr: Bool, ssd: Bool, tradeIn: Bool, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.deviceID = deviceID
        self.userID = userID
        self.categoryID = categoryID
        self.manufacturerName = manufacturerName
        self.model = model
        self.mpn = mpn
        self.imei = imei
        self.notificationToken = notificationToken
        self.ssr = ssr
        self.ssd = ssd
        self.tradeIn = tradeIn
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    init(row: Row) throws {
        id = try row.decode("id")
        deviceID = try row.decode("device_id")
        userID = try row.decode("user_id")
        categoryID = try row.decodeIfPresent("category_id")
        manufacturerName = try row.decodeIfPresent("manufacturer_name")
        model = try row.decodeIfPresent("model")
        mpn = try row.decodeIfPresent("mpn")
        imei = try row.decodeIfPresent("imei")
        notificationToken = try row.decodeIfPresent("notification_token")
        ssr = try row.decode("ssr")
        ssd = try row.decode("ssd")
        tradeIn = try row.decode("trade_in")
        createdAt = try row.decode("created_at")
        updatedAt = try row.decode("updated_at")
    }

    /// Whether the caller has opted into `program` (`SSR`, `SSD`, `TRADE_IN`).
    func isOptedIn(_ program: SmartSaverProgram) -> Bool {
        switch program {
        case .ssr: return ssr
        case .ssd: return ssd
        case .tradeIn: return tradeIn
        }
    }

    /// Sets the opt-in flag of `program`.
    mutating func setOptedIn(_ program: SmartSaverProgram, _ value: Bool) {
        switch program {
        case .ssr: ssr = value
        case .ssd: ssd = value
        case .tradeIn: tradeIn = value
        }
    }
}

/// A warranty as stored: the D-WL-20 document without the computed fields.
struct WarrantyRecord: RowDecodable, Sendable, Equatable {
    var id: String
    var itemID: String?
    var userID: String?
    var voucherCode: String?
    var document: [String: JSONValue]

    /// Statuses a warranty document may hold.
    static let statuses = ["PENDING_ACTIVATION", "ACTIVE", "EXPIRED", "CANCELLED", "TRANSFERRED"]

    init(id: String, itemID: String?, userID: String?, voucherCode: String?, document: [String: JSONValue]) {
        self.id = id
        self.itemID = itemID
        self.userID = userID
        self.voucherCode = voucherCode
        self.document = document
    }

    /// Documents by their stored text: a voucher lookup on a covered device reads its warranties
    /// every time, and parsing each document was a twentieth of the lookup.
    private static let documents = DecodedTextCache<[String: JSONValue]>(capacity: 1_024)

    init(row: Row) throws {
        id = try row.decode("id")
        itemID = try row.decodeIfPresent("item_id")
        userID = try row.decodeIfPresent("user_id")
        voucherCode = try row.decodeIfPresent("voucher_code")
        document = try row.jsonObject("document", cache: Self.documents)
    }

    /// The document's status; a document without one is `ACTIVE` (how seeded warranties start).
    var status: String { document["status"]?.stringValue ?? "ACTIVE" }

    /// The status as the SDK reads it at `now`: an `ACTIVE` warranty past its coverage end is
    /// `EXPIRED` (the stored status stays, so moving the clock back revives it).
    func status(now: Date) -> String {
        guard status == "ACTIVE", let end = document["coverageEndDate"]?.stringValue, let date = WarrantyLifeService.parseDate(end), now >= date else {
            return status
        }
        return "EXPIRED"
    }

    /// Whether it covers its device at `now`.
    func isActive(now: Date) -> Bool {
        WarrantyLifeService.hasActiveCoverage(
            status: status, start: document["coverageStartDate"]?.stringValue,
            end: document["coverageEndDate"]?.stringValue, now: now)
    }
}

/// One `GET /vouchers/{code}` as recorded: later registration and warranty calls read the
/// caller's latest lookup to know which voucher they are completing.
struct VoucherLookupRecord: RowDecodable, Sendable, Equatable {
    var id: Int
    var code: String
    var deviceID: String?
    var userID: String?
    var action: String
    var registrationType: String
    var createdAt: String

    init(row: Row) throws {
        id = try row.decode("id")
        code = try row.decode("code")
        deviceID = try row.decodeIfPresent("device_id")
        userID = try row.decodeIfPresent("user_id")
        action = try row.decode("action")
        registrationType = try row.decode("registration_type")
        createdAt = try row.decode("created_at")
    }
}

/// A stored upload parent (sensor event or diagnostic report): only whose item it belongs to
/// matters to the routes that attach readings, clips and images to it.
struct UploadParentRecord: RowDecodable, Sendable, Equatable {
    var id: String
    var itemID: String

    init(row: Row) throws {
        id = try row.decode("id")
        itemID = try row.decode("item_id")
    }
}
